"""The service's one error type. Each carries a gRPC status name, a stable reason and details.

Layers below the rpc layer raise `ServiceError` (or the engine's `IllegalAction`, or the wire's
`WireError`); `risk_service.server.status` is the one place that turns any of them into a gRPC
status, so a client's mistake can never surface as UNKNOWN or INTERNAL.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only named in annotations: errors.py stays importable on its own
    from risk_rules.engine import Reason


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


class ServiceReason(StrEnum):
    """The reasons the service itself sends: `risk.v1.ServiceReason` in errors.proto, which
    documents each one's status and meaning (tests/service/test_reasons.py keeps the two equal).
    The engine's reasons are its own `Reason` enum, mirrored by `risk.v1.RuleReason`."""

    MALFORMED_REQUEST = "MALFORMED_REQUEST"
    REQUEST_ID_REUSED = "REQUEST_ID_REUSED"
    SEAT_TAKEN = "SEAT_TAKEN"
    STALE_VERSION = "STALE_VERSION"
    GAME_NOT_FOUND = "GAME_NOT_FOUND"
    MISSING_CREDENTIALS = "MISSING_CREDENTIALS"
    BAD_CREDENTIALS = "BAD_CREDENTIALS"
    WRONG_SEAT = "WRONG_SEAT"
    TOO_LARGE = "TOO_LARGE"
    RATE_LIMITED = "RATE_LIMITED"
    SUBSCRIBER_TOO_SLOW = "SUBSCRIBER_TOO_SLOW"
    VARIANT_NOT_AVAILABLE = "VARIANT_NOT_AVAILABLE"
    STORE_UNAVAILABLE = "STORE_UNAVAILABLE"
    GAME_NOT_STARTED = "GAME_NOT_STARTED"
    GAME_NOT_OVER = "GAME_NOT_OVER"
    GAME_ALREADY_STARTED = "GAME_ALREADY_STARTED"
    SEATS_NOT_FILLED = "SEATS_NOT_FILLED"
    NOT_HOST = "NOT_HOST"
    ORGANISER_NEEDS_CLIENT_CERT = "ORGANISER_NEEDS_CLIENT_CERT"
    TOO_MANY_STREAMS = "TOO_MANY_STREAMS"
    METHOD_NOT_AVAILABLE = "METHOD_NOT_AVAILABLE"
    CAMPAIGN_NOT_FOUND = "CAMPAIGN_NOT_FOUND"
    GAME_IN_PROGRESS = "GAME_IN_PROGRESS"
    SEAT_NOT_TAKEN = "SEAT_NOT_TAKEN"
    NOT_CREATOR = "NOT_CREATOR"
    CREDENTIALS_REVOKED = "CREDENTIALS_REVOKED"
    SEAT_TOKEN_REISSUED = "SEAT_TOKEN_REISSUED"
    GAME_ROLLED_BACK = "GAME_ROLLED_BACK"
    TOO_MANY_STREAMED_GAMES = "TOO_MANY_STREAMED_GAMES"
    TOO_MANY_SUBSCRIBERS = "TOO_MANY_SUBSCRIBERS"
    VARIANT_NOT_FOUND = "VARIANT_NOT_FOUND"
    TOURNAMENT_NOT_FOUND = "TOURNAMENT_NOT_FOUND"
    TOO_MANY_ROUND_GAMES = "TOO_MANY_ROUND_GAMES"
    VERSION_OUT_OF_RANGE = "VERSION_OUT_OF_RANGE"
    ORIGIN_NOT_ALLOWED = "ORIGIN_NOT_ALLOWED"
    NOT_TOURNAMENT_OWNER = "NOT_TOURNAMENT_OWNER"
    TOO_MANY_BOT_GAMES = "TOO_MANY_BOT_GAMES"
    VACATION_NOT_OFFERED = "VACATION_NOT_OFFERED"
    VACATION_EXHAUSTED = "VACATION_EXHAUSTED"
    ALREADY_ON_VACATION = "ALREADY_ON_VACATION"
    NOT_ON_VACATION = "NOT_ON_VACATION"
    TOKEN_EXPIRED = "TOKEN_EXPIRED"
    BAD_ISSUER = "BAD_ISSUER"
    BAD_AUDIENCE = "BAD_AUDIENCE"
    UNKNOWN_KEY = "UNKNOWN_KEY"
    BAD_SIGNATURE = "BAD_SIGNATURE"
    KEYS_UNAVAILABLE = "KEYS_UNAVAILABLE"
    PLAYER_ALREADY_SEATED = "PLAYER_ALREADY_SEATED"
    PLAYERS_FROM_PROVIDER = "PLAYERS_FROM_PROVIDER"
    NOT_A_PLAYER = "NOT_A_PLAYER"
    INVITATION_NOT_FOUND = "INVITATION_NOT_FOUND"
    INVITATION_EXPIRED = "INVITATION_EXPIRED"
    INVITATION_CLOSED = "INVITATION_CLOSED"
    NOT_INVITED = "NOT_INVITED"
    YEARLY_VACATION_EXHAUSTED = "YEARLY_VACATION_EXHAUSTED"
    NOT_RATED = "NOT_RATED"
    ALREADY_QUEUED = "ALREADY_QUEUED"
    MATCH_TICKET_NOT_FOUND = "MATCH_TICKET_NOT_FOUND"
    MATCH_ALREADY_FORMED = "MATCH_ALREADY_FORMED"
    EVENT_CLOSED = "EVENT_CLOSED"
    NOT_ELIGIBLE = "NOT_ELIGIBLE"
    EVENT_FULL = "EVENT_FULL"


class ServiceError(Exception):
    """A refusal: `reason` is a `ServiceReason`, or an engine `Reason` the service passes on
    (a rule the request broke). Never a plain string, so a misspelt reason fails mypy."""

    def __init__(
        self, code: Code, reason: ServiceReason | Reason, message: str,
        metadata: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{code.value}/{reason}: {message}")
        self.code = code
        self.reason: str = str(reason)  # StrEnum members are their names: one type downstream
        self.message = message
        self.metadata = metadata or {}


def malformed(message: str) -> ServiceError:
    return ServiceError(Code.INVALID_ARGUMENT, ServiceReason.MALFORMED_REQUEST, message)


def not_found(game_id: str) -> ServiceError:
    return ServiceError(Code.NOT_FOUND, ServiceReason.GAME_NOT_FOUND, f"no game {game_id!r}")

