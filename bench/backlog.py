"""Late joiners: what spectators who subscribe from seq 0 to a long game cost everyone else.

    python bench/backlog.py [--actions 1500] [--joiners 50] [--join-rate 10] [--seconds 5]

One classic game is played `--actions` actions deep (planned by the engine from its seed, as in
bench/service.py), so its stream holds a few thousand events. Then, with one Ping in flight the
whole time (its latency is what any other call of the process would wait):

- phase A (`--seconds`): nothing else happens; Ping p50 / p99 / max;
- phase B: `--joiners` spectators open StreamEvents from seq 0, `--join-rate` per second, each
  reading its first event and then nothing more (channels with a 1 KiB HTTP/2 window, as
  bench/stalls.py, so the server meets back-pressure at once). The service reads each joiner's
  backlog from Redis, decodes it and starts sending; the Ping latency while they join shows how
  long that holds the event loop, and the service's VmRSS after the last join, against before
  the first, shows what the stalled joiners keep.

Prints Ping p99 and max of phase B ÷ phase A, and the VmRSS growth per joiner. No target of the
performance issue names this case; it is the cost of a stream that starts far behind (see
docs/storage.md, "Live fan-out").
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import rss_bytes, run_on_stack  # noqa: E402 - needs ROOT on sys.path
from bench.service import (  # noqa: E402
    STREAMS_PER_CHANNEL,
    CpuMeter,
    make_plan,
    new_game,
    new_stub,
    percentile,
    say,
)
from bench.stalls import MB, STALLED_CHANNEL_OPTIONS  # noqa: E402
from risk_proto.risk.v1 import service_pb2  # noqa: E402
from risk_testing.rpc import create_request  # noqa: E402

CALL_TIMEOUT_S = 30.0


async def pings(stub: Any, seconds: float) -> list[float]:
    """Ping latencies (ms), one call in flight, for `seconds`."""
    out, request = [], service_pb2.PingRequest()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        t0 = time.perf_counter()
        await stub.Ping(request, timeout=CALL_TIMEOUT_S)
        out.append((time.perf_counter() - t0) * 1e3)
    return sorted(out)


def line(name: str, lat: Sequence[float]) -> str:
    return (f"{name}: {len(lat)} pings, p50 {percentile(lat, 50):.2f} ms, "
            f"p99 {percentile(lat, 99):.2f} ms, max {percentile(lat, 100):.2f} ms")


async def run(args: argparse.Namespace, target: str, pids: dict[str, list[int]]) -> None:
    channel = grpc.aio.insecure_channel(target)
    stub = new_stub(channel)
    game = await new_game(stub, args.seed, args.players)
    game.plan = make_plan(create_request(players=args.players).options, args.seed, args.actions)
    while game.step < len(game.plan):
        request, metadata = game.request()
        reply = await stub.SubmitAction(request, metadata=metadata, timeout=CALL_TIMEOUT_S)
        game.version = reply.version
    last_seq = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))
                ).game.last_seq
    say(f"game: {len(game.plan)} actions played (seed {args.seed}, {args.players} seats), "
        f"{last_seq} events in its stream")
    server = pids["server"][0]

    meter = CpuMeter(pids)
    meter.start()
    lat_a = await pings(stub, args.seconds)
    meter.stop()
    say(line("phase A, nobody joining", lat_a) + f" | {meter.line()}")

    channels = [grpc.aio.insecure_channel(target, options=STALLED_CHANNEL_OPTIONS)
                for _ in range(math.ceil(args.joiners / STREAMS_PER_CHANNEL))]
    request = service_pb2.StreamEventsRequest(game_id=game.game_id, after_seq=0)
    calls: list[Any] = []
    first_events: list[float] = []

    async def join() -> None:
        for n in range(args.joiners):
            call = new_stub(channels[n // STREAMS_PER_CHANNEL]).StreamEvents(request)
            calls.append(call)
            t0 = time.perf_counter()
            await call.read()  # its first event; then it stalls
            first_events.append((time.perf_counter() - t0) * 1e3)
            await asyncio.sleep(1 / args.join_rate)

    rss_before = rss_bytes(server)
    meter.start()
    joining = asyncio.create_task(join())
    lat_b: list[float] = []
    while not joining.done():
        lat_b.extend(await pings(stub, 0.5))
    await joining
    meter.stop()
    lat_b.sort()
    await asyncio.sleep(1.0)  # the joiners' handlers settle against back-pressure
    rss_after = rss_bytes(server)
    say(line(f"phase B, {args.joiners} joining from seq 0", lat_b) + f" | {meter.line()}")
    first_events.sort()
    say(f"joiners' first event after: p50 {percentile(first_events, 50):.2f} ms, "
        f"max {percentile(first_events, 100):.2f} ms")
    say(f"late joiners: Ping p99 {percentile(lat_b, 99):.2f} ÷ {percentile(lat_a, 99):.2f} ms = "
        f"{percentile(lat_b, 99) / percentile(lat_a, 99):.2f}, max "
        f"{percentile(lat_b, 100):.2f} ÷ {percentile(lat_a, 100):.2f} ms = "
        f"{percentile(lat_b, 100) / percentile(lat_a, 100):.2f}")
    say(f"late joiners: server VmRSS {rss_before / MB:.1f} -> {rss_after / MB:.1f} MB; growth "
        f"÷ {args.joiners} stalled joiners = {(rss_after - rss_before) / args.joiners / 1024:.0f}"
        f" KiB each ({last_seq} events behind)")
    for call in calls:
        call.cancel()
    for ch in channels:
        await ch.close()
    await channel.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1500, help="actions played first")
    parser.add_argument("--joiners", type=int, default=50)
    parser.add_argument("--join-rate", type=float, default=10.0, help="joiners per second")
    parser.add_argument("--seconds", type=float, default=5.0, help="phase A")
    parser.add_argument("--players", type=int, default=4, help="seats of the classic game")
    parser.add_argument("--seed", type=int, default=3, help="the game's seed")
    parser.add_argument("--log-level", default="info", help="the service's RISK_LOG_LEVEL")
    return run_on_stack(parser.parse_args(argv), run)


if __name__ == "__main__":
    raise SystemExit(main())
