"""The SDK's one error hierarchy, built from a failed call's status and its ErrorInfo.

The service reports every failure as a gRPC status code plus a `google.rpc.Status` in the
trailing metadata (`grpc-status-details-bin`) whose `google.rpc.ErrorInfo` detail carries a
stable reason and string metadata (see proto/risk/v1/errors.proto). Callers catch by meaning
(`StaleVersion`, `IllegalMove`, ...) and branch on `.reason`, never on message text. A status
without details (a proxy, a dropped connection) still maps by its code, with an empty reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import grpc
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2, status_pb2

DOMAIN = "risk.v1"
DETAILS_KEY = "grpc-status-details-bin"


class RiskError(Exception):
    """A call the service (or the transport) refused.

    `code` is the gRPC status name ("FAILED_PRECONDITION", ...), `reason` the stable reason
    from the ErrorInfo ("NOT_YOUR_TURN", "STALE_VERSION", ...; empty when the status carried
    none), `message` the human-readable text and `metadata` the ErrorInfo's metadata.
    """

    def __init__(
        self,
        code: str,
        reason: str = "",
        message: str = "",
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        text = f"{code}/{reason}: {message}" if reason else f"{code}: {message}"
        super().__init__(text)
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata: dict[str, str] = dict(metadata or {})


class InvalidArgument(RiskError):
    """A malformed request (bad id, unknown enum, a request id reused with another action)."""


class IllegalMove(RiskError):
    """FAILED_PRECONDITION: the rules reject the move (or the seat is taken); `.reason` says why."""


class StaleVersion(RiskError):
    """ABORTED: the game moved on since the version the caller saw; re-read and retry."""

    @property
    def current_version(self) -> int | None:
        raw = self.metadata.get("current_version", "")
        return int(raw) if raw.isdigit() else None


class NotFound(RiskError):
    """No such game."""


class Unauthenticated(RiskError):
    """A call that needs a token had none, or one this game does not know."""


class PermissionDenied(RiskError):
    """A valid token acting outside its seat."""


class ResourceExhausted(RiskError):
    """Over a limit: size, streams, rate, or a stream subscriber that fell too far behind."""


class Unavailable(RiskError):
    """The service or its store is unreachable; retry later."""


class Unimplemented(RiskError):
    """A variant (or method) this build of the service does not serve."""


_BY_CODE: dict[str, type[RiskError]] = {
    "INVALID_ARGUMENT": InvalidArgument,
    "FAILED_PRECONDITION": IllegalMove,
    "ABORTED": StaleVersion,
    "NOT_FOUND": NotFound,
    "UNAUTHENTICATED": Unauthenticated,
    "PERMISSION_DENIED": PermissionDenied,
    "RESOURCE_EXHAUSTED": ResourceExhausted,
    "UNAVAILABLE": Unavailable,
    "UNIMPLEMENTED": Unimplemented,
}


def error_info(trailing_metadata: Iterable[tuple[str, Any]] | None) -> tuple[str, dict[str, str]]:
    """(reason, metadata) from the ErrorInfo in a status's trailing metadata, or ("", {})."""
    for key, value in trailing_metadata or ():
        if key != DETAILS_KEY or not isinstance(value, bytes):
            continue
        try:
            status = status_pb2.Status.FromString(value)
        except DecodeError:
            return "", {}
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                return info.reason, dict(info.metadata)
    return "", {}


def make_error(
    code: str, reason: str = "", message: str = "", metadata: Mapping[str, str] | None = None
) -> RiskError:
    """The error subclass for a status name (RiskError itself for codes without one)."""
    return _BY_CODE.get(code, RiskError)(code, reason, message, metadata)


def from_rpc_error(exc: grpc.aio.AioRpcError) -> RiskError:
    """The typed error for a failed grpc.aio call."""
    code: str = exc.code().name
    details: str | None = exc.details()
    reason, metadata = error_info(exc.trailing_metadata())
    return make_error(code, reason, details or "", metadata)


def from_status(data: bytes) -> RiskError:
    """The typed error for a serialised google.rpc.Status (a session's refused action): the
    same class, reason and metadata as the unary call's failure would give."""
    status = status_pb2.Status.FromString(data)
    code = next((c.name for c in grpc.StatusCode if c.value[0] == status.code), "UNKNOWN")
    reason, metadata = error_info(((DETAILS_KEY, data),))
    return make_error(code, reason, status.message, metadata)
