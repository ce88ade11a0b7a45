"""Snapshots every N versions (RISK_SNAPSHOT_EVERY): what they save per commit, what a cold load
pays for them, and what a ListGames page pays, each against N=1 in the same run.

    python bench/snapshots.py [--every 1,4] [--rounds 2] [--quick]

1. SubmitAction ÷ empty Ping (bench/service.py's throughput section: 64 classic games in
   flight, phases Ping, SubmitAction, Ping) against one service process per setting, each on
   its own Redis, the settings alternating (N=1, N=k, N=1, N=k ...) for `--rounds` rounds.
   Printed per run: the ratio, the server's CPU per 1,000 submits (utime + stime from /proc),
   Redis' CPU per 1,000 submits; then the medians and their after ÷ before.
2. Redis bytes per commit (in-process operations over one shared connection, one Redis): the
   growth of Redis' AOF (`aof_current_size`) and of the bytes Redis received
   (`total_net_input_bytes`) over the same bot game's moves, N=1 against N=k.
3. Cold load: `GameStore.load` + `records.decode_state` of a game whose snapshot is d versions
   behind (d = 0 .. k-1: the load script's HGET + HGETALL + LRANGE, then d rule steps) ÷ the
   same for the same game at the same version stored with N=1 (today's load: HGETALL and one
   snapshot decode). Mean over many loads; the worst case is d = k-1.
4. ListGames: one page of 200 classic games, each a few moves past its last snapshot (the
   page reads each game's tail and replays it to summarise it), N=k ÷ N=1, same games.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import shutil
import statistics
import sys
import tempfile
import time
import timeit
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
import redis.asyncio as aioredis

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import stack  # noqa: E402 - needs ROOT on sys.path
from bench.service import (  # noqa: E402
    CpuMeter,
    LoadWorkers,
    new_stub,
    parse_args,
    say,
    throughput,
)
from risk_proto.risk.v1 import classic_pb2, game_pb2, service_pb2  # noqa: E402
from risk_rules import wire  # noqa: E402
from risk_rules.engine import get_ruleset  # noqa: E402
from risk_service.operations import GameService, records  # noqa: E402
from risk_service.operations.identity import Caller  # noqa: E402
from risk_service.operations.limits import Limits  # noqa: E402
from risk_service.store.game_store import GameStore  # noqa: E402
from risk_service.store.keys import Keys  # noqa: E402
from risk_service.store.pipe import RedisPipe  # noqa: E402
from risk_testing.inprocess import in_process_hub  # noqa: E402
from risk_testing.redis_server import RedisServer  # noqa: E402

RULES = get_ruleset("classic")
OPTIONS = game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
    players=4, setup=2, auto_place=True, auto_defend_max_dice=True))
_MASK64 = (1 << 64) - 1


def load_averages() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


# ---- 1. SubmitAction ÷ Ping, one service process per setting ------------------------------


async def _submit_run(s: Any, target: str, pids: dict[str, list[int]]) -> dict[str, float]:
    import multiprocessing as mp  # noqa: PLC0415 - spawn context only for this section

    workers = LoadWorkers(mp.get_context("spawn"), s.client_procs, target)
    meter = CpuMeter({**pids, "clients": workers.pids})
    channel = grpc.aio.insecure_channel(target)
    try:
        result = await throughput(s, new_stub(channel), workers, meter)
    finally:
        await channel.close()
        await workers.close()
    submit = result["submit"]
    cpu = result["submit_cpu"]  # % of one core over the submit phase
    per_k = {name: cpu[name] / 100 * submit.seconds / submit.calls * 1000
             for name in ("server", "redis")}
    return {"ratio": result["ratio_rate"], "rate": submit.rate, "p99": submit.p(99),
            "server_cpu_per_k": per_k["server"], "redis_cpu_per_k": per_k["redis"]}


def section_submit(args: argparse.Namespace) -> None:
    say(f"\n== 1. SubmitAction ÷ Ping, N in {args.every}, {args.rounds} alternating rounds")
    s = parse_args(["--quick"] if args.quick else [])
    runs: dict[int, list[dict[str, float]]] = {n: [] for n in args.every}
    for r in range(args.rounds):
        for n in args.every:
            say(f"\n-- round {r + 1}, RISK_SNAPSHOT_EVERY={n} (load {load_averages()})")
            with stack({"snapshot_every": n}, "info", RISK_SNAPSHOT_EVERY=str(n)) as st:
                assert st.redis.pid is not None
                pids = {"server": [st.service_pid], "redis": [st.redis.pid]}
                figures = asyncio.run(_submit_run(s, st.service.target, pids))
            runs[n].append(figures)
            say(f"N={n}: submit/ping {figures['ratio']:.3f}, {figures['rate']:.0f} submits/s, "
                f"p99 {figures['p99']:.1f} ms, server cpu {figures['server_cpu_per_k']:.3f} s "
                f"per 1,000 submits, redis {figures['redis_cpu_per_k']:.3f} s")
    base = args.every[0]
    med = {n: {k: statistics.median(f[k] for f in runs[n]) for k in runs[n][0]}
           for n in args.every}
    for n in args.every:
        m = med[n]
        say(f"median N={n}: submit/ping {m['ratio']:.3f}, server cpu {m['server_cpu_per_k']:.3f}"
            f" s/1,000, redis cpu {m['redis_cpu_per_k']:.3f} s/1,000, p99 {m['p99']:.1f} ms")
    for n in args.every[1:]:
        say(f"N={n} ÷ N={base}: submit/ping ratio {med[n]['ratio'] / med[base]['ratio']:.3f}, "
            f"server cpu per submit "
            f"{med[n]['server_cpu_per_k'] / med[base]['server_cpu_per_k']:.3f}, "
            f"redis cpu per submit "
            f"{med[n]['redis_cpu_per_k'] / med[base]['redis_cpu_per_k']:.3f}")


# ---- 0. the work itself: encode, decode, one rule step (CPU only, fastest of 5) ----------


def section_work() -> None:
    say("\n== 0. The work a snapshot saves and a replay adds (classic, 4 players, 40 moves in; "
        "fastest of 5 batches of 2,000, CPU only)")
    _variant, options = wire.options_from_proto(OPTIONS)
    state, _events = RULES.create(options, 11)
    steps = []
    for i in range(48):
        seat = RULES.decision(state).seats[0]
        action = RULES.bot_action(state, seat, i * 7919)
        if i >= 40:
            steps.append((state, seat, action))
        state = RULES.apply(state, seat, action)[0]
    data = wire.encode_state("classic", state)
    entries = [game_pb2.LogEntry(version=i + 1, seat=seat,
                                 action=wire.action_to_proto("classic", action)
                                 ).SerializeToString(deterministic=True)
               for i, (_s, seat, action) in enumerate(steps)]

    def best(call: Callable[[], Any]) -> float:
        return min(timeit.repeat(call, number=2000, repeat=5)) / 2000

    encode = best(lambda: wire.encode_state("classic", state))
    decode = best(lambda: wire.decode_state(data))
    step = statistics.mean(best(functools.partial(_replay_one, s, e))
                           for s, e in zip(steps, entries, strict=True))
    say(f"encode_state {encode * 1e6:.1f} µs ({len(data)} bytes), decode_state "
        f"{decode * 1e6:.1f} µs, one logged step replayed (parse + apply) {step * 1e6:.1f} µs "
        f"(mean of {len(steps)} steps)")
    say(f"per commit, N=k saves (k-1)/k encodes: N=4 {0.75 * encode * 1e6:.1f} µs, N=8 "
        f"{0.875 * encode * 1e6:.1f} µs; a cold load at d steps adds d * {step * 1e6:.1f} µs "
        f"(N=4 worst {3 * step * 1e6:.0f} µs, N=8 worst {7 * step * 1e6:.0f} µs)")


def _replay_one(step: tuple[Any, int, Any], entry: bytes) -> None:
    before, _seat, _action = step
    records.advance(RULES, before, records.step_of(game_pb2.LogEntry.FromString(entry)))


# ---- 2-4: in-process operations on one Redis ----------------------------------------------


class _Games:
    """A GameService per setting over one Redis and one shared connection."""

    def __init__(self, client: aioredis.Redis, url: str, pipe: RedisPipe) -> None:
        self.client, self.url, self.pipe = client, url, pipe

    def service(self, every: int) -> GameService:
        keys = Keys()
        return GameService(GameStore(self.client, keys, self.pipe),
                           in_process_hub(self.client, keys, self.url),
                           clock_ms=lambda: int(time.time() * 1000),
                           limits=Limits(snapshot_every=every, list_budget_s=60.0,
                                         max_page_size=200))


async def _new_game(games: GameService, seed: int) -> tuple[str, list[str]]:
    created = await games.commands.create(service_pb2.CreateGameRequest(
        options=OPTIONS, seed=seed, issue_seat_tokens=True))
    return created.game.game_id, list(created.seat_tokens)


async def _move(games: GameService, game_id: str, tokens: list[str], n: int) -> float:
    """One bot move through SubmitAction (the state from the process cache); returns the
    CPU seconds the submit took in this process (waiting for Redis excluded)."""
    cached = games.commits.cache.get(game_id)
    assert cached is not None
    record, state = cached
    seat = RULES.decision(state).seats[0]
    action = RULES.bot_action(state, seat, (record.version * 0x9E3779B97F4A7C15 + n) & _MASK64)
    request = service_pb2.SubmitActionRequest(
        game_id=game_id, action=wire.action_to_proto("classic", action),
        expected_version=record.version, request_id=f"b{record.version}")
    t0 = time.process_time()
    await games.moves.submit(request, Caller.of(tokens[seat]))
    return time.process_time() - t0


async def _info(client: aioredis.Redis, field: str) -> int:
    info = await client.info()
    return int(info[field])


async def section_bytes(g: _Games, every: list[int], moves: int, rounds: int = 3) -> None:
    say(f"\n== 2. Redis bytes and operations CPU per commit: the same classic bot game, {moves} "
        f"moves per run, settings alternating for {rounds} rounds after a warm-up game")
    warm = g.service(1)
    game_id, tokens = await _new_game(warm, 4)
    for i in range(moves):
        await _move(warm, game_id, tokens, i)
    runs: dict[int, list[tuple[float, float, float]]] = {n: [] for n in every}
    for _round in range(rounds):
        for n in every:
            games = g.service(n)
            game_id, tokens = await _new_game(games, 5)
            aof0 = await _info(g.client, "aof_current_size")
            net0 = await _info(g.client, "total_net_input_bytes")
            cpu = 0.0
            for i in range(moves):
                cpu += await _move(games, game_id, tokens, i)
            aof = (await _info(g.client, "aof_current_size") - aof0) / moves
            net = (await _info(g.client, "total_net_input_bytes") - net0) / moves
            runs[n].append((aof, net, cpu / moves))
    per = {n: tuple(statistics.median(r[i] for r in runs[n]) for i in range(3)) for n in every}
    for n in every:
        aof, net, cpu = per[n]
        say(f"N={n}: AOF {aof:.0f} bytes per commit, received {net:.0f} bytes per commit, "
            f"operations CPU {cpu * 1e6:.0f} µs per SubmitAction (median of {rounds}; "
            f"in-process, process_time around games.submit: "
            f"{', '.join(f'{r[2] * 1e6:.0f}' for r in runs[n])})")
    base = per[every[0]]
    for n in every[1:]:
        say(f"N={n} ÷ N={every[0]}: AOF bytes {per[n][0] / base[0]:.2f}, received "
            f"bytes {per[n][1] / base[1]:.2f}, operations CPU per submit {per[n][2] / base[2]:.2f}")


async def _time(call: Callable[[], Awaitable[Any]], repeat: int, batches: int = 5) -> float:
    """Seconds per call: the fastest of `batches` batches of `repeat` calls (on a shared
    machine the slower batches measure the neighbours)."""
    best = float("inf")
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(repeat):
            await call()
        best = min(best, (time.perf_counter() - t0) / repeat)
    return best


async def section_cold(g: _Games, every: int, warm: int, repeat: int) -> None:
    say(f"\n== 3. Cold load (GameStore.load + records.decode_state), N={every} against N=1, "
        f"the same game at the same versions, {repeat} loads each")
    spaced, plain = g.service(every), g.service(1)
    a_id, a_tokens = await _new_game(spaced, 11)
    b_id, b_tokens = await _new_game(plain, 11)
    for i in range(warm):  # into the game, past the start's snapshots
        await _move(spaced, a_id, a_tokens, i)
        await _move(plain, b_id, b_tokens, i)
    # on to the next snapshot, then through one whole interval
    while True:
        record = await spaced.store.load(a_id)
        assert record is not None
        if not record.tail:
            break
        await _move(spaced, a_id, a_tokens, record.version)
        await _move(plain, b_id, b_tokens, record.version)
    ratios: list[float] = []
    decode_ratios: list[float] = []
    for _d in range(every):
        record = await spaced.store.load(a_id)
        other = await plain.store.load(b_id)
        assert record is not None and other is not None and record.version == other.version
        assert wire.encode_state("classic", records.decode_state(record)) == \
            wire.encode_state("classic", records.decode_state(other))

        async def cold(store: GameStore, game_id: str) -> None:
            loaded = await store.load(game_id)
            assert loaded is not None
            records.decode_state(loaded)

        t_plain = await _time(lambda: cold(plain.store, b_id), repeat)
        t_spaced = await _time(lambda: cold(spaced.store, a_id), repeat)
        ratios.append(t_spaced / t_plain)
        # the decode alone (CPU only, no Redis): what the replay adds to a load

        async def decode(loaded: Any) -> None:
            records.decode_state(loaded)

        d_plain = await _time(functools.partial(decode, other), repeat)
        d_spaced = await _time(functools.partial(decode, record), repeat)
        decode_ratios.append(d_spaced / d_plain)
        say(f"{len(record.tail)} steps behind the snapshot (version {record.version}): load + "
            f"decode {t_spaced * 1e6:.0f} µs vs N=1 {t_plain * 1e6:.0f} µs, ratio "
            f"{ratios[-1]:.2f}; decode alone {d_spaced * 1e6:.0f} µs vs {d_plain * 1e6:.0f} µs, "
            f"ratio {decode_ratios[-1]:.2f}")
        await _move(spaced, a_id, a_tokens, record.version)
        await _move(plain, b_id, b_tokens, record.version)
    say(f"cold load N={every} ÷ N=1: mean over the interval {statistics.mean(ratios):.2f}, "
        f"at {every - 1} steps {ratios[-1]:.2f}; decode alone: mean "
        f"{statistics.mean(decode_ratios):.2f}, at {every - 1} steps {decode_ratios[-1]:.2f}")


async def section_list(g: _Games, every: int, count: int, repeat: int) -> None:
    say(f"\n== 4. ListGames, one page of {count} classic games, N={every} against N=1")
    times: dict[int, float] = {}
    for n in (1, every):
        await g.client.flushall()
        games = g.service(n)
        for i in range(count):
            game_id, tokens = await _new_game(games, 1000 + i)
            for m in range(4 + i % every):  # a spread of distances from the last snapshot
                await _move(games, game_id, tokens, m)
        request = service_pb2.ListGamesRequest(page_size=count)
        page = await games.queries.list(request)
        assert len(page.games) == count, len(page.games)
        times[n] = await _time(functools.partial(games.list, request), repeat)
        say(f"N={n}: {times[n] * 1e3:.1f} ms per page of {count} (fastest of 5 batches)")
    say(f"ListGames N={every} ÷ N=1: {times[every] / times[1]:.2f}")


async def in_process(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="risk-bench-snap-"))
    server = RedisServer(work / "redis", appendfsync="everysec")
    server.start()
    client = aioredis.Redis.from_url(server.url)
    pipe = RedisPipe(server.url)
    try:
        g = _Games(client, server.url, pipe)
        await section_bytes(g, args.every, 40 if args.quick else 200)
        for k in args.every[1:]:
            await section_cold(g, k, 30, 20 if args.quick else 80)
        await section_list(g, max(args.every), 200, 1 if args.quick else 2)
    finally:
        await pipe.close()
        await client.aclose()
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", default="1,4",
                        help="comma-separated RISK_SNAPSHOT_EVERY values, the first the baseline")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--skip-submit", action="store_true", help="sections 2-4 only")
    args = parser.parse_args()
    args.every = [int(n) for n in args.every.split(",")]
    say(f"bench/snapshots.py, load averages {load_averages()}, {os.cpu_count()} cores")
    section_work()
    if not args.skip_submit:
        section_submit(args)
    asyncio.run(in_process(args))
    say(f"\nload averages at the end: {load_averages()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
