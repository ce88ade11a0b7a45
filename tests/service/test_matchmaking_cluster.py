"""Matchmaking on a real Redis Cluster (docs/ratings.md, "In Redis"): every matchmaking key
shares one hash tag, so each script runs on one slot whatever slots the players' and games'
keys have; two service processes form tables from requests made through either, each ticket
in exactly one game, and a cancel works there too."""

from __future__ import annotations

import grpc
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from risk_proto.risk.v1 import matchmaking_pb2, service_pb2
from risk_testing.rpc import bearer
from tests.cluster import conftest as clustered
from tests.service.test_matchmaking import MATCHED, Stub, ask, until_status
from tests.service.test_my_games import new_player

ClusterServiceFactory = clustered.ClusterServiceFactory
# the cluster tests' fixtures (a 3-master cluster per module, its client, its services)
cluster, cluster_client = clustered.cluster, clustered.cluster_client
make_cluster_service = clustered.make_cluster_service


async def test_tables_form_once_on_a_cluster(
        make_cluster_service: ClusterServiceFactory, cluster_client: RedisCluster) -> None:
    """Six players ask for 3-tables through two processes on a 3-master cluster: two games,
    every ticket MATCHED in one of them with its player seated; a seventh request is
    cancelled; every `risk:mm:` key is in one slot."""
    services = [make_cluster_service(RISK_MATCH_INTERVAL_MS="20") for _ in range(2)]
    channels = [grpc.aio.insecure_channel(s.target) for s in services]
    try:
        stubs = [Stub(c) for c in channels]
        players = [await new_player(stubs[0]) for _ in range(7)]
        tickets = [await stubs[n % 2].RequestMatch(ask(sizes=[3]), metadata=bearer(token))
                   for n, (_pid, token) in enumerate(players[:6])]
        done = [await until_status(stubs[n % 2], token, t.ticket_id, {MATCHED})
                for n, ((_pid, token), t) in enumerate(zip(players, tickets, strict=False))]
        games = {t.game_id for t in done}
        assert len(games) == 2
        for game_id in games:
            game = (await stubs[1].GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
            seated = {s.player_id for s in game.seats}
            assert seated == {pid for (pid, _t), t in zip(players, done, strict=False)
                              if t.game_id == game_id}
        _pid, last = players[6]
        waiting = await stubs[0].RequestMatch(ask(sizes=[5]), metadata=bearer(last))
        cancelled = await stubs[1].CancelMatch(
            matchmaking_pb2.MatchTicketRequest(ticket_id=waiting.ticket_id),
            metadata=bearer(last))
        assert cancelled.status == matchmaking_pb2.MATCH_STATUS_CANCELLED
        keys = [k async for k in cluster_client.scan_iter(match="risk:mm:*")]
        assert keys and len({key_slot(k) for k in keys}) == 1
    finally:
        for channel in channels:
            await channel.close()
