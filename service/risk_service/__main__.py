"""`python -m risk_service`: run the game service with settings from the environment."""

from __future__ import annotations

import asyncio
import gc
import sys
from collections.abc import Callable

try:
    import uvloop
except ImportError:  # it has no Windows build; asyncio's own loop serves there
    uvloop = None  # type: ignore[assignment]

from risk_service.logs import configure_logging
from risk_service.server.app import serve
from risk_service.settings import Settings


def tune_gc(threshold: int) -> None:
    """Collect cycles less often: the service makes few, and with thousands of live streams
    the default thresholds have the collector re-scan the same long-lived objects all the
    time. What exists at start-up (modules, protobuf descriptors) is frozen out of the scans."""
    if threshold <= 0:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(threshold, 20, 20)


def loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop when asked for and installed; None (asyncio's own) otherwise."""
    if name == "uvloop" and uvloop is not None:
        return uvloop.new_event_loop
    return None


def main() -> None:
    settings = Settings.from_env()
    configure_logging(settings.log_level)
    tune_gc(settings.gc_threshold)
    try:
        with asyncio.Runner(loop_factory=loop_factory(settings.event_loop)) as runner:
            runner.run(serve(settings))
    except RuntimeError as exc:  # e.g. no redis-server binary: say so plainly
        print(f"risk-service: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
