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
from itertools import repeat
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

from risk_service.engine.core.rng import Pcg32
from risk_service.engine.core.ruleset import Event
from risk_service.engine.core.turns import (
    RollOffRound,
    live_seats,
    next_live_seat,
    ranking,
    roll_off,
)
from risk_service.engine.core.values import build

StateT = TypeVar("StateT")


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

_RNG_FIELDS = ("rng_state", "rng_inc")


class WorkingState(Generic[StateT]):
    """A mutable copy of one game state for the duration of one rule application.

    Every field of `state_type` is an attribute of the same name, but for the generator
    (`rng`, from the `rng_state` and `rng_inc` fields) and the per-seat out flags, which are
    `out` here whatever the state calls them (`out_field`). The state must have `options`
    (with `players`), `phase`, `out_order`, `winner`, `ranking` and `end_reason` fields."""

    state_type: ClassVar[type[Any]]
    thawed: ClassVar[Mapping[str, Thawed]] = {}
    out_field: ClassVar[str] = "out"
    finished_phase: ClassVar[IntEnum]

    _fields: ClassVar[tuple[str, ...]]  # the state's fields but the generator's, in order
    _attributes: ClassVar[tuple[str, ...]]  # the attribute holding each of them
    _conversions: ClassVar[tuple[tuple[str, str, Thawed], ...]]  # (field, attribute, how)
    _slotted: ClassVar[bool]

    rng: Pcg32
    events: list[Event]
    seats: int
    phase: IntEnum
    current: int
    out: list[bool]
    out_order: tuple[int, ...]
    winner: int
    ranking: tuple[int, ...]
    end_reason: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = tuple(f.name for f in dataclasses.fields(cls.state_type)
                       if f.name not in _RNG_FIELDS)
        cls._fields = fields
        cls._attributes = tuple("out" if name == cls.out_field else name for name in fields)
        cls._conversions = tuple(
            (name, "out" if name == cls.out_field else name, how)
            for name, how in cls.thawed.items()
        )
        # a state without slots is built through core.values.build, skipping `__init__`
        cls._slotted = hasattr(cls.state_type, "__slots__")

    def __init__(self, state: StateT) -> None:
        fields = self.__dict__
        fields.update(zip(self._attributes, map(getattr, repeat(state), self._fields),
                          strict=True))
        for _, attribute, how in self._conversions:
            fields[attribute] = how.thaw(fields[attribute])
        self.rng = Pcg32(getattr(state, "rng_state"), getattr(state, "rng_inc"))  # noqa: B009
        self.events = []
        self.seats = len(self.out)

    def freeze(self) -> StateT:
        values = dict(zip(self._fields, map(getattr, repeat(self), self._attributes),
                          strict=True))
        for name, _, how in self._conversions:
            values[name] = how.freeze(values[name])
        values["rng_state"] = self.rng.state
        values["rng_inc"] = self.rng.inc
        if self._slotted:
            state: StateT = self.state_type(**values)
            return state
        return build(self.state_type, values)  # type: ignore[no-any-return]  # state_type: Any

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
