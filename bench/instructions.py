"""Instructions per move, counted: a before/after for changes too small for a timed sitting.

    python bench/instructions.py --base REV [--rounds 2] [--moves 1000] [--games 8]
                                 [--modes submit,session]
    python bench/instructions.py --base REV --transport connect-proto [--moves 300]
                                 [--clients 4]

The timed benches on these shared 2-core machines resolve about ±3-5% (bench/RESULTS.md, "the
bench's own noise"), so a change worth 2% of a move cannot be told from noise by timing it.
This counts instead: bench/inprocess.py's moves (the service's operations in one process, on a
redis-server of its own) run under Valgrind's cachegrind (`--cache-sim=no`: instruction counts
only), once with `--moves` W and once with W + `--moves`, and the difference of the two totals
÷ `--moves` is the instructions one move takes, start-up and planning cancelled out. The same
run repeated gives the same count to within 0.1% (the hash seed is fixed, the games' seeds are
the bench's).

Both sides run this checkout's harness; `--base REV`'s side imports the service, rules and
messages of commit REV (a worktree, bench/.scratch/instructions-base, by bench/ab.py's
`worktree`). Printed per mode: instructions per move on each side, new - base and new ÷ base.

`--transport KIND` (grpc, connect-proto, connect-json, grpc-web, websocket, grpc-session)
counts the service process instead: `python -m risk_service` (the side's code) runs under
Valgrind's callgrind with instrumentation off until the games are made and warmed (`--warmup`
moves over that transport); then `callgrind_control` turns it on for `--moves` SubmitActions
(a Session's moves over websocket and grpc-session) with `--clients` in flight, and dumps the
count; `--keep DIR` keeps the dumps, named KIND.SIDE.WINDOW.callgrind.out.PID.N. Two windows, of
`--moves` and of twice that, give the count per call as their difference ÷ `--moves`, so what
runs once per window (the toggles, the service's timers while it waited) cancels out.

What a count does not show: time lost to cache and branch misses, system calls, and the Redis
server's work. It is the Python (and C) work of a move in this process, which is what a change
to the move path changes; a timed sitting (bench/http_port.py, bench/peers.py) still says what
the whole service spends. Valgrind is not a dependency (`apt-get install -y valgrind`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.ab import python_path, worktree  # noqa: E402 - needs ROOT on sys.path
from bench.http_port import KINDS, make_slots, open_transports  # noqa: E402

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def count(side: Path, mode: str, moves: int, games: int, warmup: int) -> int:
    """Instructions of one run of bench/inprocess.py under cachegrind (the python process
    alone: its redis-server is a child valgrind does not follow)."""
    env = {**os.environ, "PYTHONHASHSEED": "0",
           "PYTHONPATH": os.pathsep.join((python_path(side), str(ROOT / "support")))}
    with tempfile.TemporaryDirectory(prefix="risk-instructions-") as work:
        run = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no",
             f"--cachegrind-out-file={work}/out", sys.executable,
             str(ROOT / "bench" / "inprocess.py"), "--rounds", "1", "--modes", mode,
             "--games", str(games), "--moves", str(moves), "--warmup-moves", str(warmup)],
            env=env, capture_output=True, text=True, timeout=900, check=False)
    found = _REFS.search(run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"cachegrind run failed ({run.returncode}):\n{run.stdout}\n"
                         f"{run.stderr[-3000:]}")
    return int(found.group(1).replace(",", ""))


def per_move(side: Path, mode: str, args: argparse.Namespace) -> float:
    small = count(side, mode, args.warmup, args.games, args.warmup)
    large = count(side, mode, args.warmup + args.moves, args.games, args.warmup)
    return (large - small) / args.moves


async def _service_windows(kind: str, target: str, http_url: str, pid: int, *,
                           args: argparse.Namespace, out: Path, side: str) -> list[int]:
    """Play over `kind` with callgrind toggled on for each window; its count per window."""
    transports = open_transports((kind,), target, http_url)
    try:
        slots = await make_slots(argparse.Namespace(
            clients=args.clients, plan=args.warmup + 3 * args.moves + 400, seed=1),
            transports["grpc"].stub)
        await _play(transports[kind], slots, args.warmup)
        counts = []
        for window in (args.moves, 2 * args.moves):
            await asyncio.to_thread(_callgrind, pid, "-i", "on")
            await _play(transports[kind], slots, window)
            await asyncio.to_thread(_callgrind, pid, "-i", "off")
            before = set(out.parent.glob(out.name + "*"))
            await asyncio.to_thread(_callgrind, pid, "-d")
            dumped = sorted(set(out.parent.glob(out.name + "*")) - before)
            counts.append(sum(_summary(path) for path in dumped))
            if args.keep is not None:  # the window's dumps, for callgrind_annotate
                args.keep.mkdir(parents=True, exist_ok=True)
                for path in dumped:
                    shutil.copy(path, args.keep / f"{kind}.{side}.{window}.{path.name}")
        return counts
    finally:
        for transport in transports.values():
            await transport.close()


async def _play(transport: Any, slots: list[Any], moves: int) -> None:
    """`moves` calls in all, the slots' games in turn (as bench/http_port.py plays them)."""
    left = [moves]

    async def run(slot: Any) -> None:
        while left[0] > 0 and (game := slot.current()) is not None:
            left[0] -= 1
            game.version = await transport.play(game)

    await asyncio.gather(*(run(slot) for slot in slots))
    if left[0] > 0:
        raise SystemExit("the games' plans ran out")


def _callgrind(pid: int, *command: str) -> None:
    subprocess.run(["callgrind_control", *command, str(pid)], check=True,
                   capture_output=True, timeout=600)


def _summary(path: Path) -> int:
    """A callgrind dump's instructions (its `totals:` line; `summary:` is not always set)."""
    for line in reversed(path.read_text().splitlines()):
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise SystemExit(f"no totals in {path}")


def service_per_call(side: Path, args: argparse.Namespace) -> float:
    """Instructions of one call over `args.transport` in the service process of `side`."""
    from risk_testing.harness import ServiceProcess  # noqa: PLC0415
    from risk_testing.redis_server import RedisServer  # noqa: PLC0415

    with tempfile.TemporaryDirectory(prefix="risk-instructions-") as work:
        out = Path(work) / "callgrind.out"
        wrapper = Path(work) / "python"
        wrapper.write_text(
            "#!/bin/sh\nexec valgrind --tool=callgrind --instr-atstart=no "
            f"--callgrind-out-file={out}.%p {sys.executable} \"$@\"\n")
        wrapper.chmod(0o755)
        redis = RedisServer(Path(work) / "redis", appendfsync="everysec")
        redis.start()
        service = ServiceProcess(redis.url, Path(work), http=True, python=str(wrapper),
                                 RISK_LOG_LEVEL="info", RISK_MAX_STREAMS_PER_CALLER="0",
                                 PYTHONHASHSEED="0", PYTHONPATH=python_path(side))
        try:
            service.start(timeout=600)
            assert service.proc is not None
            small, large = asyncio.run(_service_windows(
                args.transport, service.target, service.http_url, service.proc.pid,
                args=args, out=out.with_name(f"{out.name}.{service.proc.pid}"),
                side="new" if side == ROOT else "base"))
        finally:
            service.stop()
            redis.stop()
    return (large - small) / args.moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=300,
                        help="moves played before the counted ones, in both runs")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--modes", default="submit,session")
    parser.add_argument("--transport", default="",
                        choices=("", *KINDS),
                        help="count the service process over this transport instead")
    parser.add_argument("--clients", type=int, default=4,
                        help="with --transport: calls in flight")
    parser.add_argument("--keep", type=Path,
                        help="with --transport: copy each window's callgrind dumps here "
                             "(`callgrind_annotate --inclusive=yes FILE` shows where they go)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("needs valgrind: apt-get install -y valgrind")
    sides = {"new": ROOT, "base": worktree(args.base, "instructions-base")}
    if args.transport:
        print(f"instructions per call in the service (callgrind), over {args.transport}: "
              f"{args.clients} in flight, windows of {args.moves} and {2 * args.moves} calls "
              f"after {args.warmup}; new = this checkout, base = {args.base}", flush=True)
        _compare(args.transport, "instructions per call in the service",
                 lambda side: service_per_call(side, args), sides, args.rounds)
        return 0
    print(f"instructions per move, bench/inprocess.py under cachegrind: {args.games} games, "
          f"{args.moves} moves counted after {args.warmup}; new = this checkout, "
          f"base = {args.base}", flush=True)
    for mode in args.modes.split(","):
        _compare(mode, "instructions per move",
                 lambda side, mode=mode: per_move(side, mode, args), sides, args.rounds)
    return 0


def _compare(label: str, unit: str, count_on: Callable[[Path], float],
             sides: dict[str, Path], rounds: int) -> None:
    """`rounds` counts on each side, the order swapped each round; their medians."""
    figures: dict[str, list[float]] = {"new": [], "base": []}
    for round_ in range(rounds):
        for name in ("new", "base") if round_ % 2 == 0 else ("base", "new"):
            figures[name].append(count_on(sides[name]))
            print(f"  {label} round {round_ + 1} {name}: {figures[name][-1]:,.0f}", flush=True)
    new, base = statistics.median(figures["new"]), statistics.median(figures["base"])
    print(f"{label}: new {new:,.0f} | base {base:,.0f} {unit} | new - base {new - base:+,.0f}"
          f" | new ÷ base {new / base:.4f}", flush=True)

if __name__ == "__main__":
    raise SystemExit(main())
