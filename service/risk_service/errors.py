"""The service's one error type. Each carries a gRPC status name, a stable reason and details.

Layers below the rpc layer raise `ServiceError` (or the engine's `IllegalAction`, or the wire's
`WireError`); `risk_service.server.status` is the one place that turns any of them into a gRPC
status, so a client's mistake can never surface as UNKNOWN or INTERNAL.
"""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """gRPC status names this service answers with (kept free of the grpc import)."""

    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    FAILED_PRECONDITION = "FAILED_PRECONDITION"
    ABORTED = "ABORTED"
    NOT_FOUND = "NOT_FOUND"
    UNAUTHENTICATED = "UNAUTHENTICATED"
    PERMISSION_DENIED = "PERMISSION_DENIED"
    RESOURCE_EXHAUSTED = "RESOURCE_EXHAUSTED"
    UNIMPLEMENTED = "UNIMPLEMENTED"
    UNAVAILABLE = "UNAVAILABLE"


class ServiceError(Exception):
    def __init__(
        self, code: Code, reason: str, message: str, metadata: dict[str, str] | None = None
    ) -> None:
        super().__init__(f"{code.value}/{reason}: {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata = metadata or {}


def malformed(message: str) -> ServiceError:
    return ServiceError(Code.INVALID_ARGUMENT, "MALFORMED_REQUEST", message)


def not_found(game_id: str) -> ServiceError:
    return ServiceError(Code.NOT_FOUND, "GAME_NOT_FOUND", f"no game {game_id!r}")
