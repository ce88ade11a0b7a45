"""The service's log output: one JSON object per line on stdout, through structlog.

Every line has the same shape: `event`, `level`, `logger` and `timestamp`, plus its fields and
whatever is bound to structlog's contextvars where it was logged. Our own lines are structlog's;
the standard library's `logging` records of the libraries the service runs on (uvicorn, grpc's
Python side, asyncio, redis-py, and Python's warnings) go through one root handler whose
`structlog.stdlib.ProcessorFormatter` renders them with the same timestamp and encoder, so
nothing reaches stdout or stderr as plain text (before, they went to `logging`'s last-resort
handler: unformatted, on stderr, and only from WARNING up).

Every RPC writes a line (server.calls), so the line's cost is part of every call's cost:
measured in the running service, structlog's stock ISO `TimeStamper` (a `datetime` per line)
and the standard library's `json` made the line a large share of a call's time on the event
loop (figures in bench/RESULTS.md, session 4). Here the timestamp reuses its formatted second
and the line is encoded by orjson; our own lines bypass `logging` altogether (structlog's
`BytesLogger`), so routing the libraries' records costs them nothing.
Lines are written and flushed one by one, so a crash loses none that were logged.

A call's own fields (its method, game id and request id: server.calls binds them once as the
call begins) are one context variable here, `CALL_FIELDS`, holding the call's mapping, merged
into every line logged while it is set, ours and the libraries' alike. One variable rather
than a structlog contextvar per field: binding three through `structlog.contextvars` and
merging them made every RPC's line 2.6 µs (43%) dearer, measured in-process; one `set`, one
`reset` and one lookup per line cost next to nothing, and a field the call learns later is
added to the mapping it holds. What else is bound through `structlog.contextvars` is merged
as before.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Mapping, MutableMapping
from contextvars import ContextVar
from typing import Any, BinaryIO

import orjson
import structlog

_NS_PER_S = 1_000_000_000
# `structlog.get_logger()` without a name: the service's own modules
DEFAULT_LOGGER = "risk_service"


# the fields of the call running in this context (server.calls.Bound), or None
CALL_FIELDS: ContextVar[Mapping[str, Any] | None] = ContextVar("risk_call_fields",
                                                               default=None)


def _call_fields(_logger: Any, _method: str, event: MutableMapping[str, Any]
                 ) -> MutableMapping[str, Any]:
    """The running call's fields on the line (what the line names itself wins)."""
    fields = CALL_FIELDS.get()
    if fields is not None:
        for key, value in fields.items():
            event.setdefault(key, value)
    return event


class _UtcStamp:
    """`logger` and `timestamp`: the logger's name, and the wall-clock time in UTC, ISO 8601
    with microseconds and a Z. One processor for both: it runs on every RPC's line."""

    __slots__ = ("formatted",)

    def __init__(self) -> None:
        # (second, its date and time formatted): one tuple, so a line logged from another
        # thread never pairs one second with another second's text
        self.formatted = (-1, "")

    def now(self) -> str:
        second, ns = divmod(time.time_ns(), _NS_PER_S)
        formatted = self.formatted
        if formatted[0] != second:  # a new second: format its date and time once
            formatted = self.formatted = (
                second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
        return f"{formatted[1]}.{ns // 1000:06d}Z"

    def __call__(self, logger: Any, _method: str, event: MutableMapping[str, Any]
                 ) -> MutableMapping[str, Any]:
        record = event.get("_record")
        event["logger"] = (record.name if record is not None
                           else logger.name or DEFAULT_LOGGER)
        event["timestamp"] = self.now()
        return event


def _dumps(event: Any, default: Any = None, **_: Any) -> bytes:
    """orjson's encoding; what orjson refuses (integers beyond 64 bits, non-string keys)
    goes through the standard library instead, so no line is ever lost to its encoder."""
    try:
        return orjson.dumps(event, default=default)
    except TypeError:
        return json.dumps(event, default=default).encode()


def _dumps_text(event: Any, default: Any = None, **_: Any) -> str:
    """`_dumps` as text: what `logging.Formatter.format` must return."""
    return _dumps(event, default).decode()


class _LineHandler(logging.Handler):
    """Writes each formatted record as one line on the same binary stream as structlog's
    lines, flushed at once. One `write` per line: the stream's own lock keeps it whole
    beside lines written from other threads (grpc's and uvicorn's)."""

    def __init__(self, out: BinaryIO) -> None:
        super().__init__()
        self.out = out

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.out.write(self.format(record).encode() + b"\n")
            self.out.flush()
        except Exception:  # logging's contract: a failed line never raises
            self.handleError(record)


def configure_logging(level: str, out: BinaryIO | None = None) -> None:
    """JSON lines on `out` (stdout by default), context bound through contextvars; records
    below `level` cost a no-op call. The root `logging` logger writes the same lines on the
    same stream (replacing a handler an earlier call installed), from `level` up."""
    out = out or sys.stdout.buffer
    number = logging.getLevelNamesMapping()[level.upper()]
    stamp = _UtcStamp()
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            _call_fields,
            structlog.processors.add_log_level,
            stamp,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(serializer=_dumps),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(number),
        logger_factory=structlog.BytesLoggerFactory(out),
        cache_logger_on_first_use=True,
    )
    handler = _LineHandler(out)
    handler.setFormatter(structlog.stdlib.ProcessorFormatter(
        # a record's own message (its %-arguments applied) is the line's `event`
        foreign_pre_chain=[
            structlog.contextvars.merge_contextvars,
            _call_fields,
            structlog.processors.add_log_level,
            stamp,
        ],
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(serializer=_dumps_text),
        ],
    ))
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _LineHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(number)
    # `warnings.warn` (a coroutine never awaited, a deprecation) as a `py.warnings` line
    logging.captureWarnings(True)
