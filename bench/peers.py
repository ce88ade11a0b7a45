"""Peers side by side: the service against boardgame.io 0.50.2, Colyseus 0.16 and the floor of
its own stack, one sitting.

    python bench/peers.py [--quick] [--rounds 3] [--games 64] [--spectators 1000]
                          [--peers bgio,colyseus,floor]

Rounds alternate the sides (the order rotates each round) and every figure printed at the
end is the median over the rounds, as ours ÷ peer. Each side starts fresh servers every round:
- ours: redis-server (AOF, appendfsync everysec) and `python -m risk_service` (bench/common.py's
  stack); clients in Python grpc.aio (bench/service.py's load worker and subscriber processes).
  Every SubmitAction runs the classic rules and is committed to Redis before it is acknowledged.
- boardgame.io: its own server (bench/peers/bgio_server.js, in-memory storage), socket.io
  clients; Colyseus: @colyseus/core with the ws transport (bench/peers/colyseus_server.js),
  colyseus.js clients. Both validate a "place an army" move (the mover must own the territory,
  bench/peers/board.js) in memory and persist nothing: an upper bound for them. Their clients
  are node processes (bench/peers/load.js).
- the grpc.aio floor: the same trivial game on the service's own stack (CPython, grpc.aio on
  uvloop, protobuf; bench/peers/floor_server.py, one open stream per seated client, a watcher's
  update serialised once for all), with Python grpc.aio clients (bench/peers/floor_load.py).
  No rules, no Redis, no logging: where it is behind a peer on a figure, no design on this
  stack is ahead of that peer there, and ours ÷ floor is what our own work per move costs.
The peers' packages are installed on first run with `npm ci` from bench/peers/package-lock.json
into bench/peers/node_modules (git-ignored); nothing is downloaded while measuring.

Jobs, per side and round:
1. moves: `--games` games with one seated client each, each sending its next move as soon as the
   previous one is acknowledged (ours: unary SubmitAction, then the same games through one
   acks-only Session stream per seat); moves/s, round-trip p99, server CPU seconds per 1,000 moves
   (/proc/<pid>/stat of the server; ours: Redis' too, printed apart) and the clients' CPU.
2. idle games: `--idle-games` more games created and left alone; server RSS growth (ours: service
   + Redis) per game.
3. spectators: `--spectators` subscribers of one game in 2 client processes; RSS growth per idle
   subscriber (peers: measured once all are synced, before any move; ours: bench/memory.py's
   idle_subscribers on a separate game), then a driver makes `--rate` moves/s for `--seconds`:
   delivery p99 = a subscriber's receipt of the change minus the driver's acknowledgement
   (CLOCK_MONOTONIC, system-wide), and server CPU per 1,000 delivered changes (a change = one move
   reaching one subscriber; Colyseus may fold several moves into one 20 Hz patch, ours may send
   more than one event message per action). Then a burst of `--burst` moves back to back:
   delivered messages/s = messages received by all subscribers for the burst ÷ the time from the
   first move to the last receipt; changes/s the same for changes. Ours runs this job twice,
   with StreamEventsRequest.max_batch 0 (one event per message) and 64 (what the Python SDK
   and the Node client ask for: a subscriber that is behind gets the events it is behind on
   in one message); the figures compared with the peers are the batched run's, and a line
   prints batched ÷ unbatched.
4. floors, in the same sitting: the grpc.aio floor runs the moves job a second time as unary
   `Move` calls (one call per move, as ours' unary SubmitAction) and a third time with each
   game's moves on one WebSocket (its `--ws-port`: the service's way of reading and writing a
   WebSocket, the floor of ours' WebSocket sessions), and ours ends with
   bench/inprocess.py's moves (`submit` and `session`, `--games` games, the operations in one
   process on a Redis of their own): our move with no transport, whose `submit` has no
   session and no log line either, so no path can carry a move for less. Then the burdened
   floor: the floor's moves job again, on one stream, as unary calls and on one WebSocket,
   each move also burning the CPU our move alone took (the last ours' round's, in Python:
   floor_server.py's `--burn-us`), over a working set that stays in the core's caches (a
   lower bound) and again over about 11 MB. The two floors do not add up: a message costs
   the stack more once the loop's thread is busy for a move's length between messages, and
   the burdened floor is what a move of ours' weight costs on this stack with nothing of
   ours' glue.

The report ends with issue 39's goals, a line each: ours against the target (boardgame.io's
figure, or 3 or 2 times Colyseus'), met or MISSED, and beside each miss the floors above
against the same target (a floor that misses too says no design on what it stands for meets
the goal); then issue 37's item 6 over gRPC (10,000 spectators at 10 moves/s on one process):
the cores of server CPU that many messages take at the measured CPU per delivered message.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import math
import multiprocessing as mp
import os
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import grpc

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import inprocess  # noqa: E402 - needs ROOT on sys.path
from bench.common import rss_bytes, stack  # noqa: E402
from bench.memory import idle_subscribers, idle_subscribers_on  # noqa: E402
from bench.service import (  # noqa: E402
    CpuMeter,
    Env,
    LoadWorkers,
    chunks,
    delivery,
    new_game,
    new_stub,
    parse_args,
    percentile,
    say,
)
from risk_testing.rpc import create_request  # noqa: E402

PEERS_DIR = ROOT / "bench" / "peers"
BATCH = 64  # ours' subscribers' max_batch in the compared run (what the clients ask for)
PEERS = ("bgio", "colyseus", "floor")
NAMES = {"ours": "ours", "bgio": "boardgame.io 0.50.2", "colyseus": "Colyseus 0.16",
         "floor": "grpc.aio floor"}
# how each peer's server and load generator start (in bench/peers; the server takes --port P)
SERVERS = {"bgio": ["node", "bgio_server.js"], "colyseus": ["node", "colyseus_server.js"],
           "floor": [sys.executable, "floor_server.py"]}
LOADERS = {"bgio": ["node", "load.js"], "colyseus": ["node", "load.js"],
           "floor": [sys.executable, "floor_load.py"]}
Figures = dict[str, float]


def load_averages() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


# ---- the peers' node processes ----------------------------------------------------------------


def ensure_installed() -> None:
    """`npm ci` from the committed lock file, once; the measured runs download nothing."""
    if (PEERS_DIR / "node_modules" / ".package-lock.json").exists():
        return
    say("installing the peers' packages: npm ci in bench/peers (once)")
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=PEERS_DIR,
                   check=True, stdout=subprocess.DEVNULL)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def peer_server(peer: str, *options: str) -> Iterator[tuple[str, int]]:
    """The peer's server on a free port, with `options`: yields (its URL, its pid)."""
    port = free_port()
    proc = subprocess.Popen([*SERVERS[peer], "--port", str(port), *options], cwd=PEERS_DIR,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("listening"):
                break
        else:
            raise RuntimeError(f"{peer} server exited with {proc.wait()}")
        # keep reading its output so a chatty server never blocks on a full pipe
        threading.Thread(target=proc.stdout.read, daemon=True).start()
        # the floor is a gRPC server: its clients take a target, not a URL
        yield (f"127.0.0.1:{port}" if peer == "floor" else f"http://127.0.0.1:{port}"), proc.pid
    finally:
        proc.terminate()
        proc.wait(10)


class NodeClient:
    """One load generator process (bench/peers/load.js, or floor_load.py for the floor):
    commands in on stdin, JSON lines out on stdout."""

    started: ClassVar[list[NodeClient]] = []  # every one, so a failed job leaves no process behind

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        NodeClient.started.append(self)

    @classmethod
    async def start(cls, peer: str, url: str, *args: str | int) -> NodeClient:
        proc = await asyncio.create_subprocess_exec(
            *LOADERS[peer], peer, url, *map(str, args), cwd=PEERS_DIR,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**28)
        return cls(proc)

    @property
    def pid(self) -> int:
        return self.proc.pid

    async def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = await self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"load generator (pid {self.pid}) exited with "
                               f"{await self.proc.wait()}")
        value: dict[str, Any] = json.loads(line)
        return value

    async def send(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command.encode() + b"\n")
        await self.proc.stdin.drain()

    async def wait(self) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.proc.wait(), 10)
        await self.kill()

    async def kill(self) -> None:
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


def cpu_per_1000(share_pct: float, seconds: float, count: int) -> float:
    """CPU seconds per 1,000 of `count` things from a CpuMeter share over `seconds`."""
    return share_pct / 100 * seconds / count * 1000 if count else math.nan


async def peer_moves(peer: str, url: str, pid: int, args: argparse.Namespace,
                     *, mode: str = "moves", prefix: str = "", ws_port: int = 0) -> Figures:
    """The moves job; `mode` "unary" (the floor only): each move a unary call of its own;
    "ws" (the floor only, on its `ws_port`): each game's moves on one WebSocket. Its figures
    are named with `prefix`."""
    client = await NodeClient.start(peer, url, mode, args.games, args.warmup, args.move_s,
                                    *([ws_port] if ws_port else []))
    meter = CpuMeter({"server": [pid], "clients": [client.pid]})
    start = await client.read()
    assert start["phase"] == "start", start
    meter.start()
    end = await client.read()
    meter.stop()
    await client.wait()
    say(f"  {mode}: {end['moves']} in {end['seconds']:.1f} s, "
        f"{end['moves'] / end['seconds']:.0f}/s, p50 {end['p50_ms']:.2f} ms, "
        f"p99 {end['p99_ms']:.2f} ms | {meter.line()}")
    return {f"{prefix}moves_per_s": end["moves"] / end["seconds"],
            f"{prefix}move_p99_ms": end["p99_ms"],
            f"{prefix}cpu_per_1000_moves": cpu_per_1000(meter.share["server"], meter.seconds,
                                                        end["moves"]),
            f"{prefix}client_cpu_moves": meter.share["clients"]}


async def peer_idle_games(peer: str, url: str, pid: int, count: int) -> Figures:
    before = rss_bytes(pid)
    client = await NodeClient.start(peer, url, "games", count)
    await client.read()
    await client.wait()
    await asyncio.sleep(1.0)
    after = rss_bytes(pid)
    say(f"  idle games: {count} created; server VmRSS {before / 2**20:.1f} -> "
        f"{after / 2**20:.1f} MB, {(after - before) / count:,.0f} bytes per game")
    return {"bytes_per_idle_game": (after - before) / count}


def delivered(acks: dict[str, int], watchers: list[list[tuple[int, int]]]
              ) -> tuple[list[float], int]:
    """Latencies (s) of each acknowledged version to each watcher (the first message carrying
    that version or a later one) and the count of messages those carried."""
    latencies: list[float] = []
    messages = 0
    versions = sorted(int(v) for v in acks)
    if not versions:
        return latencies, 0
    for pairs in watchers:
        seen = [v for v, _ in pairs]
        messages += sum(1 for v in seen if versions[0] <= v <= versions[-1])
        for version in versions:
            i = bisect.bisect_left(seen, version)
            if i < len(pairs):
                latencies.append((pairs[i][1] - acks[str(version)]) / 1e9)
    latencies.sort()
    return latencies, messages


async def peer_spectators(peer: str, url: str, pid: int, args: argparse.Namespace) -> Figures:
    driver = await NodeClient.start(peer, url, "driver")
    match = (await driver.read())["match"]
    before = rss_bytes(pid)
    half = args.spectators // 2
    watchers = [await NodeClient.start(peer, url, "watch", match, n)
                for n in (half, args.spectators - half)]
    ready = sum([(await w.read())["ready"] for w in watchers])
    await asyncio.sleep(args.settle)
    idle = (rss_bytes(pid) - before) / ready
    meter = CpuMeter({"server": [pid], "driver": [driver.pid],
                      "subscribers": [w.pid for w in watchers]})
    meter.start()
    await driver.send(f"drive {args.rate} {args.deliver_s}")
    drive = await driver.read()
    meter.stop()
    await asyncio.sleep(1.0)
    burst_meter = CpuMeter(meter.pids)
    burst_meter.start()
    burst_start = time.monotonic_ns()
    await driver.send(f"burst {args.burst}")
    burst = await driver.read()
    await asyncio.sleep(2.0)
    burst_meter.stop()
    await driver.send("quit")
    received: list[list[tuple[int, int]]] = []
    size = 0
    for watcher in watchers:
        await watcher.send("stop")
        out = await watcher.read()
        size = max(size, out["bytes"])
        received.extend([tuple(pair) for pair in w] for w in out["received"])
        await watcher.wait()
    await driver.wait()
    latencies, _ = delivered(drive["acks"], received)
    burst_changes, burst_messages = delivered(burst["acks"], received)
    last = max((t for pairs in received for v, t in pairs
                if str(v) in burst["acks"]), default=0)
    burst_rate = burst_messages / ((last - burst_start) / 1e9) if last else math.nan
    p99 = percentile(latencies, 99) * 1e3
    say(f"  spectators: {ready} synced, {idle:,.0f} bytes per idle subscriber; "
        f"{len(drive['acks'])} moves at {args.rate:g}/s -> {len(latencies)} deliveries, p50 "
        f"{percentile(latencies, 50) * 1e3:.1f} ms, p99 {p99:.1f} ms | {meter.line()}")
    burst_s = (last - burst_start) / 1e9 if last else math.nan
    say(f"  burst: {len(burst['acks'])} moves back to back, {burst_messages} messages "
        f"({len(burst_changes)} changes) in {burst_s:.2f} s, {burst_rate:.0f} messages/s, "
        f"{len(burst_changes) / burst_s:.0f} changes/s | {burst_meter.line()} | one update "
        f"message ~{size} bytes")
    return {"delivery_p99_ms": p99, "changes_per_s": len(burst_changes) / burst_s,
            "cpu_per_1000_delivered": cpu_per_1000(meter.share["server"], meter.seconds,
                                                   len(latencies)),
            "messages_per_s": burst_rate, "bytes_per_idle_subscriber": idle,
            "client_cpu_delivery": meter.share["driver"] + meter.share["subscribers"]}


async def floor_moves(url: str, pid: int, args: argparse.Namespace, ws_port: int,
                      prefix: str = "") -> Figures:
    """The floor's moves as unary calls and on one WebSocket (its moves on one open stream
    are the peers' moves job): the floors of a unary move and of a WebSocket session move."""
    figures = await peer_moves("floor", url, pid, args, mode="unary", prefix=f"{prefix}unary_")
    figures.update(await peer_moves("floor", url, pid, args, mode="ws", prefix=f"{prefix}ws_",
                                    ws_port=ws_port))
    return figures


async def measure_peer(peer: str, args: argparse.Namespace) -> Figures:
    ws_port = free_port() if peer == "floor" else 0
    with peer_server(peer, *(["--ws-port", str(ws_port)] if ws_port else [])) as (url, pid):
        say(f"\n-- {NAMES[peer]}: server pid {pid} at {url}, load {load_averages()}")
        try:
            figures = await peer_idle_games(peer, url, pid, args.idle_games)
            figures.update(await peer_moves(peer, url, pid, args))
            if peer == "floor":
                figures.update(await floor_moves(url, pid, args, ws_port))
            figures.update(await peer_spectators(peer, url, pid, args))
        finally:
            await _kill_clients()
    if peer == "floor" and args.burn_us:
        figures.update(await burdened_floor(args))
    return figures


# the floor's ways in: (what, its figures' prefix, the prefix of ours' figures on that way in)
FLOOR_KINDS = (("one open stream", "", "session_"), ("unary calls", "unary_", ""),
               ("one WebSocket", "ws_", "ws_"))
# the burdened floor's runs: (its figures' prefix, the burn's working set in dicts, what that is)
BURNS = (("burdened_", 64, "a working set in the core's caches (the lower bound)"),
         ("burdened_wide_", 50_000, "a working set of about 11 MB"))


async def burdened_floor(args: argparse.Namespace) -> Figures:
    """The floor's moves again, on one stream and as unary calls, each move also spending
    our move's own CPU (`args.burn_us`, bench/peers/floor_server.py's `--burn-us`): what the
    stack costs a move once the loop's thread is as busy per move as ours is. Twice: with a
    burn whose working set stays in the core's caches (`burdened_*`, a lower bound), and with
    one over about 11 MB (`burdened_wide_*`: what the stack's evictions add to a move
    whose working set is that large). The burn is `burn_us_per_move`."""
    figures: Figures = {"burn_us_per_move": args.burn_us}
    for prefix, objects, what in BURNS:
        ws_port = free_port()
        with peer_server("floor", "--burn-us", f"{args.burn_us:.1f}", "--burn-objects",
                         str(objects), "--ws-port", str(ws_port)) as (url, pid):
            say(f"  burdened floor: each move also burns {args.burn_us:.1f} us of CPU (our "
                f"move alone, the last measured), over {what}")
            try:
                figures.update(await peer_moves("floor", url, pid, args, prefix=prefix))
                figures.update(await floor_moves(url, pid, args, ws_port, prefix))
            finally:
                await _kill_clients()
        for _name, kind, _ours in FLOOR_KINDS:  # what the stack adds to this round's burn, in us
            figures[f"{prefix}{kind}added_us"] = (
                figures[f"{prefix}{kind}cpu_per_1000_moves"] * 1000 - args.burn_us)
    return figures


async def _kill_clients() -> None:
    for client in NodeClient.started:
        await client.kill()
    NodeClient.started.clear()


# ---- ours ---------------------------------------------------------------------------------


async def ours_moves(args: argparse.Namespace, target: str, stub: Any, ctx: Any,
                     pids: dict[str, list[int]], *, ws_port: int = 0) -> Figures:
    """`ws_port`: the HTTP port, for a third phase on WebSocket sessions (0: none)."""
    # the games play on through every phase: enough moves planned for unary, gRPC session
    # and WebSocket session phases at up to 3,000, 6,000 and 10,000 moves/s (a game whose
    # plan ran out stops, and a phase with fewer games in flight is slower for it)
    plan = math.ceil((3000 + 6000 + (10_000 if ws_port else 0))
                     * (args.move_s + args.warmup) / args.games) + 50
    s = parse_args(["--clients", str(args.games), "--submit-seconds", str(args.move_s),
                    "--warmup", str(args.warmup), "--plan", str(plan)])
    workers = LoadWorkers(ctx, args.client_procs, target, ws_port)
    try:
        games = [await new_game(stub, args.seed + i, s.players) for i in range(args.games)]
        await workers.ask([("games", (s.players, s.plan, part))
                           for part in chunks(games, len(workers.conns))])
        await workers.run("submit", args.games, args.warmup, record=False)
        meter = CpuMeter({**pids, "clients": workers.pids})
        meter.start()
        result = await workers.run("submit", args.games, args.move_s)
        meter.stop()
        say(f"  moves: {result.line()} | {meter.line()}")
        for note in sorted(set(result.notes))[:3]:
            say(f"  ! {note}")
        # the same games go on, each move on its seat's open Session stream (one per seat,
        # opened in the warm-up, acks only: each seat hears its replies, as the one unary
        # client per game does, and as the peers' one client per game does)
        await workers.run("session_acks", args.games, args.warmup, record=False)
        via = CpuMeter({**pids, "clients": workers.pids})
        via.start()
        session = await workers.run("session_acks", args.games, args.move_s)
        via.stop()
        say(f"  moves through acks-only sessions: {session.line()} | {via.line()}")
        for note in sorted(set(session.notes))[:3]:
            say(f"  ! {note}")
        ws_figures: Figures = {}
        if ws_port:  # and on, each seat's session a WebSocket to the HTTP port
            await workers.run("ws_session_acks", args.games, args.warmup, record=False)
            ws_meter = CpuMeter({**pids, "clients": workers.pids})
            ws_meter.start()
            ws = await workers.run("ws_session_acks", args.games, args.move_s)
            ws_meter.stop()
            say(f"  moves through acks-only WebSocket sessions: {ws.line()} | "
                f"{ws_meter.line()}")
            for note in sorted(set(ws.notes))[:3]:
                say(f"  ! {note}")
            ws_figures = {"ws_moves_per_s": ws.rate, "ws_move_p99_ms": ws.p(99),
                          "ws_cpu_per_1000_moves": cpu_per_1000(
                              ws_meter.share["server"], ws_meter.seconds, ws.calls)}
    finally:
        await workers.close()
    return {"moves_per_s": result.rate, "move_p99_ms": result.p(99),
            "cpu_per_1000_moves": cpu_per_1000(meter.share["server"], meter.seconds,
                                               result.calls),
            "redis_cpu_per_1000_moves": cpu_per_1000(meter.share["redis"], meter.seconds,
                                                     result.calls),
            "client_cpu_moves": meter.share["clients"],
            "session_moves_per_s": session.rate, "session_move_p99_ms": session.p(99),
            "session_cpu_per_1000_moves": cpu_per_1000(via.share["server"], via.seconds,
                                                       session.calls), **ws_figures}


async def ours_idle_games(args: argparse.Namespace, stub: Any, pids: dict[str, list[int]]
                          ) -> Figures:
    def rss() -> int:
        return rss_bytes(pids["server"][0]) + rss_bytes(pids["redis"][0])

    before = rss()
    for i in range(args.idle_games):
        await stub.CreateGame(create_request(seed=args.seed + 50_000 + i))
    await asyncio.sleep(1.0)
    after = rss()
    say(f"  idle games: {args.idle_games} created; service + Redis VmRSS "
        f"{before / 2**20:.1f} -> {after / 2**20:.1f} MB, "
        f"{(after - before) / args.idle_games:,.0f} bytes per game")
    return {"bytes_per_idle_game": (after - before) / args.idle_games}


async def ours_spectators(args: argparse.Namespace, target: str, stub: Any, ctx: Any,
                          pids: dict[str, list[int]], *, ws_port: int = 0) -> Figures:
    """`ws_port`: the HTTP port, for a third phase on WebSocket sessions (0: none)."""
    idle = await idle_subscribers(argparse.Namespace(
        subscribers=args.spectators, seed=args.seed + 70_000, settle=args.settle),
        target, stub, pids["server"][0])
    s = parse_args(["--subscribers", str(args.spectators), "--rate", str(args.rate),
                    "--deliver-seconds", str(args.deliver_s), "--burst", str(args.burst)])
    figures: dict[int, Figures] = {}
    for i, max_batch in enumerate((0, BATCH)):
        run = await delivery(Env(s, target, stub, ctx, pids), args.spectators,
                             args.seed + 10_000 + 100 * i, args.burst, max_batch)
        seconds = run["actions"] / run["rate"]
        figures[max_batch] = {
            "delivery_p99_ms": run["p99"],
            "cpu_per_1000_delivered": cpu_per_1000(run["cpu"]["server"], seconds,
                                                   run["deliveries"]),
            "messages_per_s": run["burst_rate"], "changes_per_s": run["burst_changes"],
            "events_per_s": run["burst_events"],
            "cpu_per_1000_events": 1000 * run["burst_cpu_per_event"],
            "client_cpu_delivery": run["cpu"]["driver"] + run["cpu"]["subscribers"]}
    on, off = figures[BATCH], figures[0]
    say(f"  ours, max_batch {BATCH} ÷ max_batch 0: " + ", ".join(
        f"{key} {on[key]:.4g} ÷ {off[key]:.4g} = {on[key] / off[key]:.2f}" for key in on))
    run = await delivery(Env(s, target, stub, ctx, pids), args.spectators,
                         args.seed + 10_000 + 300, args.burst, BATCH, ws_port=ws_port)
    seconds = run["actions"] / run["rate"]
    ws = {"delivery_p99_ms": run["p99"],
          "cpu_per_1000_delivered": cpu_per_1000(run["cpu"]["server"], seconds,
                                                 run["deliveries"]),
          "messages_per_s": run["burst_rate"], "changes_per_s": run["burst_changes"],
          "client_cpu_delivery": run["cpu"]["driver"] + run["cpu"]["subscribers"]}
    say("  ours, WebSocket ÷ gRPC (both max_batch 64): " + ", ".join(
        f"{key} {ws[key]:.4g} ÷ {value:.4g} = {ws[key] / value:.2f}"
        for key, value in on.items() if key in ws))
    return {**on, **{f"{key}_unbatched": value for key, value in off.items()},
            "bytes_per_idle_subscriber": idle,
            **{f"ws_{key}": value for key, value in ws.items()}}


async def ours_jobs(args: argparse.Namespace, target: str, pids: dict[str, list[int]],
                    ws_port: int) -> Figures:
    ctx = mp.get_context("spawn")  # never fork a process that already runs grpc threads
    channel = grpc.aio.insecure_channel(target)
    stub = new_stub(channel)
    try:
        figures = await ours_idle_games(args, stub, pids)
        figures.update(await ours_moves(args, target, stub, ctx, pids, ws_port=ws_port))
        figures.update(await ours_spectators(args, target, stub, ctx, pids, ws_port=ws_port))
        return figures
    finally:
        await channel.close()


async def ours_idle_websockets(args: argparse.Namespace, target: str, server_pid: int,
                               ws_port: int) -> float:
    return await idle_subscribers_on(argparse.Namespace(
        subscribers=args.spectators, seed=args.seed + 80_000, settle=args.settle,
        ws_port=ws_port), target, server_pid)


def measure_ours(args: argparse.Namespace) -> Figures:
    say(f"\n-- ours: load {load_averages()}")
    with stack({"round": "ours"}, args.log_level, http=True) as st:
        assert st.redis.pid is not None
        pids = {"server": [st.service_pid], "redis": [st.redis.pid]}
        figures = asyncio.run(ours_jobs(args, st.service.target, pids, st.service.http_port))
    # idle WebSocket spectators on a service of their own: on the one above, they would take
    # the heap the gRPC spectators freed, and its RSS would not show them
    with stack({"round": "ours, idle WebSocket spectators"}, args.log_level, http=True) as st:
        figures["ws_bytes_per_idle_subscriber"] = asyncio.run(ours_idle_websockets(
            args, st.service.target, st.service_pid, st.service.http_port))
    figures.update(ours_alone(args))
    # the burdened floor's burn in later floor rounds (round 1 runs ours first)
    args.burn_us = figures["alone_submit_cpu_per_1000_moves"] * 1000
    return figures


def ours_alone(args: argparse.Namespace) -> Figures:
    """Our move with no transport: bench/inprocess.py's unary and session moves (the
    operations in one process on a redis-server of its own, `--games` games), its medians as
    `alone_{submit,session}_{moves_per_s,cpu_per_1000_moves}`. The unary one has no session
    and no log line either: no path carries a move for less CPU than it, or more moves/s from
    one process. Its CPU is the whole process's (the harness and the Redis client too)."""
    lines, medians = inprocess.run_child(
        ["--modes", "submit,session", "--games", str(args.games), "--seconds", str(args.move_s),
         "--rounds", "1", "--log-level", args.log_level])
    for line in lines:
        say(f"  our move alone (in process): {line}")
    return {f"alone_{mode}_{key}": value for mode, got in medians.items() for key, value in (
        ("moves_per_s", got["moves_per_s"]),
        ("cpu_per_1000_moves", got["cpu_us_per_move"] / 1000))}


# ---- issue 39's goals, each with the floors measured in the same sitting ------------------

# the floors beside a figure: (what, side, key); a floor that misses the goal itself says the
# goal is out of reach of anything built on what it stands for
_STREAM_FLOOR = ("the grpc.aio floor's moves on one open stream", "floor", "{k}")
_UNARY_FLOOR = ("the grpc.aio floor's moves as unary calls", "floor", "unary_{k}")
# our operations' unary move in one process on Redis (bench/inprocess.py `submit`): no
# transport, no session, no log line; so a lower bound for every path, not only the unary one
_ALONE = ("our move alone (in process: no transport, no session, no log line)", "ours",
          "alone_submit_{k}")
_FLOOR = ("the grpc.aio floor", "floor", "{k}")
# the floor's moves, each also burning our move alone's CPU (its figures exist for moves only)
_BURDENED_STREAM = ("the burdened floor's moves on one open stream (the grpc.aio floor + our "
                    "move's CPU)", "floor", "burdened_{k}")
_BURDENED_UNARY = ("the burdened floor's unary moves", "floor", "burdened_unary_{k}")
_WS_FLOOR = ("the floor's moves on one WebSocket (websockets' Sans-I/O on uvloop)", "floor",
             "ws_{k}")
_BURDENED_WS = ("the burdened floor's moves on one WebSocket", "floor", "burdened_ws_{k}")
ISSUE_37_SPECTATORS, ISSUE_37_RATE = 10_000, 10.0
MOVES = ("moves_per_s", "move_p99_ms", "cpu_per_1000_moves")
DELIVERY = ("delivery_p99_ms", "cpu_per_1000_delivered", "messages_per_s")
# (path, ours' key pattern, figures, floors); "alone" figures exist for moves/s and CPU only
PATHS = [
    ("unary gRPC", "{k}", MOVES, (_UNARY_FLOOR, _ALONE, _BURDENED_UNARY)),
    ("gRPC sessions", "session_{k}", MOVES, (_STREAM_FLOOR, _ALONE, _BURDENED_STREAM)),
    ("WebSocket sessions", "ws_{k}", MOVES, (_WS_FLOOR, _ALONE, _BURDENED_WS)),
    ("gRPC streams", "{k}", DELIVERY, (_FLOOR,)),
    ("WebSocket", "ws_{k}", DELIVERY, ()),
    ("any path", "{k}", ("bytes_per_idle_game",), (_FLOOR,)),
    ("gRPC streams", "{k}", ("bytes_per_idle_subscriber",), (_FLOOR,)),
    ("WebSocket", "ws_{k}", ("bytes_per_idle_subscriber",), ()),
]
# the goals against Colyseus: (path, ours' key, figure, at most this many times Colyseus')
COLYSEUS = [
    ("gRPC sessions", "session_cpu_per_1000_moves", "cpu_per_1000_moves", 3.0,
     (_STREAM_FLOOR, _ALONE, _BURDENED_STREAM)),
    ("WebSocket sessions", "ws_cpu_per_1000_moves", "cpu_per_1000_moves", 3.0,
     (_WS_FLOOR, _ALONE, _BURDENED_WS)),
    ("gRPC streams", "cpu_per_1000_delivered", "cpu_per_1000_delivered", 2.0, (_FLOOR,)),
    ("WebSocket", "ws_cpu_per_1000_delivered", "cpu_per_1000_delivered", 2.0, ()),
]


def report_goals(med: dict[str, Figures]) -> None:
    """Issue 39's goals, one line each: ours against the target (boardgame.io's figure, or a
    multiple of Colyseus'), met or missed, and beside each miss the floors measured in this
    sitting, each against the same target. Then issue 37's item 6 over gRPC."""
    checks: list[tuple[str, str, str, float, str, Sequence[tuple[str, str, str]]]] = []
    if "bgio" in med:
        checks += [(path, ours.format(k=key), key, med["bgio"][key], "boardgame.io's",
                    floors) for path, ours, keys, floors in PATHS for key in keys]
    if "colyseus" in med:
        checks += [(path, ours, key, times * med["colyseus"][key], f"{times:g} x Colyseus'",
                    floors) for path, ours, key, times, floors in COLYSEUS]
    rates = {key for key, _label, _fmt, higher in ROWS if higher}
    if checks:
        say("\n== issue 39's goals (ours ÷ target: at most 1 for a cost, at least 1 for a "
            "rate)")
    met = 0
    for path, ours_key, key, target, what, floors in checks:
        higher = key in rates

        def holds(value: float, target: float = target, higher: bool = higher) -> bool:
            return value >= target if higher else value <= target

        value = med["ours"].get(ours_key, math.nan)
        ok = holds(value)
        met += ok
        line = (f"{'met   ' if ok else 'MISSED'} {path}, {key}: ours {value:.4g} ÷ {what} "
                f"{target:.4g} = {value / target:.2f}")
        if not ok:
            seen = [(name, med[side][pattern.format(k=key)]) for name, side, pattern in floors
                    if pattern.format(k=key) in med.get(side, {})]
            line += "; " + ("; ".join(
                f"{name} {floor:.4g} ÷ target = {floor / target:.2f} "
                f"({'meets it' if holds(floor) else 'misses it too'})" for name, floor in seen)
                if seen else "no floor measured for this figure")
        say(line)
    if checks:
        say(f"{met} of {len(checks)} goals met")
    ours = med["ours"]
    if "alone_session_cpu_per_1000_moves" in ours:
        say("our move alone, in process on Redis (bench/inprocess.py, whole-process CPU): "
            f"unary {ours['alone_submit_cpu_per_1000_moves']:.3f} s per 1,000 moves, "
            f"{ours['alone_submit_moves_per_s']:,.0f} moves/s; session (with its admission, "
            f"its log line and a heavier harness) {ours['alone_session_cpu_per_1000_moves']:.3f}"
            f" s, {ours['alone_session_moves_per_s']:,.0f} moves/s")
    floor = med.get("floor", {})
    if "burdened_cpu_per_1000_moves" in floor:
        burn = floor["burn_us_per_move"]
        for prefix, _objects, what in BURNS:
            say(f"the burdened floor over {what} (each move also burns our move alone's CPU, the "
                f"last measured in its round: median {burn:.1f} us): " + "; ".join(
                    f"{name} {floor[f'{prefix}{kind}cpu_per_1000_moves'] * 1000:.0f} us per "
                    f"move, the stack adding {floor[f'{prefix}{kind}added_us']:.0f} to its "
                    "round's burn "
                    f"(unburdened {floor[f'{kind}cpu_per_1000_moves'] * 1000:.0f}; ours "
                    f"{ours[f'{mine}cpu_per_1000_moves'] * 1000:.0f})"
                    for name, kind, mine in FLOOR_KINDS))
    # issue 37, item 6, on gRPC: 10,000 spectators of one game at 10 moves/s on one process
    # is about 100,000 messages/s; at a path's CPU per delivered message that is this many
    # cores, and one process has one. (Over WebSocket a game's spectators past 256 are swept,
    # a cheaper path than this run's per-message figure shows, and bench/spectators.py
    # measures the 10,000 directly: docs/capacity.md.)
    need = ISSUE_37_SPECTATORS * ISSUE_37_RATE
    cores = [("gRPC streams", ours["cpu_per_1000_delivered"])]
    if "floor" in med:
        cores.append(("the grpc.aio floor", med["floor"]["cpu_per_1000_delivered"]))
    say(f"issue 37 item 6 over gRPC ({ISSUE_37_SPECTATORS:,} spectators x {ISSUE_37_RATE:g} "
        f"moves/s on one process, about {need:,.0f} messages/s): cores of server CPU at the "
        "CPU per delivered message above: " + "; ".join(
            f"{name} {cpu / 1000 * need:.1f}" for name, cpu in cores))


# ---- the sitting --------------------------------------------------------------------------

# (figure, label, format, higher is better)
ROWS = [
    ("moves_per_s", "moves/s, {games} games x 1 client", "{:,.0f}", True),
    ("move_p99_ms", "move round-trip p99 (ms)", "{:.1f}", False),
    ("cpu_per_1000_moves", "server CPU s per 1,000 moves", "{:.3f}", False),
    ("delivery_p99_ms", "{spectators} spectators x {rate:g} changes/s: delivery p99 (ms)",
     "{:.1f}", False),
    ("cpu_per_1000_delivered", "server CPU s per 1,000 delivered changes", "{:.3f}", False),
    ("messages_per_s", "delivered messages/s at saturation ({spectators} spectators)",
     "{:,.0f}", True),
    ("changes_per_s", "delivered changes/s at saturation (a move reaching one spectator)",
     "{:,.0f}", True),
    ("bytes_per_idle_game", "RSS bytes per idle game (ours: service + Redis)", "{:,.0f}", False),
    ("bytes_per_idle_subscriber", "RSS bytes per idle subscriber", "{:,.0f}", False),
]


def report(args: argparse.Namespace, rounds: dict[str, list[Figures]]) -> None:
    # a figure some rounds lack (the burdened floor's, were a floor round to run before any
    # of ours') is left out, and said
    med = {side: {k: statistics.median(r[k] for r in runs)
                  for k in set(runs[0]).intersection(*runs)}
           for side, runs in rounds.items()}
    for side, runs in rounds.items():
        if partial := set().union(*runs) - set(med[side]):
            say(f"(left out of {side}'s medians, missing from some rounds: "
                f"{', '.join(sorted(partial))})")
    say(f"\n== medians of {args.rounds} round(s); load averages now {load_averages()}")
    peers = [side for side in med if side != "ours"]
    for key, label, fmt, higher in ROWS:
        ours = med["ours"][key]
        parts = [f"ours {fmt.format(ours)}"]
        for peer in peers:
            theirs = med[peer][key]
            parts.append(f"{NAMES[peer]} {fmt.format(theirs)} (ours ÷ {peer} "
                         f"{ours / theirs:.2f})")
        better = "higher" if higher else "lower"
        say(f"{label.format(**vars(args))} [{better} is better]: " + " | ".join(parts))
    for key, label, fmt, _higher in ROWS[:3]:
        ours = med["ours"]["session_" + key]
        say(f"ours through acks-only sessions, {label.format(**vars(args))}: {fmt.format(ours)} ("
            + ", ".join(f"ours ÷ {peer} {ours / med[peer][key]:.2f}" for peer in peers)
            + f"; sessions ÷ unary {ours / med['ours'][key]:.2f})")
    for key, label, fmt, _higher in ROWS[:3]:
        ours = med["ours"]["ws_" + key]
        say(f"ours through acks-only WebSocket sessions, {label.format(**vars(args))}: "
            f"{fmt.format(ours)} (" + ", ".join(
                f"ours ÷ {peer} {ours / med[peer][key]:.2f}" for peer in peers)
            + f"; ÷ gRPC sessions {ours / med['ours']['session_' + key]:.2f})")
    for key, label, fmt, _higher in ROWS[3:]:
        if f"ws_{key}" in med["ours"]:
            ours = med["ours"][f"ws_{key}"]
            say(f"ours over WebSocket (server.websocket), {label.format(**vars(args))}: "
                f"{fmt.format(ours)} (" + ", ".join(
                    f"ours ÷ {peer} {ours / med[peer][key]:.2f}" for peer in peers)
                + f"; WebSocket ÷ gRPC {ours / med['ours'][key]:.2f})")
    say("ours without batching (max_batch 0), for the rows above: " + ", ".join(
        f"{key} {med['ours'][f'{key}_unbatched']:.4g}" for key in (
            "delivery_p99_ms", "cpu_per_1000_delivered", "messages_per_s", "changes_per_s")))
    say(f"ours' delivered events/s at saturation: batched {med['ours']['events_per_s']:,.0f}, "
        f"unbatched {med['ours']['events_per_s_unbatched']:,.0f}; server CPU s per 1,000 "
        f"delivered events: batched {med['ours']['cpu_per_1000_events']:.3f}, unbatched "
        f"{med['ours']['cpu_per_1000_events_unbatched']:.3f}")
    say(f"ours' Redis CPU s per 1,000 moves (not in the figure above): "
        f"{med['ours']['redis_cpu_per_1000_moves']:.3f}")
    say("client CPU, % of one core (moves | delivery driver + subscribers): " + ", ".join(
        f"{side} {med[side]['client_cpu_moves']:.0f} | {med[side]['client_cpu_delivery']:.0f}"
        for side in med))
    if "floor" in med and "bgio" in med:
        # the stack's own cost: where the floor is behind a peer, so is any design on it
        say("the stack alone (grpc.aio floor: the peers' trivial game, in memory, on Python "
            "grpc.aio) ÷ each peer: " + "; ".join(
                f"{key} " + ", ".join(f"÷ {peer} {med['floor'][key] / med[peer][key]:.2f}"
                                      for peer in peers if peer != "floor")
                for key, *_ in ROWS))
    report_goals(med)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="1 round, short phases, 200 spectators and 200 idle games")
    parser.add_argument("--rounds", type=int, default=None, help="default 3 (quick: 1)")
    parser.add_argument("--games", type=int, default=64, help="games x 1 client for the moves")
    parser.add_argument("--client-procs", type=int, default=1,
                        help="ours: load-generator processes for the moves")
    parser.add_argument("--spectators", type=int, default=None, help="default 1000 (quick: 200)")
    parser.add_argument("--idle-games", type=int, default=None, help="default 1000 (quick: 200)")
    parser.add_argument("--rate", type=float, default=10.0, help="driver moves/s")
    parser.add_argument("--burst", type=int, default=300, help="moves of the saturation burst")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--peers", default=",".join(PEERS),
                        help=f"the peers beside ours, comma-separated (default {','.join(PEERS)})")
    parser.add_argument("--log-level", default="info", help="the service's RISK_LOG_LEVEL")
    args = parser.parse_args(argv)
    args.peers = [p for p in args.peers.split(",") if p]
    if unknown := set(args.peers) - set(PEERS):
        parser.error(f"unknown peers {sorted(unknown)}; choose from {', '.join(PEERS)}")
    quick = args.quick
    args.rounds = args.rounds or (1 if quick else 3)
    args.spectators = args.spectators or (200 if quick else 1000)
    args.idle_games = args.idle_games or (200 if quick else 1000)
    args.warmup = 1.0 if quick else 2.0
    args.move_s = 4.0 if quick else 10.0
    args.deliver_s = 4.0 if quick else 10.0
    args.settle = 2.0
    args.burn_us = 0.0  # the burdened floor's, once ours' round has measured our move alone
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if shutil.which("node") is None:
        raise SystemExit("node is needed for the peers (Node 20)")
    ensure_installed()
    node = subprocess.run(["node", "--version"], capture_output=True, text=True,
                          check=True).stdout.strip()
    say(f"peers: {', '.join(NAMES[p] for p in args.peers)} (node {node}); {args.rounds} "
        f"round(s); {args.spectators} spectators"
        + (" (--quick: scaled down from 1,000)" if args.quick and args.spectators < 1000 else "")
        + f"; load averages {load_averages()}; pid {os.getpid()}")
    sides = ["ours", *args.peers]
    rounds: dict[str, list[Figures]] = {side: [] for side in sides}
    for r in range(args.rounds):
        order = sides[r % len(sides):] + sides[:r % len(sides)]
        say(f"\n==== round {r + 1} of {args.rounds}: {', '.join(order)}")
        for side in order:
            rounds[side].append(measure_ours(args) if side == "ours"
                                else asyncio.run(measure_peer(side, args)))
    report(args, rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
