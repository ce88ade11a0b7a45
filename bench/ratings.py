"""Which rating model: how well each one recovers players' hidden strength from free-for-all games.

    python bench/ratings.py [--players 60] [--seeds 5] [--games 5,10,20,40] [--service]

Simulated skill: each player draws a hidden strength ~ N(0, 1); each game seats 3 to 6 players
drawn at random, each performs strength + noise ~ N(0, 1), and the table finishes in order of
performance (the best first). Every model sees the same games (the same seed), rated one game
at a time in the order played. After each player has played N games on average (N in
`--games`), the Spearman rank correlation between hidden strength and each model's displayed
rating (mu - 3 sigma, what the leaderboard orders by; TrueSkill's conservative estimate is the
same) is printed, averaged over `--seeds` runs with its range:

- the service's own rating module (risk_service.ratings.model, the model the service applies:
  OpenSkill's Bradley-Terry with partial pairing, since this bench's runs of 2026-12-05);
- OpenSkill Plackett-Luce, Bradley-Terry (partial pairing) and Thurstone-Mosteller (full
  pairing) through the library;
- TrueSkill (the `trueskill` package, draw probability 0: a Risk table has no draws).

With `--service`, the same simulation is also played through a real service process on its own
Redis: the players are the service's (IssuePlayerToken), each table a rated CreateGame whose
seats resign from the worst performance up, so the game's own final ranking is the sampled one;
the correlation is read off GetLeaderboard after N games each (the whole path: the ending
commit, the result frozen and applied per player, the sorted set).

With `--bots`, players of the three bot levels play real rated games through a service: each
player has a level (random, greedy or planner: the hidden strength, in that order), every table
of 4 is a rated CreateGame whose seats the SDK's bots play with the players' own tokens at their
levels (risk_client.bots.play_seat; classic, territories dealt, a turn cap), ranked by the game's
final ranking; printed: the Spearman correlation between level and rating on the leaderboard
after N games each, and each level's mean rating.

With `--board N`, the memory of one leaderboard of N players on a fresh redis-server (its sorted
set and its entries' hash, Redis' MEMORY USAGE) and the time of its reads (top 50, a rank, a
page around a player), instead of the above.

Spearman's rho is Pearson's correlation of the ranks (statistics.correlation over ranks with
ties averaged: the standard library's `method="ranked"` arrives only in Python 3.12).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Protocol

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
import redis.asyncio as aioredis  # noqa: E402
import trueskill  # type: ignore[import-untyped]  # noqa: E402 - the package ships no types
from openskill.models import (  # noqa: E402
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
)

from bench.common import stack  # noqa: E402
from risk_client import RiskClient  # noqa: E402
from risk_client.bots import play_seat  # noqa: E402
from risk_client.options import classic_options  # noqa: E402
from risk_proto.risk.v1 import (  # noqa: E402
    classic_pb2,
    common_pb2,
    game_pb2,
    players_pb2,
    ratings_pb2,
    service_pb2,
    service_pb2_grpc,
)
from risk_service.ratings import model as service_model  # noqa: E402
from risk_service.ratings.store import RatingStore  # noqa: E402
from risk_testing.redis_server import RedisServer  # noqa: E402

Table = list[int]  # player indexes, in finishing order (best first)


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing their average."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    return statistics.correlation(ranks(a), ranks(b))


def noise(rng: random.Random, kind: str) -> float:
    """One game's luck: N(0, 1), or a Gumbel of the same sd (Plackett-Luce's own assumption)."""
    if kind == "gumbel":
        return -math.log(-math.log(rng.random() or 1e-300)) * math.sqrt(6) / math.pi
    return rng.gauss(0.0, 1.0)


def schedule(players: int, games_each: int, rng: random.Random,
             strength: Sequence[float], luck: str = "normal") -> list[Table]:
    """Games until every player averages `games_each`: random tables of 3-6, finishing in order
    of strength + noise (sd 1)."""
    tables: list[Table] = []
    seats = 0
    while seats < players * games_each:
        size = rng.randint(3, 6)
        table = rng.sample(range(players), size)
        performance = {p: strength[p] + noise(rng, luck) for p in table}
        tables.append(sorted(table, key=lambda p: -performance[p]))
        seats += size
    return tables


class Rater(Protocol):
    name: str

    def rate(self, table: Table) -> None: ...

    def shown(self, player: int) -> float: ...


class ServiceModel:
    """The service's own module (its model: `service_model.MODEL`)."""

    name = f"service: openskill {type(service_model.MODEL).__name__}"

    def __init__(self, players: int) -> None:
        self.r = [(service_model.DEFAULT_MU, service_model.DEFAULT_SIGMA)] * players

    def rate(self, table: Table) -> None:
        after = service_model.rate([self.r[p] for p in table], list(range(1, len(table) + 1)))
        for p, new in zip(table, after, strict=True):
            self.r[p] = new

    def shown(self, player: int) -> float:
        return service_model.display(*self.r[player])


class OpenSkill:
    def __init__(self, players: int, model: object, name: str) -> None:
        self.model = model
        self.name = name
        self.r = [model.rating() for _ in range(players)]  # type: ignore[attr-defined]

    def rate(self, table: Table) -> None:
        rated = self.model.rate([[self.r[p]] for p in table],  # type: ignore[attr-defined]
                                ranks=list(range(1, len(table) + 1)))
        for p, team in zip(table, rated, strict=True):
            self.r[p] = team[0]

    def shown(self, player: int) -> float:
        return float(self.r[player].ordinal())


class TrueSkill:
    name = "trueskill"

    def __init__(self, players: int) -> None:
        self.env = trueskill.TrueSkill(draw_probability=0.0)
        self.r = [self.env.create_rating() for _ in range(players)]

    def rate(self, table: Table) -> None:
        rated = self.env.rate([(self.r[p],) for p in table], ranks=list(range(len(table))))
        for p, team in zip(table, rated, strict=True):
            self.r[p] = team[0]

    def shown(self, player: int) -> float:
        r = self.r[player]
        return float(r.mu - 3 * r.sigma)


RATERS: list[Callable[[int], Rater]] = [
    ServiceModel,
    lambda n: OpenSkill(n, PlackettLuce(), "openskill PlackettLuce"),
    lambda n: OpenSkill(n, BradleyTerryPart(), "openskill BradleyTerryPart"),
    lambda n: OpenSkill(n, ThurstoneMostellerFull(), "openskill ThurstoneMostellerFull"),
    TrueSkill,
]


def simulate(players: int, checkpoints: Sequence[int], seed: int, luck: str = "normal",
             spent: dict[str, float] | None = None) -> dict[str, dict[int, float]]:
    """Each model's rho at each checkpoint (games per player), one seeded run; `spent` adds
    each model's CPU seconds rating the games."""
    rng = random.Random(seed)
    strength = [rng.gauss(0.0, 1.0) for _ in range(players)]
    tables = schedule(players, max(checkpoints), rng, strength, luck)
    raters = [make(players) for make in RATERS]
    out: dict[str, dict[int, float]] = {r.name: {} for r in raters}
    seats = 0
    due = sorted(checkpoints)
    for table in tables:
        for r in raters:
            began = time.process_time()
            r.rate(table)
            if spent is not None:
                spent[r.name] = spent.get(r.name, 0.0) + time.process_time() - began
        seats += len(table)
        while due and seats >= players * due[0]:
            for r in raters:
                out[r.name][due[0]] = spearman(strength, [r.shown(p) for p in range(players)])
            due.pop(0)
    return out


def report(results: list[dict[str, dict[int, float]]], checkpoints: Sequence[int],
           title: str) -> None:
    print(title)
    print(f"  {'model':36s}" + "".join(f"  N={n:<16d}" for n in checkpoints))
    for name in results[0]:
        cells = []
        for n in checkpoints:
            values = [run[name][n] for run in results if n in run[name]]
            cells.append(f"  {statistics.mean(values):.3f} [{min(values):.3f}-{max(values):.3f}]"
                         if values else "  -")
        print(f"  {name:36s}" + "".join(f"{c:18s}" for c in cells))


def paired(results: list[dict[str, dict[int, float]]], checkpoints: Sequence[int],
           base: str) -> None:
    """Each model's rho minus the base model's on the same games: mean +- standard error, and
    on how many seeds it was higher."""
    print(f"  paired against {base} (same games): mean difference +- s.e. (seeds higher)")
    for name in results[0]:
        if name == base:
            continue
        cells = []
        for n in checkpoints:
            d = [run[name][n] - run[base][n] for run in results]
            se = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else 0.0
            cells.append(f"  {statistics.mean(d):+.3f}+-{se:.3f} ({sum(x > 0 for x in d)})")
        print(f"  {name:36s}" + "".join(f"{c:18s}" for c in cells))


async def through_service(players: int, checkpoints: Sequence[int], seed: int
                          ) -> dict[int, float]:
    """The same simulation through a real service: rated games, the leaderboard read."""
    rng = random.Random(seed)
    strength = [rng.gauss(0.0, 1.0) for _ in range(players)]
    tables = schedule(players, max(checkpoints), rng, strength)
    out: dict[int, float] = {}
    with stack({"players": players, "games": max(checkpoints), "seed": seed},
               log_level="warning") as st:
        async with grpc.aio.insecure_channel(st.service.target) as channel:
            stub = service_pb2_grpc.RiskServiceStub(channel)  # type: ignore[no-untyped-call]
            issued = [await stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest())
                      for _ in range(players)]
            ids = [i.player_id for i in issued]
            index = {pid: n for n, pid in enumerate(ids)}
            seats = 0
            due = sorted(checkpoints)
            started = time.monotonic()
            for n, table in enumerate(tables):
                # seats in random order; the table's finishing order decides who resigns when
                seating = rng.sample(table, len(table))
                created = await stub.CreateGame(service_pb2.CreateGameRequest(
                    options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
                        players=len(table))), seed=n, rated=True,
                    seat_players=[ids[p] for p in seating]),
                    metadata=[("authorization", f"Bearer {issued[seating[0]].token}")])
                for p in reversed(table[1:]):  # the worst resigns first
                    await stub.Resign(service_pb2.ResignRequest(game_id=created.game.game_id),
                                      metadata=[("authorization",
                                                 f"Bearer {issued[p].token}")])
                seats += len(table)
                while due and seats >= players * due[0]:
                    shown = [0.0] * players
                    page = await stub.GetLeaderboard(ratings_pb2.GetLeaderboardRequest(
                        variant=common_pb2.VARIANT_CLASSIC, page_size=200))
                    for entry in page.entries:
                        shown[index[entry.rating.player_id]] = entry.rating.rating
                    out[due[0]] = spearman(strength, shown)
                    due.pop(0)
            print(f"  through the service: {len(tables)} rated games in "
                  f"{time.monotonic() - started:.1f} s")
    return out


BOT_LEVELS = ("random", "greedy", "planner")


async def bots_through_service(per_level: int, checkpoints: Sequence[int], max_turns: int,
                               seed: int) -> None:
    """Players of each bot level in rated 4-seat games through a service (module docstring)."""
    rng = random.Random(seed)
    count = per_level * len(BOT_LEVELS)
    level = [BOT_LEVELS[n % len(BOT_LEVELS)] for n in range(count)]
    strength = [float(BOT_LEVELS.index(lv)) for lv in level]
    with stack({"players": count, "per_level": per_level, "max_turns": max_turns,
                "seed": seed}, log_level="warning") as st:
        async with RiskClient(st.service.target) as client:
            issued = [await client.issue_player_token() for _ in range(count)]
            ids = [i.player_id for i in issued]
            index = {pid: n for n, pid in enumerate(ids)}
            played = [0] * count
            finished: list[Table] = []  # each game's players in finishing order
            # the best a rating can do: every level apart, in order (the players of one level
            # tie in strength, so even a perfect order is not a correlation of 1)
            ceiling = spearman(strength, [s + n * 1e-9 for n, s in enumerate(strength)])
            due = sorted(checkpoints)
            games = 0
            started = time.monotonic()
            while due:
                # the four who have played least (ties at random) sit together, so everyone
                # reaches each checkpoint about together
                order = sorted(range(count), key=lambda n: (played[n], rng.random()))
                table = rng.sample(order[:4], 4)
                game, _host = await client.with_token(issued[table[0]].token).create_game(
                    classic_options(players=4, setup="random-deal", auto_place=True,
                                    auto_defend_max_dice=True, max_turns=max_turns),
                    seat_players=[ids[n] for n in table], rated=True, seed=rng.getrandbits(63))
                ends = await asyncio.gather(*[
                    play_seat(client, game.game_id, issued[n].token, rng.getrandbits(63),
                              level=level[n]) for n in table])
                finished.append([table[seat] for seat in ends[0].game.outcome.ranking])
                games += 1
                for n in table:
                    played[n] += 1
                while due and min(played) >= due[0]:
                    await asyncio.sleep(0.2)  # the last game's ratings, applied after it
                    board = await client.get_leaderboard(page_size=200)
                    shown = [0.0] * count
                    for entry in board.entries:
                        shown[index[entry.rating.player_id]] = entry.rating.rating
                    means = {lv: statistics.mean(shown[n] for n in range(count)
                                                 if level[n] == lv) for lv in BOT_LEVELS}
                    took = time.monotonic() - started
                    print(f"  N={due[0]:<3d} after {games} games ({took:.0f} s): "
                          f"rho(level, rating) {spearman(strength, shown):.3f} (at most "
                          f"{ceiling:.3f} with levels tied); mean rating "
                          + ", ".join(f"{lv} {m:.2f}" for lv, m in means.items()), flush=True)
                    # the other models on the very same games, in the same order (offline)
                    others = []
                    for make in RATERS:
                        rater = make(count)
                        for done in finished:
                            rater.rate(done)
                        rho = spearman(strength, [rater.shown(n) for n in range(count)])
                        others.append(f"{rater.name} {rho:.3f}")
                    print("        the same games, each model: " + ", ".join(others), flush=True)
                    due.pop(0)


async def board_memory(players: int) -> None:
    """One board of `players` entries written as the service writes them (RatingStore.place),
    its memory and the time of its reads."""
    import tempfile  # noqa: PLC0415 - only this mode needs it

    rng = random.Random(1)
    server = RedisServer(Path(tempfile.mkdtemp(prefix="risk-bench-")), appendfsync="everysec")
    server.start()
    try:
        client = aioredis.Redis.from_url(server.url)
        store = RatingStore(client)
        started = time.monotonic()
        batch = []
        for n in range(players):
            rating = service_model.Rating(f"p-{rng.getrandbits(96):024x}", rng.gauss(25, 3),
                                          rng.uniform(1, 8), rng.randint(1, 300),
                                          1_796_508_198_547, rng.randint(1, 300))
            batch.append(store.place("classic", "1", rating))
            if len(batch) == 32 or n == players - 1:
                await asyncio.gather(*batch)
                batch = []
        wrote = time.monotonic() - started
        keys = [store.keys.leaderboard("classic", "1", "players", part) for part in "ze"]
        sizes = [int(await client.memory_usage(key, samples=0) or 0) for key in keys]
        middle = (await store.board("classic", "1", players // 2, 1))[0].rating.player_id
        reads: dict[str, Callable[[], Awaitable[object]]] = {
            "top 50": lambda: store.board("classic", "1", 0, 50),
            "a rank": lambda: store.rank("classic", "1", middle),
            "50 around": lambda: store.board("classic", "1", players // 2 - 25, 50)}
        timed: dict[str, float] = {}
        for name, read in reads.items():
            began = time.perf_counter()
            for _ in range(200):
                await read()
            timed[name] = (time.perf_counter() - began) / 200 * 1e3
        print(f"one board of {players:,} players: sorted set {sizes[0] / 1e6:.1f} MB, entries "
              f"{sizes[1] / 1e6:.1f} MB, {sum(sizes) / players:.0f} bytes a player; written in "
              f"{wrote:.1f} s (32 at a time); reads over loopback, mean of 200: " + ", ".join(
                  f"{name} {ms:.2f} ms" for name, ms in timed.items()))
        await client.aclose()
    finally:
        server.stop()


def schedule_sizes(args: argparse.Namespace, luck: str) -> list[Table]:
    """The tables of the first seed (their count, for the per-table figure)."""
    rng = random.Random(0)
    strength = [rng.gauss(0.0, 1.0) for _ in range(args.players)]
    return schedule(args.players, max(int(g) for g in args.games.split(",")), rng, strength,
                    luck)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--games", default="5,10,20,40")
    parser.add_argument("--service", action="store_true")
    parser.add_argument("--noise", default="normal,gumbel")
    parser.add_argument("--board", type=int, default=0, metavar="N")
    parser.add_argument("--bots", type=int, default=0, metavar="PER_LEVEL",
                        help="players per bot level in rated games through a service")
    parser.add_argument("--max-turns", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1, help="--bots: the run's seed")
    args = parser.parse_args()
    if args.bots:
        asyncio.run(bots_through_service(args.bots, [int(g) for g in args.games.split(",")],
                                         args.max_turns, args.seed))
        return
    if args.board:
        asyncio.run(board_memory(args.board))
        return
    checkpoints = [int(g) for g in args.games.split(",")]
    for luck in args.noise.split(","):
        spent: dict[str, float] = {}
        results = [simulate(args.players, checkpoints, seed, luck, spent)
                   for seed in range(args.seeds)]
        report(results, checkpoints,
               f"Spearman rho(hidden strength, rating = mu - 3 sigma), {args.players} players, "
               f"tables of 3-6, {luck} noise of sd 1 = strength sd; mean [min-max] of "
               f"{args.seeds} seeds")
        paired(results, checkpoints, ServiceModel.name)
        base = spent[ServiceModel.name]
        print("  CPU per rated table, each model / the service's: " + ", ".join(
            f"{name} {1e6 * t / (args.seeds * len(schedule_sizes(args, luck))):.0f} us "
            f"({t / base:.2f})" for name, t in spent.items()))
    if args.service:
        served = [asyncio.run(through_service(args.players, checkpoints, seed))
                  for seed in range(min(args.seeds, 2))]
        report([{f"{ServiceModel.name} (through the service)": s} for s in served],
               checkpoints, "the same games (first seeds) through a service process")


if __name__ == "__main__":
    main()
