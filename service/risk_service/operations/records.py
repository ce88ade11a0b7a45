"""A stored game as the operations read it: its id's form, its statuses, its decoded state and
metadata, and the refusals that depend only on its status.

The state is the snapshot stored with the game brought to the game's version by the log
entries committed after it (`GameRecord.tail`: fewer than `Limits.snapshot_every`), each
applied through the same pure rules that applied it first (docs/storage.md, "Snapshots every
N versions"); `replay.py` steps through a whole log the same way.
"""

from __future__ import annotations

import re
from typing import Any

from risk_proto.risk.v1 import common_pb2, game_pb2, lifecycle_pb2, service_pb2
from risk_rules import wire
from risk_rules.engine import Reason, Ruleset, get_ruleset
from risk_service.errors import Code, ServiceError, ServiceReason, malformed, not_found
from risk_service.store.game_store import GameRecord, GameStore

# a game id; a campaign's games are "<campaign id>.<n>"
GAME_ID = re.compile(r"^[0-9a-f]{12,64}(\.[0-9]{1,3})?$")

WAITING = service_pb2.GAME_STATUS_WAITING
ACTIVE = service_pb2.GAME_STATUS_ACTIVE
FINISHED = service_pb2.GAME_STATUS_FINISHED
ABANDONED = service_pb2.GAME_STATUS_ABANDONED
CANCELLED = service_pb2.GAME_STATUS_CANCELLED
FINAL = (FINISHED, ABANDONED, CANCELLED)


async def load(store: GameStore, game_id: str) -> GameRecord:
    """The stored game; MALFORMED_REQUEST for an id that is none, GAME_NOT_FOUND."""
    if not GAME_ID.match(game_id):
        raise malformed(f"game_id {game_id[:80]!r} is not a game id")
    record = await store.load(game_id)
    if record is None:
        raise not_found(game_id)
    return record


# what a version did to the rules: (seat, action) for an action, (seat, None) for a
# resignation; None for a lifecycle step (joins, the start, a cancel), which the rules never see
Step = tuple[int, Any] | None


class TailMissing(RuntimeError):
    """A record read without the log entries after its snapshot (a bug in the service: only
    summaries read games that way, through `listed`)."""


def decode_state(record: GameRecord) -> Any:
    """The engine state at the record's version: its snapshot, then its tail's steps."""
    _variant, _rules_version, state = wire.decode_state(record.snapshot)
    after = record.version if record.snapshot_version is None else record.snapshot_version
    if len(record.tail) != record.version - after:
        raise TailMissing(f"game {record.game_id}: {len(record.tail)} log entries after the "
                          f"snapshot at version {after}, the game is at {record.version}")
    if record.tail:
        rules = get_ruleset(record.variant)
        for expected, data in enumerate(record.tail, start=after + 1):
            entry = game_pb2.LogEntry.FromString(data)
            if entry.version != expected:
                raise TailMissing(f"game {record.game_id}: log entry of version "
                                  f"{entry.version} where {expected} belongs")
            state = advance(rules, state, step_of(entry))
    return state


def listed(record: GameRecord) -> tuple[Any, common_pb2.Decision | None]:
    """What a summary in a list needs of a record read without its tail (`load_many`): the
    state, and the decision to show instead of the state's when the state is the snapshot's
    (None: the state is the record's own). A game between snapshots is active and was at its
    snapshot too (a change of status writes one), so neither has an outcome, and its options
    and seed never change: only the decision differs, and each commit between snapshots
    stores it."""
    after = record.version if record.snapshot_version is None else record.snapshot_version
    if len(record.tail) == record.version - after:
        return decode_state(record), None
    _variant, _rules_version, state = wire.decode_state(record.snapshot)
    return state, common_pb2.Decision.FromString(record.decision)


def step_of(entry: game_pb2.LogEntry) -> Step:
    """What a log entry does to the rules' state."""
    which = entry.WhichOneof("entry")
    if which == "action":
        _variant, action = wire.action_from_proto(entry.action)
        return entry.seat, action
    if which == "resign":
        return entry.seat, None
    return None


def advance(rules: Ruleset[Any, Any, Any], state: Any, step: Step) -> Any:
    """The state after `step`, as the commit that logged it computed it."""
    if step is None:
        return state
    seat, action = step
    if action is None:
        return rules.resign(state, seat)[0]
    return rules.apply(state, seat, action)[0]


def decode_meta(record: GameRecord) -> lifecycle_pb2.GameMeta:
    return lifecycle_pb2.GameMeta.FromString(record.meta)


def state_id(record: GameRecord) -> tuple[int, str]:
    """What identifies the state a record holds: its version and the commit that wrote it."""
    return record.version, record.commit_id


def require_status(record: GameRecord, *allowed: int) -> None:
    if record.status in allowed:
        return
    if record.status == WAITING:
        raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.GAME_NOT_STARTED,
                           "the game has not started: every seat must be taken first")
    if record.status in FINAL:
        raise ServiceError(Code.FAILED_PRECONDITION, Reason.GAME_OVER, "the game is over")
    raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.GAME_ALREADY_STARTED,
                       "the game has already started")
