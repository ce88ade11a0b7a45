"""Ratings on a Redis Cluster (docs/ratings.md): a rated game's seats are players whose keys
live in different hash slots, and each one's rating is updated once by a script on its own
slot; the leaderboard, one sorted set in one slot, orders them and pages around a player."""

from __future__ import annotations

import grpc
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from risk_proto.risk.v1 import ratings_pb2, service_pb2_grpc
from risk_service.store.keys import Keys
from tests.cluster.conftest import ClusterServiceFactory
from tests.service.test_ratings import CLASSIC, board, players, rated_game, resign_in_order, until

KEYS = Keys()


async def test_a_rated_game_on_a_cluster_rates_players_of_different_slots_once(
        make_cluster_service: ClusterServiceFactory, cluster_client: RedisCluster) -> None:
    """Five players (their rating keys spread over more than one slot) finish a rated game;
    every rating counts it once, the board orders them by the game's ranking and a page
    around the middle player is centred on them."""
    service = make_cluster_service()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)  # type: ignore[no-untyped-call]
        seated = await players(stub, 5)
        ids = [p for p, _t in seated]
        slots = {key_slot(KEYS.player(p, "rt:classic:1").encode()) for p in ids}
        assert len(slots) > 1, "the players' ratings should span slots"
        game_id = await rated_game(stub, seated)
        ranking = await resign_in_order(stub, game_id, seated, [4, 3, 2, 1])
        assert ranking == [0, 1, 2, 3, 4]

        async def rated() -> list[int] | None:
            got = [(await stub.GetRating(ratings_pb2.GetRatingRequest(
                player_id=p, variant=CLASSIC))).rating.games for p in ids]
            return got if all(got) else None

        assert await until("every seat rated", rated) == [1, 1, 1, 1, 1]
        top = await board(stub)
        assert [e.rating.player_id for e in top.entries] == ids and top.total == 5
        around = await board(stub, page_size=3, around_player=ids[2])
        assert [e.rank for e in around.entries] == [2, 3, 4]
        for player in ids:
            history = (await stub.GetRating(ratings_pb2.GetRatingRequest(
                player_id=player, variant=CLASSIC))).history
            assert [h.game_id for h in history] == [game_id]
