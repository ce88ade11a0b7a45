"""Risk Strike's cards: 42 continent cards (ids 0-41) and 40 tactics cards (ids 42-81).

Continent card `i` is the classic territory `i`, so its continent is that territory's (9 North
America, 4 South America, 7 Europe, 6 Africa, 12 Asia, 4 Australia). Tactics cards take the ids
after them, type by type in the order of `TACTIC_COUNTS`. One id space for both decks makes
"every card is somewhere, exactly once" a one-line check.
"""

from __future__ import annotations

from collections.abc import Iterable

from risk_rules.engine.strike.model import Tactic

CONTINENT_NAMES = ("North America", "South America", "Europe", "Africa", "Asia", "Australia")
CONTINENT_SIZES = (9, 4, 7, 6, 12, 4)
DOMINATION = (6, 3, 5, 4, 8, 3)  # cards of a continent a player must hold to take its coin
CONTINENTS = len(CONTINENT_NAMES)
LINKS: tuple[tuple[int, ...], ...] = (
    (1, 2, 4),  # North America: South America, Europe, Asia
    (0, 3),  # South America: North America, Africa
    (0, 3, 4),  # Europe: North America, Africa, Asia
    (1, 2, 4),  # Africa: South America, Europe, Asia
    (0, 2, 3, 5),  # Asia: North America, Europe, Africa, Australia
    (4,),  # Australia: Asia
)
CONTINENT_CARDS = sum(CONTINENT_SIZES)  # 42
TACTIC_COUNTS: tuple[tuple[Tactic, int], ...] = (
    (Tactic.TROOPS, 18),
    (Tactic.ARTILLERY, 3),
    (Tactic.SABOTAGE, 4),
    (Tactic.SPY, 2),
    (Tactic.RALLY, 3),
    (Tactic.EXPAND, 4),
    (Tactic.BOMBARD, 3),
    (Tactic.CANCEL_ORDER, 3),
)
TACTICS_CARDS = sum(n for _, n in TACTIC_COUNTS)  # 40
ALL_CARDS = CONTINENT_CARDS + TACTICS_CARDS  # 82
COINS = CONTINENTS  # one domination coin per continent

_CONTINENT_OF: tuple[int, ...] = tuple(
    c for c, size in enumerate(CONTINENT_SIZES) for _ in range(size)
)
_TACTIC_OF: tuple[Tactic, ...] = tuple(kind for kind, n in TACTIC_COUNTS for _ in range(n))


def continent_of(card: int) -> int:
    return _CONTINENT_OF[card]


def tactic_of(card: int) -> Tactic:
    return _TACTIC_OF[card - CONTINENT_CARDS]


def linked(a: int, b: int) -> bool:
    """Whether a battle may go from continent `a` to `b`: the same continent or a linked one."""
    return a == b or b in LINKS[a]


def of_continent(cards: Iterable[int], continent: int) -> list[int]:
    return [c for c in cards if _CONTINENT_OF[c] == continent]


def of_tactic(cards: Iterable[int], kind: Tactic) -> list[int]:
    return [c for c in cards if _TACTIC_OF[c - CONTINENT_CARDS] is kind]


def first_of(cards: Iterable[int], kind: Tactic) -> int | None:
    """The lowest id of that type (cards of a type are interchangeable; the lowest is played)."""
    found = of_tactic(cards, kind)
    return min(found) if found else None
