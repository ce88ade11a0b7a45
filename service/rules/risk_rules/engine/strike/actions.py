"""Strike's actions: the steps each is allowed in, dispatch, one handler per action type, and a
seat resigning.

`apply` checks the action against the decision and the step, copies the state into a
`StrikeGame`, runs the handler and freezes the result. Each handler checks what is particular
to its action (cards held, targets, counts) and raises the rule's reason code.
"""

from __future__ import annotations

from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.guards import check_action
from risk_rules.engine.core.ruleset import Action, Event
from risk_rules.engine.core.windows import drop_seat, open_window, pass_turn
from risk_rules.engine.strike import battle, listings, windows
from risk_rules.engine.strike.cards import (
    CONTINENTS,
    first_of,
    linked,
    of_continent,
    of_tactic,
)
from risk_rules.engine.strike.model import (
    ACTION_TYPES,
    NOBODY,
    Attack,
    AttackDeclared,
    Deploy,
    DrawCards,
    Pass,
    Passed,
    PassTurn,
    Phase,
    PlayArtillery,
    PlayBombard,
    PlayCancelOrder,
    PlayerResigned,
    PlayExpand,
    PlayRally,
    PlaySabotage,
    PlaySpy,
    RollAgain,
    Side,
    StopAttack,
    StrikeState,
    Tactic,
    TacticPlay,
    TroopsDeployed,
    TroopsDiscarded,
    TurnPassed,
    WindowKind,
)
from risk_rules.engine.strike.play import (
    BOMBARD_VALUE,
    DRAWS_PER_TURN,
    NO_SIDE,
    StrikeGame,
)

STEPS: dict[type[Action], frozenset[str]] = {
    DrawCards: frozenset({"draw"}),
    Attack: frozenset({"main"}),
    PassTurn: frozenset({"main"}),
    Deploy: frozenset({"deploy"}),
    Pass: frozenset({"deploy", "after_deploy", "after_roll", "cancel"}),
    PlaySpy: frozenset({"draw", "main", "continue"}),
    PlayExpand: frozenset({"draw", "main", "continue"}),
    PlayArtillery: frozenset({"after_deploy", "after_roll"}),
    PlaySabotage: frozenset({"after_deploy"}),
    PlayRally: frozenset({"after_roll"}),
    PlayBombard: frozenset({"after_roll"}),
    PlayCancelOrder: frozenset({"cancel"}),
    RollAgain: frozenset({"continue"}),
    StopAttack: frozenset({"continue"}),
}


def apply(
    state: StrikeState, seat: int, action: Action
) -> tuple[StrikeState, list[Event]]:
    check_action(action, ACTION_TYPES, "Strike", seat=seat, players=state.options.players,
                 finished=state.phase is Phase.FINISHED,
                 deciding=listings.decision(state).seats)
    step = listings.step_of(state.phase, state.windows)
    if step not in STEPS[type(action)]:
        raise IllegalAction(
            Reason.WRONG_PHASE, f"{type(action).__name__} is not allowed now ({step})"
        )
    game = StrikeGame(state)
    HANDLERS[type(action)](game, seat, action)
    return game.freeze(), game.events


def resign(game: StrikeGame, seat: int) -> None:
    game.out[seat] = True
    game.out_order = (*game.out_order, seat)
    game.discard(sorted(game.hands[seat]))
    game.hands[seat] = []
    if game.troops[seat]:
        cards = tuple(game.troops[seat])
        game.discard(cards)
        game.troops[seat] = []
        game.emit(TroopsDiscarded(seat, cards, "resigned"))
    game.surrender = game.surrender + tuple(sorted(game.continents[seat]))
    game.continents[seat] = []
    game.coins = [NOBODY if holder == seat else holder for holder in game.coins]
    game.emit(PlayerResigned(seat))
    live = game.live_seats()
    if len(live) == 1:
        game.finish(live[0], "resignation")
        return
    in_battle = game.defender != NOBODY
    if in_battle and seat in (game.current, game.defender):
        battle.end_battle(game, "resigned")
        return
    if seat == game.current:
        game.end_turn()
        return
    game.sides[seat] = NO_SIDE
    game.windows = [drop_seat(w, seat) for w in game.windows]
    windows.advance(game)


# ---- validation helpers ------------------------------------------------------------------


def _continent(c: int) -> int:
    if not 0 <= c < CONTINENTS:
        raise IllegalAction(Reason.NO_SUCH_CONTINENT, f"continent {c} does not exist")
    return c


def _card(game: StrikeGame, seat: int, kind: Tactic) -> int:
    card = first_of(game.hands[seat], kind)
    if card is None:
        raise IllegalAction(Reason.CARD_NOT_IN_HAND, f"seat {seat} holds no {kind.name} card")
    return card


def _opponent(game: StrikeGame, seat: int, target: int, what: str) -> int:
    if not 0 <= target < game.seats or target == seat or game.out[target]:
        raise IllegalAction(
            Reason.INVALID_TARGET, f"{what}: seat {target} is not another live player"
        )
    return target


# ---- handlers: one per action type; the step was checked by `apply` -------------------------


def _draw(game: StrikeGame, seat: int, action: Action) -> None:
    assert isinstance(action, DrawCards)
    if not 0 <= action.continent_cards <= DRAWS_PER_TURN:
        raise IllegalAction(Reason.INVALID_DRAW, f"draw 0 to {DRAWS_PER_TURN} continent cards")
    if action.continent_cards:
        game.draw_continent(seat, action.continent_cards)
    if game.finished:
        return
    if DRAWS_PER_TURN - action.continent_cards:
        game.draw_tactics(seat, DRAWS_PER_TURN - action.continent_cards)
    game.phase = Phase.MAIN


def _attack(game: StrikeGame, seat: int, action: Action) -> None:
    assert isinstance(action, Attack)
    defender = action.defender
    if not 0 <= defender < game.seats or defender == seat or game.out[defender]:
        raise IllegalAction(Reason.NOT_AN_OPPONENT, f"seat {defender} is not an opponent to attack")
    src, dst = _continent(action.from_continent), _continent(action.to_continent)
    if not of_continent(game.continents[seat], src):
        raise IllegalAction(
            Reason.NO_CONTINENT_CARD, f"seat {seat} holds no card of continent {src}"
        )
    if not of_continent(game.continents[defender], dst):
        raise IllegalAction(
            Reason.NO_CONTINENT_CARD, f"seat {defender} holds no card of continent {dst}"
        )
    if not linked(src, dst):
        raise IllegalAction(Reason.NOT_LINKED, f"continents {src} and {dst} are not linked")
    game.defender, game.from_continent, game.to_continent = defender, src, dst
    game.sides[seat] = Side.ATTACKER
    game.sides[defender] = Side.DEFENDER
    game.rolls = 0
    game.emit(AttackDeclared(seat, defender, src, dst))
    game.phase = Phase.DEPLOY
    game.windows = [open_window(WindowKind.DEPLOY, game.priority())]
    windows.advance(game)


def _pass_turn(game: StrikeGame, seat: int, action: Action) -> None:
    game.emit(TurnPassed(seat))
    game.draw_tactics(seat, 1)
    game.end_turn()


def _deploy(game: StrikeGame, seat: int, action: Action) -> None:
    assert isinstance(action, Deploy)
    if action.side not in listings.deploy_sides(seat, game.current, game.defender):
        raise IllegalAction(Reason.WRONG_SIDE, f"seat {seat} cannot deploy for side {action.side}")
    troops = sorted(of_tactic(game.hands[seat], Tactic.TROOPS))
    if action.count < 1:
        raise IllegalAction(Reason.TOO_FEW_CARDS, "deploy at least 1 Troops card (or pass)")
    if action.count > len(troops):
        raise IllegalAction(Reason.TOO_MANY_CARDS, f"seat {seat} holds {len(troops)} Troops cards")
    cards = troops[:action.count]
    for card in cards:
        game.hands[seat].remove(card)
    game.troops[seat].extend(cards)
    game.sides[seat] = Side(action.side)
    game.emit(TroopsDeployed(seat, Side(action.side), tuple(cards)))
    game.windows[-1] = pass_turn(game.windows[-1], seat)
    windows.advance(game)


def _pass(game: StrikeGame, seat: int, action: Action) -> None:
    game.emit(Passed(seat, False))
    game.windows[-1] = pass_turn(game.windows[-1], seat)
    windows.advance(game)


def _spy(game: StrikeGame, seat: int, action: Action) -> None:
    assert isinstance(action, PlaySpy)
    card = _card(game, seat, Tactic.SPY)
    target = _opponent(game, seat, action.target, "Spy")
    windows.play_card(game, seat, TacticPlay(seat, Tactic.SPY, card, target=target))


def _expand(game: StrikeGame, seat: int, action: Action) -> None:
    assert isinstance(action, PlayExpand)
    card = _card(game, seat, Tactic.EXPAND)
    if action.continent_cards not in (False, True):
        raise IllegalAction(
            Reason.INVALID_DRAW, "Expand draws 2 continent cards (true) or 1 tactics"
        )
    play = TacticPlay(seat, Tactic.EXPAND, card, continent_cards=bool(action.continent_cards))
    windows.play_card(game, seat, play)


def _artillery(game: StrikeGame, seat: int, action: Action) -> None:
    assert isinstance(action, PlayArtillery)
    card = _card(game, seat, Tactic.ARTILLERY)
    target = _opponent(game, seat, action.target, "Artillery")
    if not game.troops[target]:
        raise IllegalAction(Reason.INVALID_TARGET, f"seat {target} has no active Troops")
    windows.play_card(game, seat, TacticPlay(seat, Tactic.ARTILLERY, card, target=target))


def _sabotage(game: StrikeGame, seat: int, action: Action) -> None:
    card = _card(game, seat, Tactic.SABOTAGE)
    windows.play_card(game, seat, TacticPlay(seat, Tactic.SABOTAGE, card))


def _in_battle(game: StrikeGame, seat: int, what: str) -> None:
    if game.sides[seat] == NO_SIDE:
        raise IllegalAction(
            Reason.NOT_IN_BATTLE, f"{what}: seat {seat} takes no part in the battle"
        )


def _rally(game: StrikeGame, seat: int, action: Action) -> None:
    card = _card(game, seat, Tactic.RALLY)
    _in_battle(game, seat, "Rally")
    windows.play_card(game, seat, TacticPlay(seat, Tactic.RALLY, card))


def _bombard(game: StrikeGame, seat: int, action: Action) -> None:
    assert isinstance(action, PlayBombard)
    card = _card(game, seat, Tactic.BOMBARD)
    _in_battle(game, seat, "Bombard")
    if action.side not in (Side.ATTACKER, Side.DEFENDER):
        raise IllegalAction(
            Reason.WRONG_SIDE, f"side {action.side} is neither attacker nor defender"
        )
    dice = game.attack_dice if action.side == Side.ATTACKER else game.defence_dice
    if not 0 <= action.die < len(dice) or dice[action.die] >= BOMBARD_VALUE:
        raise IllegalAction(
            Reason.NO_SUCH_DIE, f"no die below 6 at index {action.die} of that side"
        )
    windows.play_card(
        game, seat, TacticPlay(seat, Tactic.BOMBARD, card, side=int(action.side), die=action.die)
    )


def _cancel(game: StrikeGame, seat: int, action: Action) -> None:
    card = _card(game, seat, Tactic.CANCEL_ORDER)
    windows.play_card(game, seat, TacticPlay(seat, Tactic.CANCEL_ORDER, card))


def _roll_again(game: StrikeGame, seat: int, action: Action) -> None:
    battle.roll(game)
    windows.advance(game)


def _stop(game: StrikeGame, seat: int, action: Action) -> None:
    battle.end_battle(game, "stopped")


HANDLERS = {
    DrawCards: _draw,
    Attack: _attack,
    PassTurn: _pass_turn,
    Deploy: _deploy,
    Pass: _pass,
    PlaySpy: _spy,
    PlayExpand: _expand,
    PlayArtillery: _artillery,
    PlaySabotage: _sabotage,
    PlayRally: _rally,
    PlayBombard: _bombard,
    PlayCancelOrder: _cancel,
    RollAgain: _roll_again,
    StopAttack: _stop,
}


