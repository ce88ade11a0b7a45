"""The checks classic rules make of an action's arguments, each raising its reason code."""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.core.errors import IllegalAction, Reason


def territory(t: int) -> int:
    if not 0 <= t < TERRITORIES:
        raise IllegalAction(Reason.NO_SUCH_TERRITORY, f"territory {t} does not exist")
    return t


def owned(owner: Sequence[int], seat: int, t: int) -> int:
    territory(t)
    if owner[t] != seat:
        raise IllegalAction(Reason.NOT_OWNER,
                            f"seat {seat} does not hold {CLASSIC_BOARD.names[t]}")
    return t


def army_count(count: int, low: int, high: int, what: str) -> None:
    if count < low:
        raise IllegalAction(Reason.TOO_FEW_ARMIES, f"{what}: at least {low}, got {count}")
    if count > high:
        raise IllegalAction(Reason.TOO_MANY_ARMIES, f"{what}: at most {high}, got {count}")
