"""Service benchmark: SubmitAction and event delivery against the empty Ping, one real process.

    python bench/service.py [--quick] [--clients 64] [--subscribers 100,1000] [--rate 10]

Starts its own redis-server (AOF on, `appendfsync everysec`) and one `python -m risk_service`
process on it, then measures, all in one run on the same server:

1. Throughput: `--clients` concurrent clients (default 64 calls in flight), each playing its own
   classic game, against the empty unary Ping with the same concurrency. Phases are interleaved
   (Ping, SubmitAction, Ping) and the baseline is the mean of the two Ping phases. Each game is
   created with a known seed, so the client rebuilds the exact game locally with the engine
   (`rules.create(options, seed)`) and plays it ahead of time: for every step it asks the
   engine who decides, lets the classic bot pick that seat's action and re-applies it locally.
   That plan of (seat, action) pairs is computed before the clock starts, so each measured call
   is one SubmitAction with the deciding seat's token, `expected_version` = the version of the
   previous reply (read with GetGame once every seat is joined) and a fresh request id; a reply
   that is not OK is counted as an error and ends that game's run (the reason is printed).
   The same games then go on three more ways, each phase metered alike: unary moves while
   every seat follows its game on StreamEvents (`submit_streams`), moves on one open Session
   stream per seat that also carries the game's events (`session`), and on one acks-only
   Session per seat (`session_acks`: the replies alone, what the unary call gives). The server
   CPU per call of each phase (/proc, the service process) is printed with its ratios to the
   unary SubmitAction and to the empty Ping (bench/RESULTS.md, "Issue 21, lever 1").
2. Event delivery: one game with N spectator subscribers (StreamEvents, no token) living in
   `--sub-procs` separate client processes; a driver submits actions at `--rate` per second.
   Delivery latency is the subscriber's receipt time of the action's last event minus the time
   the driver got the SubmitAction reply (CLOCK_MONOTONIC is system-wide on Linux, so times
   from different processes compare). A receipt can precede the reply (the feed reads Redis
   while the reply is still on its way), so some latencies are negative; the time from the
   driver's send is printed too. Streams that fail or never get an event are counted and their
   errors printed. Baseline: the empty Ping with one request in flight (mean of a phase before
   and after the delivery runs).
3. Fan-out at saturation: right after the largest delivery run, on the same game and streams,
   the driver submits `--burst` actions back to back (each as soon as the previous reply
   arrives, fewer than the subscriber buffer so no stream is cut off). Delivered messages/s =
   event messages received by all subscribers for those actions ÷ the time from the first
   submit to the last receipt; baseline: the empty Ping's requests/s with `--clients` in
   flight from section 1. Server CPU over the burst is printed: below ~90% of one core, the
   subscribers (clients), not the server, set the pace.
   Each delivery run is made once per `--batch` value (default 0 and 64, on a new game with
   new streams each time): the subscribers' StreamEventsRequest.max_batch. With batching a
   message may carry several events (those a subscriber is behind on), so both are counted:
   event messages and events delivered per second, and server CPU per delivered event.
4. Catch-up: after the burst, `--catch-up` new spectator streams (in this process, on one
   connection per 100) open from seq 0 of the same game at once and read its whole log (the
   events of the warm-up, the driving and the burst); events/s, messages and server CPU per
   delivered event until the last stream has the game's last seq. This is where a subscriber
   is furthest behind, so where batching (per `--batch`) shows most.

CPU shares come from /proc/<pid>/stat (utime + stime) deltas over each measured phase, in % of
one core. Client and server share the machine, so client CPU is server CPU's competitor.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import math
import multiprocessing as mp
import os
import platform
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, cast

import grpc

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc, session_pb2
from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_service.settings import Settings as ServiceSettings
from risk_testing.redis_server import RedisServer

# The test harness (service process, rpc helpers) lives in the repository's `tests` package.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from risk_testing.harness import ServiceProcess  # noqa: E402 - needs ROOT on sys.path
from risk_testing.rpc import bearer, create_request  # noqa: E402 - same reason
from risk_testing.wsclient import BINARY as WS_BINARY  # noqa: E402 - same reason
from risk_testing.wsclient import CLOSE as WS_CLOSE  # noqa: E402 - same reason
from risk_testing.wsclient import PING as WS_PING  # noqa: E402 - same reason
from risk_testing.wsclient import PONG as WS_PONG  # noqa: E402 - same reason
from risk_testing.wsclient import TEXT as WS_TEXT  # noqa: E402 - same reason
from risk_testing.wsclient import (  # noqa: E402 - same reason
    WebSocket,
    client_frame,
    server_frame_at,
    upgrade_request,
)

VARIANT = "classic"
CALL_TIMEOUT_S = 30.0
# 100 streams per connection: below the service's open-streams-per-connection limit (256).
STREAMS_PER_CHANNEL = 100
# phases whose moves go on open sessions (ws_: WebSockets to the HTTP port, acks only)
SESSION_KINDS = ("session", "session_acks", "ws_session_acks")
CLK_TCK = os.sysconf("SC_CLK_TCK")

Plan = list[tuple[int, game_pb2.Action]]


# ---- measurement helpers --------------------------------------------------------------------


def new_stub(channel: grpc.aio.Channel) -> Any:
    # generated grpc code ships without type stubs
    return service_pb2_grpc.RiskServiceStub(channel)  # type: ignore[no-untyped-call]


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of an ascending sequence (q in 0..100); NaN when empty."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def cpu_seconds(pid: int) -> float:
    """utime + stime of a whole process (all threads) from /proc/<pid>/stat."""
    with open(f"/proc/{pid}/stat") as f:
        after_name = f.read().rsplit(")", 1)[1].split()
    return (int(after_name[11]) + int(after_name[12])) / CLK_TCK


def machine_busy_seconds() -> float:
    """CPU time all processes on the machine spent busy (everything but idle and iowait)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:9]]
    return (sum(fields) - fields[3] - fields[4]) / CLK_TCK


class CpuMeter:
    """CPU time of named processes between start() and stop(), in % of one core.

    `other` is what the rest of the machine used meanwhile (other users' processes): on a
    shared 2-core machine it explains figures that move between runs.
    """

    def __init__(self, pids: dict[str, list[int]]) -> None:
        self.pids = pids
        self.before: dict[str, float] = {}
        self.wall = 0.0
        self.seconds = 0.0
        self.share: dict[str, float] = {}

    def _read(self) -> dict[str, float]:
        out = {name: sum(cpu_seconds(p) for p in pids) for name, pids in self.pids.items()}
        out["machine"] = machine_busy_seconds()
        return out

    def start(self) -> None:
        self.before = self._read()
        self.wall = time.monotonic()

    def stop(self) -> dict[str, float]:
        after = self._read()
        self.seconds = wall = time.monotonic() - self.wall
        share = {k: 100 * (after[k] - self.before[k]) / wall for k in after}
        machine = share.pop("machine")
        share["other"] = max(0.0, machine - sum(share.values()))
        self.share = share
        return share

    def line(self) -> str:
        return "cpu % of one core: " + ", ".join(f"{k} {v:.0f}" for k, v in self.share.items())


@dataclass
class PhaseResult:
    name: str
    calls: int = 0
    errors: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)  # seconds, ascending once merged
    notes: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.calls / self.seconds if self.seconds else 0.0

    def p(self, q: float) -> float:
        return percentile(self.latencies, q) * 1e3

    def line(self) -> str:
        err = f", {self.errors} errors" if self.errors else ""
        return (f"{self.calls} calls in {self.seconds:.1f} s, {self.rate:.0f}/s, "
                f"p50 {self.p(50):.2f} ms, p99 {self.p(99):.2f} ms{err}")


def merge(name: str, parts: Sequence[PhaseResult]) -> PhaseResult:
    out = PhaseResult(name)
    for part in parts:
        out.calls += part.calls
        out.errors += part.errors
        out.seconds = max(out.seconds, part.seconds)
        out.latencies.extend(part.latencies)
        out.notes.extend(part.notes)
    out.latencies.sort()
    return out


# ---- plans: a game played ahead of time by the engine --------------------------------------


def make_plan(options_pb: game_pb2.GameOptions, seed: int, length: int) -> Plan:
    """The first `length` (seat, action) steps of the bot game the server will hold for `seed`.

    The server creates the game from the same options and seed, so the local replica follows
    it exactly as long as every planned action is submitted in order.
    """
    variant, options = wire.options_from_proto(options_pb)
    rules = get_ruleset(variant)
    state, _ = rules.create(options, seed)
    plan: Plan = []
    while len(plan) < length and rules.outcome(state) is None:
        seat = rules.decision(state).seats[0]
        action = rules.bot_action(state, seat, (seed << 20) ^ len(plan))
        state, _ = rules.apply(state, seat, action)
        plan.append((seat, wire.action_to_proto(variant, action)))
    return plan


@dataclass
class Game:
    game_id: str
    seed: int
    tokens: list[str]
    start_version: int  # the version once every seat is taken (joining can start the game)
    start_seq: int
    plan: Plan = field(default_factory=list)
    version: int = 0  # the game's version after our last reply == the next expected_version
    broken: str = ""

    @property
    def step(self) -> int:
        """Our actions applied so far: the index of the next planned action."""
        return self.version - self.start_version

    def request(self) -> tuple[service_pb2.SubmitActionRequest, Any]:
        seat, action = self.plan[self.step]
        return (
            service_pb2.SubmitActionRequest(
                game_id=self.game_id, action=action, expected_version=self.version,
                request_id=f"bench-{self.version}",
            ),
            bearer(self.tokens[seat]),
        )


async def new_game(stub: Any, seed: int, players: int) -> Game:
    """A game with every seat taken; its version and last seq read back from GetGame."""
    created = await stub.CreateGame(create_request(seed=seed, players=players))
    game_id = created.game.game_id
    tokens = [
        (await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=s))).seat_token
        for s in range(players)
    ]
    summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    return Game(game_id, seed, tokens, summary.version, summary.last_seq,
                version=summary.version)


# ---- load worker process: Ping or SubmitAction with N calls in flight -----------------------


async def _ping_loop(stub: Any, deadline: float, result: PhaseResult, record: bool) -> None:
    request = service_pb2.PingRequest()
    while time.monotonic() < deadline:
        t0 = time.perf_counter()
        try:
            await stub.Ping(request, timeout=CALL_TIMEOUT_S)
        except grpc.aio.AioRpcError as error:
            result.errors += 1
            result.notes.append(f"ping: {error.code().name} {error.details()}")
            await asyncio.sleep(0.01)
            continue
        if record:
            result.latencies.append(time.perf_counter() - t0)
            result.calls += 1


async def _submit_loop(stub: Any, game: Game, deadline: float, result: PhaseResult,
                       record: bool) -> None:
    while time.monotonic() < deadline and not game.broken:
        if game.step >= len(game.plan):
            game.broken = f"plan of {len(game.plan)} actions used up (raise --plan)"
            return
        request, metadata = game.request()
        t0 = time.perf_counter()
        try:
            reply = await stub.SubmitAction(request, metadata=metadata, timeout=CALL_TIMEOUT_S)
        except grpc.aio.AioRpcError as error:
            result.errors += 1
            game.broken = f"{error.code().name} {error.details()} (at step {game.step})"
            return
        if record:
            result.latencies.append(time.perf_counter() - t0)
            result.calls += 1
        game.version = reply.version


class SeatSessions:
    """One open Session call per seat of a game (the `session` phase): a move is written on
    the deciding seat's stream and its acknowledgement awaited; the events every session
    also receives (the other seats' moves) are read and dropped, as a client would use them."""

    def __init__(self, *, acks_only: bool = False) -> None:
        self.acks_only = acks_only
        self.calls: dict[int, Any] = {}
        self.answers: dict[int, asyncio.Queue[session_pb2.SessionResponse]] = {}
        self.readers: list[asyncio.Task[None]] = []

    async def open(self, stubs: Callable[[], Any], game: Game, after_seq: int) -> None:
        for seat, token in enumerate(game.tokens):
            call = stubs().Session(metadata=bearer(token))
            await call.write(session_pb2.SessionRequest(open=session_pb2.SessionOpen(
                game_id=game.game_id, after_seq=after_seq, acks_only=self.acks_only)))
            self.calls[seat] = call
            self.answers[seat] = asyncio.Queue()
            self.readers.append(asyncio.create_task(self._read(call, self.answers[seat])))

    @staticmethod
    async def _read(call: Any, answers: asyncio.Queue[session_pb2.SessionResponse]) -> None:
        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.CancelledError):
            async for reply in call:
                if reply.WhichOneof("kind") != "event":
                    answers.put_nowait(reply)

    async def submit(self, game: Game) -> session_pb2.SessionResponse:
        seat, action = game.plan[game.step]
        await self.calls[seat].write(session_pb2.SessionRequest(submit=session_pb2.SessionAction(
            action=action, expected_version=game.version, request_id=f"bench-{game.version}")))
        return await asyncio.wait_for(self.answers[seat].get(), CALL_TIMEOUT_S)

    async def close(self) -> None:
        for call in self.calls.values():
            call.cancel()
        for reader in self.readers:
            reader.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)


class WsSeatSessions(SeatSessions):
    """SeatSessions over WebSockets to the HTTP port (server.websocket): the same messages."""

    def __init__(self, port: int, *, acks_only: bool = False) -> None:
        super().__init__(acks_only=acks_only)
        self.port = port
        self.sockets: dict[int, WebSocket] = {}

    async def open(self, stubs: Callable[[], Any], game: Game, after_seq: int) -> None:
        for seat, token in enumerate(game.tokens):
            ws = await WebSocket.connect("127.0.0.1", self.port, "/risk.v1.RiskService/Session",
                                         token=token)
            ws.send(session_pb2.SessionRequest(open=session_pb2.SessionOpen(
                game_id=game.game_id, after_seq=after_seq, acks_only=self.acks_only))
                .SerializeToString())
            self.sockets[seat] = ws
            self.answers[seat] = asyncio.Queue()
            self.readers.append(asyncio.create_task(self._read_ws(ws, self.answers[seat])))

    @staticmethod
    async def _read_ws(ws: WebSocket, answers: asyncio.Queue[session_pb2.SessionResponse]
                       ) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError, asyncio.CancelledError):
            while (message := await ws.receive()).opcode == WS_BINARY:
                reply = session_pb2.SessionResponse.FromString(message.data)
                if reply.WhichOneof("kind") != "event":
                    answers.put_nowait(reply)

    async def submit(self, game: Game) -> session_pb2.SessionResponse:
        seat, action = game.plan[game.step]
        self.sockets[seat].send(session_pb2.SessionRequest(submit=session_pb2.SessionAction(
            action=action, expected_version=game.version, request_id=f"bench-{game.version}"))
            .SerializeToString())
        return await asyncio.wait_for(self.answers[seat].get(), CALL_TIMEOUT_S)

    async def close(self) -> None:
        for ws in self.sockets.values():
            ws.writer.close()
        await super().close()


class SeatStreams:
    """One StreamEvents call per seat of a game, read and dropped: how a client of the unary
    calls follows the other seats' moves (the `submit_streams` phase)."""

    def __init__(self) -> None:
        self.readers: list[asyncio.Task[None]] = []

    def open(self, stubs: Callable[[], Any], game: Game, after_seq: int) -> None:
        for token in game.tokens:
            call = stubs().StreamEvents(service_pb2.StreamEventsRequest(
                game_id=game.game_id, after_seq=after_seq), metadata=bearer(token))
            self.readers.append(asyncio.create_task(self._read(call)))

    @staticmethod
    async def _read(call: Any) -> None:
        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.CancelledError):
            async for _reply in call:
                pass

    async def close(self) -> None:
        for reader in self.readers:
            reader.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)


async def _session_loop(sessions: SeatSessions, game: Game, deadline: float,
                        result: PhaseResult, record: bool) -> None:
    """As _submit_loop, each move on the deciding seat's open Session stream."""
    while time.monotonic() < deadline and not game.broken:
        if game.step >= len(game.plan):
            game.broken = f"plan of {len(game.plan)} actions used up (raise --plan)"
            return
        t0 = time.perf_counter()
        answer = await sessions.submit(game)
        if answer.WhichOneof("kind") != "ack":
            result.errors += 1
            game.broken = f"session refused the move: {answer.error.status!r} (step {game.step})"
            return
        if record:
            result.latencies.append(time.perf_counter() - t0)
            result.calls += 1
        game.version = service_pb2.SubmitActionResponse.FromString(
            answer.ack.submitted).version


async def _load_worker(conn: Connection, target: str, ws_port: int = 0) -> None:
    channel = grpc.aio.insecure_channel(target)
    await channel.channel_ready()
    stub = new_stub(channel)
    games: list[Game] = []
    # the sessions get channels of their own, STREAMS_PER_CHANNEL calls each: 64 games of 4
    # seats would fill one connection's open-stream limit
    session_channels: list[grpc.aio.Channel] = []
    opened = 0
    sessions: dict[str, SeatSessions] = {}

    async def last_seq(game: Game) -> int:
        """Where a seat's new stream starts: after the game's last event, so no backlog."""
        got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))
        return int(got.game.last_seq)

    def session_stub() -> Any:
        nonlocal opened
        if opened % STREAMS_PER_CHANNEL == 0:
            # a local subchannel pool: a connection of its own, not one shared by channels
            session_channels.append(grpc.aio.insecure_channel(
                target, options=[("grpc.use_local_subchannel_pool", 1)]))
        opened += 1
        return new_stub(session_channels[-1])

    while True:
        command, args = await asyncio.to_thread(conn.recv)
        if command == "games":
            players, plan_length, games = args
            options_pb = create_request(players=players).options
            for game in games:
                game.plan = make_plan(options_pb, game.seed, plan_length)
            conn.send(("ok", None))
        elif command == "run":
            kind, in_flight, seconds, record = args
            result = PhaseResult(kind)
            started = time.monotonic()
            deadline = started + seconds
            for key in [k for k in sessions if not k.startswith(f"{kind}:")]:
                await sessions.pop(key).close()  # another kind's sessions end before this one
            if kind in SESSION_KINDS:
                for game in games:
                    key = f"{kind}:{game.game_id}"
                    if key not in sessions:  # opened once, before the clock
                        sessions[key] = (WsSeatSessions(ws_port, acks_only=True)
                                         if kind == "ws_session_acks" else
                                         SeatSessions(acks_only=kind == "session_acks"))
                        await sessions[key].open(session_stub, game, await last_seq(game))
                started = time.monotonic()
                deadline = started + seconds
            streams: list[SeatStreams] = []
            if kind == "submit_streams":
                for game in games:
                    streams.append(SeatStreams())
                    streams[-1].open(session_stub, game, await last_seq(game))
                await asyncio.sleep(3.0)  # every stream open and live before the clock
                started = time.monotonic()
                deadline = started + seconds
            if kind == "ping":
                loops = [_ping_loop(stub, deadline, result, record) for _ in range(in_flight)]
            elif kind in SESSION_KINDS:
                loops = [_session_loop(sessions[f"{kind}:{g.game_id}"], g, deadline, result,
                                       record) for g in games]
            else:
                loops = [_submit_loop(stub, g, deadline, result, record) for g in games]
            await asyncio.gather(*loops)
            for seat_streams in streams:
                await seat_streams.close()
            if kind in ("submit", "submit_streams", *SESSION_KINDS):
                result.notes.extend(f"game {g.game_id} stopped: {g.broken}"
                                    for g in games if g.broken)
            result.seconds = time.monotonic() - started
            conn.send(("ok", result))
        else:
            for seat_sessions in sessions.values():
                await seat_sessions.close()
            for session_channel in session_channels:
                await session_channel.close()
            await channel.close()
            conn.send(("ok", None))
            return


def load_worker_main(conn: Connection, target: str, ws_port: int = 0) -> None:
    asyncio.run(_load_worker(conn, target, ws_port))


class LoadWorkers:
    """Client processes that each keep one channel and run the phases they are told to."""

    def __init__(self, ctx: Any, count: int, target: str, ws_port: int = 0) -> None:
        """`ws_port`: the HTTP port, for the `ws_session_acks` phase (sessions as WebSockets)."""
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        for _ in range(count):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=load_worker_main, args=(child, target, ws_port),
                               daemon=True)
            proc.start()
            child.close()  # so a dead worker reads as EOF here instead of a hang
            self.conns.append(parent)
            self.procs.append(proc)

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    async def ask(self, messages: Sequence[tuple[str, Any]]) -> list[Any]:
        for conn, message in zip(self.conns, messages, strict=True):
            conn.send(message)
        replies = []
        for conn in self.conns:
            status, value = await asyncio.to_thread(conn.recv)
            if status != "ok":
                raise RuntimeError(f"load worker failed: {value}")
            replies.append(value)
        return replies

    async def run(self, kind: str, in_flight: int, seconds: float, record: bool = True
                  ) -> PhaseResult:
        shares = split(in_flight, len(self.conns))
        parts = await self.ask([("run", (kind, n, seconds, record)) for n in shares])
        return merge(kind, parts)

    async def close(self) -> None:
        await self.ask([("close", None)] * len(self.conns))
        for proc in self.procs:
            proc.join(5)


def split(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


# ---- subscriber process: N spectator streams on one game ------------------------------------


LIVE, FAILED = 0, 1  # slots of the shared counters: streams that got an event, that failed


@dataclass(frozen=True)
class StreamJob:
    """What one subscriber process opens: `count` spectator streams on one game."""

    target: str
    game_id: str
    after_seq: int
    count: int
    max_batch: int = 0  # StreamEventsRequest.max_batch (0: one event per message)
    ws_port: int = 0  # not 0: the streams are WebSockets to the HTTP port on this port
    source: str | None = None  # the WebSockets' local address (see `sources`)


# the most streams one subscriber process opens (each a descriptor, and this machine's
# processes may not hold more than 20,000), and from one local address (the ephemeral ports to
# one server port: 32768-60999)
STREAMS_PER_PROC = 15_000
UPGRADES_IN_FLIGHT = 200  # per subscriber process (see `_subscribe_ws`)
STREAMS_PER_SOURCE = 25_000


def subscriber_parts(count: int, at_least: int) -> list[int]:
    """How many streams each subscriber process opens: `at_least` processes, more when
    `count` needs them."""
    return split(count, max(at_least, math.ceil(count / STREAMS_PER_PROC)))


def sources(count: int, parts: int) -> list[str | None]:
    """Each subscriber process's local address: 127.0.0.1 (None) while one address has
    ports enough, else 127.0.1.1, 127.0.1.2, ... round the processes."""
    need = math.ceil(count / STREAMS_PER_SOURCE)
    if need <= 1:
        return [None] * parts
    return [f"127.0.1.{1 + i}" for i in range(parts)]  # parts >= need (subscriber_parts)


@dataclass
class Received:
    """One stream's receipts: when each version's last event arrived, and how many messages
    ended with an event of each version."""

    at: dict[int, int] = field(default_factory=dict)  # version -> CLOCK_MONOTONIC ns
    messages: dict[int, int] = field(default_factory=dict)  # version -> messages


async def _subscribe(stub: Any, request: service_pb2.StreamEventsRequest,
                     received: Received, ready: Any, errors: list[str]) -> None:
    call = stub.StreamEvents(request)
    first = True
    try:
        async for reply in call:
            _received(reply, received, ready, first)
            first = False
    except asyncio.CancelledError:
        call.cancel()
        raise
    except grpc.aio.AioRpcError as error:
        errors.append(f"{error.code().name} {error.details()}")
        with ready.get_lock():
            ready[FAILED] += 1


def _received(reply: service_pb2.StreamEventsResponse, received: Received, ready: Any,
              first: bool, now: int | None = None) -> None:
    """`reply`'s receipt (`now`, CLOCK_MONOTONIC ns; None: this moment)."""
    now = time.monotonic_ns() if now is None else now
    events = reply.events or (reply.event,)
    # the last event of an action wins: the action is delivered once all of it is
    for event in events:
        received.at[event.version] = now
    version = events[-1].version
    received.messages[version] = received.messages.get(version, 0) + 1
    if first:
        with ready.get_lock():
            ready[LIVE] += 1


class _WsSpectator(asyncio.Protocol):
    """One spectator stream over a WebSocket (server.websocket), read by the event loop's
    callbacks: the upgrade, then each frame as it arrives, timestamped and decoded where it
    lands. A subscriber process holds thousands of these; a task and a StreamReader per
    socket cost the client several times what the service spends sending (bench/RESULTS.md,
    "Spectators at scale"), and on one machine the clients' CPU delays their own receipts."""

    PATH = "/risk.v1.RiskService/StreamEvents"

    def __init__(self, request: bytes, received: Received, ready: Any,
                 errors: list[str]) -> None:
        self.request = request
        self.received = received
        self.ready = ready
        self.errors = errors
        self.buffer = b""
        self.upgraded = False
        # done at the 101; failed (ConnectionError) when refused or closed before it
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.first = True
        self.ended = False
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        host, port = self.transport.get_extra_info("peername")[:2]
        self.transport.write(upgrade_request(host, port, self.PATH))

    def data_received(self, data: bytes) -> None:
        now = time.monotonic_ns()
        buffer = self.buffer + data if self.buffer else data
        if not self.upgraded:
            head, found, buffer = buffer.partition(b"\r\n\r\n")
            if not found:
                self.buffer = head
                return
            status = head.split(b"\r\n", 1)[0]
            if self.opened.done():  # its opener was cancelled (the bench is stopping)
                self.close()
                return
            if b" 101 " not in status:
                self.opened.set_exception(ConnectionRefusedError(status.decode()))
                self.close()
                return
            self.upgraded = True
            self.opened.set_result(None)
            assert self.transport is not None
            self.transport.write(client_frame(WS_BINARY, self.request))
        at = 0
        while (found_frame := server_frame_at(buffer, at)) is not None:
            opcode, payload, at = found_frame
            self._frame(opcode, payload, now)
        self.buffer = buffer[at:]

    def _frame(self, opcode: int, payload: bytes, now: int) -> None:
        if opcode == WS_BINARY:
            _received(service_pb2.StreamEventsResponse.FromString(payload), self.received,
                      self.ready, self.first, now)
            self.first = False
        elif opcode == WS_CLOSE:
            code = struct.unpack_from("!H", payload)[0] if len(payload) >= 2 else 0
            self._end(f"closed {code} {payload[2:].decode(errors='replace')}")
        elif opcode == WS_PING and self.transport is not None:
            self.transport.write(client_frame(WS_PONG, payload))
        elif opcode == WS_TEXT:
            self.errors.append(payload.decode(errors="replace"))

    def _end(self, error: str) -> None:
        if not self.ended:
            self.ended = True
            self.errors.append(error)
            with self.ready.get_lock():
                self.ready[FAILED] += 1
        if self.transport is not None:
            self.transport.close()

    def close(self) -> None:
        """The bench is done with it: not a failure."""
        self.ended = True
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if not self.opened.done():
            self.opened.set_exception(ConnectionResetError("closed before the upgrade"))
        elif self.upgraded and not self.ended:
            self._end(f"connection lost: {exc}")


async def _subscribe_ws(port: int, request: bytes, received: Received, ready: Any,
                        errors: list[str], *, source: str | None = None,
                        gate: asyncio.Semaphore | None = None) -> _WsSpectator | None:
    """Open one `_WsSpectator`, at most `gate`'s count of a process's upgrades at once (a
    crowd of tens of thousands connecting in the same second is a connect storm, not the
    spectators this measures: the service closes a connection whose request it has not read
    within RISK_HTTP_REQUEST_TIMEOUT_MS). A connection refused, reset or closed before the
    upgrade is tried again after a growing pause, as the web app's feed does, five times."""
    loop = asyncio.get_running_loop()
    for attempt in range(5):
        spectator = _WsSpectator(request, received, ready, errors)
        try:
            async with gate if gate is not None else contextlib.nullcontext():
                await loop.create_connection(
                    lambda spectator=spectator: spectator, "127.0.0.1", port,  # type: ignore[misc]
                    local_addr=(source, 0) if source is not None else None)
                await spectator.opened
            return spectator
        except OSError as error:
            if attempt == 4:
                errors.append(f"connect {error}")
                with ready.get_lock():
                    ready[FAILED] += 1
                return None
            await asyncio.sleep(0.2 * 2 ** attempt)
    return None


async def _subscriber_proc(job: StreamJob, ready: Any, stop: Any
                           ) -> tuple[list[Received], list[str]]:
    if job.ws_port:
        request = service_pb2.StreamEventsRequest(
            game_id=job.game_id, after_seq=job.after_seq, max_batch=job.max_batch)
        received = [Received() for _ in range(job.count)]
        errors: list[str] = []
        gate = asyncio.Semaphore(UPGRADES_IN_FLIGHT)
        opening = [asyncio.create_task(_subscribe_ws(
            job.ws_port, request.SerializeToString(), received[i], ready, errors,
            source=job.source, gate=gate)) for i in range(job.count)]
        await asyncio.to_thread(stop.wait)
        for task in opening:
            task.cancel()
        for spectator in await asyncio.gather(*opening, return_exceptions=True):
            if isinstance(spectator, _WsSpectator):
                spectator.close()
        return received, errors
    return await _grpc_subscriber_proc(job, ready, stop)


async def _grpc_subscriber_proc(job: StreamJob, ready: Any, stop: Any
                                ) -> tuple[list[Received], list[str]]:
    # A local subchannel pool per channel: otherwise channels to one target share one TCP
    # connection, and the server caps open streams per connection.
    channels = [grpc.aio.insecure_channel(job.target,
                                          options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in range(math.ceil(job.count / STREAMS_PER_CHANNEL))]
    request = service_pb2.StreamEventsRequest(game_id=job.game_id, after_seq=job.after_seq,
                                              max_batch=job.max_batch)
    received = [Received() for _ in range(job.count)]
    errors: list[str] = []
    tasks = [
        asyncio.create_task(_subscribe(
            new_stub(channels[i // STREAMS_PER_CHANNEL]),
            request, received[i], ready, errors,
        ))
        for i in range(job.count)
    ]
    await asyncio.to_thread(stop.wait)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for channel in channels:
        await channel.close()
    return received, errors


def subscriber_main(conn: Connection, job: StreamJob, ready: Any, stop: Any) -> None:
    # WebSocket spectators on uvloop (libuv, as the peers' node clients are): thousands of
    # sockets per process, and the client, not the service, is what saturates a small
    # machine first (bench/spectators.py); grpc.aio keeps asyncio's own loop
    loop_factory = None
    if job.ws_port:
        with contextlib.suppress(ImportError):
            import uvloop  # noqa: PLC0415 - a bench-only choice, where it is installed
            loop_factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        received, errors = runner.run(_subscriber_proc(job, ready, stop))
    conn.send(([(sorted(r.at.items()), sorted(r.messages.items())) for r in received],
               errors))


# ---- the benchmark ----------------------------------------------------------------------------


@dataclass
class Settings:
    clients: int
    client_procs: int
    players: int
    plan: int
    warmup_s: float
    ping_s: float
    submit_s: float
    subscribers: list[int]
    sub_procs: int
    rate: float
    deliver_s: float
    ping1_s: float
    seed: int
    log_level: str
    keep: bool
    burst: int = 600
    batch: list[int] = field(default_factory=lambda: [0, 64])
    catch_up: int = 100


def parse_args(argv: Sequence[str] | None = None) -> Settings:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="short phases for a ~30 s smoke run (explicit flags still win)")
    parser.add_argument("--clients", type=int, default=64,
                        help="calls in flight for the throughput phases; one game per client")
    parser.add_argument("--client-procs", type=int, default=1,
                        help="load-generator processes the clients are spread over")
    parser.add_argument("--players", type=int, default=4, help="seats per classic game")
    parser.add_argument("--plan", type=int, default=None,
                        help="actions planned per game (default: enough for 2,000 submits/s)")
    parser.add_argument("--warmup", type=float, default=None, help="seconds, not recorded")
    parser.add_argument("--ping-seconds", type=float, default=None,
                        help="each of the two Ping phases")
    parser.add_argument("--submit-seconds", type=float, default=None)
    parser.add_argument("--subscribers", default="100,1000",
                        help="comma-separated subscriber counts, one delivery run each")
    parser.add_argument("--sub-procs", type=int, default=2, help="subscriber client processes")
    parser.add_argument("--rate", type=float, default=10.0, help="driver actions per second")
    parser.add_argument("--deliver-seconds", type=float, default=None,
                        help="measured driving time per delivery run")
    parser.add_argument("--ping1-seconds", type=float, default=None,
                        help="each 1-in-flight Ping phase")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--burst", type=int, default=600,
                        help="actions of the saturation burst after the largest delivery run "
                             "(0: none; keep it under RISK_SUBSCRIBER_BUFFER events)")
    parser.add_argument("--catch-up", type=int, default=100,
                        help="streams that read the whole game from seq 0 after the burst "
                             "(0: none)")
    parser.add_argument("--batch", default="0,64",
                        help="comma-separated StreamEventsRequest.max_batch values, one "
                             "delivery run (and burst) each per subscriber count")
    parser.add_argument("--log-level", default="info",
                        help="the service's RISK_LOG_LEVEL (info: one log line per RPC)")
    parser.add_argument("--keep", action="store_true", help="keep the temp dir with the logs")
    args = parser.parse_args(argv)
    quick = args.quick

    def pick(value: float | None, full: float, short: float) -> float:
        return value if value is not None else (short if quick else full)

    submit_s = pick(args.submit_seconds, 20, 4)
    warmup_s = pick(args.warmup, 2, 1)
    # one plan per game for the submit phases and then the session phase (same games)
    plan = args.plan or math.ceil(2000 * 4 * (submit_s + warmup_s) / args.clients) + 50
    return Settings(
        clients=args.clients, client_procs=args.client_procs, players=args.players, plan=plan,
        warmup_s=warmup_s, ping_s=pick(args.ping_seconds, 10, 2), submit_s=submit_s,
        subscribers=[int(n) for n in args.subscribers.split(",") if n],
        sub_procs=args.sub_procs, rate=args.rate,
        deliver_s=pick(args.deliver_seconds, 20, 3), ping1_s=pick(args.ping1_seconds, 5, 1.5),
        seed=args.seed, log_level=args.log_level, keep=args.keep, burst=args.burst,
        batch=[int(n) for n in args.batch.split(",") if n], catch_up=args.catch_up,
    )


def machine_line() -> str:
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    commit = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                            capture_output=True, text=True, check=False).stdout.strip()
    return (f"{os.cpu_count()} cores ({model}), Linux {platform.release()}, "
            f"python {platform.python_version()}, grpcio {grpc.__version__}; "
            f"commit {commit or 'unknown'}")


def say(text: str = "") -> None:
    print(text, flush=True)


async def throughput(s: Settings, stub: Any, workers: LoadWorkers, meter: CpuMeter
                     ) -> dict[str, Any]:
    say(f"\n== 1. SubmitAction vs Ping, {s.clients} in flight "
        f"({s.clients} games, {s.players} seats each, {s.client_procs} client process(es))")
    t0 = time.monotonic()
    games = [await new_game(stub, s.seed + i, s.players) for i in range(s.clients)]
    await workers.ask([("games", (s.players, s.plan, part))
                       for part in chunks(games, len(workers.conns))])
    say(f"setup: {len(games)} games created and joined, {s.plan} actions planned per game "
        f"by the engine from each seed ({time.monotonic() - t0:.1f} s, not measured)")

    def notes(result: PhaseResult) -> None:
        for note in sorted(set(result.notes))[:5]:
            say(f"  ! {note}")
        if len(set(result.notes)) > 5:
            say(f"  ! ... {len(set(result.notes)) - 5} more")

    notes(await workers.run("ping", s.clients, s.warmup_s / 2, record=False))
    notes(await workers.run("submit", s.clients, s.warmup_s / 2, record=False))

    server_ms: dict[str, float] = {}  # phase -> server CPU ms per call (redis apart)

    async def phase(kind: str, seconds: float, label: str) -> PhaseResult:
        meter.start()
        result = await workers.run(kind, s.clients, seconds)
        meter.stop()
        say(f"{kind:<6} phase: {result.line()} | {meter.line()}")
        notes(result)
        if not result.calls:
            raise RuntimeError(f"no {kind} call succeeded")
        server_ms[label] = meter.share["server"] / 100 * meter.seconds / result.calls * 1e3
        return result

    ping_a = await phase("ping", s.ping_s, "ping_a")
    submit = await phase("submit", s.submit_s, "submit")
    submit_cpu = dict(meter.share)
    ping_b = await phase("ping", s.ping_s, "ping_b")
    # the same games go on: unary moves while every seat follows the game on StreamEvents
    # (as a unary client that shows the other seats' moves does), then through one Session
    # stream per seat (opened before the clock), which carries both
    submit_streams = await phase("submit_streams", s.submit_s, "submit_streams")
    notes(await workers.run("session", s.clients, s.warmup_s / 2, record=False))
    session = await phase("session", s.submit_s, "session")
    session_cpu = dict(meter.share)
    # and through acks-only sessions: the replies and nothing else, as the unary calls give
    notes(await workers.run("session_acks", s.clients, s.warmup_s / 2, record=False))
    acks = await phase("session_acks", s.submit_s, "session_acks")
    ping_c = await phase("ping", s.ping_s, "ping_c")
    ping_rate = (ping_a.rate + ping_b.rate) / 2
    ping_p50 = (ping_a.p(50) + ping_b.p(50)) / 2
    ping_p99 = (ping_a.p(99) + ping_b.p(99)) / 2
    ratio_rate = submit.rate / ping_rate
    ratio_p99 = submit.p(99) / ping_p99
    say(f"submit: {submit.calls} calls, {submit.rate:.0f}/s, p50 {submit.p(50):.2f} ms, "
        f"p99 {submit.p(99):.2f} ms | ping (mean of 2 phases): {ping_rate:.0f}/s, "
        f"p50 {ping_p50:.2f} ms, p99 {ping_p99:.2f} ms | "
        f"ratio throughput {ratio_rate:.2f}, p99 {ratio_p99:.1f}")
    say(f"submit/ping throughput ratio: {ratio_rate:.2f}")
    ping_after = (ping_b.rate + ping_c.rate) / 2  # the pings either side of the session phase
    ping_ms = (server_ms["ping_a"] + server_ms["ping_b"] + server_ms["ping_c"]) / 3
    say(f"session: {session.calls} moves, {session.rate:.0f}/s, p50 {session.p(50):.2f} ms, "
        f"p99 {session.p(99):.2f} ms | session/ping throughput ratio "
        f"{session.rate / ping_after:.2f} | session/submit throughput ratio "
        f"{session.rate / submit.rate:.2f}")
    say(f"submit with every seat on StreamEvents: {submit_streams.calls} moves, "
        f"{submit_streams.rate:.0f}/s, p99 {submit_streams.p(99):.2f} ms, server cpu "
        f"{server_ms['submit_streams']:.3f} ms per move (its events to the {s.players} seats' "
        f"streams included) | session/(submit + streams) cpu per move "
        f"{server_ms['session'] / server_ms['submit_streams']:.2f}, throughput "
        f"{session.rate / submit_streams.rate:.2f}")
    say(f"acks-only session: {acks.calls} moves, {acks.rate:.0f}/s, p50 {acks.p(50):.2f} ms, "
        f"p99 {acks.p(99):.2f} ms, server cpu {server_ms['session_acks']:.3f} ms per move | "
        f"acks-only/submit cpu per move {server_ms['session_acks'] / server_ms['submit']:.2f}, "
        f"throughput {acks.rate / submit.rate:.2f} | acks-only/ping cpu per call "
        f"{server_ms['session_acks'] / ping_ms:.2f}")
    say(f"server cpu per call: ping {ping_ms:.3f} ms, submit {server_ms['submit']:.3f} ms, "
        f"session move {server_ms['session']:.3f} ms (its events to the other "
        f"{s.players - 1} seats' sessions included) | session/submit "
        f"{server_ms['session'] / server_ms['submit']:.2f}, submit/ping "
        f"{server_ms['submit'] / ping_ms:.2f}, session/ping {server_ms['session'] / ping_ms:.2f}")
    return {"submit": submit, "ping_a": ping_a, "ping_b": ping_b, "ping_rate": ping_rate,
            "ping_p50": ping_p50, "ping_p99": ping_p99, "ratio_rate": ratio_rate,
            "ratio_p99": ratio_p99, "submit_cpu": submit_cpu, "session": session,
            "session_cpu": session_cpu, "session_acks": acks, "server_ms": server_ms}


def chunks(items: list[Game], parts: int) -> list[list[Game]]:
    out: list[list[Game]] = [[] for _ in range(parts)]
    for i, item in enumerate(items):
        out[i % parts].append(item)
    return out


async def ping_one(workers: LoadWorkers, seconds: float, meter: CpuMeter) -> PhaseResult:
    meter.start()
    result = await workers.run("ping", 1, seconds)  # split(1, n): only the first worker calls
    meter.stop()
    say(f"ping   1 in flight: {result.line()} | {meter.line()}")
    return result


@dataclass
class Env:
    """What the measuring code shares: settings, the parent's stub, processes to meter."""

    s: Settings
    target: str
    stub: Any
    ctx: Any
    pids: dict[str, list[int]]


async def delivery(env: Env, count: int, seed: int, burst: int, max_batch: int = 0, *,
                   ws_port: int = 0, max_warmup_s: float = 30.0,
                   endpoints: Sequence[tuple[str, int]] = ()) -> dict[str, Any]:
    """`ws_port`: the subscribers' streams are WebSockets to that HTTP port; `max_warmup_s`:
    how long the warm-up waits for every subscriber to be live; `endpoints`: (gRPC target,
    HTTP port) of each service instance of a deployment, the subscriber processes spread
    round them in turn (default: `env.target` and `ws_port`), the driver on `env.target`."""
    s, stub, ctx = env.s, env.stub, env.ctx
    game = await new_game(stub, seed, s.players)
    game.plan = make_plan(create_request(players=s.players).options, seed,
                          math.ceil(s.rate * (s.deliver_s + max_warmup_s)) + 10 + burst)
    ready = ctx.Array("i", 2)  # [LIVE, FAILED], shared with the subscriber processes
    stop = ctx.Event()
    procs, conns = [], []
    ends = list(endpoints) or [(env.target, ws_port)]
    # at least one subscriber process per instance, and as many per instance as there are
    # for the first (the count split evenly)
    parts = [n for n in subscriber_parts(
        count, len(ends) * math.ceil(max(s.sub_procs, 1) / len(ends))) if n]
    for i, (n, source) in enumerate(zip(parts, sources(count, len(parts)), strict=True)):
        target, port = ends[i % len(ends)]
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=subscriber_main, daemon=True,
                           args=(child, StreamJob(target, game.game_id, game.start_seq, n,
                                                  max_batch, port, source),
                                 ready, stop))
        proc.start()
        child.close()
        procs.append(proc)
        conns.append(parent)
    meter = CpuMeter({**env.pids, "driver": [os.getpid()], "subscribers": [p.pid for p in procs]})

    reply_ns: dict[int, int] = {}
    send_ns: dict[int, int] = {}
    events_of: dict[int, int] = {}  # version -> event messages it made
    submit_lat: list[float] = []

    async def submit_one() -> None:
        request, metadata = game.request()
        sent = time.monotonic_ns()
        reply = await stub.SubmitAction(request, metadata=metadata, timeout=CALL_TIMEOUT_S)
        got = time.monotonic_ns()
        send_ns[reply.version], reply_ns[reply.version] = sent, got
        events_of[reply.version] = len(reply.events)
        submit_lat.append((got - sent) / 1e9)
        game.version = reply.version

    async def drive(until: Callable[[], bool]) -> int:
        """Submit at s.rate per second (on a fixed schedule) until `until()`; returns count."""
        start, n = time.monotonic(), 0
        while not until():
            if game.step >= len(game.plan):
                raise RuntimeError("delivery plan used up (the game ended?)")
            await submit_one()
            n += 1
            await asyncio.sleep(max(0.0, start + n / s.rate - time.monotonic()))
        return n

    # Warm-up: drive until every subscriber has received an event, so all streams are
    # registered with the server's feed before the measured actions.
    t0 = time.monotonic()
    warm = await drive(lambda: ready[LIVE] + ready[FAILED] >= count
                       or time.monotonic() - t0 > max_warmup_s)
    live = ready[LIVE]
    say(f"{live} of {count} subscribers in {len(procs)} processes connected and live "
        f"after {time.monotonic() - t0:.1f} s ({warm} warm-up actions)")
    if live < count:
        say(f"  ! {count - live} streams failed or got no event during the warm-up; measuring "
            "the live ones (the others are counted below)")
    first_measured = game.version + 1
    submit_lat.clear()
    meter.start()
    t1 = time.monotonic()
    driven = await drive(lambda: time.monotonic() - t1 >= s.deliver_s)
    elapsed = time.monotonic() - t1
    meter.stop()
    measured = range(first_measured, game.version + 1)
    await asyncio.sleep(1.0)  # let the last deliveries land
    burst_versions = range(0)
    burst_meter = CpuMeter(meter.pids)
    if burst:
        burst_start = time.monotonic_ns()
        first_burst = game.version + 1
        burst_meter.start()
        for _ in range(burst):
            await submit_one()
        await asyncio.sleep(3.0)  # (the receipts, not this pause, end the measured time)
        burst_meter.stop()
        burst_versions = range(first_burst, game.version + 1)
    stop.set()
    results = [await asyncio.to_thread(conn.recv) for conn in conns]
    catch_up = (await _catch_up(env, game.game_id, max_batch, meter.pids)
                if burst and s.catch_up else None)
    for proc in procs:
        proc.join(10)

    from_reply: list[float] = []
    from_send: list[float] = []
    missing = stalled = 0
    errors: list[str] = []
    burst_events, burst_messages, burst_changes, burst_last = 0, 0, 0, 0
    measured_events = measured_messages = 0
    for received_lists, errs in results:
        errors.extend(errs)
        for pairs, message_pairs in received_lists:
            got, messages = dict(pairs), dict(message_pairs)
            for v in burst_versions:
                if v in got:
                    burst_events += events_of[v]
                    burst_messages += messages.get(v, 0)
                    burst_changes += 1
                    burst_last = max(burst_last, got[v])
            if not got:  # never received an event, not even in the warm-up
                stalled += 1
                continue
            for v in measured:
                t = got.get(v)
                if t is None:
                    missing += 1
                    continue
                measured_events += events_of[v]
                measured_messages += messages.get(v, 0)
                from_reply.append((t - reply_ns[v]) / 1e9)
                from_send.append((t - send_ns[v]) / 1e9)
    from_reply.sort()
    from_send.sort()
    submit_lat.sort()
    def ms(values: list[float], q: float) -> float:
        return percentile(values, q) * 1e3

    out = {
        "count": count, "max_batch": max_batch, "actions": driven, "rate": driven / elapsed,
        "events": measured_events, "messages": measured_messages,
        # server CPU seconds per delivered event while driving at s.rate
        "cpu_per_event": meter.share["server"] / 100 * meter.seconds / max(1, measured_events),
        "deliveries": len(from_reply), "missing": missing, "stalled": stalled, "errors": errors,
        "p50": ms(from_reply, 50), "p99": ms(from_reply, 99), "max": ms(from_reply, 100),
        "min": from_reply[0] * 1e3 if from_reply else math.nan, "send_p99": ms(from_send, 99),
        "submit_p50": ms(submit_lat, 50), "submit_p99": ms(submit_lat, 99),
        "cpu": dict(meter.share),
    }
    say(f"deliver {count} subscribers, max_batch {max_batch}: {driven} actions at "
        f"{out['rate']:.1f}/s, {measured_events} events in {measured_messages} messages, "
        f"server cpu {out['cpu_per_event'] * 1e6:.1f} µs per delivered event, "
        f"{out['deliveries']} deliveries ({missing} missing, {stalled} streams without any "
        f"event, {len(errors)} stream errors), reply->receipt p50 "
        f"{out['p50']:.2f} ms, p99 {out['p99']:.2f} ms, max {out['max']:.1f} ms, "
        f"min {out['min']:.2f} ms | send->receipt p99 {out['send_p99']:.2f} ms | driver "
        f"submit p50 {out['submit_p50']:.2f} ms, p99 {out['submit_p99']:.2f} ms")
    say(f"  {meter.line()} (during the measured driving)")
    if burst:
        expected = sum(events_of[v] for v in burst_versions) * (count - stalled)
        seconds = (burst_last - burst_start) / 1e9 if burst_last else math.nan
        server_s = burst_meter.share["server"] / 100 * burst_meter.seconds
        # changes: (action, subscriber) pairs delivered, as bench/peers.py counts them
        out.update(burst_rate=burst_messages / seconds, burst_events=burst_events / seconds,
                   burst_changes=burst_changes / seconds,
                   burst_cpu=dict(burst_meter.share),
                   burst_cpu_per_event=server_s / max(1, burst_events))
        say(f"burst {count} subscribers, max_batch {max_batch}: {len(burst_versions)} actions "
            f"back to back, {burst_events} events delivered ({expected - burst_events} "
            f"missing) in {burst_messages} messages, in {seconds:.2f} s from the first submit "
            f"to the last receipt = {out['burst_events']:.0f} events/s, "
            f"{out['burst_rate']:.0f} messages/s, server cpu "
            f"{out['burst_cpu_per_event'] * 1e6:.1f} µs per delivered event | "
            f"{burst_meter.line()}")
    if catch_up is not None:
        out["catch_up"] = catch_up
    for error in sorted(set(errors))[:5]:
        say(f"  ! stream error: {error} (x{errors.count(error)})")
    return out


async def _catch_up(env: Env, game_id: str, max_batch: int, pids: dict[str, list[int]]
                    ) -> dict[str, float]:
    """Section 4: `catch_up` streams read the game from seq 0 to its last seq at once."""
    count = env.s.catch_up
    last = (await env.stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.last_seq
    channels = [grpc.aio.insecure_channel(env.target,
                                          options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in range(math.ceil(count / STREAMS_PER_CHANNEL))]
    request = service_pb2.StreamEventsRequest(game_id=game_id, max_batch=max_batch)
    tallies = [0] * count  # messages per stream

    async def read(i: int) -> None:
        call = new_stub(channels[i // STREAMS_PER_CHANNEL]).StreamEvents(request)
        try:
            async for reply in call:
                tallies[i] += 1
                if (reply.events[-1] if reply.events else reply.event).seq >= last:
                    return
        finally:
            call.cancel()

    meter = CpuMeter(pids)
    meter.start()
    started = time.monotonic()
    await asyncio.gather(*(read(i) for i in range(count)))
    seconds = time.monotonic() - started
    meter.stop()
    for channel in channels:
        await channel.close()
    events, messages = count * last, sum(tallies)
    server_s = meter.share["server"] / 100 * meter.seconds
    out = {"events_per_s": events / seconds, "messages": messages, "events": events,
           "cpu_per_event": server_s / events, "seconds": seconds}
    say(f"catch-up, max_batch {max_batch}: {count} streams read the game's {last} events from "
        f"seq 0 in {seconds:.2f} s: {events} events in {messages} messages, "
        f"{out['events_per_s']:.0f} events/s, server cpu {out['cpu_per_event'] * 1e6:.1f} µs "
        f"per delivered event | {meter.line()}")
    return out


async def bench(s: Settings, target: str, pids: dict[str, list[int]]) -> dict[str, Any]:
    ctx = mp.get_context("spawn")  # never fork a process that already runs grpc threads
    workers = LoadWorkers(ctx, s.client_procs, target)
    all_pids = {**pids, "clients": workers.pids}
    meter = CpuMeter(all_pids)
    channel = grpc.aio.insecure_channel(target)
    stub = new_stub(channel)
    env = Env(s, target, stub, ctx, pids)
    whole = CpuMeter(pids)
    whole.start()
    try:
        results: dict[str, Any] = {"throughput": await throughput(s, stub, workers, meter)}
        say(f"\n== 2. Event delivery: one game, spectator subscribers in {s.sub_procs} client "
            f"processes, driver at {s.rate:g} actions/s (client and server share the machine's "
            f"{os.cpu_count()} cores)")
        pings = [await ping_one(workers, s.ping1_s, meter)]
        runs = []
        for i, count in enumerate(s.subscribers):
            burst = s.burst if count == max(s.subscribers) else 0
            for j, max_batch in enumerate(s.batch):
                runs.append(await delivery(env, count, s.seed + 10_000 + 100 * j + i, burst,
                                           max_batch))
        pings.append(await ping_one(workers, s.ping1_s, meter))
        ping1_p99 = statistics.mean(p.p(99) for p in pings)
        ping1_p50 = statistics.mean(p.p(50) for p in pings)
        for run in runs:
            say(f"delivery {run['count']} subscribers, max_batch {run['max_batch']}: p99 "
                f"{run['p99']:.2f} ms | ping (1 in "
                f"flight, mean of 2 phases): p50 {ping1_p50:.2f} ms, p99 {ping1_p99:.2f} ms | "
                f"ratio p99 {run['p99'] / ping1_p99:.1f} | server cpu "
                f"{run['cpu']['server']:.0f}% of one core")
        ping_rate = results["throughput"]["ping_rate"]
        for run in runs:
            if "burst_rate" in run:
                say(f"fan-out at saturation, {run['count']} subscribers, max_batch "
                    f"{run['max_batch']}: {run['burst_rate']:.0f} messages/s ÷ ping "
                    f"{ping_rate:.0f}/s ({s.clients} in flight, section 1) = ratio "
                    f"{run['burst_rate'] / ping_rate:.1f} (target >= 12); "
                    f"{run['burst_events']:.0f} events/s = ratio "
                    f"{run['burst_events'] / ping_rate:.1f} | server cpu "
                    f"{run['burst_cpu']['server']:.0f}% of one core, "
                    f"{run['burst_cpu_per_event'] * 1e6:.1f} µs per delivered event")
        base = {(r["count"], "burst" in r): r for r in runs if r["max_batch"] == s.batch[0]}
        for run in runs:
            ref = base.get((run["count"], "burst" in run))
            if ref is None or run is ref:
                continue
            cpu = run["cpu_per_event"] / ref["cpu_per_event"]
            parts = [f"server cpu per delivered event {cpu:.2f}",
                     f"p99 {run['p99'] / ref['p99']:.2f}"]
            if "burst_rate" in run:
                parts += [f"burst events/s {run['burst_events'] / ref['burst_events']:.2f}",
                          f"messages/s {run['burst_rate'] / ref['burst_rate']:.2f}",
                          "burst cpu per event "
                          f"{run['burst_cpu_per_event'] / ref['burst_cpu_per_event']:.2f}"]
            if "catch_up" in run and "catch_up" in ref:
                mine, theirs = run["catch_up"], ref["catch_up"]
                parts += [
                    f"catch-up events/s {mine['events_per_s'] / theirs['events_per_s']:.2f}",
                    f"catch-up cpu per event "
                    f"{mine['cpu_per_event'] / theirs['cpu_per_event']:.2f}"]
            say(f"batching: {run['count']} subscribers, max_batch {run['max_batch']} ÷ "
                f"max_batch {ref['max_batch']}: " + ", ".join(parts))
        whole.stop()
        say(f"whole run ({whole.seconds:.0f} s from section 1): {whole.line()}")
        results.update(deliveries=runs, ping1_p99=ping1_p99, ping1_p50=ping1_p50)
        return results
    finally:
        await channel.close()
        await workers.close()


def service_limits(env: dict[str, str]) -> str:
    """The limit settings the service runs with (from `env`, else their defaults)."""
    limits = ServiceSettings.from_env(env)
    return ", ".join(f"RISK_{name.upper()}={getattr(limits, name)}" for name in (
        "max_message_bytes", "max_streams_per_connection", "rate_limit_per_s",
        "rate_limit_burst", "subscriber_buffer", "max_page_size"))


def main(argv: Sequence[str] | None = None) -> int:
    s = parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="risk-bench-"))
    redis = RedisServer(work / "redis", appendfsync="everysec")
    redis.start()
    # the spectators all come from this one address: the per-caller stream bound is off
    service = ServiceProcess(redis.url, work, RISK_LOG_LEVEL=s.log_level,
                             RISK_MAX_STREAMS_PER_CALLER="0")
    try:
        service.start()
        assert service.proc is not None and redis.pid is not None
        # the harness passes this environment on, so RISK_* variables here change the service
        inherited = " ".join(f"{k}={v}" for k, v in sorted(os.environ.items())
                             if k.startswith("RISK_") and k != "RISK_LOG_LEVEL")
        version = subprocess.run(["redis-server", "--version"], capture_output=True, text=True,
                                 check=False).stdout.split()
        say(f"date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M:%S} UTC; "
            f"machine: {machine_line()}")
        say(f"redis: {' '.join(version[:3])} (own process, pid {redis.pid}), appendonly yes, "
            f"appendfsync {redis.appendfsync}, save '' (no RDB); data under {work}")
        say(f"service: python -m risk_service (pid {service.proc.pid}) at {service.target}, "
            f"RISK_LOG_LEVEL={s.log_level} (one JSON line per RPC to {service.log_path.name}); "
            f"other settings: {inherited or 'defaults'}")
        say("service limits: " + service_limits({**os.environ, **service.env}))
        say("settings: " + ", ".join(f"{k}={v}" for k, v in vars(s).items() if k != "keep"))
        pids = {"server": [service.proc.pid], "redis": [redis.pid]}
        idle = CpuMeter({})
        idle.start()
        time.sleep(1.0)
        idle.stop()
        say(f"before the run, other processes kept {idle.share['other']:.0f}% of one core busy "
            f"(of {100 * (os.cpu_count() or 1)}%); client and server share this machine")
        asyncio.run(bench(s, service.target, pids))
    finally:
        service.stop()
        redis.stop()
        if s.keep:
            say(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
