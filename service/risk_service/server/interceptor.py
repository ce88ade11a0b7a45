"""Every gRPC call passes here: admission, one structlog line with its outcome, and errors
mapped to statuses.

The line carries the method, the game id and the client's request id (when the request has
them), the status code and the duration; never a token. Admission, the line and which error
the client is told are server.calls', shared with the HTTP port; this module reads them off
gRPC's call and sets gRPC's status. Exceptions that are the client's doing become their
documented status; anything else is logged with its traceback and answered INTERNAL without
details. Bytes that do not parse as the method's
request message are the client's doing too: they reach the call as `Undecodable` and are
answered INVALID_ARGUMENT (gRPC itself would answer UNKNOWN, and log nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from google.protobuf.message import DecodeError

from risk_service.errors import malformed
from risk_service.server.calls import Admission, conclude, request_fields, single_authorization
from risk_service.server.metrics import Metrics
from risk_service.server.status import status_of

# how long a session refused as it opens may take to send its first message (_opening)
REFUSAL_WAIT_S = 1.0

Behaviour = Callable[[Any, grpc.aio.ServicerContext], Any]


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


class RpcInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]  # grpc ships no stubs
    def __init__(self, metrics: Metrics | None = None,
                 admission: Admission | None = None) -> None:
        self.metrics = metrics
        self.admission = admission or Admission()
        # wrapped handlers by method: a method's handler never changes, so it is wrapped once
        self._wrapped: dict[str, grpc.RpcMethodHandler] = {}

    def _admit(self, method: str, context: grpc.aio.ServicerContext) -> str | None:
        """Admit the call; its `authorization` (a stream is also counted against its caller)."""
        authorization = single_authorization(context.invocation_metadata() or ())
        self.admission.admit(method, authorization, context.peer())
        return authorization

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
            return None
        wrapped = self._wrap(method, handler)
        self._wrapped[method] = wrapped
        return wrapped

    def _wrap(self, method: str, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
        if handler.unary_unary:
            return grpc.unary_unary_rpc_method_handler(
                self._unary(method, handler.unary_unary),
                request_deserializer=_tolerant(handler.request_deserializer),
                response_serializer=_passthrough(handler.response_serializer),
            )
        if handler.unary_stream:
            return grpc.unary_stream_rpc_method_handler(
                self._stream(method, handler.unary_stream),
                request_deserializer=_tolerant(handler.request_deserializer),
                response_serializer=_passthrough(handler.response_serializer),
            )
        if handler.stream_stream:
            return grpc.stream_stream_rpc_method_handler(
                self._bidi(method, handler.stream_stream),
                request_deserializer=_tolerant(handler.request_deserializer),
                response_serializer=_passthrough(handler.response_serializer),
            )
        return handler

    def _finish(
        self, method: str, request: Any, started: float, exc: BaseException | None,
        context: grpc.aio.ServicerContext,
    ) -> None:
        """Log the call and, for a failure, set the call's status.

        A failure is answered by setting the status, not by `context.abort`: abort raises an
        exception that the call's state keeps, and its traceback holds this frame, the context
        and so the call state itself: a reference cycle per refused call, which keeps the
        request (and gRPC's buffers for it) alive until the cycle collector runs. Under a flood
        of refused requests the memory held grows with every refusal (bench/abuse.py flood;
        figures in bench/RESULTS.md, "Abuse")."""
        outcome = conclude(method, request_fields(request), started, exc, self.metrics)
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

    def _cancelled(self, method: str, request: Any, started: float) -> None:
        conclude(method, request_fields(request), started, None, self.metrics,
                 ended="CANCELLED")

    def _unary(self, method: str, behaviour: Behaviour) -> Behaviour:
        async def wrapped(request: Any, context: grpc.aio.ServicerContext) -> Any:
            started = time.perf_counter()
            try:
                self._admit(method, context)
                _check_decoded(request)
                reply = await behaviour(request, context)
            except asyncio.CancelledError:
                self._cancelled(method, request, started)
                raise
            except grpc.aio.AbortError:
                raise
            except Exception as exc:
                self._finish(method, request, started, exc, context)
                return None  # the status is set; gRPC sends no message with it
            self._finish(method, request, started, None, context)
            return reply

        return wrapped

    def _stream(self, method: str, behaviour: Behaviour) -> Behaviour:
        async def wrapped(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            started = time.perf_counter()
            peer = context.peer()
            caller: str | None = None
            try:
                authorization = self._admit(method, context)
                _check_decoded(request)
                caller = self.admission.enter_stream(authorization, peer)
                async for reply in behaviour(request, context):
                    yield reply
            except (asyncio.CancelledError, GeneratorExit):
                self._cancelled(method, request, started)
                raise
            except grpc.aio.AbortError:
                raise
            except Exception as exc:
                self._finish(method, request, started, exc, context)
                return  # the status is set: the stream ends with it
            finally:
                if caller is not None:
                    self.admission.leave_stream(peer, caller)
            self._finish(method, request, started, None, context)

        return wrapped

    def _bidi(self, method: str, behaviour: Behaviour) -> Behaviour:
        """A session (the one bidirectional call): admitted and counted as a stream when it
        opens, logged when it ends; each message it reads must decode (a stream that sends
        bytes of another type is malformed and ends INVALID_ARGUMENT). The actions on it
        are admitted and logged one by one by the session itself (calls.SessionCalls)."""

        async def wrapped(requests: AsyncIterator[Any],
                          context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            started = time.perf_counter()
            peer = context.peer()
            caller: str | None = None
            try:
                try:
                    authorization = self._admit(method, context)
                    caller = self.admission.enter_stream(authorization, peer)
                except Exception:
                    await _opening(requests)
                    raise
                async for reply in behaviour(_decoded(requests), context):
                    yield reply
            except (asyncio.CancelledError, GeneratorExit):
                self._cancelled(method, None, started)
                raise
            except grpc.aio.AbortError:
                raise
            except Exception as exc:
                self._finish(method, None, started, exc, context)
                return
            finally:
                if caller is not None:
                    self.admission.leave_stream(peer, caller)
            self._finish(method, None, started, None, context)

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
