"""What every call goes through whichever transport carries it: the caller's bearer token,
admission (rate limits by verified token else address, creations per address, open streams
per connection and per caller), the client-facing error for an exception, and the call's one
log line.

The gRPC interceptor (server.interceptor) and the HTTP port (server.http) each read these
from their own wire (metadata or headers, a gRPC peer or an ASGI client address) and hand
them here, so a request refused, limited or logged on one is refused, limited and logged the
same way on the other. Nothing here imports grpc.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import structlog
from google.rpc import error_details_pb2

from risk_rules.engine import IllegalAction
from risk_rules.wire import VariantNotServed, WireError
from risk_service.errors import Code, ServiceError, ServiceReason
from risk_service.operations.replay import REPLAY_BUDGET
from risk_service.server.limits import (
    RateLimiter,
    StreamCounter,
    VerifiedTokens,
    caller_key,
    peer_host,
    token_digest,
)
from risk_service.server.metrics import Metrics
from risk_service.store.unreachable import store_unavailable
from risk_service.verified import VERIFIED

log = structlog.get_logger("rpc")

DOMAIN = "risk.v1"
CREATIONS = frozenset({"/risk.v1.RiskService/CreateGame", "/risk.v1.RiskService/CreateCampaign",
                       "/risk.v1.RiskService/CreateRound"})
_BEARER = "bearer "


def classify(exc: BaseException) -> ServiceError | None:
    """The client-facing error for `exc`, or None when it is the service's own fault."""
    if isinstance(exc, ServiceError):
        return exc
    if isinstance(exc, IllegalAction):
        return ServiceError(Code.FAILED_PRECONDITION, exc.reason, exc.message)
    if isinstance(exc, VariantNotServed):
        return ServiceError(Code.UNIMPLEMENTED, ServiceReason.VARIANT_NOT_AVAILABLE, str(exc))
    if isinstance(exc, WireError):
        return ServiceError(Code.INVALID_ARGUMENT, ServiceReason.MALFORMED_REQUEST, str(exc))
    if store_unavailable(exc):
        return ServiceError(Code.UNAVAILABLE, ServiceReason.STORE_UNAVAILABLE,
                            "the game store is unreachable or busy; retry")
    if isinstance(exc, NotImplementedError):
        # a method of the contract whose servicer is still the generated default
        return ServiceError(Code.UNIMPLEMENTED, ServiceReason.METHOD_NOT_AVAILABLE,
                            "this build does not serve this method yet")
    return None


def error_info(error: ServiceError) -> error_details_pb2.ErrorInfo:
    """The `google.rpc.ErrorInfo` detail every refusal carries, on every transport."""
    return error_details_pb2.ErrorInfo(
        reason=error.reason, domain=DOMAIN, metadata={"message": error.message, **error.metadata}
    )


def single_authorization(metadata: Iterable[tuple[str, str | bytes]]) -> str | None:
    """The one `authorization` value of a call's metadata, None without one. Two values are
    refused: the rate limit and the credential check must never read different ones."""
    found: str | None = None
    for key, value in metadata:
        if key == "authorization":
            if found is not None:
                raise ServiceError(Code.UNAUTHENTICATED, ServiceReason.BAD_CREDENTIALS,
                                   "send one authorization value, not several")
            found = value.decode() if isinstance(value, bytes) else value
    return found


def bearer_token(authorization: str | None) -> str | None:
    """The token of an `authorization: Bearer <token>` value; None when there is none."""
    if authorization is None:
        return None
    if not authorization.lower().startswith(_BEARER) or not authorization[len(_BEARER):].strip():
        raise ServiceError(
            Code.UNAUTHENTICATED, ServiceReason.BAD_CREDENTIALS,
            "authorization must be 'Bearer <token>'",
        )
    return authorization[len(_BEARER):].strip()


def request_fields(request: Any) -> dict[str, str]:
    """The fields of a request that its log line names (never a token)."""
    out = {}
    for name in ("game_id", "request_id"):
        value = getattr(request, name, "")
        if value:
            out[name] = str(value)[:128]
    return out


class Admission:
    """The process's limits, one set shared by every transport: a caller spends the same
    bucket over gRPC and HTTP. `peer` is in gRPC's form ("ipv4:1.2.3.4:5678"): its address
    is the caller until a token is verified, the whole of it is the connection."""

    def __init__(self, *, rate: RateLimiter | None = None, creation: RateLimiter | None = None,
                 streams: StreamCounter | None = None, replay: RateLimiter | None = None
                 ) -> None:
        self.rate = rate or RateLimiter(0, 1)
        # replay steps per caller (GetGame's at_version): a replay costs up to thousands of
        # times a plain read, so requests a second alone do not bound it
        self.replay = replay or RateLimiter(0, 1)
        # creations per address, whatever token they carry: each game or campaign is stored
        # for days, so their rate is bounded apart from (and below) other calls'
        self.creation = creation or RateLimiter(0, 1)
        self.streams = streams or StreamCounter(0)
        self.verified = VerifiedTokens()

    def charge_replay(self, authorization: str | None, peer: str, steps: int) -> None:
        """Spend `steps` of the caller's replay budget (raises RESOURCE_EXHAUSTED /
        RATE_LIMITED over it). The caller is decided now, not at admission: a token the call
        itself proved a credential already counts as its own caller."""
        self.replay.admit(caller_key(token_digest(authorization), peer, self.verified), steps)

    def admit(self, method: str, authorization: str | None, peer: str) -> None:
        """Rate-limit the caller (by verified token, else by address); raises
        RESOURCE_EXHAUSTED. Health checks and reflection are never limited."""
        if self.replay.rate > 0 and method.startswith("/risk."):
            # what the call replays is charged to its caller when it knows the cost
            REPLAY_BUDGET.set(functools.partial(self.charge_replay, authorization, peer))
            VERIFIED.set(self.verified.add)
        if method in CREATIONS and self.creation.rate > 0:
            self.creation.admit("a:" + peer_host(peer))
        if not method.startswith("/risk.") or (self.rate.rate <= 0
                                               and not self.streams.per_caller):
            return
        if self.rate.rate > 0:
            self.rate.admit(caller_key(token_digest(authorization), peer, self.verified))
        # this call's accepted token becomes a caller of its own (its bucket, its streams)
        VERIFIED.set(self.verified.add)

    def enter_stream(self, authorization: str | None, peer: str) -> str:
        """Count a stream opening against its connection and its caller (raises
        RESOURCE_EXHAUSTED / TOO_MANY_STREAMS over either); the caller key its
        `leave_stream` takes, so a token verified while the stream is open moves nothing."""
        caller = caller_key(token_digest(authorization), peer, self.verified)
        self.streams.enter(peer, caller)
        return caller

    def leave_stream(self, peer: str, caller: str) -> None:
        self.streams.leave(peer, caller)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a call ended: its code as logged, and what the client is told when the failure
    is the client's doing (None: a success, a cancellation, or the service's own fault,
    which is answered INTERNAL without details)."""

    code: str
    error: ServiceError | None = None


OK = Outcome("OK")
CANCELLED = Outcome("CANCELLED")
INTERNAL = Outcome("INTERNAL")


def conclude(method: str, fields: Mapping[str, str], started: float,
             exc: BaseException | None, metrics: Metrics | None, *,
             ended: str | None = None, **extra: str) -> Outcome:
    """Write the call's one log line, count it, and say how it ended. `ended`: the code the
    transport itself ended the call with, before it was the service's (CANCELLED when the
    client went away, DEADLINE_EXCEEDED); `extra` names what only one transport knows (the
    HTTP port's protocol)."""
    duration = time.perf_counter() - started
    ms = round(duration * 1e3, 3)
    if ended is not None:
        outcome = CANCELLED if ended == CANCELLED.code else Outcome(ended)
        log.info("rpc", method=method, code=outcome.code, duration_ms=ms, **fields, **extra)
    elif exc is None:
        outcome = OK
        # probes call health every few seconds; their successes are not worth a line
        quiet = method.startswith("/grpc.health.")
        (log.debug if quiet else log.info)("rpc", method=method, code="OK", duration_ms=ms,
                                           **fields, **extra)
    else:
        if store_unavailable(exc) and metrics is not None:
            metrics.redis_error("rpc")
        error = classify(exc)
        if error is None:
            outcome = INTERNAL
            log.error("rpc", method=method, code=outcome.code, duration_ms=ms, exc_info=exc,
                      **fields, **extra)
        else:
            outcome = Outcome(error.code.value, error)
            log.info("rpc", method=method, code=outcome.code, reason=error.reason,
                     duration_ms=ms, **fields, **extra)
    if metrics is not None:
        metrics.observe_rpc(method, outcome.code, duration)
    return outcome


class SessionCalls:
    """What each action on a session goes through, as the unary call it stands for would: the
    caller's rate limit, the one log line (with game and request id) and its metric, and the
    refusal's rich status. `status` puts an error in the transport's form (a serialised
    google.rpc.Status); `authorization` and `peer` are the session call's."""

    def __init__(self, admission: Admission, metrics: Metrics | None,
                 status: Callable[[ServiceError], bytes], *, authorization: str | None,
                 peer: str, prefix: str) -> None:
        self.admission = admission
        self.metrics = metrics
        self.status = status
        self.authorization = authorization
        self.peer = peer
        self.prefix = prefix  # the session method's name: each action logs as `<it>/<action>`

    def admit(self, method: str) -> None:
        self.admission.admit(f"{self.prefix}/{method}", self.authorization, self.peer)

    def conclude(self, method: str, fields: Mapping[str, str], started: float,
                 exc: BaseException | None) -> bytes | None:
        outcome = conclude(f"{self.prefix}/{method}", fields, started, exc, self.metrics)
        return None if outcome.error is None else self.status(outcome.error)
