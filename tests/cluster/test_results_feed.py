"""StreamResults on a Redis Cluster: the tournament's feed is followed by the cluster's feed
readers, woken by the doorbell its copy script rings, so caught-up results streams read nothing
while idle and a new fact reaches them well before the readers' 5 s sweep would bring it."""

from __future__ import annotations

import asyncio
import time

import grpc
from redis.asyncio.cluster import RedisCluster

from risk_proto.risk.v1 import service_pb2
from risk_testing.rpc import bearer
from tests.cluster.conftest import ClusterServiceFactory
from tests.tournament.players import Stub
from tests.tournament.test_results_live import (
    STREAMS,
    WINDOW_S,
    assert_no_commands,
    caught_up,
    round_of_players,
)

LIVE_S = 1.5  # a fact brought by the doorbell, not by the readers' sweep (every 5 s)


async def feed_reads(cluster: RedisCluster) -> int:
    """XRANGE and XREAD calls on every master: what reading a results feed takes."""
    stats = await cluster.info("commandstats", target_nodes=RedisCluster.PRIMARIES)
    return sum(int(node.get(f"cmdstat_{command}", {}).get("calls", 0))
               for node in stats.values() for command in ("xrange", "xread"))


async def test_idle_results_streams_read_nothing_and_a_fact_arrives_by_the_doorbell(
        make_cluster_service: ClusterServiceFactory, cluster_client: RedisCluster) -> None:
    """Twenty caught-up StreamResults on a cluster: for two seconds no master is asked an
    XRANGE or XREAD (beyond one sweep read); then a resignation's fact reaches one of them
    within 1.5 s, with no XRANGE by any stream."""
    service = make_cluster_service()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        created = await stub.CreateRound(round_of_players("cluster-cup"))
        game = created.games[0]
        calls = await caught_up(stub, "cluster-cup", STREAMS)
        await assert_no_commands(lambda: feed_reads(cluster_client), 0, WINDOW_S, 1)

        stats = await cluster_client.info("commandstats", target_nodes=RedisCluster.PRIMARIES)
        xranges = sum(int(node.get("cmdstat_xrange", {}).get("calls", 0))
                      for node in stats.values())
        await stub.Resign(service_pb2.ResignRequest(game_id=game.game_id, request_id="bye"),
                          metadata=bearer(game.seat_tokens[1]))
        started = time.monotonic()
        fact = (await asyncio.wait_for(calls[0].read(), 10)).fact
        assert time.monotonic() - started < LIVE_S
        assert (fact.seq, fact.WhichOneof("kind")) == (3, "seat_resigned")
        assert fact.seat_resigned.seat == 1
        stats = await cluster_client.info("commandstats", target_nodes=RedisCluster.PRIMARIES)
        assert sum(int(node.get("cmdstat_xrange", {}).get("calls", 0))
                   for node in stats.values()) == xranges
        for call in calls[1:]:
            assert (await asyncio.wait_for(call.read(), 10)).fact.seq == 3
        for call in calls:
            call.cancel()
