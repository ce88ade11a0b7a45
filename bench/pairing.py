"""Pairing quality of the tournament director against naive random pairing, over many
simulated events (issue 36).

    python bench/pairing.py [--events 300] [--players 48] [--rounds 4] [--table 4] [--seed 1]

Each event: `--players` players with hidden strengths (normal, mean 0, sd 1), `--rounds`
Swiss-like rounds of `--table`-seat tables, then a final table of the top `--table` of the
standings. A table's finishing order is sampled Plackett-Luce with weights exp(strength):
first place drawn in proportion to the weights, then second from the rest, and so on. The
same events (strengths and every table's draws from the same seeds) are run twice in the same
run: seated by `risk_service.director.pairing` (standings grouping, repeat avoidance, seat
balance), and naively (each round a fresh random shuffle cut into tables, seats in that
order); both scored by `risk_service.director.standings`. Printed per pairing:

- repeats: pairs of players who sat at one table more than once, per event (a pair met 3
  times counts 2), Swiss rounds only;
- seat spread: per player, max - min of its count in each seat position over the Swiss
  rounds, averaged over players; and the mean chi-square of each player's seat counts against
  an even spread (rounds / seats per position; 0 is perfectly even, a uniform random seat
  gives seats - 1 on average);
- first/last: the share of players who sat first (or last) in more than half their games;
- final: how many of the `--table` strongest players (by hidden strength) reach the final,
  and how often the strongest one does; how often the strongest wins the event.

Then the ratios director / naive. No service, no Redis: the pairing is pure.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from risk_service.director.pairing import (  # noqa: E402 - needs ROOT
    History,
    PairingRules,
    Table,
    final_table,
    swiss_round,
)
from risk_service.director.standings import (  # noqa: E402
    TableResult,
    final_standings,
    standings,
)


@dataclass
class Tally:
    repeats: list[int]
    spread: list[float]
    chi2: list[float]
    first_heavy: list[float]
    last_heavy: list[float]
    top_in_final: list[int]
    best_in_final: list[int]
    best_wins: list[int]
    seconds: float = 0.0

    @classmethod
    def empty(cls) -> Tally:
        return cls([], [], [], [], [], [], [], [])


def play(table: Table, strength: dict[str, float], rng: random.Random) -> TableResult:
    """Plackett-Luce: each next place drawn in proportion to exp(strength) of those left."""
    left = list(range(len(table)))
    ranking = []
    while left:
        weights = [math.exp(strength[str(table[s])]) for s in left]
        pick = rng.random() * sum(weights)
        for i, w in enumerate(weights):
            pick -= w
            if pick <= 0 or i == len(weights) - 1:
                ranking.append(left.pop(i))
                break
    return TableResult(seats=table, ranking=tuple(ranking))


def naive_round(players: list[str], size: int, rng: random.Random) -> tuple[Table, ...]:
    shuffled = players[:]
    rng.shuffle(shuffled)
    return tuple(tuple(shuffled[i : i + size]) for i in range(0, len(shuffled), size))


def event(args: argparse.Namespace, number: int, director: bool, tally: Tally) -> None:
    rng = random.Random(args.seed * 1_000_003 + number)  # strengths: the same for both
    players = [f"p{i:02d}" for i in range(args.players)]
    strength = {p: rng.gauss(0.0, 1.0) for p in players}
    ranked_by_strength = sorted(players, key=lambda p: -strength[p])
    top = set(ranked_by_strength[: args.table])
    best = ranked_by_strength[0]
    results_rng = random.Random(args.seed * 7_919 + number)  # the tables' draws
    pairing_rng = random.Random(args.seed * 104_729 + number)  # naive pairing only
    rules = PairingRules(table_size=args.table)
    event_seed = args.seed * 65_537 + number
    rounds: list[list[TableResult]] = []
    seated: list[tuple[Table, ...]] = []
    started = time.process_time()
    for _ in range(args.rounds):
        if director:
            lines = standings(players, rounds, event_seed)
            tables = swiss_round(
                [line.player for line in lines],
                {line.player: line.points for line in lines},
                History.of(seated),
                rules,
                event_seed,
            )
        else:
            tables = naive_round(players, args.table, pairing_rng)
        tally.seconds += time.process_time() - started
        seated.append(tables)
        rounds.append([play(t, strength, results_rng) for t in tables])
        started = time.process_time()
    lines = standings(players, rounds, event_seed)
    order = [line.player for line in lines]
    if director:
        final = final_table(order, History.of(seated), rules, event_seed)
    else:
        final = tuple(order[: args.table])
    tally.seconds += time.process_time() - started
    result = play(final, strength, results_rng)
    winner = final_standings(lines, result)[0]

    met: Counter[frozenset[str]] = Counter()
    positions: dict[str, Counter[int]] = {p: Counter() for p in players}
    for tables in seated:
        for table in tables:
            for i, a in enumerate(table):
                positions[str(a)][i] += 1
                for b in table[i + 1 :]:
                    met[frozenset((str(a), str(b)))] += 1
    tally.repeats.append(sum(m - 1 for m in met.values() if m > 1))
    expected = args.rounds / args.table
    spreads, chis, firsts, lasts = [], [], 0, 0
    for p in players:
        counts = [positions[p][s] for s in range(args.table)]
        spreads.append(max(counts) - min(counts))
        chis.append(sum((c - expected) ** 2 / expected for c in counts))
        firsts += counts[0] * 2 > args.rounds
        lasts += counts[-1] * 2 > args.rounds
    tally.spread.append(statistics.fmean(spreads))
    tally.chi2.append(statistics.fmean(chis))
    tally.first_heavy.append(firsts / len(players))
    tally.last_heavy.append(lasts / len(players))
    tally.top_in_final.append(len(top & {str(s) for s in final}))
    tally.best_in_final.append(best in final)
    tally.best_wins.append(winner == best)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--players", type=int, default=48)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--table", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.players % args.table:
        parser.error("--players must be a multiple of --table (no leftovers in this bench)")
    tallies = {"director": Tally.empty(), "naive": Tally.empty()}
    for number in range(args.events):
        # interleaved, so both halves share the machine's load
        event(args, number, True, tallies["director"])
        event(args, number, False, tallies["naive"])
    print(
        f"{args.events} events of {args.players} players, {args.rounds} Swiss rounds of "
        f"{args.table}-seat tables + a final of {args.table}, seed {args.seed}"
    )
    rows = [
        ("repeat pairs per event", "repeats", "{:.2f}"),
        ("seat spread max-min per player", "spread", "{:.3f}"),
        ("seat chi-square per player", "chi2", "{:.3f}"),
        ("players first in > half their games", "first_heavy", "{:.3f}"),
        ("players last in > half their games", "last_heavy", "{:.3f}"),
        (f"of the {args.table} strongest, in the final", "top_in_final", "{:.3f}"),
        ("strongest player in the final", "best_in_final", "{:.3f}"),
        ("strongest player wins the event", "best_wins", "{:.3f}"),
    ]
    print(f"{'':40} {'director':>10} {'naive':>10} {'ratio':>8}")
    for label, name, fmt in rows:
        d = statistics.fmean(getattr(tallies["director"], name))
        n = statistics.fmean(getattr(tallies["naive"], name))
        ratio = f"{d / n:.3f}" if n else "-"
        print(f"{label:40} {fmt.format(d):>10} {fmt.format(n):>10} {ratio:>8}")
    per = tallies["director"].seconds / args.events
    print(f"director pairing CPU per event: {per * 1000:.1f} ms (all rounds and the final)")


if __name__ == "__main__":
    main()
