"""Classic Risk behind the engine interface: setup, reinforce (with cards), attack, conquest,
fortify, winning.

This module only joins the parts: setup (create, roll-offs, the first placements), actions
(dispatch and the turn's handlers), battle, listings (whose decision, the legal actions) and
the work area they share (play). `apply` copies the frozen state into a work area, runs the
rule, and freezes the result, so callers only ever see immutable values. Every die, shuffle
and draw goes through the game's own generator and is reported as an event.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import ClassVar

from risk_service.engine.classic import actions, bot, listings, setup
from risk_service.engine.classic.board import CLASSIC_BOARD
from risk_service.engine.classic.cards import escalating_value
from risk_service.engine.classic.model import (
    ACTION_TYPES,
    EVENT_TYPES,
    ClassicOptions,
    ClassicState,
    ClassicView,
    Defend,
    EndAttack,
    EndTurn,
    Phase,
    PlaceArmies,
    TradeCards,
    TradeSchedule,
)
from risk_service.engine.classic.play import MUST_TRADE_AT, ClassicGame
from risk_service.engine.core.errors import IllegalAction, Reason
from risk_service.engine.core.rng import Pcg32
from risk_service.engine.core.ruleset import Action, Decision, Event, LegalAction
from risk_service.engine.core.values import build
from risk_service.engine.core.variant import VariantRules


@lru_cache(maxsize=256)
def _next_trade_value(schedule: TradeSchedule, trades_done: int) -> int:
    """What the next set traded is worth (0 under the fixed schedule, where the set decides)."""
    if schedule is TradeSchedule.FIXED:
        return 0
    return escalating_value(schedule, trades_done + 1)


class ClassicRules(VariantRules[ClassicState, ClassicOptions, ClassicView]):
    """Classic Risk behind the engine interface."""

    name: ClassVar[str] = "classic"
    rules_version: ClassVar[int] = 1
    options_type: ClassVar[type[ClassicOptions]] = ClassicOptions
    state_type: ClassVar[type[ClassicState]] = ClassicState
    view_type: ClassVar[type[ClassicView]] = ClassicView
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES
    event_types: ClassVar[tuple[type[Event], ...]] = EVENT_TYPES
    work_type = ClassicGame

    def settle_options(self, options: ClassicOptions, *, timed: bool) -> ClassicOptions:
        return setup.settle_options(options, timed=timed)

    def create(self, options: ClassicOptions, seed: int) -> tuple[ClassicState, list[Event]]:
        return setup.create(options, seed)

    def decision(self, state: ClassicState) -> Decision:
        return listings.decision(state)

    def legal_actions(self, state: ClassicState, seat: int) -> list[LegalAction]:
        return listings.legal_actions(state, seat)

    def apply(
        self, state: ClassicState, seat: int, action: Action
    ) -> tuple[ClassicState, list[Event]]:
        return actions.apply(state, seat, action)

    def leave(self, game: ClassicGame, seat: int) -> None:
        actions.resign(game, seat)

    def view(self, state: ClassicState, viewer: int | None) -> ClassicView:
        seat = -1 if viewer is None else viewer
        opts = state.options
        hands = state.hands
        # The view shares most fields with the state: copy the state's field dict (one C call),
        # drop what the viewer may not see, and add the viewer's own fields. (The fields end up
        # in another order in `__dict__` than `__init__` would put them, which nothing sees.)
        # tests/engine/test_values.py checks that the view ends up with its own fields exactly.
        fields = state.__dict__.copy()
        del fields["seed"], fields["rng_state"], fields["rng_inc"], fields["first_seat"]
        del fields["hands"], fields["deck"], fields["resume_attack"]
        fields["viewer"] = seat
        fields["hand"] = hands[seat] if 0 <= seat < opts.players else ()
        fields["hand_counts"] = tuple(map(len, hands))
        fields["deck_count"] = len(state.deck)
        fields["next_trade_value"] = _next_trade_value(opts.trade_schedule, state.trades_done)
        return build(ClassicView, fields)

    def default_action(self, state: ClassicState, seat: int) -> Action:
        """The passive choice a timed-out seat makes: end the phase where the rules allow,
        defend with the most dice, move in the least, trade the first set when forced, and
        put all armies on the lowest-numbered own territory that borders an enemy."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"it is not seat {seat}'s decision")
        actions = [entry.action for entry in legal]
        for passive in (EndAttack(), EndTurn()):
            if passive in actions:
                return passive
        if state.phase is Phase.DEFEND:
            return max(actions, key=lambda a: a.dice if isinstance(a, Defend) else 0)
        if state.phase is Phase.MOVE_IN:
            return actions[0]
        trades = [a for a in actions if isinstance(a, TradeCards)]
        if trades and len(state.hands[seat]) >= MUST_TRADE_AT:
            return trades[0]
        placements = [e for e in legal if isinstance(e.action, PlaceArmies)]
        if placements:
            def exposed(entry: LegalAction) -> bool:
                assert isinstance(entry.action, PlaceArmies)
                links = CLASSIC_BOARD.links[entry.action.territory]
                return any(state.owner[n] != seat for n in links)

            entry = next((e for e in placements if exposed(e)), placements[0])
            return entry.instance(-1)
        return legal[0].instance(-1)

    def bot_choose(self, view: ClassicView, legal: Sequence[LegalAction], entropy: int) -> Action:
        return bot.choose(view, legal, Pcg32.from_seed(entropy, stream=view.viewer + 1))
