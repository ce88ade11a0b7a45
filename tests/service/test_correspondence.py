"""Correspondence clocks (docs/lifecycle.md): a deadline per turn in days, vacation that stops a
seat's clock, and a seat removed after missing turns in a row, played in accelerated time.

The service runs in the test's process on the real Redis with a clock the test advances (the
`clock_ms` every operation reads), so a game of many days takes seconds; its sweeper is the
one every process runs (`Sweeper.sweep_once`), and two of them race for the same deadlines.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from risk_proto.risk.v1 import (
    classic_pb2,
    game_pb2,
    lifecycle_pb2,
    service_pb2,
    variant_pb2,
)
from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_service.errors import ServiceError
from risk_service.operations import GameService, Limits
from risk_service.operations.identity import Caller
from risk_service.store.game_store import GameStore
from risk_service.store.keys import Keys
from risk_service.sweeper import Sweeper
from risk_testing.inprocess import in_process_hub
from risk_testing.rpc import classic_options
from tests.service.conftest import START, Clock

DAY = 86_400_000
HOUR = 3_600_000


@pytest.fixture
async def services(redis_client: aioredis.Redis, redis_url: str, clock: Clock
                   ) -> AsyncIterator[list[tuple[GameService, Sweeper]]]:
    """Two services on the real Redis, each with its own connections, cache and process id,
    reading the test's clock, each with the sweeper a process runs."""
    keys = Keys()
    built: list[tuple[GameService, Sweeper]] = []
    clients = []
    for _ in range(2):
        client = aioredis.from_url(redis_url)
        clients.append(client)
        store = GameStore(client, keys)
        games = GameService(store, in_process_hub(client, keys, redis_url), clock_ms=clock,
                            limits=Limits(abandon_after_ms=60 * DAY))
        built.append((games, Sweeper(games, store, interval_ms=50)))
    yield built
    for client in clients:
        await client.aclose()


def _request(*, players: int, seed: int, **clock: Any) -> service_pb2.CreateGameRequest:
    return service_pb2.CreateGameRequest(
        options=classic_options(players=players, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL,
                                auto_place=True, max_turns=14),
        seed=seed, issue_seat_tokens=True, clock=lifecycle_pb2.ClockOptions(**clock))


async def _play_one(games: GameService, game_id: str, tokens: list[str]) -> int:
    """The deciding seat takes one decision (the engine's bot chooses it); returns the seat."""
    record, state = await games.commits.fresh(game_id)
    rules = get_ruleset(record.variant)
    seat = rules.decision(state).seats[0]
    action = rules.bot_action(state, seat, secrets.randbits(64))
    await games.moves.submit(service_pb2.SubmitActionRequest(
        game_id=game_id, action=wire.action_to_proto(record.variant, action),
        expected_version=record.version), Caller.of(tokens[seat]))
    return seat


async def _game(games: GameService, game_id: str, token: str) -> service_pb2.GameSummary:
    return (await games.queries.get(service_pb2.GetGameRequest(game_id=game_id),
                                    Caller.of(token))).game


async def _turn(games: GameService, game_id: str) -> tuple[int, int]:
    """(whose turn, whose decision) now; (-1, -1) once the game is over."""
    record, state = await games.commits.fresh(game_id)
    rules = get_ruleset(record.variant)
    seats = rules.decision(state).seats
    return rules.turn_seat(state), seats[0] if seats else -1


async def _lifecycle(games: GameService, game_id: str) -> list[tuple[str, Any]]:
    """The game's lifecycle events, in order, as (kind, message)."""
    events = []
    for _seq, raw in await games.store.read_events(game_id, 0):
        event = game_pb2.Event.FromString(raw)
        if event.WhichOneof("variant") == "lifecycle":
            kind = event.lifecycle.WhichOneof("kind")
            events.append((kind, getattr(event.lifecycle, kind)))
    return events


async def test_a_multi_day_game_with_vacation_and_a_missed_turn_removal(
        services: list[tuple[GameService, Sweeper]], clock: Clock) -> None:
    """A 3-seat game with a one-day turn: seat 1's vacation moves its deadline on and no
    timeout fires while it is away, its clock resumes when it comes back; seat 2 stops
    playing, misses two turns in a row and is removed (its territories go neutral); the
    others play the game to its end, days later."""
    games, sweeper = services[0]
    created = await games.commands.create(_request(
        players=3, seed=5, turn_seconds=DAY // 1000, vacation_days=3, missed_turns_limit=2,
        on_missed_turns=lifecycle_pb2.MISSED_TURN_POLICY_REMOVE), Caller.of(None))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    assert created.game.clock.turn_seconds == 86_400
    assert list(created.game.vacation_left_ms) == [3 * DAY] * 3
    vacation_taken = absent = False
    seat2_turns = 0
    last_turn = -1
    for _ in range(20_000):
        turn, decider = await _turn(games, game_id)
        if decider < 0:
            break
        new_turn = turn != last_turn
        last_turn = turn
        if new_turn and turn == 2:
            seat2_turns += 1
            absent = seat2_turns >= 2  # seat 2 plays its first turn, then is gone
        if new_turn and turn == 1 and not vacation_taken and seat2_turns >= 1:
            vacation_taken = True
            before = await _game(games, game_id, tokens[1])
            assert before.deadline_ms == clock.now + DAY
            clock.now += 2 * HOUR  # the seat looks at the game, then goes away for two days
            away = await games.timers.start_vacation(service_pb2.StartVacationRequest(
                game_id=game_id, days=2), Caller.of(tokens[1]))
            left = before.deadline_ms - clock.now
            assert away.game.deadline_ms == clock.now + 2 * DAY + left, "the clock stops"
            assert away.game.vacation_left_ms[1] == DAY
            clock.now = before.deadline_ms + HOUR  # past the deadline it had before
            await sweeper.sweep_once()
            during = await _game(games, game_id, tokens[1])
            assert during.version == away.game.version, "a timeout while on vacation"
            clock.now += 12 * HOUR  # back early: the time not taken is returned
            unused = away.game.vacation_until_ms[1] - clock.now
            back = await games.timers.end_vacation(service_pb2.EndVacationRequest(
                game_id=game_id), Caller.of(tokens[1]))
            assert back.game.deadline_ms == clock.now + left, "the clock runs on"
            assert back.game.vacation_left_ms[1] == DAY + unused
            clock.now = back.game.deadline_ms - 1
            await sweeper.sweep_once()
            assert (await _game(games, game_id, tokens[1])).version == back.game.version
            continue
        if turn == 2 and absent:
            clock.now = (await _game(games, game_id, tokens[0])).deadline_ms
            await sweeper.sweep_once()  # the turn is missed: the sweeper takes it
            continue
        clock.now += HOUR
        await _play_one(games, game_id, tokens)
    final = await _game(games, game_id, tokens[0])
    assert final.status == service_pb2.GAME_STATUS_FINISHED, "the game reached its end"
    assert clock.now - START > 7 * DAY, "a game of days"
    assert vacation_taken
    kinds = await _lifecycle(games, game_id)
    missed = [(e.seat, e.missed) for k, e in kinds if k == "turn_missed"]
    assert missed == [(2, 1), (2, 2)], missed
    removed = [(e.seat, e.missed) for k, e in kinds if k == "seat_removed"]
    assert removed == [(2, 2)]
    timed_out = [e.seat for k, e in kinds if k == "decision_timed_out"]
    assert 1 not in timed_out and 0 not in timed_out
    assert [k for k, _ in kinds].count("vacation_started") == 1
    assert [k for k, _ in kinds].count("vacation_ended") == 1
    assert final.outcome.ranking[-1] == 2, "the removed seat ranks last"
    _record, state = await games.commits.fresh(game_id)
    assert 2 not in state.owner, "the removed seat's territories went neutral"


async def test_vacation_refusals_carry_their_reasons(
        services: list[tuple[GameService, Sweeper]], clock: Clock) -> None:
    """More days than left, a second vacation, coming back when not away, and a game whose
    clock gives none: each refused with its reason."""
    games, _ = services[0]
    created = await games.commands.create(_request(
        players=3, seed=8, turn_seconds=DAY // 1000, vacation_days=2), Caller.of(None))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)

    async def refused(call: Any) -> str:
        with pytest.raises(ServiceError) as caught:
            await call
        return caught.value.reason

    assert await refused(games.timers.start_vacation(service_pb2.StartVacationRequest(
        game_id=game_id, days=3), Caller.of(tokens[0]))) == "VACATION_EXHAUSTED"
    assert await refused(games.timers.end_vacation(service_pb2.EndVacationRequest(
        game_id=game_id), Caller.of(tokens[0]))) == "NOT_ON_VACATION"
    await games.timers.start_vacation(service_pb2.StartVacationRequest(
        game_id=game_id, days=1), Caller.of(tokens[0]))
    assert await refused(games.timers.start_vacation(service_pb2.StartVacationRequest(
        game_id=game_id, days=1), Caller.of(tokens[0]))) == "ALREADY_ON_VACATION"
    plain = await games.commands.create(_request(players=3, seed=9, decision_seconds=60),
                                        Caller.of(None))
    assert await refused(games.timers.start_vacation(service_pb2.StartVacationRequest(
        game_id=plain.game.game_id, days=1), Caller.of(plain.seat_tokens[0]))
    ) == "VACATION_NOT_OFFERED"
    assert await refused(games.commands.create(_request(
        players=3, seed=9, turn_seconds=60), Caller.of(None))) == "MALFORMED_REQUEST"
    described = games.catalogue.describe(variant_pb2.DescribeVariantRequest(name="classic"))
    ranges = {o.name: (o.min, o.max) for o in described.variant.clock_options}
    assert ranges["turn_seconds"] == (3600, 30 * 86_400)
    assert ranges["missed_turns_limit"] == (0, 10)


GAMES = 4


async def test_two_sweepers_enforce_each_missed_turn_once(
        services: list[tuple[GameService, Sweeper]], clock: Clock) -> None:
    """Two services sweep the same due turn deadlines at the same moments: every missed turn
    is counted once, in turn order, and neither loses a commit race."""
    (first, sweep_a), (_second, sweep_b) = services
    conflicts = [0]
    for games, _ in services:
        games.commits.on_conflict = lambda: conflicts.__setitem__(0, conflicts[0] + 1)
    game_ids = []
    for n in range(GAMES):
        created = await first.commands.create(_request(
            players=3, seed=40 + n, turn_seconds=DAY // 1000, missed_turns_limit=3),
            Caller.of(None))
        game_ids.append(created.game.game_id)
    for _ in range(4):  # nobody plays: each sweep round misses one turn of every game
        clock.now += DAY
        await asyncio.gather(sweep_a.sweep_once(), sweep_b.sweep_once())
        await asyncio.gather(sweep_a.sweep_once(), sweep_b.sweep_once())
    for game_id in game_ids:
        kinds = await _lifecycle(first, game_id)
        missed = [(e.seat, e.missed) for k, e in kinds if k == "turn_missed"]
        seats = [seat for seat, _ in missed]  # the first seat is the roll-off's
        assert [n for _, n in missed] == [1, 1, 1, 2], (game_id, missed)
        assert sorted(seats[:3]) == [0, 1, 2] and seats[3] == seats[0], (game_id, missed)
    assert conflicts == [0], "the two sweepers computed the same timeout"
