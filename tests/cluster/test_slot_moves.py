"""Slots that move between masters (a resharding): the hot path follows ASK during the move
and MOVED after it, and a game played through one process while its slot moves goes on, its
spectator on the other process missing nothing."""

from __future__ import annotations

import asyncio
from typing import cast

import redis.asyncio
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_service.store.cluster_pipe import ClusterPipe
from risk_service.store.keys import Keys
from tests.cluster.conftest import ClusterServiceFactory
from tests.cluster.topology import LocalCluster
from tests.service.rawbot import (
    Log,
    Stub,
    assert_replays,
    channel,
    open_table,
    play,
    quick_game,
    seqs,
    stored,
)
from tests.service.streamcheck import assert_every_version_streamed


async def test_shared_connection_follows_ask_then_moved(
    cluster: LocalCluster, cluster_client: RedisCluster
) -> None:
    """A key already moved to the importing node is read there after ASK (the map stays);
    once the slot is the target's, MOVED updates the map and the read goes there directly."""
    key = "risk:g:{askmoved}"
    await cluster_client.hset(key, "f", "v")
    slot = key_slot(key.encode())
    source = cluster.master_of(key)
    target = next(m for m in cluster.live_masters() if m is not source)
    pipe = ClusterPipe(cluster.url)
    try:
        assert await pipe.call("HGET", key, "f") == b"v"
        cluster.begin_migration(slot, source, target)
        cluster.migrate_keys(slot, source, target, [key])
        assert await pipe.call("HGET", key, "f") == b"v", "read on the target after ASK"
        assert pipe.redirects == 1
        assert pipe.owners[slot][1] == source.port, "ASK does not change the slot map"
        cluster.finish_migration(slot, target)
        assert await pipe.call("HGET", key, "f") == b"v", "read on the target after MOVED"
        assert pipe.redirects == 2
        assert pipe.owners[slot][1] == target.port
        assert await pipe.call("HGET", key, "f") == b"v"
        assert pipe.redirects == 2, "the new map is used without a redirection"
    finally:
        await pipe.close()


async def test_game_goes_on_while_its_slot_moves(
    cluster: LocalCluster, cluster_client: RedisCluster,
    make_cluster_service: ClusterServiceFactory
) -> None:
    """Mid-game, the game's slot is moved to another master while moves keep coming: play
    goes on, Redis holds exactly the acknowledged moves, and a spectator on the other
    process receives every event once, in order."""
    a, b = make_cluster_service(), make_cluster_service()
    async with channel(a.target) as ca, channel(b.target) as cb:
        sa, sb = Stub(ca), Stub(cb)
        table = await open_table(sa, quick_game(seed=12))
        key = Keys().game(table.game_id)
        slot = key_slot(key.encode())
        watched: list[game_pb2.Event] = []

        async def watch() -> None:
            async for message in sb.StreamEvents(service_pb2.StreamEventsRequest(
                    game_id=table.game_id)):
                watched.append(message.event)

        watcher = asyncio.create_task(watch())
        source = cluster.master_of(key)
        target = next(m for m in cluster.live_masters() if m is not source)
        moved: list[bool] = []

        async def move(moves: int, _version: int) -> None:
            if moves == 10 and not moved:
                await asyncio.to_thread(cluster.move_slot, slot, target)
                moved.append(True)

        log = Log(table.start_version)
        await play(sa, table, log, before_submit=move)
        final = (await sa.GetGame(service_pb2.GetGameRequest(game_id=table.game_id))).game
        for _ in range(200):
            if watched and watched[-1].seq >= final.last_seq:
                break
            await asyncio.sleep(0.05)
        watcher.cancel()
    assert moved and cluster.master_of(key) is target
    assert seqs(watched) == list(range(1, final.last_seq + 1))
    assert_every_version_streamed(watched, final.version)
    assert_replays(await stored(cast(redis.asyncio.Redis, cluster_client), table.game_id),
                   table, log)
