"""StreamEvents and Session over the HTTP port's WebSocket (docs/api.md, "WebSocket"), for a
`RiskClient` given `websocket=` (docs/sdk.md, "Over a WebSocket").

The socket carries the same protobuf messages as the gRPC calls, one per binary message; a
call ends with close code 1000, or with one text message (the error in Connect's JSON form,
with the same `google.rpc.ErrorInfo`) and close code 4000 + the gRPC status code. This module
only translates that wire into what the gRPC path gives the SDK: the same messages, and the
same `RiskError` subclasses with the same reasons. The framing is the `websockets` library's;
`GameSession` and `RiskClient._resuming` use these objects where they use a grpc.aio call.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import ssl
from collections.abc import AsyncIterator
from typing import Any

import grpc
from google.protobuf.message import DecodeError, Message
from google.rpc import error_details_pb2
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from risk_client.errors import RiskError, make_error
from risk_proto.risk.v1 import service_pb2, session_pb2

SERVICE = "/risk.v1.RiskService/"
SUBPROTOCOL = "risk.v1"
STATUS_BASE = 4000  # close codes 4000-4016: 4000 + the call's gRPC status code
# the largest message accepted from the service: a batch of events, or a reply with many
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
# how long a connection may take to open before the call fails UNAVAILABLE
OPEN_TIMEOUT_S = 10.0
_CODE_NAMES = {code.value[0]: code.name for code in grpc.StatusCode}
_ERROR_INFO = "google.rpc.ErrorInfo"


def endpoint(url: str, method: str) -> str:
    """The socket's URL for `method` on the HTTP port at `url` (ws://, wss://, http://,
    https://; http(s) becomes ws(s))."""
    base = url.rstrip("/")
    if base.startswith("http://") or base.startswith("https://"):
        base = "ws" + base[len("http"):]
    if not (base.startswith("ws://") or base.startswith("wss://")):
        raise ValueError(f"a WebSocket URL starts with ws:// or wss://, not {url!r}")
    return base + SERVICE + method


def error_from_json(text: str) -> RiskError | None:
    """The typed error of a Connect error JSON (the text message before a 4000+ close), or
    None when the text is not one."""
    try:
        body = json.loads(text)
    except ValueError:
        return None
    if not isinstance(body, dict) or not isinstance(body.get("code"), str):
        return None
    reason, metadata = "", {}
    for detail in body.get("details") or ():
        if not isinstance(detail, dict) or detail.get("type") != _ERROR_INFO:
            continue
        value = str(detail.get("value", ""))
        try:
            info = error_details_pb2.ErrorInfo.FromString(
                base64.b64decode(value + "=" * (-len(value) % 4)))
        except (DecodeError, ValueError):
            continue
        reason, metadata = info.reason, dict(info.metadata)
    return make_error(body["code"].upper(), reason, str(body.get("message", "")), metadata)


def _closed_error(closed: ConnectionClosed, told: RiskError | None) -> RiskError | None:
    """What a closed socket means for the call: None for a clean end (1000), else its error.
    The close code stands for the status where no text message said more."""
    received = closed.rcvd
    if received is not None and received.code == 1000:
        return None
    if told is not None:
        return told
    if received is None:  # no close frame: the connection dropped (a restart, the network)
        return make_error("UNAVAILABLE", "", "the WebSocket connection was lost")
    if STATUS_BASE <= received.code <= STATUS_BASE + 16:
        code = _CODE_NAMES.get(received.code - STATUS_BASE, "UNKNOWN")
        return make_error(code, received.reason, received.reason)
    if received.code == 1001:
        return make_error("UNAVAILABLE", "", "the service is stopping")
    return make_error("INTERNAL", "", f"the WebSocket closed {received.code} "
                                      f"{received.reason}".strip())


def _refusal(exc: BaseException) -> RiskError:
    """The error of a socket that never opened: the service's own answer where it gave one
    (an HTTP status with the error JSON), else UNAVAILABLE."""
    if isinstance(exc, InvalidStatus):
        body = exc.response.body or b""
        told = error_from_json(body.decode("utf-8", "replace"))
        if told is not None:
            return told
        return make_error("UNAVAILABLE", "", f"the WebSocket upgrade was answered HTTP "
                                             f"{exc.response.status_code}")
    return make_error("UNAVAILABLE", "", f"cannot open the WebSocket: {exc}")


class SocketCall:
    """One call on its own socket, shaped as the grpc.aio call the SDK iterates: `write`
    sends a request, iterating yields the replies decoded as `reply_type` and raises the
    call's `RiskError` when it ends with one, `cancel` drops it.

    It connects as soon as it is made; a socket that cannot open fails the first `write`
    and the iteration with the same error, as a gRPC call to a stopped service does.
    """

    def __init__(self, url: str, method: str, token: str | None, reply_type: type[Message],
                 *, ssl_context: ssl.SSLContext | None = None,
                 first: Message | None = None) -> None:
        self._reply_type = reply_type
        self._first = first  # a server stream's one request, sent before reading
        self._told: RiskError | None = None  # the text message before an error close
        self._ended = False
        headers = {"Authorization": f"Bearer {token}"} if token else None
        uri = endpoint(url, method)
        secure = uri.startswith("wss://")
        self._opening: asyncio.Task[ClientConnection] = asyncio.ensure_future(self._open(
            uri, headers, (ssl_context or ssl.create_default_context()) if secure else None))

    @staticmethod
    async def _open(uri: str, headers: dict[str, str] | None,
                    context: ssl.SSLContext | None) -> ClientConnection:
        extra: dict[str, Any] = {"ssl": context} if context is not None else {}
        try:
            # no compression (the service offers none), no proxy from the environment, and
            # no keep-alive pings of the library's own: the service's idle rules apply
            return await connect(uri, subprotocols=[SUBPROTOCOL],  # type: ignore[list-item]  # Subprotocol is a NewType of str
                                 additional_headers=headers, compression=None, proxy=None,
                                 max_size=MAX_MESSAGE_BYTES, open_timeout=OPEN_TIMEOUT_S,
                                 ping_interval=None, **extra)
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            raise _refusal(exc) from None

    async def _socket(self) -> ClientConnection:
        return await asyncio.shield(self._opening)

    async def write(self, request: Message) -> None:
        socket = await self._socket()
        try:
            await socket.send(request.SerializeToString())
        except ConnectionClosed as closed:
            raise (_closed_error(closed, self._told)
                   or make_error("UNAVAILABLE", "", "the WebSocket was closed")) from None

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._replies()

    async def _replies(self) -> AsyncIterator[Any]:
        if self._first is not None:
            await self.write(self._first)
        socket = await self._socket()
        try:
            while True:
                data = await socket.recv()
                if isinstance(data, str):  # the error, before the close that ends the call
                    self._told = error_from_json(data)
                    continue
                yield self._reply_type.FromString(data)
        except ConnectionClosed as closed:
            self._ended = True
            error = _closed_error(closed, self._told)
            if error is not None:
                raise error from None

    async def done_writing(self) -> None:
        """The client is done: close 1000 (a WebSocket has no half-close; the session waits
        for its answers before it calls this)."""
        with contextlib.suppress(RiskError, ConnectionClosed):
            await (await self._socket()).close()

    def done(self) -> bool:
        return self._ended

    def cancel(self) -> None:
        """Drop the call: the socket closes (the service cancels the call)."""
        self._ended = True
        if not self._opening.done():
            self._opening.cancel()
            return
        if self._opening.cancelled() or self._opening.exception() is not None:
            return
        socket = self._opening.result()
        task = asyncio.ensure_future(socket.close())
        task.add_done_callback(lambda done: done.cancelled() or done.exception())


def session_call(url: str, token: str | None,
                 ssl_context: ssl.SSLContext | None = None) -> SocketCall:
    """A Session socket: write SessionRequest, iterate SessionResponse."""
    return SocketCall(url, "Session", token, session_pb2.SessionResponse,
                      ssl_context=ssl_context)


def stream_call(url: str, token: str | None, request: service_pb2.StreamEventsRequest,
                ssl_context: ssl.SSLContext | None = None) -> SocketCall:
    """A StreamEvents socket that sends `request` first: iterate StreamEventsResponse."""
    return SocketCall(url, "StreamEvents", token, service_pb2.StreamEventsResponse,
                      ssl_context=ssl_context, first=request)
