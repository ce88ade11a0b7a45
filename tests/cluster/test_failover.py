"""Failover on a real Redis Cluster with RISK_DURABILITY=replica: SIGKILL the master holding a
game mid-play; its replica takes over, both service processes go on within seconds, every
acknowledged action is in Redis, a live spectator on the other process resumes without a gap,
and the game replays exactly. Also: what a write no replica confirmed is answered."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from pathlib import Path
from typing import cast

import grpc
import redis
import redis.asyncio
from redis.asyncio.cluster import RedisCluster

from risk_proto.risk.v1 import service_pb2
from risk_service.store.keys import Keys
from risk_testing.cluster import LocalCluster
from risk_testing.harness import ServiceProcess
from risk_testing.redis_server import RedisServer
from risk_testing.rpc import bearer, error_info, rpc_error
from tests.cluster.conftest import ClusterServiceFactory
from tests.service.rawbot import (
    Log,
    Spectator,
    Stub,
    assert_replays,
    channel,
    next_request,
    open_table,
    play,
    quick_game,
    seqs,
    stored,
)
from tests.service.streamcheck import assert_every_version_streamed

KILL_AT_MOVE = 12
DURABLE = {"RISK_DURABILITY": "replica", "RISK_DURABILITY_TIMEOUT_MS": "2000"}


async def test_killed_master_loses_no_acknowledged_action(
    cluster: LocalCluster, cluster_client: RedisCluster,
    make_cluster_service: ClusterServiceFactory
) -> None:
    """Kill the game's master after a dozen moves: the game plays on to its end through the
    promoted replica; nothing acknowledged is lost, the spectator's stream has every seq once."""
    a, b = make_cluster_service(**DURABLE), make_cluster_service(**DURABLE)
    async with channel(a.target) as ca, channel(b.target) as cb:
        sa, sb = Stub(ca), Stub(cb)
        table = await open_table(sa, quick_game(seed=9))
        spectator = Spectator(sb, table.game_id)
        victim = cluster.master_of(Keys().game(table.game_id))
        killed_at: list[int] = []  # the version the game was at when its master died
        restarted: list[asyncio.Task[None]] = []

        async def kill(moves: int, version: int) -> None:
            if moves == KILL_AT_MOVE and not killed_at:
                victim.kill()
                killed_at.append(version)
                # the supervisor of a real deployment restarts the node; it rejoins as the
                # promoted replica's replica, so "replica" durability can acknowledge again.
                # Only once the replica has taken over: a node back before that (3 s after
                # the kill, on a loaded machine) is the master again, with the AOF it had
                # (everysec: maybe without the game just created), and its replica copies
                # that: the game was NOT_FOUND, or its last acknowledged moves lost
                restarted.append(asyncio.create_task(asyncio.to_thread(
                    _restart_once_failed_over, cluster, victim, Keys().game(table.game_id))))

        log = Log(table.start_version)
        try:
            await play(sa, table, log, before_submit=kill)
            await asyncio.gather(*restarted)
        finally:
            if not victim.is_running():
                victim.start()
        assert killed_at, "the master was killed during play"
        final = (await sa.GetGame(service_pb2.GetGameRequest(game_id=table.game_id))).game
        assert final.HasField("outcome")
        watched = await spectator.until(final.last_seq)
    # the game went on through the promoted replica: moves acknowledged after the kill. (The
    # client may see no failure at all: the service holds a move until the new master
    # answers, and the restarted node is copied at once, so "replica" durability's wait can
    # be met within its timeout.)
    assert final.version > killed_at[0] + 1, "no move was acknowledged after the kill"
    assert cluster.master_of(Keys().game(table.game_id)) is not victim
    assert seqs(watched) == list(range(1, final.last_seq + 1)), "a gap or a repeat"
    assert_every_version_streamed(watched, final.version)
    held = await stored(cast(redis.asyncio.Redis, cluster_client), table.game_id)
    assert_replays(held, table, log)  # every acknowledged move, in order, nothing else
    cluster.wait_ready()  # the restarted node is a replica again: the next module is whole


def _restart_once_failed_over(cluster: LocalCluster, victim: RedisServer, key: str,
                              timeout: float = 60) -> None:
    """Start the killed `victim` again once another node serves `key`'s slot."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(redis.RedisError, LookupError, IndexError):
            if cluster.master_of(key) is not victim:
                break
        assert time.monotonic() < deadline, "the killed master's replica never took over"
        time.sleep(0.05)
    victim.start()


async def _replicated(master: RedisServer) -> None:
    """Until `master`'s replica has every write the master has (nothing acknowledged is then
    lost by its failover, whatever the durability)."""
    async with redis.asyncio.Redis.from_url(master.url) as client:
        for _ in range(200):
            info = await client.info("replication")
            replicas = [v for k, v in info.items() if k.startswith("slave")
                        and isinstance(v, dict)]
            if replicas and all(int(r["offset"]) >= int(info["master_repl_offset"])
                                for r in replicas):
                return
            await asyncio.sleep(0.01)
    raise AssertionError("the replica did not catch up")


async def test_a_master_that_stops_answering_is_failed_over_while_it_stays_stopped(
    cluster: LocalCluster, cluster_client: RedisCluster,
    make_cluster_service: ClusterServiceFactory
) -> None:
    """Stop the game's master (SIGSTOP: its host lost without closing a connection) after a
    dozen moves and keep it stopped: the service gives up on its silent connections after
    RISK_REDIS_TIMEOUT_MS, finds the promoted replica, and the game plays to its end there,
    a spectator on another process seeing every seq once. The players' process names that
    very node in its REDIS_URL, so the new slot map must come from the nodes the last one
    named. (Held on connections no one answers, the game stood still for as long as the node
    stayed stopped; and a service whose REDIS_URL node was gone asked only that node.)"""
    b = make_cluster_service(RISK_REDIS_TIMEOUT_MS="1000")
    async with channel(b.target) as cb:
        sb = Stub(cb)
        table = await open_table(sb, quick_game(seed=10))
        spectator = Spectator(sb, table.game_id)
        victim = cluster.master_of(Keys().game(table.game_id))
        a = make_cluster_service(seed=victim, RISK_REDIS_TIMEOUT_MS="1000")
        ca = channel(a.target)
        sa = Stub(ca)
        pid = victim.pid
        assert pid is not None
        stopped: list[float] = []

        async def stop(moves: int, _version: int) -> None:
            if moves == KILL_AT_MOVE and not stopped:
                await _replicated(victim)  # "local" durability: lose nothing acknowledged
                os.kill(pid, signal.SIGSTOP)
                stopped.append(time.monotonic())

        log = Log(table.start_version)
        try:
            async with asyncio.timeout(60):
                await play(sa, table, log, before_submit=stop)
                final = (await sa.GetGame(service_pb2.GetGameRequest(
                    game_id=table.game_id))).game
                watched = await spectator.until(final.last_seq)
        finally:
            os.kill(pid, signal.SIGCONT)  # it rejoins as the promoted replica's replica
            await ca.close()
    assert stopped, "the master was stopped during play"
    assert final.HasField("outcome"), "the game was played to its end with its master stopped"
    assert seqs(watched) == list(range(1, final.last_seq + 1)), "a gap or a repeat"
    cluster.wait_ready()  # the stopped node is a replica again: the next test is whole
    assert cluster.master_of(Keys().game(table.game_id)) is not victim, "it was failed over"
    held = await stored(cast(redis.asyncio.Redis, cluster_client), table.game_id)
    assert_replays(held, table, log)


async def test_write_no_replica_confirms_is_unavailable_then_retried(tmp_path: Path) -> None:
    """On a Redis with no replica, "replica" durability answers UNAVAILABLE (replicated=
    false) after the timeout, the move stays written; once a replica is attached the same
    request id is answered with the same, stored reply and commits nothing more."""
    primary = RedisServer(tmp_path / "primary", appendfsync="everysec",
                          extra_args=("--repl-diskless-sync-delay", "0"))
    replica = RedisServer(tmp_path / "replica", appendfsync="everysec",
                          extra_args=("--replicaof", "127.0.0.1", str(primary.port)))
    primary.start()
    local = ServiceProcess(primary.url, tmp_path)
    durable = ServiceProcess(primary.url, tmp_path, RISK_DURABILITY="replica",
                             RISK_DURABILITY_TIMEOUT_MS="200")
    try:
        local.start()
        durable.start()
        async with channel(local.target) as cl, channel(durable.target) as cd:
            sl, sd = Stub(cl), Stub(cd)
            table = await open_table(sl, quick_game(seed=4))
            request, seat = await next_request(sl, table, "durable-1")
            version = request.expected_version
            error = await rpc_error(sd.SubmitAction(request, metadata=bearer(table.tokens[seat])))
            assert error.code() == grpc.StatusCode.UNAVAILABLE
            assert error_info(error).metadata["replicated"] == "false"
            after = (await sl.GetGame(service_pb2.GetGameRequest(game_id=table.game_id))).game
            assert after.version == version + 1, "the master kept the write"
            replica.start()
            async with redis.asyncio.Redis.from_url(replica.url) as watch:
                for _ in range(100):
                    if (await watch.info("replication")).get("master_link_status") == "up":
                        break
                    await asyncio.sleep(0.05)
            reply = await sd.SubmitAction(request, metadata=bearer(table.tokens[seat]))
            assert reply.version == version + 1
            again = (await sl.GetGame(service_pb2.GetGameRequest(game_id=table.game_id))).game
            assert again.version == version + 1, "the retry committed nothing more"
    finally:
        local.stop()
        durable.stop()
        replica.stop()
        primary.stop()
