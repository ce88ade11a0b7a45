"""Vacation per year (docs/lifecycle.md, "Vacation per year"): a player's seats draw their
vacation from one yearly allowance across all their games, on top of each game's own; a
StartVacation that dies between the player's reservation and the game's commit, or an
EndVacation that dies before its refund, loses and double-counts no day.

The services run in the test's process on the real Redis with a clock the test advances, as in
test_correspondence.py; a process that died mid-way is played by calling the allowance's first
step alone, or by a second service on the same Redis whose yearly cap is off (its
StartVacation / EndVacation write the game only, as a process that died right after the
game's commit would have).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from risk_proto.risk.v1 import classic_pb2, lifecycle_pb2, service_pb2
from risk_service.errors import ServiceError
from risk_service.operations import GameService, Limits
from risk_service.operations.identity import Caller
from risk_service.operations.vacation import RESERVATION_GRACE_MS, year_of
from risk_service.store.game_store import GameStore
from risk_service.store.keys import Keys
from risk_service.sweeper import Sweeper
from risk_testing.inprocess import in_process_hub
from risk_testing.rpc import classic_options
from tests.service.conftest import Clock

DAY = 86_400_000
HOUR = 3_600_000
YEARLY_DAYS = 10


@pytest.fixture
async def services(redis_client: aioredis.Redis, redis_url: str, clock: Clock
                   ) -> AsyncIterator[tuple[tuple[GameService, Sweeper], GameService]]:
    """A service with a 10-day yearly allowance and its sweeper, and a second one on the same
    Redis without a yearly cap (it writes games only: a process that died after the game's
    commit)."""
    keys = Keys()
    clients = [aioredis.from_url(redis_url) for _ in range(2)]
    built = [GameService(GameStore(client, keys), in_process_hub(client, keys, redis_url),
                         clock_ms=clock, limits=Limits(abandon_after_ms=60 * DAY,
                                                       vacation_days_per_year=days))
             for client, days in zip(clients, (YEARLY_DAYS, 0), strict=True)]
    # results_sweep_ms=0: every sweep_once settles what a crash left, not once per 2 s
    sweeper = Sweeper(built[0], built[0].store, interval_ms=50, results_sweep_ms=0)
    yield (built[0], sweeper), built[1]
    for client in clients:
        await client.aclose()


def player(player_id: str) -> Caller:
    """A caller holding a verified player credential for `player_id`."""
    caller = Caller.of(f"jwt-of-{player_id}")
    caller.player = player_id
    return caller


async def new_game(games: GameService, seat_players: list[str], *, seed: int,
                   vacation_days: int = 7) -> str:
    """A started 3-seat classic game on a one-day correspondence clock, seats bound to
    `seat_players`."""
    created = await games.commands.create(service_pb2.CreateGameRequest(
        options=classic_options(players=3, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL,
                                auto_place=True),
        seed=seed, seat_players=seat_players,
        clock=lifecycle_pb2.ClockOptions(turn_seconds=DAY // 1000,
                                         vacation_days=vacation_days)), Caller.of(None))
    assert created.game.status == service_pb2.GAME_STATUS_ACTIVE
    return created.game.game_id


async def away(games: GameService, game_id: str, caller: Caller, days: int
               ) -> service_pb2.GameSummary:
    return (await games.timers.start_vacation(service_pb2.StartVacationRequest(
        game_id=game_id, days=days), caller)).game


async def back(games: GameService, game_id: str, caller: Caller) -> service_pb2.GameSummary:
    return (await games.timers.end_vacation(service_pb2.EndVacationRequest(game_id=game_id),
                                            caller)).game


async def refused(call: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        await call
    return caught.value


async def used_days(games: GameService, player_id: str, clock: Clock) -> float:
    """The days `player_id` has taken this year, as the allowance holds them."""
    return await games.timers.vacations.used_ms(player_id, year_of(clock.now)) / DAY


async def returned_once_after_grace(games: GameService, sweeper: Sweeper, clock: Clock,
                                    player_id: str, *, used: int, after: int) -> None:
    """The sweeper leaves `player_id`'s `used` days as they are within the reservations'
    grace, leaves `after` once it has passed, and returns nothing a second time."""
    await sweeper.sweep_once()
    assert await used_days(games, player_id, clock) == used, "within the grace: not yet"
    clock.now += RESERVATION_GRACE_MS
    await sweeper.sweep_once()
    assert await used_days(games, player_id, clock) == after, "the unused days are back"
    await sweeper.sweep_once()
    assert await used_days(games, player_id, clock) == after, "returned once"


async def test_a_players_vacation_draws_on_one_yearly_allowance_across_games(
        services: tuple[tuple[GameService, Sweeper], GameService], clock: Clock) -> None:
    """Alice's seats in three games share 10 days a year: 4 + 4 days taken, 3 more refused
    with YEARLY_VACATION_EXHAUSTED (days_left 2) and that game unchanged; coming back early
    returns the unused days to the year (and the 3 days are then granted); an anonymous seat
    keeps its game's 7 days; a new calendar year gives the full allowance again."""
    (games, _sweeper), _plain = services
    alice = player("alice")
    first, second, third = [await new_game(games, ["alice", "bob", "carol"], seed=s)
                            for s in (1, 2, 3)]
    await away(games, first, alice, 4)
    await away(games, second, alice, 4)
    assert await used_days(games, "alice", clock) == 8
    before = (await games.queries.get(service_pb2.GetGameRequest(game_id=third),
                                      alice)).game
    error = await refused(away(games, third, alice, 3))
    assert (error.code.name, error.reason) == ("FAILED_PRECONDITION",
                                               "YEARLY_VACATION_EXHAUSTED")
    assert error.metadata["days_left"] == "2" and error.metadata["year"] == "2023"
    after = (await games.queries.get(service_pb2.GetGameRequest(game_id=third), alice)).game
    assert after.version == before.version and after.vacation_until_ms[0] == 0
    assert await used_days(games, "alice", clock) == 8, "a refusal takes nothing"

    clock.now += DAY  # back from the first game's vacation after one day of four
    ended = await back(games, first, alice)
    assert ended.vacation_left_ms[0] == 6 * DAY
    assert await used_days(games, "alice", clock) == 5
    granted = await away(games, third, alice, 3)
    assert granted.vacation_until_ms[0] == clock.now + 3 * DAY
    assert await used_days(games, "alice", clock) == 8

    anonymous = await games.commands.create(service_pb2.CreateGameRequest(
        options=classic_options(players=3, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL,
                                auto_place=True),
        seed=4, issue_seat_tokens=True,
        clock=lifecycle_pb2.ClockOptions(turn_seconds=DAY // 1000, vacation_days=7)),
        Caller.of(None))
    taken = await away(games, anonymous.game.game_id, Caller.of(anonymous.seat_tokens[0]), 7)
    assert taken.vacation_left_ms[0] == 0, "an anonymous seat has its game's days only"

    clock.now = 1_704_067_200_000 + HOUR  # 2024-01-01 01:00 UTC: a new year
    fourth = await new_game(games, ["alice", "bob", "carol"], seed=5, vacation_days=30)
    assert (await refused(away(games, fourth, alice, 11))).metadata["days_left"] == "10"
    await away(games, fourth, alice, 10)
    assert await used_days(games, "alice", clock) == 10


async def test_a_crash_between_the_steps_neither_loses_nor_double_counts_days(
        services: tuple[tuple[GameService, Sweeper], GameService], clock: Clock) -> None:
    """A StartVacation that died after reserving and before the game's commit: its days come
    back once the sweeper's grace has passed (not before). One that died after the game's
    commit and before confirming: the sweeper keeps the days taken. An EndVacation that died
    after the game's commit and before its refund: the next StartVacation of that seat
    returns the unused days, once."""
    (games, sweeper), plain = services
    bob = player("bob")
    game_id = await new_game(games, ["alice", "bob", "carol"], seed=7)

    # died before the game's commit: only the reservation (the allowance's first step)
    await games.timers.vacations.reserve("bob", game_id, 1, 3, clock.now)
    assert await used_days(games, "bob", clock) == 3
    # within the grace it may be committing; then no vacation in the game: the days are back
    await returned_once_after_grace(games, sweeper, clock, "bob", used=3, after=0)

    # died after the game's commit, before confirming
    start = clock.now
    await games.timers.vacations.reserve("bob", game_id, 1, 3, start)
    committed = await away(plain, game_id, bob, 3)
    assert committed.vacation_until_ms[1] == start + 3 * DAY
    clock.now += RESERVATION_GRACE_MS
    await sweeper.sweep_once()
    assert await used_days(games, "bob", clock) == 3, "the game has the vacation: kept"

    # EndVacation died after the game's commit, before the refund
    clock.now = start + DAY
    await back(plain, game_id, bob)
    assert await used_days(games, "bob", clock) == 3
    clock.now += HOUR
    again = await away(games, game_id, bob, 1)  # reconciles the leftover first
    assert again.vacation_until_ms[1] == clock.now + DAY
    assert await used_days(games, "bob", clock) == 1 + 1, "two days returned, one taken"
    clock.now += 2 * DAY  # that vacation runs its course; the next one settles it
    await away(games, game_id, bob, 1)
    assert await used_days(games, "bob", clock) == 3


async def test_an_end_whose_refund_died_is_refunded_by_the_sweeper(
        services: tuple[tuple[GameService, Sweeper], GameService], clock: Clock) -> None:
    """An EndVacation whose process died after the game's commit and before the refund: with
    no later StartVacation of that seat, the sweeper returns the unused days once its grace
    has passed (the end left an intent before its commit), and once only."""
    (games, sweeper), _plain = services
    carol = player("carol")
    game_id = await new_game(games, ["alice", "bob", "carol"], seed=8)
    start = clock.now
    await away(games, game_id, carol, 5)
    assert await used_days(games, "carol", clock) == 5
    clock.now = start + DAY
    vacations = games.timers.vacations
    ended = vacations.ended

    async def died(*_args: object) -> None:
        raise ConnectionError("the process died here")

    vacations.ended = died  # type: ignore[method-assign]
    with pytest.raises(ConnectionError):
        await back(games, game_id, carol)
    vacations.ended = ended  # type: ignore[method-assign]
    summary = (await games.queries.get(service_pb2.GetGameRequest(game_id=game_id),
                                       carol)).game
    assert summary.vacation_until_ms[2] <= clock.now, "the game shows the vacation ended"
    assert await used_days(games, "carol", clock) == 5
    await returned_once_after_grace(games, sweeper, clock, "carol", used=5, after=1)
