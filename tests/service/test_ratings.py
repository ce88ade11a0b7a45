"""Ratings and leaderboards through the real service on a real Redis (docs/ratings.md): a rated
4-player game updates every seat's rating once by its final ranking and the leaderboard orders
them; seats that time out rank where the game ranks them; the update is applied exactly once
across kills -9 of the process that ends games; a new season starts fresh and keeps the old one
readable; every refusal."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc
import pytest
import redis.asyncio as aioredis

from risk_proto.risk.v1 import (
    common_pb2,
    lifecycle_pb2,
    ratings_pb2,
    service_pb2,
    service_pb2_grpc,
)
from risk_service.ratings.model import DEFAULT_MU, DEFAULT_SIGMA, rate
from risk_service.store.keys import Keys
from risk_testing.harness import ServiceFactory
from risk_testing.rpc import bearer, classic_options, error_info, rpc_error
from tests.service.test_my_games import new_player

Stub = service_pb2_grpc.RiskServiceStub
CLASSIC = common_pb2.VARIANT_CLASSIC
KEYS = Keys()
T = TypeVar("T")


async def until(what: str, check: Callable[[], Awaitable[T | None]], timeout: float = 30.0
                ) -> T:
    """`await check()` once it is truthy, polled for at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        result = await check()
        if result:
            return result
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        await asyncio.sleep(0.05)


async def players(stub: Stub, count: int) -> list[tuple[str, str]]:
    return [await new_player(stub) for _ in range(count)]


async def rated_game(stub: Stub, seated: list[tuple[str, str]], **fields: Any) -> str:
    """A rated classic game whose seats belong to `seated` (created by the first); it starts
    at once."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=classic_options(players=len(seated)), seed=11, rated=True,
        seat_players=[p for p, _t in seated], **fields), metadata=bearer(seated[0][1]))
    return str(created.game.game_id)


async def resign_in_order(stub: Stub, game_id: str, seated: list[tuple[str, str]],
                          order: list[int]) -> list[int]:
    """Seats resign in `order` (all but the winner); the game's final ranking."""
    for seat in order:
        await stub.Resign(service_pb2.ResignRequest(game_id=game_id),
                          metadata=bearer(seated[seat][1]))
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    assert game.status == service_pb2.GAME_STATUS_FINISHED
    return list(game.outcome.ranking)


async def rating(stub: Stub, player: str, **fields: Any) -> ratings_pb2.GetRatingResponse:
    return await stub.GetRating(ratings_pb2.GetRatingRequest(
        player_id=player, variant=CLASSIC, **fields))


async def board(stub: Stub, **fields: Any) -> ratings_pb2.GetLeaderboardResponse:
    return await stub.GetLeaderboard(ratings_pb2.GetLeaderboardRequest(
        variant=CLASSIC, **fields))


async def test_a_rated_game_rates_every_seat_once_by_its_ranking(stub: Stub) -> None:
    """Four players; seats 2, 0, 3 resign in turn, so seat 1 wins, then 3, 0, 2. Each rating
    moves once, as the rating model says for that ranking; the leaderboard, the ranks
    and the histories show it; an unrated game of the same players changes nothing."""
    seated = await players(stub, 4)
    game_id = await rated_game(stub, seated)
    ranking = await resign_in_order(stub, game_id, seated, [2, 0, 3])
    assert ranking == [1, 3, 0, 2]
    expected = rate([(DEFAULT_MU, DEFAULT_SIGMA)] * 4, [3, 1, 4, 2])  # by seat
    ids = [p for p, _t in seated]

    async def all_rated() -> list[ratings_pb2.GetRatingResponse] | None:
        got = [await rating(stub, p) for p in ids]
        return got if all(r.rating.games == 1 for r in got) else None

    got = await until("every seat rated", all_rated)
    for seat, reply in enumerate(got):
        assert reply.rating.mu == expected[seat][0] and reply.rating.sigma == expected[seat][1]
        assert reply.rating.provisional and reply.rating.season == "1"
        [change] = reply.history
        assert change.game_id == game_id and change.seat == seat and change.seats == 4
        assert change.rank == [3, 1, 4, 2][seat]
        assert change.mu_before == DEFAULT_MU and change.mu_after == expected[seat][0]
    # the leaderboard orders them as they finished, and each reply names its place
    top = await board(stub, page_size=10)
    assert top.total == 4 and top.season == "1"
    assert [e.rating.player_id for e in top.entries] == [ids[s] for s in ranking]
    assert [e.rank for e in top.entries] == [1, 2, 3, 4]
    assert [r.rating.rank for r in got] == [3, 1, 4, 2]
    assert top.entries[0].rating.rating > top.entries[3].rating.rating
    # a page of two, then the next page
    first = await board(stub, page_size=2)
    second = await board(stub, page_size=2, page_token=first.next_page_token)
    assert [e.rank for e in second.entries] == [3, 4] and not second.next_page_token
    # around a player: their place in the middle of the page
    around = await board(stub, page_size=3, around_player=ids[0])
    assert [e.rating.player_id for e in around.entries] == [ids[3], ids[0], ids[2]]
    # an unrated game of the same players moves nothing
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=classic_options(players=4), seed=3, seat_players=ids),
        metadata=bearer(seated[0][1]))
    await resign_in_order(stub, created.game.game_id, seated, [1, 2, 3])
    assert [(await rating(stub, p)).rating.games for p in ids] == [1, 1, 1, 1]


@pytest.mark.parametrize(("seat", "part", "applied"), [
    (2, "ra", [1, 1, 0, 0]),  # half applied: seats 0 and 1 updated, seat 2 refused
    (0, "rt", [0, 0, 0, 0]),  # before the change was computed: nothing applied, nothing frozen
])
async def test_ratings_are_applied_once_across_a_kill_of_the_ending_process(
        make_service: ServiceFactory, redis_client: aioredis.Redis, seat: int, part: str,
        applied: list[int]) -> None:
    """The process that ends a rated game is killed -9 right after the ending commit, its
    ratings step stopped by Redis part way (one player's key made unusable: the step fails
    there before writing anything of that player, as a process dying there would leave it):
    with the result half applied, or before the change was even computed. The restarted
    process's sweeper applies the rest: every seat counts the game once, with one history
    entry, and the ratings are exactly the model's for the ranking."""
    service = make_service()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        seated = await players(stub, 4)
        ids = [p for p, _t in seated]
        blocker = KEYS.player(ids[seat], f"{part}:classic:1")
        await redis_client.set(blocker, b"not what the script expects")
        game_id = await rated_game(stub, seated)
        ranking = await resign_in_order(stub, game_id, seated, [3, 2, 1])
        assert ranking == [0, 1, 2, 3]
        service.kill()
    await redis_client.delete(blocker)
    assert [(await _games(redis_client, p)) for p in ids] == applied
    frozen = await redis_client.hexists(KEYS.game(game_id), "rr")
    assert frozen == any(applied)
    assert await redis_client.zscore(KEYS.ratings_pending(), game_id) is not None
    service.start()
    expected = rate([(DEFAULT_MU, DEFAULT_SIGMA)] * 4, [1, 2, 3, 4])
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)

        async def swept() -> list[ratings_pb2.GetRatingResponse] | None:
            got = [await rating(stub, p) for p in ids]
            return got if all(r.rating.games for r in got) else None

        got = await until("the sweeper's ratings", swept)
        await until("the intent dropped", lambda: _absent(redis_client, game_id))
        got = [await rating(stub, p) for p in ids]
        assert [r.rating.games for r in got] == [1, 1, 1, 1]
        assert [len(r.history) for r in got] == [1, 1, 1, 1]
        assert [(r.rating.mu, r.rating.sigma) for r in got] == expected
        assert [e.rating.player_id for e in (await board(stub)).entries] == ids
    assert "ratings_applied_by_sweeper" in service.logs()


async def _games(client: aioredis.Redis, player: str) -> int:
    return int(await client.hget(KEYS.player(player, "rt:classic:1"), "games") or 0)


async def _absent(client: aioredis.Redis, game_id: str) -> bool:
    return await client.zscore(KEYS.ratings_pending(), game_id) is None


async def test_a_new_season_starts_fresh_and_keeps_the_old_one(
        make_service: ServiceFactory, redis_client: aioredis.Redis) -> None:
    """A game in season "s1", then the service restarted with RISK_RATING_SEASON=s2: the new
    season's ratings and board start empty and its game counts there only; the old season's
    board, ratings and history stay readable by name."""
    service = make_service(RISK_RATING_SEASON="s1")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        seated = await players(stub, 3)
        ids = [p for p, _t in seated]
        await resign_in_order(stub, await rated_game(stub, seated), seated, [0, 1])
        await until("rated in s1", lambda: _all_games(stub, ids, 1))
    service.stop()
    service = make_service(RISK_RATING_SEASON="s2")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        fresh = await board(stub)
        assert fresh.season == "s2" and fresh.total == 0 and not fresh.entries
        assert (await rating(stub, ids[2])).rating.games == 0
        game_id = await rated_game(stub, seated)
        await resign_in_order(stub, game_id, seated, [2, 1])
        await until("rated in s2", lambda: _all_games(stub, ids, 1))
        old = await board(stub, season="s1")
        assert old.season == "s1" and [e.rating.player_id for e in old.entries] == [
            ids[2], ids[1], ids[0]]
        new = await board(stub)
        assert [e.rating.player_id for e in new.entries] == [ids[0], ids[1], ids[2]]
        kept = await rating(stub, ids[2], season="s1")
        assert kept.rating.games == 1 and kept.history[0].rank == 1
        assert (await rating(stub, ids[2])).history[0].game_id == game_id


async def _all_games(stub: Stub, ids: list[str], games: int) -> bool:
    return all([(await rating(stub, p)).rating.games == games for p in ids])


async def test_rated_games_refuse_seats_without_players_and_reads_refuse_bad_requests(
        stub: Stub) -> None:
    """Each refusal with its status and reason: an anonymous join to a rated game, a rated
    game's seat tokens without a player per seat, an unknown or missing variant, a bad page
    size or token, a bad season, a player not on the board, a bot on the players' board."""
    seated = await players(stub, 2)
    open_game = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=classic_options(players=3), rated=True, seat_players=[seated[0][0]]),
        metadata=bearer(seated[0][1]))
    cases: list[tuple[Awaitable[Any], grpc.StatusCode, str]] = [
        (stub.JoinGame(service_pb2.JoinGameRequest(game_id=open_game.game.game_id, seat=1)),
         grpc.StatusCode.PERMISSION_DENIED, "NOT_A_PLAYER"),
        (stub.CreateGame(service_pb2.CreateGameRequest(
            options=classic_options(players=3), rated=True, issue_seat_tokens=True)),
         grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        (stub.GetRating(ratings_pb2.GetRatingRequest(player_id="p-x", variant=999)),
         grpc.StatusCode.NOT_FOUND, "VARIANT_NOT_FOUND"),
        (stub.GetLeaderboard(ratings_pb2.GetLeaderboardRequest()),
         grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        (board(stub, page_size=201), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        (board(stub, page_token="x"), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        (board(stub, season="no spaces"), grpc.StatusCode.INVALID_ARGUMENT,
         "MALFORMED_REQUEST"),
        (rating(stub, "p-x", page_token="-1"), grpc.StatusCode.INVALID_ARGUMENT,
         "MALFORMED_REQUEST"),
        (stub.GetRating(ratings_pb2.GetRatingRequest(variant=CLASSIC)),
         grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        (board(stub, around_player="p-nobody"), grpc.StatusCode.NOT_FOUND, "NOT_RATED"),
        (board(stub, around_player="bot:planner"), grpc.StatusCode.NOT_FOUND, "NOT_RATED"),
    ]
    for call, code, reason in cases:
        error = await rpc_error(call)
        assert error.code() == code, (reason, error.details())
        assert error_info(error).reason == reason, error.details()
    # a player never rated reads as the default, with no history
    fresh = await rating(stub, "p-never")
    assert fresh.rating.games == 0 and fresh.rating.mu == DEFAULT_MU and not fresh.history
    assert fresh.rating.rating == DEFAULT_MU - 3 * DEFAULT_SIGMA and fresh.rating.rank == 0


async def test_ratings_stay_exactly_once_across_repeated_kills(
        make_service: ServiceFactory, redis_client: aioredis.Redis) -> None:
    """Six rated 3-player games of nine players end while their service is killed -9 at
    random moments (three times, each a few milliseconds into a burst of resignations, where a
    kill may land between an ending commit and its ratings); every resignation is retried
    with its request id after the restart. Once the sweeper has caught up, every player's
    rating counts exactly the rated games they finished, and their history names each once."""
    rng = random.Random(35)
    service = make_service()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        everyone = await players(stub, 9)
    tables = [everyone[0:3], everyone[3:6], everyone[6:9],
              [everyone[i] for i in (0, 4, 8)], [everyone[i] for i in (1, 5, 6)],
              [everyone[i] for i in (2, 3, 7)]]
    async with grpc.aio.insecure_channel(service.target) as channel:
        games = [await rated_game(Stub(channel), table) for table in tables]
    # each game: seat 2 then seat 1 resign (request ids make a retry after a kill safe)
    todo = [(g, seat) for g in range(len(games)) for seat in (2, 1)]

    async def resign(stub: Stub, g: int, seat: int) -> bool:
        try:
            await stub.Resign(service_pb2.ResignRequest(
                game_id=games[g], request_id=f"r{g}-{seat}"),
                metadata=bearer(tables[g][seat][1]))
            return True
        except grpc.aio.AioRpcError:
            return False

    for _round in range(3):
        async with grpc.aio.insecure_channel(service.target) as channel:
            stub = Stub(channel)
            burst = [asyncio.create_task(resign(stub, g, seat)) for g, seat in todo[:4]]
            await asyncio.sleep(rng.uniform(0.002, 0.03))
            service.kill()
            done = await asyncio.gather(*burst)
        todo = [step for step, ok in zip(todo[:4], done, strict=True) if not ok] + todo[4:]
        service.start()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        for g, seat in todo:
            assert await resign(stub, g, seat), f"game {g} seat {seat} could not resign"
        for game_id in games:
            got = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
            assert got.status == service_pb2.GAME_STATUS_FINISHED
        await until("every intent applied", lambda: _none_pending(redis_client), 60)
        for player, _token in everyone:
            reply = await rating(stub, player, page_size=10)
            played = [games[g] for g, table in enumerate(tables)
                      if player in [p for p, _t in table]]
            assert reply.rating.games == len(played), (player, reply.rating)
            assert sorted(h.game_id for h in reply.history) == sorted(played)


async def _none_pending(client: aioredis.Redis) -> bool:
    return not await client.zcard(KEYS.ratings_pending())


async def test_seats_that_time_out_are_rated_where_the_game_ranks_them(stub: Stub) -> None:
    """A rated game nobody plays under a 1 s forfeit clock: each seat in turn times out and is
    removed, the last one left wins; the ratings follow the game's final ranking (the first
    out placed last), with each seat's place in its history."""
    seated = await players(stub, 3)
    clock = lifecycle_pb2.ClockOptions(decision_seconds=1,
                                       on_timeout=lifecycle_pb2.TIMEOUT_POLICY_FORFEIT)
    game_id = await rated_game(stub, seated, clock=clock)
    first_out = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
                 ).game.decision.seats[0]

    async def over() -> service_pb2.GameSummary | None:
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        return game if game.status == service_pb2.GAME_STATUS_FINISHED else None

    game = await until("every seat but one timed out", over)
    ranking = list(game.outcome.ranking)
    assert ranking[-1] == first_out
    ids = [p for p, _t in seated]
    await until("rated", lambda: _all_games(stub, ids, 1))
    expected = rate([(DEFAULT_MU, DEFAULT_SIGMA)] * 3,
                    [ranking.index(seat) + 1 for seat in range(3)])
    for seat, player in enumerate(ids):
        reply = await rating(stub, player)
        assert reply.history[0].rank == ranking.index(seat) + 1
        assert (reply.rating.mu, reply.rating.sigma) == expected[seat]
    assert [e.rating.player_id for e in (await board(stub)).entries] == [
        ids[seat] for seat in ranking]
