"""What a process that died right after a commit leaves undone is restarted by the sweeper's
scan of the active games (sweeper.py, `_restart_stalled`): a game whose deadline passed a
minute ago while the deadline index lost it is timed out; a game whose bot is to move while
no process plays its bots gets them played.

The services run in the test's process on the real Redis with a clock the test moves; the
process's death is played by taking the index entry away, or by a service whose commit did not
start its bots.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from risk_proto.risk.v1 import classic_pb2, lifecycle_pb2, service_pb2
from risk_service.operations import GameService
from risk_service.operations.identity import Caller
from risk_service.sweeper import STALLED_MS, Sweeper
from risk_testing.inprocess import in_process_service
from risk_testing.rpc import classic_options
from tests.service.conftest import Clock

DECISION_S = 30
WAIT_S = 20.0


@pytest.fixture
async def games(redis_client: aioredis.Redis, redis_url: str, clock: Clock
                ) -> AsyncIterator[GameService]:
    async with in_process_service(redis_url, clock) as service:
        yield service


async def timed_game(games: GameService, policy: int) -> str:
    created = await games.commands.create(service_pb2.CreateGameRequest(
        options=classic_options(players=3, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL,
                                auto_place=True),
        seed=9, issue_seat_tokens=True,
        clock=lifecycle_pb2.ClockOptions(decision_seconds=DECISION_S, on_timeout=policy)),  # type: ignore[arg-type]
        Caller.of(None))
    assert created.game.status == service_pb2.GAME_STATUS_ACTIVE and created.game.deadline_ms
    return created.game.game_id


async def summary(games: GameService, game_id: str) -> service_pb2.GameSummary:
    return (await games.queries.get(service_pb2.GetGameRequest(game_id=game_id),
                                    Caller.of(None))).game


def scanning(games: GameService) -> Sweeper:
    """A sweeper that scans the active games on every pass."""
    return Sweeper(games, games.store, interval_ms=50, idle_scan_ms=0)


async def test_a_deadline_the_index_lost_is_enforced(games: GameService, clock: Clock) -> None:
    """The deadline index lost the game's entry (the commit's effect died with its process):
    a minute after the deadline the game's seat is timed out all the same."""
    game_id = await timed_game(games, lifecycle_pb2.TIMEOUT_POLICY_DEFAULT_ACTION)
    before = await summary(games, game_id)
    await games.store.schedule(game_id, 0)  # the entry is gone
    sweeper = scanning(games)
    clock.now = before.deadline_ms + 1
    await sweeper.sweep_once()
    assert (await summary(games, game_id)).version == before.version, \
        "just past the deadline the lost entry is not looked for yet"
    clock.now = before.deadline_ms + STALLED_MS
    await sweeper.sweep_once()  # the scan puts the deadline back
    await sweeper.sweep_once()  # and the deadline pass enforces it
    after = await summary(games, game_id)
    assert after.version > before.version
    assert after.decision != before.decision or after.deadline_ms != before.deadline_ms


async def test_a_bot_nobody_plays_is_played(games: GameService, clock: Clock) -> None:
    """A seat timed out to the bot by a process whose commit started no bots (it died): a
    minute later the scan has the bot play it."""
    game_id = await timed_game(games, lifecycle_pb2.TIMEOUT_POLICY_BOT)
    sleeper = (await summary(games, game_id)).decision.seats[0]
    start_bots = games.timers.start_bots
    games.timers.start_bots = lambda _game_id: None  # type: ignore[method-assign]
    clock.now = (await summary(games, game_id)).deadline_ms + 1
    assert await games.enforce_deadline(game_id)
    games.timers.start_bots = start_bots  # type: ignore[method-assign]
    handed = await summary(games, game_id)
    assert handed.bot_seats[sleeper] and handed.decision.seats[0] == sleeper, \
        "the seat is the bot's, and it is to move"
    clock.now += STALLED_MS
    await scanning(games).abandon_idle()
    run = games.timers.bot_runs.get(game_id)
    assert run is not None, "the scan started no bot"
    async with asyncio.timeout(WAIT_S):
        await run
    played = await summary(games, game_id)
    assert played.version > handed.version
    assert not played.decision.seats or played.decision.seats[0] != sleeper


async def test_a_game_whose_list_did_not_follow_its_end_is_moved(games: GameService) -> None:
    """A game ended by a commit whose list update died with its process stays in the active
    list (shown nowhere: lists check each game's status); the scan moves it to the finished
    list."""
    created = await games.commands.create(service_pb2.CreateGameRequest(
        options=classic_options(players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL,
                                auto_place=True), seed=5, issue_seat_tokens=True),
        Caller.of(None))
    game_id = created.game.game_id
    index = games.store.index

    async def died(*_args: object) -> None:
        return None

    games.store.index = died  # type: ignore[method-assign]
    await games.moves.resign(service_pb2.ResignRequest(game_id=game_id),
                             Caller.of(created.seat_tokens[0]))
    games.store.index = index  # type: ignore[method-assign]

    async def listed(status: int) -> bool:
        page = await games.queries.list(service_pb2.ListGamesRequest(status=status))
        return game_id in [game.game_id for game in page.games]

    assert not await listed(service_pb2.GAME_STATUS_FINISHED)
    await scanning(games).abandon_idle()
    assert await listed(service_pb2.GAME_STATUS_FINISHED)
    assert not await listed(service_pb2.GAME_STATUS_ACTIVE)
