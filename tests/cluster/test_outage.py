"""A whole Redis Cluster down and back (every node restarting: a power cut, a redeploy): the
service rides it out. Its own cluster, one node, so that the other modules' stay whole."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from risk_proto.risk.v1 import service_pb2
from risk_testing.cluster import LocalCluster
from risk_testing.harness import ServiceProcess
from tests.cluster.conftest import ClusterServiceFactory
from tests.service.rawbot import Log, Spectator, Stub, channel, open_table, play, quick_game, seqs


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    topology = LocalCluster(tmp_path_factory.mktemp("redis-cluster"), masters=1, replicas=0)
    topology.start()
    yield topology
    topology.stop()


async def _logged(service: ServiceProcess, text: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while text not in service.logs():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.1)
    return True


async def test_a_live_stream_resumes_after_every_node_of_the_cluster_restarted(
    cluster: LocalCluster, make_cluster_service: ClusterServiceFactory
) -> None:
    """A spectator watches a game while the cluster's only node is killed and restarted: once
    it is back, the game plays on to its end and the spectator's stream has every seq once.
    (While no node answers, redis-py's cluster client raises `RedisClusterException`, which is
    no `RedisError`; the feed reader that met it ended, and its streams stayed open and silent
    for good.)"""
    service = make_cluster_service()
    async with channel(service.target) as ch:
        stub = Stub(ch)
        table = await open_table(stub, quick_game(seed=5))
        spectator = Spectator(stub, table.game_id)
        log = Log(table.start_version)
        await play(stub, table, log, moves=4)
        for node in cluster.nodes:
            node.kill()
        # the service meets the outage within a second (its sweeper, its feed's reader); a
        # bounded wait, so that a reader that ends without a word fails below, on what the
        # spectator saw
        met = await _logged(service, "Redis Cluster cannot be connected", timeout=10)
        for node in cluster.nodes:
            node.start()
        cluster.wait_ready()
        await play(stub, table, log)
        final = (await stub.GetGame(service_pb2.GetGameRequest(game_id=table.game_id))).game
        # this has failed twice under load (a game read back WAITING at last_seq 49) and the
        # cause is not known yet: keep what the next failure needs to tell why
        assert final.HasField("outcome"), (
            f"the game did not end after the restart: {final}\n"
            f"moves acknowledged: version {log.version}\n"
            f"service log (tail):\n{service.logs()[-6000:]}")
        watched = await spectator.until(final.last_seq)
    assert met, "the service saw the cluster unreachable"
    assert seqs(watched) == list(range(1, final.last_seq + 1)), "the stream stopped or skipped"
