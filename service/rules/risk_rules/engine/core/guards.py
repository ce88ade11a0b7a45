"""The checks every variant makes before a rule runs, in the same order and with the same
reason codes, so clients meet one behaviour whatever the game; and the checks of the options
every variant shares."""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.ruleset import Action


def check_action(action: Action, action_types: tuple[type[Action], ...], variant: str, *,
                 seat: int, players: int, finished: bool, deciding: Sequence[int]) -> None:
    """WRONG_VARIANT, NOT_A_SEAT, GAME_OVER, NOT_YOUR_TURN: in that order."""
    if not isinstance(action, action_types):
        raise IllegalAction(Reason.WRONG_VARIANT,
                            f"{type(action).__name__} is not a {variant} action")
    _check_seat(seat, players, finished)
    if seat not in deciding:
        raise IllegalAction(Reason.NOT_YOUR_TURN, f"it is not seat {seat}'s decision")


def check_resign(seat: int, *, players: int, finished: bool, out: Sequence[bool]) -> None:
    """NOT_A_SEAT, GAME_OVER, ALREADY_OUT: in that order."""
    _check_seat(seat, players, finished)
    if out[seat]:
        raise IllegalAction(Reason.ALREADY_OUT, f"seat {seat} is already out of the game")


def _check_seat(seat: int, players: int, finished: bool) -> None:
    if not 0 <= seat < players:
        raise IllegalAction(Reason.NOT_A_SEAT, f"seat {seat} is not in this game")
    if finished:
        raise IllegalAction(Reason.GAME_OVER, "the game is over")


def check_max_turns(max_turns: int) -> None:
    """The turn cap every variant takes: at least one turn."""
    if max_turns < 1:
        raise IllegalAction(Reason.INVALID_OPTIONS, "max_turns must be at least 1")


def check_seed(seed: int) -> None:
    """A game's seed: an unsigned 64-bit integer, as the wire carries it."""
    if not 0 <= seed < 1 << 64:
        raise IllegalAction(Reason.INVALID_OPTIONS, "seed must be an unsigned 64-bit integer")
