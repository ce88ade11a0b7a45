"""Before and after in one sitting: ours' moves job on two checkouts, alternating.

    python bench/ab.py --base REV [--rounds 3] [--games 64] [--seconds 10]
    python bench/ab.py --base-python /path/to/python3.13    # one checkout, two interpreters

The service of this checkout ("new") and of commit REV ("base", checked out into a git
worktree under bench/.scratch/) run bench/peers.py's moves job in turn, the order swapped each
round: `--games` games with one client each, unary SubmitAction, then the same games through one
acks-only Session per seat. Each run starts its own redis-server and service process; the
clients, the harness and the games' seeds are this checkout's for both sides, so only the
service differs. Printed per round and as medians: moves/s and server CPU seconds per 1,000
moves (from /proc) for each way in, and new ÷ base. A change to the per-move path is
measured so, on a machine whose load both sides share. `--new-python` / `--base-python` name
the interpreter that runs each side's service (a virtualenv's python with the service's
dependencies installed; default: this one); without `--base`, both sides run this checkout.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402

from bench.common import stack  # noqa: E402 - needs ROOT
from bench.peers import load_averages, ours_moves  # noqa: E402
from bench.service import new_stub, say  # noqa: E402

FIGURES = (("moves_per_s", "moves/s, unary", "{:,.0f}"),
           ("cpu_per_1000_moves", "server CPU s per 1,000 moves, unary", "{:.3f}"),
           ("session_moves_per_s", "moves/s, sessions", "{:,.0f}"),
           ("session_cpu_per_1000_moves", "server CPU s per 1,000 moves, sessions", "{:.3f}"),
           ("redis_cpu_per_1000_moves", "Redis CPU s per 1,000 moves, unary", "{:.3f}"))


def worktree(rev: str, name: str = "ab-base") -> Path:
    """A checkout of `rev` under bench/.scratch/`name` (made once, moved to `rev` each run;
    a benchmark of its own names its own, so two runs at once never move each other's)."""
    path = ROOT / "bench" / ".scratch" / name
    # the commit `rev` names in this checkout: in the worktree, HEAD (or a branch moved
    # since) would name the worktree's own
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                         check=True, capture_output=True, text=True).stdout.strip()
    if not (path / ".git").exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--force", "--detach",
                        str(path), rev], check=True, capture_output=True)
    subprocess.run(["git", "-C", str(path), "checkout", "--detach", "--force", rev],
                   check=True, capture_output=True)
    return path


def python_path(root: Path) -> str:
    """What makes `python -m risk_service` import `root`'s service, rules and messages ahead
    of the installed (editable) ones."""
    return os.pathsep.join(str(root / part) for part in
                           ("service", "service/rules", "proto/python"))


def interpreter(python: str) -> str:
    version = subprocess.run([python, "-c", "import sys; print(sys.version.split()[0])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    return f"Python {version} ({python})"


async def moves(args: argparse.Namespace, target: str, pids: dict[str, list[int]]
                ) -> dict[str, float]:
    channel = grpc.aio.insecure_channel(target)
    try:
        return await ours_moves(args, target, new_stub(channel), mp.get_context("spawn"), pids)
    finally:
        await channel.close()


def run_side(side: str, root: Path, python: str, args: argparse.Namespace
             ) -> dict[str, float]:
    say(f"\n-- {side} ({root}, {python}): load {load_averages()}")
    with stack({"side": side}, args.log_level, python=python,
               PYTHONPATH=python_path(root)) as st:
        assert st.redis.pid is not None
        return asyncio.run(moves(args, st.service.target,
                                 {"server": [st.service_pid], "redis": [st.redis.pid]}))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="the commit to compare with (default: this checkout)")
    parser.add_argument("--new-python", default=sys.executable,
                        help="the interpreter of this checkout's service")
    parser.add_argument("--base-python", default=sys.executable,
                        help="the interpreter of the base side's service")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=10.0, help="each measured phase")
    parser.add_argument("--client-procs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-level", default="info", help="the services' RISK_LOG_LEVEL")
    args = parser.parse_args(argv)
    args.move_s, args.warmup = args.seconds, 2.0
    head = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                          check=True, capture_output=True, text=True).stdout.strip()
    if args.base:
        base = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.base],
                              check=True, capture_output=True, text=True).stdout.strip()
        sides = {"new": ROOT, "base": worktree(args.base)}
    else:
        base, sides = f"{head} (this checkout)", {"new": ROOT, "base": ROOT}
    pythons = {"new": args.new_python, "base": args.base_python}
    say(f"new: {head} (this checkout) on {interpreter(args.new_python)}; base: {base} on "
        f"{interpreter(args.base_python)}; {args.rounds} round(s); "
        f"load averages {load_averages()}")
    results: dict[str, list[dict[str, float]]] = {"new": [], "base": []}
    for i in range(args.rounds):
        order = ("new", "base") if i % 2 == 0 else ("base", "new")
        for side in order:
            results[side].append(run_side(side, sides[side], pythons[side], args))
        new, old = results["new"][-1], results["base"][-1]
        say(f"round {i + 1} ({', '.join(order)}): " + "; ".join(
            f"{label} {fmt.format(new[key])} vs {fmt.format(old[key])}"
            for key, label, fmt in FIGURES))
    say(f"\n== medians of {args.rounds} round(s), new {head} ÷ base {base}; "
        f"load averages now {load_averages()}")
    for key, label, fmt in FIGURES:
        mid_new = statistics.median(r[key] for r in results["new"])
        mid_old = statistics.median(r[key] for r in results["base"])
        say(f"{label}: new {fmt.format(mid_new)} | base {fmt.format(mid_old)} | "
            f"new ÷ base {mid_new / mid_old:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
