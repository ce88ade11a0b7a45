"""Our own work per move, without gRPC: the service's operations in this process, on Redis.

    python bench/inprocess.py [--games 64] [--seconds 6] [--rounds 3] [--log-level info]

A GameService is built as the server builds it (GameStore over the pipelined RedisPipe
connection, a FeedHub, the collector tuned by RISK_GC_THRESHOLD's default) on a redis-server of
its own (AOF, appendfsync everysec), and 64 classic
games of 4 seats are played by bot plans (bench/service.py's `make_plan`) with one move in
flight per game:
- `submit`: `GameService.submit`, what the unary SubmitAction does below the servicer;
- `session`: the same moves through `GameService.session`, one acks-only session per seat fed
  from an in-memory request stream, each action put through `server.calls.SessionCalls` (the
  admission and the log line; no metrics) as the gRPC Session puts it.
Printed per round and as medians: moves/s and this process's CPU per move (time.process_time,
the whole process: the harness, the operations, the Redis client), and session ÷ submit.
Compared with the server's CPU per move through gRPC (bench/peers.py, bench/ab.py), what is
left is the transport; compared with bench/peers.py's grpc.aio floor, this is our own work.
A profile: `py-spy record --pid` on this process while it measures, or `--cprofile PATH`.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import redis.asyncio as aioredis  # noqa: E402
import uvloop  # noqa: E402

from bench.service import Plan, make_plan  # noqa: E402 - needs ROOT on sys.path
from risk_proto.risk.v1 import service_pb2, session_pb2  # noqa: E402
from risk_service import logs  # noqa: E402
from risk_service.__main__ import tune_gc  # noqa: E402
from risk_service.feed import FeedHub, reader_client  # noqa: E402
from risk_service.operations import GameService  # noqa: E402
from risk_service.operations.identity import Caller  # noqa: E402
from risk_service.server.calls import Admission, SessionCalls  # noqa: E402
from risk_service.server.status import rich_status  # noqa: E402
from risk_service.settings import Settings  # noqa: E402
from risk_service.store.game_store import GameStore  # noqa: E402
from risk_service.store.keys import Keys  # noqa: E402
from risk_service.store.pipe import RedisPipe  # noqa: E402
from risk_testing.redis_server import RedisServer  # noqa: E402
from risk_testing.rpc import create_request  # noqa: E402

PLAYERS = 4
PLAN = 3000


@dataclass
class Game:
    game_id: str
    tokens: list[str]
    start: int  # the version once every seat is taken
    plan: Plan
    version: int

    def next(self) -> tuple[int, session_pb2.SessionAction] | None:
        step = self.version - self.start
        if step >= len(self.plan):
            return None  # the game ended (or the plan is used up)
        seat, action = self.plan[step]
        return seat, session_pb2.SessionAction(action=action, expected_version=self.version,
                                               request_id=f"b{self.version}")


def session_calls() -> SessionCalls:
    """What the gRPC Session puts each action through (server/interceptor.py), with the
    service's default limits (none) and no metrics: admission, the log line, the status."""
    return SessionCalls(Admission(), None, rich_status, caller=Caller(peer="ipv4:127.0.0.1:1"),
                        prefix="/risk.v1.RiskService/Session")


async def new_games(games: GameService, store: GameStore, count: int, seed: int) -> list[Game]:
    made = []
    for i in range(count):
        request = create_request(seed=seed + i, players=PLAYERS)
        game_id = (await games.commands.create(request)).game.game_id
        tokens = [(await games.commands.join(service_pb2.JoinGameRequest(game_id=game_id, seat=s)))
                  .seat_token for s in range(PLAYERS)]
        record = await store.load(game_id)
        assert record is not None
        made.append(Game(game_id, tokens, record.version,
                         make_plan(request.options, seed + i, PLAN), record.version))
    return made


class Budget:
    """When a phase ends: at a time (`--seconds`), or after a number of moves in all
    (`--moves`, which makes the work of a phase the same from run to run)."""

    def __init__(self, stop: float, moves: int = 0) -> None:
        self.stop, self.left = stop, moves or -1

    def more(self) -> bool:
        if self.left == 0 or time.monotonic() >= self.stop:
            return False
        self.left -= 1
        return True


async def submit_loop(games: GameService, game: Game, budget: Budget) -> int:
    moves = 0
    while (step := game.next()) is not None and budget.more():
        seat, action = step
        reply = await games.moves.submit(service_pb2.SubmitActionRequest(
            game_id=game.game_id, action=action.action, expected_version=action.expected_version,
            request_id=action.request_id),
            Caller.of(game.tokens[seat]))
        game.version = service_pb2.SubmitActionResponse.FromString(reply).version
        moves += 1
    return moves


async def session_loop(games: GameService, game: Game, budget: Budget) -> int:
    inboxes = [asyncio.Queue[session_pb2.SessionRequest | None]() for _ in range(PLAYERS)]

    async def requests(seat: int) -> AsyncIterator[session_pb2.SessionRequest]:
        yield session_pb2.SessionRequest(open=session_pb2.SessionOpen(
            game_id=game.game_id, acks_only=True))
        while (item := await inboxes[seat].get()) is not None:
            yield item

    outputs = [aiter(games.sessions.run(requests(seat), Caller.of(game.tokens[seat]),
                                        session_calls()))
               for seat in range(PLAYERS)]
    moves = 0
    while (step := game.next()) is not None and budget.more():
        seat, action = step
        await inboxes[seat].put(session_pb2.SessionRequest(submit=action))
        reply = session_pb2.SessionResponse.FromString(await anext(outputs[seat]))
        game.version = service_pb2.SubmitActionResponse.FromString(reply.ack.submitted).version
        moves += 1
    for seat in range(PLAYERS):
        await inboxes[seat].put(None)
        async for _ in outputs[seat]:
            pass
    return moves


async def measure(args: argparse.Namespace, url: str) -> dict[str, list[tuple[float, float]]]:
    client = aioredis.Redis.from_url(url)
    try:
        keys = Keys()
        store = GameStore(client, keys, RedisPipe(url))
        hub = FeedHub(client, keys, reader_client=lambda: reader_client(url, 5000), readers=1)
        games = GameService(store, hub, clock_ms=lambda: int(time.time() * 1000))
        results: dict[str, list[tuple[float, float]]] = {"submit": [], "session": []}
        modes = args.modes.split(",")
        for r in range(args.rounds):
            for mode in modes if r % 2 == 0 else modes[::-1]:
                played = await new_games(games, store, args.games, args.seed + 1000 * r)
                loop = submit_loop if mode == "submit" else session_loop
                warm = Budget(math.inf, args.warmup_moves) if args.moves else \
                    Budget(time.monotonic() + 1.0)
                await asyncio.gather(*(loop(games, g, warm) for g in played))
                profile = cProfile.Profile() if args.cprofile else None
                cpu, start = time.process_time(), time.monotonic()
                budget = Budget(math.inf if args.moves else start + args.seconds, args.moves)
                if profile is not None:
                    profile.enable()
                moves = sum(await asyncio.gather(*(loop(games, g, budget) for g in played)))
                if profile is not None:
                    profile.disable()
                    profile.dump_stats(f"{args.cprofile}.{mode}.{r + 1}")
                cpu, took = time.process_time() - cpu, time.monotonic() - start
                ended = sum(g.next() is None for g in played)
                print(f"round {r + 1}, {mode}: {moves} moves in {took:.1f} s, "
                      f"{moves / took:,.0f}/s, {cpu / moves * 1e6:.1f} µs of CPU per move"
                      f" ({ended} of {len(played)} games ended before the phase did)",
                      flush=True)
                results[mode].append((moves / took, cpu / moves * 1e6))
        return results
    finally:
        await client.aclose()


def run_child(args: Sequence[str], *, env: Mapping[str, str] | None = None,
              timeout: float = 300) -> tuple[list[str], dict[str, dict[str, float]]]:
    """This benchmark run as a child process with `args` and `--json` (on `env`'s PYTHONPATH,
    say): the lines it printed before its medians, and the medians by mode."""
    run = subprocess.run([sys.executable, str(Path(__file__).resolve()), *args, "--json"],
                         env=env, cwd=ROOT, capture_output=True, text=True, check=True,
                         timeout=timeout)
    *lines, medians = run.stdout.splitlines()
    return lines, json.loads(medians)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=0,
                        help="each measured phase plays this many moves in all instead of "
                             "--seconds (after --warmup-moves): the same work every run")
    parser.add_argument("--warmup-moves", type=int, default=200)
    parser.add_argument("--modes", default="submit,session",
                        help="which phases run, in order")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-level", default="info", help="as the service's RISK_LOG_LEVEL")
    parser.add_argument("--json", action="store_true",
                        help="end with one more line: the medians as JSON, {mode: {moves_per_s, "
                             "cpu_us_per_move}} (bench/peers.py reads it)")
    parser.add_argument("--cprofile", metavar="PATH",
                        help="profile each measured phase with cProfile into PATH.MODE.ROUND "
                             "(deterministic, so call-heavy code looks dearer than it is)")
    args = parser.parse_args(argv)
    # the log lines go where a service's would, minus the disk: their cost is the encoding
    # and the write, which /dev/null still takes
    logs.configure_logging(args.log_level, open(os.devnull, "wb"))  # noqa: SIM115
    # as `python -m risk_service` does: at Python's default thresholds the collector took a
    # quarter of the session phase here (it re-scans the harness's plans too)
    tune_gc(Settings().gc_threshold)
    with tempfile.TemporaryDirectory(prefix="risk-inprocess-") as work:
        redis = RedisServer(Path(work) / "redis", appendfsync="everysec")
        redis.start()
        try:
            results = uvloop.run(measure(args, redis.url))
        finally:
            redis.stop()
    rate = {m: statistics.median(r for r, _ in runs) for m, runs in results.items() if runs}
    cpu = {m: statistics.median(c for _, c in runs) for m, runs in results.items() if runs}
    print(f"medians of {args.rounds} round(s): " + "; ".join(
        f"{m} {rate[m]:,.0f} moves/s, {cpu[m]:.1f} µs per move" for m in rate)
        + (f"; session ÷ submit CPU per move ratio {cpu['session'] / cpu['submit']:.2f}"
           if len(cpu) == 2 else ""))
    if args.json:
        print(json.dumps({m: {"moves_per_s": rate[m], "cpu_us_per_move": cpu[m]} for m in rate}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
