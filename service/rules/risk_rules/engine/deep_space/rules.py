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

from risk_rules.engine.core.bots import DEFAULT_LEVEL, BotLevels
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.ruleset import Action, LegalAction
from risk_rules.engine.core.values import copier
from risk_rules.engine.core.variant import VariantRules
from risk_rules.engine.deep_space import actions, bot, listings, planner, setup
from risk_rules.engine.deep_space.model import (
    ACTION_TYPES,
    EVENT_TYPES,
    DeepSpaceOptions,
    DeepSpaceState,
    DeepSpaceView,
    EndTurn,
    Phase,
)
from risk_rules.engine.deep_space.play import DeepSpaceGame

# Every hand is face up: the view is the state but for the deck's order and the generator.
_VIEW = copier(DeepSpaceState, DeepSpaceView, ("viewer", "deck_count"))


# the bot at each level (core.bots): greedy is the built-in weighted-random bot
_BOTS: BotLevels[DeepSpaceView] = BotLevels(greedy=bot.choose, planner=planner.choose)


class DeepSpaceRules(VariantRules[DeepSpaceState, DeepSpaceOptions, DeepSpaceView]):
    """Risk Deep Space behind the engine interface."""

    name = "deep_space"
    rules_version = 1
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES
    work_type = DeepSpaceGame

    # the rules themselves live in the variant's modules
    create = staticmethod(setup.create)
    decision = staticmethod(listings.decision)
    legal_actions = staticmethod(listings.legal_actions)
    apply = staticmethod(actions.apply)
    leave = staticmethod(actions.resign)

    def view(self, state: DeepSpaceState, viewer: int | None) -> DeepSpaceView:
        return _VIEW(
            state, viewer=-1 if viewer is None else viewer, deck_count=len(state.deck)
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

    def bot_choose(self, view: DeepSpaceView, legal: Sequence[LegalAction], entropy: int,
                   level: str = DEFAULT_LEVEL) -> Action:
        return _BOTS.choose(view, view.viewer, legal, entropy, level)
