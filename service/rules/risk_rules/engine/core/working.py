"""The work area a rule runs in: a mutable copy of one frozen game state, frozen again after.

A state is a frozen dataclass, so a rule that changes a dozen fields would build a dozen
states; instead `apply` copies the state into a `WorkingState`, the rule changes it in place,
and `freeze` makes the one new state. Each variant subclasses it once: it names its state
class, declares its fields with the types they have while a rule runs, and says which fields
are held in a mutable form (`thawed`). The base also holds what every variant does alike with
a game in progress: the generator, the events emitted, the seats still in and the next one,
the roll-off, the ranking and the finish.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import IntEnum
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar, get_args, get_origin

from risk_rules.engine.core.draws import DrawStreams
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Event
from risk_rules.engine.core.turns import (
    RollOffRound,
    live_seats,
    next_live_seat,
    ranking,
    roll_off,
)
from risk_rules.engine.core.values import build

StateT = TypeVar("StateT")


class Options(Protocol):
    """What the work area reads of every variant's options."""

    @property
    def players(self) -> int: ...
    @property
    def max_turns(self) -> int: ...


class Thawed(NamedTuple):
    """How a field is held while a rule runs: `thaw` makes the mutable form from the state's
    value, `freeze` the state's value from it."""

    thaw: Callable[[Any], Any]
    freeze: Callable[[Any], Any]


def _lists(rows: Iterable[Iterable[Any]]) -> list[list[Any]]:
    return [list(row) for row in rows]


def _tuples(rows: Iterable[Iterable[Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple([tuple(row) for row in rows])


def _sorted_tuple(items: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(sorted(items))


def _sorted_tuples(rows: Iterable[Iterable[Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple([tuple(sorted(row)) for row in rows])


AS_LIST = Thawed(list, tuple)  # a tuple held as a list
AS_SORTED_LIST = Thawed(list, _sorted_tuple)  # a list kept sorted in the state (a pile)
AS_LISTS = Thawed(_lists, _tuples)  # a tuple of rows held as a list of lists
AS_SORTED_LISTS = Thawed(_lists, _sorted_tuples)  # rows kept sorted in the state (hands)

_RNG_FIELDS = ("rng_state", "rng_inc", "draw_streams")


class WorkingState(Generic[StateT]):
    """A mutable copy of one game state for the duration of one rule application.

    Every field of `state_type` (the generic parameter) is an attribute of the same name, but
    for the generator (`rng`, from the `rng_state` and `rng_inc` fields) and the per-seat out
    flags, which are `out` here whatever the state calls them (`out_field`). The state must
    have `options` (with `players`), `phase`, `out_order`, `winner`, `ranking` and
    `end_reason` fields."""

    state_type: ClassVar[type[Any]]
    thawed: ClassVar[Mapping[str, Thawed]] = {}
    out_field: ClassVar[str] = "out"
    finished_phase: ClassVar[IntEnum]

    rng: Pcg32
    events: list[Event]
    seats: int
    options: Options
    seed: int
    phase: IntEnum
    turn: int
    first_seat: int
    current: int
    out: list[bool]
    out_order: tuple[int, ...]
    winner: int
    ranking: tuple[int, ...]
    end_reason: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            if get_origin(base) is WorkingState:
                (cls.state_type,) = get_args(base)  # `WorkingState[State]` names it
        _install_copy_and_freeze(cls)

    def __init__(self, state: StateT) -> None:
        self._copy(state)

    def _copy(self, state: StateT) -> None:
        raise NotImplementedError  # written for each subclass by `_install_copy_and_freeze`

    def freeze(self) -> StateT:
        raise NotImplementedError  # likewise

    def emit(self, event: Event) -> None:
        self.events.append(event)

    # ---- seats ---------------------------------------------------------------------------

    def live_seats(self) -> list[int]:
        return live_seats(self.out)

    def next_live_seat(self, after: int) -> int:
        return next_live_seat(self.out, after)

    def roll_off(self, contenders: Sequence[int],
                 announce: Callable[[RollOffRound], Event]) -> int:
        """The roll-off's winner; each round is emitted as `announce` makes it an event."""
        rounds = roll_off(self.rng, contenders)
        for done in rounds:
            self.emit(announce(done))
        return rounds[-1].winner

    def take_turn(self, seat: int) -> bool:
        """`seat`'s turn begins (the turn counted, the seat current); False instead when the
        turn cap is reached, which ends the game in a draw."""
        if self.turn >= self.options.max_turns:
            self.finish(-1, "turn_cap")
            return False
        self.turn += 1
        self.current = seat
        return True

    # ---- the end -------------------------------------------------------------------------

    def standing(self, seat: int) -> tuple[int, ...]:
        """The variant's tiebreaks for a seat still in when the game ends, smaller first."""
        raise NotImplementedError

    def ended(self, winner: int, ranking: tuple[int, ...], reason: str) -> Event:
        """The variant's event for the end of the game."""
        raise NotImplementedError

    def wind_up(self) -> None:
        """What the variant clears when the game ends (pending choices, open windows)."""

    def ranked_seats(self, winner: int) -> tuple[int, ...]:
        return ranking(winner, self.live_seats(), self.out_order, self.standing)

    def finish(self, winner: int, reason: str) -> None:
        """The game is over: `winner` (-1 for a draw) and the ranking are final."""
        self.phase = self.finished_phase
        self.winner = winner
        self.ranking = self.ranked_seats(winner)
        self.end_reason = reason
        self.wind_up()
        self.emit(self.ended(winner, self.ranking, reason))


def _install_copy_and_freeze(cls: type[WorkingState[Any]]) -> None:
    """Give `cls` a `_copy` (the body of `__init__`) and a `freeze` written out field by field,
    as `dataclasses` writes a class's `__init__`: a work area is made and frozen on nearly
    every action, and plain attribute reads and writes are several times cheaper than a
    generic loop of `getattr` and `setattr` calls over the fields."""
    namespace: dict[str, Any] = {"Pcg32": Pcg32, "DrawStreams": DrawStreams, "build": build,
                                 "cls": cls.state_type}
    copy = ["def _copy(self, state):"]
    fields = []
    for field in dataclasses.fields(cls.state_type):
        name = field.name
        if name in _RNG_FIELDS:
            continue
        attribute = "out" if name == cls.out_field else name
        how = cls.thawed.get(name)
        if how is None:
            copy.append(f"    self.{attribute} = state.{name}")
            fields.append(f"{name!r}: self.{attribute}")
        else:
            namespace[f"thaw_{name}"], namespace[f"freeze_{name}"] = how
            copy.append(f"    self.{attribute} = thaw_{name}(state.{name})")
            fields.append(f"{name!r}: freeze_{name}(self.{attribute})")
    copy.append("    self.rng = Pcg32(state.rng_state, state.rng_inc)")
    fields += ["'rng_state': self.rng.state", "'rng_inc': self.rng.inc"]
    if any(f.name == "draw_streams" for f in dataclasses.fields(cls.state_type)):
        # duplicate play's streams (core.draws), for a game that has them
        copy += ["    if state.draw_streams:",
                 "        self.rng = DrawStreams(state.rng_state, state.rng_inc,"
                 " state.draw_streams)"]
        fields.append("'draw_streams': self.rng.streams() if type(self.rng) is DrawStreams"
                      " else ()")
    copy.append("    self.events = []")
    copy.append("    self.seats = len(self.out)")
    # a state without slots is built through core.values.build, skipping its `__init__`
    make = "cls(**{" if hasattr(cls.state_type, "__slots__") else "build(cls, {"
    freeze = ["def freeze(self):", f"    return {make}" + ", ".join(fields) + "})"]
    exec("\n".join(copy + freeze), namespace)  # the source is built above from field names
    cls._copy = namespace["_copy"]  # type: ignore[method-assign]
    cls.freeze = namespace["freeze"]  # type: ignore[method-assign]
