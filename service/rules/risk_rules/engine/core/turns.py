"""Turn order as every variant plays it: who is still in, whose turn comes next, who rolls
highest to go first, and how the seats rank when the game ends.

Seats are numbered from 0. A game keeps one flag per seat that is set once the seat has gone out
(eliminated or resigned), and the seats in the order they went out; these functions read
those and nothing else, so a variant's state and its work area can both call them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from risk_rules.engine.core.rng import Pcg32

NO_SEAT = -1


class RollOffRound(NamedTuple):
    """One round of a roll-off, as the variants' `OrderRolled` events report it."""

    seats: tuple[int, ...]
    rolls: tuple[int, ...]
    winner: int  # NO_SEAT when the high roll tied


def roll_off(rng: Pcg32, contenders: Sequence[int]) -> list[RollOffRound]:
    """Every round until one seat rolls highest alone: each contender rolls a die, in seat
    order, and the tied high rollers roll again. The last round names the winner."""
    rounds: list[RollOffRound] = []
    seats = list(contenders)
    while True:
        rolls = rng.dice(len(seats))
        high = max(rolls)
        best = [seat for seat, roll in zip(seats, rolls, strict=True) if roll == high]
        winner = best[0] if len(best) == 1 else NO_SEAT
        rounds.append(RollOffRound(tuple(seats), rolls, winner))
        if winner != NO_SEAT:
            return rounds
        seats = best


def live_seats(out: Sequence[bool]) -> list[int]:
    """The seats still in the game, in seat order."""
    return [seat for seat in range(len(out)) if not out[seat]]


def next_live_seat(out: Sequence[bool], after: int) -> int:
    """The first seat still in, clockwise after `after` (which may be out itself)."""
    seats = len(out)
    for step in range(1, seats + 1):
        seat = (after + step) % seats
        if not out[seat]:
            return seat
    raise AssertionError("no live seat")


def ranking(
    winner: int,
    live: Sequence[int],
    out_order: Sequence[int],
    standing: Callable[[int], tuple[int, ...]],
) -> tuple[int, ...]:
    """The documented ranking: the winner first; the other seats still in by `standing` (a
    variant's tiebreaks, smaller first), then by seat; then the seats that went out, the last
    one out first."""
    ranked = sorted(live, key=lambda seat: (seat != winner, *standing(seat), seat))
    return (*ranked, *reversed(out_order))
