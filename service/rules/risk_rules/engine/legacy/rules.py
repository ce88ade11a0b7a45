"""Risk Legacy rules: HQs, Red Stars, joining the war, recruiting, expanding, battles with scars,
fortifications and missiles, the maneuver, the end-of-turn card, winning.

This module only joins the parts: setup (the options checked, create, the opening), actions
(dispatch by step and action, the turn's handlers, resignation), windows (the scar and missile
windows and their answers), battle (dice, missiles and modifiers, losses, conquest and the
move-in), reckoning (what the rules count on a board: recruits, Red Stars, starts, maneuvers,
an expansion's cost), checks (the validation the handlers share), listings (whose decision,
the legal actions) and the work area they share (play). The world of the campaign (scars,
cities, fortifications, names, bonus marks, card values) comes from the options and is read
through `content.board_of`; what changes during the game (scars played, fortification marks
used) lives in the state, for the campaign to keep afterwards. Out-of-turn answers go through
the engine core's response windows (`core/windows.py`): the scar window at the start of every
turn, and the missile window after every roll, each asking in priority order (the active
player, then the defender, then clockwise). Missiles and whether a seat still holds a scar
card are public, so the windows ask only seats that could answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.core.bots import DEFAULT_LEVEL, BotLevels
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.ruleset import Action, LegalAction
from risk_rules.engine.core.values import copier
from risk_rules.engine.core.variant import VariantRules
from risk_rules.engine.legacy import actions, bot, listings, planner, setup
from risk_rules.engine.legacy.content import board_of
from risk_rules.engine.legacy.model import (
    ACTION_TYPES,
    EVENT_TYPES,
    Defend,
    EndAttack,
    EndTurn,
    JoinWar,
    LegacyOptions,
    LegacyState,
    LegacyView,
    MoveIn,
    Pass,
    Phase,
    PlaceHq,
    PlaceTroops,
    TakeCard,
)
from risk_rules.engine.legacy.play import LegacyGame
from risk_rules.engine.legacy.reckoning import red_stars

# The view holds the state's public fields as they are, what the viewer's seat decides, and
# the world's numbers a client needs.
_VIEW = copier(LegacyState, LegacyView, (
    "viewer", "red_stars", "scar_card", "has_scar_card", "hand", "hand_counts", "deck_count",
    "coin_count", "population", "card_values",
))


# the bot at each level (core.bots): greedy is the built-in weighted-random bot
_BOTS: BotLevels[LegacyView] = BotLevels(greedy=bot.choose, planner=planner.choose)


class LegacyRules(VariantRules[LegacyState, LegacyOptions, LegacyView]):
    """Risk Legacy behind the engine interface."""

    name = "legacy"
    # 2: the rules digest's natural triple, overpaying trades and Red Stars bought before the
    # recruits are announced (issue 15); a build replays only games of its own version
    rules_version = 2
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES
    work_type = LegacyGame

    # the rules themselves live in the variant's modules
    create = staticmethod(setup.create)
    decision = staticmethod(listings.decision)
    legal_actions = staticmethod(listings.legal_actions)
    apply = staticmethod(actions.apply)
    leave = staticmethod(actions.resign)

    def view(self, state: LegacyState, viewer: int | None) -> LegacyView:
        seat = -1 if viewer is None else viewer
        n = state.options.players
        board = board_of(state.options.world)
        return _VIEW(
            state, viewer=seat,
            red_stars=tuple(red_stars(state.owner, state.hqs, state.stars, s) for s in range(n)),
            scar_card=state.scar_cards[seat] if 0 <= seat < n else 0,
            has_scar_card=tuple(bool(c) for c in state.scar_cards),
            hand=state.hands[seat] if 0 <= seat < n else (),
            hand_counts=tuple(len(h) for h in state.hands),
            deck_count=len(state.deck),
            coin_count=len(state.coin_pile),
            population=board.population,
            card_values=board.card_value,
        )

    def default_action(self, state: LegacyState, seat: int) -> Action:
        """The passive choice of a seat whose clock ran out: pass in a window, end the attack
        and skip the maneuver, defend with the most dice, move in the least, take the first
        matching card, place an HQ or join on the lowest-numbered legal territory, and put
        all recruits on the lowest-numbered own territory that borders another seat's or an
        unoccupied one (no trade, no Red Star purchase)."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"it is not seat {seat}'s decision")
        actions = [entry.action for entry in legal]
        for passive in (Pass(), EndAttack(), EndTurn()):
            if passive in actions:
                return passive
        if state.phase is Phase.DEFEND:
            return max(actions, key=lambda a: a.dice if isinstance(a, Defend) else 0)
        for kind in (PlaceHq, JoinWar, TakeCard, MoveIn):
            found = [a for a in actions if isinstance(a, kind)]
            if found:
                return found[0]
        placements = [e for e in legal if isinstance(e.action, PlaceTroops)]
        if placements:
            def exposed(entry: LegalAction) -> bool:
                assert isinstance(entry.action, PlaceTroops)
                links = CLASSIC_BOARD.links[entry.action.territory]
                return any(state.owner[n] != seat for n in links)

            entry = next((e for e in placements if exposed(e)), placements[0])
            return entry.instances()[-1]
        return legal[-1].instances()[0]

    def bot_choose(self, view: LegacyView, legal: Sequence[LegalAction], entropy: int,
                   level: str = DEFAULT_LEVEL) -> Action:
        return _BOTS.choose(view, view.viewer, legal, entropy, level)
