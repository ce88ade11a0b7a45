"""Resource cards: ids, values, and the ways a hand can pay for a Red Star or a trade.

Territory card *i* shows territory *i* (0-41); coin cards follow (42 onwards). A card's only use
in a hand is its resource value (the territory it shows matters only when drawing it), so cards
of equal value are interchangeable when paying: payments are multisets of values, high to low,
and `spend` picks the actual cards (coin cards first, then territory cards by ascending id).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from risk_rules.engine.classic.board import TERRITORIES
from risk_rules.engine.legacy.content import MIN_TRADE, WorldBoard

FIRST_COIN = TERRITORIES  # 42


def coin_ids(count: int) -> tuple[int, ...]:
    return tuple(range(FIRST_COIN, FIRST_COIN + count))


def is_coin(card: int) -> bool:
    return card >= FIRST_COIN


def value_of(board: WorldBoard, card: int) -> int:
    return board.content.coin_value if is_coin(card) else board.card_value[card]


def value_counts(board: WorldBoard, hand: Sequence[int]) -> Counter[int]:
    return Counter(value_of(board, c) for c in hand)


def well_formed(values: Sequence[int], board: WorldBoard) -> bool:
    """Values are card values (1..max), listed high to low."""
    top = board.content.max_card_value
    return (
        bool(values)
        and all(isinstance(v, int) and 1 <= v <= top for v in values)
        and list(values) == sorted(values, reverse=True)
    )


def affordable(values: Sequence[int], counts: Counter[int]) -> bool:
    need = Counter(values)
    return all(counts[v] >= n for v, n in need.items())


def trade_ok(values: Sequence[int]) -> bool:
    """Worth at least the table's least; overpaying is allowed (the rules digest), so a card
    that adds nothing above the table's top may still be spent."""
    return sum(values) >= MIN_TRADE


def _multisets(counts: Counter[int], size: int | None, cap: int) -> list[tuple[int, ...]]:
    """Sub-multisets of `counts` (values high to low): exactly `size` cards if given, and a
    sum of at most `cap`."""
    values = sorted(counts, reverse=True)
    found: list[tuple[int, ...]] = []

    def walk(i: int, chosen: list[int], total: int) -> None:
        if size is not None and len(chosen) == size:
            found.append(tuple(chosen))
            return
        if i == len(values):
            if size is None and chosen:
                found.append(tuple(chosen))
            return
        v = values[i]
        most = counts[v] if size is None else min(counts[v], size - len(chosen))
        for k in range(most, -1, -1):
            if total + k * v > cap:
                continue
            walk(i + 1, chosen + [v] * k, total + k * v)

    walk(0, [], 0)
    return found


def star_payments(counts: Counter[int], cost: int) -> list[tuple[int, ...]]:
    """Every distinct way to pay `cost` cards for a Red Star."""
    return sorted(set(_multisets(counts, cost, 1 << 30)), reverse=True)


def trade_payments(counts: Counter[int]) -> list[tuple[int, ...]]:
    """Every distinct legal trade: any cards of the hand worth at least 2 together."""
    return sorted({p for p in _multisets(counts, None, 1 << 30) if trade_ok(p)}, reverse=True)


def spend(board: WorldBoard, hand: Sequence[int], values: Sequence[int]) -> list[int]:
    """The cards a payment of `values` takes from `hand` (coins first, then lowest ids)."""
    pool = sorted(hand, key=lambda c: (not is_coin(c), c))
    taken: list[int] = []
    for v in values:
        card = next(c for c in pool if c not in taken and value_of(board, c) == v)
        taken.append(card)
    return taken
