"""WebSocket on the HTTP port: StreamEvents and Session over one socket per call.

A browser cannot open a bidirectional gRPC stream, and a message on an HTTP/2 stream costs
grpc.aio several times what a write to a socket costs (bench/RESULTS.md, "WebSocket"). So
the HTTP port also upgrades a GET on either streaming method's path to a WebSocket (RFC 6455):

- `/risk.v1.RiskService/StreamEvents`: the client's first binary message is a
  StreamEventsRequest; then each binary message from the server is a StreamEventsResponse,
  the same bytes the gRPC stream sends.
- `/risk.v1.RiskService/Session`: binary messages in are SessionRequest (the first `open`),
  binary messages out are SessionResponse, in the gRPC Session's order and with its answers.

The call's end is the close frame: 1000 when it ended cleanly; otherwise a text message first
(the error in Connect's JSON form, with the same `google.rpc.ErrorInfo` as every transport)
and then close code 4000 + the gRPC status code, the ErrorInfo reason as the close reason.
A client that closes (or drops) the socket cancels the call. The seat token comes in the
`Authorization: Bearer` header, or, where a browser cannot set headers, as the subprotocol
`bearer.<token>` beside `risk.v1` (the server answers `risk.v1`, never the token). A page
from another origin is refused unless RISK_HTTP_CORS_ORIGINS lists it.

What every call goes through (admission, the open-streams limit, the message size limit, the
one log line, each session action's own line and rate limit) is server.calls', as on the
other transports; the operations are the same ones.

What a client sends is read by the `websockets` library's Sans-I/O layer, through its public
API: the upgrade request's parsing and its RFC checks (method, Connection and Upgrade, the
key, the version, the subprotocol offered) and the 101 answer are a `ServerProtocol`'s; after
it, a `Protocol` per socket parses the frames (masking, lengths, reserved bits, opcodes,
fragments in order, control frames final and at most 125 bytes, a close's code and UTF-8
reason, RISK_MAX_MESSAGE_BYTES over a message's fragments) and answers pings. It was chosen
over wsproto by measurement (bench/RESULTS.md, "WebSocket framing on a library"): an open
`Protocol` is 1.1 KB against wsproto's connection's 1.7 KB, and it reads a frame in a third
of wsproto's time. What is written here by hand is what no library holds for us:
- the service's own answers on the wire: refused upgrades in Connect's error JSON, the
  origin and token rules, a call's end as 4000 + its gRPC code, and 1000 to a client's close
  (the library would echo the client's code);
- the binary messages out: `frame()` makes a final unmasked frame in a fifth of the library's
  per-message send (one `Frame` object and a list per message), and a delivered event is one
  encode per audience then one `transport.write` per socket;
- what a client may make the socket hold: messages received and not yet taken (INBOX_LIMIT,
  then reading pauses), a message's frames (MAX_FRAGMENTS, then 1009: empty fragments cost
  nothing toward the size limit), what the server owes it (pongs, events: past the
  transport's high-water mark what it sends is not read, so no pong is made, and a handed-off
  spectator too far behind is cut off), and its first message (within
  RISK_HTTP_REQUEST_TIMEOUT_MS of the upgrade, or the socket closes 1008);
- the hand-off: a caught-up spectator costs no task (its socket's protocol writes each read's
  events as one message when the feed pushes them), so an idle spectator is this module's
  one object, the library's `Protocol` and its transport.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import logging
import socket
import struct
import sys
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping, Sequence
from typing import Any

import structlog
from google.protobuf.message import DecodeError
from websockets.exceptions import (
    HeaderLineTooLong,
    InvalidHeader,
    InvalidMethod,
    NegotiationError,
    RequestLineTooLong,
    TooManyHeaders,
)
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import Protocol, Side, State
from websockets.server import ServerProtocol
from websockets.typing import BytesLike, Subprotocol

from risk_proto.risk.v1 import service_pb2, session_pb2
from risk_rules.wire import DecodedEvent
from risk_service.errors import Code, ServiceError, ServiceReason, malformed
from risk_service.operations import Caller
from risk_service.operations.streams import Handoff, rolled_back
from risk_service.server import calls
from risk_service.server.connect_errors import error_body
from risk_service.server.routes import Route
from risk_service.server.status import code_number

log = structlog.get_logger("rpc")

SERVICE = "/risk.v1.RiskService/"
STREAM_EVENTS = SERVICE + "StreamEvents"
SESSION = SERVICE + "Session"
_SERVED = {path: path for path in (STREAM_EVENTS, SESSION)}  # each path, one string for all
SUBPROTOCOL = "risk.v1"
_TOKEN_PREFIX = "bearer."
PROTOCOL = "websocket"  # the log line's `protocol`

# opcodes of the frames this module writes itself
_TEXT, _BINARY, _CLOSE = 0x1, 0x2, 0x8
# close codes (RFC 6455 section 7.4.1; 4000-4999 are the application's: 4000 + gRPC code)
NORMAL, GOING_AWAY, PROTOCOL_ERROR, UNSUPPORTED_DATA, TOO_BIG = 1000, 1001, 1002, 1003, 1009
INVALID_DATA, POLICY_VIOLATION = 1007, 1008
STATUS_BASE = 4000
INBOX_LIMIT = 64  # messages received and not yet taken by the call: past it, reading pauses
# frames of one fragmented message: empty continuations cost the client 6 bytes and nothing
# toward the size limit, so they are counted (a browser sends a message as one frame)
MAX_FRAGMENTS = 1024
# a handed-off spectator whose socket holds more unsent than this many bytes per event of
# its buffer (RISK_SUBSCRIBER_BUFFER: 1 MiB by default) is cut off (SUBSCRIBER_TOO_SLOW), as
# a task's subscriber is once that many events wait
PUSH_BYTES_PER_EVENT = 1024
# SO_SNDBUF of a handed-off spectator's socket (less with a small RISK_SUBSCRIBER_BUFFER)
SPECTATOR_SEND_BUFFER = 64 * 1024
# what the library is fed at a time: a read of many small frames (a flood of pings or empty
# fragments) becomes that many Frame objects before any is looked at, so it is cut up
_FEED_BYTES = 16 * 1024
# how a SessionResponse that is an event begins: field 1 (`event`), length-delimited
_EVENT = b"\x0a"
# the library's own lines ("connection open", "connection closed" at INFO, once per socket)
# say less than the call's line (server.calls); its warnings and errors still come out
_PROTOCOL_LOG = logging.getLogger("risk_service.websocket.protocol")
_PROTOCOL_LOG.setLevel(logging.WARNING)


def frame(opcode: int, payload: bytes) -> bytes:
    """One final, unmasked frame (a server's frames are never masked)."""
    size = len(payload)
    if size < 126:
        head = bytes((0x80 | opcode, size))
    elif size < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 126, size)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 127, size)
    return head + payload


def _seq(item: DecodedEvent) -> int:
    return item.seq


class _LastFrame:
    """The frame of the last message `_push` wrote: a feed writes one message object to
    every spectator of a game in turn (Streams caches it), so it is framed once, not once
    per socket."""

    data: bytes = b""
    framed: bytes = b""

    @classmethod
    def of(cls, data: bytes) -> bytes:
        if data is not cls.data:
            cls.data, cls.framed = data, frame(_BINARY, data)
        return cls.framed


def close_payload(code: int, reason: str = "") -> bytes:
    return struct.pack("!H", code) + _reason(reason).encode()


def _reason(reason: str) -> str:
    """A close reason that fits a control frame (125 bytes, 2 of them the code)."""
    return reason.encode()[:123].decode(errors="ignore")


class _Refused(Exception):
    """A handshake answered with an HTTP status instead of the upgrade."""

    def __init__(self, status: int, phrase: str, error: ServiceError | None = None,
                 extra: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(phrase)
        self.status = status
        self.phrase = phrase
        self.error = error
        self.extra = extra


class _Closed(Exception):
    """The socket closed (by the client, or by this side after a protocol error)."""


class WebSockets:
    """What the HTTP port's WebSocket calls share: the operations and the transports' rules.
    uvicorn builds one protocol per upgraded connection through `protocol`."""

    def __init__(self, routes: Mapping[str, Route], chain: calls.Chain,
                 *, max_message_bytes: int, origins: frozenset[str],
                 status: Callable[[ServiceError], bytes], request_timeout_s: float = 10.0,
                 max_headers: int = 100) -> None:
        self.routes = routes  # the calls are the route table's (server.routes)
        self.chain = chain
        self.admission = chain.admission
        self.metrics = chain.metrics
        self.max_message_bytes = max_message_bytes
        self.origins = origins
        self.status = status  # a session's refused action in its SessionError (rich status)
        self.request_timeout_s = request_timeout_s  # until the first message
        self.max_headers = max_headers

    def protocol(self, config: Any = None, server_state: Any = None, app_state: Any = None,
                 **_: Any) -> WebSocketCall:
        """uvicorn's `ws` protocol factory (called with its config, server and app state)."""
        return WebSocketCall(self, server_state)


class WebSocketCall(asyncio.Protocol):
    """One upgraded connection: its handshake, its frames, and the one call it carries.

    A spectator's stream that has caught up is handed off (`Streams.items`): its task ends
    and this object, as its subscriber's listener, writes each event as the feed pushes it,
    so an idle spectator is this object and its transport, no task and no generator."""

    __slots__ = ("arrived", "bound", "buffer", "caller", "closing", "deadline", "drained",
                 "ended_by", "fragment_count", "fragments", "half_closed", "handoff",
                 "handshake", "inbox", "paused", "peer", "requests", "server_state", "shared",
                 "streaming", "task", "transport", "unparsed", "upgraded", "ws")

    def __init__(self, shared: WebSockets, server_state: Any) -> None:
        self.shared = shared
        self.server_state = server_state
        self.transport: asyncio.Transport | None = None
        self.peer = "unknown"
        self.buffer = bytearray()  # what came while the client owed a read, not yet parsed
        self.handshake: _Handshake | None = None  # the upgrade request's, until the 101
        self.ws: Protocol | None = None  # the frames', from the 101 on (not while at rest)
        self.unparsed = 0  # bytes the library was fed and has not yet made frames of
        self.upgraded = False
        self.closing = False  # a close frame was sent: nothing more goes out
        self.fragments: bytearray | None = None  # a message arriving in several frames
        self.fragment_count = 0
        self.paused = False  # reading paused: the inbox is full, or the client owes a read
        self.deadline: asyncio.TimerHandle | None = None  # for the first message
        # what the client sent, for the call to take (None: the client is gone), and the
        # future the call waits on while there is none; a paused transport's future. Bare
        # futures made when needed, not a Queue and an Event: an idle spectator keeps this
        # object, and those are four and one 600-byte deque blocks (bench/RESULTS.md)
        self.inbox: list[bytes | None] = []
        self.arrived: asyncio.Future[None] | None = None
        self.drained: asyncio.Future[None] | None = None
        self.task: asyncio.Task[None] | None = None
        self.streaming = False  # StreamEvents: one request message, then none
        self.requests = 0
        self.ended_by: ServiceError | None = None  # what cancelled the call, if the client did
        # a session whose client closed: its requests are over, and the session ends as a
        # gRPC one does at the client's half-close (OK once its actions are answered)
        self.half_closed = False
        self.bound: calls.Bound | None = None  # the call's log fields (server.calls)
        self.handoff: Handoff | None = None  # a handed-off stream's; None once it has ended
        self.caller: str | None = None  # counted as an open stream of this caller until then

    # ---- asyncio.Protocol -------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a stream transport
        self.peer = calls.grpc_peer(transport.get_extra_info("peername"))
        if self.server_state is not None:
            self.server_state.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.server_state is not None:
            self.server_state.connections.discard(self)
        for protocol in (self.handshake, self.ws):
            if protocol is not None:
                _release(protocol)
        self.closing = True
        self._first_message()
        self.resume_writing()
        self._put(None)
        if not self.half_closed:
            self._cancel()  # the client went away: the call ends (logged CANCELLED)

    def pause_writing(self) -> None:
        if self.drained is None:
            self.drained = asyncio.get_running_loop().create_future()
            self._flow()

    def resume_writing(self) -> None:
        drained, self.drained = self.drained, None
        if drained is not None and not drained.done():
            drained.set_result(None)
        if drained is not None and self.upgraded and not self.closing:
            self._flow()
            with contextlib.suppress(_Closed):
                self._frames()  # what arrived while the client owed a read

    def _flow(self) -> None:
        """Read only while the call takes what comes and the client reads what it is sent:
        a client sending faster than its call takes its messages, or pinging without reading
        the pongs, waits in TCP's flow control, as a gRPC client waits for its stream's
        window: nothing piles up here."""
        if self.transport is None or self.closing:
            return
        pause = len(self.inbox) >= INBOX_LIMIT or self.drained is not None
        if pause != self.paused:
            self.paused = pause
            if pause:
                self.transport.pause_reading()
            else:
                self.transport.resume_reading()

    def _put(self, message: bytes | None) -> None:
        self.inbox.append(message)
        if len(self.inbox) >= INBOX_LIMIT:
            self._flow()
        arrived = self.arrived
        if arrived is not None and not arrived.done():
            arrived.set_result(None)

    async def _get(self) -> bytes | None:
        while not self.inbox:
            self.arrived = asyncio.get_running_loop().create_future()
            try:
                await self.arrived
            finally:
                self.arrived = None
        message = self.inbox.pop(0)
        if self.paused:
            self._flow()
        return message

    def data_received(self, data: bytes) -> None:
        try:
            if not self.upgraded:
                self._handshake(data)
            elif self.buffer or self.drained is not None or len(data) > _FEED_BYTES:
                self.buffer += data
                self._frames()
            else:  # the usual read: a message or two, fed as it came
                self._feed(data)
                self._rest()
        except _Closed:
            pass

    def _first_message(self) -> None:
        """The first message came (or the socket closed): no deadline any more."""
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _no_request(self) -> None:
        """An upgraded socket that sent no message in time is closed, as the port closes a
        connection that sends no request (server.http_port.ConnectionGuard)."""
        self.deadline = None
        timeout_ms = round(self.shared.request_timeout_s * 1e3)
        log.info("http_connection_closed", reason="request_timeout", peer=self.peer,
                 timeout_ms=timeout_ms, protocol=PROTOCOL)
        with contextlib.suppress(_Closed):
            self._fail(POLICY_VIOLATION, f"no message within {timeout_ms} ms of the upgrade "
                                         "(RISK_HTTP_REQUEST_TIMEOUT_MS)")

    def shutdown(self) -> None:
        """uvicorn's graceful stop: the call ends with 1001 (going away)."""
        self._cancel()
        self._close(GOING_AWAY, "the server is stopping")

    # ---- handshake --------------------------------------------------------------------------

    def _handshake(self, data: bytes) -> None:
        """The upgrade request, parsed and checked by the library; the service's own rules
        (its paths, origins and tokens) and refusals (Connect's error JSON) on top."""
        handshake = self.handshake
        if handshake is None:
            handshake = self.handshake = _Handshake(
                subprotocols=[Subprotocol(SUBPROTOCOL)], max_size=self.shared.max_message_bytes,
                logger=_PROTOCOL_LOG)
        handshake.receive_data(data)
        events = handshake.events_received()
        if not events:
            failed = handshake.handshake_exc
            if isinstance(failed, (TooManyHeaders, HeaderLineTooLong, RequestLineTooLong)):
                self._answer_http(_Refused(431, "Request Header Fields Too Large"))
            if failed is not None:
                self._answer_http(_Refused(400, "Bad Request", malformed(
                    f"not an HTTP request: {failed.__cause__ or failed}")))
            return  # the rest of the request is still to come
        request = events[0]
        assert isinstance(request, Request)
        if sum(1 for _ in request.headers.raw_items()) > self.shared.max_headers:
            self._answer_http(_Refused(431, "Request Header Fields Too Large"))
        answer = handshake.accept(request)
        try:
            path, authorization = self._accept(request, handshake.handshake_exc)
        except _Refused as refused:
            self._answer_http(refused)
            return
        assert answer.status_code == 101, answer
        handshake.send_response(answer)
        assert self.transport is not None
        for out in handshake.data_to_send():
            self.transport.write(out)
        # the frames from here on: a Protocol of its own, open, without the request the
        # handshake's parser keeps
        _release(handshake)
        self.handshake = None
        self.ws = Protocol(Side.SERVER, state=State.OPEN, max_size=self.shared.max_message_bytes,
                           logger=_PROTOCOL_LOG)
        self.upgraded = True
        self.deadline = asyncio.get_running_loop().call_later(
            self.shared.request_timeout_s, self._no_request)
        self.streaming = path == STREAM_EVENTS
        run = self._stream if self.streaming else self._session
        self.task = asyncio.get_running_loop().create_task(
            self._call(path, authorization, run), name=f"websocket {path}")

    def _accept(self, request: Request, failed: Exception | None) -> tuple[str, str | None]:
        """(path, authorization) of an acceptable upgrade; `failed`: what the library found
        wrong with it. Credentials and admission are the call's, after the upgrade (as a
        gRPC stream's are once it is open): their refusals are told as the call's end."""
        if isinstance(failed, InvalidMethod):
            raise _Refused(405, "Method Not Allowed", extra=(("Allow", "GET"),))
        asked = request.path.partition("?")[0]
        # the route's own string, not the request's copy of it: an idle stream keeps its path
        # (its log fields) for as long as it is open
        path = _SERVED.get(asked)
        if path is None:
            raise _Refused(404, "Not Found", ServiceError(
                Code.UNIMPLEMENTED, ServiceReason.METHOD_NOT_AVAILABLE,
                f"WebSocket serves {STREAM_EVENTS} and {SESSION}, not {asked[:200]}"))
        header = failed.name.lower() if isinstance(failed, InvalidHeader) else ""
        if header == "sec-websocket-version":
            raise _Refused(426, "Upgrade Required", extra=(("Sec-WebSocket-Version", "13"),))
        if header == "sec-websocket-key":
            raise _Refused(400, "Bad Request", malformed(
                "Sec-WebSocket-Key must be 16 bytes in base64"))
        headers = request.headers
        # the first of several is checked here; several are refused below (the library's)
        origin = next(iter(headers.get_all("Origin")), None)
        host = next(iter(headers.get_all("Host")), "")
        if origin is not None and not self._origin_allowed(origin, host):
            raise _Refused(403, "Forbidden", ServiceError(
                Code.PERMISSION_DENIED, ServiceReason.ORIGIN_NOT_ALLOWED,
                f"pages from {origin[:200]} may not open this service's sockets "
                "(RISK_HTTP_CORS_ORIGINS)"))
        if isinstance(failed, NegotiationError):
            raise _Refused(400, "Bad Request", malformed(
                f"the subprotocols offered must include {SUBPROTOCOL!r}"))
        if failed is not None:
            raise _Refused(400, "Bad Request", malformed(f"not a WebSocket upgrade: {failed}"))
        offered = [p.strip() for value in headers.get_all("Sec-WebSocket-Protocol")
                   for p in value.split(",") if p.strip()]
        tokens = [p[len(_TOKEN_PREFIX):] for p in offered if p.startswith(_TOKEN_PREFIX)]
        authorizations = headers.get_all("Authorization")
        if len(authorizations) + len(tokens) > 1:
            raise _Refused(400, "Bad Request", malformed(
                "send the token once: one Authorization header or one bearer.<token> "
                "subprotocol"))
        authorization = authorizations[0] if authorizations else (
            f"Bearer {tokens[0]}" if tokens else None)
        return path, authorization

    def _origin_allowed(self, origin: str, host: str) -> bool:
        origins = self.shared.origins
        if "*" in origins or origin.rstrip("/") in origins:
            return True
        # the web app's own pages (same origin: the Host they were served from)
        return bool(host) and origin.partition("://")[2].rstrip("/") == host

    def _answer_http(self, refused: _Refused) -> None:
        if self.handshake is not None:
            _release(self.handshake)
            self.handshake = None
        body = error_body(refused.error) if refused.error is not None else b""
        lines = [f"HTTP/1.1 {refused.status} {refused.phrase}", "Connection: close",
                 f"Content-Length: {len(body)}"]
        if body:
            lines.append("Content-Type: application/json")
        lines += [f"{name}: {value}" for name, value in refused.extra]
        if refused.error is not None:
            calls.conclude(SERVICE + "WebSocket", {}, time.perf_counter(), refused.error,
                           self.shared.metrics, protocol=PROTOCOL)
        assert self.transport is not None
        self.transport.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        self.transport.close()
        self.closing = True
        raise _Closed

    # ---- frames -----------------------------------------------------------------------------

    def _frames(self) -> None:
        """What the client sent, through the library: its messages to the call, its pings
        answered (by the library), its close answered; read a slice at a time, and only
        while the client reads what it is sent (so a ping's pong is not made meanwhile)."""
        buffer = self.buffer
        while buffer and self.drained is None:
            chunk = bytes(buffer[:_FEED_BYTES])
            del buffer[:_FEED_BYTES]
            self._feed(chunk)
        self._rest()

    def _feed(self, chunk: bytes) -> None:
        ws = self._protocol()
        ws.receive_data(chunk)
        self.unparsed += len(chunk)
        answered = False
        for event in ws.events_received():
            assert isinstance(event, Frame)  # after the handshake, only frames
            self.unparsed -= _client_frame_size(len(event.data))
            opcode = event.opcode
            if opcode is Opcode.CLOSE:
                answered = not self.closing
            elif self.closing or opcode is Opcode.PING or opcode is Opcode.PONG:
                continue  # pongs are the library's; after our close, data is dropped
            elif opcode is Opcode.TEXT:
                self._fail(UNSUPPORTED_DATA, "messages are binary protobuf, not text")
            else:  # binary, or its continuation (the library checked their order)
                self._message(event.data, event.fin)
        self._flush(answered)
        if ws.state is not State.OPEN:  # the client closed, or the library failed it
            self._first_message()
            self.closing = True
            self._put(None)
            if answered and not self.streaming and self.requests and self.task is not None:
                # a session's client that closed after its messages: the end of its
                # requests, as a gRPC client's half-close (docs/api.md: it ends OK once
                # every action it sent is answered)
                self.half_closed = True
            else:
                self._cancel()  # the client is done: what it has not read is not sent
            raise _Closed

    def _protocol(self) -> Protocol:
        """The socket's frame parser, made again if it was let go at rest (`_rest`)."""
        if self.ws is None:
            self.ws = Protocol(Side.SERVER, state=State.OPEN,
                               max_size=self.shared.max_message_bytes, logger=_PROTOCOL_LOG)
        return self.ws

    def _rest(self) -> None:
        """A handed-off spectator's socket keeps no parser while the client has nothing in
        flight: an open `Protocol` between whole frames holds nothing a new one lacks (no
        partial frame, no message in fragments, no close), and is 1.1 KB of each idle
        spectator's memory (bench/RESULTS.md). A client's next bytes make a new one (a ping
        every 20 s, as some clients send, costs a few microseconds for it)."""
        ws = self.ws
        if (ws is not None and self.handoff is not None and not self.unparsed
                and self.fragments is None and not self.closing and not self.buffer
                and ws.state is State.OPEN):
            self.ws = None
            _release(ws)

    def _message(self, data: BytesLike, fin: bool) -> None:
        if not fin:
            if self.fragments is None:
                self.fragments, self.fragment_count = bytearray(), 0
            self.fragments += data
            self.fragment_count += 1
            if self.fragment_count >= MAX_FRAGMENTS:
                self._fail(TOO_BIG, f"a message is at most {MAX_FRAGMENTS} frames")
            return
        message = bytes(data)  # a frame's payload: bytes already (bytes() returns it)
        if self.fragments is not None:
            message = bytes(self.fragments + message)
            self.fragments = None
        self._first_message()
        self.requests += 1
        if self.streaming and self.requests > 1:
            self.ended_by = malformed(
                "StreamEvents takes one request message; the socket carries no more")
            self._cancel()
            return
        self._put(message)

    def _flush(self, answered: bool = False) -> None:
        """Write what the library has to send. `answered`: the client closed first; the
        library echoes its close code, the service answers 1000 (the call ends as the
        client asked), as before the library (docs/api.md)."""
        ws, transport = self.ws, self.transport
        if ws is None or transport is None:
            return
        for data in ws.data_to_send():
            if not data:  # the library's end of the stream (its close was sent)
                if ws.close_rcvd is not None:
                    transport.close()  # both closes went: the handshake is over
                elif transport.can_write_eof():
                    transport.write_eof()  # failed: the close is the last it is sent
            elif answered and data[0] == 0x80 | _CLOSE:
                transport.write(frame(_CLOSE, close_payload(NORMAL)))
            else:
                transport.write(data)

    def _fail(self, code: int, reason: str) -> None:
        """A protocol error: the socket closes with `code` (the call is cancelled)."""
        if self.upgraded and not self.closing:
            self._protocol().fail(code, _reason(reason))
            self._flush()
            self._closing()
        self.closing = True
        self._put(None)
        self._cancel()
        raise _Closed

    def _cancel(self) -> None:
        if self.handoff is not None:
            self._unfollow(self.ended_by)
        elif self.task is not None and not self.task.done():
            self.task.cancel()

    def _send(self, opcode: int, payload: bytes) -> None:
        if not self.closing and self.transport is not None:
            self.transport.write(frame(opcode, payload))

    def _close(self, code: int, reason: str = "") -> None:
        if self.closing or self.transport is None or not self.upgraded:
            return
        ws = self._protocol()
        if ws.state is not State.OPEN:
            return
        ws.send_close(code, _reason(reason))
        self._flush()
        self._closing()

    def _closing(self) -> None:
        """Our close went: the client answers with its own (then the library ends the
        stream); a client that never does is not waited for."""
        self.closing = True
        if self.transport is not None:
            asyncio.get_running_loop().call_later(5.0, self.transport.close)

    # ---- the call ---------------------------------------------------------------------------

    async def _write(self, data: bytes) -> None:
        if self.drained is not None:
            await self.drained  # a slow reader: the feed's own buffer limit applies
        if self.closing:
            if self.half_closed and data[:1] == _EVENT:
                return  # an event after the client's close: it asked for no more
            raise _Closed  # the socket closed under the call (an answer the client lost)
        assert self.transport is not None
        self.transport.write(frame(_BINARY, data))

    async def _call(self, path: str, authorization: str | None,
                    run: Callable[[Route, Caller, calls.Bound], AsyncGenerator[bytes, None]]
                    ) -> None:
        """The call's life through the chain (server.calls): its log fields bound in its
        task, its caller, admission and the open-streams limit, its credentials, the
        messages out, its end and its one log line."""
        chain = self.shared.chain
        self.bound = bound = chain.bind(path)
        route = self.shared.routes[path]
        try:
            try:
                caller = chain.caller(authorization, self.peer)
                self.caller = chain.enter(route, caller)
                # closed here, whichever way the call ends (a session's replies are the
                # operation's own generator: no layer re-yields each of them)
                async with contextlib.aclosing(run(route, caller, bound)) as replies:
                    async for data in replies:
                        await self._write(data)
                if self.handoff is not None:
                    self.task = None  # the stream goes on without it (`pushed`)
                    bound.release()  # and this task's context ends here
                    return
            finally:
                if self.handoff is None:
                    self._leave()
        except (asyncio.CancelledError, _Closed):
            self._end(self.ended_by)
            return
        except Exception as exc:  # every end is told to the client and logged
            self._end(exc)
            return
        chain.conclude(bound, None, protocol=PROTOCOL)
        self._close(NORMAL)

    def _end(self, exc: BaseException | None) -> None:
        """A call that did not end cleanly, by a task or a handed-off stream: its line, then
        the error as text and the status as the close; None: the client left (or the
        service stops), logged CANCELLED, closed 1001 if still open."""
        assert self.bound is not None  # bound as the call began (`_call`)
        chain = self.shared.chain
        if exc is None:
            chain.conclude(self.bound, None, ended="CANCELLED", protocol=PROTOCOL)
            self._close(GOING_AWAY)
            return
        outcome = chain.conclude(self.bound, exc, protocol=PROTOCOL)
        reason = outcome.error.reason if outcome.error is not None else "INTERNAL"
        self._send(_TEXT, error_body(outcome.error))
        self._close(STATUS_BASE + code_number(outcome.code), reason)

    async def _stream(self, route: Route, caller: Caller, bound: calls.Bound
                      ) -> AsyncGenerator[bytes, None]:
        data = await self._get()
        if data is None:
            raise _Closed  # the client left before asking anything
        try:
            request = service_pb2.StreamEventsRequest.FromString(data)
        except DecodeError as exc:
            raise malformed(f"the request is not a valid message of its type: {exc}") from None
        bound.add(calls.request_fields(request))
        async with contextlib.aclosing(_generator(route.call(
                request, caller, handoff=self._follow))) as replies:
            async for reply in replies:
                yield reply

    # ---- a handed-off stream ----------------------------------------------------------------

    def _follow(self, handoff: Handoff) -> bool:
        """Take over a caught-up spectator's stream (Streams.items), unless the socket is
        closing or the subscriber already overflowed (then the task ends it as before)."""
        if self.closing:
            return False
        sock = self.transport.get_extra_info("socket") if self.transport is not None else None
        if sock is not None:
            # what an idle spectator may hold unsent in the kernel, as an HTTP/2 stream's
            # window bounds a gRPC one's (left alone, Linux grows it to megabytes): past it
            # the transport's buffer grows, and the stream is cut off (`pushed`)
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, min(
                    SPECTATOR_SEND_BUFFER, handoff.sub.limit * PUSH_BYTES_PER_EVENT))
        self.handoff = handoff
        if not handoff.sub.listen(self):
            self.handoff = None
            return False
        self._rest()
        return True

    def pushed(self, item: DecodedEvent) -> bool:
        """The feed's next event (Subscriber.listen): written at once, or the stream ends
        SUBSCRIBER_TOO_SLOW when the socket already holds too much unsent."""
        handoff = self.handoff
        if handoff is None or self.transport is None:
            return False
        if item.seq <= handoff.sent:
            return True
        return self._push(handoff, *handoff.take(item))

    def flush(self) -> None:
        """The end of a read's events: the batch taken so far goes out (Handoff.message)."""
        if self.handoff is not None:
            self._push(self.handoff, *self.handoff.message())

    def handed(self, items: Sequence[DecodedEvent], shared: dict[Any, Any]) -> bool:
        """The feed's pending events (feed.StreamFeed._sweep): those after the last this
        spectator had. One with nothing waiting, whose batch takes them all, gets the message
        every spectator of its audience at the same point gets in this pass (Handoff.whole),
        encoded for the first of them."""
        handoff = self.handoff
        if handoff is None or self.transport is None:
            return False
        sent = handoff.sent
        start = bisect.bisect_right(items, sent, key=_seq)
        if start == len(items):
            return True
        todo = items[start:] if start else items
        if handoff.fits(todo):
            key = (handoff.viewer, sent, todo[-1].seq)
            message = shared.get(key)
            if message is None:
                message = shared[key] = handoff.whole(todo)
            handoff.sent = todo[-1].seq
            return self._push(handoff, *message)
        for item in todo:
            if not self.pushed(item):
                return False
        self.flush()
        return self.handoff is not None

    def position(self) -> int:
        """The seq of the last event sent (ended: any, so the feed lets events go)."""
        return self.handoff.sent if self.handoff is not None else sys.maxsize

    def _push(self, handoff: Handoff, data: bytes, first: int) -> bool:
        """Write one message (its first event's seq `first`), or end the stream if the
        socket is too far behind: the client resumes after the seq before it."""
        if not data or self.transport is None:
            return True
        limit = handoff.sub.limit * PUSH_BYTES_PER_EVENT
        if self.transport.get_write_buffer_size() > limit:
            sent = first - 1
            self._unfollow(ServiceError(
                Code.RESOURCE_EXHAUSTED, ServiceReason.SUBSCRIBER_TOO_SLOW,
                f"the stream fell {limit} bytes behind; resume after seq {sent}",
                {"last_seq": str(sent)}))
            return False
        self.transport.write(_LastFrame.of(data))
        return True

    def rolled_back(self, last_seq: int) -> None:
        """The stream lost events this spectator may have had: it ends as a task's would."""
        if self.handoff is not None:
            self._unfollow(rolled_back(last_seq, self.handoff.sent))

    def _unfollow(self, error: ServiceError | None) -> None:
        """A handed-off stream's end: unsubscribed (after the feed's round), its stream slot
        left, its line logged, the client told (None: it left, or the service stops)."""
        handoff, self.handoff = self.handoff, None
        if handoff is None:
            return
        handoff.sub.listener = None
        asyncio.get_running_loop().call_soon(handoff.sub.feed.unsubscribe, handoff.sub)
        self._leave()
        self._end(error)

    def _leave(self) -> None:
        """The call's stream is no longer open: off its connection's and its caller's count."""
        caller, self.caller = self.caller, None
        if caller is not None:
            self.shared.admission.leave_stream(self.peer, caller)

    def _session(self, route: Route, caller: Caller, bound: calls.Bound
                 ) -> AsyncGenerator[bytes, None]:
        actions = self.shared.chain.session_calls(route, caller, self.shared.status)

        async def requests() -> AsyncIterator[session_pb2.SessionRequest]:
            while (data := await self._get()) is not None:
                try:
                    request = session_pb2.SessionRequest.FromString(data)
                except DecodeError as exc:
                    raise malformed(
                        f"the request is not a valid message of its type: {exc}") from None
                if request.WhichOneof("kind") == "open":
                    bound.add({"game_id": request.open.game_id[:128]})
                yield request

        return _generator(route.call(requests(), caller, actions))


def _release(protocol: Protocol) -> None:
    """A protocol that is done with, freed now rather than by the collector, which the
    service runs rarely (a burst of handshakes' garbage pins the allocator's pages:
    bench/RESULTS.md). Its parser is a generator that holds the protocol, and a refused
    handshake's exception holds, through its traceback, the frames that hold uvicorn's
    protocol: both cycles are cut."""
    failed: BaseException | None = protocol.handshake_exc
    while failed is not None:
        failed.__traceback__ = None
        failed = failed.__cause__ or failed.__context__
    protocol.parser.close()


def _client_frame_size(payload: int) -> int:
    """The bytes of a client's frame of `payload` bytes: head, length (its shortest form),
    masking key. A longer form than needed leaves bytes counted as unparsed, and the
    socket keeps its parser (`_rest`): never the wrong way round."""
    return 6 + payload + (0 if payload < 126 else 2 if payload < 1 << 16 else 8)


class _Handshake(ServerProtocol):
    """The library's server handshake, with the service's subprotocol rule (a method, not
    the `select_subprotocol` argument: that one is bound onto the object, one more cycle
    for the collector)."""

    def select_subprotocol(self, subprotocols: Sequence[Subprotocol]) -> Subprotocol | None:
        """`risk.v1` when offered; none when nothing is (a client that sends its token as
        a header needs none); a list of others without it is refused."""
        if SUBPROTOCOL in subprotocols:
            return Subprotocol(SUBPROTOCOL)
        if subprotocols:
            raise NegotiationError(f"the subprotocols offered must include {SUBPROTOCOL!r}")
        return None


def _generator(replies: AsyncIterator[bytes]) -> AsyncGenerator[bytes, None]:
    """The operations' streams are async generators (closed at once when a call ends)."""
    assert isinstance(replies, AsyncGenerator)
    return replies
