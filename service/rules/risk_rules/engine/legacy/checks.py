"""The checks the Legacy handlers share, each raising the rule's reason code: a territory exists
and is the seat's own, a count is in range, and a payment is well formed and held.
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.legacy.cards import (
    affordable,
    spend,
    value_counts,
    well_formed,
)
from risk_rules.engine.legacy.play import LegacyGame


def territory(t: int) -> int:
    if not 0 <= t < TERRITORIES:
        raise IllegalAction(Reason.NO_SUCH_TERRITORY, f"territory {t} does not exist")
    return t


def name_of(t: int) -> str:
    return CLASSIC_BOARD.names[t]


def own(game: LegacyGame, seat: int, t: int) -> int:
    territory(t)
    if game.owner[t] != seat:
        raise IllegalAction(Reason.NOT_OWNER, f"seat {seat} does not hold {name_of(t)}")
    return t


def count(count: int, low: int, high: int, what: str) -> None:
    if count < low:
        raise IllegalAction(Reason.TOO_FEW_ARMIES, f"{what}: at least {low}, got {count}")
    if count > high:
        raise IllegalAction(Reason.TOO_MANY_ARMIES, f"{what}: at most {high}, got {count}")


def payment(game: LegacyGame, seat: int, values: tuple[int, ...]) -> list[int]:
    """The cards a payment takes, after checking its form and that the hand holds it."""
    if not well_formed(values, game.board):
        raise IllegalAction(
            Reason.INVALID_SET,
            f"a payment lists card values 1..{game.content.max_card_value}, high to low",
        )
    if not affordable(values, value_counts(game.board, game.hands[seat])):
        raise IllegalAction(
            Reason.CARD_NOT_IN_HAND, f"seat {seat}'s hand cannot pay {list(values)}"
        )
    return spend(game.board, game.hands[seat], values)


def pay(game: LegacyGame, seat: int, cards: Sequence[int]) -> None:
    for card in cards:
        game.hands[seat].remove(card)
    game.give_back(cards)
