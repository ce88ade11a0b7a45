"""Tiny's rules: seats take turns claiming one of a few territories; most territories wins.

Standard library only, like the engine's variants, and behind the same `Ruleset` interface.
The seed picks the first seat, so it matters and lives in the state as the contract expects.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from risk_rules.engine import Action, Decision, Event, IllegalAction, LegalAction, Outcome, Reason
from risk_rules.engine.core.bots import check_level
from risk_rules.engine.core.guards import check_resign


@dataclass(frozen=True, slots=True)
class TinyOptions:
    players: int = 2
    territories: int = 5


@dataclass(frozen=True, slots=True)
class Claim(Action):
    territory: int


@dataclass(frozen=True, slots=True)
class TerritoryClaimed(Event):
    seat: int
    territory: int


@dataclass(frozen=True, slots=True)
class SeatResigned(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    terminal: ClassVar[bool] = True
    winner: int
    ranking: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class TinyState:
    options: TinyOptions
    seed: int
    current: int
    owners: tuple[int, ...]
    out: tuple[bool, ...]
    finished: bool = False
    winner: int = -1
    ranking: tuple[int, ...] = ()
    end_reason: str = ""


@dataclass(frozen=True, slots=True)
class TinyView:
    options: TinyOptions
    current: int
    owners: tuple[int, ...]
    out: tuple[bool, ...]
    finished: bool
    winner: int


class TinyRules:
    name: ClassVar[str] = "tiny"
    rules_version: ClassVar[int] = 1
    options_type: ClassVar[type[TinyOptions]] = TinyOptions
    state_type: ClassVar[type[TinyState]] = TinyState
    view_type: ClassVar[type[TinyView]] = TinyView
    action_types: ClassVar[tuple[type[Action], ...]] = (Claim,)
    event_types: ClassVar[tuple[type[Event], ...]] = (TerritoryClaimed, SeatResigned, GameEnded)

    def default_options(self, players: int) -> TinyOptions:
        return TinyOptions(players=players)

    def settle_options(self, options: TinyOptions, *, timed: bool) -> TinyOptions:
        return options

    def create(self, options: TinyOptions, seed: int) -> tuple[TinyState, list[Event]]:
        if not 2 <= options.players <= 4 or not options.players <= options.territories <= 9:
            raise IllegalAction(Reason.INVALID_OPTIONS, f"{options} is no tiny game")
        state = TinyState(options, seed, seed % options.players,
                          (-1,) * options.territories, (False,) * options.players)
        return state, []

    def seat_count(self, state: TinyState) -> int:
        return state.options.players

    def decision(self, state: TinyState) -> Decision:
        return Decision((), "") if state.finished else Decision((state.current,), "claim")

    def turn_seat(self, state: TinyState) -> int:
        return -1 if state.finished else state.current

    def legal_actions(self, state: TinyState, seat: int) -> list[LegalAction]:
        if state.finished or seat != state.current:
            return []
        return [LegalAction(Claim(t)) for t, owner in enumerate(state.owners) if owner < 0]

    def apply(self, state: TinyState, seat: int, action: Action) -> tuple[TinyState, list[Event]]:
        if state.finished:
            raise IllegalAction(Reason.GAME_OVER, "the game is over")
        if seat != state.current:
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"it is seat {state.current}'s turn")
        if not isinstance(action, Claim):
            raise IllegalAction(Reason.WRONG_VARIANT, f"{action!r} is no tiny action")
        if not 0 <= action.territory < len(state.owners):
            raise IllegalAction(Reason.NO_SUCH_TERRITORY, f"no territory {action.territory}")
        if state.owners[action.territory] >= 0:
            raise IllegalAction(Reason.TERRITORY_CLAIMED, f"{action.territory} is taken")
        owners = tuple(seat if t == action.territory else o for t, o in enumerate(state.owners))
        state = dataclasses.replace(state, owners=owners)
        events: list[Event] = [TerritoryClaimed(seat, action.territory)]
        if -1 not in owners:
            return self._end(state, events, "claimed")
        return dataclasses.replace(state, current=self._next(state, seat)), events

    def view(self, state: TinyState, viewer: int | None) -> TinyView:
        return TinyView(state.options, state.current, state.owners, state.out, state.finished,
                        state.winner)

    def outcome(self, state: TinyState) -> Outcome | None:
        return Outcome(state.winner, state.ranking, state.end_reason) if state.finished else None

    def resign(self, state: TinyState, seat: int) -> tuple[TinyState, list[Event]]:
        check_resign(seat, players=state.options.players, finished=state.finished, out=state.out)
        out = tuple(o or s == seat for s, o in enumerate(state.out))
        state = dataclasses.replace(state, out=out)
        events: list[Event] = [SeatResigned(seat)]
        if out.count(False) == 1:
            return self._end(state, events, "resigned")
        current = self._next(state, seat) if seat == state.current else state.current
        return dataclasses.replace(state, current=current), events

    def default_action(self, state: TinyState, seat: int) -> Action:
        return self.legal_actions(state, seat)[0].action

    def bot_action(self, state: TinyState, seat: int, entropy: int,
                   level: str = "greedy") -> Action:
        return self.bot_choose(self.view(state, seat), self.legal_actions(state, seat), entropy,
                               level)

    def bot_choose(self, view: TinyView, legal: Sequence[LegalAction], entropy: int,
                   level: str = "greedy") -> Action:
        check_level(level)  # one policy at every level: the tiny game has nothing to plan
        return legal[entropy % len(legal)].action

    @staticmethod
    def _next(state: TinyState, seat: int) -> int:
        players = state.options.players
        return next(s % players for s in range(seat + 1, seat + players + 1)
                    if not state.out[s % players])

    @staticmethod
    def _end(state: TinyState, events: list[Event], reason: str) -> tuple[TinyState, list[Event]]:
        held = [state.owners.count(s) for s in range(state.options.players)]
        ranking = tuple(sorted(range(state.options.players),
                               key=lambda s: (state.out[s], -held[s], s)))
        ended = GameEnded(ranking[0], ranking, reason)
        state = dataclasses.replace(state, finished=True, winner=ranking[0], ranking=ranking,
                                    end_reason=reason)
        return state, [*events, ended]
