"""Every transport against gRPC, and against itself at another commit: SubmitAction and
StreamEvents delivery over gRPC, Connect (binary and JSON, HTTP/1.1), gRPC-Web and WebSockets,
in one run (issue 17, Measured; issue 33: server CPU per call per transport, before and after).

    python bench/http_port.py [--quick] [--clients 16] [--seconds 8] [--subscribers 50]
                              [--burst 300]
    python bench/http_port.py --base REV [--rounds 3] ...   # this checkout ÷ commit REV
    python bench/http_port.py --base REV --interleave [--rounds 5] [--seconds 4] ...
    python bench/http_port.py --base REV --only connect-proto --sections submit \
                              --profile DIR                # py-spy, one transport, both sides

Starts its own redis-server (AOF on, `appendfsync everysec`) and one `python -m risk_service`
process serving both ports (RISK_HTTP_LISTEN on a free port), then, for each transport —
`grpc` (grpc.aio), `connect-proto`, `connect-json` and `grpc-web` (connectrpc's own client on
pyqwest, HTTP/1.1, no compression either way, as the service's HTTP port is used by a
browser's fetch or curl), and `websocket` (risk_testing's WebSocket client: each move on its
seat's acks-only Session socket, each spectator a StreamEvents socket) — measures the two
sections below. `--only grpc-session` (not in the default set) adds a seat's acks-only Session
over gRPC, the WebSocket session's twin on the gRPC port: it plays in the SubmitAction
section only (its spectators would be gRPC's), and not with `--ping`.

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

With `--base REV` the service of commit REV (checked out into a git worktree,
bench/.scratch/http-port-base, by bench/ab.py's `worktree`) and this checkout's take turns,
the order swapped each round, each round on a fresh redis-server and service of its own; the
clients, plans and seeds are this checkout's for both sides, so only the service differs.
Printed per round and as medians over the rounds: the server's CPU per SubmitAction (per
move, on a WebSocket Session) and per delivered StreamEvents message, per transport, new ÷
base, with the load averages.

`--interleave` (with `--base`) starts both services at once, each on its own redis-server,
and runs each transport's SubmitAction phase on one then the other, the order swapped each
pair, `--rounds` pairs per transport (no delivery runs): a change in the shared machine's
load between two sides' runs (minutes apart without it) falls on both alike, and new ÷ base
is printed per pair and as the ratio of the medians.

With `--interleave`, `--rate R` paces the SubmitAction calls to R per second in all (each
client its share, their starts spread): both services then do the same work at the same
offered load, rather than each what its clients reach at saturation, where a call's CPU
depends on how many share a loop turn. `--restart-every N` starts both services (and their
Redis) anew every N pairs: a process keeps for its whole life what it drew at its start (its
hash seed, its memory's layout), worth a few per cent either way, so two processes of one
commit differ by that much in a sitting (bench/RESULTS.md, "one write per reply"); spread
over several of each, the pairs average it out. `--base HEAD` against this checkout is the
A/A run that shows the bench's own noise.

`--ping` (with `--interleave`) makes each phase `--clients` Ping calls in flight instead of
SubmitAction: an empty call through each transport's server, the route table and the call chain
(admission, the log line, metrics), with no operation under it, so new ÷ base on Ping is what
the transport and the chain cost per call apart from the move (WebSocket, whose moves are a
Session's messages and whose every call is a connection of its own, is left out).

`--only KIND[,KIND]` measures those transports alone (gRPC still drives the delivery runs),
`--sections submit` leaves out the delivery runs. `--profile DIR` runs py-spy (not a
dependency: `pip install --target /tmp/pyspy py-spy`, found on PATH or as /tmp/pyspy/bin/py-spy)
on the service during each measured SubmitAction phase, keeps its raw samples in DIR, and
prints, per transport, the functions' self time per call (samples ÷ rate ÷ calls: the
service's Python thread, its idle waits left out), with `--base` new against base, largest
difference first. py-spy slows the service: the CPU figures of a profiled run are not the
ones to record.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402 - needs ROOT on sys.path
from connectrpc.compat import google_protobuf_binary_codec, google_protobuf_json_codec  # noqa: E402
from connectrpc.protocol import ProtocolType  # noqa: E402
from pyqwest import Client, HTTPTransport  # noqa: E402

from bench.ab import python_path, worktree  # noqa: E402 - needs ROOT
from bench.common import stack  # noqa: E402
from bench.service import (  # noqa: E402
    CpuMeter,
    Game,
    Plan,
    SeatSessions,
    WsSeatSessions,
    cpu_seconds,
    make_plan,
    new_game,
    new_stub,
    percentile,
    say,
)
from risk_proto.risk.v1 import game_pb2, service_pb2  # noqa: E402
from risk_proto.risk.v1.service_connect import RiskServiceClient  # noqa: E402
from risk_service.redis_server import free_port  # noqa: E402
from risk_testing.rpc import create_request  # noqa: E402
from risk_testing.wsclient import BINARY, WebSocket  # noqa: E402

TRANSPORTS = ("grpc", "connect-proto", "connect-json", "grpc-web", "websocket")
# counted or timed on request (`--only`, bench/instructions.py): a seat's acks-only Session
# over gRPC, the WebSocket session's twin on the gRPC port
EXTRA_TRANSPORTS = ("grpc-session",)
KINDS = TRANSPORTS + EXTRA_TRANSPORTS  # every kind a Transport serves
GRPC_KINDS = ("grpc", "grpc-session")  # the transports on the gRPC port
SESSION_KINDS = ("websocket", "grpc-session")  # each move on its seat's acks-only Session
STREAM_EVENTS = "/risk.v1.RiskService/StreamEvents"
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
        self.http_port = int(http_url.rpartition(":")[2])
        # the sessions kinds: each game's seats' sessions
        self.sessions: dict[str, SeatSessions] = {}
        if kind == "websocket":
            return
        if kind in GRPC_KINDS:
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
                                        protocol=(ProtocolType.GRPC_WEB if kind == "grpc-web"
                                                  else ProtocolType.CONNECT),
                                        timeout_ms=int(CALL_TIMEOUT_S * 1000))

    async def play(self, game: Game) -> int:
        """The game's next planned move; the new version. Over WebSockets and grpc-session, on
        the deciding seat's acks-only Session (every seat's session opened at the game's first
        move)."""
        if self.kind not in SESSION_KINDS:
            request, metadata = game.request()
            return await self.submit(request, metadata[0][1].removeprefix("Bearer "))
        sessions = self.sessions.get(game.game_id)
        if sessions is None:
            sessions = self.sessions[game.game_id] = (
                WsSeatSessions(self.http_port, acks_only=True) if self.kind == "websocket"
                else SeatSessions(acks_only=True))
            await sessions.open(lambda: self.stub, game, game.start_seq)
        answer = await sessions.submit(game)
        if answer.WhichOneof("kind") != "ack":
            raise RuntimeError(f"the session refused the move: {answer.error.status!r}")
        return int(service_pb2.SubmitActionResponse.FromString(answer.ack.submitted).version)

    async def ping(self) -> None:
        """One empty call (`--ping`)."""
        if self.kind in GRPC_KINDS:
            await self.stub.Ping(service_pb2.PingRequest(), timeout=CALL_TIMEOUT_S)
        else:
            await self.client.ping(service_pb2.PingRequest())

    async def submit(self, request: service_pb2.SubmitActionRequest, token: str) -> int:
        """The new version."""
        if self.kind in GRPC_KINDS:
            reply = await self.stub.SubmitAction(
                request, metadata=(("authorization", f"Bearer {token}"),),
                timeout=CALL_TIMEOUT_S)
        else:
            reply = await self.client.submit_action(
                request, headers={"authorization": f"Bearer {token}"})
        return int(reply.version)

    def stream(self, request: service_pb2.StreamEventsRequest
               ) -> AsyncIterator[service_pb2.StreamEventsResponse]:
        if self.kind == "websocket":
            return self._socket_stream(request)
        if self.kind in GRPC_KINDS:
            call: AsyncIterator[service_pb2.StreamEventsResponse] = self.stub.StreamEvents(
                request)
            return call
        return self.client.stream_events(request)

    async def _socket_stream(self, request: service_pb2.StreamEventsRequest
                             ) -> AsyncIterator[service_pb2.StreamEventsResponse]:
        ws = await WebSocket.connect("127.0.0.1", self.http_port, STREAM_EVENTS)
        try:
            ws.send(request.SerializeToString())
            while (message := await ws.receive()).opcode == BINARY:
                yield service_pb2.StreamEventsResponse.FromString(message.data)
        finally:
            ws.writer.close()

    async def close(self) -> None:
        for sessions in self.sessions.values():
            await sessions.close()
        if self.channel is not None:
            await self.channel.close()
        if self.http is not None:
            await self.http.aclose()


def open_transports(kinds: tuple[str, ...], target: str, http_url: str
                    ) -> dict[str, Transport]:
    """A Transport per kind, and gRPC's in any case: the games are made over it."""
    return {kind: Transport(kind, target, http_url) for kind in dict.fromkeys(("grpc", *kinds))}


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
    seconds: float = 0.0  # the measured phase's wall time

    def line(self, unit: str) -> str:
        return (f"{self.name:<22} {self.rate:>8.0f} {unit}/s, p50 {self.p50_ms:7.2f} ms, "
                f"p99 {self.p99_ms:7.2f} ms, server CPU {self.cpu_us:6.0f} µs per {unit}")


def rotated(round_: int, kinds: tuple[str, ...] = TRANSPORTS) -> list[str]:
    """The transports in the order of one round: each round starts with the next one, so a
    drift of the machine's load over the run does not favour one transport."""
    shift = round_ % len(kinds)
    return [*kinds[shift:], *kinds[:shift]]


def ratios(section: str, unit: str, rounds: list[dict[str, Figures]],
           kinds: tuple[str, ...] = TRANSPORTS) -> None:
    """Per transport: the median over rounds of each figure, and of its ratio to gRPC's in
    the same round (the rounds' own ratios are listed, to show the spread)."""
    for kind in kinds:
        runs = [r[kind] for r in rounds]
        median = Figures(f"{kind} (median)", *(statistics.median(getattr(f, name) for f in runs)
                                              for name in ("rate", "p50_ms", "p99_ms", "cpu_us")))
        say(median.line(unit))
    if "grpc" not in kinds:
        return
    for kind in kinds[1:]:
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
                       record: bool = True, *, rate: float = 0.0) -> Figures:
    """Each slot plays its games' planned actions for `seconds`: as fast as replies come,
    or with `rate`, paced to that many calls per second in all (each slot its share, the
    slots' starts spread over one interval), so that two services are compared at the same
    offered load rather than at whatever each one's clients reach."""
    latencies: list[float] = []
    figures = Figures(transport.kind)
    games = [game for slot in slots for game in slot.games]
    interval = len(slots) / rate if rate > 0 else 0.0

    async def play(slot: Slot, deadline: float, due: float) -> None:
        while time.monotonic() < deadline:
            if interval:
                if (wait := due - time.monotonic()) > 0:
                    await asyncio.sleep(wait)
                due += interval
            game = slot.current()
            if game is None:
                figures.notes.append("a slot used up its planned actions (raise --plan)")
                return
            t0 = time.perf_counter()
            try:
                game.version = await transport.play(game)
            except Exception as error:  # any refusal ends this game's run
                game.broken = f"{type(error).__name__}: {error} (at step {game.step})"
                return
            latencies.append(time.perf_counter() - t0)

    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    await asyncio.gather(*(play(slot, t0 + seconds, t0 + interval * i / len(slots))
                           for i, slot in enumerate(slots)))
    wall, cpu = time.monotonic() - t0, cpu_seconds(pid) - cpu0
    figures.notes += [f"game {g.game_id} stopped: {g.broken}" for g in games if g.broken]
    if rate and len(latencies) < 0.95 * rate * wall:
        figures.notes.append(f"{len(latencies) / wall:.0f} calls/s of the {rate:g} asked "
                             "(the service or its clients could not keep up)")
    if record:
        _measured(figures, latencies, wall, cpu)
    return figures


def _measured(figures: Figures, latencies: list[float], wall: float, cpu: float) -> None:
    """A phase's figures from its calls' latencies (s), its wall time and the server's CPU
    seconds over it."""
    latencies.sort()
    figures.rate, figures.seconds = len(latencies) / wall, wall
    figures.p50_ms = percentile(latencies, 50) * 1e3
    figures.p99_ms = percentile(latencies, 99) * 1e3
    figures.cpu_us = cpu / max(1, len(latencies)) * 1e6


async def calls_phase(name: str, call: Callable[[], Awaitable[object]], clients: int,
                      seconds: float, pid: int, *, record: bool = True) -> Figures:
    """`clients` loops of `call` (`--ping`: a transport's Ping) for `seconds`, measured as
    `submit_phase` measures: CPU per call of process `pid`."""
    latencies: list[float] = []
    figures = Figures(name)

    async def loop(deadline: float) -> None:
        while time.monotonic() < deadline:
            t0 = time.perf_counter()
            await call()
            latencies.append(time.perf_counter() - t0)

    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    await asyncio.gather(*(loop(t0 + seconds) for _ in range(clients)))
    wall, cpu = time.monotonic() - t0, cpu_seconds(pid) - cpu0
    if record:
        _measured(figures, latencies, wall, cpu)
    return figures


_PLANS: dict[tuple[int, int], Plan] = {}


def plan_for(options: game_pb2.GameOptions, seed: int, length: int) -> Plan:
    """`make_plan`, made once per seed and length in a run (each side of `--base` replays the
    same games)."""
    key = (seed, length)
    if key not in _PLANS:
        _PLANS[key] = make_plan(options, seed, length)
    return _PLANS[key]


async def make_slots(args: argparse.Namespace, grpc_stub: Any) -> list[Slot]:
    """The calls in flight: each a run of games created now (over gRPC, not measured), their
    actions planned by the engine from their seeds."""
    options = create_request(players=PLAYERS).options
    slots = []
    t0 = time.monotonic()
    seed = args.seed
    for _ in range(args.clients):
        games: list[Game] = []
        while sum(len(g.plan) for g in games) < args.plan:  # a game over ends its plan early
            game = await new_game(grpc_stub, seed, PLAYERS)
            game.plan = plan_for(options, seed, args.plan - sum(len(g.plan) for g in games))
            games.append(game)
            seed += 1
        slots.append(Slot(games))
    planned = sum(len(g.plan) for slot in slots for g in slot.games)
    say(f"setup: {seed - args.seed} games, {planned} actions planned "
        f"by the engine from the games' seeds ({time.monotonic() - t0:.1f} s, not measured)")
    return slots


async def submits(args: argparse.Namespace, transports: dict[str, Transport], pid: int,
                  meter: CpuMeter, first_round: int = 0) -> list[dict[str, Figures]]:
    say(f"\n== 1. SubmitAction, {args.clients} in flight ({args.clients} classic games of "
        f"{PLAYERS} seats), {args.seconds:g} s per phase, {args.rounds} round(s)")
    slots = await make_slots(args, transports["grpc"].stub)
    for kind in args.only:  # warm each transport's connections and code paths
        await submit_phase(transports[kind], slots, args.warmup, pid, record=False)
    rounds: list[dict[str, Figures]] = []
    for round_ in range(first_round, first_round + args.rounds):
        measured: dict[str, Figures] = {}
        for kind in rotated(round_, args.only):
            spy = start_profile(args, pid, kind, round_)
            meter.start()
            figures = await submit_phase(transports[kind], slots, args.seconds, pid)
            meter.stop()
            end_profile(spy, figures)
            say(f"round {round_ + 1}: " + figures.line("call") + f" | {meter.line()}")
            for note in sorted(set(figures.notes))[:3]:
                say(f"  ! {note}")
            measured[kind] = figures
        rounds.append(measured)
    ratios("SubmitAction", "call", rounds, args.only)
    return rounds


# ---- py-spy during the SubmitAction phases (--profile) --------------------------------------


def _py_spy() -> str:
    found = shutil.which("py-spy") or ("/tmp/pyspy/bin/py-spy"
                                       if Path("/tmp/pyspy/bin/py-spy").exists() else None)
    if found is None:
        raise SystemExit("--profile needs py-spy: pip install --target /tmp/pyspy py-spy")
    return found


PROFILE_HZ = 250


def start_profile(args: argparse.Namespace, pid: int, kind: str, round_: int
                  ) -> tuple[subprocess.Popen[bytes], Path] | None:
    """py-spy on the service for one phase (`--profile`), its raw samples in DIR."""
    if not args.profile:
        return None
    args.profile.mkdir(parents=True, exist_ok=True)
    raw = args.profile / f"{args.side}-{kind}-r{round_ + 1}.txt"
    spy = subprocess.Popen([_py_spy(), "record", "-p", str(pid), "-d", str(int(args.seconds)),
                            "-r", str(PROFILE_HZ), "--nonblocking", "-f", "raw",
                            "-o", str(raw)], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    return spy, raw


def end_profile(spy: tuple[subprocess.Popen[bytes], Path] | None, figures: Figures) -> None:
    """The phase's calls beside its samples: what makes them per call."""
    if spy is None:
        return
    process, raw = spy
    process.wait(timeout=60)
    calls = round(figures.rate * figures.seconds)
    raw.with_suffix(".json").write_text(json.dumps({"calls": calls, "hz": PROFILE_HZ}))


# where a frame's file lies: a site-packages, the checkout's (or the worktree's) service, rules
# and messages, the standard library
_PREFIX = re.compile(
    r"\((?:.*/(?:site-packages|service|rules|proto/python|lib/python3\.\d+)/)?")


def _function(frame: str) -> str:
    """"fn (…/site-packages/pkg/mod.py:12)" -> "fn (pkg/mod.py)": the same function in the
    base's worktree and this checkout, its lines merged."""
    frame = re.sub(r":\d+\)$", ")", frame)
    return _PREFIX.sub("(", frame, count=1)


def self_us_per_call(raw: Path) -> tuple[collections.Counter[str], int]:
    """Each function's self time per call (µs) in one profiled phase, and the samples."""
    meta = json.loads(raw.with_suffix(".json").read_text())
    own: collections.Counter[str] = collections.Counter()
    total = 0
    for line in raw.read_text().splitlines():
        if not line.strip():
            continue
        stack, count = line.rsplit(" ", 1)
        own[_function(stack.split(";")[-1])] += int(count)
        total += int(count)
    scale = 1e6 / meta["hz"] / max(1, meta["calls"])
    return collections.Counter({f: n * scale for f, n in own.items()}), total


def _by_module(per_function: collections.Counter[str]) -> collections.Counter[str]:
    """Self time summed per module ("risk_service/server/calls.py"; "<string>" and frames
    without a file as they are)."""
    out: collections.Counter[str] = collections.Counter()
    for function, us in per_function.items():
        out[function.rpartition(" (")[2].rstrip(")") or function] += us
    return out


def profile_report(directory: Path, kinds: tuple[str, ...], top: int = 25) -> None:
    """Per transport: self time per call, summed over its rounds' phases; new ÷ base's
    functions with the largest difference first (without a base: the largest)."""
    for kind in kinds:
        sides: dict[str, collections.Counter[str]] = {}
        for side in ("new", "base"):
            files = sorted(directory.glob(f"{side}-{kind}-r*.txt"))
            if not files:
                continue
            summed: collections.Counter[str] = collections.Counter()
            for raw in files:
                summed.update(self_us_per_call(raw)[0])
            sides[side] = collections.Counter({f: v / len(files) for f, v in summed.items()})
        if not sides:
            continue
        new, base = sides.get("new", collections.Counter()), sides.get("base")
        say(f"\n== py-spy, {kind}: Python self time per call (µs), "
            f"new {sum(new.values()):.1f}" + (f", base {sum(base.values()):.1f}"
                                              if base is not None else ""))
        if base is None:
            for function, us in new.most_common(top):
                say(f"  {us:7.2f}  {function[:150]}")
            continue
        say("  by module (self time per call, µs): new - base (new, base)")
        new_mod, base_mod = _by_module(new), _by_module(base)
        for module in sorted(set(new_mod) | set(base_mod),
                             key=lambda m: -abs(new_mod[m] - base_mod[m]))[:top]:
            say(f"  {new_mod[module] - base_mod[module]:+7.2f} (new {new_mod[module]:6.2f}, "
                f"base {base_mod[module]:6.2f})  {module}")
        say("  by function: new - base (new, base)")
        names = set(new) | set(base)
        for function in sorted(names, key=lambda f: -abs(new[f] - base[f]))[:top]:
            say(f"  {new[function] - base[function]:+7.2f} (new {new[function]:6.2f}, "
                f"base {base[function]:6.2f})  {function[:140]}")


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
    game.plan = plan_for(create_request(players=PLAYERS).options, seed, args.burst)
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


async def deliveries(args: argparse.Namespace, transports: dict[str, Transport], pid: int,
                     first_round: int = 0) -> list[dict[str, Figures]]:
    say(f"\n== 2. StreamEvents delivery, {args.subscribers} spectator streams per transport, "
        f"a burst of {args.burst} actions submitted back to back over gRPC")
    rounds: list[dict[str, Figures]] = []
    seed = args.seed + 100_000
    for round_ in range(first_round, first_round + args.rounds):
        measured: dict[str, Figures] = {}
        for kind in rotated(round_, delivered_kinds(args.only)):
            figures = await delivery(args, transports[kind], transports["grpc"], seed, pid)
            seed += 1
            say(f"round {round_ + 1}: " + figures.line("message"))
            for note in figures.notes:
                say(f"  {note}")
            measured[kind] = figures
        rounds.append(measured)
    ratios("StreamEvents", "message", rounds, delivered_kinds(args.only))
    return rounds


def delivered_kinds(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The transports of the delivery section: grpc-session's spectators are gRPC's own."""
    return tuple(kind for kind in kinds if kind not in EXTRA_TRANSPORTS)


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
    parser.add_argument("--restart-every", type=int, default=0, metavar="N",
                        help="with --interleave: start both services (and their Redis) anew "
                             "every N pairs (default 0: one of each for the whole run)")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="with --interleave: SubmitAction calls per second in all, paced "
                             "across the clients (default 0: as fast as replies come)")
    parser.add_argument("--log-level", default="info",
                        help="the service's RISK_LOG_LEVEL (info: one log line per RPC)")
    parser.add_argument("--base", help="also run commit BASE's service, alternating with this "
                                       "checkout's each round, and print new ÷ base")
    parser.add_argument("--only", default=",".join(TRANSPORTS),
                        help="the transports measured, comma-separated (default: all but "
                             + ", ".join(EXTRA_TRANSPORTS) + ")")
    parser.add_argument("--sections", default="submit,deliver",
                        help="submit, deliver or both (default)")
    parser.add_argument("--interleave", action="store_true",
                        help="with --base: both services at once, SubmitAction phases of "
                             "each in turn (--rounds pairs per transport; no delivery runs)")
    parser.add_argument("--ping", action="store_true",
                        help="with --interleave: Ping calls instead of SubmitAction (no "
                             "websocket)")
    parser.add_argument("--profile", type=Path,
                        help="py-spy during each SubmitAction phase; raw samples kept here")
    args = parser.parse_args(argv)
    args.only = tuple(kind for kind in KINDS if kind in args.only.split(","))
    args.sections = tuple(args.sections.split(","))
    if args.ping:
        if not args.interleave:
            parser.error("--ping goes with --base REV --interleave")
        # no Ping on a socket; grpc-session's would be gRPC's own
        args.only = tuple(kind for kind in args.only
                          if kind != "websocket" and kind not in EXTRA_TRANSPORTS)
    args.side = "new"
    if not args.only or not set(args.sections) <= {"submit", "deliver"}:
        parser.error("--only names transports of " + ", ".join(KINDS)
                     + "; --sections submit and/or deliver")
    args.seconds = args.seconds or (3.0 if args.quick else 8.0)
    args.subscribers = args.subscribers or (20 if args.quick else 50)
    args.burst = args.burst or (100 if args.quick else 300)
    args.rounds = args.rounds or (1 if args.quick else 3)
    # with --base: one round per service started (interleaved: every round on one service)
    runs = args.rounds if args.interleave else 1 if args.base else args.rounds
    # calls per second seen on this machine with some room: a Session move over WebSocket
    # runs about twice as fast as a unary call (9,113/s seen at --clients 48)
    rates = {kind: 10000 if kind in SESSION_KINDS else 3000
             for kind in args.only}
    calls = sum(rate * (runs * args.seconds + args.warmup) for rate in rates.values())
    args.plan = args.plan or math.ceil(calls / args.clients) + 50
    return args


Sections = dict[str, list[dict[str, Figures]]]  # "submit"/"deliver" -> rounds -> transport


async def run(args: argparse.Namespace, target: str, http_url: str,
              pids: dict[str, list[int]], first_round: int = 0) -> Sections:
    pid = pids["server"][0]
    transports = open_transports(args.only, target, http_url)
    meter = CpuMeter({**pids, "client": [os.getpid()]})
    try:
        sections: Sections = {}
        if "submit" in args.sections:
            sections["submit"] = await submits(args, transports, pid, meter, first_round)
        if "deliver" in args.sections:
            sections["deliver"] = await deliveries(args, transports, pid, first_round)
        return sections
    finally:
        for transport in transports.values():
            await transport.close()


def serve_and_run(args: argparse.Namespace, first_round: int = 0, root: Path = ROOT,
                  side: str = "") -> Sections:
    """A fresh redis-server and service (`root`'s code) for one run of the sections."""
    http_port = free_port()
    with stack({**vars(args), "side": side or "new"}, args.log_level,
               RISK_HTTP_LISTEN=f"127.0.0.1:{http_port}", PYTHONPATH=python_path(root)) as st:
        assert st.redis.pid is not None
        return asyncio.run(run(args, st.service.target, f"http://127.0.0.1:{http_port}",
                               {"server": [st.service_pid], "redis": [st.redis.pid]},
                               first_round))


SECTIONS = (("submit", "server CPU per SubmitAction (websocket, grpc-session: per Session "
                        "move)", "call"),
            ("deliver", "server CPU per delivered StreamEvents message", "message"))


def against_base(args: argparse.Namespace) -> None:
    """`--base`: the two services in turn, the order swapped each round; new ÷ base."""
    rounds, args.rounds = args.rounds, 1
    head = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                          check=True, capture_output=True, text=True).stdout.strip()
    base = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.base],
                          check=True, capture_output=True, text=True).stdout.strip()
    roots = {"new": ROOT, "base": worktree(args.base, "http-port-base")}
    say(f"new: {head} (this checkout); base: {base} ({roots['base']}); {rounds} round(s)")
    results: dict[str, list[Sections]] = {"new": [], "base": []}
    for i in range(rounds):
        order = ("new", "base") if i % 2 == 0 else ("base", "new")
        for side in order:
            say(f"\n-- round {i + 1}, {side}: {load_line()}")
            args.side = side
            results[side].append(serve_and_run(args, i, roots[side], side))
        for section, label, _unit in SECTIONS:
            if section not in args.sections:
                continue
            new, old = results["new"][-1][section][0], results["base"][-1][section][0]
            say(f"round {i + 1} ({', '.join(order)}), {label}, new ÷ base: " + "; ".join(
                f"{kind} {new[kind].cpu_us:.0f}/{old[kind].cpu_us:.0f} µs = "
                f"{new[kind].cpu_us / old[kind].cpu_us:.3f}" for kind in new))
    say(f"\n== medians of {rounds} round(s), new {head} ÷ base {base}; {load_line()}")
    for section, label, unit in SECTIONS:
        if section not in args.sections:
            continue
        say(f"{label}:")
        for kind in results["new"][0][section][0]:  # the section's transports
            new_us = [r[section][0][kind].cpu_us for r in results["new"]]
            old_us = [r[section][0][kind].cpu_us for r in results["base"]]
            each = [n / o for n, o in zip(new_us, old_us, strict=True)]
            say(f"  {kind:<14} new {statistics.median(new_us):6.0f} µs | base "
                f"{statistics.median(old_us):6.0f} µs per {unit} | new ÷ base "
                f"{statistics.median(new_us) / statistics.median(old_us):.3f} (rounds: "
                f"{', '.join(f'{v:.3f}' for v in each)})")


def interleaved(args: argparse.Namespace) -> None:
    """`--base REV --interleave`: both services up at once, each on its own redis-server;
    per transport, one SubmitAction phase of each in turn, the order swapped each time, so a
    change of the machine's load falls on both sides alike. New ÷ base per pair, and of
    the medians."""
    head = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                          check=True, capture_output=True, text=True).stdout.strip()
    base = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.base],
                          check=True, capture_output=True, text=True).stdout.strip()
    roots = {"new": ROOT, "base": worktree(args.base, "http-port-base")}
    say(f"new: {head} (this checkout); base: {base} ({roots['base']}); interleaved, "
        f"{args.rounds} pair(s) of {args.seconds:g} s phases per transport"
        + (f", both services started anew every {args.restart_every} pair(s)"
           if args.restart_every else ""))
    # a process keeps what it drew at its start (its hash seed, its memory's layout), worth a
    # few per cent either way for its whole life (two processes of one commit differed by
    # 2-5% in one sitting): with --restart-every, the pairs spread over several of each
    results: dict[str, dict[str, list[Figures]]] = {
        side: {kind: [] for kind in args.only} for side in ("new", "base")}
    block = args.restart_every or args.rounds
    for first in range(0, args.rounds, block):
        with contextlib.ExitStack() as stacks:
            ends = {}
            for side in ("new", "base"):
                http_port = free_port()
                st = stacks.enter_context(stack({**vars(args), "side": side}, args.log_level,
                                                RISK_HTTP_LISTEN=f"127.0.0.1:{http_port}",
                                                PYTHONPATH=python_path(roots[side])))
                ends[side] = (st.service.target, f"http://127.0.0.1:{http_port}",
                              st.service_pid)
            part = asyncio.run(_interleaved(args, ends, range(first,
                                                              min(first + block, args.rounds))))
        for side, by_kind in part.items():
            for kind, figures in by_kind.items():
                results[side][kind] += figures
    say(f"\n== medians of {args.rounds} pair(s), new {head} ÷ base {base}; {load_line()}")
    say("server CPU per Ping" if args.ping
        else "server CPU per SubmitAction (websocket, grpc-session: per Session move):")
    for kind in args.only:
        new_us = [f.cpu_us for f in results["new"][kind]]
        old_us = [f.cpu_us for f in results["base"][kind]]
        each = [n / o for n, o in zip(new_us, old_us, strict=True)]
        # the side that runs second in a pair pays a little more (seen: 3-5%); with the order
        # swapped each pair, the geometric mean of an even number of pairs cancels it
        say(f"  {kind:<14} new {statistics.median(new_us):6.0f} µs | base "
            f"{statistics.median(old_us):6.0f} µs per call | new ÷ base: of the medians "
            f"{statistics.median(new_us) / statistics.median(old_us):.3f}, geometric mean "
            f"of pairs {statistics.geometric_mean(each):.3f} (pairs: "
            f"{', '.join(f'{v:.3f}' for v in each)})")


async def _interleaved(args: argparse.Namespace, ends: dict[str, tuple[str, str, int]],
                       rounds: range) -> dict[str, dict[str, list[Figures]]]:
    transports = {side: open_transports(args.only, target, url)
                  for side, (target, url, _pid) in ends.items()}
    try:
        slots: dict[str, list[Slot]] = {side: [] for side in ends}  # (Ping plays no game)
        if not args.ping:
            for side in ends:
                say(f"{side}:")
                slots[side] = await make_slots(args, transports[side]["grpc"].stub)

        async def phase(side: str, kind: str, seconds: float, pid: int,
                        record: bool = True) -> Figures:
            if args.ping:
                return await calls_phase(kind, transports[side][kind].ping, args.clients,
                                         seconds, pid, record=record)
            return await submit_phase(transports[side][kind], slots[side], seconds, pid,
                                      record, rate=args.rate)

        for kind in args.only:  # warm each transport's connections and code paths
            for side, (_target, _url, pid) in ends.items():
                await phase(side, kind, args.warmup, pid, record=False)
        results: dict[str, dict[str, list[Figures]]] = {
            side: {kind: [] for kind in args.only} for side in ends}
        for round_ in rounds:
            for kind in rotated(round_, args.only):
                # swapped each pair for every transport (by the transport's place in the
                # list, not in the rotated round: with an odd number of transports that
                # gave one transport the same order in every pair)
                first = (round_ + args.only.index(kind)) % 2 == 0
                order = ("new", "base") if first else ("base", "new")
                line = []
                for side in order:
                    pid = ends[side][2]
                    args.side = side
                    spy = start_profile(args, pid, kind, round_)
                    figures = await phase(side, kind, args.seconds, pid)
                    end_profile(spy, figures)
                    for note in sorted(set(figures.notes))[:3]:
                        say(f"  ! {side} {kind}: {note}")
                    results[side][kind].append(figures)
                    line.append(f"{side} {figures.cpu_us:.0f} µs ({figures.rate:.0f}/s)")
                new, old = results["new"][kind][-1], results["base"][kind][-1]
                if not new.cpu_us or not old.cpu_us:
                    raise SystemExit(f"pair {round_ + 1}, {kind}: a side made no calls in "
                                     "its phase (its slots used up their plans: raise --plan)")
                say(f"pair {round_ + 1}, {kind:<14} {', '.join(line)}: new ÷ base "
                    f"{new.cpu_us / old.cpu_us:.3f} | {load_line()}")
        return results
    finally:
        for by_kind in transports.values():
            for transport in by_kind.values():
                await transport.close()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    say(f"start: {load_line()}")
    if args.base and args.interleave:
        interleaved(args)
    elif args.base:
        against_base(args)
    else:
        serve_and_run(args)
    if args.profile:
        profile_report(args.profile, args.only)
    say(f"end: {load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
