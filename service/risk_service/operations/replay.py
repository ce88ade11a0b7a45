"""Replay: a finished game's board as a spectator saw it at any version, rebuilt by replaying
its stored log through the pure rules (as `risk_rules.audit.verify` replays an export).

Cost is bounded by checkpoints kept with the game in Redis (store/checkpoints.py), not per
process: the state every `every` versions (Limits.replay_checkpoint_every). A read takes the
checkpoint at or before its version and the log entries after it (one script on the game's
slot) and applies fewer than `every` of them, in any process, fresh or not. A game that has
none (never replayed, replayed before Redis lost writes, or stored by an earlier release) is
replayed in full once, in a worker thread (a long game does not hold the event loop), and its
checkpoints written; concurrent first reads of a game in one process share that replay. Only
a game that is over is replayed, so its checkpoints never change while its state is the one
they were replayed to (its commit id).

Every replay is charged to its caller before its work is done, in replay steps (log entries
it applies, plus STEP_COST_PER_CALL for the checkpoint's decoding and the view) through the
call's `Caller`, whose admission record (server.calls.Admission) keeps the budgets; over it the
call is refused RESOURCE_EXHAUSTED / RATE_LIMITED with `retry_after_ms`, before any replay
work.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from risk_proto.risk.v1 import game_pb2
from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_service.errors import Code, ServiceError, ServiceReason
from risk_service.operations import records
from risk_service.operations.identity import ANONYMOUS, Caller
from risk_service.operations.records import FINAL, Step, advance, step_of
from risk_service.store.checkpoints import Checkpoint, CheckpointStore, Kept
from risk_service.store.game_store import GameRecord, GameStore

CHECKPOINT_EVERY = 32  # the default stride: a classic state is about 270 bytes, 8 per version
LOG_READ = 512  # log entries read from Redis at a time by a full replay
# what a replay costs besides its steps (a checkpoint decoded, the view built): about four
# steps' time (bench/RESULTS.md, "Replay checkpoints in Redis")
STEP_COST_PER_CALL = 4

# on_replay(kind, steps): "answer" for the entries applied after a checkpoint, "build" for a
# full replay that wrote a game's checkpoints (the metric risk_replay_steps_total)
OnReplay = Callable[[str, int], None]


@dataclass(frozen=True, slots=True)
class Built:
    """A full replay's checkpoints and the log they index, as the store would answer."""

    every: int
    kept: list[Kept]
    entries: list[bytes]

    def checkpoint(self, version: int) -> Checkpoint:
        """What `CheckpointStore.read` answers for `version` once these are written."""
        point = self.kept[version // self.every]
        first = point.log_index
        return Checkpoint(point.version, point.state,
                          tuple(self.entries[first:first + version - point.version]))


class Replays:
    """At_version reads, from the checkpoints kept with each game."""

    def __init__(self, store: GameStore, every: int = CHECKPOINT_EVERY,
                 on_replay: OnReplay = lambda _kind, _steps: None) -> None:
        self.store = store
        self.every = every
        self.on_replay = on_replay
        self.checkpoints = CheckpointStore(store.redis, store.keys)
        self._building: dict[str, tuple[tuple[int, str], asyncio.Future[Built]]] = {}

    async def board_at(self, record: GameRecord, version: int,
                       caller: Caller = ANONYMOUS) -> game_pb2.BoardView:
        """The spectator's board of the game of `record` just after `version` was committed;
        GAME_NOT_OVER for a game still waiting or in play, VERSION_OUT_OF_RANGE past its
        version, RATE_LIMITED past the caller's replay budget."""
        if record.status not in FINAL:
            raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.GAME_NOT_OVER,
                               "a game is replayed once it is over: until then, read its "
                               "board without at_version or follow its events")
        if version > record.version:
            raise ServiceError(
                Code.INVALID_ARGUMENT, ServiceReason.VERSION_OUT_OF_RANGE,
                f"at_version {version} is past the game's last version {record.version}",
                {"current_version": str(record.version)})
        charge = caller.charge_replay
        found = await self.checkpoints.read(record.game_id, record.commit_id, version)
        if found is None:
            found = await self._built(record, version, charge)
        else:
            charge(len(found.entries) + STEP_COST_PER_CALL)
        state, applied = advance_from(record.variant, found, version)
        self.on_replay("answer", applied)
        return wire.view_to_proto(record.variant, get_ruleset(record.variant).view(state, None))

    async def _built(self, record: GameRecord, version: int,
                     charge: Callable[[int], None]) -> Checkpoint:
        """The checkpoint for `version` from a full replay of the game (this call's, or one
        already running in this process for the same state), its checkpoints written."""
        key = records.state_id(record)
        running = self._building.get(record.game_id)
        if running is not None and running[0] == key:
            charge(self.every + STEP_COST_PER_CALL)  # it waits for a replay someone paid for
        else:
            charge(record.version + STEP_COST_PER_CALL)
            # shielded: a caller that gives up does not cancel the replay for the others
            running = (key, asyncio.ensure_future(self._build(record)))
            self._building[record.game_id] = running
        try:
            built = await asyncio.shield(running[1])
        finally:
            if self._building.get(record.game_id) is running and running[1].done():
                del self._building[record.game_id]
        return built.checkpoint(version)

    async def _build(self, record: GameRecord) -> Built:
        entries = await self._log(record.game_id)
        kept, steps = await asyncio.to_thread(build, record, entries, self.every)
        self.on_replay("build", steps)
        await self.checkpoints.write(record.game_id, record.commit_id, self.every, kept)
        return Built(self.every, kept, entries)

    async def _log(self, game_id: str) -> list[bytes]:
        entries: list[bytes] = []
        while True:
            page = await self.store.read_log(game_id, len(entries), LOG_READ)
            entries.extend(page)
            if len(page) < LOG_READ:
                return entries


def build(record: GameRecord, entries: list[bytes], every: int) -> tuple[list[Kept], int]:
    """Replay the whole log from the game's options and seed (the final state holds both),
    keeping the state (encoded) at every `every`-th version; and the steps applied."""
    rules = get_ruleset(record.variant)
    final = records.decode_state(record)
    state, _events = rules.create(final.options, final.seed)
    # a game stored before every commit had a log entry lacks the entries of its lifecycle
    # steps: the versions without one changed nothing the rules hold
    steps: list[Step] = [None] * record.version
    after: list[int] = [0] * (record.version + 1)  # after[v]: log index of the entry after v
    for index, data in enumerate(entries):
        entry = game_pb2.LogEntry.FromString(data)
        if not 0 < entry.version <= record.version:
            continue
        steps[entry.version - 1] = step_of(entry)
        after[entry.version] = index + 1
    for version in range(1, record.version + 1):
        after[version] = max(after[version], after[version - 1])
    kept = [Kept(0, 0, wire.encode_state(record.variant, state))]
    applied = 0
    for version, step in enumerate(steps, start=1):
        if step is not None:
            state = advance(rules, state, step)
            applied += 1
        if version % every == 0:
            kept.append(Kept(version, after[version], wire.encode_state(record.variant, state)))
    return kept, applied


def advance_from(variant: str, found: Checkpoint, version: int) -> tuple[Any, int]:
    """The state at `version` from a checkpoint and the log entries after it; and how many
    steps were applied."""
    rules = get_ruleset(variant)
    _variant, _rules_version, state = wire.decode_state(found.state)
    applied = 0
    last = found.version
    for data in found.entries:
        entry = game_pb2.LogEntry.FromString(data)
        if entry.version > version:
            break
        if entry.version <= last:
            raise records.TailMissing(f"log entry of version {entry.version} after version "
                                      f"{last} replaying to {version}")
        last = entry.version
        step = step_of(entry)
        if step is not None:
            state = advance(rules, state, step)
            applied += 1
    return state, applied
