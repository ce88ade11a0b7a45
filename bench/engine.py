"""Engine throughput: complete bot games per second and validated actions per second, per variant.

    python bench/engine.py [--games 20] [--seed 1] [--players 4] [--variant classic]

Each step does what the service does for a bot seat: list the legal actions for the deciding
seat, let the bot pick one (`bot_action`), and `apply` it (which validates it again). One such
step is one action. Every variant in the engine registry is measured with the options in
`BENCH_OPTIONS` (defaults otherwise); results print as one greppable line per figure, e.g.
`classic: games/s=1.23, actions/s=4567`. Record figures in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from risk_service.engine import REGISTRY, get_ruleset

# Per-variant option overrides for the benchmark game (applied to `default_options(players)`).
# Classic: cards on and the defender's dice rolled automatically, as in bot and timed games.
# Strike: every seat is asked in every response window (auto_pass off, the default), so most
# actions are passes; the figure measures the windows as a client meets them.
# Deep Space: the defaults (200-turn cap) spelled out, so a change of default cannot silently
# change the games measured.
# Legacy: the first game of a campaign (the unplayed world: no missiles yet, one scar card
# each), the defender choosing its dice as a client would, the 200-turn cap spelled out.
BENCH_OPTIONS: dict[str, dict[str, Any]] = {
    "classic": {"cards": True, "auto_defend_max_dice": True},
    "strike": {"auto_pass": False},
    "deep_space": {"max_turns": 200},
    "legacy": {"max_turns": 200, "auto_defend_max_dice": False},
}


@dataclass
class Result:
    """What one variant's run measured."""

    variant: str
    options: Any = None
    seconds: float = 0.0
    actions_per_game: list[int] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)
    winners: Counter[int] = field(default_factory=Counter)

    @property
    def games(self) -> int:
        return len(self.actions_per_game)

    @property
    def actions(self) -> int:
        return sum(self.actions_per_game)


def play_game(variant: str, options: Any, seed: int) -> tuple[int, Any]:
    """One complete bot game: (actions applied, outcome)."""
    rules = get_ruleset(variant)
    state, _ = rules.create(options, seed)
    actions = 0
    while (outcome := rules.outcome(state)) is None:
        seat = rules.decision(state).seats[0]
        legal = rules.legal_actions(state, seat)
        if not legal:
            raise AssertionError(f"{variant} seed {seed}: seat {seat} decides but has no action")
        action = rules.bot_action(state, seat, (seed << 32) | actions)
        state, _ = rules.apply(state, seat, action)
        actions += 1
    return actions, outcome


def bench_variant(variant: str, games: int, seed: int, players: int) -> Result:
    rules = get_ruleset(variant)
    options = dataclasses.replace(
        rules.default_options(players), **BENCH_OPTIONS.get(variant, {})
    )
    result = Result(variant, options)
    start = time.perf_counter()
    for game in range(games):
        actions, outcome = play_game(variant, options, seed + game)
        result.actions_per_game.append(actions)
        result.outcomes[outcome.reason] += 1
        result.winners[outcome.winner] += 1
    result.seconds = time.perf_counter() - start
    return result


def report(result: Result) -> None:
    v, per_game = result.variant, result.actions_per_game
    print(f"{v}: options {result.options}")
    print(f"{v}: games={result.games}, actions={result.actions}, seconds={result.seconds:.2f}")
    print(f"{v}: games/s={result.games / result.seconds:.3f}, "
          f"actions/s={result.actions / result.seconds:.0f}")
    print(f"{v}: actions/game mean={statistics.mean(per_game):.0f}, "
          f"median={statistics.median(per_game):.0f}, min={min(per_game)}, max={max(per_game)}")
    print(f"{v}: outcomes " + ", ".join(f"{k}={n}" for k, n in sorted(result.outcomes.items())))
    print(f"{v}: winners " + ", ".join(
        f"seat{k}={n}" if k >= 0 else f"draw={n}" for k, n in sorted(result.winners.items())
    ))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="complete games per variant")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", action="append", choices=sorted(REGISTRY),
                        help="only this variant (repeatable); default: every registered one")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()} "
          f"({platform.processor() or platform.platform()}), games={args.games}, "
          f"seeds {args.seed}..{args.seed + args.games - 1}, players={args.players}")
    for variant in args.variant or sorted(REGISTRY):
        report(bench_variant(variant, args.games, args.seed, args.players))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
