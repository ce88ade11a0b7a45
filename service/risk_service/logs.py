"""The service's log output: one JSON object per line on stdout, through structlog.

Every RPC writes a line (server.interceptor), so the line's cost is part of every call's cost:
measured in the running service, structlog's stock ISO `TimeStamper` (a `datetime` per line)
and the standard library's `json` made the line a large share of a call's time on the event
loop (figures in bench/RESULTS.md, session 4). Here the timestamp reuses its formatted second
and the line is encoded by orjson; the fields, their values and the timestamp's form
(`2026-11-30T03:50:22.926537Z`) are unchanged.
Lines are written and flushed one by one, so a crash loses none that were logged.
"""

from __future__ import annotations

import json
import logging
import sys
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


def configure_logging(level: str, out: BinaryIO | None = None) -> None:
    """JSON lines on `out` (stdout by default), context bound through contextvars; records
    below `level` cost a no-op call."""
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
        logger_factory=structlog.BytesLoggerFactory(out or sys.stdout.buffer),
        cache_logger_on_first_use=True,
    )
