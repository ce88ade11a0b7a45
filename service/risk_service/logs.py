"""The service's log output: one JSON object per line on stdout, through structlog.

Every RPC writes a line (server.interceptor), so the line's cost is part of every call's cost:
measured in the running service, structlog's stock ISO `TimeStamper` (a `datetime` per line)
and the standard library's `json` made the line a large share of a call's time on the event
loop (figures in bench/RESULTS.md, session 4). Here the timestamp reuses its formatted second
and the line is encoded by orjson; the fields, their values and the timestamp's form
(`2026-11-30T03:50:22.926537Z`) are unchanged.

Lines logged during one turn of the service's event loop are written together, with one
system call, at the end of that turn (`_Lines`): a write per line was a tenth of a session
action's CPU on a virtual machine whose system calls are dear (bench/RESULTS.md, issue 21).
A line logged anywhere else (another thread, before the loop is bound or after) is written at
once. What is waiting is written at the latest when the turn ends, at shutdown and at exit: an
exception, SIGTERM or a clean stop loses no line; only a process killed outright (SIGKILL, the
OOM killer) can lose the lines of the turn it was in, a fraction of a millisecond of them.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import logging
import sys
import threading
import time
from collections.abc import MutableMapping
from typing import Any, BinaryIO

import orjson
import structlog

_NS_PER_S = 1_000_000_000


class _UtcStamp:
    """`timestamp`: the wall-clock time in UTC, ISO 8601 with microseconds and a Z."""

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

    def __call__(self, _logger: Any, _method: str, event: MutableMapping[str, Any]
                 ) -> MutableMapping[str, Any]:
        event["timestamp"] = self.now()
        return event


def _dumps(event: Any, default: Any = None, **_: Any) -> bytes:
    """orjson's encoding; what orjson refuses (integers beyond 64 bits, non-string keys)
    goes through the standard library instead, so no line is ever lost to its encoder."""
    try:
        return orjson.dumps(event, default=default)
    except TypeError:
        return json.dumps(event, default=default).encode()


class _Lines:
    """structlog's logger: takes each rendered line (`msg`, under every level's name) and
    writes it to `out`, batched per turn of the bound event loop (the module's docstring)."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.pending: list[bytes] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = -1  # the bound loop's thread
        self.lock = threading.Lock()  # one writer at a time: the loop's flush, another thread

    def msg(self, message: bytes) -> None:
        if self.loop is not None and threading.get_ident() == self.thread:
            if not self.pending:
                self.loop.call_soon(self.flush)
            self.pending.append(message)
            return
        with self.lock:
            self._write_pending()
            self.out.write(message + b"\n")
            self.out.flush()

    log = debug = info = warn = warning = fatal = failure = err = error = critical = \
        exception = msg

    def flush(self) -> None:
        with self.lock:
            self._write_pending()

    def _write_pending(self) -> None:
        pending, self.pending = self.pending, []
        if pending:
            pending.append(b"")
            self.out.write(b"\n".join(pending))
            self.out.flush()

    def bind(self, loop: asyncio.AbstractEventLoop | None) -> None:
        self.flush()
        self.loop = loop
        self.thread = threading.get_ident() if loop is not None else -1


_ACTIVE: list[_Lines] = []  # the configured one (at most one)


def bind_loop(loop: asyncio.AbstractEventLoop | None) -> None:
    """Batch the lines logged on `loop`'s thread (called on it, once it runs); None writes
    what waits and goes back to a write per line (before the loop closes)."""
    for lines in _ACTIVE:
        lines.bind(loop)


def flush() -> None:
    """Write the lines waiting for the end of the loop's turn."""
    for lines in _ACTIVE:
        lines.flush()


atexit.register(flush)


def configure_logging(level: str, out: BinaryIO | None = None) -> None:
    """JSON lines on `out` (stdout by default), context bound through contextvars; records
    below `level` cost a no-op call."""
    flush()
    lines = _Lines(out or sys.stdout.buffer)
    _ACTIVE[:] = [lines]
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            _UtcStamp(),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(serializer=_dumps),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping()[level.upper()]
        ),
        logger_factory=lambda *_args: lines,
        cache_logger_on_first_use=True,
    )
