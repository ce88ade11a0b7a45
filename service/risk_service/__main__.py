"""`python -m risk_service`: run the game service with settings from the environment."""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
from collections.abc import Callable

try:
    import uvloop
except ImportError:  # it has no Windows build; asyncio's own loop serves there
    uvloop = None  # type: ignore[assignment]

from risk_service.logs import configure_logging
from risk_service.server.app import serve
from risk_service.settings import Settings
from risk_service.workers import Workers


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


def _workers_argument(argv: list[str]) -> dict[str, str]:
    """`--workers N` on the command line (the same as RISK_WORKERS=N)."""
    parser = argparse.ArgumentParser(prog="python -m risk_service",
                                     description="Run the game service (settings: environment, "
                                     "docs/configuration.md).")
    parser.add_argument("--workers", type=int, help="service processes sharing the address")
    args = parser.parse_args(argv)
    return {} if args.workers is None else {"RISK_WORKERS": str(args.workers)}


def main() -> None:
    settings = Settings.from_env({**os.environ, **_workers_argument(sys.argv[1:])})
    try:
        settings.check_redis()
    except ValueError as exc:
        print(f"risk-service: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    configure_logging(settings.log_level)
    if settings.workers > 1:
        try:
            raise SystemExit(Workers(settings).run())
        except RuntimeError as exc:
            print(f"risk-service: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
    tune_gc(settings.gc_threshold)
    try:
        with asyncio.Runner(loop_factory=loop_factory(settings.event_loop)) as runner:
            runner.run(serve(settings))
    except RuntimeError as exc:  # e.g. no redis-server binary: say so plainly
        print(f"risk-service: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
