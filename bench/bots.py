"""The bot levels' match script: how strong each level is, how long its games run, how fast it is.

    python bench/bots.py [--games 200] [--level-games 40] [--variant classic] [--workers 2]

Per variant (every variant in the engine registry unless `--variant` names some), with the
options bench/engine.py plays (`BENCH_OPTIONS`) and 4 seats:
- planner against random: `--games` games, one planner seat and the others random, the
  planner's seat rotated (game i puts it on seat i % 4); prints its win rate with the 95%
  Wilson interval. The same for the planner against greedy (`--games` // 2 games), the
  level the service has always used;
- each level against itself (`--level-games` games with every seat at that level): the share
  of games that end before the turn cap, the median actions per game, and the median time a
  game's bots took to decide (all its decisions, in one process);
- bot decisions per second per level over every decision of the run (the time in
  `bot_choose` alone, not `apply`), and each level's ratio to the random level's figure
  measured in the same run (the project's rule: a ratio against a baseline of the same run).
Game i of a match uses seed 1 + i and bot entropy from (seed, action number), so every run
plays the same games. Games run in `--workers` processes (default 2, the machine's cores).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.engine import BENCH_OPTIONS  # noqa: E402 - needs ROOT
from risk_rules.engine import REGISTRY, get_ruleset  # noqa: E402
from risk_rules.engine.core.bots import LEVELS  # noqa: E402

PLAYERS = 4


@dataclass
class Game:
    """One finished game: who won, why, its length, and each level's decisions and time."""

    winner: int
    reason: str
    actions: int
    decisions: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


def options_for(variant: str) -> Any:
    rules = get_ruleset(variant)
    return dataclasses.replace(rules.default_options(PLAYERS), **BENCH_OPTIONS.get(variant, {}))


def play(variant: str, seed: int, levels: tuple[str, ...]) -> Game:
    """One game to its end with seat n played by the bot at `levels[n]`."""
    rules = get_ruleset(variant)
    state, _ = rules.create(options_for(variant), seed)
    decisions = dict.fromkeys(LEVELS, 0)
    seconds = dict.fromkeys(LEVELS, 0.0)
    actions = 0
    clock = time.perf_counter
    while (outcome := rules.outcome(state)) is None:
        seat = rules.decision(state).seats[0]
        legal = rules.legal_actions(state, seat)
        view = rules.view(state, seat)
        level = levels[seat]
        start = clock()
        action = rules.bot_choose(view, legal, (seed << 32) | actions, level)
        seconds[level] += clock() - start
        decisions[level] += 1
        state, _ = rules.apply(state, seat, action)
        actions += 1
    return Game(outcome.winner, outcome.reason, actions, decisions, seconds)


def _play_task(task: tuple[str, int, tuple[str, ...]]) -> Game:
    return play(*task)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def seatings(strong: str, weak: str, games: int) -> list[tuple[int, tuple[str, ...]]]:
    """(the strong level's seat, every seat's level) for each game: the seat rotates."""
    out = []
    for game in range(games):
        seat = game % PLAYERS
        out.append((seat, tuple(strong if s == seat else weak for s in range(PLAYERS))))
    return out


@dataclass
class Totals:
    decisions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LEVELS, 0))
    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(LEVELS, 0.0))

    def add(self, game: Game) -> None:
        for level in LEVELS:
            self.decisions[level] += game.decisions.get(level, 0)
            self.seconds[level] += game.seconds.get(level, 0.0)


def run_match(pool: ProcessPoolExecutor, variant: str, strong: str, weak: str, *, games: int,
              totals: Totals) -> None:
    plan = seatings(strong, weak, games)
    results = list(pool.map(_play_task, [(variant, 1 + i, levels) for i, (_, levels)
                                          in enumerate(plan)], chunksize=4))
    wins = sum(game.winner == seat for game, (seat, _) in zip(results, plan, strict=True))
    capped = sum(game.reason == "turn_cap" for game in results)
    low, high = wilson(wins, games)
    median = statistics.median(game.actions for game in results)
    print(f"{variant}: {strong} vs {weak}: games={games}, {strong} wins={wins}, "
          f"win rate={wins / games:.3f} (95% Wilson {low:.3f}..{high:.3f}), "
          f"chance alone={1 / PLAYERS:.2f}, turn_cap={capped}, median actions={median:.0f}",
          flush=True)
    for game in results:
        totals.add(game)


def run_level(pool: ProcessPoolExecutor, variant: str, level: str, games: int,
              totals: Totals) -> None:
    tasks = [(variant, 1 + i, (level,) * PLAYERS) for i in range(games)]
    results = list(pool.map(_play_task, tasks, chunksize=2))
    ended = sum(game.reason != "turn_cap" for game in results)
    lengths = [game.actions for game in results]
    bot_ms = 1000 * statistics.median(game.seconds[level] for game in results)
    print(f"{variant}: {level} self-play: games={games}, ended before the turn cap="
          f"{ended}/{games} ({ended / games:.0%}), actions/game median="
          f"{statistics.median(lengths):.0f}, min={min(lengths)}, max={max(lengths)}, "
          f"bot time/game median={bot_ms:.0f} ms", flush=True)
    for game in results:
        totals.add(game)


def report_speed(variant: str, totals: Totals) -> None:
    rates = {level: totals.decisions[level] / totals.seconds[level]
             for level in LEVELS if totals.seconds[level] > 0}
    for level, rate in rates.items():
        print(f"{variant}: {level} decisions/s={rate:.0f} "
              f"(decisions={totals.decisions[level]}, seconds={totals.seconds[level]:.2f})")
    base = rates.get("random")
    if base:
        print(f"{variant}: decisions/s ratio to random (same run): " + ", ".join(
            f"{level}={rate / base:.3f}" for level, rate in rates.items()))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200,
                        help="planner-against-random games per variant (default 200)")
    parser.add_argument("--level-games", type=int, default=40,
                        help="self-play games per level and variant (default 40)")
    parser.add_argument("--variant", action="append", choices=sorted(REGISTRY),
                        help="a variant to measure (repeatable; default: all)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    variants = args.variant or sorted(REGISTRY)
    print(f"python {platform.python_version()} on {platform.machine()} "
          f"({platform.platform()}), players={PLAYERS}, games={args.games}, "
          f"level games={args.level_games}, workers={args.workers}, "
          f"load average at start={os.getloadavg()}", flush=True)
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for variant in variants:
            totals = Totals()
            print(f"{variant}: options {options_for(variant)}", flush=True)
            run_match(pool, variant, "planner", "random", games=args.games, totals=totals)
            run_match(pool, variant, "planner", "greedy",
                      games=max(PLAYERS, args.games // 2), totals=totals)
            for level in LEVELS:
                run_level(pool, variant, level, args.level_games, totals)
            report_speed(variant, totals)
    print(f"seconds={time.perf_counter() - start:.0f}, "
          f"load average at end={os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
