"""Seating the rounds of a free-for-all event: Swiss-like rounds and table-winner knockout.

A round of a Risk event is a partition of its players into tables of 3 to 6 seats, each table
with a seat order. Chess pairing programs (and libraries such as those behind Lichess's Swiss)
pair two players at a time; no well-kept library partitions players into tables of N with a
cost on repeated opponents, so this module does it by hand, small and pure:

- **Table layout** (`layout`): `ceil(players / size)` tables. Leftovers either sit at smaller
  tables (sizes differing by at most one, never below `min_table`) or, when the rules name a
  bot level, the last tables are filled to full size with bots at that level (at most one
  bot per table while there are tables to spread them over).
- **Swiss-like rounds** (`swiss_round`): players in standings order are cut into consecutive
  tables (the leaders together, as a Swiss groups by score), then improved by swapping two
  players of different tables while that lowers the round's cost, compared in order: first
  the repeats, `sum(m**2)` over every pair seated together who already met `m` times, then
  the spread, `sum((points - table mean)**2)` over every player. Repeats are avoided before
  score groups are kept together: no spread, however uneven, is bought with a repeat. Only
  strictly better swaps are taken, scanned in a fixed order. When the swaps stop with a
  repeat left, a player of a repeated pair is swapped with another table's player, chosen by
  the seeded generator, and the search runs again (at most `MAX_KICKS` times, and stopping
  after `KICK_PATIENCE` in a row found nothing better), keeping the best seating met; so the
  result is still a function of the inputs.
- **Knockout** (`knockout_round`): the players advancing (the first `advance` players of each
  table, `advancing`) are dealt to tables in snake order of their seeding (1st to table 1, ...,
  table T, then back), so the strongest seeds are spread out, then players of the same snake
  row are swapped between tables while that lowers the repeats. When the players left fit at
  one table, that table is the final (`knockout_sizes`).
- **Seat order** (`seat_order`): each table's seats are ordered to spread every player's
  positions: the permutation (at most 6! = 720) that minimises, over its players, how many
  times each already sat in the position it gets, with first and last seat counted again
  (`end_weight`), so nobody keeps moving first or last. Ties go to the first of a seeded
  shuffle.

Randomness comes only from `seed` (the engine's PCG32, not the `random` module, whose
algorithms change between Python versions): the same event, seed and round seat the same way
on every process and every release, which is what lets any process of the service seat a
round and the test recompute it.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from risk_rules.engine.core.rng import Pcg32
from risk_service.director.seats import Bot, Seat
from risk_service.director.standings import TableResult

MIN_TABLE = 3
MAX_TABLE = 6
# bounded local search: each pass is O(players^2) swaps; events settle in 2-4 passes
MAX_PASSES = 40
# restarts from a perturbed seating when a search ends with a repeat it could not swap away:
# at most MAX_KICKS, and no more after KICK_PATIENCE in a row found nothing better (where
# repeats cannot be avoided, as with fewer tables than seats, kicks would only cost time)
MAX_KICKS = 30
KICK_PATIENCE = 6

Table = tuple[Seat, ...]
# a group's cost: (repeats, spread), compared in that order
Cost = tuple[int, float]
# the kicks' generator is another stream than the seat orders' of the same round
_KICK_STREAM = 0x5EED_4B1C


class PairingError(ValueError):
    """The players cannot be seated under the rules (too few for the smallest table)."""


@dataclass(frozen=True)
class PairingRules:
    """How a round is seated. `fill_bot` unset: leftovers sit at smaller tables."""

    table_size: int
    min_table: int = MIN_TABLE
    fill_bot: Bot | None = None
    end_weight: float = 1.0

    def __post_init__(self) -> None:
        if not MIN_TABLE <= self.min_table <= self.table_size <= MAX_TABLE:
            raise PairingError(
                f"tables of {self.min_table} to {self.table_size} seats: "
                f"sizes must be within {MIN_TABLE}..{MAX_TABLE}"
            )


@dataclass
class History:
    """What the rounds seated so far tell the next one: how often each pair sat together and
    where each player sat."""

    met: Counter[frozenset[str]] = field(default_factory=Counter)
    positions: dict[str, Counter[int]] = field(default_factory=dict)
    firsts: Counter[str] = field(default_factory=Counter)
    lasts: Counter[str] = field(default_factory=Counter)

    @classmethod
    def of(cls, rounds: Iterable[Sequence[Table]]) -> History:
        history = cls()
        for tables in rounds:
            for table in tables:
                history.add(table)
        return history

    def add(self, table: Table) -> None:
        players = [(i, seat) for i, seat in enumerate(table) if isinstance(seat, str)]
        for (_, a), (_, b) in itertools.combinations(players, 2):
            self.met[frozenset((a, b))] += 1
        for index, player in players:
            self.positions.setdefault(player, Counter())[index] += 1
            if index == 0:
                self.firsts[player] += 1
            if index == len(table) - 1:
                self.lasts[player] += 1

    def times_met(self, a: str, b: str) -> int:
        return self.met.get(frozenset((a, b)), 0)


def layout(players: int, rules: PairingRules) -> tuple[tuple[int, int], ...]:
    """(player seats, bot seats) per table, the fullest tables first."""
    if players <= 0:
        raise PairingError("no players to seat")
    tables = -(-players // rules.table_size)
    if rules.fill_bot is not None:
        bots = tables * rules.table_size - players
        # spread the bots over the last tables, as evenly as they go
        per = [bots // tables + (1 if i >= tables - bots % tables else 0) for i in range(tables)]
        return tuple((rules.table_size - b, b) for b in per)
    small, extra = divmod(players, tables)
    sizes = [small + 1] * extra + [small] * (tables - extra)
    if sizes[-1] < rules.min_table:
        raise PairingError(
            f"{players} players do not fit tables of {rules.min_table} to {rules.table_size} "
            "seats; fill the last tables with bots"
        )
    return tuple((size, 0) for size in sizes)


def swiss_round(
    order: Sequence[str],
    points: Mapping[str, Fraction],
    history: History,
    rules: PairingRules,
    seed: int,
) -> tuple[Table, ...]:
    """The next Swiss-like round: `order` is the players in standings order (leaders first)."""
    _distinct(order)
    shape = layout(len(order), rules)
    groups: list[list[str]] = []
    start = 0
    for seated, _ in shape:
        groups.append(list(order[start : start + seated]))
        start += seated
    # floats in the search (exact fractions cost 10x the time); only comparisons of sums of
    # the same few terms, in the same order on every process, so the result is still a
    # function of the inputs
    pts = {p: float(points.get(p, 0)) for p in order}
    met = history.met

    def cost(group: Sequence[str]) -> Cost:
        repeats = 0
        for a, b in itertools.combinations(group, 2):
            m = met.get(frozenset((a, b)), 0)
            repeats += m * m
        if not group:
            return (0, 0.0)
        values = [pts[p] for p in group]
        mean = sum(values) / len(values)
        return (repeats, sum((v - mean) ** 2 for v in values))

    groups = _search(groups, cost, _round_rng(seed ^ _KICK_STREAM, order), met)
    return tuple(
        seat_order(group, bots, history, rules, _round_rng(seed, order))
        for group, (_, bots) in zip(groups, shape, strict=True)
    )


def knockout_round(
    seeding: Sequence[str], history: History, rules: PairingRules, seed: int
) -> tuple[Table, ...]:
    """A knockout round of the players in `seeding` (best seed first), snake-dealt."""
    _distinct(seeding)
    shape = layout(len(seeding), rules)
    groups: list[list[str]] = [[] for _ in shape]
    capacity = [seated for seated, _ in shape]
    row: dict[str, int] = {}
    index = 0
    for r in itertools.count():
        if index >= len(seeding):
            break
        tables = range(len(shape)) if r % 2 == 0 else reversed(range(len(shape)))
        for t in tables:
            if index < len(seeding) and len(groups[t]) < capacity[t]:
                groups[t].append(seeding[index])
                row[seeding[index]] = r
                index += 1

    def cost(group: Sequence[str]) -> Cost:
        return (sum(history.times_met(a, b) ** 2 for a, b in itertools.combinations(group, 2)),
                0.0)

    _improve(groups, cost, allowed=lambda a, b: row[a] == row[b])
    return tuple(
        seat_order(group, bots, history, rules, _round_rng(seed, seeding))
        for group, (_, bots) in zip(groups, shape, strict=True)
    )


def final_table(order: Sequence[str], history: History, rules: PairingRules, seed: int) -> Table:
    """The final: the first `table_size` players of `order` at one table, seats balanced."""
    finalists = list(order[: rules.table_size])
    if len(finalists) < rules.min_table and rules.fill_bot is None:
        raise PairingError(f"a final needs {rules.min_table} players, {len(finalists)} left")
    bots = rules.table_size - len(finalists) if rules.fill_bot is not None else 0
    return seat_order(finalists, bots, history, rules, _round_rng(seed, finalists))


def advancing(results: Sequence[TableResult], advance: int,
              eligible: Callable[[str], bool] = lambda _player: True) -> list[str]:
    """Who goes through from a knockout round: the first `advance` players (bots and players
    not `eligible`, such as those who withdrew, never advance; their place goes to the next
    player) of each table, all the tables' winners first, then their seconds, ...; within a
    rank, in table order."""
    ranked: list[list[str]] = []
    for table in results:
        players = [table.seats[s] for s in table.ranking if isinstance(table.seats[s], str)]
        ranked.append([p for p in players if isinstance(p, str) and eligible(p)][:advance])
    out: list[str] = []
    for rank in range(advance):
        out.extend(r[rank] for r in ranked if rank < len(r))
    return out


def knockout_sizes(players: int, rules: PairingRules, advance: int) -> tuple[int, ...]:
    """The players in each knockout round, down to the final table's."""
    if not 1 <= advance < rules.min_table:
        raise PairingError(
            f"advance {advance}: at least 1 and fewer than the smallest table ({rules.min_table})"
        )
    sizes = [players]
    while sizes[-1] > rules.table_size:
        sizes.append(len(layout(sizes[-1], rules)) * advance)
    return tuple(sizes)


def seat_order(
    players: Sequence[str], bots: int, history: History, rules: PairingRules, rng: Pcg32
) -> Table:
    """The table's seats in the order that spreads its players' positions best."""
    if rules.fill_bot is None and bots:
        raise PairingError("bot seats without a bot level")
    entries: list[Seat] = list(rng.shuffled(list(players)))
    if bots:
        assert rules.fill_bot is not None
        entries.extend([rules.fill_bot] * bots)
    size = len(entries)

    def seat_cost(entry: Seat, position: int) -> float:
        if not isinstance(entry, str):
            return 0.0
        cost = float(history.positions.get(entry, Counter())[position])
        if position == 0:
            cost += rules.end_weight * history.firsts[entry]
        if position == size - 1:
            cost += rules.end_weight * history.lasts[entry]
        return cost

    table = [[seat_cost(e, pos) for pos in range(size)] for e in entries]
    best: tuple[int, ...] | None = None
    best_cost = float("inf")
    # perm[k] = the position of entry k; bots are interchangeable, so equal costs keep the
    # first permutation met, whose order is the seeded shuffle's
    for perm in itertools.permutations(range(size)):
        c = sum(table[k][perm[k]] for k in range(size))
        if c < best_cost:
            best, best_cost = perm, c
    assert best is not None
    seats: list[Seat | None] = [None] * size
    for k, position in enumerate(best):
        seats[position] = entries[k]
    return tuple(s for s in seats if s is not None)


def _search(
    groups: list[list[str]],
    cost: Callable[[Sequence[str]], Cost],
    rng: Pcg32,
    met: Mapping[frozenset[str], int],
) -> list[list[str]]:
    """`_improve`, then, while a repeat is left, kick a player of a repeated pair to another
    table and improve again; the best seating met (by `cost`, then first met) is returned."""
    _improve(groups, cost, allowed=lambda a, b: True)
    best = [list(g) for g in groups]
    best_cost = _total(best, cost)
    fruitless = 0
    for _ in range(MAX_KICKS):
        if best_cost[0] == 0 or fruitless >= KICK_PATIENCE:
            break
        repeated = [
            (t, i)
            for t, group in enumerate(groups)
            for i, player in enumerate(group)
            if any(met.get(frozenset((player, other)), 0) for other in group if other != player)
        ]
        t, i = repeated[rng.below(len(repeated))]
        others = [(u, j) for u, group in enumerate(groups) if u != t for j in range(len(group))]
        if not others:
            break
        u, j = others[rng.below(len(others))]
        groups[t][i], groups[u][j] = groups[u][j], groups[t][i]
        _improve(groups, cost, allowed=lambda a, b: True)
        now = _total(groups, cost)
        if now < best_cost:
            best, best_cost, fruitless = [list(g) for g in groups], now, 0
        else:
            fruitless += 1
    return best


def _total(groups: Sequence[Sequence[str]], cost: Callable[[Sequence[str]], Cost]) -> Cost:
    repeats, spread = 0, 0.0
    for group in groups:
        r, s = cost(group)
        repeats += r
        spread += s
    return (repeats, spread)


def _improve(
    groups: list[list[str]],
    cost: Callable[[Sequence[str]], Cost],
    allowed: Callable[[str, str], bool],
) -> None:
    """Swap players between groups while a swap lowers the summed cost, compared repeats
    first, then spread (first improvement, fixed scan order)."""
    costs = [cost(g) for g in groups]
    for _ in range(MAX_PASSES):
        improved = False
        for ga, gb in itertools.combinations(range(len(groups)), 2):
            a_group, b_group = groups[ga], groups[gb]
            for ia in range(len(a_group)):
                for ib in range(len(b_group)):
                    a, b = a_group[ia], b_group[ib]
                    if not allowed(a, b):
                        continue
                    a_group[ia], b_group[ib] = b, a
                    ca, cb = cost(a_group), cost(b_group)
                    repeats = ca[0] + cb[0] - costs[ga][0] - costs[gb][0]
                    spread = ca[1] + cb[1] - costs[ga][1] - costs[gb][1]
                    if repeats < 0 or (repeats == 0 and spread < -1e-9):
                        costs[ga], costs[gb] = ca, cb
                        improved = True
                    else:
                        a_group[ia], b_group[ib] = a, b
        if not improved:
            return


def _round_rng(seed: int, players: Sequence[str]) -> Pcg32:
    # one stream per event seed; the round's players pick the stream, so rounds differ
    stream = hash_players(players)
    return Pcg32.from_seed(seed, stream=stream)


def hash_players(players: Sequence[str]) -> int:
    """A 63-bit number for a list of players that is the same in every process (Python's
    `hash` of a str is salted per process)."""
    digest = hashlib.sha256("\x00".join(players).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _distinct(players: Sequence[str]) -> None:
    if len(set(players)) != len(players):
        raise PairingError("a player is listed twice")
