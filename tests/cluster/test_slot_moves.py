"""Slots that move between masters (a resharding, a failover): the hot path follows ASK during
the move and MOVED after it; a game played through one process while its slot moves goes on,
its spectator on the other process missing nothing; and a new master that lacks events a
stream delivered ends that stream GAME_ROLLED_BACK."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import grpc
import redis.asyncio
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_service.store.cluster_pipe import ClusterPipe
from risk_service.store.keys import Keys
from risk_testing.cluster import LocalCluster
from risk_testing.rpc import create_request, error_info, rpc_error
from tests.cluster.conftest import ClusterServiceFactory
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


async def test_commands_each_routed_by_their_keys_follow_ask_and_moved(
    cluster: LocalCluster, cluster_client: RedisCluster
) -> None:
    """A page's reads (`call_each`, one command per game, the games on every master) answer
    each game's own hash, in order, before, during and after the move of one game's slot."""
    keys = [f"risk:g:{{each{n}}}" for n in range(40)]
    for n, key in enumerate(keys):
        await cluster_client.hset(key, mapping={"n": n, "k": key})
    assert len({cluster.master_of(key).port for key in keys}) > 1, "one master holds them all"
    moving = keys[7]
    slot = key_slot(moving.encode())
    source = cluster.master_of(moving)
    target = next(m for m in cluster.live_masters() if m is not source)
    expected = [[str(n).encode(), key.encode()] for n, key in enumerate(keys)]
    pipe = ClusterPipe(cluster.url)
    try:
        async def read() -> list[Any]:
            return await pipe.call_each(*(("HMGET", key, "n", "k") for key in keys))

        assert await read() == expected
        cluster.begin_migration(slot, source, target)
        cluster.migrate_keys(slot, source, target, [moving])
        assert await read() == expected, "the moved key read on the target after ASK"
        cluster.finish_migration(slot, target)
        assert await read() == expected, "read on the target after MOVED"
        assert pipe.owners[slot][1] == target.port
        assert pipe.redirects == 2
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


async def test_new_master_without_delivered_events_ends_the_stream_rolled_back(
    cluster: LocalCluster, cluster_client: RedisCluster,
    make_cluster_service: ClusterServiceFactory
) -> None:
    """`local` durability's loss, staged: the game's keys go back to an earlier copy (as on a
    replica promoted before it had the last writes) and its slot changes master. A spectator
    whose stream delivered the lost events is ended ABORTED / GAME_ROLLED_BACK naming the last
    seq that survived, so it can resume on the state Redis now holds."""
    service = make_cluster_service(RISK_CLUSTER_FEED_SWEEP_MS="300")
    async with channel(service.target) as ch:
        stub = Stub(ch)
        game = (await stub.CreateGame(create_request(seed=6, players=3))).game
        call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game.game_id))
        await _read_until(call, game.last_seq)
        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game.game_id, seat=0))
        survived = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))
                    ).game.last_seq
        await _read_until(call, survived)
        keys = Keys().game_keys(game.game_id)
        copies = [await cluster_client.dump(key) for key in keys]
        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game.game_id, seat=1))
        lost = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))
                ).game.last_seq
        assert lost > survived
        await _read_until(call, lost)

        for key, copy in zip(keys, copies, strict=True):  # the promoted replica's state
            if copy is None:
                await cluster_client.delete(key)
            else:
                await cluster_client.restore(key, 0, copy, replace=True)
        source = cluster.master_of(keys[0])
        target = next(m for m in cluster.live_masters() if m is not source)
        await asyncio.to_thread(cluster.move_slot, key_slot(keys[0].encode()), target)

        error = await asyncio.wait_for(rpc_error(call.read()), 20)
        assert error.code() == grpc.StatusCode.ABORTED
        info = error_info(error)
        assert (info.reason, info.metadata["last_seq"]) == ("GAME_ROLLED_BACK", str(survived))


async def _read_until(call: Any, seq: int) -> list[int]:
    seqs: list[int] = []
    while not seqs or seqs[-1] < seq:
        seqs.append((await asyncio.wait_for(call.read(), 10)).event.seq)
    return seqs
