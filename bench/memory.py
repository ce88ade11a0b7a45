"""Memory: bytes per stored game in Redis (mid-game, each variant) and per idle subscriber.

    python bench/memory.py [--games 20] [--moves 50] [--subscribers 1000] [--websocket]

Target 6 asks for these figures. For each variant in risk_rules.engine.REGISTRY, `--games`
games are created through the service (CreateGame with the variant's default options and
issue_seat_tokens=True) and played for `--moves` actions: each step reads the game (GetGame:
version and deciding seat), asks ListLegalActions with that seat's token and submits its first
legal action with expected_version = the version read. Then Redis `MEMORY USAGE <key> SAMPLES 0`
(every element counted) is summed over each game's keys (risk:g:{id}, :ev, :req, :log) and
averaged per game. Shared index keys (lists of games by variant/status, deadlines) are not
counted.

Idle subscribers: a quiet game (no actions while measured); the service's VmRSS
(/proc/<pid>/status) before, then `--subscribers` spectator StreamEvents (after_seq 0, so
each first replays the game's existing events, which proves it is registered) are opened from
two client processes (100 streams per connection), left idle for `--settle` seconds, and the
RSS is read again: (after - before) / subscribers. That includes the connections' own memory.
`--websocket`: the spectators are WebSockets to the HTTP port's StreamEvents instead (a
connection each); `--games 0` leaves the stored games out. `--base REV --rounds N`: the idle
subscribers only, on this checkout's service and on commit REV's (a worktree,
bench/.scratch/memory-base), alternating N times, then the medians and new ÷ base.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import grpc
import redis

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import rss_bytes, stack  # noqa: E402 - needs ROOT on sys.path
from bench.service import (  # noqa: E402
    FAILED,
    LIVE,
    StreamJob,
    new_stub,
    say,
    sources,
    subscriber_main,
    subscriber_parts,
)
from risk_proto.risk.v1 import game_pb2, service_pb2  # noqa: E402
from risk_rules import wire  # noqa: E402
from risk_rules.engine import REGISTRY  # noqa: E402
from risk_service.store.keys import Keys  # noqa: E402
from risk_testing.rpc import bearer  # noqa: E402

CALL_TIMEOUT_S = 30.0


def default_options(variant: str) -> game_pb2.GameOptions:
    return wire.unset_options(variant)


async def play(stub: Any, variant: str, seed: int, moves: int) -> tuple[str, int, str]:
    """Create one game and play up to `moves` actions; returns (game id, moves, note)."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=default_options(variant), seed=seed, issue_seat_tokens=True),
        timeout=CALL_TIMEOUT_S)
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    done = 0
    while done < moves:
        summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                      timeout=CALL_TIMEOUT_S)).game
        if summary.HasField("outcome") or not summary.decision.seats:
            return game_id, done, f"stopped after {done}: no decision (status {summary.status})"
        seat = summary.decision.seats[0]
        legal = await stub.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=game_id, seat=seat),
            metadata=bearer(tokens[seat]), timeout=CALL_TIMEOUT_S)
        if not legal.actions:
            return game_id, done, f"stopped after {done}: no legal action for seat {seat}"
        await stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game_id, action=legal.actions[0].action, expected_version=legal.version,
            request_id=f"m{done}"), metadata=bearer(tokens[seat]), timeout=CALL_TIMEOUT_S)
        done += 1
    return game_id, done, ""


async def stored_games(args: argparse.Namespace, stub: Any, client: redis.Redis) -> None:
    keys = Keys()
    for variant in REGISTRY:
        t0 = time.monotonic()
        try:
            played = await asyncio.gather(*(play(stub, variant, args.seed + i, args.moves)
                                            for i in range(args.games)))
        except grpc.aio.AioRpcError as error:
            say(f"{variant}: skipped, {error.code().name} {error.details()}")
            continue
        per_key: dict[str, list[int]] = {"": [], ":ev": [], ":req": [], ":log": []}
        totals = []
        for game_id, _, _ in played:
            sizes = [int(client.memory_usage(k, samples=0) or 0) for k in keys.game_keys(game_id)]
            for suffix, size in zip(per_key, sizes, strict=True):
                per_key[suffix].append(size)
            totals.append(sum(sizes))
        moves = [m for _, m, _ in played]
        notes = sorted({n for _, _, n in played if n})
        say(f"{variant}: bytes per stored game (mid-game, {statistics.mean(moves):.0f} moves "
            f"played on average, {len(played)} games): {statistics.mean(totals):,.0f} "
            f"(min {min(totals):,}, max {max(totals):,}) | per key: "
            + ", ".join(f"risk:g:{{id}}{s} {statistics.mean(v):,.0f}" for s, v in per_key.items())
            + f" | {time.monotonic() - t0:.1f} s")
        for note in notes[:3]:
            say(f"  ! {note}")


async def idle_subscribers(args: argparse.Namespace, target: str, stub: Any,
                           server_pid: int | Sequence[int]) -> float:
    """Opens `args.subscribers` idle spectator streams; returns (and prints) the service's RSS
    growth per stream (the sum over its processes, given several: workers)."""
    pids = [server_pid] if isinstance(server_pid, int) else list(server_pid)
    ctx = mp.get_context("spawn")
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=default_options("classic"), seed=args.seed, issue_seat_tokens=True))
    game_id = created.game.game_id
    await asyncio.sleep(1.0)
    before = sum(rss_bytes(pid) for pid in pids)
    ready = ctx.Array("i", 2)
    stop = ctx.Event()
    procs, conns = [], []
    parts = subscriber_parts(args.subscribers, 2)
    for n, source in zip(parts, sources(args.subscribers, len(parts)), strict=True):
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=subscriber_main, daemon=True,
                           args=(child, StreamJob(target, game_id, 0, n,
                                                  ws_port=getattr(args, "ws_port", 0),
                                                  source=source),
                                 ready, stop))
        proc.start()
        child.close()
        procs.append(proc)
        conns.append(parent)
    t0 = time.monotonic()
    warmup = getattr(args, "warmup", 60.0)
    while ready[LIVE] + ready[FAILED] < args.subscribers and time.monotonic() - t0 < warmup:
        await asyncio.sleep(0.1)
    live = ready[LIVE]
    await asyncio.sleep(args.settle)
    after = sum(rss_bytes(pid) for pid in pids)
    stop.set()
    for conn in conns:
        await asyncio.to_thread(conn.recv)
    for proc in procs:
        proc.join(10)
    say(f"idle subscribers: {live} of {args.subscribers} live ({ready[FAILED]} failed) after "
        f"{time.monotonic() - t0 - args.settle:.1f} s, idle {args.settle:g} s; service VmRSS "
        f"{before / 2**20:.1f} -> {after / 2**20:.1f} MB")
    per_subscriber = (after - before) / args.subscribers
    say(f"bytes per idle subscriber (service RSS growth ÷ {args.subscribers}): "
        f"{per_subscriber:,.0f}")
    return per_subscriber


async def run(args: argparse.Namespace, target: str, redis_url: str, server_pid: int) -> None:
    channel = grpc.aio.insecure_channel(target)
    stub = new_stub(channel)
    client = redis.Redis.from_url(redis_url)
    try:
        if args.games:
            await stored_games(args, stub, client)
        await idle_subscribers(args, target, stub, server_pid)
    finally:
        client.close()
        await channel.close()


def against_base(args: argparse.Namespace) -> None:
    """Idle subscribers on this checkout's service and on `args.base`'s, alternating."""
    from bench.ab import python_path, worktree  # noqa: PLC0415 - bench.ab imports this module
    roots = {"new": ROOT, "base": worktree(args.base, "memory-base")}
    figures: dict[str, list[float]] = {"new": [], "base": []}
    for r in range(args.rounds):
        for side in ("new", "base") if r % 2 == 0 else ("base", "new"):
            with stack({**vars(args), "side": side}, args.log_level, http=args.websocket,
                       PYTHONPATH=python_path(roots[side])) as st:
                args.ws_port = st.service.http_port if args.websocket else 0
                figures[side].append(asyncio.run(idle_subscribers_on(
                    args, st.service.target, st.service_pid)))
    new, base = (statistics.median(figures[side]) for side in ("new", "base"))
    say(f"bytes per idle subscriber, medians of {args.rounds}: new {new:,.0f} "
        f"{[round(v) for v in figures['new']]}, base {base:,.0f} "
        f"{[round(v) for v in figures['base']]}; new ÷ base {new / base:.3f}")


async def idle_subscribers_on(args: argparse.Namespace, target: str, server_pid: int) -> float:
    """`idle_subscribers` through a channel of its own to the service at `target`."""
    channel = grpc.aio.insecure_channel(target)
    try:
        return await idle_subscribers(args, target, new_stub(channel), server_pid)
    finally:
        await channel.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per variant")
    parser.add_argument("--moves", type=int, default=50, help="actions played per game")
    parser.add_argument("--subscribers", type=int, default=1000, help="idle streams")
    parser.add_argument("--settle", type=float, default=3.0, help="idle seconds before RSS")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--log-level", default="info", help="the service's RISK_LOG_LEVEL")
    parser.add_argument("--websocket", action="store_true",
                        help="idle spectators over the HTTP port's WebSocket, not gRPC")
    parser.add_argument("--base", help="also measure commit BASE's service (idle subscribers)")
    parser.add_argument("--rounds", type=int, default=3, help="with --base: alternations")
    args = parser.parse_args(argv)
    if args.base:
        against_base(args)
        return 0
    with stack(vars(args), args.log_level, http=args.websocket) as st:
        args.ws_port = st.service.http_port if args.websocket else 0
        asyncio.run(run(args, st.service.target, st.redis.url, st.service_pid))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
