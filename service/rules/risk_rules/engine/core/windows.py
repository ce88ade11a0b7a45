"""Response windows: out-of-turn answers asked of one seat at a time, in priority order.

A window opens when something happens that other players may answer (a card played, dice
rolled). Its seats are asked one at a time in a priority order the variant gives (by default:
the active player, then the defender, then clockwise from the active player). A seat either
passes or responds. A response reopens the window: everyone is asked again from the top of the
order, so nobody can be shut out by a quick answer. The window closes once every seat in the
order has passed since the last response. Responses that answer each other (Cancel Order on a
card, a cancel of that cancel, ...) pile up on the window's stack and resolve last played first.
Seats that opted in to auto-pass are passed for without being asked; a seat with nothing to play
that did not opt in is asked all the same, so that skipping it cannot reveal its hand.

The value is small and pure so that a variant can keep it inside its game state (Strike does,
and Legacy's scar-card and missile windows reuse it); the variant decides what an item on the
stack means and which seats pass automatically.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

NO_SEAT = -1


@dataclass(frozen=True, slots=True)
class ResponseWindow:
    """One open window. `stack` holds the variant's item ids, first played first."""

    kind: int  # the variant's tag for what the window answers
    order: tuple[int, ...]  # the seats asked, in priority order
    passed: tuple[int, ...]  # seats that passed since the window (re)opened, in passing order
    stack: tuple[int, ...] = ()  # responses waiting to resolve; the last one resolves first


def priority_order(
    active: int,
    players: int,
    *,
    defender: int = NO_SEAT,
    exclude: Collection[int] = (),
) -> tuple[int, ...]:
    """The default order: the active player, then the defender (if any), then clockwise from
    the active player; seats in `exclude` (out of the game, or not entitled) are left out."""
    order = [active]
    if defender not in (NO_SEAT, active):
        order.append(defender)
    order.extend((active + step) % players for step in range(1, players))
    seen: set[int] = set()
    out: list[int] = []
    for seat in order:
        if seat not in seen and seat not in exclude:
            seen.add(seat)
            out.append(seat)
    return tuple(out)


def open_window(kind: int, order: Sequence[int], stack: Sequence[int] = ()) -> ResponseWindow:
    """A fresh window: nobody has passed yet; `stack` holds what it answers, if anything."""
    if len(set(order)) != len(order):
        raise ValueError(f"a seat appears twice in the order {tuple(order)}")
    return ResponseWindow(kind=kind, order=tuple(order), passed=(), stack=tuple(stack))


def asked(window: ResponseWindow) -> int | None:
    """The seat whose answer the window waits for, or None once it is closed."""
    for seat in window.order:
        if seat not in window.passed:
            return seat
    return None


def deciding(windows: Sequence[ResponseWindow]) -> int:
    """The seat the top window of an open pile asks (a closed window is never left open)."""
    seat = asked(windows[-1])
    assert seat is not None, "a closed window is never left open"
    return seat


def is_closed(window: ResponseWindow) -> bool:
    """Every seat in the order has passed since the last response."""
    return asked(window) is None


def _require_asked(window: ResponseWindow, seat: int) -> None:
    if asked(window) != seat:
        raise ValueError(f"seat {seat} is not the seat the window asks ({asked(window)})")


def pass_turn(window: ResponseWindow, seat: int) -> ResponseWindow:
    """The asked seat passes; the next seat in the order is asked (or the window closes)."""
    _require_asked(window, seat)
    return replace(window, passed=(*window.passed, seat))


def respond(
    window: ResponseWindow,
    seat: int,
    item: int | None = None,
    *,
    order: Sequence[int] | None = None,
) -> ResponseWindow:
    """The asked seat responds: `item` (if any) goes on the stack and the window reopens, so
    every seat is asked again from the top of the order (a new `order` if one is given)."""
    _require_asked(window, seat)
    stack = window.stack if item is None else (*window.stack, item)
    new_order = window.order if order is None else tuple(order)
    if len(set(new_order)) != len(new_order):
        raise ValueError(f"a seat appears twice in the order {new_order}")
    return replace(window, order=new_order, passed=(), stack=stack)


def auto_pass(
    window: ResponseWindow, auto: Collection[int]
) -> tuple[ResponseWindow, tuple[int, ...]]:
    """Pass for every seat in `auto` while it is the one asked; returns the window and the
    seats passed for, in order. Stops at the first seat that must answer for itself."""
    passed: list[int] = []
    seat = asked(window)
    while seat is not None and seat in auto:
        window = pass_turn(window, seat)
        passed.append(seat)
        seat = asked(window)
    return window, tuple(passed)


def drop_seat(window: ResponseWindow, seat: int) -> ResponseWindow:
    """A seat leaves the game: it is no longer asked; what it already put on the stack stays
    (the variant decides whether a departed seat's item still takes effect)."""
    return replace(
        window,
        order=tuple(s for s in window.order if s != seat),
        passed=tuple(s for s in window.passed if s != seat),
    )


def resolve_chain(
    stack: Sequence[int], cancels: Callable[[int], bool]
) -> list[tuple[int, bool]]:
    """(item, takes effect) for each stacked item, last played first.

    An item for which `cancels(item)` is true answers the item played just before it: when it
    takes effect, that item does not (and, if it too was a cancel, neither does its own cancel).
    """
    out: list[tuple[int, bool]] = []
    cancelled = False
    for item in reversed(stack):
        effective = not cancelled
        out.append((item, effective))
        cancelled = effective and cancels(item)
    return out
