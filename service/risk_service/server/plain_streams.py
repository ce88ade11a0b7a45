"""Plain HTTP streams on the HTTP port: the route table's server-streaming calls as
newline-delimited JSON (`application/x-ndjson`) and as Server-Sent Events
(`text/event-stream`), for curl, EventSource and any HTTP client without a Connect or gRPC
library (docs/api.md, "Plain HTTP streams").

A stream is asked for with a GET on its own path (`PATHS`: the game's events, a tournament's
results, the caller's player stream, the many-games stream), the request's other fields in
the query string, or with a plain JSON POST of the request to the method's Connect path
asking `Accept: application/x-ndjson` or `text/event-stream`. Either way the call is the
route's operation (server.routes) through the chain every transport goes through
(server.calls: the caller off the `Authorization` header, admission and the open-streams
bounds, the one log line); this module only reads the request off the URL and writes each
reply as a JSON line or an SSE event, so the redaction, the spectator delay and the
slow-consumer cut-off are the operation's, as on gRPC, Connect and the WebSocket.

Each reply is the response message in the canonical protobuf JSON mapping the port's JSON
calls use (`JsonCodec`'s settings). An SSE event's `id:` is the stream's position after it
(the last seq sent; the many-games stream's resume token), so EventSource's own reconnect
resumes where it left off: a `Last-Event-ID` header stands for the request's `after_seq`
(`resume_token`). Every `heartbeat_s` without a reply a keepalive goes out (an empty line in
NDJSON, an SSE comment), so proxies and clients see a live connection.

A refusal before anything was sent is an HTTP status with Connect's error JSON (the same
ErrorInfo as every transport: connect_errors.error_body); the first reply is waited for up to
`_OPENING_S` for that (an idle stream's headers go out after it). A stream that ends with an
error ends with one more line, `{"error": <that JSON>}`, or an SSE event `error`. A plain
JSON POST to a streaming method that asks for neither form gets 415 with a JSON body saying
how to ask (connectrpc answered it with an empty 415).

Written here rather than taken from a library: what it does is the route table's own
translation (a URL to a request message, a reply to a line or an event) plus SSE's framing,
a few lines; sse-starlette and the like bring a framework (Starlette) the port does not run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

import structlog
from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from risk_service.errors import Code, ServiceError, ServiceReason, malformed
from risk_service.server import calls
from risk_service.server.connect_errors import error_body
from risk_service.server.routes import SERVICE, Kind, Route

log = structlog.get_logger("rpc")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

NDJSON = "application/x-ndjson"
SSE = "text/event-stream"
# how long the first reply is waited for before the headers go out without it: a refusal
# found while the stream opens (no such game, a bad token) is then an HTTP status
_OPENING_S = 0.5
# the reconnection time an SSE stream asks EventSource for (its default is a few seconds)
_RETRY_MS = 1000

# Each plain stream's path and its route; a `{field}` segment fills that request field.
PATHS: tuple[tuple[str, str], ...] = (
    ("/v1/games/{game_id}/events", "StreamEvents"),
    ("/v1/tournaments/{tournament}/results", "StreamResults"),
    ("/v1/me/events", "StreamPlayerEvents"),
    ("/v1/broadcasts/games", "StreamGames"),
)


def _pattern(template: str) -> re.Pattern[str]:
    return re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)))

# HTTP statuses of gRPC codes, as Connect maps them (connect-go, connectrpc)
HTTP_STATUS = {
    Code.INVALID_ARGUMENT: 400, Code.FAILED_PRECONDITION: 400, Code.ABORTED: 409,
    Code.NOT_FOUND: 404, Code.UNAUTHENTICATED: 401, Code.PERMISSION_DENIED: 403,
    Code.RESOURCE_EXHAUSTED: 429, Code.UNIMPLEMENTED: 501, Code.UNAVAILABLE: 503,
}


def position(message: Message) -> str:
    """A reply's stream position, as its SSE `id:` (the resume point): the many-games
    stream's resume token, else the seq of the (last) event or fact it carries."""
    token = getattr(message, "resume_token", "")
    if token:
        return str(token)
    for name in ("event", "fact"):
        if name in message.DESCRIPTOR.fields_by_name and message.HasField(name):
            return str(getattr(message, name).seq)
    events = getattr(message, "events", None)
    return str(events[-1].seq) if events else ""


def _resume_field(request: Message) -> Any:
    fields = request.DESCRIPTOR.fields_by_name
    return fields.get("resume_token") or fields.get("after_seq")


def _scalar(field: Any, value: str) -> Any:
    """A query value as the JSON protobuf's parser takes it for `field` (a descriptor)."""
    if field.type == FieldDescriptor.TYPE_BOOL:
        if value.lower() not in ("true", "false", "1", "0"):
            raise malformed(f"{field.name} is true or false, not {value!r}")
        return value.lower() in ("true", "1")
    return value  # numbers as strings: the JSON mapping reads them (64-bit ones are strings)


def request_of(route: Route, params: Mapping[str, str], query: list[tuple[str, str]],
               last_event_id: str | None) -> Message:
    """The route's request from the path's fields, the query string (a field by its proto or
    JSON name; a repeated one by repeating it; a field of a message field as `outer.inner`)
    and a Last-Event-ID, which stands for the resume field."""
    request = route.request()
    document: dict[str, Any] = {}

    def put(name: str, value: str) -> None:
        descriptor = request.DESCRIPTOR
        target = document
        *outer, last = name.split(".")
        for part in outer:
            field = descriptor.fields_by_name.get(part) or next(
                (f for f in descriptor.fields if f.json_name == part), None)
            if field is None or field.message_type is None:
                raise malformed(f"{route.name} has no message field {part!r}")
            target = target.setdefault(field.name, {})
            descriptor = field.message_type
        field = descriptor.fields_by_name.get(last) or next(
            (f for f in descriptor.fields if f.json_name == last), None)
        if field is None:
            raise malformed(f"{route.name}'s request has no field {name!r}")
        if field.is_repeated:
            target.setdefault(field.name, []).append(_scalar(field, value))
        else:
            target[field.name] = _scalar(field, value)

    for name, value in [*params.items(), *query]:
        put(name, value)
    if last_event_id:
        field = _resume_field(request)
        if field is not None:
            put(field.name, last_event_id.strip())
    try:
        json_format.ParseDict(document, request)
    except json_format.ParseError as exc:
        raise malformed(f"the request is not a valid {route.name} request: {exc}") from None
    return request


def to_json(message: Message) -> str:
    """One reply as one line of JSON: the port's JSON form (server.http_port.JsonCodec)."""
    return json_format.MessageToJson(message, indent=None,
                                     always_print_fields_with_no_presence=True)


def wanted_form(accept: str | None) -> str | None:
    """SSE or NDJSON as the Accept header asks (None: it asks for neither)."""
    accept = (accept or "").lower()
    if SSE in accept:
        return SSE
    if NDJSON in accept or "application/jsonl" in accept:
        return NDJSON
    return None


def header(scope: Scope, name: bytes) -> str | None:
    """The request's first header `name` (lower case, as ASGI gives names), or None."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


@dataclass(frozen=True, slots=True)
class _Asked:
    route: Route
    request: Message
    form: str


class PlainStreams:
    """ASGI: the plain streams on their paths (GET), and plain JSON POSTs to a streaming
    method's path; everything else goes on to `app` unchanged. `allowed(origin)`: whether
    a browser page of that origin may read the reply (the port's CORS setting)."""

    def __init__(self, app: ASGIApp, routes: Mapping[str, Route], chain: calls.Chain, *,
                 heartbeat_s: float, max_message_bytes: int,
                 allowed: Callable[[str | None], bool]) -> None:
        self.app = app
        self.chain = chain
        self.heartbeat_s = heartbeat_s
        self.max_message_bytes = max_message_bytes
        self.allowed = allowed
        by_name = {route.name: route for route in routes.values()
                   if route.path.startswith(f"/{SERVICE.full_name}/")}
        self.paths = [(_pattern(template), template, by_name[name])
                      for template, name in PATHS if name in by_name]
        self.streaming = {path: route for path, route in routes.items()
                          if route.kind is Kind.SERVER_STREAM}

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        """The plain stream's coroutine, or the wrapped app's own for the rest: no frame of
        this layer for every resumption of each other call to pass through."""
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        path, method = scope.get("path", ""), scope["method"]
        if method == "GET":
            for pattern, _template, route in self.paths:
                found = pattern.fullmatch(path)
                if found is not None:
                    return self._get(scope, receive, send, route, found.groupdict())
        elif method == "POST" and path in self.streaming:
            content_type = (header(scope, b"content-type") or "").split(";")[0].strip()
            if content_type.lower() == "application/json":
                return self._post(scope, receive, send, self.streaming[path])
        return self.app(scope, receive, send)

    # ---- reading the call off the request -------------------------------------------------

    async def _get(self, scope: Scope, receive: Receive, send: Send, route: Route,
                   params: Mapping[str, str]) -> None:
        form = wanted_form(header(scope, b"accept")) or NDJSON
        bound = self.chain.bind(route.path)
        try:
            query = parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                              keep_blank_values=True)
            request = request_of(route, params, query, header(scope, b"last-event-id"))
        except Exception as exc:  # a client's mistake is a ServiceError; ours is INTERNAL
            await self._refuse(scope, send, bound, exc, form)
            return
        await self._stream(scope, receive, send, _Asked(route, request, form), bound)

    async def _post(self, scope: Scope, receive: Receive, send: Send, route: Route) -> None:
        form = wanted_form(header(scope, b"accept"))
        bound = self.chain.bind(route.path)
        if form is None:
            get = next((t for _p, t, r in self.paths if r is route), None)
            await self._refuse(scope, send, bound, ServiceError(
                Code.INVALID_ARGUMENT, ServiceReason.MALFORMED_REQUEST,
                f"{route.name} is a stream: a plain JSON POST must ask for one with "
                f"'Accept: {NDJSON}' (one JSON reply per line) or 'Accept: {SSE}' "
                "(Server-Sent Events)"
                + (f", or GET {get}" if get else "")
                + "; Connect clients send 'Content-Type: application/connect+json'"),
                NDJSON, status=415)
            return
        try:
            body = await self._body(receive)
            try:
                document = json.loads(body or b"{}")
                if not isinstance(document, dict):
                    raise ValueError("a JSON request is an object: {...}")
                # unknown fields ignored, as the port's JSON calls ignore them
                request = json_format.ParseDict(document, route.request(),
                                                ignore_unknown_fields=True)
            except (ValueError, json_format.ParseError) as exc:
                raise malformed(f"the request is not a valid {route.name} request: "
                                f"{str(exc)[:200]}") from None
            last = header(scope, b"last-event-id")
            if last:
                request.MergeFrom(request_of(route, {}, [], last))
        except ServiceError as exc:
            await self._refuse(scope, send, bound, exc, form)
            return
        except asyncio.CancelledError:  # the client left before its request was whole
            self.chain.conclude(bound, None, ended="CANCELLED", protocol=_protocol(form))
            return
        await self._stream(scope, receive, send, _Asked(route, request, form), bound,
                           body_read=True)

    async def _body(self, receive: Receive) -> bytes:
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                raise asyncio.CancelledError  # the client left before sending its request
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_message_bytes:
                raise ServiceError(Code.RESOURCE_EXHAUSTED, ServiceReason.TOO_LARGE,
                                   f"the request is over {self.max_message_bytes} bytes")
            parts.append(chunk)
            if not message.get("more_body", False):
                return b"".join(parts)

    # ---- the stream ------------------------------------------------------------------------

    async def _stream(self, scope: Scope, receive: Receive, send: Send, asked: _Asked,
                      bound: calls.Bound, *, body_read: bool = False) -> None:
        route, form = asked.route, asked.form
        bound.add(calls.request_fields(asked.request))
        gone = asyncio.Event()

        async def watch() -> None:
            # the request is read whole at once (the connection's guard counts on it), then
            # the next message uvicorn gives is the client's leaving
            if not body_read:
                await receive()
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()

        watcher = asyncio.create_task(watch(), name="plain-stream-watch")
        caller = self.chain.caller(header(scope, b"authorization"), calls.grpc_peer(
            scope.get("client")))
        stream_key: str | None = None
        replies: AsyncGenerator[Any, None] | None = None
        started = False
        nxt: asyncio.Future[Any] | None = None
        left = asyncio.ensure_future(gone.wait())
        try:
            stream_key = self.chain.enter(route, caller)
            replies = route.call(asked.request, caller)  # a stream's: an async generator
            nxt = asyncio.ensure_future(anext(replies))
            await asyncio.wait({nxt, left}, timeout=_OPENING_S,
                               return_when=asyncio.FIRST_COMPLETED)
            if gone.is_set():
                raise asyncio.CancelledError
            if nxt.done() and nxt.exception() is not None \
                    and not isinstance(nxt.exception(), StopAsyncIteration):
                raise nxt.exception()  # type: ignore[misc]  # checked: not None
            await send({"type": "http.response.start", "status": 200,
                        "headers": self._headers(scope, form)})
            started = True
            if form == SSE:  # EventSource reconnects this soon after a dropped connection
                await self._write(send, f"retry: {_RETRY_MS}\n\n".encode())
            while True:
                if not nxt.done():
                    await asyncio.wait({nxt, left}, timeout=self.heartbeat_s,
                                       return_when=asyncio.FIRST_COMPLETED)
                if gone.is_set():
                    raise asyncio.CancelledError
                if not nxt.done():
                    await self._write(send, b"\n" if form == NDJSON else b": keepalive\n\n")
                    continue
                try:
                    reply = nxt.result()
                except StopAsyncIteration:
                    break
                await self._write(send, self._frame(route, reply, form))
                nxt = asyncio.ensure_future(anext(replies))
        except asyncio.CancelledError:
            self.chain.conclude(bound, None, ended="CANCELLED", protocol=_protocol(form))
            if started:
                await self._end(send)
            return
        except Exception as exc:
            if not started:
                await self._refuse(scope, send, bound, exc, form)
                return
            outcome = self.chain.conclude(bound, exc, protocol=_protocol(form))
            body = error_body(outcome.error).decode()
            await self._write(send, (f'{{"error": {body}}}\n' if form == NDJSON
                                     else f"event: error\ndata: {body}\n\n").encode())
            await self._end(send)
            return
        finally:
            await _cancel(nxt, left, watcher)
            if replies is not None:
                with contextlib.suppress(Exception):
                    await replies.aclose()
            self.chain.leave(caller, stream_key)
        self.chain.conclude(bound, None, protocol=_protocol(form))
        await self._end(send)

    def _frame(self, route: Route, reply: Any, form: str) -> bytes:
        message = route.response.FromString(reply) if isinstance(reply, bytes) else reply
        line = to_json(message)
        if form == NDJSON:
            return (line + "\n").encode()
        return f"id: {position(message)}\ndata: {line}\n\n".encode()

    def _headers(self, scope: Scope, form: str) -> list[tuple[bytes, bytes]]:
        headers = [(b"content-type", (SSE + "; charset=utf-8" if form == SSE
                                      else NDJSON).encode()),
                   (b"cache-control", b"no-cache"),
                   # a proxy that buffers replies (nginx) would hold the stream back
                   (b"x-accel-buffering", b"no")]
        return self._cors(scope, headers)

    def _cors(self, scope: Scope, headers: list[tuple[bytes, bytes]]
              ) -> list[tuple[bytes, bytes]]:
        origin = header(scope, b"origin")
        if self.allowed(origin):
            headers += [(b"access-control-allow-origin", str(origin).encode("latin-1")),
                        (b"vary", b"Origin")]
        return headers

    @staticmethod
    async def _write(send: Send, data: bytes) -> None:
        await send({"type": "http.response.body", "body": data, "more_body": True})

    @staticmethod
    async def _end(send: Send) -> None:
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _refuse(self, scope: Scope, send: Send, bound: calls.Bound, exc: BaseException,
                      form: str, *, status: int | None = None) -> None:
        """A refusal before the stream began: its line, then an HTTP status and Connect's
        error JSON."""
        outcome = self.chain.conclude(bound, exc, protocol=_protocol(form))
        error = outcome.error
        body = error_body(error)
        code = status or (HTTP_STATUS.get(error.code, 400) if error is not None else 500)
        headers = self._cors(scope, [(b"content-type", b"application/json"),
                                     (b"content-length", str(len(body)).encode())])
        if status == 415:
            headers.append((b"accept-post", f"{NDJSON}, {SSE}".encode()))
        await send({"type": "http.response.start", "status": code, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": False})


def _protocol(form: str) -> str:
    return "sse" if form == SSE else "ndjson"


async def _cancel(*futures: asyncio.Future[Any] | None) -> None:
    for future in futures:
        if future is not None and not future.done():
            future.cancel()
    for future in futures:
        if future is not None:
            with contextlib.suppress(BaseException):
                await future
