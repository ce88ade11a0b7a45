"""`GameSession`: one seat's long-lived Session call on one game (docs/sdk.md, "Sessions").

Moves go out on the open stream and each is answered on it, which costs the service a
fraction of a unary SubmitAction; the game's events arrive on the same stream. `submit`
returns the reply the unary call returns, or raises the exception it raises; iterating the
session yields every other event the seat may see, once and in seq order (the session's own
moves' events are in their replies). After a transient failure (the service restarting, a
dropped connection, falling behind) the session reopens itself after the last seq it saw, as
`stream_events` does; an action in flight at that moment raises its error, and the caller
resends it with the same request id (the service answers a resend with the first reply, and
moves once).

The session travels on a gRPC Session call, or on a WebSocket of the HTTP port when the
client was given `websocket=` (risk_client.websocket): the same messages, answers and errors.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
import uuid
from collections.abc import AsyncIterator, Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import grpc

from risk_client.errors import RiskError, from_rpc_error, from_status, make_error
from risk_proto.risk.v1 import game_pb2, service_pb2, session_pb2

if TYPE_CHECKING:
    from risk_client.client import Backoff

_Reply = service_pb2.SubmitActionResponse | service_pb2.ResignResponse


class _Closed:
    """The end of the event queue, with the error that ended the session (None: closed)."""

    __slots__ = ("error",)

    def __init__(self, error: RiskError | None) -> None:
        self.error = error


class GameSession:
    """A seat's session on `game_id`; open it with `async with client.session(game_id)`.

    >>> async with seat.session(game_id) as session:
    ...     reply = await session.submit(action, expected_version=version)
    ...     async for event in session:   # the other seats' moves, live
    ...         ...
    """

    def __init__(self, opener: Callable[[], Any], game_id: str,
                 after_seq: int, *, backoff: Backoff, resume: bool,
                 resumable: Callable[[RiskError], bool],
                 on_reconnect: Callable[[RiskError, int], None] | None,
                 events: bool = True) -> None:
        # a new call each time: grpc.aio's Session call, or a risk_client.websocket.SocketCall
        self._opener = opener
        self._acks_only = not events
        self.game_id = game_id
        self.last_seq = after_seq  # the last seq seen, as event or in a reply
        self._backoff = backoff
        self._resume = resume
        self._resumable = resumable
        self._on_reconnect = on_reconnect
        self._call: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._pending: collections.deque[tuple[str, asyncio.Future[_Reply]]] = \
            collections.deque()
        self._events: asyncio.Queue[game_pb2.Event | _Closed] = asyncio.Queue()
        self._writing = asyncio.Lock()
        self._closing = False
        self._error: RiskError | None = None

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    async def open(self) -> None:
        """Open the stream after `last_seq`. An unknown game or a refused token ends it at
        once: the first `submit` or event raises that error."""
        await self._connect()
        self._reader = asyncio.create_task(self._read(), name=f"session-{self.game_id}")

    async def _connect(self) -> None:
        self._call = self._opener()
        await self._call.write(session_pb2.SessionRequest(
            open=session_pb2.SessionOpen(game_id=self.game_id, after_seq=self.last_seq,
                                         acks_only=self._acks_only)))

    async def submit(self, action: game_pb2.Action, expected_version: int,
                     request_id: str | None = None, *,
                     seat: int | None = None) -> service_pb2.SubmitActionResponse:
        """As `RiskClient.submit_action`: the reply, or the same `RiskError` subclass."""
        request = session_pb2.SessionAction(action=action, expected_version=expected_version,
                                            request_id=request_id or uuid.uuid4().hex)
        if seat is not None:
            request.seat = seat
        reply = await self._send(session_pb2.SessionRequest(submit=request), request.request_id)
        assert isinstance(reply, service_pb2.SubmitActionResponse)
        return reply

    async def resign(self, request_id: str | None = None, *,
                     seat: int | None = None) -> service_pb2.ResignResponse:
        """As `RiskClient.resign`: the reply, or the same `RiskError` subclass."""
        request = session_pb2.SessionResign(request_id=request_id or uuid.uuid4().hex)
        if seat is not None:
            request.seat = seat
        reply = await self._send(session_pb2.SessionRequest(resign=request), request.request_id)
        assert isinstance(reply, service_pb2.ResignResponse)
        return reply

    async def _send(self, request: session_pb2.SessionRequest, request_id: str) -> _Reply:
        if self._error is not None:
            raise self._error
        if self._closing or self._call is None:
            raise make_error("FAILED_PRECONDITION", "", "the session is not open")
        answer: asyncio.Future[_Reply] = asyncio.get_running_loop().create_future()
        # the service answers in request order: the queue of futures is in write order
        async with self._writing:
            self._pending.append((request_id, answer))
            try:
                await self._call.write(request)
            except (grpc.aio.AioRpcError, asyncio.InvalidStateError, grpc.aio.UsageError,
                    RiskError):
                # the stream broke before the request left: it was not acted on
                with contextlib.suppress(ValueError):
                    self._pending.remove((request_id, answer))
                if self._error is not None:
                    raise self._error from None
                raise make_error("UNAVAILABLE", "", "the session's stream broke and is "
                                 "reopening; resend with the same request id") from None
        return await answer

    def __aiter__(self) -> AsyncIterator[game_pb2.Event]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[game_pb2.Event]:
        while True:
            item = await self._events.get()
            if isinstance(item, _Closed):
                self._events.put_nowait(item)  # every later iteration ends the same way
                if item.error is not None:
                    raise item.error
                return
            yield item

    async def close(self) -> None:
        """Half-close: the service answers what was sent, then ends the stream."""
        if self._closing:
            return
        self._closing = True
        if self._pending and not isinstance(self._call, grpc.aio.Call):
            # a WebSocket has no half-close (closing it cancels the call): wait for the
            # answers to what was sent, then close
            await asyncio.wait([answer for _id, answer in self._pending], timeout=5)
        if self._call is not None and not self._call.done():
            with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError,
                                     grpc.aio.UsageError, RiskError):
                await self._call.done_writing()
        if self._reader is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._reader), 5)
            except TimeoutError:
                self._call.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._reader

    def _seen(self, events: Any) -> None:
        for event in events:
            self.last_seq = max(self.last_seq, event.seq)

    async def _read(self) -> None:
        failures = 0
        while True:
            opened = time.monotonic()
            try:
                async for reply in self._call:
                    self._take(reply)
                    failures = 0
                self._finish(None)
                return
            except grpc.aio.AioRpcError as exc:
                error = from_rpc_error(exc)
            except RiskError as exc:  # a WebSocket call's end, already translated
                error = exc
            self._fail_pending(error)
            if self._closing:
                self._finish(None if error.code == "CANCELLED" else error)
                return
            if time.monotonic() - opened >= self._backoff.healthy_after:
                failures = 0
            failures += 1
            if not self._resume or not self._resumable(error) or \
                    failures > self._backoff.attempts:
                self._finish(error)
                return
            if self._on_reconnect is not None:
                self._on_reconnect(error, failures)
            await asyncio.sleep(self._backoff.delay(failures))
            async with self._writing:
                # a failure here shows in the read below, which counts it
                with contextlib.suppress(grpc.aio.AioRpcError, RiskError):
                    await self._connect()

    def _take(self, reply: session_pb2.SessionResponse) -> None:
        kind = reply.WhichOneof("kind")
        if kind == "event":
            if reply.event.seq > self.last_seq:
                self.last_seq = reply.event.seq
                self._events.put_nowait(reply.event)
            return
        _request_id, answer = self._pending.popleft()
        if kind == "error":
            if not answer.done():
                answer.set_exception(from_status(reply.error.status))
            return
        which = reply.ack.WhichOneof("reply")
        result: _Reply = (service_pb2.SubmitActionResponse.FromString(reply.ack.submitted)
                          if which == "submitted"
                          else service_pb2.ResignResponse.FromString(reply.ack.resigned))
        self._seen(result.events)
        if not answer.done():
            answer.set_result(result)

    def _fail_pending(self, error: RiskError) -> None:
        while self._pending:
            _request_id, answer = self._pending.popleft()
            if not answer.done():
                answer.set_exception(error)

    def _finish(self, error: RiskError | None) -> None:
        self._error = error
        self._fail_pending(error or make_error("CANCELLED", "", "the session was closed"))
        self._events.put_nowait(_Closed(error))
