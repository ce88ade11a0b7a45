"""Where a move's server CPU goes by thread: the service's threads' user and system time and
context switches per move, per transport.

    python bench/threads.py [--only grpc-session,websocket] [--clients 16] [--seconds 5]
                            [--rounds 2] [--env NAME=VALUE ...] [--perf DIR]

One service (bench/common.py's stack: redis-server with AOF, `python -m risk_service` with its
HTTP port) and `--clients` games in flight, played over each transport of `--only` in turn
(bench/http_port.py's transports: grpc, connect-proto, connect-json, grpc-web, websocket, and
grpc-session, a seat's acks-only Session over gRPC). Around each phase /proc/<pid>/task/*/stat
and status are read; printed per thread group (the main thread, grpc's `event_engine` threads,
its poller thread, named `python`): user and system microseconds per move, voluntary and
involuntary context switches per move.

Why by thread: a gRPC move's server CPU is spent on three kinds of thread (the event loop's,
grpc core's I/O threads, grpc.aio's completion-queue poller), a WebSocket move's on the loop's
alone; the handoffs between them are system time and context switches that a profile of the
loop's thread (py-spy) or an instruction count (bench/instructions.py, which counts user-space
instructions only) does not show. `--env` sets the service's environment (GRPC_EXPERIMENTS,
say); `--perf DIR` records each phase with `perf record -g` (root, or perf_event_paranoid <= 1)
into DIR/KIND.ROUND.data for `perf report --sort comm,dso`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import stack  # noqa: E402 - needs ROOT on sys.path
from bench.http_port import KINDS, make_slots, open_transports, submit_phase  # noqa: E402
from bench.service import say  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
# a thread's figures: user s, system s, voluntary and involuntary context switches
Sample = dict[str, tuple[str, float, float, int, int]]


def threads(pid: int) -> Sample:
    """Each live thread of `pid`: (its name, user s, system s, voluntary and involuntary
    context switches so far)."""
    out: Sample = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            stat = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
            status = Path(f"/proc/{pid}/task/{tid}/status").read_text()
        except OSError:  # it ended meanwhile
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        switches = dict(line.split(":\t") for line in status.splitlines()
                        if line.endswith(tuple("0123456789")) and "ctxt_switches" in line)
        out[tid] = (name, int(fields[11]) / TICKS, int(fields[12]) / TICKS,
                    int(switches["voluntary_ctxt_switches"]),
                    int(switches["nonvoluntary_ctxt_switches"]))
    return out


def per_move(pid: int, before: Sample, after: Sample, moves: float) -> list[str]:
    """Lines of the threads' figures per move between two samples, grouped by name (the
    process's own thread is `main`), dearest first, then their sum. A thread started during
    the phase counts from zero; one that ended during it is missing from the sum."""
    groups: dict[str, list[float]] = {}
    for tid, (name, user, system, vol, invol) in after.items():
        _, user0, system0, vol0, invol0 = before.get(tid, (name, 0.0, 0.0, 0, 0))
        group = groups.setdefault("main" if tid == str(pid) else name, [0.0] * 5)
        for i, value in enumerate(((user - user0) * 1e6, (system - system0) * 1e6,
                                   vol - vol0, invol - invol0, 1)):
            group[i] += value / moves if i < 4 else value
    total = sum(group[0] + group[1] for group in groups.values())
    return [f"  {name:<14} x{count:<3.0f} user {user:6.1f} us, system {system:6.1f} us, "
            f"context switches {vol:5.2f} voluntary, {invol:5.2f} involuntary per move"
            for name, (user, system, vol, invol, count) in sorted(
                groups.items(), key=lambda item: -item[1][0] - item[1][1])
            if user + system >= 0.5 or vol >= 0.05] + [
        f"  threads in all: {total:.1f} us per move"]


@contextlib.contextmanager
def perf_record(pid: int, out: Path | None) -> Iterator[None]:
    if out is None:
        yield
        return
    proc = subprocess.Popen(["perf", "record", "-F", "1999", "-g", "-p", str(pid), "-o",
                             str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(60)


async def measure(args: argparse.Namespace, target: str, http_url: str, pid: int) -> None:
    transports = open_transports(args.only, target, http_url)
    try:
        slots = await make_slots(args, transports["grpc"].stub)
        for kind in args.only:  # warm each transport's connections and code paths
            await submit_phase(transports[kind], slots, 1.0, pid, record=False)
        for round_ in range(args.rounds):
            for kind in args.only:
                with perf_record(pid, args.perf and args.perf / f"{kind}.{round_}.data"):
                    before = threads(pid)
                    figures = await submit_phase(transports[kind], slots, args.seconds, pid)
                    after = threads(pid)
                say(f"round {round_ + 1}, {kind}: {figures.rate:,.0f} moves/s, server CPU "
                    f"{figures.cpu_us:.0f} us per move")
                for note in sorted(set(figures.notes))[:3]:
                    say(f"  ! {note}")
                if moves := round(figures.rate * figures.seconds):
                    for line in per_move(pid, before, after, moves):
                        say(line)
    finally:
        for transport in transports.values():
            await transport.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="grpc-session,websocket",
                        help="the transports, comma-separated")
    parser.add_argument("--clients", type=int, default=16, help="games in flight")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--env", nargs="*", default=[], metavar="NAME=VALUE",
                        help="the service's environment")
    parser.add_argument("--perf", type=Path, help="perf record each phase into this directory")
    args = parser.parse_args()
    args.only = tuple(args.only.split(","))
    if unknown := set(args.only) - set(KINDS):
        parser.error(f"unknown transports {sorted(unknown)}")
    # the actions planned per game in flight (a game over starts the next), for up to 8,000
    # moves/s in all (a WebSocket session's pace here is 6,000-7,000)
    args.plan = math.ceil(8_000 * len(args.only) * (args.rounds * args.seconds + 1)
                          / args.clients) + 50
    if args.perf:
        args.perf.mkdir(parents=True, exist_ok=True)
    env = dict(item.split("=", 1) for item in args.env)
    with stack({"bench": "threads", **env}, "info", http=True, **env) as st:
        asyncio.run(measure(args, st.service.target, st.service.http_url, st.service_pid))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
