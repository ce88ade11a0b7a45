"""The HTTP port against gRPC: SubmitAction and StreamEvents delivery over Connect (binary and
JSON, HTTP/1.1) ÷ the same over gRPC, in one run on one service process (issue 17, Measured).

    python bench/http_port.py [--quick] [--clients 16] [--seconds 8] [--subscribers 50]
                              [--burst 300]

Starts its own redis-server (AOF on, `appendfsync everysec`) and one `python -m risk_service`
process serving both ports (RISK_HTTP_LISTEN on a free port), then, for each transport —
`grpc` (grpc.aio), `connect-proto` and `connect-json` (connectrpc's own client on pyqwest,
HTTP/1.1, no compression either way, as the service's HTTP port is used by a browser's fetch
or curl) — measures:

1. SubmitAction throughput: `--clients` calls in flight, each playing 4-seat classic games one
   after the other, from plans the engine made ahead of time from each game's seed
   (bench/service.py's `make_plan`), for `--seconds` after an unrecorded warm-up. `--rounds`
   rounds run every transport once each, each round starting with the next transport. Per
   phase: calls/s, p50 and p99 latency, and the service process's CPU time per
   call (utime + stime from /proc/<pid>/stat over the phase ÷ calls).
2. StreamEvents delivery: per transport a fresh game with `--subscribers` spectator streams of
   that transport (all in this process; over HTTP/1.1 each stream is its own connection),
   each first reading the game's backlog; then a gRPC driver submits `--burst` actions back to
   back. Per transport: delivered event messages/s (every message all streams received for
   the burst ÷ the time from the first submit to the last receipt), the delivery latency p50
   and p99 (a stream's receipt of an action's last event minus the time the driver had that
   action's reply; a receipt can precede the reply, so some are negative), and the service's
   CPU time per delivered message over the burst.

Every figure of HTTP is printed ÷ the same figure of gRPC in the same round ("ratio"), and the
median of those over the rounds. The client (this process)
shares the machine with the service, so throughput is bounded by both; the server's CPU per
message is the figure that does not depend on the client's speed. Load average is printed at
the start and the end.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402 - needs ROOT on sys.path
from connectrpc.compat import google_protobuf_binary_codec, google_protobuf_json_codec  # noqa: E402
from pyqwest import Client, HTTPTransport  # noqa: E402

from bench.common import stack  # noqa: E402 - needs ROOT
from bench.service import (  # noqa: E402
    CpuMeter,
    Game,
    cpu_seconds,
    make_plan,
    new_game,
    new_stub,
    percentile,
    say,
)
from risk_proto.risk.v1 import service_pb2  # noqa: E402
from risk_proto.risk.v1.service_connect import RiskServiceClient  # noqa: E402
from risk_service.redis_server import free_port  # noqa: E402
from risk_testing.rpc import create_request  # noqa: E402

TRANSPORTS = ("grpc", "connect-proto", "connect-json")
CALL_TIMEOUT_S = 30.0
PLAYERS = 4
DELIVERY_WAIT_S = 15.0


# ---- one client API over both transports ----------------------------------------------------


class Transport:
    """SubmitAction and StreamEvents through one transport, with a seat's token."""

    def __init__(self, kind: str, target: str, http_url: str) -> None:
        self.kind = kind
        self.channel: grpc.aio.Channel | None = None
        self.http: HTTPTransport | None = None
        if kind == "grpc":
            # one HTTP/2 connection per subscriber group is not needed: 256 streams fit one
            self.channel = grpc.aio.insecure_channel(target)
            self.stub = new_stub(self.channel)
            return
        # an idle pool as large as the calls in flight, so HTTP/1.1 keeps its connections
        # alive between calls instead of opening one per call (pyqwest keeps 2 by default)
        self.http = HTTPTransport(pool_max_idle_per_host=1024)
        codec = (google_protobuf_json_codec() if kind == "connect-json"
                 else google_protobuf_binary_codec())
        self.client = RiskServiceClient(http_url, codec=codec, accept_compression=[],
                                        send_compression=None,
                                        http_client=Client(self.http),
                                        timeout_ms=int(CALL_TIMEOUT_S * 1000))

    async def submit(self, request: service_pb2.SubmitActionRequest, token: str) -> int:
        """The new version."""
        if self.kind == "grpc":
            reply = await self.stub.SubmitAction(
                request, metadata=(("authorization", f"Bearer {token}"),),
                timeout=CALL_TIMEOUT_S)
        else:
            reply = await self.client.submit_action(
                request, headers={"authorization": f"Bearer {token}"})
        return int(reply.version)

    def stream(self, request: service_pb2.StreamEventsRequest
               ) -> AsyncIterator[service_pb2.StreamEventsResponse]:
        if self.kind == "grpc":
            call: AsyncIterator[service_pb2.StreamEventsResponse] = self.stub.StreamEvents(
                request)
            return call
        return self.client.stream_events(request)

    async def close(self) -> None:
        if self.channel is not None:
            await self.channel.close()
        if self.http is not None:
            await self.http.aclose()


# ---- results ------------------------------------------------------------------------------


@dataclass
class Figures:
    """One transport's figures in one section."""

    name: str
    rate: float = 0.0  # calls/s or delivered messages/s
    p50_ms: float = math.nan
    p99_ms: float = math.nan
    cpu_us: float = math.nan  # service CPU per call or per delivered message
    notes: list[str] = field(default_factory=list)

    def line(self, unit: str) -> str:
        return (f"{self.name:<22} {self.rate:>8.0f} {unit}/s, p50 {self.p50_ms:7.2f} ms, "
                f"p99 {self.p99_ms:7.2f} ms, server CPU {self.cpu_us:6.0f} µs per {unit}")


def rotated(round_: int) -> list[str]:
    """The transports in the order of one round: each round starts with the next one, so a
    drift of the machine's load over the run does not favour one transport."""
    shift = round_ % len(TRANSPORTS)
    return [*TRANSPORTS[shift:], *TRANSPORTS[:shift]]


def ratios(section: str, unit: str, rounds: list[dict[str, Figures]]) -> None:
    """Per transport: the median over rounds of each figure, and of its ratio to gRPC's in
    the same round (the rounds' own ratios are listed, to show the spread)."""
    for kind in TRANSPORTS:
        runs = [r[kind] for r in rounds]
        median = Figures(f"{kind} (median)", *(statistics.median(getattr(f, name) for f in runs)
                                              for name in ("rate", "p50_ms", "p99_ms", "cpu_us")))
        say(median.line(unit))
    for kind in TRANSPORTS[1:]:
        parts = []
        for name, label in (("rate", "throughput"), ("p99_ms", "p99"),
                            ("cpu_us", "server CPU per message")):
            each = [getattr(r[kind], name) / getattr(r["grpc"], name) for r in rounds]
            parts.append(f"{label} {statistics.median(each):.2f} "
                         f"({', '.join(f'{v:.2f}' for v in each)})")
        say(f"{section} {kind} ÷ grpc ratio, median of {len(rounds)} rounds (each round): "
            + "; ".join(parts))


def load_line() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


# ---- 1. SubmitAction ------------------------------------------------------------------------


class Slot:
    """One call in flight: its games, played one after the other (a bot game of classic ends
    after several hundred actions, so a slot moves on to its next game)."""

    def __init__(self, games: list[Game]) -> None:
        self.games = games

    def current(self) -> Game | None:
        for game in self.games:
            if not game.broken and game.step < len(game.plan):
                return game
        return None


async def submit_phase(transport: Transport, slots: list[Slot], seconds: float, pid: int,
                       record: bool = True) -> Figures:
    latencies: list[float] = []
    figures = Figures(transport.kind)
    games = [game for slot in slots for game in slot.games]

    async def play(slot: Slot, deadline: float) -> None:
        while time.monotonic() < deadline:
            game = slot.current()
            if game is None:
                figures.notes.append("a slot used up its planned actions (raise --plan)")
                return
            request, metadata = game.request()
            token = metadata[0][1].removeprefix("Bearer ")
            t0 = time.perf_counter()
            try:
                game.version = await transport.submit(request, token)
            except Exception as error:  # any refusal ends this game's run
                game.broken = f"{type(error).__name__}: {error} (at step {game.step})"
                return
            latencies.append(time.perf_counter() - t0)

    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    await asyncio.gather(*(play(slot, t0 + seconds) for slot in slots))
    wall, cpu = time.monotonic() - t0, cpu_seconds(pid) - cpu0
    figures.notes += [f"game {g.game_id} stopped: {g.broken}" for g in games if g.broken]
    if not record:
        return figures
    latencies.sort()
    figures.rate = len(latencies) / wall
    figures.p50_ms = percentile(latencies, 50) * 1e3
    figures.p99_ms = percentile(latencies, 99) * 1e3
    figures.cpu_us = cpu / max(1, len(latencies)) * 1e6
    return figures


async def submits(args: argparse.Namespace, transports: dict[str, Transport], pid: int,
                  meter: CpuMeter) -> None:
    say(f"\n== 1. SubmitAction, {args.clients} in flight ({args.clients} classic games of "
        f"{PLAYERS} seats), {args.seconds:g} s per phase, {args.rounds} round(s)")
    grpc_stub = transports["grpc"].stub
    options = create_request(players=PLAYERS).options
    slots = []
    t0 = time.monotonic()
    seed = args.seed
    for _ in range(args.clients):
        games: list[Game] = []
        while sum(len(g.plan) for g in games) < args.plan:  # a game over ends its plan early
            game = await new_game(grpc_stub, seed, PLAYERS)
            game.plan = make_plan(options, seed, args.plan - sum(len(g.plan) for g in games))
            games.append(game)
            seed += 1
        slots.append(Slot(games))
    planned = sum(len(g.plan) for slot in slots for g in slot.games)
    say(f"setup: {seed - args.seed} games, {planned} actions planned "
        f"by the engine from the games' seeds ({time.monotonic() - t0:.1f} s, not measured)")
    for kind in TRANSPORTS:  # warm each transport's connections and code paths
        await submit_phase(transports[kind], slots, args.warmup, pid, record=False)
    rounds: list[dict[str, Figures]] = []
    for round_ in range(args.rounds):
        measured: dict[str, Figures] = {}
        for kind in rotated(round_):
            meter.start()
            figures = await submit_phase(transports[kind], slots, args.seconds, pid)
            meter.stop()
            say(f"round {round_ + 1}: " + figures.line("call") + f" | {meter.line()}")
            for note in sorted(set(figures.notes))[:3]:
                say(f"  ! {note}")
            measured[kind] = figures
        rounds.append(measured)
    ratios("SubmitAction", "call", rounds)


# ---- 2. StreamEvents delivery ----------------------------------------------------------------


@dataclass
class Subscriber:
    received: dict[int, int] = field(default_factory=dict)  # version -> monotonic ns, last event
    messages: int = 0
    live: asyncio.Event = field(default_factory=asyncio.Event)
    error: str = ""
    closing: bool = False  # set before the stream is cancelled: what it raises then is ours


async def subscribe(transport: Transport, request: service_pb2.StreamEventsRequest,
                    sub: Subscriber, backlog_version: int) -> None:
    try:
        async for reply in transport.stream(request):
            sub.received[reply.event.version] = time.monotonic_ns()
            sub.messages += 1
            if reply.event.version >= backlog_version:
                sub.live.set()
    except asyncio.CancelledError:
        raise
    except Exception as error:  # a failed stream is counted and printed
        if not sub.closing:
            sub.error = f"{type(error).__name__}: {error}"
        sub.live.set()


async def delivery(args: argparse.Namespace, transport: Transport, driver: Transport,
                   seed: int, pid: int) -> Figures:
    game = await new_game(driver.stub, seed, PLAYERS)
    game.plan = make_plan(create_request(players=PLAYERS).options, seed, args.burst)
    request = service_pb2.StreamEventsRequest(game_id=game.game_id, after_seq=0)
    subs = [Subscriber() for _ in range(args.subscribers)]
    tasks = [asyncio.create_task(subscribe(transport, request, s, game.version)) for s in subs]
    await asyncio.wait_for(asyncio.gather(*(s.live.wait() for s in subs)), 60)
    before = [s.messages for s in subs]

    replied: dict[int, int] = {}
    cpu0 = cpu_seconds(pid)
    first_submit = time.monotonic_ns()
    while game.step < len(game.plan) and not game.broken:
        submit, metadata = game.request()
        game.version = await driver.submit(submit, metadata[0][1].removeprefix("Bearer "))
        replied[game.version] = time.monotonic_ns()
    deadline = time.monotonic() + DELIVERY_WAIT_S
    while time.monotonic() < deadline and not all(
            s.error or game.version in s.received for s in subs):
        await asyncio.sleep(0.02)
    cpu = cpu_seconds(pid) - cpu0
    for sub in subs:
        sub.closing = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    delivered = sum(s.messages - b for s, b in zip(subs, before, strict=True))
    last = max((t for s in subs for t in s.received.values()), default=first_submit)
    latencies = sorted((s.received[v] - t) / 1e6 for s in subs for v, t in replied.items()
                       if v in s.received)
    figures = Figures(transport.kind, rate=delivered / max(1e-9, (last - first_submit) / 1e9),
                      p50_ms=percentile(latencies, 50), p99_ms=percentile(latencies, 99),
                      cpu_us=cpu / max(1, delivered) * 1e6)
    missing = sum(1 for s in subs for v in replied if v not in s.received)
    failed = [s.error for s in subs if s.error]
    if missing or failed:
        figures.notes.append(f"{missing} (stream, action) receipts missing, "
                             f"{len(failed)} streams failed: {sorted(set(failed))[:3]}")
    figures.notes.append(f"{len(replied)} actions, {delivered} messages delivered to "
                         f"{len(subs)} streams")
    return figures


async def deliveries(args: argparse.Namespace, transports: dict[str, Transport], pid: int
                     ) -> None:
    say(f"\n== 2. StreamEvents delivery, {args.subscribers} spectator streams per transport, "
        f"a burst of {args.burst} actions submitted back to back over gRPC")
    rounds: list[dict[str, Figures]] = []
    seed = args.seed + 100_000
    for round_ in range(args.rounds):
        measured: dict[str, Figures] = {}
        for kind in rotated(round_):
            figures = await delivery(args, transports[kind], transports["grpc"], seed, pid)
            seed += 1
            say(f"round {round_ + 1}: " + figures.line("message"))
            for note in figures.notes:
                say(f"  {note}")
            measured[kind] = figures
        rounds.append(measured)
    ratios("StreamEvents", "message", rounds)


# ---- main ---------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short phases (~40 s in all)")
    parser.add_argument("--clients", type=int, default=16,
                        help="SubmitAction calls in flight, one game each")
    parser.add_argument("--seconds", type=float, default=None, help="each SubmitAction phase")
    parser.add_argument("--warmup", type=float, default=1.0,
                        help="seconds per transport before the measured phases")
    parser.add_argument("--plan", type=int, default=None,
                        help="actions planned per call in flight, over as many games as that "
                             "takes (default: enough for about 4,000 calls/s; a quiet "
                             "machine runs the HTTP/2 transports at 2,000-3,000)")
    parser.add_argument("--subscribers", type=int, default=None,
                        help="spectator streams per delivery run")
    parser.add_argument("--burst", type=int, default=None, help="actions per delivery run")
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds of every transport per section (medians are reported)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--log-level", default="info",
                        help="the service's RISK_LOG_LEVEL (info: one log line per RPC)")
    args = parser.parse_args(argv)
    args.seconds = args.seconds or (3.0 if args.quick else 8.0)
    args.subscribers = args.subscribers or (20 if args.quick else 50)
    args.burst = args.burst or (100 if args.quick else 300)
    args.rounds = args.rounds or (1 if args.quick else 3)
    total_s = 3 * args.rounds * args.seconds + 3 * args.warmup
    args.plan = args.plan or math.ceil(4000 * total_s / args.clients) + 50
    return args


async def run(args: argparse.Namespace, target: str, http_url: str, pids: dict[str, list[int]]
              ) -> None:
    pid = pids["server"][0]
    transports = {kind: Transport(kind, target, http_url) for kind in TRANSPORTS}
    meter = CpuMeter({**pids, "client": [os.getpid()]})
    try:
        await submits(args, transports, pid, meter)
        await deliveries(args, transports, pid)
    finally:
        for transport in transports.values():
            await transport.close()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    http_port = free_port()
    say(f"start: {load_line()}")
    with stack(vars(args), args.log_level,
               RISK_HTTP_LISTEN=f"127.0.0.1:{http_port}") as st:
        assert st.redis.pid is not None
        asyncio.run(run(args, st.service.target, f"http://127.0.0.1:{http_port}",
                        {"server": [st.service_pid], "redis": [st.redis.pid]}))
    say(f"end: {load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
