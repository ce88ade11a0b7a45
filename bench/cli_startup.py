"""How long the `risk` command and the service take to start, against `python -c pass` in the
same run.

Every `risk` command is a fresh process, so its imports are paid on each one, by users and by
the tests that run the console script; so is every service start (a restart, a worker the
`RISK_WORKERS` parent replaces, each of the tests' service processes). This runs, alternately
and `--runs` times each: `python -c pass` (the interpreter alone, the baseline), `risk --help`
(parsing only, no service), `risk list` against a service of its own (bench/common.py's Redis +
service: one real round trip) and `python -m risk_service` from its start until its health
check answers SERVING, then SIGTERM until it exits (risk_testing.harness's ServiceProcess,
on the same Redis), and prints each one's median wall time and mean CPU time (user + system of
the child) with its ratio to the baseline's.
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import stack  # noqa: E402 - needs ROOT
from bench.service import say  # noqa: E402
from risk_testing.harness import ServiceProcess  # noqa: E402

RISK = str(Path(sys.executable).with_name("risk"))


def run_once(command: list[str]) -> tuple[float, float]:
    """(wall seconds, child CPU seconds) of one run of `command`, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def serve_once(service: ServiceProcess) -> tuple[float, float]:
    """(wall seconds from the start to SERVING, CPU seconds of the whole run) of one service
    started, checked SERVING and stopped with SIGTERM."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    service.start()
    wall = time.perf_counter() - started
    if service.stop() != 0:
        raise RuntimeError(f"the service exited with {service.proc and service.proc.returncode}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command")
    args = parser.parse_args()
    with stack({"runs": args.runs}, "warning") as st:
        env_target = st.service.target
        served = ServiceProcess(st.redis.url, st.work, RISK_LOG_LEVEL="warning")
        commands: dict[str, Callable[[], tuple[float, float]]] = {
            "python -c pass": functools.partial(run_once, [sys.executable, "-c", "pass"]),
            "risk --help": functools.partial(run_once, [RISK, "--help"]),
            "risk list": functools.partial(run_once, [RISK, "list", "--target", env_target]),
            "risk-service to SERVING, then SIGTERM": functools.partial(serve_once, served),
        }
        # one unmeasured run each: the first start reads .pyc files from a cold cache
        for command in commands.values():
            command()
        walls: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):  # interleaved, so a burst of load hits every command alike
            for name, command in commands.items():
                wall, cpu = command()
                walls[name].append(wall)
                cpus[name].append(cpu)
    base_wall = statistics.median(walls["python -c pass"])
    base_cpu = statistics.mean(cpus["python -c pass"])
    say(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name in commands:
        wall = statistics.median(walls[name])
        cpu = statistics.mean(cpus[name])
        say(f"{name}: wall median={wall * 1000:.0f} ms ({wall / base_wall:.1f}x baseline), "
            f"cpu mean={cpu * 1000:.0f} ms ({cpu / base_cpu:.1f}x baseline)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
