"""Many streamed games: Redis connections, descriptors and delivery latency by game count.

    python bench/streams.py [--games 100,1000,10000] [--rate 500] [--per-channel 200]

Starts its own redis-server (AOF on, `appendfsync everysec`) and one `python -m risk_service`
process on it. For each count N: N classic games are created, one spectator stream is opened
on each (N distinct games, `--per-channel` streams per client connection, all in this one
client process), then one event per game is committed (JoinGame of seat 0) at `--rate` games
a second. Printed per N:

- Redis connections: CLIENT LIST (type normal) on the service's Redis, minus this client's
  own, once every stream is open and again after the events;
- descriptors: entries of /proc/<service pid>/fd at the same two moments;
- delivery: each stream's receipt of its game's join minus the time the JoinGame reply came
  back (p50, p99, max), and how many streams got no event or failed (with their statuses).
  Baseline: the empty Ping's p99 with one call in flight, measured in the same run before and
  after, as bench/service.py does.

The service runs with the descriptor limit this process has (raise it with `ulimit -n` or
`--nofile`, which also raises this process's own; the client needs one per connection).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

import grpc
import redis.asyncio

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import stack  # noqa: E402 - needs ROOT
from bench.service import percentile, say  # noqa: E402
from risk_proto.risk.v1 import service_pb2, service_pb2_grpc  # noqa: E402
from risk_testing.rpc import create_request  # noqa: E402

CALL_TIMEOUT_S = 60.0
SET_UP_IN_FLIGHT = 64


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="100,1000,10000",
                        help="comma-separated counts of streamed games, one run each")
    parser.add_argument("--rate", type=float, default=500.0,
                        help="games a second that get their event")
    parser.add_argument("--per-channel", type=int, default=200,
                        help="streams per client connection (the service allows 256)")
    parser.add_argument("--nofile", type=int, default=0,
                        help="raise RLIMIT_NOFILE (this process and the service) to this")
    parser.add_argument("--log-level", default="warning", help="the service's RISK_LOG_LEVEL")
    return parser.parse_args(argv)


def descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


async def connections(client: redis.asyncio.Redis) -> str:
    """"<connections> (<of them blocked in XREAD>)", this client's own left out."""
    mine = await client.client_id()
    others = [c for c in await client.client_list(_type="normal") if int(c["id"]) != mine]
    readers = sum(1 for c in others if c.get("cmd") == "xread")
    return f"{len(others)} ({readers} in XREAD)"


async def bounded(calls: list[Any], at_once: int) -> list[Any]:
    gate = asyncio.Semaphore(at_once)

    async def one(call: Any) -> Any:
        async with gate:
            return await call()

    return await asyncio.gather(*(one(c) for c in calls), return_exceptions=True)


async def ping_p99(stub: Any, seconds: float = 1.5) -> float:
    lat = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.perf_counter()
        await stub.Ping(service_pb2.PingRequest(), timeout=CALL_TIMEOUT_S)
        lat.append(time.perf_counter() - t)
    lat.sort()
    return percentile(lat, 99) * 1e3


async def run_one(count: int, args: argparse.Namespace, target: str, *, pid: int,
                  client: redis.asyncio.Redis, baseline: float) -> None:
    channels = [grpc.aio.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in range(math.ceil(count / args.per_channel))]
    stubs = [service_pb2_grpc.RiskServiceStub(c) for c in channels]  # type: ignore[no-untyped-call]
    started = time.monotonic()
    created = await bounded([
        (lambda i=i: stubs[i % len(stubs)].CreateGame(create_request(seed=i, players=3),
                                                      timeout=CALL_TIMEOUT_S))
        for i in range(count)], SET_UP_IN_FLIGHT)
    games = [c.game for c in created if not isinstance(c, BaseException)]
    received: dict[int, int] = {}
    errors: list[str] = []

    async def stream(i: int, game: Any) -> None:
        call = stubs[i // args.per_channel].StreamEvents(service_pb2.StreamEventsRequest(
            game_id=game.game_id, after_seq=game.last_seq))
        try:
            async for _reply in call:
                received.setdefault(i, time.monotonic_ns())
        except asyncio.CancelledError:
            call.cancel()
            raise
        except grpc.aio.AioRpcError as error:
            errors.append(f"{error.code().name} {error.details()}")

    tasks = []
    for i, game in enumerate(games):
        tasks.append(asyncio.create_task(stream(i, game)))
        if i % args.per_channel == args.per_channel - 1:
            await asyncio.sleep(0.05)
    await asyncio.sleep(2.0)  # every stream registered with the service's feed
    open_conns, open_fds = await connections(client), descriptors(pid)
    set_up = time.monotonic() - started

    replied: dict[int, int] = {}
    join_errors: list[str] = []

    async def join(i: int, game: Any) -> None:
        try:
            await stubs[i % len(stubs)].JoinGame(service_pb2.JoinGameRequest(
                game_id=game.game_id, seat=0), timeout=CALL_TIMEOUT_S)
            replied[i] = time.monotonic_ns()
        except grpc.aio.AioRpcError as error:
            join_errors.append(error.code().name)

    t0 = time.monotonic()
    joins = []
    for i, game in enumerate(games):
        joins.append(asyncio.create_task(join(i, game)))
        await asyncio.sleep(max(0.0, t0 + (i + 1) / args.rate - time.monotonic()))
    await asyncio.gather(*joins)
    deadline = time.monotonic() + 10
    while len(received) < len(replied) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    after_conns, after_fds = await connections(client), descriptors(pid)
    lat = sorted((received[i] - replied[i]) / 1e6 for i in replied if i in received)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for channel in channels:
        await channel.close()
    missing = len(replied) - len(lat)
    say(f"{count} streamed games: Redis connections {open_conns} (streams open), {after_conns} "
        f"(after the events) | service descriptors {open_fds}, {after_fds} | delivery "
        f"reply->receipt p50 {percentile(lat, 50):.2f} ms, p99 {percentile(lat, 99):.2f} ms, "
        f"max {lat[-1] if lat else math.nan:.1f} ms over {len(lat)} games (ratio p99 / ping "
        f"p99 {percentile(lat, 99) / baseline:.1f}) | {len(games)} of {count} created, "
        f"{len(join_errors)} joins failed, {missing} streams without their event, "
        f"{len(errors)} stream errors | set-up {set_up:.0f} s")
    for error in sorted(set(errors))[:5]:
        say(f"  ! stream error: {error} (x{errors.count(error)})")
    for error in sorted(set(join_errors))[:3]:
        say(f"  ! join error: {error} (x{join_errors.count(error)})")


async def bench(args: argparse.Namespace, target: str, pid: int, redis_url: str) -> None:
    client = redis.asyncio.Redis.from_url(redis_url)
    async with grpc.aio.insecure_channel(target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)  # type: ignore[no-untyped-call]
        before = await ping_p99(stub)
        say(f"idle: Redis connections {await connections(client)}, service descriptors "
            f"{descriptors(pid)}, ping p99 (1 in flight) {before:.2f} ms")
        for count in (int(n) for n in args.games.split(",") if n):
            await run_one(count, args, target, pid=pid, client=client, baseline=before)
        after = await ping_p99(stub)
        say(f"ping p99 (1 in flight) before {before:.2f} ms, after {after:.2f} ms")
    await client.aclose()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.nofile:
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(args.nofile, hard), hard))
    say(f"RLIMIT_NOFILE (client and service): {resource.getrlimit(resource.RLIMIT_NOFILE)[0]}")
    with stack(vars(args), args.log_level) as st:
        asyncio.run(bench(args, st.service.target, st.service_pid, st.redis.url))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
