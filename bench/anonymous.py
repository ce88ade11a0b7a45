"""Work anyone can start: what an anonymous caller makes the service spend, and a bystander's wait.

    python bench/anonymous.py [--base REV] [--modes rounds,replay,results] [--seconds 15]

Issue 32's items 1-3, each measured on a fresh redis-server and service process: first the
bystander alone (sequential Pings, the baseline of the same run), then under the load, then
(rounds) after the round's host cancels its games. Printed per phase: the service's CPU (% of
one core), Redis commands/s (INFO `total_commands_processed`), and the bystander's Ping p50/p99
with its ratio to the idle baseline. With `--base REV` the same runs go first against commit
REV's service (a git worktree under bench/.scratch, as bench/ab.py), so before and after are
measured in one sitting.

- rounds: one anonymous CreateRound of `--tables` tables of 6 random bots (the request as the
  outside test sent it; where the service refuses it, the refusal is printed and the largest
  round it accepts, halving the tables, is measured instead), then CancelGame of every game
  with the round's host token (how many the host could stop), then the same window again.
- replay: `--games` finished bot games (played by the SDK's bots through the service), then
  `--callers` anonymous callers cycling GetGame(at_version) over them at random versions, under
  the documented public deployment's rate limit (50/s, burst 100, one address).
- results: `--streams` anonymous StreamResults of one tournament left open and idle.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import random
import statistics
import sys
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
import redis  # noqa: E402

from bench.ab import python_path, worktree  # noqa: E402 - needs ROOT
from bench.common import stack  # noqa: E402
from bench.service import CpuMeter, new_stub, percentile, say  # noqa: E402
from risk_client.bots import play_game  # noqa: E402
from risk_client.client import RiskClient  # noqa: E402
from risk_proto.risk.v1 import game_pb2, service_pb2, tournament_pb2  # noqa: E402
from risk_testing.harness import ServiceProcess  # noqa: E402

BYSTANDER_EVERY_S = 0.04  # 25 Pings/s: under the public limit of 50/s a caller
PUBLIC_LIMITS = {"RISK_RATE_LIMIT_PER_S": "50", "RISK_RATE_LIMIT_BURST": "100"}


async def bystander(stub: Any, seconds: float, metadata: Sequence[tuple[str, str]] = ()
                    ) -> tuple[float, float, int]:
    """A Ping every BYSTANDER_EVERY_S for `seconds` (paced, so that the bystander itself costs
    the service little): (p50 ms, p99 ms, calls)."""
    times: list[float] = []
    start = time.monotonic()
    stop = start + seconds
    while time.monotonic() < stop:
        t = time.perf_counter()
        await stub.Ping(service_pb2.PingRequest(), metadata=metadata, timeout=30)
        times.append((time.perf_counter() - t) * 1e3)
        await asyncio.sleep(max(0.0, start + len(times) * BYSTANDER_EVERY_S - time.monotonic()))
    times.sort()
    return statistics.median(times), percentile(times, 99), len(times)


def redis_commands(url: str) -> int:
    client = redis.Redis.from_url(url)
    try:
        return int(client.info("stats")["total_commands_processed"])
    finally:
        client.close()


class Window:
    """One measured phase: service CPU, Redis commands/s, the bystander's Pings."""

    def __init__(self, stub: Any, redis_url: str, pids: dict[str, list[int]],
                 seconds: float) -> None:
        self.stub, self.redis_url, self.pids, self.seconds = stub, redis_url, pids, seconds
        self.idle_p99 = 0.0
        self.metadata: Sequence[tuple[str, str]] = ()  # the bystander's credential, if any

    async def measure(self, name: str) -> dict[str, float]:
        meter = CpuMeter(self.pids)
        commands = redis_commands(self.redis_url)
        meter.start()
        p50, p99, calls = await bystander(self.stub, self.seconds, self.metadata)
        share = meter.stop()
        rate = (redis_commands(self.redis_url) - commands) / meter.seconds
        if not self.idle_p99:
            self.idle_p99 = p99
        say(f"  {name}: service CPU {share['server']:.0f}% of a core, Redis "
            f"{share['redis']:.0f}% and {rate:,.0f} commands/s; bystander Ping p50 "
            f"{p50:.2f} ms, p99 {p99:.2f} ms ({p99 / self.idle_p99:.2f} x idle, {calls} calls); "
            f"other processes {share['other']:.0f}%")
        return {"cpu": share["server"], "redis_cps": rate, "p99": p99}


def bot_round(tables: int, request_id: str) -> tournament_pb2.CreateRoundRequest:
    options = game_pb2.GameOptions()
    options.classic.players = 6
    seats = [tournament_pb2.RoundSeat(bot=tournament_pb2.BOT_LEVEL_RANDOM) for _ in range(6)]
    return tournament_pb2.CreateRoundRequest(
        request_id=request_id, tournament="bench-anonymous", round=1, options=options,
        games=[tournament_pb2.RoundTable(seats=seats) for _ in range(tables)])


async def rounds(args: argparse.Namespace, target: str, window: Window) -> None:
    async with grpc.aio.insecure_channel(target) as channel:
        stub = new_stub(channel)
        tables = args.tables
        while True:
            try:
                reply = await stub.CreateRound(bot_round(tables, uuid.uuid4().hex), timeout=60)
                break
            except grpc.aio.AioRpcError as error:
                say(f"  CreateRound of {tables} tables of 6 random bots: {error.code().name} "
                    f"({error.details()})")
                if tables == 1 or error.code() not in (grpc.StatusCode.INVALID_ARGUMENT,
                                                       grpc.StatusCode.RESOURCE_EXHAUSTED):
                    return
                tables //= 2
        say(f"  CreateRound of {tables} tables of 6 random bots accepted "
            f"({reply.ByteSize():,} bytes of reply)")
        await window.measure("bots playing")
        cancelled: dict[str, int] = {}
        for game in reply.games:
            try:
                await stub.CancelGame(service_pb2.CancelGameRequest(game_id=game.game_id),
                                      metadata=(("authorization", f"Bearer {reply.host_token}"),),
                                      timeout=30)
                code = "OK"
            except grpc.aio.AioRpcError as error:
                code = error.code().name
            cancelled[code] = cancelled.get(code, 0) + 1
        say(f"  CancelGame with the round's host token, per game: {cancelled}")
        await window.measure("after the host cancelled")


async def finished_games(target: str, games: int) -> list[tuple[str, int]]:
    """`games` classic games played to the end by random bots: (game id, last version)."""
    client = RiskClient(target)
    try:
        sem = asyncio.Semaphore(8)

        async def one(seed: int) -> tuple[str, int]:
            async with sem:
                final = await play_game(client, seed=seed, players=4, entropy=seed,
                                        levels=("random",))
            return final.game.game_id, final.game.version

        return list(await asyncio.gather(*(one(1 + i) for i in range(games))))
    finally:
        await client.close()


def _replayer_main(target: str, games: list[tuple[str, int]], callers: int, seconds: float,
                   out: Any) -> None:
    """A client process: `callers` anonymous callers asking GetGame(at_version) back to back."""
    async def run() -> dict[str, int]:
        codes: dict[str, int] = {}
        stop = time.monotonic() + seconds
        rng = random.Random(7)

        async def caller() -> None:
            async with grpc.aio.insecure_channel(target) as own:
                stub = new_stub(own)
                while time.monotonic() < stop:
                    game_id, last = rng.choice(games)
                    try:
                        await stub.GetGame(service_pb2.GetGameRequest(
                            game_id=game_id, at_version=rng.randint(1, last)), timeout=30)
                        code = "OK"
                    except grpc.aio.AioRpcError as error:
                        code = error.code().name
                        if code == "RESOURCE_EXHAUSTED":
                            await asyncio.sleep(0.05)  # an attacker backs off a little
                    codes[code] = codes.get(code, 0) + 1

        await asyncio.gather(*(caller() for _ in range(callers)))
        return codes

    out.send(asyncio.run(run()))


async def played(args: argparse.Namespace, target: str) -> list[tuple[str, int]]:
    started = time.monotonic()
    games = await finished_games(target, args.games)
    say(f"  {len(games)} finished games of {min(v for _g, v in games)} to "
        f"{max(v for _g, v in games)} versions, played in {time.monotonic() - started:.0f} s")
    return games


async def replay(args: argparse.Namespace, target: str, window: Window,
                 games: list[tuple[str, int]]) -> None:
    # the bystander is a player of its own game: once its seat token is accepted it is its
    # own caller for the rate limit, not the attackers' address
    async with grpc.aio.insecure_channel(target) as channel:
        stub = new_stub(channel)
        options = game_pb2.GameOptions()
        options.classic.players = 2
        created = await stub.CreateGame(service_pb2.CreateGameRequest(options=options),
                                        timeout=30)
        joined = await stub.JoinGame(service_pb2.JoinGameRequest(
            game_id=created.game.game_id, seat=0), timeout=30)
        window.metadata = (("authorization", f"Bearer {joined.seat_token}"),)
        await stub.GetGame(service_pb2.GetGameRequest(game_id=created.game.game_id),
                           metadata=window.metadata, timeout=30)
    ctx = mp.get_context("spawn")
    ours, theirs = ctx.Pipe()
    load = ctx.Process(target=_replayer_main,
                       args=(target, games, args.callers, window.seconds + 4, theirs))
    load.start()
    try:
        await asyncio.sleep(2)  # the callers' channels are up and their load is steady
        await window.measure(f"{args.callers} callers of GetGame(at_version)")
        codes = await asyncio.to_thread(ours.recv)
        say(f"  their answers: {codes}")
    finally:
        load.join(timeout=30)
        if load.is_alive():
            load.kill()


def _streamer_main(target: str, streams: int, seconds: float, out: Any) -> None:
    async def run() -> dict[str, int]:
        codes: dict[str, int] = {}
        # a connection of its own per 90 streams (channels with equal arguments would share
        # one, and the service bounds the streams of one connection)
        channels = [grpc.aio.insecure_channel(target, options=[
            ("grpc.use_local_subchannel_pool", 1)]) for _ in range(max(1, streams // 90))]
        calls = []
        for i in range(streams):
            stub = new_stub(channels[i % len(channels)])
            calls.append(stub.StreamResults(tournament_pb2.StreamResultsRequest(
                tournament="bench-anonymous")))

        async def hold(call: Any) -> None:
            try:
                async for _fact in call:
                    pass
                codes["ENDED"] = codes.get("ENDED", 0) + 1
            except asyncio.CancelledError:
                pass  # this side's cancel at the end of the window
            except grpc.aio.AioRpcError as error:
                if error.code() != grpc.StatusCode.CANCELLED:
                    codes[error.code().name] = codes.get(error.code().name, 0) + 1

        tasks = [asyncio.create_task(hold(c)) for c in calls]
        await asyncio.sleep(seconds)
        for call in calls:
            call.cancel()
        await asyncio.gather(*tasks)
        for channel in channels:
            await channel.close()
        codes["opened"] = streams
        return codes

    out.send(asyncio.run(run()))


async def results(args: argparse.Namespace, target: str, window: Window) -> None:
    async with grpc.aio.insecure_channel(target) as channel:
        # the tournament exists: one round of one table of two players (no bots)
        options = game_pb2.GameOptions()
        options.classic.players = 2
        await new_stub(channel).CreateRound(tournament_pb2.CreateRoundRequest(
            request_id=uuid.uuid4().hex, tournament="bench-anonymous", round=1,
            options=options, games=[tournament_pb2.RoundTable(seats=[
                tournament_pb2.RoundSeat(player="a"), tournament_pb2.RoundSeat(player="b")])]),
            timeout=60)
    ctx = mp.get_context("spawn")
    ours, theirs = ctx.Pipe()
    load = ctx.Process(target=_streamer_main,
                       args=(target, args.streams, window.seconds + 8, theirs))
    load.start()
    try:
        await asyncio.sleep(5)  # every stream opened and caught up
        await window.measure(f"{args.streams} idle StreamResults")
        codes = await asyncio.to_thread(ours.recv)
        say(f"  the streams' ends: {codes}")
    finally:
        load.join(timeout=30)
        if load.is_alive():
            load.kill()


MODES: dict[str, Any] = {"rounds": rounds, "replay": replay, "results": results}


async def run_mode(mode: str, args: argparse.Namespace, target: str, redis_url: str,
                   pids: dict[str, list[int]], *extra: Any) -> None:
    async with grpc.aio.insecure_channel(target) as channel:
        stub = new_stub(channel)
        await stub.Ping(service_pb2.PingRequest(), timeout=30)
        window = Window(stub, redis_url, pids, args.seconds)
        await window.measure("idle (baseline)")
        await MODES[mode](args, target, window, *extra)


def run_side(side: str, root: Path, args: argparse.Namespace) -> None:
    for mode in args.modes:
        say(f"\n-- {side}: {mode}")
        with stack({"side": side, "mode": mode}, "warning",
                   PYTHONPATH=python_path(root)) as st:
            assert st.redis.pid is not None
            if mode == "replay":
                # the games are played on this service, then replayed by a fresh one under the
                # documented public deployment's limits (bots exceed 50 calls/s per seat)
                games = asyncio.run(played(args, st.service.target))
                st.service.stop()
                limited = ServiceProcess(st.redis.url, st.work, python=sys.executable,
                                         PYTHONPATH=python_path(root),
                                         RISK_LOG_LEVEL="warning", **PUBLIC_LIMITS)
                limited.start()
                assert limited.proc is not None
                try:
                    say("  replayed by a fresh service with " + ", ".join(
                        f"{k}={v}" for k, v in PUBLIC_LIMITS.items()))
                    asyncio.run(run_mode(mode, args, limited.target, st.redis.url,
                                         {"server": [limited.proc.pid],
                                          "redis": [st.redis.pid]}, games))
                finally:
                    limited.stop()
                continue
            asyncio.run(run_mode(mode, args, st.service.target, st.redis.url,
                                 {"server": [st.service_pid], "redis": [st.redis.pid]}))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="also measure this commit's service first")
    parser.add_argument("--modes", default="rounds,replay,results",
                        type=lambda s: [m for m in s.split(",") if m])
    parser.add_argument("--seconds", type=float, default=15.0, help="each measured window")
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--callers", type=int, default=50)
    parser.add_argument("--streams", type=int, default=2000)
    args = parser.parse_args(argv)
    for mode in args.modes:
        if mode not in MODES:
            parser.error(f"unknown mode {mode}; one of {', '.join(MODES)}")
    if args.base:
        run_side(f"base {args.base}", worktree(args.base), args)
    run_side("this checkout", ROOT, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
