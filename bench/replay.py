"""The cost of a replay (GetGame at_version): on a real service process against the Ping, and
the replay's own work in this process.

    python bench/replay.py service [--seed 1] [--players 4] [--games 20] [--rounds 3]
    python bench/replay.py engine [--seed 1] [--players 4] [--reads 300]

service: starts its own redis-server and one `python -m risk_service` process
(bench/common.py), plays one classic bot game through it (a plan computed with the engine from
the game's seed, each action a SubmitAction), copies the finished game's keys under
`--games` - 1 more game ids (Redis COPY: games the service has never replayed, as many as
an abuser can name), then measures the service process' CPU seconds (/proc) per call, one
call in flight: the empty Ping (`--pings` calls), then GetGame at_version at a random version
of each game in turn, `--rounds` rounds over all the games. The first round is each game's
first replay ever; the later rounds show what a caller cycling over more games than a
process keeps costs. The per-caller replay budget is off (RISK_REPLAY_BUDGET_PER_S=0) so
that every call is served. Prints CPU s per call and its ratio to the Ping's.

engine: one classic bot game played with the engine in this process; its log as the service
stores it; the replay's own work without Redis or gRPC: a plain GetGame's state work
(baseline), the first replay of a game (every log entry applied, checkpoints encoded), and a
replay at a random version from the checkpoint before it.

Record figures in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

import grpc
import redis.asyncio as aioredis

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import stack  # noqa: E402 - needs ROOT on sys.path
from bench.service import cpu_seconds, make_plan, new_game, new_stub, say  # noqa: E402
from risk_proto.risk.v1 import game_pb2, service_pb2  # noqa: E402
from risk_rules import wire  # noqa: E402
from risk_rules.engine import get_ruleset  # noqa: E402
from risk_service.operations import records  # noqa: E402
from risk_service.operations.replay import (  # noqa: E402
    CHECKPOINT_EVERY,
    Built,
    advance_from,
    build,
)
from risk_service.store.game_store import GameRecord  # noqa: E402
from risk_service.store.keys import Keys  # noqa: E402
from risk_testing.rpc import bearer, create_request  # noqa: E402


def play(seed: int, players: int) -> tuple[GameRecord, list[bytes]]:
    """A finished bot game as the store holds it: its record and its log entries."""
    rules = get_ruleset("classic")
    options = rules.settle_options(rules.default_options(players), timed=False)
    state, _events = rules.create(options, seed)
    entries: list[bytes] = []
    entropy = seed
    while rules.outcome(state) is None:
        seat = rules.decision(state).seats[0]
        entropy = (entropy * 0x9E3779B97F4A7C15 + 1) & ((1 << 64) - 1)
        action = rules.bot_action(state, seat, entropy)
        state, _ = rules.apply(state, seat, action)
        entries.append(game_pb2.LogEntry(
            version=len(entries) + 1, seat=seat,
            action=wire.action_to_proto("classic", action)).SerializeToString())
    record = GameRecord(
        game_id="bench", variant="classic", status=service_pb2.GAME_STATUS_FINISHED,
        version=len(entries), last_seq=0, created_ms=0, updated_ms=0, players=players,
        snapshot=wire.encode_state("classic", state), meta=b"", names=("",) * players,
        seat_digests=(b"",) * players, host_digest=b"")
    return record, entries


def engine(args: argparse.Namespace) -> None:
    print(f"python {platform.python_version()} on {platform.machine()} "
          f"({platform.platform()}), seed={args.seed}, players={args.players}")
    started = time.perf_counter()
    record, entries = play(args.seed, args.players)
    print(f"game: versions={record.version} (played in {time.perf_counter() - started:.1f} s)")
    rules = get_ruleset("classic")

    started = time.perf_counter()
    for _ in range(args.reads):
        wire.view_to_proto("classic", rules.view(records.decode_state(record), None))
    baseline = (time.perf_counter() - started) / args.reads

    started = time.perf_counter()
    kept, _steps = build(record, entries, CHECKPOINT_EVERY)
    cold = time.perf_counter() - started
    built = Built(CHECKPOINT_EVERY, kept, entries)

    def board(version: int) -> game_pb2.BoardView:
        state, _applied = advance_from("classic", built.checkpoint(version), version)
        return wire.view_to_proto("classic", rules.view(state, None))

    versions = random.Random(args.seed).choices(range(record.version + 1), k=args.reads)
    started = time.perf_counter()
    for version in versions:
        board(version)
    warm = (time.perf_counter() - started) / args.reads

    final = board(record.version)
    assert final == wire.view_to_proto("classic", rules.view(records.decode_state(record), None))
    size = sum(len(k.state) for k in kept)
    print(f"replay: every={CHECKPOINT_EVERY}, checkpoints={len(kept)}, {size} bytes of states "
          f"({size / record.version:.1f} per version)")
    print(f"baseline (plain GetGame's state work): {baseline * 1e3:.3f} ms/read")
    print(f"cold (first replay of the game, checkpoints encoded): {cold * 1e3:.1f} ms, "
          f"ratio to baseline = {cold / baseline:.1f}")
    print(f"warm (a checkpoint decoded, then the log entries after it): {warm * 1e3:.3f} "
          f"ms/read, ratio to baseline = {warm / baseline:.2f}")


# ---- service: CPU per call on a real process ---------------------------------------------


async def play_through(stub: Any, seed: int, players: int) -> tuple[str, int]:
    """One finished classic bot game played through the service: its id and last version."""
    game = await new_game(stub, seed, players)
    game.plan = make_plan(create_request(seed=seed, players=players).options, seed, 10**6)
    for seat, action in game.plan:
        reply = await stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game.game_id, action=action, expected_version=game.version,
            request_id=f"bench-{game.version}"), metadata=bearer(game.tokens[seat]))
        game.version = reply.version
    summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game
    assert summary.status == service_pb2.GAME_STATUS_FINISHED, summary.status
    return game.game_id, summary.version


async def copies(redis_url: str, game_id: str, count: int) -> list[str]:
    """`count` - 1 more games like `game_id` under new ids (every key of it copied)."""
    keys = Keys()
    ids = [game_id]
    client = aioredis.Redis.from_url(redis_url)
    try:
        for n in range(1, count):
            other = f"{game_id[:-4]}{(int(game_id[-4:], 16) + n) & 0xFFFF:04x}"
            for src, dst in zip(keys.game_keys(game_id), keys.game_keys(other), strict=True):
                if await client.exists(src):
                    await client.copy(src, dst, replace=True)
            ids.append(other)
    finally:
        await client.aclose()
    return ids


async def measure(target: str, pid: int, redis_url: str, args: argparse.Namespace) -> None:
    async with grpc.aio.insecure_channel(target) as channel:
        stub = new_stub(channel)
        started = time.perf_counter()
        game_id, version = await play_through(stub, args.seed, args.players)
        say(f"game: versions={version} (played through the service in "
            f"{time.perf_counter() - started:.1f} s)")
        ids = await copies(redis_url, game_id, args.games)

        before = cpu_seconds(pid)
        for _ in range(args.pings):
            await stub.Ping(service_pb2.PingRequest())
        ping = (cpu_seconds(pid) - before) / args.pings
        say(f"Ping: {ping * 1e6:.0f} us CPU per call ({args.pings} calls, one in flight)")

        pick = random.Random(args.seed)
        later: list[float] = []
        for round_ in range(args.rounds):
            before = cpu_seconds(pid)
            wall = time.perf_counter()
            for g in ids:
                await stub.GetGame(service_pb2.GetGameRequest(
                    game_id=g, at_version=pick.randint(0, version)))
            cost = (cpu_seconds(pid) - before) / len(ids)
            wall = (time.perf_counter() - wall) / len(ids)
            which = "first replay of each game" if round_ == 0 else "again, cycling"
            say(f"at_version round {round_ + 1} ({which}, {len(ids)} games): "
                f"{cost:.4f} CPU s per call = {cost / ping:.0f} x Ping; "
                f"wall {wall * 1e3:.1f} ms per call")
            if round_:
                later.append(cost)
        if later:
            cost = sum(later) / len(later)
            say(f"uncached at_version (rounds 2-{args.rounds}, {len(later) * len(ids)} calls): "
                f"{cost:.4f} CPU s per call = {cost / ping:.1f} x Ping")


def service(args: argparse.Namespace) -> None:
    with stack(vars(args), RISK_REPLAY_BUDGET_PER_S="0") as st:
        asyncio.run(measure(st.service.target, st.service_pid, st.redis.url, args))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    modes = parser.add_subparsers(dest="mode", required=True)
    on_service = modes.add_parser("service", help="CPU per call on a real service process")
    on_engine = modes.add_parser("engine", help="the replay's own work in this process")
    for mode in (on_service, on_engine):
        mode.add_argument("--seed", type=int, default=1)
        mode.add_argument("--players", type=int, default=4)
    on_service.add_argument("--games", type=int, default=20)
    on_service.add_argument("--rounds", type=int, default=3)
    on_service.add_argument("--pings", type=int, default=2000)
    on_engine.add_argument("--reads", type=int, default=300)
    args = parser.parse_args()
    (service if args.mode == "service" else engine)(args)


if __name__ == "__main__":
    main()
