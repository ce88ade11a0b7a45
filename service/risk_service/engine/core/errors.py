"""The one error an engine raises for a move the rules do not allow, with a stable code.

Reason codes are part of the public contract (they travel in `google.rpc.ErrorInfo.reason`):
add new ones freely, never rename or reuse one.
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    # Turn and phase
    GAME_OVER = "GAME_OVER"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    WRONG_PHASE = "WRONG_PHASE"
    WRONG_VARIANT = "WRONG_VARIANT"
    NOT_A_SEAT = "NOT_A_SEAT"
    # Board
    NO_SUCH_TERRITORY = "NO_SUCH_TERRITORY"
    TERRITORY_CLAIMED = "TERRITORY_CLAIMED"
    NOT_OWNER = "NOT_OWNER"
    NOT_NEUTRAL = "NOT_NEUTRAL"
    OWN_TERRITORY = "OWN_TERRITORY"
    NOT_ADJACENT = "NOT_ADJACENT"
    NOT_CONNECTED = "NOT_CONNECTED"
    SAME_TERRITORY = "SAME_TERRITORY"
    # Counts
    TOO_MANY_DICE = "TOO_MANY_DICE"
    TOO_FEW_DICE = "TOO_FEW_DICE"
    TOO_MANY_ARMIES = "TOO_MANY_ARMIES"
    TOO_FEW_ARMIES = "TOO_FEW_ARMIES"
    NOT_ENOUGH_ARMIES = "NOT_ENOUGH_ARMIES"
    # Cards
    MUST_TRADE = "MUST_TRADE"
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    INVALID_SET = "INVALID_SET"
    INVALID_BONUS_TERRITORY = "INVALID_BONUS_TERRITORY"
    TRADE_NOT_ALLOWED = "TRADE_NOT_ALLOWED"
    CARDS_DISABLED = "CARDS_DISABLED"
    ALREADY_OUT = "ALREADY_OUT"
    # Options
    INVALID_OPTIONS = "INVALID_OPTIONS"


class IllegalAction(Exception):
    """An action the rules reject; the state it was applied to is unchanged."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(f"{reason.value}: {message}")
        self.reason = reason
        self.message = message
