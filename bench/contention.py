"""Contention: 64 clients racing on one game against one client alone, in applied actions/s.

    python bench/contention.py [--clients 64] [--seconds 8] [--players 4]

Target: "64 clients hammering one game (most get ABORTED or not-your-turn) / one client alone
on one game, in applied actions/s: >= 0.8".

Baseline (one client alone): plays classic games as fast as it can. Every game is created with
a known seed and played ahead of time by the engine (as in bench/service.py), so for each step
the client knows the deciding seat and its bot action; each call is one SubmitAction with that
seat's token and `expected_version` = the version of the previous reply. Measured twice (before
and after the contended phase); the baseline is the mean.

Contended: `--clients` concurrent clients (one asyncio process, one channel) on one game, all
holding every seat token, each submitting the planned action for the version it believes
current, with `expected_version` = that version and a fresh request id. Most race and lose
(ABORTED: the version moved; FAILED_PRECONDITION: e.g. not that seat's turn any more).
Applied actions/s = the game's version advance / time. When a game's plan is used up (or it
ends), every client moves on to the next prepared game. Two client behaviours, one phase each:

- `sdk` (the target's figure): clients with the SDK's back-off policy for a lost race
  (`risk_client.CONFLICT_BACKOFF`, which the SDK's bots use): after OK, go on at once with
  the version of the reply; after ABORTED, pause (jittered, doubling while losing) and go on
  with the error's `current_version` (`StaleVersion.current_version` in the SDK); after
  FAILED_PRECONDITION, pause likewise and re-read with GetGame.
- `storm` (for reference): every client re-reads with GetGame and resubmits at once after
  every reply, win or lose: each version costs about two RPCs per client, so the applied rate
  is bounded by the service's RPC rate divided by twice the client count.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


from bench.common import run_on_stack  # noqa: E402 - needs ROOT on sys.path
from bench.service import (  # noqa: E402
    CpuMeter,
    Game,
    make_plan,
    new_game,
    new_stub,
    say,
)
from risk_client import CONFLICT_BACKOFF  # noqa: E402
from risk_proto.risk.v1 import service_pb2  # noqa: E402
from risk_testing.rpc import bearer, create_request, error_info  # noqa: E402

CALL_TIMEOUT_S = 30.0
PLAN_LENGTH = 20_000  # the plan stops earlier where the bot game ends


async def prepare(stub: Any, seed: int, players: int) -> Game:
    game = await new_game(stub, seed, players)
    game.plan = make_plan(create_request(players=players).options, seed, PLAN_LENGTH)
    return game


async def prepare_many(stub: Any, seeds: collections.abc.Iterator[int], players: int,
                       actions: float) -> list[Game]:
    """Games (created, joined, planned; not measured) with at least `actions` planned."""
    games: list[Game] = []
    while sum(len(g.plan) for g in games) < actions:
        games.append(await prepare(stub, next(seeds), players))
    return games


async def solo(stub: Any, seconds: float, seeds: collections.abc.Iterator[int], players: int
               ) -> tuple[int, float, list[str]]:
    """One client alone, chained submits; returns (applied, seconds, notes)."""
    games = await prepare_many(stub, seeds, players, 2000 * seconds)
    applied, notes = 0, []
    start = time.monotonic()
    deadline = start + seconds
    for game in games:
        while time.monotonic() < deadline and game.step < len(game.plan):
            request, metadata = game.request()
            try:
                reply = await stub.SubmitAction(request, metadata=metadata,
                                                timeout=CALL_TIMEOUT_S)
            except grpc.aio.AioRpcError as error:
                notes.append(f"{error.code().name} {error.details()} at step {game.step}")
                break
            game.version = reply.version
            applied += 1
        if time.monotonic() >= deadline:
            break
    else:
        notes.append("solo ran out of prepared games before the deadline")
    return applied, time.monotonic() - start, notes


async def contended(stub: Any, clients: int, seconds: float, games: list[Game], mode: str
                    ) -> tuple[int, float, collections.Counter[str], list[str]]:
    codes: collections.Counter[str] = collections.Counter()
    notes: list[str] = []
    current = [0]
    start = time.monotonic()
    deadline = start + seconds

    async def read(game: Game) -> int:
        got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id),
                                 timeout=CALL_TIMEOUT_S)
        codes["GetGame"] += 1
        return int(got.game.version)

    async def client(n: int) -> None:
        attempt = losses = 0
        index, v = -1, 0
        while time.monotonic() < deadline and current[0] < len(games):
            if index != current[0] or mode == "storm":
                index = current[0]
                v = await read(games[index])
            game = games[index]
            step = v - game.start_version
            if step >= len(game.plan):
                if current[0] == index:
                    current[0] = index + 1
                continue
            seat, action = game.plan[step]
            attempt += 1
            request = service_pb2.SubmitActionRequest(
                game_id=game.game_id, action=action, expected_version=v,
                request_id=f"c{n}-{attempt}")
            try:
                reply = await stub.SubmitAction(request, metadata=bearer(game.tokens[seat]),
                                                timeout=CALL_TIMEOUT_S)
                codes["OK"] += 1
                v, losses = reply.version, 0
            except grpc.aio.AioRpcError as error:
                codes[error.code().name] += 1
                if error.code() not in (grpc.StatusCode.ABORTED,
                                        grpc.StatusCode.FAILED_PRECONDITION):
                    notes.append(f"{error.code().name} {error.details()}")
                if mode == "sdk":
                    losses += 1
                    await asyncio.sleep(CONFLICT_BACKOFF.delay(losses))
                    if error.code() == grpc.StatusCode.ABORTED:
                        v = int(error_info(error).metadata["current_version"])
                    else:
                        v = await read(game)

    await asyncio.gather(*(client(n) for n in range(clients)))
    elapsed = time.monotonic() - start
    applied = 0
    for game in games[:current[0] + 1]:
        got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))
        applied += got.game.version - game.start_version
    if current[0] >= len(games):
        notes.append("contended phase ran out of prepared games before the deadline")
    return applied, elapsed, codes, notes


async def run(args: argparse.Namespace, target: str, pids: dict[str, list[int]]) -> None:
    channel = grpc.aio.insecure_channel(target)
    stub = new_stub(channel)
    seeds = iter(range(args.seed, args.seed + 1000))
    meter = CpuMeter({**pids, "client": [os.getpid()]})
    try:
        await solo(stub, 1.0, seeds, args.players)  # warm-up, not recorded
        results: dict[str, list[float]] = collections.defaultdict(list)
        for name in ("solo", "sdk", "storm", "solo"):
            if name == "solo":
                meter.start()
                applied, secs, notes = await solo(stub, args.seconds, seeds, args.players)
                meter.stop()
                say(f"solo (1 client, chained submits): {applied} applied in {secs:.1f} s = "
                    f"{applied / secs:.0f}/s | {meter.line()}")
            else:
                games = await prepare_many(stub, seeds, args.players,
                                           (2000 if name == "sdk" else 500) * args.seconds)
                meter.start()
                applied, secs, codes, notes = await contended(stub, args.clients, args.seconds,
                                                              games, name)
                meter.stop()
                rpcs = sum(codes.values())
                say(f"contended, {name} clients ({args.clients} on one game at a time): "
                    f"{applied} applied in {secs:.1f} s = {applied / secs:.0f}/s | {rpcs} RPCs "
                    f"({rpcs / secs:.0f}/s): "
                    + ", ".join(f"{k} {v}" for k, v in codes.most_common())
                    + f" | {meter.line()}")
                if codes["OK"] != applied:
                    say(f"  ! OK replies ({codes['OK']}) != version advance ({applied})")
            for note in sorted(set(notes))[:5]:
                say(f"  ! {note}")
            results[name].append(applied / secs)
        base = sum(results["solo"]) / 2
        for name in ("sdk", "storm"):
            ratio = results[name][0] / base
            target = (f"target >= 0.8: {'met' if ratio >= 0.8 else 'NOT met'}" if name == "sdk"
                      else "reference, no target")
            say(f"contention ratio, {name} clients (applied/s, {args.clients} clients on one "
                f"game ÷ one client alone, mean of 2 solo phases {base:.0f}/s): {ratio:.3f} "
                f"({target})")
    finally:
        await channel.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=8.0, help="each measured phase")
    parser.add_argument("--players", type=int, default=4, help="seats per classic game")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--log-level", default="info", help="the service's RISK_LOG_LEVEL")
    return run_on_stack(parser.parse_args(argv), run)


if __name__ == "__main__":
    raise SystemExit(main())
