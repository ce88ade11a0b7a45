"""Legacy's actions: one handler per (step, action) pair the rules allow, dispatch, and a seat
resigning.

`apply` checks the action against the decision, finds the handler for the step, copies the
state into a `LegacyGame`, runs it and freezes the result. The window answers are in
windows.py; the dice and their outcome in battle.py.
"""

from __future__ import annotations

from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.guards import check_action
from risk_rules.engine.core.ruleset import Action, Event
from risk_rules.engine.core.windows import drop_seat
from risk_rules.engine.legacy import battle, checks, listings, windows
from risk_rules.engine.legacy.battle import MAX_ATTACK_DICE, MAX_DEFENCE_DICE
from risk_rules.engine.legacy.cards import well_formed
from risk_rules.engine.legacy.content import MIN_TRADE, troops_for
from risk_rules.engine.legacy.model import (
    ACTION_TYPES,
    NO_TERRITORY,
    NOBODY,
    Attack,
    AttackDeclared,
    AttackEnded,
    BuyRedStar,
    Defend,
    EndAttack,
    EndTurn,
    Expand,
    Expanded,
    FireMissile,
    HqPlaced,
    JoinedWar,
    JoinWar,
    LegacyState,
    Maneuver,
    Maneuvered,
    MoveIn,
    Pass,
    Phase,
    PlaceHq,
    PlaceTroops,
    PlayerResigned,
    PlayScar,
    RedStarBought,
    ResourcesTraded,
    TakeCard,
    TradeResources,
)
from risk_rules.engine.legacy.play import LegacyGame
from risk_rules.engine.legacy.reckoning import expansion_cost
from risk_rules.engine.legacy.world import Power

FEROCITY_OVER = -2  # Enclave attacked a second territory: its power is over for the turn


def apply(
    state: LegacyState, seat: int, action: Action
) -> tuple[LegacyState, list[Event]]:
    check_action(action, ACTION_TYPES, "Legacy", seat=seat, players=state.options.players,
                 finished=state.phase is Phase.FINISHED,
                 deciding=listings.decision(state).seats)
    step = listings.step_of(state.phase, state.windows)
    handler = HANDLERS.get((step, type(action)))
    if handler is None:
        raise IllegalAction(
            Reason.WRONG_PHASE, f"{type(action).__name__} is not allowed now ({step})"
        )
    game = LegacyGame(state)
    handler(game, seat, action)
    return game.freeze(), game.events


def resign(game: LegacyGame, seat: int) -> None:
    for t in game.territories_of(seat):
        game.owner[t] = NOBODY
        game.troops[t] = 0
    game.stars[seat] = 0
    game.go_out(seat)
    game.emit(PlayerResigned(seat))
    if game.phase is Phase.MOVE_IN and seat != game.current and len(game.live_seats()) == 1:
        battle.move_in(game, game.current, battle.least_move_in(game))  # the last seat in wins
    if game.after_leaving("resignation"):
        return
    if game.phase is Phase.SETUP_HQ:
        if seat == game.current:
            game.next_hq_seat()
        return
    in_battle = game.phase in (Phase.DEFEND, Phase.BATTLE, Phase.MOVE_IN)
    if seat == game.current:
        game.finish_turn()
        return
    if in_battle and game.attack_to >= 0 and game.owner[game.attack_to] == NOBODY:
        game.windows = []  # the defender left: its territory is empty, the battle is off
        game.clear_attack()
        game.phase = Phase.ATTACK
        return
    game.windows = [drop_seat(w, seat) for w in game.windows]
    windows.advance(game)


def _place_hq(game: LegacyGame, seat: int, action: Action) -> None:
    assert isinstance(action, PlaceHq)
    t = checks.territory(action.territory)
    if t not in game.starts_for(seat, hq=True):
        if game.owner[t] == NOBODY and t not in game.hqs and t in game.starts_for(seat, hq=False):
            raise IllegalAction(Reason.HQ_TOO_CLOSE, f"{checks.name_of(t)} borders another HQ")
        raise IllegalAction(
            Reason.NOT_A_STARTING_TERRITORY, f"{checks.name_of(t)} is not a legal start"
        )
    game.hqs[seat] = t
    game.owner[t] = seat
    game.troops[t] = game.content.starting_troops
    game.emit(HqPlaced(seat, t, game.content.starting_troops))
    game.next_hq_seat()


def _buy_star(game: LegacyGame, seat: int, action: Action) -> None:
    assert isinstance(action, BuyRedStar)
    cost = game.content.star_cost
    if len(action.values) < cost:
        raise IllegalAction(Reason.TOO_FEW_CARDS, f"a Red Star costs exactly {cost} cards")
    if len(action.values) > cost:
        raise IllegalAction(Reason.TOO_MANY_CARDS, f"a Red Star costs exactly {cost} cards")
    cards = checks.payment(game, seat, tuple(action.values))
    checks.pay(game, seat, cards)
    game.stars[seat] += 1
    game.emit(RedStarBought(seat, tuple(cards), game.stars[seat]))
    if game.check_stars(seat):
        return
    if seat not in game.owner:
        game.settle_join()
    elif not game.may_buy_star(seat):
        game.announce_recruits()


def _join(game: LegacyGame, seat: int, action: Action) -> None:
    assert isinstance(action, JoinWar)
    if seat in game.owner:
        raise IllegalAction(Reason.WRONG_PHASE, "a seat that holds territories recruits instead")
    t = checks.territory(action.territory)
    if t not in game.starts_for(seat, hq=False):
        raise IllegalAction(
            Reason.NOT_A_STARTING_TERRITORY, f"{checks.name_of(t)} is not a legal start"
        )
    count = game.content.starting_troops // 2
    game.owner[t] = seat
    game.troops[t] = count
    game.emit(JoinedWar(seat, t, count))
    game.phase = Phase.ATTACK


def _give_up(game: LegacyGame, seat: int, action: Action) -> None:
    if seat in game.owner or game.starts_for(seat, hq=False):
        raise IllegalAction(
            Reason.WRONG_PHASE, "EndTurn now only gives up a join with nowhere to go"
        )
    game.eliminate(seat)


def _recruiting(game: LegacyGame, seat: int) -> None:
    """A trade or placement in START ends the Red Star purchases: the recruits are told."""
    if seat not in game.owner:
        raise IllegalAction(Reason.WRONG_PHASE, "a seat without territories joins the war instead")
    if game.phase is Phase.START:
        game.announce_recruits()


def _trade(game: LegacyGame, seat: int, action: Action) -> None:
    assert isinstance(action, TradeResources)
    _recruiting(game, seat)
    if game.traded:
        raise IllegalAction(Reason.TRADE_NOT_ALLOWED, "one trade per turn")
    values = tuple(action.values)
    if well_formed(values, game.board) and sum(values) < MIN_TRADE:
        raise IllegalAction(Reason.TOO_FEW_RESOURCES, f"a trade is worth at least {MIN_TRADE}")
    cards = checks.payment(game, seat, values)
    checks.pay(game, seat, cards)
    troops = troops_for(sum(values))
    game.traded = True
    game.pending += troops
    game.phase = Phase.RECRUIT
    game.emit(ResourcesTraded(seat, tuple(cards), sum(values), troops))


def _place(game: LegacyGame, seat: int, action: Action) -> None:
    assert isinstance(action, PlaceTroops)
    _recruiting(game, seat)
    t = checks.own(game, seat, action.territory)
    checks.count(action.count, 1, game.pending, "recruits")
    game.pending -= action.count
    game.place(seat, t, action.count)
    game.phase = Phase.RECRUIT if game.pending else Phase.ATTACK


def _source(game: LegacyGame, seat: int, src: int, dst: int) -> None:
    checks.own(game, seat, src)
    checks.territory(dst)
    if dst == src:
        raise IllegalAction(Reason.SAME_TERRITORY, "from and to are the same territory")


def _expand(game: LegacyGame, seat: int, action: Action) -> None:
    assert isinstance(action, Expand)
    src, dst = action.from_territory, action.to_territory
    _source(game, seat, src, dst)
    if not CLASSIC_BOARD.adjacent(src, dst):
        raise IllegalAction(
            Reason.NOT_ADJACENT, f"{checks.name_of(src)} does not border {checks.name_of(dst)}"
        )
    if game.owner[dst] != NOBODY:
        raise IllegalAction(
            Reason.TERRITORY_OCCUPIED, f"{checks.name_of(dst)} is occupied: attack it instead"
        )
    cost = expansion_cost(game.board, game.fortifications, dst)
    checks.count(action.count, cost + 1, game.troops[src] - 1, "expansion (one must arrive)")
    game.troops[src] -= action.count
    game.owner[dst] = seat
    game.troops[dst] = action.count - cost
    game.expansions += 1
    game.emit(Expanded(seat, src, dst, action.count, cost))
    game.check_stars(seat)


def _attack(game: LegacyGame, seat: int, action: Action) -> None:
    assert isinstance(action, Attack)
    src, dst = action.from_territory, action.to_territory
    _source(game, seat, src, dst)
    if game.owner[dst] == seat:
        raise IllegalAction(Reason.OWN_TERRITORY, f"{checks.name_of(dst)} is your own territory")
    if not CLASSIC_BOARD.adjacent(src, dst):
        raise IllegalAction(
            Reason.NOT_ADJACENT, f"{checks.name_of(src)} does not border {checks.name_of(dst)}"
        )
    if game.owner[dst] == NOBODY:
        raise IllegalAction(
            Reason.TERRITORY_EMPTY, f"{checks.name_of(dst)} is unoccupied: expand into it"
        )
    if dst in game.protected:
        raise IllegalAction(
            Reason.ATTACKS_STOPPED, f"{checks.name_of(dst)} cannot be attacked again this turn"
        )
    if game.troops[src] < 2:
        raise IllegalAction(Reason.NOT_ENOUGH_ARMIES, "attacking needs at least 2 troops")
    if action.dice < 1:
        raise IllegalAction(Reason.TOO_FEW_DICE, "roll at least 1 die")
    top = min(MAX_ATTACK_DICE, game.troops[src] - 1)
    if action.dice > top:
        raise IllegalAction(
            Reason.TOO_MANY_DICE, f"at most {top} dice from {game.troops[src]} troops"
        )
    if game.ferocity_target == NO_TERRITORY:
        game.ferocity_target = dst
    elif game.ferocity_target != dst:
        game.ferocity_target = FEROCITY_OVER
    game.attack_from, game.attack_to, game.attack_count = src, dst, action.dice
    defender = game.owner[dst]
    game.emit(AttackDeclared(seat, src, dst, action.dice, defender))
    if game.options.auto_defend_max_dice:
        battle.roll(game, min(MAX_DEFENCE_DICE, game.troops[dst]))
    else:
        game.phase = Phase.DEFEND


def _defend(game: LegacyGame, seat: int, action: Action) -> None:
    assert isinstance(action, Defend)
    top = min(MAX_DEFENCE_DICE, game.troops[game.attack_to])
    if action.dice < 1:
        raise IllegalAction(Reason.TOO_FEW_DICE, "defend with at least 1 die")
    if action.dice > top:
        raise IllegalAction(Reason.TOO_MANY_DICE, f"at most {top} defence dice here")
    battle.roll(game, action.dice)


def _move_in(game: LegacyGame, seat: int, action: Action) -> None:
    assert isinstance(action, MoveIn)
    most = game.troops[game.attack_from] - 1
    checks.count(action.count, battle.least_move_in(game), most, "move-in")
    battle.move_in(game, seat, action.count)


def _end_attack(game: LegacyGame, seat: int, action: Action) -> None:
    game.emit(AttackEnded(seat))
    game.after_attack_phase()


def _maneuver(game: LegacyGame, seat: int, action: Action) -> None:
    assert isinstance(action, Maneuver)
    power = game.powers[seat]
    if game.phase is Phase.ATTACK and power is not Power.MANEUVER_ANY_TIME:
        raise IllegalAction(Reason.WRONG_PHASE, "the maneuver comes after the attacks")
    if game.maneuvered:
        raise IllegalAction(Reason.ALREADY_MANEUVERED, "one maneuver per turn")
    src, dst = action.from_territory, action.to_territory
    _source(game, seat, src, dst)
    checks.own(game, seat, dst)
    checks.count(action.count, 1, game.troops[src] - 1, "maneuver (leave at least 1 behind)")
    if power is not Power.MANEUVER_ANYWHERE and \
            dst not in CLASSIC_BOARD.reachable(src, [o == seat for o in game.owner]):
        raise IllegalAction(Reason.NOT_CONNECTED, "no chain of your own territories links the two")
    game.troops[src] -= action.count
    game.troops[dst] += action.count
    game.maneuvered = True
    game.emit(Maneuvered(seat, src, dst, action.count))
    if game.phase is Phase.MANEUVER:
        game.end_turn()


def _end_turn(game: LegacyGame, seat: int, action: Action) -> None:
    game.end_turn()


def _take_card(game: LegacyGame, seat: int, action: Action) -> None:
    assert isinstance(action, TakeCard)
    if action.slot not in game.matching_slots(seat):
        raise IllegalAction(
            Reason.INVALID_SLOT, f"slot {action.slot} shows no territory card of seat {seat}"
        )
    game.take_slot(seat, action.slot)
    game.draws_left -= 1
    game.process_draws()


HANDLERS = {
    ("setup_hq", PlaceHq): _place_hq,
    ("scar", PlayScar): windows.play_scar,
    ("scar", Pass): windows.pass_window,
    ("missile", FireMissile): windows.fire_missile,
    ("missile", Pass): windows.pass_window,
    ("start", BuyRedStar): _buy_star,
    ("start", JoinWar): _join,
    ("start", EndTurn): _give_up,
    ("start", TradeResources): _trade,
    ("start", PlaceTroops): _place,
    ("recruit", TradeResources): _trade,
    ("recruit", PlaceTroops): _place,
    ("attack", Expand): _expand,
    ("attack", Attack): _attack,
    ("attack", Maneuver): _maneuver,
    ("attack", EndAttack): _end_attack,
    ("defend", Defend): _defend,
    ("move_in", MoveIn): _move_in,
    ("maneuver", Maneuver): _maneuver,
    ("maneuver", EndTurn): _end_turn,
    ("draw", TakeCard): _take_card,
}
