"""The gRPC transport of the route table: RiskService is served by one generic handler built
from server.routes (`RouteHandlers`), and the process's other services (health, reflection) by
their libraries' handlers, wrapped by `RpcInterceptor` in the same links.

For each call this module reads the `Caller` off gRPC's call (its `authorization` metadata,
its peer, and on request whether the TLS handshake verified a client certificate), passes it
through server.calls' chain (admission, the credentials, the one log line, which error the
client is told) and sets gRPC's status with the ErrorInfo. The line carries the method, the
game id and the client's request id (when the request has them), the status code and the
duration; never a token. Exceptions that are the client's doing become their documented
status; anything else is logged with its traceback and answered INTERNAL without details.
Bytes that do not parse as the method's request message are the client's doing too: they
reach the call as `Undecodable` and are answered INVALID_ARGUMENT (gRPC itself would answer
UNKNOWN, and log nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from google.protobuf.message import DecodeError

from risk_service.errors import malformed
from risk_service.operations import Caller
from risk_service.server.calls import Bound, Chain, request_fields, single_authorization
from risk_service.server.routes import Kind, Route, foreign
from risk_service.server.status import rich_status, status_of

# how long a session refused as it opens may take to send its first message (_opening)
REFUSAL_WAIT_S = 1.0

Behaviour = Callable[[Any, grpc.aio.ServicerContext], Any]
# what a wrapped call runs once admitted: the route's operation, or a library's handler
Invoke = Callable[[Any, grpc.aio.ServicerContext, Caller], Any]


class Undecodable:
    """A request whose bytes are not a message of the method's request type."""

    __slots__ = ("error",)

    def __init__(self, error: str) -> None:
        self.error = error


def _tolerant(deserializer: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    """`deserializer`, returning `Undecodable` instead of raising on bytes that do not parse."""
    if deserializer is None:
        return None

    def deserialize(data: bytes) -> Any:
        try:
            return deserializer(data)
        except DecodeError as exc:
            return Undecodable(str(exc))

    return deserialize


def _passthrough(serializer: Callable[[Any], bytes] | None) -> Callable[[Any], bytes] | None:
    """`serializer`, letting already-serialised messages (bytes) through untouched: a stream
    may yield one encoding shared by many subscribers, and SubmitAction answers with the bytes
    it stored with the request id."""
    if serializer is None:
        return None

    def serialize(message: Any) -> bytes:
        return message if isinstance(message, bytes) else serializer(message)

    return serialize


def _check_decoded(request: Any) -> None:
    if isinstance(request, Undecodable):
        raise malformed(f"the request is not a valid message of its type: {request.error[:200]}")


def has_client_cert(context: grpc.aio.ServicerContext) -> bool:
    """Whether the peer presented a client certificate that the TLS handshake verified.

    Only a listener that requires client certificates asks for one (see server.app), and a
    certificate reaches the auth context only once it has been verified against the CA."""
    auth = context.auth_context() or {}
    return bool(auth.get("x509_pem_cert") or auth.get("x509_common_name"))


class RouteHandlers(grpc.GenericRpcHandler):  # type: ignore[misc]  # grpc ships no stubs
    """RiskService for grpc.aio: one method handler per route of the table."""

    def __init__(self, routes: dict[str, Route], chain: Chain) -> None:
        self.service_name = next(iter(routes)).split("/")[1] if routes else ""
        self.handlers = {path: _handler(route, chain, _operation(route, chain),
                                        route.request.FromString,
                                        route.response.SerializeToString)
                         for path, route in routes.items()}

    def service(self, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler | None:
        return self.handlers.get(details.method)


def _operation(route: Route, chain: Chain) -> Invoke:
    """The route's operation as a gRPC behaviour calls it (a session with its actions'
    links, each refused action's status in gRPC's rich form)."""
    if route.kind is Kind.BIDI:
        def session(requests: Any, _context: grpc.aio.ServicerContext, caller: Caller) -> Any:
            return route.call(requests, caller, chain.session_calls(route, caller, rich_status))
        return session
    return lambda request, _context, caller: route.call(request, caller)


class RpcInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]  # grpc ships no stubs
    """The process's other services (health, reflection) through the same links: each call's
    line and metric, its status, and its stream counted; RiskService's own calls come
    wrapped already (`RouteHandlers`) and pass untouched."""

    def __init__(self, chain: Chain, routes: RouteHandlers | None = None) -> None:
        self.chain = chain
        # wrapped handlers by method: a method's handler never changes, so it is wrapped once
        self._wrapped: dict[str, grpc.RpcMethodHandler] = dict(
            routes.handlers if routes is not None else {})

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        method: str = details.method
        wrapped = self._wrapped.get(method)
        if wrapped is not None:
            return wrapped
        handler = await continuation(details)
        if handler is None:
            return handler
        kind = (Kind.BIDI if handler.stream_stream else Kind.SERVER_STREAM
                if handler.unary_stream else Kind.UNARY if handler.unary_unary else None)
        if kind is None:
            return handler
        behaviour = handler.stream_stream or handler.unary_stream or handler.unary_unary
        wrapped = _handler(foreign(method, kind), self.chain,
                           lambda request, context, _caller: behaviour(request, context),
                           handler.request_deserializer, handler.response_serializer)
        self._wrapped[method] = wrapped
        return wrapped


def _handler(route: Route, chain: Chain, invoke: Invoke,
             deserializer: Callable[[bytes], Any] | None,
             serializer: Callable[[Any], bytes] | None) -> grpc.RpcMethodHandler:
    make = (grpc.stream_stream_rpc_method_handler if route.kind is Kind.BIDI
            else grpc.unary_stream_rpc_method_handler if route.kind is Kind.SERVER_STREAM
            else grpc.unary_unary_rpc_method_handler)
    wrap = _unary if route.kind is Kind.UNARY else _streaming
    return make(wrap(route, chain, invoke), request_deserializer=_tolerant(deserializer),
                response_serializer=_passthrough(serializer))


def _caller(chain: Chain, context: grpc.aio.ServicerContext) -> Caller:
    """The call's caller as gRPC carries it (two `authorization` values are refused)."""
    return chain.caller(single_authorization(context.invocation_metadata() or ()),
                        context.peer(), client_cert=functools.partial(has_client_cert, context))


def _finish(chain: Chain, bound: Bound, *, exc: BaseException | None,
            context: grpc.aio.ServicerContext) -> None:
    """Log the call and, for a failure, set the call's status.

    A failure is answered by setting the status, not by `context.abort`: abort raises an
    exception that the call's state keeps, and its traceback holds this frame, the context
    and so the call state itself: a reference cycle per refused call, which keeps the
    request (and gRPC's buffers for it) alive until the cycle collector runs. Under a flood
    of refused requests the memory held grows with every refusal (bench/abuse.py flood;
    figures in bench/RESULTS.md, "Abuse")."""
    outcome = chain.conclude(bound, exc)
    if exc is None:
        return
    if outcome.error is None:
        context.set_code(grpc.StatusCode.INTERNAL)
        context.set_details("internal error")
        return
    status, message, trailing = status_of(outcome.error)
    context.set_code(status)
    context.set_details(message)
    context.set_trailing_metadata(trailing)


class _Ending:
    """How a call's links end on gRPC, for unary calls and streams alike: its line and, for a
    failure that is not gRPC's own, its status (`_finish`; the failure is then answered, not
    raised: `failed`); a cancelled call's line; an aborted one (a library's handler) left to
    gRPC."""

    __slots__ = ("bound", "chain", "context", "failed")

    def __init__(self, chain: Chain, bound: Bound, context: grpc.aio.ServicerContext) -> None:
        self.chain = chain
        self.bound = bound
        self.context = context
        self.failed = False

    def __enter__(self) -> _Ending:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 _traceback: Any) -> bool:
        if kind is None:
            _finish(self.chain, self.bound, exc=None, context=self.context)
        elif issubclass(kind, (asyncio.CancelledError, GeneratorExit)):
            self.chain.conclude(self.bound, None, ended="CANCELLED")
        elif issubclass(kind, grpc.aio.AbortError):
            self.bound.release()
        elif issubclass(kind, Exception):
            self.failed = True
            _finish(self.chain, self.bound, exc=exc, context=self.context)
            return True  # the status is set: the call ends with it
        return False


def _unary(route: Route, chain: Chain, invoke: Invoke) -> Behaviour:
    method = route.path

    async def wrapped(request: Any, context: grpc.aio.ServicerContext) -> Any:
        # the call's own task: its fields bound here reach every line logged while it runs
        with _Ending(chain, chain.bind(method, request_fields(request)), context) as ending:
            caller = _caller(chain, context)
            chain.enter(route, caller)
            _check_decoded(request)
            reply = await invoke(request, context, caller)
        return None if ending.failed else reply  # failed: gRPC sends no message with it

    return wrapped


def _streaming(route: Route, chain: Chain, invoke: Invoke) -> Behaviour:
    """A server stream, or a session (the one bidirectional call): admitted and counted as a
    stream when it opens, logged when it ends. A stream's one request must decode; each
    message a session reads must too (a session that sends bytes of another type is
    malformed and ends INVALID_ARGUMENT). The actions on a session are admitted and logged
    one by one by the session itself (calls.SessionCalls)."""
    method = route.path
    bidi = route.kind is Kind.BIDI

    async def wrapped(incoming: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        bound = chain.bind(method, {} if bidi else request_fields(incoming))
        caller: Caller | None = None
        stream: str | None = None
        with _Ending(chain, bound, context):
            try:
                try:
                    caller = _caller(chain, context)
                    stream = chain.enter(route, caller)
                except Exception:
                    if bidi:
                        await _opening(incoming)
                    raise
                if bidi:
                    incoming = _decoded(incoming)
                else:
                    _check_decoded(incoming)
                async for reply in invoke(incoming, context, caller):
                    yield reply
            finally:
                if caller is not None:
                    chain.leave(caller, stream)

    return wrapped


async def _opening(requests: AsyncIterator[Any]) -> None:
    """Take a refused session's first message (waiting at most REFUSAL_WAIT_S) before the
    refusal ends the call. A call the server ends before the client's opening write has gone
    out fails that write in the client's gRPC library with INTERNAL ("Failed execute_batch"),
    and the client never sees the refusal's status (RESOURCE_EXHAUSTED, TOO_MANY_STREAMS or
    RATE_LIMITED): seen on a loaded machine in 4 of 12 runs of
    test_sessions_count_against_the_open_streams_per_connection."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(REFUSAL_WAIT_S):
            await anext(aiter(requests), None)


async def _decoded(requests: AsyncIterator[Any]) -> AsyncIterator[Any]:
    async for request in requests:
        _check_decoded(request)
        yield request
