"""The sweepers' scan of the waiting and active games (sweeper.py, `abandon_idle`): what one
minute's scan costs a deployment of several processes, this checkout against commit REV.

    python bench/idle_scan.py [--base REV] [--games 10000] [--processes 4] [--rounds 3]

One redis-server of the bench's own holds `--games` active classic games (3 seats, started).
Each run is one minute's sweep of a deployment: `--processes` service processes (GameServices
in one child process, `in_process_service(pipe=True)`: each with its own process id, sweeper
and store pipe, as server/app.py builds a process's store for a single Redis) sweep once
each, with the scan due in all of them. The side's code is the checkout's (this one, "new")
or commit REV's ("base", a git worktree under bench/.scratch/idle-scan-base, by bench/ab.py's
`worktree`), and the sides alternate, the order swapped each round, on the same games. Three
cases, each with its clock:
- `fresh`: the games were played a second ago (the clock is their creation's plus 1 s);
- `unchanged`: nobody moved in them for over a minute (STALLED_MS), as in correspondence
  play, so the scan looks at each one's deadline and bots;
- `list`: not a sweep: one process walks ListGames' pages of the active games (the largest
  page), which reads its games with the same `GameStore.load_many`.
Printed per run and as medians: the processes' CPU per game (summed over them), Redis' CPU per
game and the bytes Redis sent per game (INFO's `total_net_output_bytes`), and new ÷
base. Before each run the scan's turn is deleted (a deployment starting), so a side that takes
turns starts with nobody holding one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import redis.asyncio as aioredis  # noqa: E402

from bench.ab import python_path, worktree  # noqa: E402 - needs ROOT on sys.path
from bench.peers import load_averages  # noqa: E402

# the clock: the games' creation + this (ms)
CASES = {"fresh": 1_000, "unchanged": 61_000, "list": 1_000}
FIGURES = (("cpu_us", "the processes' CPU per game, us", "{:.1f}"),
           ("redis_cpu_us", "Redis CPU per game, us", "{:.2f}"),
           ("bytes", "bytes Redis sent per game", "{:,.0f}"))
CONCURRENCY = 64


async def create_games(url: str, count: int) -> int:
    """`count` active classic games on `url` by this checkout's service; their creation's
    time (ms)."""
    from risk_proto.risk.v1 import classic_pb2, service_pb2  # noqa: PLC0415
    from risk_service.operations.identity import Caller  # noqa: PLC0415
    from risk_testing.inprocess import in_process_service  # noqa: PLC0415
    from risk_testing.rpc import classic_options  # noqa: PLC0415
    created_ms = int(time.time() * 1000)
    request = service_pb2.CreateGameRequest(
        options=classic_options(players=3, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL,
                                auto_place=True), seed=4, issue_seat_tokens=True)
    gate = asyncio.Semaphore(CONCURRENCY)
    async with in_process_service(url, lambda: created_ms) as games:
        async def one() -> None:
            async with gate:
                reply = await games.commands.create(request, Caller.of(None))
                assert reply.game.status == service_pb2.GAME_STATUS_ACTIVE

        await asyncio.gather(*(one() for _ in range(count)))
    return created_ms


async def sweep(url: str, processes: int, now_ms: int, case: str) -> dict[str, float]:
    """(In the side's child process.) `processes` services sweep once each, the scan due in
    all (for the `list` case, the first walks ListGames' pages of active games instead); the
    CPU and wall time of the sweeps (the walk)."""
    import contextlib  # noqa: PLC0415

    from risk_service.sweeper import Sweeper  # noqa: PLC0415
    from risk_testing.inprocess import in_process_service  # noqa: PLC0415
    async with contextlib.AsyncExitStack() as stack:
        # each process's store on its pipe, as server/app.py builds it for a single Redis
        services = [await stack.enter_async_context(
                        in_process_service(url, lambda: now_ms, pipe=True))
                    for _ in range(processes)]
        sweepers = [Sweeper(games, games.store, interval_ms=250) for games in services]
        cpu, wall = time.process_time(), time.perf_counter()
        if case == "list":
            await walk_list(services[0])
        else:
            for sweeper in sweepers:
                await sweeper.sweep_once()
        return {"cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall}


async def walk_list(games: Any) -> None:
    """Every page of ListGames(status active), as a client's lobby reads them."""
    from risk_proto.risk.v1 import service_pb2  # noqa: PLC0415
    token = ""
    while True:
        page = await games.queries.list(service_pb2.ListGamesRequest(
            status=service_pb2.GAME_STATUS_ACTIVE, page_size=games.limits.max_page_size,
            page_token=token))
        token = page.next_page_token
        if not token:
            return


async def redis_totals(client: aioredis.Redis) -> tuple[float, int]:
    cpu = await client.info("cpu")
    stats = await client.info("stats")
    return cpu["used_cpu_user"] + cpu["used_cpu_sys"], int(stats["total_net_output_bytes"])


async def run_side(root: Path, url: str, args: argparse.Namespace, now_ms: int, case: str
                   ) -> dict[str, float]:
    client = aioredis.from_url(url)
    try:
        # (this checkout's names, in this process: the base's code may have no turn)
        from risk_service.store.keys import Keys  # noqa: PLC0415
        from risk_service.sweeper import IDLE_SCAN  # noqa: PLC0415
        await client.delete(Keys().turn(IDLE_SCAN))
        cpu0, out0 = await redis_totals(client)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            (python_path(root), str(ROOT / "support"), str(ROOT)))}
        done = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).resolve()), "--sweep", url,
            "--processes", str(args.processes), "--now-ms", str(now_ms), "--case", case,
            env=env, stdout=subprocess.PIPE)
        out, _ = await done.communicate()
        if done.returncode != 0:
            raise RuntimeError(f"the {root} side's sweep failed ({done.returncode})")
        cpu1, out1 = await redis_totals(client)
    finally:
        await client.aclose()
    child = json.loads(out.decode().strip().splitlines()[-1])
    return {"cpu_us": child["cpu_s"] * 1e6 / args.games,
            "redis_cpu_us": (cpu1 - cpu0) * 1e6 / args.games,
            "bytes": (out1 - out0) / args.games, "wall_s": child["wall_s"]}


def show(figures: dict[str, float]) -> str:
    return "; ".join(f"{label} {fmt.format(figures[key])}" for key, label, fmt in FIGURES)


async def main(args: argparse.Namespace) -> None:
    from risk_service.redis_server import RedisServer  # noqa: PLC0415
    sides = {"new": ROOT, "base": worktree(args.base, "idle-scan-base")}
    print(f"load averages at the start: {load_averages()}")
    with tempfile.TemporaryDirectory(prefix="idle-scan-") as work:
        redis = RedisServer(Path(work), appendfsync="everysec")
        redis.start()
        try:
            began = time.perf_counter()
            created_ms = await create_games(redis.url, args.games)
            print(f"{args.games:,} active classic games created in "
                  f"{time.perf_counter() - began:.1f} s; {args.processes} processes sweep "
                  f"them, base {args.base}")
            runs: dict[tuple[str, str], list[dict[str, float]]] = {}
            for case, after_ms in CASES.items():
                for round_number in range(1, args.rounds + 1):
                    order = ["new", "base"] if round_number % 2 else ["base", "new"]
                    for side in order:
                        figures = await run_side(sides[side], redis.url, args,
                                                 created_ms + after_ms, case)
                        runs.setdefault((case, side), []).append(figures)
                        print(f"{case}, round {round_number}, {side}: {show(figures)}; "
                              f"the sweeps took {figures['wall_s']:.2f} s")
        finally:
            redis.stop()
    print(f"\nmedians of {args.rounds} round(s), per game, {args.processes} processes:")
    for case in CASES:
        for key, label, fmt in FIGURES:
            new, base = (statistics.median(run[key] for run in runs[(case, side)])
                         for side in ("new", "base"))
            print(f"  {case}: {label}: new {fmt.format(new)}, base {fmt.format(base)}, "
                  f"new ÷ base {new / base:.3f}")
    print(f"load averages at the end: {load_averages()}")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="HEAD")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sweep", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--now-ms", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--case", choices=CASES, default="fresh", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.games < 1 or args.processes < 1 or args.rounds < 1:
        parser.error("--games, --processes and --rounds are at least 1")
    return args


if __name__ == "__main__":
    arguments = parse_args()
    if arguments.sweep:
        result: Any = asyncio.run(sweep(arguments.sweep, arguments.processes,
                                        arguments.now_ms, arguments.case))
        print(json.dumps(result))
    else:
        asyncio.run(main(arguments))
