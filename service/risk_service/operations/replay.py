"""Replay: a finished game's board as a spectator saw it at any version, rebuilt by replaying
its stored log through the pure rules (as `risk_rules.audit.verify` replays an export).

Cost is bounded by checkpoints: the first replay of a game reads its log once and applies every
entry, keeping the state at every stride-th version (a stride of CHECKPOINT_STRIDE versions, or
longer for a game of more than MAX_CHECKPOINTS strides); a later request for the same game
starts from the checkpoint at or before its version, so it applies fewer than a stride of
entries. The replays of the last REPLAY_CACHE_GAMES games are kept per process (memory: a
game's decoded actions plus at most MAX_CHECKPOINTS + 1 states). Only a game that is over is
replayed, so what is cached never changes; the cache is still keyed by the state the record
holds, so a store rolled back to another state is replayed afresh. The full replay runs in a
worker thread: a long game does not hold the event loop.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from risk_proto.risk.v1 import game_pb2
from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_service.errors import Code, ServiceError, ServiceReason
from risk_service.operations import records
from risk_service.operations.records import FINAL, Step, advance, step_of
from risk_service.store.game_store import GameRecord, GameStore

CHECKPOINT_STRIDE = 32  # a state is kept every this many versions ...
MAX_CHECKPOINTS = 256  # ... or at most this many for a long game (46,589 versions: every 182)
REPLAY_CACHE_GAMES = 16  # games whose replays a process keeps
LOG_READ = 512  # log entries read from Redis at a time


@dataclass(frozen=True, slots=True)
class Replay:
    """One game's log as rule steps, with the state at every CHECKPOINT_STRIDE-th version."""

    variant: str
    steps: list[Step]  # steps[v - 1] is what version v did
    stride: int
    checkpoints: list[Any]  # checkpoints[i] is the state at version i * stride

    def state_at(self, version: int) -> Any:
        rules = get_ruleset(self.variant)
        start = version // self.stride * self.stride
        state = self.checkpoints[start // self.stride]
        for step in self.steps[start:version]:
            state = advance(rules, state, step)
        return state


class Replays:
    """The replays of the games this process replayed last."""

    def __init__(self, store: GameStore, capacity: int = REPLAY_CACHE_GAMES) -> None:
        self.store = store
        self.capacity = capacity
        self._games: OrderedDict[str, tuple[tuple[int, str], Replay]] = OrderedDict()
        self._building: dict[str, tuple[tuple[int, str], asyncio.Future[Replay]]] = {}

    async def board_at(self, record: GameRecord, version: int) -> game_pb2.BoardView:
        """The spectator's board of the game of `record` just after `version` was committed;
        GAME_NOT_OVER for a game still waiting or in play, VERSION_OUT_OF_RANGE past its
        version."""
        if record.status not in FINAL:
            raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.GAME_NOT_OVER,
                               "a game is replayed once it is over: until then, read its "
                               "board without at_version or follow its events")
        if version > record.version:
            raise ServiceError(
                Code.INVALID_ARGUMENT, ServiceReason.VERSION_OUT_OF_RANGE,
                f"at_version {version} is past the game's last version {record.version}",
                {"current_version": str(record.version)})
        replay = await self._replay(record)
        state = replay.state_at(version)
        return wire.view_to_proto(record.variant, get_ruleset(record.variant).view(state, None))

    async def _replay(self, record: GameRecord) -> Replay:
        key = records.state_id(record)
        held = self._games.get(record.game_id)
        if held is not None and held[0] == key:
            self._games.move_to_end(record.game_id)
            return held[1]
        # concurrent first reads of one game share one build; shielded, so a caller that
        # gives up does not cancel it for the others
        running = self._building.get(record.game_id)
        if running is None or running[0] != key:
            running = (key, asyncio.ensure_future(self._build(record)))
            self._building[record.game_id] = running
        try:
            replay = await asyncio.shield(running[1])
        finally:
            if self._building.get(record.game_id) is running and running[1].done():
                del self._building[record.game_id]
        self._games[record.game_id] = (key, replay)
        self._games.move_to_end(record.game_id)
        while len(self._games) > self.capacity:
            self._games.popitem(last=False)
        return replay

    async def _build(self, record: GameRecord) -> Replay:
        entries = await self._log(record.game_id)
        return await asyncio.to_thread(_build, record, entries)

    async def _log(self, game_id: str) -> list[bytes]:
        entries: list[bytes] = []
        while True:
            page = await self.store.read_log(game_id, len(entries), LOG_READ)
            entries.extend(page)
            if len(page) < LOG_READ:
                return entries


def _build(record: GameRecord, entries: list[bytes]) -> Replay:
    """Replay the whole log from the game's options and seed (the final state holds both)."""
    rules = get_ruleset(record.variant)
    final = records.decode_state(record)
    state, _events = rules.create(final.options, final.seed)
    # a game stored before every commit had a log entry lacks the entries of its lifecycle
    # steps: the versions without one changed nothing the rules hold
    steps: list[Step] = [None] * record.version
    for data in entries:
        entry = game_pb2.LogEntry.FromString(data)
        if not 0 < entry.version <= record.version:
            continue
        steps[entry.version - 1] = step_of(entry)
    stride = max(CHECKPOINT_STRIDE, -(-len(steps) // MAX_CHECKPOINTS))
    checkpoints = [state]
    for version, step in enumerate(steps, start=1):
        state = advance(rules, state, step)
        if version % stride == 0:
            checkpoints.append(state)
    return Replay(record.variant, steps, stride, checkpoints)

