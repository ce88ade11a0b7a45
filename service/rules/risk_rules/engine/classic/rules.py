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

from risk_rules.engine.classic import actions, bot, listings, planner, setup
from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.classic.cards import escalating_value
from risk_rules.engine.classic.model import (
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
from risk_rules.engine.classic.play import MUST_TRADE_AT, ClassicGame
from risk_rules.engine.core.bots import DEFAULT_LEVEL, BotLevels
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.ruleset import Action, LegalAction
from risk_rules.engine.core.values import copier
from risk_rules.engine.core.variant import VariantRules


@lru_cache(maxsize=256)
def _next_trade_value(schedule: TradeSchedule, trades_done: int) -> int:
    """What the next set traded is worth (0 under the fixed schedule, where the set decides)."""
    if schedule is TradeSchedule.FIXED:
        return 0
    return escalating_value(schedule, trades_done + 1)


# The view holds the state's public fields as they are, and what the viewer's seat decides
# (tests/engine/test_values.py checks that the view ends up with its own fields exactly).
_VIEW = copier(ClassicState, ClassicView, (
    "viewer", "hand", "hand_counts", "deck_count", "next_trade_value",
))


# the bot at each level (core.bots): greedy is the built-in weighted-random bot
_BOTS: BotLevels[ClassicView] = BotLevels(greedy=bot.choose, planner=planner.choose)


class ClassicRules(VariantRules[ClassicState, ClassicOptions, ClassicView]):
    """Classic Risk behind the engine interface."""

    name = "classic"
    rules_version = 1
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES
    work_type = ClassicGame

    # the rules themselves live in the variant's modules
    settle_options = staticmethod(setup.settle_options)
    create = staticmethod(setup.create)
    decision = staticmethod(listings.decision)
    legal_actions = staticmethod(listings.legal_actions)
    apply = staticmethod(actions.apply)
    leave = staticmethod(actions.resign)

    def view(self, state: ClassicState, viewer: int | None) -> ClassicView:
        seat = -1 if viewer is None else viewer
        opts = state.options
        hands = state.hands
        return _VIEW(
            state, viewer=seat,
            hand=hands[seat] if 0 <= seat < opts.players else (),
            hand_counts=tuple(map(len, hands)),
            deck_count=len(state.deck),
            next_trade_value=_next_trade_value(opts.trade_schedule, state.trades_done),
        )

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

    def bot_choose(self, view: ClassicView, legal: Sequence[LegalAction], entropy: int,
                   level: str = DEFAULT_LEVEL) -> Action:
        return _BOTS.choose(view, view.viewer, legal, entropy, level)
