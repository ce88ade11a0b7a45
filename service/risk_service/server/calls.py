"""What every call goes through whichever transport carries it, once: the chain of links
around a route's operation (server.routes). A transport reads a `Caller` off its wire (the
`authorization` value, the peer; on gRPC whether a client certificate was verified) and
hands it to `Chain.enter` (admission: the rate limit by verified token else address, the
creation limit per address, open streams per connection and per caller; then the bearer
token, for a route that reads credentials), runs the operation with it, and ends the call
with `Chain.leave` and `conclude` (the one log line, the metric, and which error the client
is told, as a `ServiceError` with the ErrorInfo every transport carries). The transport then
only writes that answer in its form: a gRPC status, a Connect error, a WebSocket close.

A call's log fields (its method, game id and request id) are bound once, as it begins, where
it runs (`Chain.bind`, a `Bound`, in logs.py's `CALL_FIELDS`): every line logged there while
the call runs carries them, ours and the libraries' records alike (redis-py's, asyncio's,
grpc's, uvicorn's: logs.py merges them into both), and the call's one line takes them from
there.

The `Caller` carries `Admission` as its ledger, so what an operation learns (this token is a
credential; this replay costs so many steps) reaches the limits without a context variable.
Nothing here imports grpc.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Mapping
from contextvars import Token
from dataclasses import dataclass
from typing import Any

import structlog
from google.rpc import error_details_pb2

from risk_rules.engine import IllegalAction
from risk_rules.wire import VariantNotServed, WireError
from risk_service.errors import Code, ServiceError, ServiceReason
from risk_service.logs import CALL_FIELDS
from risk_service.operations.identity import Caller
from risk_service.server.limits import (
    RateLimiter,
    StreamCounter,
    VerifiedTokens,
    caller_key,
    peer_host,
)
from risk_service.server.metrics import Metrics
from risk_service.server.routes import Route
from risk_service.store.unreachable import store_unavailable

log = structlog.get_logger("rpc")

DOMAIN = "risk.v1"
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


def grpc_peer(address: tuple[str, int] | list[Any] | None) -> str:
    """A socket's peer address (an ASGI client, a transport's peername) in gRPC's peer form,
    so one caller is one caller on every port (server.limits keys on it)."""
    if not address:
        return "unknown"
    host, port = address[0], address[1]
    return f"ipv6:[{host}]:{port}" if ":" in host else f"ipv4:{host}:{port}"


def request_fields(request: Any) -> dict[str, str]:
    """The fields of a request that its log line names (never a token)."""
    out = {}
    for name in ("game_id", "request_id"):
        value = getattr(request, name, "")
        if value:
            out[name] = str(value)[:128]
    if "game_id" in out:
        # one string per game id, not one per call: a stream keeps its fields while open (a
        # request id is the call's own: nothing to share)
        out["game_id"] = sys.intern(out["game_id"])
    return out


class Bound:
    """One call's log fields, bound once in the context the call runs in (a gRPC call's task,
    an HTTP request's, a WebSocket call's) from its start until its line is written
    (`Chain.conclude`): logs.py's `CALL_FIELDS` holds them, and every line logged there
    meanwhile carries them (why one variable: logs.py). `add` puts in fields learnt later
    (Connect decodes the request after admission, a WebSocket reads it after the upgrade);
    tasks the call starts see them too, the mapping being the same. A line written where they
    are not bound (a handed-off WebSocket stream ends in the feed's callback) names them
    itself."""

    __slots__ = ("fields", "method", "started", "token")

    def __init__(self, method: str, fields: Mapping[str, str],
                 started: float | None = None) -> None:
        self.method = method
        self.started = time.perf_counter() if started is None else started
        self.fields = {"method": method, **fields}
        self.token: Token[Mapping[str, Any] | None] | None = CALL_FIELDS.set(self.fields)

    def add(self, fields: Mapping[str, str]) -> None:
        """Fields the call learnt after it began (its request's game and request ids)."""
        self.fields.update(fields)

    def here(self) -> bool:
        """Whether the fields are bound where this runs."""
        return self.token is not None and CALL_FIELDS.get() is self.fields

    def release(self) -> None:
        """Unbind the fields where they were bound (elsewhere there is nothing to undo)."""
        token, self.token = self.token, None
        if token is not None:
            try:  # noqa: SIM105 - on every call: contextlib.suppress costs 0.3 µs more
                CALL_FIELDS.reset(token)
            except ValueError:  # another context's: it ends with the task that holds it
                pass


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
        self.verified_tokens = VerifiedTokens()
        # whether any limit tells callers apart (else nothing is recorded about them): asked
        # twice per call, and the limits are fixed once built
        self.tracks_callers = (self.rate.rate > 0 or self.streams.per_caller > 0
                               or self.replay.rate > 0)

    def verified(self, digest: bytes) -> None:
        """A token that matched a credential (Ledger): a caller of its own from now on."""
        if self.tracks_callers:
            self.verified_tokens.add(digest)

    def charge_replay(self, caller: Caller, steps: int) -> None:
        """Spend `steps` of the caller's replay budget (raises RESOURCE_EXHAUSTED /
        RATE_LIMITED over it). The caller is decided now, not at admission: a token the call
        itself proved a credential already counts as its own caller."""
        self.replay.admit(caller_key(caller.digest, caller.peer, self.verified_tokens), steps)

    def admit(self, caller: Caller, *, creation: bool = False) -> None:
        """Rate-limit the caller (by verified token, else by address), and a creation by its
        address; raises RESOURCE_EXHAUSTED."""
        if creation and self.creation.rate > 0:
            self.creation.admit("a:" + peer_host(caller.peer))
        if self.rate.rate > 0:
            self.rate.admit(caller_key(caller.digest, caller.peer, self.verified_tokens))

    def enter_stream(self, caller: Caller) -> str:
        """Count a stream opening against its connection and its caller (raises
        RESOURCE_EXHAUSTED / TOO_MANY_STREAMS over either); the caller key its
        `leave_stream` takes, so a token verified while the stream is open moves nothing."""
        # one string per caller, not one per stream: an idle stream keeps it to its end
        key = sys.intern(caller_key(caller.digest, caller.peer, self.verified_tokens))
        self.streams.enter(caller.peer, key)
        return key

    def leave_stream(self, peer: str, key: str) -> None:
        self.streams.leave(peer, key)


class Chain:
    """The links every call of a route goes through, once, on every transport: admission and
    limits, the credentials, and at its end the open stream left, the one log line, its metric
    and the client-facing error (`conclude`)."""

    def __init__(self, admission: Admission | None = None,
                 metrics: Metrics | None = None) -> None:
        self.admission = admission or Admission()
        self.metrics = metrics

    def caller(self, authorization: str | None, peer: str, **kwargs: Any) -> Caller:
        """A transport's caller, its ledger this process's admission (when a limit tells
        callers apart: else nothing needs telling)."""
        ledger = self.admission if self.admission.tracks_callers else None
        return Caller(authorization, peer=peer, ledger=ledger, **kwargs)

    def enter(self, route: Route, caller: Caller) -> str | None:
        """Admit the call (raises the refusal); for a stream, the caller key it is counted
        under until `leave`. Then the bearer token, for a route that reads credentials."""
        if route.limited:
            self.admission.admit(caller, creation=route.creation)
        stream = self.admission.enter_stream(caller) if route.stream else None
        if route.credentials:
            try:
                caller.token = bearer_token(caller.authorization)
            except ServiceError:
                self.leave(caller, stream)
                raise
        return stream

    def leave(self, caller: Caller, stream: str | None) -> None:
        """The call's stream is no longer open (None: it never counted as one)."""
        if stream is not None:
            self.admission.leave_stream(caller.peer, stream)

    def bind(self, method: str, fields: Mapping[str, str] | None = None, *,
             started: float | None = None) -> Bound:
        """Begin the call's line: its method and the fields known so far, bound once where
        the call runs; its duration from `started` (default: now)."""
        return Bound(method, fields or {}, started)

    def conclude(self, bound: Bound, exc: BaseException | None, *, ended: str | None = None,
                 **extra: str) -> Outcome:
        """The call's one line (its fields as bound), its metric and its outcome; then the
        fields are unbound."""
        try:
            # bound here: the line takes the fields from logs.CALL_FIELDS
            return _line(bound.method, {} if bound.here() else bound.fields, bound.started,
                         exc, self.metrics, ended=ended, extra=extra)
        finally:
            bound.release()

    def session_calls(self, route: Route, caller: Caller,
                      status: Callable[[ServiceError], bytes]) -> SessionCalls:
        """What each action of a session goes through (its own admission and line)."""
        return SessionCalls(self.admission, self.metrics, status, caller=caller,
                            prefix=route.path)


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
    return _line(method, {"method": method, **fields}, started, exc, metrics, ended=ended,
                 extra=extra)


def _line(method: str, fields: Mapping[str, Any], started: float, exc: BaseException | None,
          metrics: Metrics | None, *, ended: str | None, extra: Mapping[str, str]) -> Outcome:
    """`conclude`, its `fields` naming the method already (a `Bound`'s do)."""
    duration = time.perf_counter() - started
    ms = round(duration * 1e3, 3)
    if ended is not None:
        outcome = CANCELLED if ended == CANCELLED.code else Outcome(ended)
        log.info("rpc", **fields, code=outcome.code, duration_ms=ms, **extra)
    elif exc is None:
        outcome = OK
        # probes call health every few seconds; their successes are not worth a line
        quiet = method.startswith("/grpc.health.")
        (log.debug if quiet else log.info)("rpc", **fields, code="OK", duration_ms=ms,
                                           **extra)
    else:
        if store_unavailable(exc) and metrics is not None:
            metrics.redis_error("rpc")
        error = classify(exc)
        if error is None:
            outcome = INTERNAL
            log.error("rpc", **fields, code=outcome.code, duration_ms=ms, exc_info=exc,
                      **extra)
        else:
            outcome = Outcome(error.code.value, error)
            log.info("rpc", **fields, code=outcome.code, reason=error.reason,
                     duration_ms=ms, **extra)
    if metrics is not None:
        metrics.observe_rpc(method, outcome.code, duration)
    return outcome


class SessionCalls:
    """What each action on a session goes through, as the unary call it stands for would: the
    caller's rate limit, the one log line (with game and request id) and its metric, and the
    refusal's rich status. `status` puts an error in the transport's form (a serialised
    google.rpc.Status); `caller` is the session call's."""

    def __init__(self, admission: Admission, metrics: Metrics | None,
                 status: Callable[[ServiceError], bytes], *, caller: Caller,
                 prefix: str) -> None:
        self.admission = admission
        self.metrics = metrics
        self.status = status
        self.caller = caller
        self.prefix = prefix  # the session method's name: each action logs as `<it>/<action>`

    def admit(self, method: str) -> None:
        self.admission.admit(self.caller)

    def conclude(self, method: str, fields: Mapping[str, str], started: float,
                 exc: BaseException | None) -> bytes | None:
        outcome = conclude(f"{self.prefix}/{method}", fields, started, exc, self.metrics)
        return None if outcome.error is None else self.status(outcome.error)
