"""Shared by bench/contention.py, bench/stalls.py and bench/memory.py: the service under test.

Each script starts its own redis-server (AOF on, `appendfsync everysec`, as bench/service.py)
and one `python -m risk_service` process on it, and prints what it ran with.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.service import machine_line, say, service_limits  # noqa: E402 - needs ROOT
from risk_testing.harness import ServiceProcess  # noqa: E402
from risk_testing.redis_server import RedisServer  # noqa: E402


@dataclass
class Stack:
    redis: RedisServer
    service: ServiceProcess
    work: Path

    @property
    def service_pid(self) -> int:
        assert self.service.proc is not None
        return self.service.proc.pid


def rss_bytes(pid: int) -> int:
    """VmRSS of a process from /proc/<pid>/status."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


@contextlib.contextmanager
def stack(settings: dict[str, Any], log_level: str = "info", keep: bool = False,
          python: str = sys.executable, http: bool = False,
          **service_env: str) -> Iterator[Stack]:
    """Redis + one service process (run by `python`; with `http`, serving its HTTP port too);
    prints date, machine, versions and `settings`."""
    work = Path(tempfile.mkdtemp(prefix="risk-bench-"))
    redis = RedisServer(work / "redis", appendfsync="everysec")
    redis.start()
    # a benchmark's clients all come from this machine's one address, standing for many
    # callers: the per-caller bound on open streams (1,000) is off unless a benchmark sets it
    service_env.setdefault("RISK_MAX_STREAMS_PER_CALLER", "0")
    service = ServiceProcess(redis.url, work, python=python, http=http,
                             RISK_LOG_LEVEL=log_level, **service_env)
    try:
        service.start()
        assert service.proc is not None
        inherited = " ".join(f"{k}={v}" for k, v in sorted(os.environ.items())
                             if k.startswith("RISK_") and k != "RISK_LOG_LEVEL")
        extra = " ".join(f"{k}={v}" for k, v in service_env.items())
        version = subprocess.run(["redis-server", "--version"], capture_output=True, text=True,
                                 check=False).stdout.split()
        say(f"date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M:%S} UTC; "
            f"machine: {machine_line()}")
        say(f"redis: {' '.join(version[:3])} (own process, pid {redis.pid}), appendonly yes, "
            f"appendfsync {redis.appendfsync}; service: {python} -m risk_service (pid "
            f"{service.proc.pid}) at {service.target}, RISK_LOG_LEVEL={log_level}"
            f"{' ' + extra if extra else ''}; inherited: {inherited or 'none'}")
        say("service limits: " + service_limits({**os.environ, **service.env}))
        say("settings: " + ", ".join(f"{k}={v}" for k, v in settings.items()))
        yield Stack(redis, service, work)
    finally:
        service.stop()
        redis.stop()
        if keep:
            say(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def run_on_stack(args: argparse.Namespace,
                 run: Callable[[argparse.Namespace, str, dict[str, list[int]]], Awaitable[None]]
                 ) -> int:
    """A benchmark's main: its own Redis and service (`stack`, printing `args`), then
    `run(args, service target, {"server": [pid], "redis": [pid]})` on a fresh event loop."""
    with stack(vars(args), args.log_level) as st:
        assert st.redis.pid is not None
        asyncio.run(run(args, st.service.target,
                        {"server": [st.service_pid], "redis": [st.redis.pid]}))
    return 0
