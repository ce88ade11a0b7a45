"""A stored game as the operations read it: its id's form, its statuses, its decoded state and
metadata, and the refusals that depend only on its status."""

from __future__ import annotations

import re
from typing import Any

from risk_proto.risk.v1 import lifecycle_pb2, service_pb2
from risk_rules import wire
from risk_rules.engine import Reason
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


def decode_state(record: GameRecord) -> Any:
    _variant, _rules_version, state = wire.decode_state(record.snapshot)
    return state


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
