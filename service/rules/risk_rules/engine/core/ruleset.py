"""The interface every variant implements, and the small values it speaks in.

A variant is a `Ruleset`: it creates a game from options and a seed, says whose decision it is,
lists the legal actions, applies one, shows the game as a given seat (or a spectator) may see
it, and tells the outcome. Actions and events are frozen dataclasses; each variant defines its
own and the wire layer maps them to protobuf by name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, ClassVar, Generic, Protocol, TypeVar


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every variant's actions."""


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every variant's events. Events are facts; some are not for every eye."""

    terminal: ClassVar[bool] = False  # the game is over once this event has happened

    def for_viewer(self, viewer: int | None) -> Event | None:
        """The event as `viewer` (a seat, or None for a spectator) may see it; None hides it."""
        return self


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One legal action, or a family of them that differ only in their `count` field.

    When `max_count` is set, the action's own `count` is the smallest legal count and every
    count up to `max_count` is legal too. Enumerating every count would bloat the list (42
    territories x 30 armies) without telling a client anything more.
    """

    action: Action
    max_count: int = 0

    def admits(self, action: Action) -> bool:
        if not self.max_count:
            return action == self.action
        listed = self.action
        if type(action) is not type(listed):
            return False
        low: int = getattr(listed, "count")  # noqa: B009 - typed through the dataclass field
        count: int = getattr(action, "count")  # noqa: B009
        if not low <= count <= self.max_count:
            return False
        # `replace(action, count=low) == listed`: both are of one dataclass type, whose `==`
        # compares the field tuples, and the counts are then equal; so the other fields decide
        others = _others(type(listed))
        same: bool = others(action) == others(listed)
        return same

    def instances(self) -> list[Action]:
        """Every concrete action this entry stands for."""
        if not self.max_count:
            return [self.action]
        low: int = getattr(self.action, "count")  # noqa: B009
        with_count = _with_count(type(self.action))
        return [with_count(self.action, n) for n in range(low, self.max_count + 1)]

    def size(self) -> int:
        """`len(self.instances())`, without building them."""
        if not self.max_count:
            return 1
        low: int = getattr(self.action, "count")  # noqa: B009
        return self.max_count - low + 1

    def instance(self, index: int) -> Action:
        """`self.instances()[index]` (a negative index counts from the end), without building
        the others: bots pick one count out of a range that can hold hundreds."""
        if not self.max_count:
            return [self.action][index]
        low: int = getattr(self.action, "count")  # noqa: B009
        count = range(low, self.max_count + 1)[index]
        if count == low:
            return self.action
        made: Action = _with_count(type(self.action))(self.action, count)
        return made


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must act now and what kind of decision it is (a phase name for humans)."""

    seats: tuple[int, ...]
    kind: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: a winner (or -1 for a draw at the turn cap) and the full ranking."""

    winner: int
    ranking: tuple[int, ...]
    reason: str


StateT = TypeVar("StateT")
OptionsT = TypeVar("OptionsT")
ViewT = TypeVar("ViewT")


class Ruleset(Protocol, Generic[StateT, OptionsT, ViewT]):
    """One variant's rules. Every method is pure: no I/O, no clock, no global randomness."""

    name: ClassVar[str]
    rules_version: ClassVar[int]
    options_type: ClassVar[type[Any]]
    state_type: ClassVar[type[Any]]
    view_type: ClassVar[type[Any]]
    action_types: ClassVar[tuple[type[Action], ...]]
    event_types: ClassVar[tuple[type[Event], ...]]

    def default_options(self, players: int) -> OptionsT: ...

    def settle_options(self, options: OptionsT, *, timed: bool) -> OptionsT:
        """`options` with every option left to the game's circumstances decided: whether the
        game runs on a clock (`timed`) is the service's to know. `create` settles what is left
        as for an untimed game, so a state always holds the decisions."""
        ...

    def create(self, options: OptionsT, seed: int) -> tuple[StateT, list[Event]]:
        """A new game; raises IllegalAction(INVALID_OPTIONS) for options the rules reject."""
        ...

    def seat_count(self, state: StateT) -> int: ...

    def decision(self, state: StateT) -> Decision:
        """Whose decision it is; no seats once the game is over."""
        ...

    def turn_seat(self, state: StateT) -> int:
        """Whose turn it is (during setup: whose setup step), -1 once the game is over. The
        decision may be another seat's meanwhile (a defence, a response window): the
        service's per-turn clocks run for this seat's whole turn, not for each decision."""
        ...

    def legal_actions(self, state: StateT, seat: int) -> list[LegalAction]:
        """Every legal action for `seat` (empty when it is not that seat's decision)."""
        ...

    def apply(self, state: StateT, seat: int, action: Action) -> tuple[StateT, list[Event]]:
        """The new state and the events, or IllegalAction with the reason; never mutates."""
        ...

    def view(self, state: StateT, viewer: int | None) -> ViewT:
        """What `viewer` may see: a seat sees its own hand, a spectator (None) no hand."""
        ...

    def outcome(self, state: StateT) -> Outcome | None: ...

    def resign(self, state: StateT, seat: int) -> tuple[StateT, list[Event]]:
        """`seat` leaves the game at once, whoever's decision it is; the variant's rules say
        what becomes of its pieces. Raises GAME_OVER, NOT_A_SEAT or ALREADY_OUT."""
        ...

    def default_action(self, state: StateT, seat: int) -> Action:
        """The documented action taken for a deciding seat whose clock ran out."""
        ...

    def bot_action(self, state: StateT, seat: int, entropy: int,
                   level: str = "greedy") -> Action:
        """A legal action for `seat` by the bot of `level` (core.bots.LEVELS), drawn from
        `entropy` (the bot's own seed)."""
        ...

    def bot_choose(self, view: ViewT, legal: Sequence[LegalAction], entropy: int,
                   level: str = "greedy") -> Action:
        """The same bot, from what its seat sees: its view and its legal actions."""
        ...


def is_legal(legal: Sequence[LegalAction], action: Action) -> bool:
    """`action in legal_actions(...)`, with count ranges honoured."""
    # As `any(entry.admits(action) for entry in legal)`, written out: a listing can hold
    # hundreds of entries and is searched once per action. Actions are dataclasses, whose `==`
    # holds only between values of one type, so an entry of another type is passed over; for a
    # ranged entry the action's fields but `count` are fetched once, not once per entry.
    kind = type(action)
    others: Callable[[Any], tuple[Any, ...]] | None = None
    key: Any = None
    count: Any = None
    for entry in legal:
        listed = entry.action
        if type(listed) is not kind:
            continue
        high = entry.max_count
        if not high:
            if action == listed:
                return True
            continue
        if others is None:
            others = _others(kind)
            key = others(action)
            count = getattr(action, "count")  # noqa: B009 - every ranged action has a count
        if getattr(listed, "count") <= count <= high and others(listed) == key:  # noqa: B009
            return True
    return False


# ---- per action type, what a ranged entry does with its `count` field -------------------------

_OTHERS: dict[type[Any], Callable[[Any], tuple[Any, ...]]] = {}
_WITH_COUNT: dict[type[Any], Callable[[Any, int], Any]] = {}


def _others(kind: type[Any]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving, in a tuple, the fields but `count` that an action's `==` compares."""
    found = _OTHERS.get(kind)
    if found is None:
        names = [f.name for f in dataclasses.fields(kind) if f.compare and f.name != "count"]
        found = _OTHERS[kind] = _getter(names)
    return found


def _getter(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the named attributes of a value, in a tuple."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        fetch = attrgetter(names[0])
        return lambda value: (fetch(value),)
    return lambda value: ()


def _with_count(kind: type[Any]) -> Callable[[Any, int], Any]:
    """`lambda action, n: dataclasses.replace(action, count=n)` for actions of type `kind`,
    without `replace`'s generic field walk: the type called with every other init field."""
    found = _WITH_COUNT.get(kind)
    if found is None:
        init = [f.name for f in dataclasses.fields(kind) if f.init]
        if "count" not in init:
            raise TypeError(f"{kind.__name__} has no count field to replace")
        names = [name for name in init if name != "count"]

        def found(action: Any, count: int) -> Any:
            values = {name: getattr(action, name) for name in names}
            values["count"] = count
            return kind(**values)

        _WITH_COUNT[kind] = found
    return found
