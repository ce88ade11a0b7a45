"""Risk Deep Space rules: setup, the turn (start, mining, actions, replenish), battles, action
cards with the space dog and force fields, bases and the base win, the turn cap, resignation.

This module only joins the parts: setup (create and the opening), actions (dispatch by phase
and action, the turn's handlers, resignation), mining (the start of the turn: trades and
mining), card_plays (a card paid, announced and taking effect), battle (a move and the fight it
starts), checks (the validation every handler and the listing share), listings (whose decision,
the legal actions) and the work area they share (play). Every die, shuffle and draw goes
through the game's own generator and is reported as an event. The board and the deck are data
(`board.json`, `deck.json`); decisions the rules leave open are listed in
docs/rules-deep-space.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from risk_service.engine.core.errors import IllegalAction, Reason
from risk_service.engine.core.rng import Pcg32
from risk_service.engine.core.ruleset import Action, Decision, Event, LegalAction
from risk_service.engine.core.variant import VariantRules
from risk_service.engine.deep_space import actions, bot, listings, setup
from risk_service.engine.deep_space.model import (
    ACTION_TYPES,
    EVENT_TYPES,
    DeepSpaceOptions,
    DeepSpaceState,
    DeepSpaceView,
    EndTurn,
    Phase,
)
from risk_service.engine.deep_space.play import DeepSpaceGame


class DeepSpaceRules(VariantRules[DeepSpaceState, DeepSpaceOptions, DeepSpaceView]):
    """Risk Deep Space behind the engine interface."""

    name: ClassVar[str] = "deep_space"
    rules_version: ClassVar[int] = 1
    options_type: ClassVar[type[DeepSpaceOptions]] = DeepSpaceOptions
    state_type: ClassVar[type[DeepSpaceState]] = DeepSpaceState
    view_type: ClassVar[type[DeepSpaceView]] = DeepSpaceView
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES
    event_types: ClassVar[tuple[type[Event], ...]] = EVENT_TYPES
    work_type = DeepSpaceGame

    def create(self, options: DeepSpaceOptions, seed: int) -> tuple[DeepSpaceState, list[Event]]:
        return setup.create(options, seed)

    def decision(self, state: DeepSpaceState) -> Decision:
        return listings.decision(state)

    def legal_actions(self, state: DeepSpaceState, seat: int) -> list[LegalAction]:
        return listings.legal_actions(state, seat)

    def apply(self, state: DeepSpaceState, seat: int, action: Action
              ) -> tuple[DeepSpaceState, list[Event]]:
        return actions.apply(state, seat, action)

    def leave(self, game: DeepSpaceGame, seat: int) -> None:
        actions.resign(game, seat)

    def view(self, state: DeepSpaceState, viewer: int | None) -> DeepSpaceView:
        return DeepSpaceView(
            viewer=-1 if viewer is None else viewer,
            options=state.options,
            phase=state.phase,
            current=state.current,
            turn=state.turn,
            stations=state.stations,
            recruits=state.recruits,
            supply=state.supply,
            bases=state.bases,
            gems=state.gems,
            ore=state.ore,
            bank_gems=state.bank_gems,
            bank_ore=state.bank_ore,
            dogs=state.dogs,
            force_fields=state.force_fields,
            hands=state.hands,
            deck_count=len(state.deck),
            discard=state.discard,
            moves_left=state.moves_left,
            mined=state.mined,
            battle_cry=state.battle_cry,
            dog_planet=state.dog_planet,
            dog_seat=state.dog_seat,
            out=state.out,
            out_order=state.out_order,
            winner=state.winner,
            ranking=state.ranking,
            end_reason=state.end_reason,
        )

    def default_action(self, state: DeepSpaceState, seat: int) -> Action:
        """The passive choice a timed-out seat makes: end the turn keeping the hand; a dog's
        owner keeps the dog, moving it to the lowest-numbered planet it may go to."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"it is not seat {seat}'s decision")
        if state.phase is Phase.DOG:
            return legal[0].action
        return EndTurn()

    def bot_choose(self, view: DeepSpaceView, legal: Sequence[LegalAction], entropy: int
                   ) -> Action:
        return bot.choose(view, legal, Pcg32.from_seed(entropy, stream=view.viewer + 1))
