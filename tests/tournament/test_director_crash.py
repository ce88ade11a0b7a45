"""The director's exactly-once seating at the worst moment, with a GameService in this process
on the real Redis: the process dies after CreateRound created a round's games but before the
event's record says so. The next director sends the same CreateRound (the tables are read
from the record) and gets the same games; none is created twice. Publishing the event's
facts again adds nothing to the feed."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio

from risk_proto.risk.v1 import events_pb2, lifecycle_pb2, tournament_pb2
from risk_service.operations import GameService
from risk_service.operations.identity import Caller
from risk_service.store.game_store import GameStore
from risk_service.store.keys import Keys
from risk_testing.inprocess import in_process_hub
from tests.tournament.players import quick_options

LABEL = "crash-open"


class Died(Exception):
    """The process, gone right after CreateRound answered."""


@pytest.fixture
async def games(redis_client: redis.asyncio.Redis, redis_url: str
                ) -> AsyncIterator[GameService]:
    """A GameService in this process on the freshly flushed session Redis."""
    keys = Keys()
    service = GameService(GameStore(redis_client, keys),
                          in_process_hub(redis_client, keys, redis_url),
                          clock_ms=lambda: int(time.time() * 1000))
    yield service
    await service.hub.close()


def player(player_id: str) -> Caller:
    caller = Caller.of(None)
    caller.player = player_id
    return caller


async def running_event(games: GameService, players: int) -> None:
    organiser = Caller.of("organiser-secret")
    await games.events.create(events_pb2.CreateEventRequest(
        event=LABEL, format=events_pb2.EVENT_FORMAT_SWISS, rounds=2, final=True,
        options=quick_options(max_turns=2),
        clock=lifecycle_pb2.ClockOptions(decision_seconds=60,
                                         on_timeout=lifecycle_pb2.TIMEOUT_POLICY_BOT)),
        organiser)
    for n in range(players):
        await games.events.register(events_pb2.RegisterEventRequest(event=LABEL,
                                                                    name=f"p{n}"),
                                    player(f"player-{n}"))
    await games.events.start(events_pb2.StartEventRequest(event=LABEL), organiser)


async def round_games(games: GameService, number: int) -> list[str]:
    return sorted(await games.tournaments.page(LABEL, number, "", 1000))


async def test_a_round_seated_by_a_director_that_died_is_not_seated_again(
    games: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CreateRound ran, the record was never written: the next step seats the same games."""
    await running_event(games, 9)
    director = games.director
    real = games.rounds.create_as
    first: list[tournament_pb2.CreateRoundResponse] = []

    async def create_then_die(*args: Any) -> tournament_pb2.CreateRoundResponse:
        first.append(await real(*args))
        raise Died

    monkeypatch.setattr(games.rounds, "create_as", create_then_die)
    with pytest.raises(Died):
        await director.step(LABEL)  # plans round 1, records the plan, creates, dies
    created = sorted(g.game_id for g in first[0].games)
    assert len(created) == 3 and await round_games(games, 1) == created
    loaded = await games.events.store.load(LABEL)
    assert loaded is not None
    assert loaded[1].event.rounds[0].seated_at_ms == 0  # the record never heard of them

    monkeypatch.setattr(games.rounds, "create_as", real)
    await director.step(LABEL)  # another director, the same request
    loaded = await games.events.store.load(LABEL)
    assert loaded is not None
    recorded = sorted(t.game_id for t in loaded[1].event.rounds[0].tables)
    assert recorded == created
    assert await round_games(games, 1) == created  # no fourth game, no second set
    assert len(await games.tournaments.page(LABEL, None, "", 1000)) == 3

    for _ in range(3):  # steps repeated: nothing new while the games are played
        await director.step(LABEL)
    assert await round_games(games, 2) == []
    facts = await games.tournaments.read_feed(LABEL, 0, 1000)
    event_facts = [tournament_pb2.TournamentFact.FromString(raw) for _seq, raw in facts]
    seated = [f for f in event_facts if f.WhichOneof("kind") == "round_seated"]
    assert [(f.round, sorted(t.game_id for t in f.round_seated.tables)) for f in seated] == [
        (1, created)]
    assert await director.publish(LABEL, loaded[1]) == 0
