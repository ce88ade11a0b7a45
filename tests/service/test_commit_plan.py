"""The commit's three steps: the pure plan on hand-made games (no Redis: which effects a
finishing move, a bot's turn and a tournament game's end produce, and the plan leaves its
change as it was), then one game on the real Redis whose effects run after the write and,
run again as a sweep would, change nothing."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio

from risk_proto.risk.v1 import game_pb2, lifecycle_pb2, tournament_pb2
from risk_rules import wire
from risk_rules.engine import Event, get_ruleset
from risk_rules.lifecycle import GameStarted
from risk_service import clocks
from risk_service.operations import GameService
from risk_service.operations.commit import Change, Plan, plan
from risk_service.operations.effects import (
    CacheState,
    CopyFacts,
    IndexGame,
    ScheduleDeadline,
    SetExpiry,
    StartBots,
)
from risk_service.operations.identity import digest
from risk_service.operations.limits import Limits
from risk_service.operations.records import ACTIVE, FINISHED, WAITING, decode_meta
from risk_service.operations.tournament_facts import Fact, fact_fields
from risk_service.store.game_store import GameRecord, GameStore
from risk_service.store.keys import Keys
from risk_testing.inprocess import in_process_hub
from tests.tournament.players import quick_options

RULES = get_ruleset("classic")
NOW = 1_700_000_000_000
LIMITS = Limits()


def classic_state(seed: int = 7) -> Any:
    """A 3-player classic game as created (dealt and placed, at its first decision)."""
    _variant, options = wire.options_from_proto(quick_options())
    state, _events = RULES.create(RULES.settle_options(options, timed=False), seed)
    return state


def meta_for(*, bots: tuple[bool, ...] = (False, False, False), label: str = ""
             ) -> lifecycle_pb2.GameMeta:
    meta = clocks.new_meta(lifecycle_pb2.ClockOptions(), 3)
    meta.bot_seats[:] = list(bots)
    if label:
        meta.tournament, meta.round = label, 2
        fact_fields(meta, [Fact(game_id="g1", round=2, created=Fact.Created())])
    return meta


def record_of(state: Any, meta: lifecycle_pb2.GameMeta, status: int, version: int = 4
              ) -> GameRecord:
    """A stored game at `version` as a load would give it (hand-made, never in Redis)."""
    return GameRecord(
        game_id="g1", variant="classic", status=status, version=version, last_seq=10 * version,
        created_ms=NOW - 60_000, updated_ms=NOW - 1_000, players=3,
        snapshot=wire.encode_state("classic", state),
        meta=meta.SerializeToString(deterministic=True), names=("ann", "bob", "cy"),
        seat_digests=(b"a" * 32, b"b" * 32, b"c" * 32), host_digest=b"h" * 32,
        commit_id="c0", snapshot_version=version)


def resigned_out(state: Any) -> tuple[Any, list[Event]]:
    """Seats 0 then 1 resign: seat 2 is left and has won."""
    events: list[Event] = []
    for seat in (0, 1):
        state, more = RULES.resign(state, seat)
        events.extend(more)
    assert RULES.outcome(state) is not None
    return state, events


def finishing_change(label: str = "") -> Change:
    """The second resignation of a started game, which ends it."""
    before = classic_state()
    meta = meta_for(label=label)
    after, events = resigned_out(before)
    return Change(record_of(before, meta, ACTIVE), after, meta, ACTIVE, events,
                  game_pb2.LogEntry(seat=1, resign=True))


def planned(change: Change, **kwargs: Any) -> Plan:
    return plan(change, actor=kwargs.pop("actor", None), now_ms=NOW, commit_id="c1",
                limits=LIMITS, **kwargs)


def test_a_finishing_move_plans_the_end_and_its_bookkeeping() -> None:
    """A move that ends the game writes it finished, with its whole state, and is followed by
    the cache, the finished list, the expiry and the deadline dropped, and by no bot."""
    change = finishing_change()
    done = planned(change, actor=1)
    assert (done.status, done.version, done.first_seq) == (FINISHED, 5, 41)
    assert done.snapshot  # a status change writes the whole state
    kinds = [type(effect) for effect in done.effects]
    assert kinds == [CacheState, IndexGame, SetExpiry, ScheduleDeadline]
    cached = done.effects[0]
    assert isinstance(cached, CacheState)
    assert (cached.record.status, cached.record.version, cached.record.commit_id) == (
        FINISHED, 5, "c1")
    assert cached.state is change.state
    assert done.effects[1:] == (
        IndexGame("g1", "classic", ACTIVE, FINISHED),
        SetExpiry("g1", "classic", NOW + LIMITS.retention(ACTIVE)),
        ScheduleDeadline("g1", 0),
    )
    assert done.retention_ms == LIMITS.retention(ACTIVE)


def test_the_plan_is_pure_and_leaves_its_change_alone() -> None:
    """Planning twice gives the same plan, and the change keeps its status, events, meta
    and log entry (nothing in it is settled in place)."""
    change = finishing_change(label="cup")
    meta_before = change.meta.SerializeToString(deterministic=True)
    events_before = list(change.events)
    first, second = planned(change, actor=1), planned(change, actor=1)
    assert first.effects[1:] == second.effects[1:]
    assert (first.meta, first.events, first.log_entry, first.fields) == (
        second.meta, second.events, second.log_entry, second.fields)
    assert change.status == ACTIVE
    assert change.events == events_before
    assert change.meta.SerializeToString(deterministic=True) == meta_before
    assert change.entry is not None and change.entry.version == 0 and not change.fields


def test_a_start_that_leaves_a_bot_to_decide_starts_the_bots() -> None:
    """The start of a game whose first decider is a bot seat plans StartBots (after the
    active list and the deadline); with a person on that seat, no bot is started."""
    state = classic_state()
    decider = RULES.decision(state).seats[0]
    bots = tuple(seat == decider for seat in range(3))
    for seats, expect_bots in ((bots, True), ((False,) * 3, False)):
        meta = meta_for(bots=seats)
        change = Change(record_of(state, meta, WAITING, version=3), state, meta, ACTIVE,
                        [GameStarted()], game_pb2.LogEntry(seat=-1, lifecycle="start"))
        done = planned(change)
        assert done.status == ACTIVE
        assert done.effects[1:3] == (IndexGame("g1", "classic", WAITING, ACTIVE),
                                     ScheduleDeadline("g1", 0))
        assert done.effects[3:] == ((StartBots("g1"),) if expect_bots else ())


def test_a_tournament_games_end_writes_its_facts_and_copies_them_after() -> None:
    """A tournament game's last resignation writes its facts (resigned, finished) into the
    game's hash with the commit, counted in its meta, and plans their copy to the feed."""
    done = planned(finishing_change(label="cup"), actor=1)
    facts = {name: Fact.FromString(value) for name, value in done.fields
             if name.startswith("f:")}
    assert [f.WhichOneof("kind") for _name, f in sorted(facts.items())] == [
        "seat_resigned", "finished"]
    assert sorted(facts) == ["f:2", "f:3"]  # after the one fact the game had
    assert lifecycle_pb2.GameMeta.FromString(done.meta).facts == 3
    assert done.effects[-1] == CopyFacts("g1", "cup")
    assert CopyFacts("g1", "cup") not in planned(finishing_change(), actor=1).effects


# ---- on the real Redis ------------------------------------------------------------------------


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


async def feed_kinds(games: GameService, label: str) -> list[str]:
    return [tournament_pb2.TournamentFact.FromString(data).WhichOneof("kind")
            for _seq, data in await games.tournaments.read_feed(label, 0, 100)]


async def test_a_tournament_games_end_is_followed_by_its_effects_once(games: GameService
                                                                      ) -> None:
    """A round's game ended by two resignations: after the last commit the game is listed
    finished and not active, due to expire, without a deadline, and each of its facts is in
    the feed once; carrying the commit's effects out again (as a sweep racing the process
    would) changes none of that."""
    _variant, options = wire.options_from_proto(quick_options())

    def setup(meta: lifecycle_pb2.GameMeta, now_ms: int) -> tuple[tuple[str, bytes], ...]:
        meta.tournament, meta.round = "plan-cup", 1
        return fact_fields(meta, [Fact(game_id="", round=1, game_version=0, at_ms=now_ms,
                                       created=Fact.Created())])

    game_id = f"{int(time.time() * 1000):012x}0123456789"
    record, state = await games.commands.open_game(
        "classic", options, 11, game_id=game_id, names=["ann", "bob", "cy"],
        seat_digests=lambda players: tuple(digest(f"t{s}") for s in range(players)),
        host_digest=digest("host"), clock=lifecycle_pb2.ClockOptions(), setup=setup)
    assert record.status == ACTIVE
    assert await feed_kinds(games, "plan-cup") == ["created", "started"]

    for seat in (0, 1):
        record, state = await games.commits.fresh(game_id)
        after, events = RULES.resign(state, seat)
        result, last = await games.commits.commit(
            Change(record, after, decode_meta(record), record.status, list(events),
                   game_pb2.LogEntry(seat=seat, resign=True)), actor=seat)
        assert result.outcome.name == "OK"
    assert last.status == FINISHED

    async def observed() -> tuple[Any, ...]:
        store = games.store
        far = int(time.time() * 1000) + 10 * LIMITS.retention_ms
        return (await store.page("*", FINISHED, "", 10), await store.page("*", ACTIVE, "", 10),
                await store.due(store.keys.expiring, far, 10),
                await store.due(store.keys.deadlines, far, 10),
                await feed_kinds(games, "plan-cup"))

    seen = await observed()
    assert seen == ([game_id], [], [f"classic:{game_id}"], [],
                    ["created", "started", "seat_resigned", "seat_resigned", "finished"])
    cached, _state = await games.commits.fresh(game_id)
    assert (cached.version, cached.status) == (last.version, FINISHED)

    await games.effects.run(last.effects)
    assert await observed() == seen
