"""Broadcasts on a Redis Cluster (issue 37): a tournament's games streamed as one StreamGames
stream by one service process while another commits their moves, and the spectator counts
of streams on two processes summed from the game's own slot."""

from __future__ import annotations

import asyncio
import time

import grpc
from redis.asyncio.cluster import RedisCluster

from risk_proto.risk.v1 import (
    broadcast_pb2,
    classic_pb2,
    game_pb2,
    service_pb2,
    service_pb2_grpc,
    tournament_pb2,
)
from tests.cluster.conftest import ClusterServiceFactory
from tests.web.driver import move_by_grpc

Stub = service_pb2_grpc.RiskServiceStub
OPTIONS = game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
    players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True))


async def test_stream_games_and_spectator_counts_on_a_cluster(
        make_cluster_service: ClusterServiceFactory, cluster_client: RedisCluster) -> None:
    """Process A follows a two-game round; moves made through process B reach it, each
    game's seqs 1..last once; a spectator stream on each process counts 2 on both."""
    a, b = make_cluster_service(), make_cluster_service()
    async with grpc.aio.insecure_channel(a.target) as ca, \
            grpc.aio.insecure_channel(b.target) as cb:
        stub_a, stub_b = Stub(ca), Stub(cb)
        created = await stub_b.CreateRound(tournament_pb2.CreateRoundRequest(
            request_id="r1", tournament="cl", round=1, options=OPTIONS,
            games=[tournament_pb2.RoundTable(seats=[
                tournament_pb2.RoundSeat(player=f"p{t}a"),
                tournament_pb2.RoundSeat(player=f"p{t}b")]) for t in range(2)]))
        games = {g.game_id: dict(enumerate(g.seat_tokens)) for g in created.games}
        call = stub_a.StreamGames(broadcast_pb2.StreamGamesRequest(tournament="cl"))
        for game_id, tokens in games.items():
            for _ in range(2):
                await move_by_grpc(stub_b, game_id, tokens)
        lasts = {g: (await stub_b.GetGame(service_pb2.GetGameRequest(game_id=g))).game.last_seq
                 for g in games}
        seqs: dict[str, list[int]] = {g: [] for g in games}
        deadline = time.monotonic() + 20
        while any(not seqs[g] or seqs[g][-1] < s for g, s in lasts.items()):
            assert time.monotonic() < deadline, seqs
            reply = await asyncio.wait_for(call.read(), 20)
            if reply.WhichOneof("kind") == "event":
                seqs[reply.event.game_id].append(reply.event.event.seq)
        call.cancel()
        assert seqs == {g: list(range(1, s + 1)) for g, s in lasts.items()}

        game_id = next(iter(games))
        watchers = [stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id))
                    for stub in (stub_a, stub_b)]
        for watcher in watchers:
            await watcher.read()

        async def counted() -> tuple[int, ...]:
            return tuple([(await stub.GetGame(service_pb2.GetGameRequest(
                game_id=game_id))).game.spectators for stub in (stub_a, stub_b)])

        deadline = time.monotonic() + 15
        while await counted() != (2, 2):
            assert time.monotonic() < deadline, await counted()
            await asyncio.sleep(0.05)
        for watcher in watchers:
            watcher.cancel()
