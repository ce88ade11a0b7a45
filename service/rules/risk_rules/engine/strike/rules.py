"""Risk Strike rules: draws, one attack a turn, deployment, dice, tactics cards, domination.

This module only joins the parts: setup (create), actions (the steps each action is allowed
in, dispatch, the handlers and resignation), listings (whose decision, the legal actions),
windows (the response windows and the chain of tactics cards played in them), tactics (what a
card does when it takes effect), battle (dice, losses, the end of a battle) and the work area
they share (play). Everything a player may answer out of turn goes through the engine core's
response windows (`core/windows.py`): the deployment round, the window after deployment, the
window after each roll, and the Cancel Order window that every played tactics card opens. The
decision always names exactly one seat: the one the top window asks, or else the active player.
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.core.bots import DEFAULT_LEVEL, BotLevels
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.ruleset import Action, LegalAction
from risk_rules.engine.core.values import copier
from risk_rules.engine.core.variant import VariantRules
from risk_rules.engine.strike import actions, bot, listings, planner, setup
from risk_rules.engine.strike.model import (
    ACTION_TYPES,
    EVENT_TYPES,
    DrawCards,
    Pass,
    PassTurn,
    StopAttack,
    StrikeOptions,
    StrikeState,
    StrikeView,
)
from risk_rules.engine.strike.play import StrikeGame

# The view holds the state's public fields as they are, and what the viewer's seat decides.
_VIEW = copier(StrikeState, StrikeView, (
    "viewer", "hand", "hand_counts", "continent_deck_count", "tactics_deck_count",
))


# the bot at each level (core.bots): greedy is the built-in weighted-random bot
_BOTS: BotLevels[StrikeView] = BotLevels(greedy=bot.choose, planner=planner.choose)


class StrikeRules(VariantRules[StrikeState, StrikeOptions, StrikeView]):
    """Risk Strike behind the engine interface."""

    name = "strike"
    rules_version = 1
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES
    work_type = StrikeGame

    # the rules themselves live in the variant's modules
    create = staticmethod(setup.create)
    decision = staticmethod(listings.decision)
    legal_actions = staticmethod(listings.legal_actions)
    apply = staticmethod(actions.apply)
    leave = staticmethod(actions.resign)

    def view(self, state: StrikeState, viewer: int | None) -> StrikeView:
        seat = -1 if viewer is None else viewer
        return _VIEW(
            state, viewer=seat,
            hand=state.hands[seat] if 0 <= seat < state.options.players else (),
            hand_counts=tuple(len(h) for h in state.hands),
            continent_deck_count=len(state.continent_deck),
            tactics_deck_count=len(state.tactics_deck),
        )

    def default_action(self, state: StrikeState, seat: int) -> Action:
        """The passive choice of a seat whose clock ran out: pass in every window and
        deployment, draw one card of each deck, pass the turn, stop attacking."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"it is not seat {seat}'s decision")
        actions = [entry.action for entry in legal]
        for passive in (Pass(), PassTurn(), StopAttack(), DrawCards(1)):
            if passive in actions:
                return passive
        return actions[0]

    def bot_choose(self, view: StrikeView, legal: Sequence[LegalAction], entropy: int,
                   level: str = DEFAULT_LEVEL) -> Action:
        return _BOTS.choose(view, view.viewer, legal, entropy, level)
