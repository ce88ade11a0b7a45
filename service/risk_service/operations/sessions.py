"""Session: one seat's long-lived stream on one game, its actions in and, out, the game's
events (as StreamEvents gives them) merged with an answer per action, each the unary call's.

The events come from `Streams.items` and the moves from `Moves`, unchanged; what this module
adds is their order. Requests are answered one at a time. While an action is in flight the
events read meanwhile are held back; once its reply is known, the held events with a lower seq
go out, then the acknowledgement (which carries the action's own events), then the rest,
skipping the acknowledged ones. So every event reaches the client once and in seq order, and
an acknowledgement follows every event before it. An acks-only session has no events to merge:
its actions run in the call's own task, each answer yielded as its action ends. What is no
operation's own (admission, the log line per action, which error a client is told and its
form) the transport supplies through `ActionCalls`; nothing here knows the transport.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, Protocol

from risk_proto.risk.v1 import service_pb2, session_pb2
from risk_service.errors import malformed
from risk_service.operations import identity, records
from risk_service.operations.identity import Caller
from risk_service.operations.moves import Moves
from risk_service.operations.streams import Streams
from risk_service.store.game_store import GameRecord

SUBMIT = "SubmitAction"
RESIGN = "Resign"
# answers and events queued for the client: beyond this the event reader waits for the
# client to read, so the feed's own subscriber buffer (SUBSCRIBER_TOO_SLOW) still applies
OUT_BUFFER = 64


class ActionCalls(Protocol):
    """What the transport does around each action of a session, as around a unary call."""

    def admit(self, method: str) -> None:
        """Admission for one action (the rate limit); raises the refusal."""

    def conclude(self, method: str, fields: Mapping[str, str], started: float,
                 exc: BaseException | None) -> bytes | None:
        """Log and count one action; for a refusal that is the client's doing, the serialised
        google.rpc.Status the unary call would end with (None: a success, or the service's
        own fault, which ends the session)."""


class _Out(Protocol):
    async def put(self, item: bytes | _End) -> None: ...


class _Taken:
    """An acks-only session's output: what an action wrote, taken as soon as the action is
    done (`_Session.answer`). With no event reader there is nothing to merge, so the actions
    run in the call's own task, without a queue and a task switch between an action and its
    answer."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[bytes] = []

    async def put(self, item: bytes | _End) -> None:
        assert not isinstance(item, _End)  # only a full session's actions task ends it
        self.items.append(item)

    def take(self) -> list[bytes]:
        items, self.items = self.items, []
        return items


class _End:
    """The end of a session's output, with the error it ends with (None: a clean end)."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException | None) -> None:
        self.error = error


async def _stop(task: asyncio.Task[None]) -> None:
    """Cancel `task` until it ends: a cancel that lands inside a redis-py call can be
    swallowed there (as App.stop found), and the task would then run on, blocked on a
    queue no one reads."""
    while not task.done():
        task.cancel()
        await asyncio.wait([task], timeout=0.1)
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task


def _retrieve(done: asyncio.Future[Any]) -> None:
    if not done.cancelled():
        done.exception()  # retrieved, so that asyncio does not report it as never awaited


class Sessions:
    def __init__(self, moves: Moves, streams: Streams) -> None:
        self.moves = moves
        self.streams = streams

    async def run(self, requests: AsyncIterator[session_pb2.SessionRequest], caller: Caller,
                  calls: ActionCalls) -> AsyncIterator[bytes]:
        """Serialised SessionResponse messages for one session. Ends cleanly once the client
        has closed its side and every action it sent is answered; raises what ends it
        otherwise (a malformed stream, an unknown game, a wrong token, a failed feed)."""
        first = await anext(aiter(requests), None)
        if first is None:
            return
        if first.WhichOneof("kind") != "open":
            raise malformed("a session's first message must be `open`")
        opening = first.open
        # refused here, before any action is read: an unknown game or a wrong token ends the
        # session with the status StreamEvents would end with
        record = await records.load(self.streams.store, opening.game_id)
        identity.identify(record, caller, self.streams.limits)
        session = _Session(self.moves, self.streams, record, opening.after_seq, caller,
                           events=not opening.acks_only)
        if opening.acks_only:
            # no event reader to merge with: each action runs here, in the call's own task,
            # and its answer goes out as it ends (no queue, no task switch, no generator
            # between them)
            async for request in requests:
                for answer in await session.answer(request, calls):
                    yield answer
            return
        async with contextlib.aclosing(session.output(requests, calls)) as output:
            async for data in output:
                yield data


class _Session:
    def __init__(self, moves: Moves, streams: Streams, record: GameRecord, after_seq: int,
                 caller: Caller, *, events: bool) -> None:
        self.events = events
        self.moves = moves
        self.streams = streams
        self.record: GameRecord | None = record  # as opened; the event reader starts from it
        self.game_id = record.game_id
        self.after_seq = after_seq
        self.caller = caller
        # an acks-only session's answers, taken as each action ends (`answer`); a full
        # session's output, merged with the events, is a queue its call reads (`output`)
        self._taken = _Taken()
        self.out: _Out = asyncio.Queue(OUT_BUFFER) if events else self._taken
        self.sent = after_seq  # the highest seq sent, or acknowledged in a reply
        self.read = after_seq  # the highest seq the event reader has seen
        self.held: list[tuple[int, bytes]] = []
        self.acting = False
        self.lock = asyncio.Lock()  # one writer at a time, so the order decided is the order sent
        self.progress = asyncio.Event()  # the reader saw another seq (or stopped)
        self.ended = False

    async def answer(self, request: session_pb2.SessionRequest, calls: ActionCalls
                     ) -> list[bytes]:
        """An acks-only session's answer to one request (Sessions.run): its ack or its
        refusal; raises what ends the session (a malformed request, the service's fault)."""
        await self._act(*self._action(request), calls)
        return self._taken.take()

    async def output(self, requests: AsyncIterator[session_pb2.SessionRequest],
                     calls: ActionCalls) -> AsyncGenerator[bytes, None]:
        """A full session's output: its actions' answers merged with the event reader's."""
        out = self.out
        assert isinstance(out, asyncio.Queue)
        events = asyncio.create_task(self._events(), name=f"session-events-{self.game_id}")
        actions = asyncio.create_task(self._actions(requests, calls),
                                      name=f"session-actions-{self.game_id}")
        try:
            while True:
                item = await out.get()
                if isinstance(item, _End):
                    if item.error is not None:
                        raise item.error
                    return
                yield item
        finally:
            self.ended = True
            # both end here, whatever ended the session: nothing of it outlives the call. The
            # stopping is shielded: a second cancel of the call (a client's cancel landing
            # while the first one is handled) would otherwise end `_stop`'s retries, and an
            # event reader whose cancel redis-py swallowed would keep its subscription
            stopping = asyncio.gather(_stop(actions), _stop(events))
            try:
                await asyncio.shield(stopping)
            except asyncio.CancelledError:
                stopping.add_done_callback(_retrieve)  # it runs on to its end, unawaited
                raise

    async def _end(self, error: BaseException | None) -> None:
        if not self.ended:
            self.ended = True
            self.progress.set()
            await self.out.put(_End(error))

    async def _events(self) -> None:
        request = service_pb2.StreamEventsRequest(game_id=self.game_id, after_seq=self.after_seq)
        record, self.record = self.record, None  # read once: not kept for the session's life
        try:
            async with contextlib.aclosing(self.streams.items(request, self.caller,
                                                              record=record)) as items:
                async for seq, data in items:
                    self.read = seq
                    self.progress.set()
                    async with self.lock:
                        if self.acting:
                            self.held.append((seq, data))
                        else:
                            await self._send_event(seq, data)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            await self._end(exc)

    async def _send_event(self, seq: int, data: bytes) -> None:
        if seq <= self.sent:
            return  # acknowledged with its action
        self.sent = seq
        if data:
            # a StreamEventsResponse's bytes are a SessionResponse's: `event` is field 1 of both
            await self.out.put(data)

    async def _actions(self, requests: AsyncIterator[session_pb2.SessionRequest],
                       calls: ActionCalls) -> None:
        try:
            async for request in requests:
                await self._act(*self._action(request), calls)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            await self._end(exc)
            return
        await self._end(None)

    def _action(self, request: session_pb2.SessionRequest
                ) -> tuple[str, str, Callable[[], Awaitable[tuple[bytes, list[int]]]]]:
        """A request after the opening: (its method, its request id, the call that runs it);
        raises INVALID_ARGUMENT for anything but a submit or a resign."""
        kind = request.WhichOneof("kind")
        if kind == "submit":
            return SUBMIT, request.submit.request_id, functools.partial(self._submit,
                                                                        request.submit)
        if kind == "resign":
            return RESIGN, request.resign.request_id, functools.partial(self._resign,
                                                                        request.resign)
        raise malformed("a session is opened once: only its first message is `open`; later "
                        "ones are `submit` or `resign`")

    async def _submit(self, action: session_pb2.SessionAction) -> tuple[bytes, list[int]]:
        submitted = await self.moves.act(
            self.game_id, action.action, expected=action.expected_version,
            request_id=action.request_id,
            requested=action.seat if action.HasField("seat") else None, caller=self.caller)
        return session_pb2.SessionResponse(ack=session_pb2.SessionAck(
            request_id=action.request_id, submitted=submitted.reply)).SerializeToString(), \
            submitted.seqs

    async def _resign(self, resign: session_pb2.SessionResign) -> tuple[bytes, list[int]]:
        request = service_pb2.ResignRequest(game_id=self.game_id, request_id=resign.request_id)
        if resign.HasField("seat"):
            request.seat = resign.seat
        reply = await self.moves.resign(request, self.caller)
        return session_pb2.SessionResponse(ack=session_pb2.SessionAck(
            request_id=resign.request_id,
            resigned=reply.SerializeToString(deterministic=True))).SerializeToString(), [
                event.seq for event in reply.events]

    async def _act(self, method: str, request_id: str,
                   call: Callable[[], Awaitable[tuple[bytes, list[int]]]],
                   calls: ActionCalls) -> None:
        """One action: admitted, run, logged, answered in its place among the events."""
        started = time.perf_counter()
        fields = {"game_id": self.game_id[:128]}
        if request_id:
            fields["request_id"] = request_id[:128]
        self.acting = True
        try:
            calls.admit(method)
            ack, seqs = await call()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            await self._release()
            status = calls.conclude(method, fields, started, exc)
            if status is None:
                raise  # the service's own fault: the session ends INTERNAL
            error = session_pb2.SessionError(request_id=request_id, status=status)
            async with self.lock:
                await self.out.put(session_pb2.SessionResponse(error=error).SerializeToString())
            return
        if not self.events:
            # acks-only: no event reader to merge with (nothing is held, no other task writes),
            # so the ack is simply the answer (`_Taken`), without the lock and the flush
            self.acting = False
            self._taken.items.append(ack)
            calls.conclude(method, fields, started, None)
            return
        if seqs:
            await self._caught_up(min(seqs) - 1)
        async with self.lock:
            first = min(seqs, default=self.sent + 1)
            for seq, data in self.held:
                if seq < first:
                    await self._send_event(seq, data)
            await self.out.put(ack)
            self.sent = max([self.sent, *seqs])
            await self._flush()
        calls.conclude(method, fields, started, None)

    async def _caught_up(self, seq: int) -> None:
        """Wait until the event reader has seen every seq up to `seq`."""
        while self.read < seq and not self.ended:
            self.progress.clear()
            await self.progress.wait()

    async def _release(self) -> None:
        async with self.lock:
            await self._flush()

    async def _flush(self) -> None:
        """Send the held events (under the lock) and let the reader send its own again."""
        held, self.held = self.held, []
        for seq, data in held:
            await self._send_event(seq, data)
        self.acting = False
