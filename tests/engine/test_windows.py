"""Response windows (engine core) on their own, without any variant.

Three seats (0 active, 1 defender, 2 a bystander) answer a window: they are asked one at a time
in priority order, a response reopens the window for everyone, it closes only once all have
passed since the last response, a chain of cancels resolves last played first, and seats that
opted in to auto-pass are passed for without being asked.
"""

from __future__ import annotations

import pytest

from risk_rules.engine.core.windows import (
    ResponseWindow,
    asked,
    auto_pass,
    drop_seat,
    is_closed,
    open_window,
    pass_turn,
    priority_order,
    resolve_chain,
    respond,
)

KIND = 7  # any tag: the core does not interpret it
CANCEL_ITEMS = frozenset({11, 12, 13})  # items standing for Cancel Order-like responses


def _cancels(item: int) -> bool:
    return item in CANCEL_ITEMS


def _asked_in_turn(window: ResponseWindow) -> list[int]:
    """Pass for whoever is asked until the window closes; the seats in the order asked."""
    seen = []
    while (seat := asked(window)) is not None:
        seen.append(seat)
        window = pass_turn(window, seat)
    assert is_closed(window)
    return seen


def test_priority_order_is_active_then_defender_then_clockwise() -> None:
    """Active player first, then the defender, then clockwise from the active player."""
    assert priority_order(2, 5, defender=4) == (2, 4, 3, 0, 1)
    assert priority_order(2, 5) == (2, 3, 4, 0, 1)
    assert priority_order(0, 3, defender=1) == (0, 1, 2)


def test_priority_order_leaves_out_excluded_seats() -> None:
    """Seats out of the game (or not entitled) are never in the order."""
    assert priority_order(1, 4, defender=3, exclude={1, 2}) == (3, 0)


def test_three_players_are_asked_one_at_a_time_in_priority_order() -> None:
    """Each seat is asked in turn, only the asked seat may answer, and passes move it on."""
    window = open_window(KIND, priority_order(0, 3, defender=1))
    assert asked(window) == 0
    with pytest.raises(ValueError, match="not the seat the window asks"):
        pass_turn(window, 1)
    window = pass_turn(window, 0)
    assert asked(window) == 1
    window = pass_turn(window, 1)
    assert asked(window) == 2
    window = pass_turn(window, 2)
    assert asked(window) is None and is_closed(window)


def test_order_is_a_parameter() -> None:
    """The variant may give any order; the window asks exactly in that order."""
    window = open_window(KIND, (2, 0, 1))
    assert _asked_in_turn(window) == [2, 0, 1]


def test_a_response_reopens_the_window_for_everyone() -> None:
    """After the third seat responds, the first two (who had passed) are asked again."""
    window = open_window(KIND, (0, 1, 2))
    window = pass_turn(pass_turn(window, 0), 1)
    window = respond(window, 2, 11)
    assert window.passed == () and window.stack == (11,)
    assert _asked_in_turn(window) == [0, 1, 2]


def test_the_window_closes_only_when_all_have_passed_since_the_last_response() -> None:
    """Two passes and a response are not enough; three passes after it are."""
    window = open_window(KIND, (0, 1, 2))
    window = pass_turn(window, 0)
    window = respond(window, 1, 11)
    assert not is_closed(window)
    window = pass_turn(window, 0)
    window = pass_turn(window, 1)
    assert not is_closed(window) and asked(window) == 2
    window = pass_turn(window, 2)
    assert is_closed(window)


def test_a_response_may_change_who_is_asked() -> None:
    """A responder can be left out of the reopened window (it answers its own card no more)."""
    window = open_window(KIND, (1, 2), stack=(10,))
    window = respond(window, 1, 11, order=(0, 2))
    assert _asked_in_turn(window) == [0, 2]


def test_a_cancel_chain_resolves_last_played_first() -> None:
    """Card 10, cancelled by 11, whose cancel is cancelled by 12: 12 and 10 take effect."""
    window = open_window(KIND, (1, 2), stack=(10,))
    window = respond(window, 1, 11, order=(0, 2))
    window = respond(window, 0, 12, order=(1, 2))
    assert window.stack == (10, 11, 12)
    assert resolve_chain(window.stack, _cancels) == [(12, True), (11, False), (10, True)]


def test_an_even_cancel_chain_cancels_the_card() -> None:
    """Card 10 with three cancels on it: the last cancels the second, the first cancels 10."""
    chain = resolve_chain((10, 11, 12, 13), _cancels)
    assert chain == [(13, True), (12, False), (11, True), (10, False)]
    assert resolve_chain((10,), _cancels) == [(10, True)]
    assert resolve_chain((10, 11), _cancels) == [(11, True), (10, False)]


def test_auto_pass_answers_for_seats_that_opted_in() -> None:
    """Seats that opted in are passed for while asked; the first one that did not is asked."""
    window = open_window(KIND, (0, 1, 2))
    window, passed = auto_pass(window, {0, 1})
    assert passed == (0, 1) and asked(window) == 2
    window, passed = auto_pass(window, {0, 1})
    assert passed == () and asked(window) == 2


def test_auto_pass_keeps_asking_a_seat_that_did_not_opt_in() -> None:
    """A seat outside the auto set is asked even when everyone after it would auto-pass."""
    window = open_window(KIND, (0, 1, 2))
    window, passed = auto_pass(window, {1, 2})
    assert passed == () and asked(window) == 0
    window = pass_turn(window, 0)
    window, passed = auto_pass(window, {1, 2})
    assert passed == (1, 2) and is_closed(window)


def test_auto_pass_can_close_a_reopened_window() -> None:
    """After a response, auto-passing seats pass again and only the others are asked."""
    window = open_window(KIND, (0, 1, 2))
    window = respond(window, 0, 11)
    window, passed = auto_pass(window, {1})
    assert passed == () and asked(window) == 0
    window = pass_turn(window, 0)
    window, passed = auto_pass(window, {1})
    assert passed == (1,) and asked(window) == 2


def test_a_departed_seat_is_no_longer_asked() -> None:
    """Dropping the asked seat moves the question on; its stacked item stays."""
    window = open_window(KIND, (0, 1, 2), stack=(10,))
    window = pass_turn(window, 0)
    window = drop_seat(window, 1)
    assert asked(window) == 2 and window.stack == (10,)
    assert drop_seat(pass_turn(window, 2), 0).order == (2,)


def test_a_seat_may_not_appear_twice() -> None:
    """An order with a repeated seat is a programming error."""
    with pytest.raises(ValueError, match="twice"):
        open_window(KIND, (0, 1, 0))
