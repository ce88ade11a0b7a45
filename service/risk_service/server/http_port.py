"""The HTTP port: the same RiskService over Connect (binary and JSON), gRPC-Web and plain
JSON POSTs, served by this process on its own event loop beside gRPC.

connectrpc's ASGI application speaks the protocols; uvicorn serves it on a socket of this
loop (started and stopped with the gRPC server, never a thread or process of its own),
through its public API: `Server.serve(sockets=...)` in a task, `should_exit` for the drain,
its signal handlers left out (`_Server`: the process's own SIGTERM handling stays in charge).
uvicorn over Hypercorn, HTTP/1.1 only, by measurement (bench/http_servers.py, bench/RESULTS.md
"HTTP on a well-kept server"; docs/reliability.md "The HTTP port"): Hypercorn's HTTP/1.1 took
1.21x uvicorn's server CPU per Connect call, and the WebSocket stays a raw protocol handed the
transport at the upgrade (its idle spectator's memory), which no Hypercorn API allows. HTTP/2
was not measured to an end (the bench's HTTP/2 client failed against Hypercorn) and stays
open; the web app holds one StreamEvents per page, its moves on a WebSocket. Its
endpoints are built from the route table (server.routes; `endpoints` here), as the gRPC
port's handlers are; `CallGate` reads the caller off the headers and is the HTTP side of
server.calls' chain: the same admission, the same one log line per call, the same refusals
with the same `google.rpc.ErrorInfo`, in Connect's codes and its error JSON (or gRPC-Web's
trailers).
`Cors` answers browsers' preflights for the configured origins.

Over HTTP/1.1 a connection carries one call at a time, so the streams-per-connection limit
holds by itself; it is applied all the same, keyed by the connection as gRPC's is.

The connections get the gRPC port's protections (docs/reliability.md, "The HTTP port"), from
uvicorn's public settings where it has them: its httptools protocol (llhttp, C: h11, uvicorn's
pure-Python parser, cost 1.4-1.5x the server CPU per Connect call, bench/RESULTS.md "The HTTP
port on httptools"), its keep-alive timeout (RISK_HTTP_IDLE_TIMEOUT_MS) and graceful shutdown.
What uvicorn lacks is written here, small. `ConnectionGuard`, between the transport and
uvicorn's protocol, answers 431 and closes a connection whose request head (its line and
headers, up to the blank line) passes RISK_HTTP_MAX_HEADER_BYTES, counted past the read it
began in (httptools bounds nothing); reads pipelined requests with backpressure: once a whole
request waits behind one whose response is unsent, reading pauses until that response is
written, so a client that never reads holds its last read's requests and the transport's
high-water mark (uvicorn's httptools protocol resumes reading after every response, however
many requests are still queued); closes a connection that has not delivered a whole request within
RISK_HTTP_REQUEST_TIMEOUT_MS of being ready for one (a new connection that sends nothing,
half-sent headers, a half-sent body, a stream's body that never ends) or whose unsent
responses have not drained within it; and refuses connections past RISK_HTTP_MAX_CONNECTIONS.
A unary call's reply is written to the socket in one piece (`_WholeReply`, standing in for
the transport of the response cycle uvicorn makes for it), not in the two or three writes
uvicorn makes of its messages: bench/RESULTS.md, "Server CPU per call per transport: one
write per reply".
`RequestGuard` refuses a request of more than RISK_HTTP_MAX_HEADERS fields (431); when a
request has been read whole and when its response is done, the guard hears from httptools'
and uvicorn's own callbacks. The connections are
counted in a `Tally` of the port's own (the guards, and the WebSockets, which count
themselves), not read off uvicorn's state.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import re
import resource
import socket
import time
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Coroutine,
    Generator,
    Mapping,
    MutableMapping,
)
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, cast

import structlog
import uvicorn
from connectrpc._server_async import AsyncioLoop
from connectrpc.code import Code as ConnectCode
from connectrpc.compat import google_protobuf_json_codec
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import json_format
from google.protobuf.message import Message
from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import is_ssl

from risk_service.errors import Code, ServiceError, ServiceReason, malformed
from risk_service.operations import Caller
from risk_service.server import calls
from risk_service.server.connect_errors import connect_error, end_of_stream, error_body
from risk_service.server.plain_streams import PlainStreams, header
from risk_service.server.routes import SERVICE, Kind, Route
from risk_service.server.status import rich_status
from risk_service.server.web_app import EXPORT_KEYS_PATH, WebApp
from risk_service.server.websocket import WebSockets

log = structlog.get_logger("rpc")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# the ASGI scope's key of the connection a request came on (its `ConnectionGuard`), set by
# `_HttpTools` and read by `Cors`
CONNECTION = "risk.connection"
# how connectrpc's errors about a request's envelopes begin (server side: the request's)
_PROTOCOL_ERROR = "protocol error:"


# ---- replies that are already serialised ----------------------------------------------------


class Encoded:
    """A reply the operations serialised already (SubmitAction's stored reply, a stream's
    encoding shared by its subscribers): the binary codec sends its bytes as they are, the
    JSON codec decodes them once to write JSON."""

    __slots__ = ("data", "message_type")

    def __init__(self, data: bytes, message_type: type[Message]) -> None:
        self.data = data
        self.message_type = message_type


class BinaryCodec:
    """Protobuf binary (`application/proto`, `application/grpc-web`), passing `Encoded`
    replies through untouched."""

    def name(self) -> str:
        return "proto"

    def encode(self, message: Message | Encoded) -> bytes:
        return message.data if isinstance(message, Encoded) else message.SerializeToString()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        return message_class.FromString(bytes(data))


_JSON_OBJECT = re.compile(rb"[ \t\r\n]*{")  # how a JSON object begins


class JsonCodec:
    """The canonical protobuf JSON mapping (`application/json`): lowerCamelCase names, 64-bit
    integers as strings (so a seed survives JavaScript), compact. Unknown fields are ignored,
    as they are in binary.

    Fields without presence are written even at their default (`"seat": 0`, `"bankMs": []`):
    a JSON reader cannot tell an omitted field from one its schema lacks, so "seat 0" would
    read as "no seat" to every client that does not carry the schema's defaults (the web app's
    event log did). Still canonical proto3 JSON, which any parser reads back; fields with
    presence (`optional`, message fields, the members of a oneof) still appear only when set."""

    def __init__(self) -> None:
        self._decoder = google_protobuf_json_codec()

    def name(self) -> str:
        return "json"

    def encode(self, message: Message | Encoded) -> bytes:
        if isinstance(message, Encoded):
            message = message.message_type.FromString(message.data)
        return json_format.MessageToJson(
            message, indent=None, always_print_fields_with_no_presence=True).encode()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        # protobuf's parser reads any JSON it can iterate over: `[]` or `"abc"` would be an
        # empty request. connectrpc answers this error invalid_argument (MALFORMED_REQUEST).
        if _JSON_OBJECT.match(data) is None:
            raise ValueError("a JSON request is an object: {...}")
        decoded: Message = self._decoder.decode(data, message_class)
        return decoded


# ---- the routes as connectrpc's endpoints ---------------------------------------------------

# How long a browser or proxy may keep a variant's description fetched with GET: it changes
# only with a deployment that changes the rules, and a client that sees a game with another
# rules_version than the cached description's asks again.
_DESCRIPTION_MAX_AGE_S = 3600

_STREAM_TYPES = {Kind.UNARY: StreamType.UNARY, Kind.SERVER_STREAM: StreamType.SERVER_STREAM,
                 Kind.BIDI: StreamType.BIDI_STREAM}


def cacheable(ctx: RequestContext[Any, Any]) -> None:
    """Let a GET of a public, caller-independent reply be cached (POSTs never are)."""
    if ctx.http_method == "GET":
        ctx.response_headers["cache-control"] = f"public, max-age={_DESCRIPTION_MAX_AGE_S}"


def _caller(request: Any) -> Caller:
    """The call's caller, read off its headers by `CallGate` as the call began; the decoded
    request's game and request ids go on the call's line (connectrpc decodes it after the
    gate)."""
    call = _CALL.get()
    if call is None or call.caller is None:
        return Caller()
    if call.bound is not None:
        call.bound.add(calls.request_fields(request))
    return call.caller


def _unary(route: Route) -> Callable[[Any, RequestContext[Any, Any]], Awaitable[Any]]:
    async def call(request: Any, ctx: RequestContext[Any, Any], /) -> Any:
        reply = await route.call(request, _caller(request))
        if route.cacheable:
            cacheable(ctx)
        # a serialised reply (SubmitAction's stored bytes) goes out as it is (`Encoded`)
        return Encoded(reply, route.response) if route.encoded else reply
    return call


def _server_stream(route: Route) -> Callable[[Any, RequestContext[Any, Any]], AsyncIterator[Any]]:
    async def call(request: Any, ctx: RequestContext[Any, Any], /) -> AsyncIterator[Any]:
        async for reply in route.call(request, _caller(request)):
            yield Encoded(reply, route.response) if route.encoded else reply
    return call


def _bidi(route: Route) -> Callable[[Any, RequestContext[Any, Any]], AsyncIterator[Any]]:
    async def call(requests: Any, ctx: RequestContext[Any, Any], /) -> AsyncIterator[Any]:
        # a bidirectional stream needs HTTP/2 both ways, which Connect over HTTP/1.1,
        # gRPC-Web and browsers cannot give: on this port a session is a WebSocket
        raise ServiceError(Code.UNIMPLEMENTED, ServiceReason.METHOD_NOT_AVAILABLE,
                           f"{route.name} is served on the gRPC port, and on this port as a "
                           "WebSocket (GET with Upgrade: websocket); over plain HTTP use "
                           "SubmitAction and StreamEvents")
        yield  # an async generator, as connectrpc expects of a streaming method
    return call


def endpoints(routes: Mapping[str, Route]) -> dict[str, Any]:
    """connectrpc's endpoints for the route table (what protoc-gen-connectrpc generates per
    service, built here from the same descriptor so a new route needs no code here)."""
    out: dict[str, Any] = {}
    for path, route in routes.items():
        info = MethodInfo(
            name=route.name, service_name=path.split("/")[1], input=route.request,
            output=route.response, stream_type=_STREAM_TYPES[route.kind],
            idempotency_level=(IdempotencyLevel.UNKNOWN if route.side_effects
                               else IdempotencyLevel.NO_SIDE_EFFECTS))
        if route.kind is Kind.UNARY:
            out[path] = Endpoint.unary(method=info, function=_unary(route))
        elif route.kind is Kind.SERVER_STREAM:
            out[path] = Endpoint.server_stream(method=info, function=_server_stream(route))
        else:
            out[path] = Endpoint.bidi_stream(method=info, function=_bidi(route))
    return out


class RouteApplication(ConnectASGIApplication[Mapping[str, Route]]):
    """connectrpc's ASGI application serving the route table.

    A call is cut short when its client goes, as grpc.aio cancels a call whose client left:
    its deadline is brought to now, and the call ends CANCELED. connectrpc watches for that
    with a task per call (a Connect unary call, and each call it runs as a stream: gRPC-Web's
    unary calls, every server stream), which reads the request's `receive()` until the
    client disconnects and is cancelled and awaited when the handler returns: 98k
    instructions, 7.4% of a Connect proto SubmitAction (bench/RESULTS.md, "connectrpc's
    disconnect watch"), and its public API has no way to leave it out. On this port the
    connection says itself when it is lost (`ConnectionGuard.connection_lost`), so a call's
    watch is a registration with its connection (`_DisconnectWatch`), no task.

    This overrides connectrpc's private `_call_unary` and `_call_stream` to hand them a loop
    whose `watch_for_disconnect` is that registration (connectrpc is pinned in
    constraints.txt, and both are called with their arguments by position). If connectrpc
    renamed or reshaped them, `test_http_disconnect` would fail: a call whose client left
    would wait for Redis instead of ending CANCELED."""

    def __init__(self, routes: Mapping[str, Route], **options: Any) -> None:
        super().__init__(service=routes, endpoints=endpoints, **options)

    @property
    def path(self) -> str:
        return "/" + SERVICE.full_name

    # each returns the library's own coroutine: no frame of this layer to resume through

    def _call_unary(self, endpoint: Any, http_method: str, headers: Any,  # noqa: PLR0917
                    codec: Any, query_params: Any, receive: Any, loop: Any, scope: Any,
                    ctx: Any) -> Coroutine[Any, Any, Any]:
        return super()._call_unary(endpoint, http_method, headers, codec, query_params,
                                   receive, _connection_loop(loop), scope, ctx)

    def _call_stream(self, endpoint: Any, stream: Any, req_compression: Any,  # noqa: PLR0917
                     metadata_run: Any, receive: Any, send: Any, loop: Any, scope: Any,
                     ctx: Any) -> Coroutine[Any, Any, None]:
        return super()._call_stream(endpoint, stream, req_compression, metadata_run, receive,
                                    send, _connection_loop(loop), scope, ctx)


def _connection_loop(loop: Any) -> Any:
    """connectrpc's loop operations for the running call: its connection's, whose watch for a
    disconnect is the connection's own (`_ConnectionCalls`), when it came on this port."""
    call = _CALL.get()
    return loop if call is None or call.connection is None else _CONNECTION_CALLS


class _DisconnectWatch:
    """A call's watch for its client's going: registered with its connection while the
    handler runs (a stream's: while it streams); the connection's loss cuts the call's
    deadline short (`cut`), as connectrpc's own watch does once `receive()` says the client
    disconnected."""

    __slots__ = ("guard", "receive", "scope")

    def __init__(self, guard: ConnectionGuard, receive: Any, scope: Any) -> None:
        self.guard = guard
        self.receive = receive  # connectrpc's request receiver: `disconnected` names the end
        self.scope = scope  # the call's deadline (an asyncio.Timeout, entered)

    async def __aenter__(self) -> None:
        guard = self.guard
        if guard.lost:  # gone before the handler began
            self.cut()
        else:
            guard.watch = self

    async def __aexit__(self, *exc_info: object) -> bool:
        if self.guard.watch is self:
            self.guard.watch = None
        return False

    def cut(self) -> None:
        self.receive.disconnected = True  # what connectrpc reads to answer CANCELED
        scope = self.scope
        if not scope.expired():
            scope.reschedule(asyncio.get_running_loop().time())


class _ConnectionCalls(AsyncioLoop):
    """connectrpc's asyncio operations for a call that came on this port, its watch for a
    disconnect told by the call's connection (`RouteApplication`). One for all calls: the
    call's connection is the running call's (`_CALL`), so no connection's guard holds a
    reference back to itself."""

    def watch_for_disconnect(self, receive: Any, scope: Any, *,  # type: ignore[override]
                             cancel: bool = False) -> _DisconnectWatch:
        call = _CALL.get()
        assert call is not None and call.connection is not None  # see `_connection_loop`
        return _DisconnectWatch(call.connection, receive, scope)


_CONNECTION_CALLS = _ConnectionCalls()


# ---- admission, the log line, errors ---------------------------------------------------------


@dataclass(slots=True)
class Call:
    """One HTTP request as its log line sees it; `Cors` opens it, `CallGate` fills it."""

    path: str
    peer: str
    started: float = field(default_factory=time.perf_counter)
    protocol: str = "connect"
    caller: Caller | None = None  # read off the headers once the call begins
    connection: ConnectionGuard | None = None  # the connection it came on (`_HttpTools`)
    stream: str | None = None  # a stream's caller key (Chain.enter), once counted
    logged: bool = False
    bound: calls.Bound | None = None  # its log fields, bound once the call begins
    error: ServiceError | None = None  # what the client is told (its error JSON: `Cors`)


_CALL: ContextVar[Call | None] = ContextVar("http_call", default=None)


def protocol_of(content_type: str) -> str:
    """What the log line calls the request's protocol."""
    if content_type.startswith("application/grpc-web"):
        return "grpc-web"
    if content_type.startswith("application/connect+"):
        return "connect"
    return "json" if content_type.startswith("application/json") else "connect"


def _library_error(exc: BaseException) -> BaseException | str:
    """An error connectrpc raised itself, before the call reached the service, in the
    service's vocabulary: bytes that are not a message (or not valid JSON, base64, gzip) are
    MALFORMED_REQUEST, a body over the size limit TOO_LARGE, like every other refusal. Other
    codes it ends a call with (CANCELLED when the client left, DEADLINE_EXCEEDED) come back
    as the code to log.

    connectrpc reads an envelope flagged compressed on a call that named no compression as
    `internal` ("protocol error: sent compressed message without compression support", as
    connect-go does); it is the request's framing that is wrong, so it is MALFORMED_REQUEST
    too, never INTERNAL for a client's mistake."""
    if not isinstance(exc, ConnectError) or exc.details:
        return exc
    if exc.code is ConnectCode.INVALID_ARGUMENT or (
            exc.code is ConnectCode.INTERNAL and exc.message.startswith(_PROTOCOL_ERROR)):
        return malformed(f"the request is not a valid message of its type: {exc.message[:200]}")
    if exc.code is ConnectCode.RESOURCE_EXHAUSTED:  # connectrpc's only one: read_max_bytes
        return ServiceError(Code.RESOURCE_EXHAUSTED, ServiceReason.TOO_LARGE, exc.message)
    return "CANCELLED" if exc.code is ConnectCode.CANCELED else exc.code.name


class CallGate:
    """connectrpc's metadata interceptor: the caller read off the headers and the chain's
    admission before the request body is read, then the call's one line and its error in
    the service's vocabulary at its end."""

    def __init__(self, routes: Mapping[str, Route], chain: calls.Chain) -> None:
        self.routes = routes
        self.chain = chain

    async def on_start(self, ctx: RequestContext[Any, Any]) -> Call:
        path = f"/{ctx.method.service_name}/{ctx.method.name}"
        call = _CALL.get() or Call(path, "unknown")
        call.protocol = protocol_of(ctx.request_headers.get("content-type", ""))
        call.bound = self.chain.bind(path, started=call.started)
        try:
            call.caller = self.chain.caller(ctx.request_headers.get("authorization"), call.peer)
            call.stream = self.chain.enter(self.routes[path], call.caller)
        except Exception as exc:
            # an on_start that raises gets no on_end: the refusal is logged and answered here
            raise self._answer(call, exc) from None
        return call

    async def on_end(self, call: Call, ctx: RequestContext[Any, Any],
                     error: Exception | None, /) -> None:
        if call.caller is not None:
            self.chain.leave(call.caller, call.stream)
        if error is None:
            self._conclude(call, None)
            return
        raise self._answer(call, error) from None

    def _answer(self, call: Call, exc: BaseException) -> BaseException:
        mapped = _library_error(exc)
        if isinstance(mapped, str):
            self._conclude(call, None, ended=mapped)
            return exc
        outcome = self._conclude(call, mapped)
        if outcome.error is not None:
            call.error = outcome.error
            return connect_error(outcome.error)
        return ConnectError(ConnectCode.INTERNAL, "internal error")

    def _conclude(self, call: Call, exc: BaseException | None,
                  ended: str | None = None) -> calls.Outcome:
        call.logged = True
        assert call.bound is not None  # bound as the call began (`on_start`)
        return self.chain.conclude(call.bound, exc, ended=ended, protocol=call.protocol)


# ---- CORS, and requests that never became calls ----------------------------------------------

# what Connect and gRPC-Web clients in a browser send and must read (and a plain stream's
# resume: Last-Event-ID, server.plain_streams)
_ALLOW_HEADERS = ("Content-Type, Connect-Protocol-Version, Connect-Timeout-Ms, "
                  "Connect-Accept-Encoding, Connect-Content-Encoding, Grpc-Timeout, "
                  "X-Grpc-Web, X-User-Agent, Authorization, Last-Event-ID")
_EXPOSE_HEADERS = ("Grpc-Status, Grpc-Message, Grpc-Status-Details-Bin, Content-Encoding, "
                   "Connect-Content-Encoding")
_PREFLIGHT_MAX_AGE_S = "7200"


def _native_grpc(content_type: str) -> bool:
    """Whether `content_type` is native gRPC's (application/grpc[+codec]): it needs HTTP/2
    and trailers, which this port (uvicorn, HTTP/1.1) has not; the gRPC port serves it.
    connectrpc would take it and fail for want of trailers: grpc-status 2 (unknown)."""
    return content_type == "application/grpc" or content_type.startswith("application/grpc+")


async def _unsupported_media_type(send: Send) -> None:
    """What connectrpc answers a content type it does not speak: a bare 415."""
    await send({"type": "http.response.start", "status": 415,
                "headers": [(b"accept-post", b"application/json, application/proto"),
                            (b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


def _utf8_headers(headers: Any) -> Any:
    """The request's headers with any byte that is not UTF-8 replaced (U+FFFD). connectrpc
    decodes every header as UTF-8 before a call begins and answered a stray byte (a Latin-1
    token, an `X-` header a proxy wrote) with HTTP 500 / unknown; with it replaced, the
    header means what its text says: such a token is no game's (BAD_CREDENTIALS), such a
    content type is not one the port speaks (415), any other header is ignored."""
    for key, value in headers:  # the usual case: ASCII (no copy made to find it out)
        if not (key.isascii() and value.isascii()):
            break
    else:
        return headers
    try:
        for key, value in headers:
            key.decode(), value.decode()
    except UnicodeDecodeError:
        return [(key.decode(errors="replace").encode(), value.decode(errors="replace").encode())
                for key, value in headers]
    return headers  # the usual case: as they came


def _connect_stream(headers: Any) -> bool:
    """Whether a reply's headers are a Connect stream's (application/connect+json|proto)."""
    for key, value in headers:
        if key == b"content-type":
            return bool(value.startswith(b"application/connect+"))
    return False


class Cors:
    """The port's outer ASGI layer: CORS for `origins` (a set of exact origins, or "*"), and
    a log line for a request connectrpc refused before it was a call (no such method, a
    content type it does not speak)."""

    def __init__(self, app: ASGIApp, origins: frozenset[str]) -> None:
        self.app = app
        self.origins = origins

    def allowed(self, origin: str | None) -> bool:
        return origin is not None and ("*" in self.origins or origin in self.origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        scope["headers"] = headers = _utf8_headers(scope.get("headers", []))
        origin = content_type = None
        for key, value in headers:  # the two this layer reads, in one pass
            if key == b"origin" and origin is None:
                origin = value.decode("latin-1")
            elif key == b"content-type" and content_type is None:
                content_type = value.decode("latin-1")
        if scope["method"] == "OPTIONS" and header(scope, b"access-control-request-method"):
            await self._preflight(origin, send)
            return
        connection = scope.get(CONNECTION)
        call = Call(scope["path"], connection.peer if connection is not None
                    else calls.grpc_peer(scope.get("client")), connection=connection)
        _CALL.set(call)
        status = 0
        cors = self.allowed(origin)

        held: list[MutableMapping[str, Any]] = []  # an error reply, until its body is whole
        started: Any = ()  # the reply's headers (a Connect stream's ends with its error)

        async def respond(message: MutableMapping[str, Any]) -> None:
            nonlocal status, started
            if message["type"] == "http.response.start":
                status = message["status"]
                started = message.get("headers", ())
                if cors:
                    message["headers"] = [
                        *message.get("headers", ()),
                        (b"access-control-allow-origin", str(origin).encode("latin-1")),
                        (b"access-control-expose-headers", _EXPOSE_HEADERS.encode()),
                        (b"vary", b"Origin"),
                    ]
                if status >= 400 and (b"content-type", b"application/json") in message.get(
                        "headers", ()):
                    held.append(message)
                    return
            elif held:
                held.append(message)
                if message.get("more_body", False):
                    return
                start, *parts = held
                held.clear()
                body = b"".join(part.get("body", b"") for part in parts)
                if call.error is not None:  # the refusal's JSON, its ErrorInfo readable too
                    body = error_body(call.error)
                start["headers"] = [*((k, v) for k, v in start["headers"]
                                      if k != b"content-length"),
                                    (b"content-length", str(len(body)).encode())]
                await send(start)
                await send({"type": "http.response.body", "body": body, "more_body": False})
                return
            elif (call.error is not None and message["type"] == "http.response.body"
                  and not message.get("more_body", False) and _connect_stream(started)):
                # the stream's end-of-stream message: its error with the readable detail
                message["body"] = end_of_stream(message.get("body", b""), call.error)
            await send(message)

        try:
            if _native_grpc(content_type or ""):
                await _unsupported_media_type(respond)
            else:
                await self.app(scope, receive, respond)
        finally:
            # a task started during the call copies its context, and with it this record:
            # it must not hold the connection past the call
            call.connection = None
        if not call.logged:
            log.info("rpc", method=call.path, code="UNIMPLEMENTED" if status == 404
                     else "INVALID_ARGUMENT", http_status=status,
                     duration_ms=round((time.perf_counter() - call.started) * 1e3, 3),
                     protocol="http")

    async def _preflight(self, origin: str | None, send: Send) -> None:
        if not self.allowed(origin):
            await send({"type": "http.response.start", "status": 403,
                        "headers": [(b"content-length", b"0"), (b"vary", b"Origin")]})
            await send({"type": "http.response.body", "body": b""})
            return
        headers = [
            (b"access-control-allow-origin", str(origin).encode("latin-1")),
            (b"access-control-allow-methods", b"POST, GET"),
            (b"access-control-allow-headers", _ALLOW_HEADERS.encode()),
            (b"access-control-max-age", _PREFLIGHT_MAX_AGE_S.encode()),
            (b"vary", b"Origin"),
            (b"content-length", b"0"),
        ]
        await send({"type": "http.response.start", "status": 204, "headers": headers})
        await send({"type": "http.response.body", "body": b""})


def cors_origins(setting: str) -> frozenset[str]:
    """RISK_HTTP_CORS_ORIGINS: comma-separated origins (`https://play.example`), or `*`."""
    return frozenset(part.strip().rstrip("/") for part in setting.split(",") if part.strip())


# ---- the connections' limits -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HttpLimits:
    """What one connection of the port may cost (RISK_HTTP_*; docs/configuration.md)."""

    request_timeout_s: float = 10.0
    idle_timeout_s: float = 5.0
    max_header_bytes: int = 16 * 1024
    max_headers: int = 100
    max_connections: int = 0  # 0: half the process's open-file limit
    stream_heartbeat_s: float = 15.0  # a plain stream's keepalive (server.plain_streams)

    def connection_cap(self) -> int:
        """Connections open at once past which a new one is closed: the setting, else half
        the open-file limit, so that the gRPC port, Redis and the logs keep descriptors."""
        if self.max_connections > 0:
            return self.max_connections
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        return max(1, soft // 2) if soft != resource.RLIM_INFINITY else 1 << 20


_TOO_MANY_CONNECTIONS = (b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n"
                         b"Content-Length: 0\r\n\r\n")
_HEAD_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n"
                   b"Content-Length: 0\r\n\r\n")


class _Sockets(set[Any]):
    """The port's open WebSockets: each adds itself on connection_made and discards itself on
    connection_lost (server.websocket's protocol contract); `emptied` is set when none is
    left, for the drain to wait on."""

    def __init__(self) -> None:
        super().__init__()
        self.emptied = asyncio.Event()
        self.emptied.set()

    def add(self, item: Any) -> None:
        super().add(item)
        self.emptied.clear()

    def discard(self, item: Any) -> None:
        super().discard(item)
        if not self:
            self.emptied.set()


class Tally:
    """The port's open connections, counted here rather than read off uvicorn's state: the
    HTTP/1.1 connections by their guards, the upgraded ones by their WebSocket (which the
    port's `ws` factory hands this tally as its `server_state`: see `HttpPort.start`)."""

    __slots__ = ("connections", "guards")

    def __init__(self) -> None:
        self.guards: set[ConnectionGuard] = set()
        self.connections = _Sockets()  # the name server.websocket's protocol adds itself to

    def __len__(self) -> int:
        return len(self.guards) + len(self.connections)


class _WholeReply:
    """A unary call's response, written to the socket in one piece.

    uvicorn writes a response's head when its start is sent and each body message as it
    comes: a Connect reply in two writes, a gRPC-Web reply in three (its message, then, a
    loop turn later, its trailers). Each is a system call, and on TCP_NODELAY a segment the
    client wakes for (over loopback the sender's system call also runs the receiving side's
    TCP work). A unary reply is of no use to its client before it is whole, so its pieces
    are held here and written together once the response is complete (uvicorn's response
    callback, `_HttpTools.on_response_complete`) or its connection closes.

    It stands in for the transport as the response's cycle (uvicorn's
    `RequestResponseCycle`) sees it: the cycle writes, closes and asks `is_closing`, and
    the protocol keeps the socket's transport for everything else. Streams are never held
    (their messages go out as they come); nor is a request that asked for `100 Continue`,
    which the cycle writes before the response begins.

    This reaches past uvicorn's public API, as `_HttpTools` does with its callbacks: it
    reads the protocol's `cycle` and the cycle's `scope` and `waiting_for_100_continue`, and
    sets the cycle's `transport` (uvicorn is pinned in constraints.txt). If uvicorn renamed
    them, the HTTP tests would fail on the reads; a swap that no longer took effect would
    fail `test_a_unary_reply_comes_whole_and_a_100_continue_before_it`."""

    __slots__ = ("parts", "transport")

    def __init__(self, transport: asyncio.Transport) -> None:
        self.transport = transport
        self.parts: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.parts.append(data)

    def is_closing(self) -> bool:
        return self.transport.is_closing()

    def close(self) -> None:
        self.release()
        self.transport.close()

    def release(self) -> None:
        """Write what is held, as one piece."""
        parts = self.parts
        if parts:
            self.transport.write(parts[0] if len(parts) == 1 else b"".join(parts))
            parts.clear()


def _address(info: Any) -> tuple[str, int] | None:
    """A TCP address as uvicorn's scope holds it (host, port), or None."""
    if isinstance(info, list | tuple) and len(info) >= 2:
        return (str(info[0]), int(info[1]))
    return None


class _HttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol telling its guard what the parser saw: a head begun, a
    head complete, a request read whole, a response written (httptools' parser callbacks and
    uvicorn's response callback, each passed on first). The callbacks run on every request:
    uvicorn's are called by name, without `super()`'s lookup.

    A request to a unary route gets its response written whole (`_WholeReply`, in the place
    of the transport of the cycle uvicorn made for it). Responses complete in the order
    their requests came (HTTP/1.1), so the connection's held replies are a queue, one entry
    per cycle (None: written as it comes), taken from as each response completes."""

    def __init__(self, guard: ConnectionGuard, **state: Any) -> None:
        super().__init__(**state)
        self.guard = guard

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """uvicorn's, with both addresses read off the transport (`peername`, `sockname`).
        uvicorn reads them through `get_extra_info("socket")`, and uvloop keeps the socket
        object it makes for that, and both addresses it then answered, for the connection's
        life: 364 bytes of every connection, a WebSocket spectator's too, never read again
        (bench/RESULTS.md, "An idle WebSocket spectator's memory"). What uvicorn does with
        them is unchanged: its scope's `client` and `server`. (Its TRACE line is left out:
        the port logs its own.)"""
        self.connections.add(self)
        self.transport = transport
        self.flow = FlowControl(transport)
        self.server = _address(transport.get_extra_info("sockname"))
        self.client = _address(transport.get_extra_info("peername"))
        self.scheme = "https" if is_ssl(transport) else "http"

    def on_message_begin(self) -> None:
        _on_message_begin(self)
        guard = self.guard
        guard.head_open = True
        guard.head_bytes = 0

    def on_headers_complete(self) -> None:
        guard = self.guard
        guard.head_open = False
        before = self.cycle
        _on_headers_complete(self)
        cycle = self.cycle
        if cycle is not before:  # a request uvicorn answers (an upgrade makes no cycle)
            held = None
            # the call's connection: its peer, its disconnect (Cors)
            cycle.scope[CONNECTION] = guard  # type: ignore[literal-required]
            if cycle.scope["path"] in guard.whole_paths and not cycle.waiting_for_100_continue:
                held = _WholeReply(self.transport)
                cycle.transport = held  # type: ignore[assignment]  # as the cycle uses it
            guard.replies.append(held)
        guard.requested()

    def on_message_complete(self) -> None:
        _on_message_complete(self)
        guard = self.guard
        guard.whole()
        # the request is whole: what the client sends next is its next request (which the
        # guard holds back while this one is unanswered) or its leaving, which the call's
        # disconnect watch must hear (`_DisconnectWatch`). uvicorn pauses reading under a body
        # over its high-water mark and resumes only in `receive()`, which connectrpc's own
        # watch kept calling after the body and the port's watch does not
        flow = self.flow
        if flow.read_paused and not guard.paused:
            flow.resume_reading()

    def on_response_complete(self) -> None:
        replies = self.guard.replies
        if replies and (held := replies.popleft()) is not None:
            held.release()
        _on_response_complete(self)
        self.guard.answered()


_on_message_begin = HttpToolsProtocol.on_message_begin
_on_headers_complete = HttpToolsProtocol.on_headers_complete
_on_message_complete = HttpToolsProtocol.on_message_complete
_on_response_complete = HttpToolsProtocol.on_response_complete


class ConnectionGuard(asyncio.Protocol):
    """uvicorn's httptools protocol for one connection, with the bounds and deadlines uvicorn
    lacks.

    A request's head may take RISK_HTTP_MAX_HEADER_BYTES past the read it began in (one read
    is at most 256 KiB): a head still open past that is answered 431 and the connection
    closed, read no further. Pipelined requests: while a whole request waits behind an
    unanswered one, reading is paused, resumed once only one is left (uvicorn's protocol
    resumes reading after every response, queueing the next read's requests however many
    are still waiting).

    A deadline runs whenever the connection owes the server something: from its start or the
    end of a response until the next request has been read whole (`expect_request`; `whole`,
    from httptools' message-complete callback: a request pipelined behind one unanswered and
    read whole already is not owed once that one is answered), and while its unsent responses
    are over the transport's high-water mark. A connection past it is closed (and logged), as
    the gRPC port closes one that does not finish its handshake or answer its pings. The
    request deadline is a time (`due`), checked by one timer per connection that re-arms
    itself for the time then due: a request moves a number instead of making and cancelling
    an asyncio timer (bench/RESULTS.md, "Server CPU per call per transport, closing the
    gap"). The guard stands between the transport and uvicorn's protocol, forwarding every
    asyncio.Protocol event; an upgrade to WebSocket hands the transport to server.websocket,
    which keeps its own deadline and counts itself in the
    tally, and the guard lets go of it.

    uvicorn builds it as it builds any protocol class given as its `http` setting (with
    keywords: its config, its server state, its app state), and it builds uvicorn's httptools
    protocol (`_HttpTools`) with them as they came."""

    __slots__ = ("deadline", "due", "early", "head_bytes", "head_open", "inner", "limits",
                 "lost", "paused", "peer", "replies", "stalled", "tally", "transport",
                 "unanswered", "waiting", "watch", "whole_paths")

    def __init__(self, limits: HttpLimits, tally: Tally, cap: int, whole_paths: frozenset[str],
                 *, config: uvicorn.Config, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.limits = limits
        self.tally = tally
        self.whole_paths = whole_paths  # the unary routes' paths: replies written whole
        # each cycle's held reply (or None), in the order the responses complete
        self.replies: collections.deque[_WholeReply | None] = collections.deque()
        self.head_open = False  # between a request's first byte and its blank line
        self.head_bytes = 0  # the open head's bytes past the read it began in
        self.unanswered = 0  # requests whose head is read and whose response is not written
        self.waiting = 0  # requests read whole whose response is not written
        self.early = 0  # requests answered before they were read whole (their rest discarded)
        self.paused = False  # reading paused here (pipelined requests waiting)
        self.inner: _HttpTools | None = None
        if len(tally) < cap:
            self.inner = _HttpTools(self, config=config, server_state=server_state,
                                    app_state=app_state, _loop=_loop)
        self.transport: asyncio.Transport | None = None
        self.deadline: asyncio.TimerHandle | None = None  # checks `due` when it fires
        self.due: float | None = None  # loop time by which the owed request must be whole
        self.stalled: asyncio.TimerHandle | None = None
        self.peer = "unknown"
        self.watch: _DisconnectWatch | None = None  # the call running, if any
        self.lost = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        if self.inner is None:  # past RISK_HTTP_MAX_CONNECTIONS: refused before any request
            self.transport.write(_TOO_MANY_CONNECTIONS)
            self.transport.close()
            return
        self.peer = calls.grpc_peer(transport.get_extra_info("peername"))
        self.tally.guards.add(self)
        self.inner.connection_made(self.transport)
        self.expect_request()

    def data_received(self, data: bytes) -> None:
        inner, transport = self.inner, self.transport
        if inner is None or transport is None:
            return
        continued = self.head_open  # a head begun in an earlier read: all of this one is head
        inner.data_received(data)
        if transport.get_protocol() is not self:  # upgraded: the WebSocket's now
            # an upgraded connection's protocol never hears connection_lost, where uvicorn
            # breaks the cycle between it and its parser: broken here, nothing waits for the
            # collector (test_websocket's upgrade test)
            inner.parser = None  # type: ignore[assignment]  # as uvicorn does
            self._let_go()
        elif continued and self.head_open:
            self.head_bytes += len(data)
            if self.head_bytes > self.limits.max_header_bytes:
                self._head_too_large(transport)

    def eof_received(self) -> None:
        if self.inner is not None:
            self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        inner = self.inner
        self._let_go()
        self.lost = True
        if (watch := self.watch) is not None:  # a call running: cut short
            self.watch = None
            watch.cut()
        if inner is not None:
            inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()
            if self.stalled is None:
                self.stalled = asyncio.get_running_loop().call_later(
                    self.limits.request_timeout_s, self._late, "unread_response")

    def resume_writing(self) -> None:
        if self.stalled is not None:
            self.stalled.cancel()
            self.stalled = None
        if self.inner is not None:
            self.inner.resume_writing()

    def requested(self) -> None:
        """A request's head has been read: one waiting behind an unanswered one stops the
        reading until its turn."""
        self.unanswered += 1
        if self.unanswered > 1 and self.transport is not None:
            self.paused = True
            self.transport.pause_reading()

    def whole(self) -> None:
        """A request has been read whole: the connection owes nothing now (unless it is the
        rest of one answered already: what follows it is owed still)."""
        if self.early:
            self.early -= 1
            return
        self.waiting += 1
        self.received()

    def answered(self) -> None:
        """A response has been written whole: the next request is owed, unless it has been
        read whole already (pipelined). Reading resumes once at most one request is left, and
        stays paused otherwise (uvicorn's protocol has just resumed it)."""
        self.unanswered = max(0, self.unanswered - 1)
        if self.waiting:
            self.waiting -= 1
        else:
            self.early += 1  # answered before its end came: that end pays nothing
        transport, inner = self.transport, self.inner
        if transport is None or inner is None or transport.is_closing():
            return
        if not self.waiting:
            self.expect_request()
        if self.unanswered > 1:
            self.paused = True
            transport.pause_reading()
        elif self.paused:
            self.paused = False
            if not inner.flow.read_paused:  # uvicorn's own pause (a body it holds) stands
                transport.resume_reading()

    def expect_request(self) -> None:
        """The connection owes a request: it has until the deadline to deliver it whole."""
        if self.inner is None:
            self.due = None
            return
        loop = asyncio.get_running_loop()
        self.due = due = loop.time() + self.limits.request_timeout_s
        if self.deadline is None:
            self.deadline = loop.call_at(due, self._check_due)

    def received(self) -> None:
        """The request has been read whole (or the connection is gone): nothing is owed (the
        timer, when it fires, finds nothing due)."""
        self.due = None

    def _check_due(self) -> None:
        """The deadline's timer: the connection is late if the owed request is still owed at
        the time it was due by; a request owed since then has its own time."""
        self.deadline = None
        due = self.due
        if due is None:
            return
        loop = asyncio.get_running_loop()
        if loop.time() < due:
            self.deadline = loop.call_at(due, self._check_due)
            return
        self.due = None
        self._late("request_timeout")

    def _head_too_large(self, transport: asyncio.Transport) -> None:
        log.info("rpc", code="INVALID_ARGUMENT", http_status=431, protocol="http",
                 peer=self.peer, message=f"a request head over {self.limits.max_header_bytes} "
                 "bytes (RISK_HTTP_MAX_HEADER_BYTES)")
        transport.write(_HEAD_TOO_LARGE)
        transport.close()  # uvicorn's protocol still hears of the loss (connection_lost)
        self.received()

    def _let_go(self) -> None:
        self.received()
        if self.deadline is not None:  # the connection is done with: its timer too
            self.deadline.cancel()
            self.deadline = None
        self.resume_writing()
        self.inner = None
        self.tally.guards.discard(self)

    def _late(self, why: str) -> None:
        self.deadline = self.stalled = None
        if self.transport is None or self.transport.is_closing():
            return
        log.info("http_connection_closed", reason=why, peer=self.peer,
                 timeout_ms=round(self.limits.request_timeout_s * 1e3))
        if why == "unread_response":
            self.transport.abort()  # what it has not read would never drain
        else:
            self.transport.close()


class RequestGuard:
    """The port's outermost ASGI layer: refuses a head of too many fields (431). (When a
    request has been read whole and when its response is written, the connection's guard
    hears from the parser's and uvicorn's callbacks: `_HttpTools`.)"""

    def __init__(self, app: ASGIApp, max_headers: int) -> None:
        self.app = app
        self.max_headers = max_headers

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        """The wrapped app's own coroutine for a request within the limit: no frame of this
        layer for every resumption of the call to pass through (uvicorn is told the
        interface, ASGI 3, rather than guessing it from a coroutine function)."""
        if scope["type"] == "http" and len(scope.get("headers", ())) > self.max_headers:
            return self._refuse(scope, send)
        return self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        await send({"type": "http.response.start", "status": 431,
                    "headers": [(b"connection", b"close"), (b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})
        log.info("rpc", method=scope["path"][:200], code="INVALID_ARGUMENT",
                 http_status=431, protocol="http",
                 message=f"more than {self.max_headers} header fields (RISK_HTTP_MAX_HEADERS)")


# ---- the listener ----------------------------------------------------------------------------


def split_address(address: str) -> tuple[str, int]:
    """("host", port) of "host:port", "[v6]:port" or ":port" (every address)."""
    host, _, port = address.rpartition(":")
    try:
        return host.strip("[]") or "0.0.0.0", int(port)
    except ValueError:
        raise RuntimeError(f"RISK_HTTP_LISTEN={address!r} is not host:port") from None


class HttpPort:
    """uvicorn serving the Connect application on this event loop."""

    def __init__(self, routes: Mapping[str, Route], chain: calls.Chain, *,
                 max_message_bytes: int, origins: frozenset[str],
                 export_keys: bytes | None = None, limits: HttpLimits | None = None) -> None:
        self.limits = limits or HttpLimits()
        connect = RouteApplication(
            routes,
            interceptors=[CallGate(routes, chain)],
            read_max_bytes=max_message_bytes,
            codecs=[BinaryCodec(), JsonCodec()],
        )
        # the web app's files at `/` and `/app/` (server.web_app), the API on its paths; the
        # export signing keys' JWKS at its well-known path when exports are signed
        published = None if export_keys is None else {EXPORT_KEYS_PATH: export_keys}
        cors = Cors(connect, origins)
        # the streaming calls as NDJSON and Server-Sent Events (server.plain_streams)
        streams = PlainStreams(cors, routes, chain, heartbeat_s=self.limits.stream_heartbeat_s,
                               max_message_bytes=max_message_bytes, allowed=cors.allowed)
        self.app = RequestGuard(WebApp(streams, published=published), self.limits.max_headers)
        # an upgrade to WebSocket on a streaming method's path (server.websocket)
        self.websockets = WebSockets(routes, chain,
                                     max_message_bytes=max_message_bytes, origins=origins,
                                     status=rich_status,
                                     request_timeout_s=self.limits.request_timeout_s,
                                     max_headers=self.limits.max_headers)
        self.tally = Tally()
        # the unary routes' paths, whose replies are written in one piece (`_WholeReply`)
        self.whole_paths = frozenset(path for path, route in routes.items()
                                     if route.kind is Kind.UNARY)
        self.server: uvicorn.Server | None = None
        self._serving: asyncio.Task[None] | None = None
        self._grace_s = 0.0

    async def start(self, address: str, *, grace_s: float, cert_file: str = "",
                    key_file: str = "", reuse_port: bool = False) -> int:
        """Listen on `address`; returns the bound port (useful with port 0)."""
        host, port = split_address(address)
        tally, limits, whole_paths = self.tally, self.limits, self.whole_paths

        def http(**state: Any) -> asyncio.Protocol:
            return ConnectionGuard(limits, tally, limits.connection_cap(), whole_paths,
                                   **state)

        def ws(**_state: Any) -> asyncio.Protocol:
            # the upgraded connection counts itself in the tally, and the drain ends it
            return self.websockets.protocol(server_state=tally)

        config = uvicorn.Config(
            self.app, host=host, port=port, lifespan="off", log_config=None,
            interface="asgi3", log_level="warning", access_log=False, server_header=False,
            # the peer is the peer, as on the gRPC port: a forwarded-for header is a claim
            proxy_headers=False,
            timeout_graceful_shutdown=max(1, round(grace_s)),
            ssl_certfile=cert_file or None, ssl_keyfile=key_file or None,
            # httptools behind the guard, which bounds a head and pipelining (the module's
            # opening); uvicorn builds its protocol classes with keywords, so any factory
            # does for `http` and `ws`
            http=cast(type[asyncio.Protocol], http),
            # only ever handed to call_later: a fraction of a second is as good
            timeout_keep_alive=cast(int, limits.idle_timeout_s),
            ws=cast(type[asyncio.Protocol], ws),
        )
        # our own socket: uvicorn answers a port it cannot bind with sys.exit. Its protocol
        # named (TCP), not left 0: asyncio sets TCP_NODELAY only on accepted sockets whose
        # `proto` says TCP, and without it a reply written in two parts (a chunked Connect
        # reply: its head, then its last chunk) waited on Nagle for the client's delayed ACK,
        # 40 ms per call on a kept-alive connection
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if reuse_port:  # one of several workers sharing the address (workers.py)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind((host, port))
        except OSError as exc:
            sock.close()
            raise RuntimeError(f"cannot serve HTTP on {address}: {exc.strerror or exc}") from None
        sock.setblocking(False)
        bound = int(sock.getsockname()[1])
        server = _Server(config)
        serving = asyncio.create_task(server.serve(sockets=[sock]), name="http")
        # serve() reports nothing when it is listening but `started`; its setup is quick
        # (no lifespan), and a failure in it (a TLS file it cannot read) ends the task
        deadline = time.monotonic() + _START_BOUND_S
        while not server.started and not serving.done():
            if time.monotonic() > deadline:
                serving.cancel()
                sock.close()
                raise RuntimeError(f"cannot serve HTTP on {address}: not listening within "
                                   f"{_START_BOUND_S:.0f} s")
            await asyncio.sleep(0.001)
        if serving.done():
            sock.close()
            error = serving.exception()
            raise RuntimeError(f"cannot serve HTTP on {address}: {error}") from error
        self.server, self._serving, self._grace_s = server, serving, grace_s
        return bound

    async def stop(self) -> None:
        """Stop accepting, let calls in flight finish within the grace, then end them:
        uvicorn's own drain (`should_exit`) for HTTP/1.1, each WebSocket told the server is
        going away (1001) and waited for within the same grace."""
        server, serving = self.server, self._serving
        if server is None or serving is None:
            return
        server.should_exit = True
        for socket_ in list(self.tally.connections):
            socket_.shutdown()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.tally.connections.emptied.wait(),
                                   timeout=max(self._grace_s, 1.0))
        with contextlib.suppress(asyncio.CancelledError):
            await serving
        self.server = self._serving = None


# how long a start may take before it is an error (uvicorn's setup does no network I/O)
_START_BOUND_S = 10.0


class _Server(uvicorn.Server):
    """uvicorn's Server, run through its public `serve()` without its signal handlers.

    On the main thread `serve()` replaces SIGINT's and SIGTERM's handlers with its own for as
    long as it runs, then puts back those it found and raises again a signal it caught. The
    process (server.app) has its own: a SIGTERM stops both ports and Redis in order, and a
    second one during that drain must not meet the default action. uvicorn offers no setting
    for it; overriding `capture_signals` with nothing is how embedders run it (vLLM does the
    same: vllm-project/vllm#50916)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield
