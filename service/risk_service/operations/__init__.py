"""The game service's operations, independent of any transport: create, join, act, read,
stream, export, and the lifecycle around them (start, cancel, resign, clocks, bots, abandon).

Each operation loads what it needs from the store, authenticates the caller against the game's
token digests, runs the pure engine, and commits atomically: one commit per change, whose
events are the lifecycle events (if any) followed by the engine's. Operations return protobuf
responses because a SubmitAction reply is stored verbatim for idempotent retries. Every failure
is a `ServiceError`, an `IllegalAction` or a `WireError`; each transport maps them to its own
statuses (`server.status` for gRPC). Nothing here imports grpc (tests/service/test_transports.py).
docs/architecture.md maps the modules.
"""

from risk_service.operations.identity import ANONYMOUS, Caller, digest, require_creator
from risk_service.operations.limits import Limits
from risk_service.operations.records import (
    ABANDONED,
    ACTIVE,
    CANCELLED,
    FINAL,
    FINISHED,
    WAITING,
)
from risk_service.operations.service import GameService

__all__ = [
    "ABANDONED", "ACTIVE", "ANONYMOUS", "CANCELLED", "FINAL", "FINISHED", "WAITING", "Caller",
    "GameService", "Limits", "digest", "require_creator",
]
