"""Classic actions: `apply` checks who may act, dispatches on (phase, action type) to the
rule's handler, and hands back the new state and its events; the turn's handlers that are
neither setup nor battle (trading, reinforcing, fortifying, ending the turn) and resignation
live here too."""

from __future__ import annotations

from collections.abc import Callable

from risk_rules.engine.classic import battle, checks, setup
from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.classic.cards import bonus_choices, is_set, set_value
from risk_rules.engine.classic.listings import deciding_seat
from risk_rules.engine.classic.model import (
    ACTION_TYPES,
    Attack,
    AttackEnded,
    CardsTraded,
    ClaimTerritory,
    ClassicState,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    FortifyMode,
    MoveIn,
    Phase,
    PlaceArmies,
    PlaceNeutral,
    PlayerResigned,
    TradeCards,
    TurnEnded,
)
from risk_rules.engine.classic.play import MUST_TRADE_AT, NO_TERRITORY, ClassicGame
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.guards import check_action
from risk_rules.engine.core.ruleset import Action, Event

_ACTION_TYPE_SET = frozenset(ACTION_TYPES)


def apply(state: ClassicState, seat: int, action: Action) -> tuple[ClassicState, list[Event]]:
    phase = state.phase
    # Outside DEFEND and FINISHED the current seat (always a seat) decides, so the checks
    # pass for it and any classic action: skip them then (nearly every call).
    if seat != state.current or phase is Phase.DEFEND or phase is Phase.FINISHED \
            or type(action) not in _ACTION_TYPE_SET:
        check_action(action, ACTION_TYPES, "classic", seat=seat,
                     players=state.options.players, finished=phase is Phase.FINISHED,
                     deciding=(deciding_seat(state),))
    if phase is Phase.ATTACK and type(action) is Attack:  # four actions in five
        quick = battle.quick_attack(state, seat, action)
        if quick is not None:
            return quick
    key = (phase, type(action))
    state_handler = _STATE_HANDLERS.get(key)
    if state_handler is not None:
        return state_handler(state, seat, action)
    game = ClassicGame(state)
    handler = _HANDLERS.get(key)
    if handler is None:
        raise IllegalAction(
            Reason.WRONG_PHASE,
            f"{type(action).__name__} is not allowed in phase {phase.name}",
        )
    handler(game, seat, action)
    return game.freeze(), game.events


def resign(game: ClassicGame, seat: int) -> None:
    """The seat leaves: its pieces turn neutral, its cards are discarded, play goes on."""
    if game.phase is Phase.MOVE_IN and seat == game.current:
        game.move(seat, game.attack_from, game.attack_to, game.attack_dice)
        game.attack_from = game.attack_to = NO_TERRITORY
    for t in range(TERRITORIES):
        if game.owner[t] == seat:
            game.owner[t] = game.neutral
    game.discard = game.discard + game.hands[seat]
    game.hands[seat] = ()
    if seat < len(game.to_place):
        game.to_place[seat] = 0
    game.go_out(seat)
    game.emit(PlayerResigned(seat, game.neutral))
    live = game.live_seats()
    if len(live) == 1:
        if game.phase is Phase.MOVE_IN:
            game.move(game.current, game.attack_from, game.attack_to, game.attack_dice)
        game.finish(live[0], "resignation")
        return
    if game.phase is Phase.DEFEND and game.attack_to >= 0 and \
            game.owner[game.attack_to] == game.neutral and seat != game.current:
        battle.resolve_battle(game, min(2, game.armies[game.attack_to]))  # the neutral defends
    if seat != game.current:
        return
    if game.phase in (Phase.CLAIM, Phase.SETUP_PLACE):
        setup.advance_setup_many(game)
    elif game.phase not in (Phase.FINISHED,):
        game.attack_from = game.attack_to = NO_TERRITORY
        game.emit(TurnEnded(seat))
        game.start_turn(game.next_live_seat(seat))


# ---- handlers: one per (phase, action) pair that the rules allow --------------------------


def _trade(game: ClassicGame, seat: int, action: Action) -> None:
    assert isinstance(action, TradeCards)
    if not game.options.cards:
        raise IllegalAction(Reason.CARDS_DISABLED, "this game is played without cards")
    hand = game.hands[seat]
    cards = action.cards
    if len(cards) != 3 or list(cards) != sorted(set(cards)):
        raise IllegalAction(Reason.INVALID_SET,
                            "a trade is three distinct card ids in ascending order")
    for card in cards:
        if card not in hand:
            raise IllegalAction(Reason.CARD_NOT_IN_HAND,
                                f"card {card} is not in seat {seat}'s hand")
    if game.resume_attack and len(hand) < MUST_TRADE_AT:
        raise IllegalAction(Reason.TRADE_NOT_ALLOWED,
                            "after an elimination, trade only down to 4 cards")
    if not is_set(cards):
        raise IllegalAction(Reason.INVALID_SET, f"cards {list(cards)} are not a set")
    choices = bonus_choices(game.owner, game.bonus_used, seat, cards)
    if action.bonus_territory not in choices:
        raise IllegalAction(
            Reason.INVALID_BONUS_TERRITORY,
            f"the +2 bonus must go to one of {choices} (-1: none due)",
        )
    game.trades_done += 1
    value = set_value(game.options.trade_schedule, game.trades_done, cards)
    game.hands[seat] = tuple(card for card in hand if card not in cards)
    game.discard = game.discard + cards
    game.pending += value
    if action.bonus_territory >= 0:
        game.bonus_used = True
        game.armies[action.bonus_territory] += 2
    game.emit(CardsTraded(seat, cards, value, action.bonus_territory, game.trades_done))
    game.leave_reinforce_when_done()


def _reinforce(game: ClassicGame, seat: int, action: Action) -> None:
    assert isinstance(action, PlaceArmies)
    if len(game.hands[seat]) >= MUST_TRADE_AT:
        raise IllegalAction(Reason.MUST_TRADE,
                            f"with {len(game.hands[seat])} cards, trade before placing")
    t = checks.owned(game.owner, seat, action.territory)
    checks.army_count(action.count, 1, game.pending, "reinforcement")
    game.pending -= action.count
    game.place(seat, t, action.count)
    game.leave_reinforce_when_done()


def _end_attack(game: ClassicGame, seat: int, action: Action) -> None:
    game.phase = Phase.FORTIFY
    game.emit(AttackEnded(seat))


def _fortify(game: ClassicGame, seat: int, action: Action) -> None:
    assert isinstance(action, Fortify)
    src = checks.owned(game.owner, seat, action.from_territory)
    dst = checks.owned(game.owner, seat, action.to_territory)
    if src == dst:
        raise IllegalAction(Reason.SAME_TERRITORY,
                            "fortify moves between two different territories")
    checks.army_count(action.count, 1, game.armies[src] - 1,
                      "fortify (leave at least 1 behind)")
    if game.options.fortify is FortifyMode.ADJACENT:
        if not CLASSIC_BOARD.adjacent(src, dst):
            raise IllegalAction(Reason.NOT_ADJACENT,
                                "this game fortifies between adjacent territories")
    elif dst not in CLASSIC_BOARD.reachable(src, [o == seat for o in game.owner]):
        raise IllegalAction(Reason.NOT_CONNECTED,
                            "no chain of your own territories links the two")
    game.move(seat, src, dst, action.count)
    game.end_turn()


def _end_turn(game: ClassicGame, seat: int, action: Action) -> None:
    game.end_turn()


_HANDLERS: dict[tuple[Phase, type[Action]], Callable[[ClassicGame, int, Action], None]] = {
    (Phase.CLAIM, ClaimTerritory): setup.claim,
    (Phase.SETUP_PLACE, PlaceArmies): setup.setup_place,
    (Phase.SETUP_NEUTRAL, PlaceNeutral): setup.place_neutral,
    (Phase.REINFORCE, TradeCards): _trade,
    (Phase.REINFORCE, PlaceArmies): _reinforce,
    (Phase.ATTACK, Attack): battle.attack,
    (Phase.ATTACK, EndAttack): _end_attack,
    (Phase.DEFEND, Defend): battle.defend,
    (Phase.FORTIFY, Fortify): _fortify,
    (Phase.FORTIFY, EndTurn): _end_turn,
}

# Rules that map the state to (state, events) themselves, without the work area.
_STATE_HANDLERS: dict[
    tuple[Phase, type[Action]],
    Callable[[ClassicState, int, Action], tuple[ClassicState, list[Event]]],
] = {
    (Phase.MOVE_IN, MoveIn): battle.move_in,
}
