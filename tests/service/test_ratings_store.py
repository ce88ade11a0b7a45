"""Ratings in Redis (risk_service.ratings.store and .service): defaults, one application per
game, the leaderboard's order, and bot levels on a board of their own, on a real Redis."""

from __future__ import annotations

import pytest
import redis.asyncio

from risk_proto.risk.v1 import common_pb2, ratings_pb2
from risk_service.operations.limits import Limits
from risk_service.ratings import record
from risk_service.ratings.model import DEFAULT_MU, DEFAULT_SIGMA, rate
from risk_service.ratings.service import Ratings
from risk_service.ratings.store import RatingStore, current_ratings
from risk_service.store.keys import Keys

pytestmark = pytest.mark.asyncio


async def test_unknown_players_have_the_default_rating(
        redis_client: redis.asyncio.Redis) -> None:
    """A player never rated reads as mu 25, sigma 25/3, no games, not on the board."""
    ratings = await current_ratings(redis_client, "classic", ["p-a", "p-b"])
    assert set(ratings) == {"p-a", "p-b"}
    assert ratings["p-a"].mu == DEFAULT_MU and ratings["p-a"].sigma == DEFAULT_SIGMA
    assert ratings["p-a"].games == 0 and ratings["p-a"].provisional()
    assert await RatingStore(redis_client).rank("classic", "1", "p-a") == 0


async def test_a_game_applies_once_and_orders_the_board(
        redis_client: redis.asyncio.Redis) -> None:
    """Applying one game twice changes each rating once; the board orders by the result."""
    store = RatingStore(redis_client, season="s1")
    players = ["p-a", "p-b", "p-c"]
    after = rate([(DEFAULT_MU, DEFAULT_SIGMA)] * 3, [1, 2, 3])
    for _ in range(2):
        for player, new in zip(players, after, strict=True):
            _applied, rating = await store.apply(
                player, "classic", "s1", "g1", before=(DEFAULT_MU, DEFAULT_SIGMA), after=new,
                now_ms=1000, entry=b"x")
            await store.place("classic", "s1", rating)
    ratings = await current_ratings(store, "classic", players)
    assert [ratings[p].games for p in players] == [1, 1, 1]
    assert ratings["p-a"].mu == pytest.approx(after[0][0])
    assert ratings["p-c"].sigma == pytest.approx(after[2][1])
    board = await store.board("classic", "s1", 0, 10)
    assert [e.rating.player_id for e in board] == players
    assert [e.rank for e in board] == [1, 2, 3]
    assert await store.rank("classic", "s1", "p-b") == 2
    entries, total = await store.history("p-a", "classic", "s1", 0, 10)
    assert total == 1 and entries == [b"x"]
    # another season starts fresh and leaves this one as it was
    assert (await current_ratings(store, "classic", ["p-a"], season="s2"))["p-a"].games == 0
    assert await store.board("classic", "s2", 0, 10) == []


async def _finished(client: redis.asyncio.Redis, game_id: str,
                    seats: list[tuple[str, int]]) -> None:
    """A game hash holding a rated result, as the commit that ended the game writes it."""
    rated = ratings_pb2.RatedGame(
        game_id=game_id, variant="classic", season="1", ended_ms=1000,
        seats=[ratings_pb2.RatedGame.Seat(player_id=p, seat=s, rank=rank)
               for s, (p, rank) in enumerate(seats)])
    await client.hset(Keys().game(game_id), mapping={record.FIELD: record.pack(rated)})


async def test_bot_levels_are_rated_on_a_board_of_their_own(
        redis_client: redis.asyncio.Redis) -> None:
    """A bot level's seat is rated as `bot:<level>` on the bots' board, never the players';
    applying again changes nothing; two seats of one level rate the players but not the
    level."""
    ratings = Ratings(redis_client, Keys(), clock_ms=lambda: 10_000, limits=Limits())
    await _finished(redis_client, "g1", [("p-a", 1), ("bot:planner", 2), ("p-b", 3)])
    await ratings.intend("g1")
    assert await ratings.apply("g1") == 3
    assert await ratings.apply("g1") == 0
    players = await ratings.get_leaderboard(ratings_pb2.GetLeaderboardRequest(
        variant=common_pb2.VARIANT_CLASSIC))
    assert [e.rating.player_id for e in players.entries] == ["p-a", "p-b"]
    bots = await ratings.get_leaderboard(ratings_pb2.GetLeaderboardRequest(
        variant=common_pb2.VARIANT_CLASSIC, bots=True, around_player="bot:planner"))
    assert [(e.rank, e.rating.player_id) for e in bots.entries] == [(1, "bot:planner")]
    assert not await redis_client.zcard(Keys().ratings_pending())
    await _finished(redis_client, "g2", [("bot:greedy", 1), ("p-a", 2), ("bot:greedy", 3)])
    assert await ratings.apply("g2") == 1
    now = await current_ratings(redis_client, "classic", ["p-a", "bot:greedy"])
    assert now["p-a"].games == 2 and now["bot:greedy"].games == 0


async def test_two_games_ending_at_once_both_count(redis_client: redis.asyncio.Redis) -> None:
    """Two rated games of one player, their changes computed from the same stored rating
    (both ended before either was applied): each is applied once and both count, the second
    moving the rating by its own change from where the first left it."""
    ratings = Ratings(redis_client, Keys(), clock_ms=lambda: 10_000, limits=Limits())
    await _finished(redis_client, "g1", [("p-a", 1), ("p-b", 2), ("p-c", 3)])
    await _finished(redis_client, "g2", [("p-d", 1), ("p-a", 2), ("p-e", 3)])
    # both changes frozen before either is applied, as two processes ending them at once do
    await ratings.change("g1")
    await ratings.change("g2")
    assert await ratings.apply("g1") == 3 and await ratings.apply("g2") == 3
    first = rate([(DEFAULT_MU, DEFAULT_SIGMA)] * 3, [1, 2, 3])[0]
    second = rate([(DEFAULT_MU, DEFAULT_SIGMA)] * 3, [1, 2, 3])[1]
    a = (await current_ratings(redis_client, "classic", ["p-a"]))["p-a"]
    assert a.games == 2
    assert a.mu == pytest.approx(first[0] + (second[0] - DEFAULT_MU))
    assert a.sigma == pytest.approx(first[1] * second[1] / DEFAULT_SIGMA)
    entries, total = await RatingStore(redis_client).history("p-a", "classic", "1", 0, 10)
    assert total == 2 and [ratings_pb2.RatingChange.FromString(e).game_id
                           for e in entries] == ["g2", "g1"]
