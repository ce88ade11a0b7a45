"""Scoring a free-for-all event by finishing rank, and the standings with their tiebreaks.

A game is worth one point to its winner whatever the table's size: a player who finishes
`rank` (1 first) at a table of `n` seats scores `(n - rank) / (n - 1)`, the share of the
table's other seats it finished ahead of (4 seats: 1, 2/3, 1/3, 0; 3 seats: 1, 1/2, 0). Bots
count as seats, so a table filled by a bot scores as a full one. Points are kept as exact
fractions, so two players compare equal only when their points are equal.

Tiebreaks, in order (docs/tournaments.md, "Scoring and tiebreaks"):

1. points, more first;
2. wins (games finished first), more first;
3. opponents' points (the sum, over the player's games, of the mean points of the players it
   sat with, bots excluded): who had the harder tables;
4. progressive score (the sum of the player's running totals after each round): who scored
   earlier;
5. the lot: a number drawn for each player from the event's seed, smaller first. Every
   standing is a strict order and the same on every process.

Pure: standard library and the engine's seeded generator only, no I/O, so the director, the
test's independent computation and the bench all rank the same way.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from risk_service.director.seats import Bot, Seat


@dataclass(frozen=True)
class TableResult:
    """One finished table: its seats in seat order and the ranking (seat indices, first place
    first), as the game's `Outcome.ranking` gives them."""

    seats: tuple[Seat, ...]
    ranking: tuple[int, ...]

    def __post_init__(self) -> None:
        if sorted(self.ranking) != list(range(len(self.seats))):
            raise ValueError(f"ranking {self.ranking} is not an order of {len(self.seats)} seats")

    def rank_of(self, seat: int) -> int:
        """The seat's finishing rank, 1 first."""
        return self.ranking.index(seat) + 1

    def points(self, seat: int) -> Fraction:
        size = len(self.seats)
        return Fraction(size - self.rank_of(seat), size - 1)

    def players(self) -> Iterable[tuple[int, str]]:
        for index, seat in enumerate(self.seats):
            if not isinstance(seat, Bot):
                yield index, seat


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings; `place` is 1 for the leader."""

    place: int
    player: str
    points: Fraction
    wins: int
    opponents_points: Fraction
    progressive: Fraction
    played: int
    lot: int


def lot(seed: int, player: str) -> int:
    """The player's lot for the last tiebreak: 64 bits of SHA-256 over the event's seed and the
    player's id, so it needs no state and is the same on every process."""
    digest = hashlib.sha256(f"risk.v1.lot:{seed}:{player}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def standings(
    players: Sequence[str], rounds: Sequence[Sequence[TableResult]], seed: int
) -> tuple[Standing, ...]:
    """Every player of `players` ranked after `rounds` (each round a sequence of finished
    tables). A player in no table yet has no points; a player at a table who is not in
    `players` (withdrawn) is still an opponent for the others' tiebreaks but is not ranked."""
    points: dict[str, Fraction] = defaultdict(Fraction)
    wins: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    progressive: dict[str, Fraction] = defaultdict(Fraction)
    # per player, per game: the players it sat with (their points are known only at the end)
    tables_met: dict[str, list[list[str]]] = defaultdict(list)
    for round_tables in rounds:
        for table in round_tables:
            seated = list(table.players())
            for index, player in seated:
                points[player] += table.points(index)
                played[player] += 1
                if table.rank_of(index) == 1:
                    wins[player] += 1
                tables_met[player].append([other for _, other in seated if other != player])
        for player, total in points.items():
            progressive[player] += total

    def opponents_points(player: str) -> Fraction:
        total = Fraction(0)
        for others in tables_met[player]:
            if others:
                total += sum((points[o] for o in others), Fraction(0)) / len(others)
        return total

    lines = [
        (player, points[player], wins[player], opponents_points(player), progressive[player])
        for player in players
    ]
    lines.sort(key=lambda line: (-line[1], -line[2], -line[3], -line[4], lot(seed, line[0])))
    return tuple(
        Standing(
            place=place,
            player=player,
            points=pts,
            wins=won,
            opponents_points=opp,
            progressive=prog,
            played=played[player],
            lot=lot(seed, player),
        )
        for place, (player, pts, won, opp, prog) in enumerate(lines, start=1)
    )


def final_standings(swiss: Sequence[Standing], final: TableResult | None) -> tuple[str, ...]:
    """The event's final order: the final table's players in the final's finishing order, then
    everyone else in the order of the standings before the final."""
    if final is None:
        return tuple(line.player for line in swiss)
    ordered = [p for p in (final.seats[seat] for seat in final.ranking) if isinstance(p, str)]
    taken = set(ordered)
    return (*ordered, *(line.player for line in swiss if line.player not in taken))


def points_text(points: Fraction) -> str:
    """Points as people read them: `2`, `1.667`."""
    if points.denominator == 1:
        return str(points.numerator)
    return f"{float(points):.3f}"


def by_player(lines: Sequence[Standing]) -> Mapping[str, Standing]:
    return {line.player: line for line in lines}
