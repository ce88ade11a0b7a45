"""What duplicate play's draw discipline costs the engine: bot games of each variant that has
it, played with and without `duplicate_draws` from the same seeds, interleaved game by game so
both halves share the machine's load; prints actions per CPU second of this process (not wall
time: the machine is shared) of each and their ratio.

    python bench/duplicate_draws.py [--games 10] [--seed 1]

The discipline keeps one generator per kind of draw (engine/core/draws.py) and, in classic
and Strike, throws a fixed five dice per battle; a duplicate game is a different game from the
ordinary game of its seed, so the figure is per action, not per game. Record figures in
bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from risk_rules.engine import get_ruleset

VARIANTS = ("classic", "deep_space", "strike")


def play(variant: str, options: object, seed: int) -> tuple[int, float]:
    """One bot game: (actions, CPU seconds spent choosing and applying them)."""
    rules = get_ruleset(variant)
    state, _ = rules.create(options, seed)
    actions = 0
    start = time.process_time()
    while rules.outcome(state) is None:
        seat = rules.decision(state).seats[0]
        action = rules.bot_choose(rules.view(state, seat), rules.legal_actions(state, seat),
                                  (seed << 32) | actions)
        state, _ = rules.apply(state, seat, action)
        actions += 1
    return actions, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for variant in VARIANTS:
        ordinary = get_ruleset(variant).default_options(4)
        duplicate = dataclasses.replace(ordinary, duplicate_draws=True)
        totals = {"ordinary": [0, 0.0], "duplicate": [0, 0.0]}
        for game in range(args.games):
            for name, options in (("ordinary", ordinary), ("duplicate", duplicate)):
                actions, seconds = play(variant, options, args.seed + game)
                totals[name][0] += actions
                totals[name][1] += seconds
        rates = {name: actions / seconds for name, (actions, seconds) in totals.items()}
        print(f"{variant}: ordinary actions/cpu-s={rates['ordinary']:.0f}, "
              f"duplicate actions/cpu-s={rates['duplicate']:.0f}, "
              f"duplicate / ordinary = {rates['duplicate'] / rates['ordinary']:.2f} "
              f"({args.games} games each)")


if __name__ == "__main__":
    main()
