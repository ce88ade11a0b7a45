"""Matchmaking on a simulated clock: how long players wait and how close in rating their tables
are, at several arrival rates (players per minute).

The pure table-forming rule the service runs (risk_service.matchmaking.tables) is driven by a
simulated clock: players arrive as a Poisson process, each with a rating mean drawn from
N(25, 5) (OpenSkill's scale), acceptable sizes drawn from a mix ({3,4,5} half the time, {4} a
quarter, {2..6} a quarter), a third of them allowing bots after 120 s, every request expiring
after 600 s; the matchmaker passes once per simulated second, as the service's does by default
(RISK_MATCH_INTERVAL_MS=1000). For each rate it prints the median and p95 wait of seated
players, the share that expired, the seats bots took, and each formed table's rating spread
(max - min mu, and the standard deviation of mu, over its players): the median and p95 over
tables. The baseline, run on the same arrivals, is the same rule blind to ratings (a window
that starts wide open): the ratio says how much closer the rating window seats players, and
what it costs in wait.

    .venv/bin/python bench/matchmaking.py [--minutes 120] [--seed 1]

It first times one pass of the rule over 100, 1,000 and 10,000 waiting requests (CPU, best of
5) against sorting them by rating in the same run: a pass runs on the event loop of every
service process once a second.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

from risk_service.matchmaking.tables import Policy, Waiting, form_tables

RATES = (2, 6, 20, 60)  # players per minute
EXPIRY_MS = 600_000
BOTS_AFTER_MS = 120_000
SIZE_MIX = ((frozenset({3, 4, 5}), 0.5), (frozenset({4}), 0.25),
            (frozenset({2, 3, 4, 5, 6}), 0.25))
RATED = Policy()  # the service's defaults (docs/configuration.md, RISK_MATCH_*)
BLIND = Policy(base_window=1e9, widen_per_s=0.0, max_window=1e9)


@dataclass(frozen=True, slots=True)
class Figures:
    seated: int
    expired: int
    waits_s: list[float]
    spreads: list[float]
    stdevs: list[float]
    bot_seats: int
    seats: int


def _arrivals(rate_per_min: float, minutes: int, seed: int) -> list[Waiting]:
    rng = random.Random(seed)
    out: list[Waiting] = []
    t = 0.0
    n = 0
    while True:
        t += rng.expovariate(rate_per_min / 60_000)
        if t >= minutes * 60_000:
            return out
        pick = rng.random()
        sizes = next(s for s, share in _cumulative() if pick < share)
        out.append(Waiting(ticket=f"t{n:06}", player=f"p{n:06}", pool="classic",
                           sizes=sizes, mu=rng.gauss(25.0, 5.0), since_ms=int(t),
                           bots_after_ms=BOTS_AFTER_MS if rng.random() < 1 / 3 else None))
        n += 1


def _cumulative() -> list[tuple[frozenset[int], float]]:
    total = 0.0
    out = []
    for sizes, share in SIZE_MIX:
        total += share
        out.append((sizes, total))
    out[-1] = (out[-1][0], 1.01)
    return out


def simulate(arrivals: list[Waiting], minutes: int, policy: Policy) -> Figures:
    by_ticket = {w.ticket: w for w in arrivals}
    pending: dict[str, Waiting] = {}
    upcoming = iter(arrivals)
    next_one = next(upcoming, None)
    waits, spreads, stdevs = [], [], []
    expired = bot_seats = seats = 0
    for second in range(minutes * 60 + EXPIRY_MS // 1000):
        now = second * 1000
        while next_one is not None and next_one.since_ms <= now:
            pending[next_one.ticket] = next_one
            next_one = next(upcoming, None)
        for ticket in [t for t, w in pending.items() if now - w.since_ms >= EXPIRY_MS]:
            del pending[ticket]
            expired += 1
        for table in form_tables(pending.values(), now, policy):
            mus = [by_ticket[t].mu for t in table.tickets]
            for ticket in table.tickets:
                waits.append((now - pending.pop(ticket).since_ms) / 1000)
            if len(mus) >= 2:
                spreads.append(max(mus) - min(mus))
                stdevs.append(statistics.pstdev(mus))
            bot_seats += table.bots
            seats += table.size
    return Figures(len(waits), expired, waits, spreads, stdevs, bot_seats, seats)


def _p(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def pass_cost(seed: int) -> None:
    """CPU of one matchmaker pass over N waiting requests of one pool (4-tables, mu ~ N(25,
    5), waits up to 1 s: about a quarter seated), against sorting the same requests by rating
    in the same run (the least a pass does), best of 5."""
    rng = random.Random(seed)
    print("one pass of the rule (form_tables) over N waiting requests, best of 5, "
          "against sorting them by rating:")
    for n in (100, 1000, 10_000):
        waiting = [Waiting(ticket=f"t{i:06}", player=f"p{i:06}", pool="classic",
                           sizes=frozenset({4}), mu=rng.gauss(25.0, 5.0),
                           since_ms=rng.randrange(0, 1000)) for i in range(n)]
        timings = {}
        for name, work in (("pass", lambda w=waiting: form_tables(w, 1000, RATED)),
                           ("sort", lambda w=waiting: sorted(w, key=lambda x: x.mu))):
            best = float("inf")
            for _ in range(5):
                started = time.process_time()
                work()
                best = min(best, time.process_time() - started)
            timings[name] = best
        ratio = timings["pass"] / timings["sort"]
        print(f"  N={n:>6}: pass {timings['pass'] * 1000:8.1f} ms, sort "
              f"{timings['sort'] * 1000:6.2f} ms, pass / sort {ratio:6.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=int, default=120, help="simulated arrival time")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pass_cost(args.seed)
    print(f"matchmaking simulation: {args.minutes} simulated minutes of arrivals per rate, "
          f"seed {args.seed}; rule: window {RATED.base_window} + {RATED.widen_per_s}/s "
          f"(max {RATED.max_window}) rating points; baseline: the same rule blind to ratings")
    print(f"{'rate/min':>8} {'policy':>8} {'players':>7} {'seated':>7} {'expired':>7} "
          f"{'wait p50':>8} {'wait p95':>8} {'bots %':>6} {'spread p50':>10} "
          f"{'spread p95':>10} {'stdev p50':>9}")
    for rate in RATES:
        arrivals = _arrivals(rate, args.minutes, args.seed)
        results = {}
        for name, policy in (("rated", RATED), ("blind", BLIND)):
            f = results[name] = simulate(arrivals, args.minutes, policy)
            print(f"{rate:>8} {name:>8} {len(arrivals):>7} {f.seated:>7} "
                  f"{f.expired / max(1, len(arrivals)):>7.1%} {_p(f.waits_s, 0.5):>8.0f} "
                  f"{_p(f.waits_s, 0.95):>8.0f} {f.bot_seats / max(1, f.seats):>6.1%} "
                  f"{_p(f.spreads, 0.5):>10.2f} {_p(f.spreads, 0.95):>10.2f} "
                  f"{_p(f.stdevs, 0.5):>9.2f}")
        rated, blind = results["rated"], results["blind"]
        print(f"{'':>8} {'ratio':>8} spread p50 rated/blind "
              f"{_p(rated.spreads, 0.5) / _p(blind.spreads, 0.5):.2f}, wait p50 rated/blind "
              f"{_p(rated.waits_s, 0.5) / max(1e-9, _p(blind.waits_s, 0.5)):.2f}")


if __name__ == "__main__":
    main()
