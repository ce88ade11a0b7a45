"""Snapshots every N versions: with `snapshot_every` > 1 a commit appends the action to the log
and leaves the stored snapshot as it was, and a cold load (straight from Redis, no process
cache) replays the entries after it. For every contract variant, games played through the
operations on a real Redis are loaded cold after every commit and the rebuilt state must
encode to the very bytes of the state the process held: before and after snapshots, across
resignations, timeouts (the default action, the bot, a forfeit) and the end of the game. A game
stored by the code before snapshots were spaced out (no `sver` / `sidx`) loads unchanged.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from risk_proto.risk.v1 import (
    classic_pb2,
    deep_space_pb2,
    game_pb2,
    legacy_pb2,
    lifecycle_pb2,
    service_pb2,
    strike_pb2,
)
from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_service.operations import GameService, records
from risk_service.operations.identity import ANONYMOUS, Caller
from risk_service.operations.limits import Limits
from risk_service.operations.records import ACTIVE, FINAL
from risk_service.settings import Settings
from risk_service.store.game_store import GameStore
from risk_service.store.keys import Keys
from risk_service.store.pipe import RedisPipe
from risk_testing.inprocess import in_process_hub

EVERY = 5  # snapshot_every in these games: small, so that a game crosses many snapshots
MOVES = 120  # moves played before the seats resign in turn (the game then ends)
_MASK64 = (1 << 64) - 1
_REQUESTS = itertools.count()  # a fresh request id per move

OPTIONS = {
    "classic": game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
        players=3, setup=2, auto_place=True, auto_defend_max_dice=True, max_turns=60)),
    "deep_space": game_pb2.GameOptions(deep_space=deep_space_pb2.DeepSpaceOptions(players=3)),
    "strike": game_pb2.GameOptions(strike=strike_pb2.StrikeOptions(players=3)),
    "legacy": game_pb2.GameOptions(legacy=legacy_pb2.LegacyOptions(players=3)),
}


class Clock:
    """The service's clock, moved on by the test (deadlines pass when it says so)."""

    def __init__(self) -> None:
        self.ms = int(time.time() * 1000)

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
async def pipe(redis_url: str) -> AsyncIterator[RedisPipe]:
    shared = RedisPipe(redis_url)
    yield shared
    await shared.close()


def _service(client: aioredis.Redis, redis_url: str, clock: Clock,
             pipe: RedisPipe | None, every: int = EVERY) -> GameService:
    keys = Keys()
    return GameService(GameStore(client, keys, pipe), in_process_hub(client, keys, redis_url),
                       clock_ms=clock,
                       # a game whose seats all timed out to the bot is one of bots only: its
                       # pace (RISK_BOT_ONLY_MOVE_MS) is not what these tests are about
                       limits=Limits(snapshot_every=every, bot_only_move_ms=0))


async def _held(games: GameService, game_id: str) -> tuple[Any, Any]:
    """The process' own copy of the game (the state it committed last)."""
    cached = games.commits.cache.get(game_id)
    assert cached is not None, "the commit left no copy in the process cache"
    return cached


async def _check_cold(games: GameService, game_id: str, seen: set[str]) -> None:
    """A cold load of the game rebuilds the very state the process holds, within EVERY - 1
    replayed steps; `seen` collects which kinds of stored record were met."""
    held, state = await _held(games, game_id)
    record = await games.store.load(game_id)
    assert record is not None
    assert (record.version, record.commit_id) == (held.version, held.commit_id)
    assert record.snapshot_version is not None
    assert record.version - record.snapshot_version < EVERY
    assert len(record.tail) == record.version - record.snapshot_version
    variant = record.variant
    expected = wire.encode_state(variant, state)
    assert wire.encode_state(variant, records.decode_state(record)) == expected, (
        f"version {record.version} (snapshot at {record.snapshot_version}) rebuilt otherwise")
    # the cached record itself (old snapshot + tail) says the same
    assert wire.encode_state(variant, records.decode_state(held)) == expected
    seen.add("snapshot" if record.tail == () else "tail")


async def _play(games: GameService, variant: str, seed: int, tokens: list[str], game_id: str,
                *, moves: int, seen: set[str]) -> int:
    """Bot moves through SubmitAction, a cold check after each; returns the moves made."""
    rules = get_ruleset(variant)
    for move in range(moves):
        held, state = await _held(games, game_id)
        if held.status != ACTIVE:
            return move
        seat = rules.decision(state).seats[0]
        action = rules.bot_action(state, seat, (seed * 0x9E3779B97F4A7C15 + move) & _MASK64)
        await games.moves.submit(service_pb2.SubmitActionRequest(
            game_id=game_id, action=wire.action_to_proto(variant, action),
            expected_version=held.version, request_id=f"m{next(_REQUESTS)}"),
            Caller.of(tokens[seat]))
        await _check_cold(games, game_id, seen)
    return moves


@pytest.mark.parametrize("variant", sorted(OPTIONS))
async def test_a_cold_load_rebuilds_the_held_state_at_every_version(
    redis_client: aioredis.Redis, redis_url: str, pipe: RedisPipe, variant: str,
) -> None:
    """Played through the operations with a snapshot every 5 versions, then resigned seat by
    seat to its end: at every version a cold load gives the same state bytes as the process'
    own, and the finished game's snapshot is its final state (export, replay and campaigns
    read it)."""
    clock = Clock()
    games = _service(redis_client, redis_url, clock, pipe)
    seed = 4242
    created = await games.commands.create(service_pb2.CreateGameRequest(
        options=OPTIONS[variant], seed=seed, issue_seat_tokens=True))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    seen: set[str] = set()
    await _check_cold(games, game_id, seen)
    await _play(games, variant, seed, tokens, game_id, moves=MOVES, seen=seen)
    rules = get_ruleset(variant)
    while (await _held(games, game_id))[0].status == ACTIVE:
        _held_record, state = await _held(games, game_id)
        seat = rules.decision(state).seats[0]
        await games.moves.resign(service_pb2.ResignRequest(
            game_id=game_id, request_id=f"r{next(_REQUESTS)}"),
            Caller.of(tokens[seat]))
        await _check_cold(games, game_id, seen)
        # a move or two between resignations, so some resign within a tail
        await _play(games, variant, seed + 1, tokens, game_id, moves=2, seen=seen)
    assert seen == {"snapshot", "tail"}
    final = await games.store.load(game_id)
    assert final is not None and final.status in FINAL
    assert final.version > 4 * EVERY, "too short a game to cross snapshots"
    print(variant, "versions", final.version)
    assert final.snapshot_version == final.version and final.tail == ()
    # the stored snapshot is not rewritten by every commit: fewer snapshots than versions
    stored = await redis_client.hgetall(Keys().game(game_id))
    assert int(stored[b"sver"]) == final.version
    # a spectator's replay of the finished game agrees with it at every version
    last = await games.queries.get(service_pb2.GetGameRequest(game_id=game_id,
                                                      at_version=final.version), ANONYMOUS)
    assert last.board == wire.view_to_proto(
        variant, rules.view(records.decode_state(final), None))


@pytest.mark.parametrize("policy", [lifecycle_pb2.TIMEOUT_POLICY_DEFAULT_ACTION,
                                    lifecycle_pb2.TIMEOUT_POLICY_BOT,
                                    lifecycle_pb2.TIMEOUT_POLICY_FORFEIT])
async def test_timeouts_and_bot_moves_are_rebuilt_from_the_log(
    redis_client: aioredis.Redis, redis_url: str, pipe: RedisPipe, policy: int,
) -> None:
    """Deadlines passing one after another (the policy's move, or the bot taking the seat
    over and playing on, or a forfeit) land as log entries a cold load replays to the held
    state."""
    clock = Clock()
    games = _service(redis_client, redis_url, clock, pipe)
    request = service_pb2.CreateGameRequest(
        options=OPTIONS["classic"], seed=77, issue_seat_tokens=True,
        clock=lifecycle_pb2.ClockOptions(decision_seconds=30, on_timeout=policy))  # type: ignore[arg-type]
    created = await games.commands.create(request)
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    seen: set[str] = set()
    await _play(games, "classic", 77, tokens, game_id, moves=7, seen=seen)
    applied = 0
    for _ in range(12):
        held, _state = await _held(games, game_id)
        if held.status != ACTIVE:
            break
        clock.ms += 31_000
        if await games.enforce_deadline(game_id):
            applied += 1
        if policy == lifecycle_pb2.TIMEOUT_POLICY_BOT:
            runs = list(games.timers.bot_runs.values())
            for run in runs:
                await run
        record = await games.store.load(game_id)
        assert record is not None
        games.commits.cache.keep(record, records.decode_state(record))
        await _check_cold(games, game_id, seen)
        await _play(games, "classic", 78 + applied, tokens, game_id, moves=1, seen=seen)
    assert applied >= 1
    log = [game_pb2.LogEntry.FromString(e)
           for e in await redis_client.lrange(Keys().log(game_id), 0, -1)]
    assert any(e.timed_out for e in log)
    if policy == lifecycle_pb2.TIMEOUT_POLICY_BOT:
        assert any(e.by_bot and not e.timed_out for e in log), "the bot never played on"


async def test_a_game_stored_by_the_previous_format_loads_and_plays_on(
    redis_client: aioredis.Redis, redis_url: str, pipe: RedisPipe,
) -> None:
    """A game written before snapshots were spaced out (a snapshot at its version, no `sver`
    or `sidx`, a log without its early entries) loads as it is, and the first commit of a
    process that spaces snapshots out writes a full one (it names no log index to replay
    from); later commits append, and cold loads still rebuild the held state."""
    clock = Clock()
    old = _service(redis_client, redis_url, clock, pipe, every=1)
    created = await old.commands.create(service_pb2.CreateGameRequest(
        options=OPTIONS["classic"], seed=99, issue_seat_tokens=True))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    seen: set[str] = set()
    await _play(old, "classic", 99, tokens, game_id, moves=6, seen=seen)
    keys = Keys()
    # what the old code left: no snapshot bookkeeping, and (a game older still) a log that
    # lacks its first entries
    await redis_client.hdel(keys.game(game_id), "sver", "sidx")
    await redis_client.ltrim(keys.log(game_id), 3, -1)
    stored = await redis_client.hget(keys.game(game_id), "snap")
    record = await old.store.load(game_id)
    assert record is not None and record.snapshot_version is None and record.tail == ()
    assert record.snapshot == stored
    held_state = (await _held(old, game_id))[1]
    assert wire.encode_state("classic", records.decode_state(record)) == \
        wire.encode_state("classic", held_state)
    games = _service(redis_client, redis_url, clock, pipe)
    rules = get_ruleset("classic")
    state = records.decode_state(record)
    seat = rules.decision(state).seats[0]
    await games.moves.submit(service_pb2.SubmitActionRequest(
        game_id=game_id, action=wire.action_to_proto("classic", rules.default_action(
            state, seat)), expected_version=record.version, request_id="x"),
            Caller.of(tokens[seat]))
    after = await games.store.load(game_id)
    assert after is not None and after.snapshot_version == after.version == record.version + 1
    await _play(games, "classic", 100, tokens, game_id, moves=2 * EVERY, seen=seen)
    assert "tail" in seen



async def test_a_commit_by_an_earlier_release_between_snapshots_is_read_as_its_snapshot(
    redis_client: aioredis.Redis, redis_url: str, pipe: RedisPipe,
) -> None:
    """While both releases serve one Redis (a rolling upgrade run with snapshot_every 1 first,
    but a process of the earlier release may still commit to a game with a tail): a commit
    that writes `snap`, `version` and `cid` as the earlier release did, and nothing of `sver`
    / `sidx` / `scid`, is loaded as a state at its version, not replayed onto; the next commit
    of this release writes a snapshot again."""
    clock = Clock()
    games = _service(redis_client, redis_url, clock, pipe)
    created = await games.commands.create(service_pb2.CreateGameRequest(
        options=OPTIONS["classic"], seed=31, issue_seat_tokens=True))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    seen: set[str] = set()
    await _play(games, "classic", 31, tokens, game_id, moves=EVERY + 2, seen=seen)
    record = await games.store.load(game_id)
    assert record is not None and record.tail, "the game is not between snapshots"
    # the earlier release's commit of one move
    rules = get_ruleset("classic")
    state = records.decode_state(record)
    seat = rules.decision(state).seats[0]
    action = rules.default_action(state, seat)
    moved = rules.apply(state, seat, action)[0]
    keys = Keys()
    entry = game_pb2.LogEntry(version=record.version + 1, seat=seat,
                              action=wire.action_to_proto("classic", action))
    await redis_client.hset(keys.game(game_id), mapping={
        "snap": wire.encode_state("classic", moved), "version": record.version + 1,
        "cid": "0123456789abcdef"})
    await redis_client.rpush(keys.log(game_id), entry.SerializeToString(deterministic=True))
    loaded = await games.store.load(game_id)
    assert loaded is not None
    assert loaded.snapshot_version is None and loaded.tail == ()
    assert wire.encode_state("classic", records.decode_state(loaded)) == \
        wire.encode_state("classic", moved)
    # this release's next commit is based on it and writes a snapshot
    games.commits.cache.keep(loaded, moved)
    await _play(games, "classic", 32, tokens, game_id, moves=1, seen=seen)
    after = await games.store.load(game_id)
    assert after is not None and after.snapshot_version == after.version == loaded.version + 1
    await _play(games, "classic", 33, tokens, game_id, moves=EVERY, seen=seen)

async def test_list_games_summarises_games_between_snapshots(
    redis_client: aioredis.Redis, redis_url: str, pipe: RedisPipe,
) -> None:
    """ListGames reads each game's log tail and shows the decision of the state the game is
    in, not of its last snapshot; also without the shared connection (redis-py's script)."""
    clock = Clock()
    games = _service(redis_client, redis_url, clock, pipe)
    plain = _service(redis_client, redis_url, clock, None)
    ids = []
    for seed, moves in enumerate((2, 3, 7)):
        created = await games.commands.create(service_pb2.CreateGameRequest(
            options=OPTIONS["classic"], seed=seed, issue_seat_tokens=True))
        game_id = created.game.game_id
        await _play(games, "classic", seed, list(created.seat_tokens), game_id,
                    moves=moves, seen=set())
        ids.append(game_id)
    tails: list[int] = []
    page = await games.queries.list(service_pb2.ListGamesRequest())
    listed = {g.game_id: g for g in page.games}
    for game_id in ids:
        held, state = await _held(games, game_id)
        assert listed[game_id].version == held.version
        assert listed[game_id].decision == wire.decision_to_proto(
            get_ruleset("classic").decision(state))
        record = await plain.store.load(game_id)
        assert record is not None and (record.version, record.commit_id) == (
            held.version, held.commit_id)
        assert wire.encode_state("classic", records.decode_state(record)) == \
            wire.encode_state("classic", state)
        tails.append(len(record.tail))
    assert any(tails), "no listed game was between snapshots"


@pytest.mark.parametrize(("raw", "every"), [("1", 1), ("16", 16), (None, 1)])
def test_the_interval_is_a_setting(raw: str | None, every: int) -> None:
    """RISK_SNAPSHOT_EVERY sets the interval (default 1: a snapshot on every commit)."""
    env = {} if raw is None else {"RISK_SNAPSHOT_EVERY": raw}
    assert Settings.from_env(env).snapshot_every == every


@pytest.mark.parametrize("raw", ["0", "-3", "1025"])
def test_an_interval_that_cannot_work_stops_the_start(raw: str) -> None:
    """An interval below 1 (no snapshot ever) or absurdly long is refused, naming the setting."""
    with pytest.raises(ValueError, match="RISK_SNAPSHOT_EVERY"):
        Settings.from_env({"RISK_SNAPSHOT_EVERY": raw})
