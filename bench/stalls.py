"""Stalled subscribers: the other subscribers' delivery p99 with 10% stalled, against none stalled.

    python bench/stalls.py [--subscribers 200] [--stalled-share 0.1] [--rate 10]
                           [--baseline-seconds 15] [--seconds 30]

Target: "with 10% of the subscribers stalled, the others' delivery p99 / p99 with none stalled:
<= 1.2, and the server's memory grows by less than 50 MB over 60 s". The default stalled phase
is 30 s to keep the run short; `--seconds 60` runs the full target.

One classic game; a driver (this process) submits the deciding seat's planned action at
`--rate` per second on a fixed schedule for the whole run. N spectator subscribers
(StreamEvents, no token):
- "others" (N - 10%) in `--sub-procs` reader processes, reading throughout;
- phase A (none stalled, `--baseline-seconds`): the remaining 10% are normal readers in one
  more process; delivery latency of the others = receipt of an action's last event minus the
  driver's SubmitAction reply time (CLOCK_MONOTONIC, system-wide), p99 over all deliveries;
- phase B (`--seconds`): that reader process is stopped and replaced by a process opening the
  same number of streams that read their first event (so they are registered) and then never
  read again, on channels with grpc.http2.bdp_probe=0 and grpc.http2.lookahead_bytes=1024 (as
  tests/service/test_slow_subscriber.py), so the server meets back-pressure soon. The others'
  p99 is measured again, and the server's VmRSS (/proc/<pid>/status) at the start and end of
  phase B (and its peak, sampled every 0.5 s). At the end the stalled process reads what is left
  and reports how each stalled stream ended (e.g. RESOURCE_EXHAUSTED = cut off as too slow).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import math
import multiprocessing as mp
import sys
import time
from collections.abc import Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import rss_bytes, run_on_stack  # noqa: E402 - needs ROOT on sys.path
from bench.service import (  # noqa: E402
    FAILED,
    LIVE,
    STREAMS_PER_CHANNEL,
    CpuMeter,
    StreamJob,
    make_plan,
    new_game,
    new_stub,
    percentile,
    say,
    split,
    subscriber_main,
)
from risk_proto.risk.v1 import service_pb2  # noqa: E402
from risk_testing.rpc import create_request  # noqa: E402

CALL_TIMEOUT_S = 30.0
MB = 1024 * 1024


# ---- the stalled subscribers' process -------------------------------------------------------


# a stalled reader's channel: a 1 KiB HTTP/2 window and no BDP probe, so the server meets
# back-pressure after a few messages (as tests/service/test_slow_subscriber.py)
STALLED_CHANNEL_OPTIONS = [("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 1024),
                           ("grpc.use_local_subchannel_pool", 1)]


async def _stalled(job: StreamJob, ready: Any, stop: Any) -> dict[str, int]:
    channels = [grpc.aio.insecure_channel(job.target, options=STALLED_CHANNEL_OPTIONS)
                for _ in range(math.ceil(job.count / STREAMS_PER_CHANNEL))]
    request = service_pb2.StreamEventsRequest(game_id=job.game_id, after_seq=job.after_seq)
    calls = [new_stub(channels[i // STREAMS_PER_CHANNEL]).StreamEvents(request)
             for i in range(job.count)]
    outcome: collections.Counter[str] = collections.Counter()

    async def first(call: Any) -> None:
        try:
            await asyncio.wait_for(call.read(), 30)
            with ready.get_lock():
                ready[LIVE] += 1
        except (grpc.aio.AioRpcError, TimeoutError):
            with ready.get_lock():
                ready[FAILED] += 1

    await asyncio.gather(*(first(c) for c in calls))
    await asyncio.to_thread(stop.wait)  # stalled: nothing is read until the end

    async def drain(call: Any) -> None:
        try:
            while True:
                message = await call.read()
                if message is grpc.aio.EOF:
                    outcome["ended OK"] += 1
                    return
        except grpc.aio.AioRpcError as error:
            outcome[error.code().name] += 1

    tasks = [asyncio.create_task(drain(c)) for c in calls]
    _, pending = await asyncio.wait(tasks, timeout=5)
    outcome["still open, not cut off (read for 5 s at the end)"] += len(pending)
    for call in calls:
        call.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for channel in channels:
        await channel.close()
    return dict(outcome)


def stalled_main(conn: Connection, job: StreamJob, ready: Any, stop: Any) -> None:
    conn.send(asyncio.run(_stalled(job, ready, stop)))


class Procs:
    """Subscriber processes of one kind with a shared ready counter and stop event."""

    def __init__(self, ctx: Any, target: Any, jobs: list[StreamJob]) -> None:
        self.ready = ctx.Array("i", 2)
        self.stop = ctx.Event()
        self.count = sum(j.count for j in jobs)
        self.procs, self.conns = [], []
        for job in jobs:
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=target, daemon=True,
                               args=(child, job, self.ready, self.stop))
            proc.start()
            child.close()
            self.procs.append(proc)
            self.conns.append(parent)

    @property
    def settled(self) -> bool:
        return bool(self.ready[LIVE] + self.ready[FAILED] >= self.count)

    async def finish(self) -> list[Any]:
        self.stop.set()
        out = [await asyncio.to_thread(c.recv) for c in self.conns]
        for proc in self.procs:
            proc.join(10)
        return out


async def wait_for(condition: Any, timeout: float) -> float:
    t0 = time.monotonic()
    while not condition() and time.monotonic() - t0 < timeout:
        await asyncio.sleep(0.1)
    return time.monotonic() - t0


# ---- the benchmark ----------------------------------------------------------------------------


async def run(args: argparse.Namespace, target: str, pids: dict[str, list[int]]) -> None:
    ctx = mp.get_context("spawn")
    channel = grpc.aio.insecure_channel(target)
    stub = new_stub(channel)
    server_pid = pids["server"][0]
    n_stalled = round(args.subscribers * args.stalled_share)
    n_others = args.subscribers - n_stalled
    game = await new_game(stub, args.seed, args.players)
    total_s = args.baseline_seconds + args.seconds + 120
    game.plan = make_plan(create_request(players=args.players).options, args.seed,
                          math.ceil(args.rate * total_s))
    if len(game.plan) < args.rate * total_s:
        raise RuntimeError(f"seed {args.seed}: the bot game ends after {len(game.plan)} actions;"
                           " pick another --seed")
    reply_ns: dict[int, int] = {}
    running = [True]

    async def drive() -> None:
        start, n = time.monotonic(), 0
        while running[0]:
            request, metadata = game.request()
            reply = await stub.SubmitAction(request, metadata=metadata, timeout=CALL_TIMEOUT_S)
            reply_ns[reply.version] = time.monotonic_ns()
            game.version = reply.version
            n += 1
            await asyncio.sleep(max(0.0, start + n / args.rate - time.monotonic()))

    def job(count: int) -> StreamJob:
        return StreamJob(target, game.game_id, game.start_seq, count)

    rss0 = rss_bytes(server_pid)
    others = Procs(ctx, subscriber_main, [job(n) for n in split(n_others, args.sub_procs)])
    tenth = Procs(ctx, subscriber_main, [job(n_stalled)])
    driver = asyncio.create_task(drive())
    stalled: Procs | None = None
    try:
        waited = await wait_for(lambda: others.settled and tenth.settled, 60)
        say(f"phase A: {others.ready[LIVE]} + {tenth.ready[LIVE]} of {args.subscribers} "
            f"subscribers live after {waited:.1f} s of driving (warm-up); server VmRSS "
            f"{rss0 / MB:.1f} MB before subscribers, {rss_bytes(server_pid) / MB:.1f} MB now")
        meter = CpuMeter({**pids, "subscribers": [p.pid for p in others.procs + tenth.procs]})
        meter.start()
        a_first = game.version + 1
        await asyncio.sleep(args.baseline_seconds)
        a_last = game.version
        meter.stop()
        say(f"phase A (none stalled): versions {a_first}..{a_last} in "
            f"{args.baseline_seconds:g} s | {meter.line()}")
        await tenth.finish()
        stalled = Procs(ctx, stalled_main, [job(n_stalled)])
        waited = await wait_for(lambda: stalled is not None and stalled.settled, 60)
        say(f"phase B: {n_stalled} readers stopped, {stalled.ready[LIVE]} stalled streams "
            f"registered ({stalled.ready[FAILED]} failed) after {waited:.1f} s")
        meter = CpuMeter({**pids, "subscribers": [p.pid for p in others.procs + stalled.procs]})
        rss_start = rss_bytes(server_pid)
        rss_peak = rss_start
        meter.start()
        b_first = game.version + 1
        b_end = time.monotonic() + args.seconds
        while time.monotonic() < b_end:
            await asyncio.sleep(min(0.5, max(0.0, b_end - time.monotonic())))
            rss_peak = max(rss_peak, rss_bytes(server_pid))
        b_last = game.version
        rss_end = rss_bytes(server_pid)
        meter.stop()
        say(f"phase B ({n_stalled} stalled): versions {b_first}..{b_last} in {args.seconds:g} s"
            f" | {meter.line()}")
    finally:
        running[0] = False
        await asyncio.gather(driver, return_exceptions=True)
    await asyncio.sleep(1.0)  # the last deliveries land
    results = await others.finish()
    ends = await stalled.finish() if stalled else []
    await channel.close()

    def latencies(first: int, last: int) -> tuple[list[float], int, int]:
        out, missing, errs = [], 0, 0
        for received_lists, errors in results:
            errs += len(errors)
            for pairs, _messages in received_lists:  # (version, ns) and (version, messages)
                got = dict(pairs)
                for v in range(first, last + 1):
                    t = got.get(v)
                    if t is None:
                        missing += 1
                    else:
                        out.append((t - reply_ns[v]) / 1e6)
        out.sort()
        return out, missing, errs

    lat_a, miss_a, errs = latencies(a_first, a_last)
    lat_b, miss_b, _ = latencies(b_first, b_last)
    p99_a, p99_b = percentile(lat_a, 99), percentile(lat_b, 99)
    for name, lat, miss in (("A none stalled", lat_a, miss_a), ("B 10% stalled", lat_b, miss_b)):
        say(f"others ({n_others} streams), phase {name}: {len(lat)} deliveries ({miss} missing),"
            f" reply->receipt p50 {percentile(lat, 50):.2f} ms, p99 {percentile(lat, 99):.2f} ms"
            f", max {percentile(lat, 100):.1f} ms")
    if errs:
        say(f"  ! {errs} stream errors among the others: "
            f"{sorted({e for _, es in results for e in es})[:3]}")
    for end in ends:
        say("stalled streams ended: " + ", ".join(f"{k} {v}" for k, v in sorted(end.items())))
    ratio = p99_b / p99_a
    growth = (rss_end - rss_start) / MB
    verdict = ("NOT met" if growth >= 50 else "met" if args.seconds >= 60
               else "under 50 MB in this shorter run")
    say(f"stalls ratio (others' delivery p99 with {n_stalled} of {args.subscribers} stalled ÷ "
        f"none stalled): {p99_b:.2f} / {p99_a:.2f} ms = {ratio:.2f} (target <= 1.2: "
        f"{'met' if ratio <= 1.2 else 'NOT met'})")
    say(f"server VmRSS over the {args.seconds:g} s stalled phase (target: < 50 MB over 60 s"
        f"{'' if args.seconds >= 60 else '; this run is shorter than the target'}): "
        f"{rss_start / MB:.1f} -> {rss_end / MB:.1f} MB, growth {growth:+.1f} MB, peak "
        f"{rss_peak / MB:.1f} MB ({verdict})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subscribers", type=int, default=200)
    parser.add_argument("--stalled-share", type=float, default=0.1)
    parser.add_argument("--sub-procs", type=int, default=2, help="reader processes (others)")
    parser.add_argument("--rate", type=float, default=10.0, help="driver actions per second")
    parser.add_argument("--baseline-seconds", type=float, default=15.0, help="phase A")
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="phase B, stalled (the target says 60)")
    parser.add_argument("--players", type=int, default=4, help="seats of the classic game")
    parser.add_argument("--seed", type=int, default=2, help="the game's seed")
    parser.add_argument("--log-level", default="info", help="the service's RISK_LOG_LEVEL")
    return run_on_stack(parser.parse_args(argv), run)


if __name__ == "__main__":
    raise SystemExit(main())
