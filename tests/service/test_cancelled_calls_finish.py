"""A change made of several writes runs to its end when its call is cancelled midway
(risk_service/finishing.py): a client that goes, or a deadline that passes, while the first
write is on its way leaves no half-made change.

The store sends a write whose caller was cancelled, so the cancel this matters for lands
just after the write was sent: each test holds the service's write there (the real write is
done, its answer held), cancels the call, lets the answer through, and looks for what the
rest of the change does. Before finishing.py each of these was skipped, with nothing to redo
it. The services run in the test's process, on the real Redis.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any

import pytest
import redis.asyncio as aioredis

from risk_proto.risk.v1 import classic_pb2, events_pb2, lifecycle_pb2, service_pb2
from risk_service import finishing
from risk_service.errors import ServiceError
from risk_service.operations import FINISHED, GameService, Limits
from risk_service.operations.identity import Caller
from risk_service.operations.vacation import year_of
from risk_testing.inprocess import in_process_service
from risk_testing.rpc import classic_options
from tests.service.conftest import Clock

DAY = 86_400_000
WAIT_S = 20.0


@pytest.fixture
async def games(redis_client: aioredis.Redis, redis_url: str, clock: Clock
                ) -> AsyncIterator[GameService]:
    async with in_process_service(redis_url, clock,
                                  limits=Limits(vacation_days_per_year=10)) as service:
        yield service


def player(player_id: str) -> Caller:
    caller = Caller.of(f"jwt-of-{player_id}")
    caller.player = player_id
    return caller


async def cancelled_after_write(owner: object, method: str,
                                call: Coroutine[Any, Any, Any]) -> None:
    """Run `call` until `owner.method` (a store write) has written, cancel the call there,
    then let the write's answer through."""
    real: Callable[..., Awaitable[Any]] = getattr(owner, method)
    written, release = asyncio.Event(), asyncio.Event()

    async def held(*args: Any, **kwargs: Any) -> Any:
        result = await real(*args, **kwargs)
        if not written.is_set():  # the first write only
            written.set()
            await release.wait()
        return result

    setattr(owner, method, held)
    task = asyncio.ensure_future(call)
    try:
        async with asyncio.timeout(WAIT_S):
            await written.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        release.set()
        setattr(owner, method, real)
    assert await finishing.drain(WAIT_S) == 0, "the rest of the change did not end"


async def test_a_resign_that_ends_a_game_lists_it_as_finished(games: GameService) -> None:
    """The resign's commit ends the game; its caller is cancelled as the commit is answered:
    ListGames lists the game among the finished ones, not the active ones (the index moves
    after the commit, and no sweep would move it later)."""
    created = await games.commands.create(service_pb2.CreateGameRequest(
        options=classic_options(players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL,
                                auto_place=True), seed=3), Caller.of(None))
    joined = [await games.commands.join(service_pb2.JoinGameRequest(
        game_id=created.game.game_id, seat=seat), Caller.of(None)) for seat in (0, 1)]
    game_id = created.game.game_id
    await cancelled_after_write(games.store, "commit", games.moves.resign(
        service_pb2.ResignRequest(game_id=game_id), Caller.of(joined[0].seat_token)))

    async def listed(status: int) -> list[str]:
        page = await games.queries.list(service_pb2.ListGamesRequest(status=status))
        return [game.game_id for game in page.games]

    assert game_id in await listed(FINISHED)
    assert game_id not in await listed(service_pb2.GAME_STATUS_ACTIVE)


async def test_an_ended_vacation_returns_the_unused_days(games: GameService, clock: Clock
                                                         ) -> None:
    """EndVacation's commit lands and its caller is cancelled: the player's unused days
    are returned to their year all the same."""
    created = await games.commands.create(service_pb2.CreateGameRequest(
        options=classic_options(players=3, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL,
                                auto_place=True),
        seed=4, seat_players=["alice", "bob", "carol"],
        clock=lifecycle_pb2.ClockOptions(turn_seconds=DAY // 1000, vacation_days=7)),
        Caller.of(None))
    game_id = created.game.game_id
    await games.timers.start_vacation(service_pb2.StartVacationRequest(
        game_id=game_id, days=5), player("alice"))

    async def used_days() -> float:
        return await games.timers.vacations.used_ms("alice", year_of(clock.now)) / DAY

    assert await used_days() == 5
    clock.now += DAY
    await cancelled_after_write(games.store, "commit", games.timers.end_vacation(
        service_pb2.EndVacationRequest(game_id=game_id), player("alice")))
    assert await used_days() == 1, "the 4 unused days are back in alice's year"


async def test_a_started_event_is_on_the_directors_list(games: GameService) -> None:
    """StartEvent's write lands and its caller is cancelled: the event is on the list the
    directors seat rounds from. And where a process died between the two, the organiser's
    resend (refused: the event runs) puts it there."""
    organiser = Caller.of("organiser-token")
    for label in ("cut", "died"):
        await games.events.create(events_pb2.CreateEventRequest(
            event=label, format=events_pb2.EVENT_FORMAT_SWISS, rounds=1,
            options=classic_options(players=3, setup=2, auto_place=True, max_turns=2)),
            organiser)
        for name in ("ann", "bob", "cy"):
            await games.events.register(events_pb2.RegisterEventRequest(event=label),
                                        player(f"{label}-{name}"))
    store = games.events.store
    await cancelled_after_write(games.events, "_update", games.events.start(
        events_pb2.StartEventRequest(event="cut"), organiser))
    assert "cut" in await store.running()

    real = store.mark_running

    async def died(label: str) -> None:
        raise RuntimeError("the process died here")

    store.mark_running = died  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        await games.events.start(events_pb2.StartEventRequest(event="died"), organiser)
    store.mark_running = real  # type: ignore[method-assign]
    assert "died" not in await store.running()
    with pytest.raises(ServiceError) as again:
        await games.events.start(events_pb2.StartEventRequest(event="died"), organiser)
    assert again.value.reason == "EVENT_CLOSED"
    assert "died" in await store.running()
