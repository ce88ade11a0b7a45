"""What every variant's rules do alike, written once: a base for the classes behind `Ruleset`.

The interface the service sees stays `core.ruleset.Ruleset`; this base only fills in the parts
of it that do not depend on the variant's rules: the class attributes the generic parameters
already name (`VariantRules[State, Options, View]` sets `state_type`, `options_type` and
`view_type`), the default options, the outcome of a finished game, whose turn it is, the
seat count, resignation's checks and work area, and a bot's move drawn from the seat's own
view. A variant names itself, its action and event types and its work area, and supplies
the rest.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from enum import IntEnum
from typing import Any, ClassVar, Generic, Protocol, TypeVar, get_args, get_origin

from risk_rules.engine.core.bots import DEFAULT_LEVEL
from risk_rules.engine.core.guards import check_resign
from risk_rules.engine.core.ruleset import Action, Event, LegalAction, Outcome
from risk_rules.engine.core.working import WorkingState


class _Options(Protocol):
    @property
    def players(self) -> int: ...


class GameState(Protocol):
    """The fields every variant's state has, as this base reads them."""

    @property
    def options(self) -> _Options: ...
    @property
    def phase(self) -> IntEnum: ...
    @property
    def winner(self) -> int: ...
    @property
    def ranking(self) -> tuple[int, ...]: ...
    @property
    def end_reason(self) -> str: ...
    @property
    def current(self) -> int: ...


StateT = TypeVar("StateT", bound=GameState)
OptionsT = TypeVar("OptionsT")
ViewT = TypeVar("ViewT")


class VariantRules(ABC, Generic[StateT, OptionsT, ViewT]):
    """The variant-independent half of a `Ruleset`."""

    name: ClassVar[str]
    rules_version: ClassVar[int]
    state_type: ClassVar[type[Any]]
    options_type: ClassVar[type[Any]]
    view_type: ClassVar[type[Any]]
    action_types: ClassVar[tuple[type[Action], ...]]
    event_types: ClassVar[tuple[type[Event], ...]]
    work_type: ClassVar[type[WorkingState[Any]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            if get_origin(base) is VariantRules:
                cls.state_type, cls.options_type, cls.view_type = get_args(base)
        if cls.work_type.state_type is not cls.state_type:
            raise TypeError(f"{cls.__name__}: the work area holds "
                            f"{cls.work_type.state_type.__name__}, not {cls.state_type.__name__}")

    def default_options(self, players: int) -> OptionsT:
        options: OptionsT = self.options_type(players=players)
        return options

    def settle_options(self, options: OptionsT, *, timed: bool) -> OptionsT:
        return options  # unless the variant leaves an option to the game's clock

    def seat_count(self, state: StateT) -> int:
        return state.options.players

    def turn_seat(self, state: StateT) -> int:
        # every variant's state names the seat whose turn (or setup step) it is `current`
        return -1 if state.phase is self.work_type.finished_phase else state.current

    def outcome(self, state: StateT) -> Outcome | None:
        if state.phase is not self.work_type.finished_phase:
            return None
        return Outcome(state.winner, state.ranking, state.end_reason)

    def resign(self, state: StateT, seat: int) -> tuple[StateT, list[Event]]:
        check_resign(seat, players=state.options.players,
                     finished=state.phase is self.work_type.finished_phase,
                     out=getattr(state, self.work_type.out_field))
        game = self.work_type(state)
        self.leave(game, seat)
        after: StateT = game.freeze()
        return after, game.events

    @abstractmethod
    def leave(self, game: Any, seat: int) -> None:
        """`seat` resigns in the work area `game` (the checks passed)."""

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> list[LegalAction]: ...

    @abstractmethod
    def view(self, state: StateT, viewer: int | None) -> ViewT: ...

    @abstractmethod
    def bot_choose(self, view: ViewT, legal: Sequence[LegalAction], entropy: int,
                   level: str = DEFAULT_LEVEL) -> Action:
        """The bot at `level` (one of `core.bots.LEVELS`) picks one of `legal` from `view`;
        ValueError for an unknown level."""

    def bot_action(self, state: StateT, seat: int, entropy: int,
                   level: str = DEFAULT_LEVEL) -> Action:
        return self.bot_choose(self.view(state, seat), self.legal_actions(state, seat), entropy,
                               level)
