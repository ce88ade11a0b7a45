"""Card sets, what they are worth under each trade schedule, and where a trade's +2 may go."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from risk_rules.engine.classic.board import (
    ARTILLERY,
    CAVALRY,
    INFANTRY,
    WILD,
    card_symbol,
    card_territory,
)
from risk_rules.engine.classic.model import TradeSchedule

_FIXED_KIND_VALUE = {INFANTRY: 4, CAVALRY: 6, ARTILLERY: 8}
_FIXED_MIXED_VALUE = 10


def is_set(cards: Sequence[int]) -> bool:
    """Three of a kind, one of each kind, or any two plus a wild."""
    if len(cards) != 3:
        return False
    symbols = [card_symbol(c) for c in cards]
    if WILD in symbols:
        return True
    return len(set(symbols)) in (1, 3)


def escalating_value(schedule: TradeSchedule, trade_number: int) -> int:
    """Armies for the `trade_number`-th set traded in the game (1-based), all players counted."""
    steps: tuple[int, ...]
    if schedule is TradeSchedule.SEED:
        steps = (4, 6, 8, 10)
    elif schedule is TradeSchedule.HASBRO_1993:
        steps = (4, 6, 8, 10, 12, 15)
    else:
        return 0
    if trade_number <= len(steps):
        return steps[trade_number - 1]
    return steps[-1] + 5 * (trade_number - len(steps))


def fixed_value(cards: Sequence[int]) -> int:
    """Under the fixed schedule a wild stands in for whatever makes the set worth most."""
    symbols = [card_symbol(c) for c in cards]
    plain = [s for s in symbols if s != WILD]
    wilds = len(symbols) - len(plain)
    if wilds == 0:
        return _FIXED_KIND_VALUE[plain[0]] if len(set(plain)) == 1 else _FIXED_MIXED_VALUE
    best = 0
    if len(set(plain)) <= 1:  # a wild can complete three of a kind
        kinds = set(plain) or {INFANTRY, CAVALRY, ARTILLERY}
        best = max(_FIXED_KIND_VALUE[k] for k in kinds)
    if len(set(plain)) == len(plain):  # distinct plain symbols can be completed to one of each
        best = max(best, _FIXED_MIXED_VALUE)
    return best


def set_value(schedule: TradeSchedule, trade_number: int, cards: Sequence[int]) -> int:
    if schedule is TradeSchedule.FIXED:
        return fixed_value(cards)
    return escalating_value(schedule, trade_number)


def sets_in(hand: Sequence[int]) -> list[tuple[int, int, int]]:
    """Every tradeable set in a hand, as ascending card-id triples."""
    return list(_sets_in_sorted(tuple(sorted(hand))))


@lru_cache(maxsize=4096)
def _sets_in_sorted(hand: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    # A hand is listed on every placement of a turn and changes only by a trade or a draw.
    return tuple(combo for combo in combinations(hand, 3) if is_set(combo))


def bonus_choices(
    owner: Sequence[int], bonus_used: bool, seat: int, cards: Sequence[int]
) -> list[int]:
    """Where the +2 may go: a traded card's territory the seat holds, once per turn (-1: none)."""
    if bonus_used:
        return [-1]
    shown = [card_territory(c) for c in cards]
    return [t for t in shown if t is not None and owner[t] == seat] or [-1]
