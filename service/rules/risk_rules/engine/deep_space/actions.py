"""Deep Space's actions: one handler per (phase, action) pair the rules allow, dispatch, and a
seat resigning.

`apply` checks the action against the decision, finds the handler for the phase, copies the
state into a `DeepSpaceGame`, runs it and freezes the result. Trades and mining are in
mining.py, card plays in card_plays.py; the handlers here are the rest of the turn.
"""

from __future__ import annotations

from collections.abc import Callable

from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.guards import check_action
from risk_rules.engine.core.ruleset import Action, Event
from risk_rules.engine.deep_space import battle, card_plays, checks, listings, mining
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD as BOARD
from risk_rules.engine.deep_space.board import NODES
from risk_rules.engine.deep_space.model import (
    ACTION_TYPES,
    BASE_ORE,
    BASE_RECRUITS,
    BASES_PER_COLOUR,
    NONE,
    WINNING_BASES,
    BaseBuilt,
    BuildBase,
    DeepSpaceState,
    DogRelocated,
    EndTurn,
    Mine,
    Move,
    Phase,
    PlayCard,
    PlayerResigned,
    Recruit,
    Recruited,
    RelocateDog,
    ReturnDog,
    TradeCards,
    TurnEnded,
    Warp,
)
from risk_rules.engine.deep_space.play import DeepSpaceGame, name_of

ACTING_PHASES = (Phase.START, Phase.MINING, Phase.MAIN)


def apply(state: DeepSpaceState, seat: int, action: Action
          ) -> tuple[DeepSpaceState, list[Event]]:
    check_action(action, ACTION_TYPES, "Deep Space", seat=seat, players=state.options.players,
                 finished=state.phase is Phase.FINISHED,
                 deciding=listings.decision(state).seats)
    handler = HANDLERS.get((state.phase, type(action)))
    if handler is None:
        raise IllegalAction(
            Reason.WRONG_PHASE,
            f"{type(action).__name__} is not allowed in phase {state.phase.name}",
        )
    game = DeepSpaceGame(state)
    handler(game, seat, action)
    return game.freeze(), game.events


def resign(game: DeepSpaceGame, seat: int) -> None:
    """The seat's recruits go back to its supply, its dogs and force fields to the bank,
    its gems and ore to the bank, its cards to the discard pile; its bases stay (bases
    are never removed) but count for nobody."""
    for node in range(NODES):
        game.supply[seat] += game.recruits[seat][node]
        game.recruits[seat][node] = 0
        game.dogs[seat][node] = 0
        if game.force_fields[node] == seat:
            game.force_fields[node] = NONE
    game.bank_gems += game.gems[seat]
    game.bank_ore += game.ore[seat]
    game.gems[seat] = game.ore[seat] = 0
    game.to_discard(sorted(game.hands[seat]))
    game.hands[seat] = []
    game.out[seat] = True
    game.out_order = (*game.out_order, seat)
    game.emit(PlayerResigned(seat))
    live = game.live_seats()
    if len(live) == 1:
        game.finish(live[0], "resignation")
        return
    if game.phase is Phase.DOG and game.dog_seat == seat:
        game.dog_planet = game.dog_seat = NONE
        game.phase = Phase.MAIN
        if game.out[game.current]:  # cannot happen: the dog's owner is not the mover
            game.start_turn(game.next_live_seat(game.current))
        return
    if seat == game.current:
        game.battle_cry = False
        game.emit(TurnEnded(seat))
        if game.phase is not Phase.DOG:  # else the dog's owner decides first
            game.start_turn(game.next_live_seat(seat))


def _recruit(game: DeepSpaceGame, seat: int, action: Action) -> None:
    assert isinstance(action, Recruit)
    if action.count < 1:
        raise IllegalAction(Reason.TOO_FEW_RECRUITS, f"recruit at least 1, got {action.count}")
    checks.gems_for(game, seat, action.count, f"{action.count} recruit(s)")
    if action.count > game.supply[seat]:
        raise IllegalAction(
            Reason.SUPPLY_EMPTY, f"only {game.supply[seat]} recruits left in supply"
        )
    game.leave_mining()
    game.pay_gems(seat, action.count)
    game.add_home(seat, action.count)
    game.emit(Recruited(seat, action.count))


def _move(game: DeepSpaceGame, seat: int, action: Action) -> None:
    assert isinstance(action, Move)
    origin = checks.node_on_board(game, action.origin)
    destination = checks.node_on_board(game, action.destination)
    if destination not in BOARD.links[origin]:
        raise IllegalAction(
            Reason.NOT_ADJACENT, f"{name_of(origin)} is not linked to {name_of(destination)}"
        )
    checks.crew(game, seat, action)
    game.leave_mining()
    battle.move(game, seat, action)


def _warp(game: DeepSpaceGame, seat: int, action: Action) -> None:
    assert isinstance(action, Warp)
    origin = checks.node_on_board(game, action.origin)
    destination = checks.node_on_board(game, action.destination)
    for node in (origin, destination):
        if node not in BOARD.warp:
            raise IllegalAction(
                Reason.NOT_WARP_PLANET, f"{name_of(node)} is not linked to the gem warp"
            )
    checks.crew(game, seat, action)
    checks.gems_for(game, seat, 1, "the gem warp")
    game.leave_mining()
    game.pay_gems(seat, 1)
    battle.move(game, seat, action)


def _build(game: DeepSpaceGame, seat: int, action: Action) -> None:
    assert isinstance(action, BuildBase)
    planet = checks.planet_on_board(game, action.planet)
    checks.recruits_at(game, seat, planet, BASE_RECRUITS, "a base")
    if game.ore[seat] < BASE_ORE:
        raise IllegalAction(Reason.NOT_ENOUGH_ORE, f"a base costs {BASE_ORE} ore; you have "
                            f"{game.ore[seat]}")
    if planet in game.bases[seat]:
        raise IllegalAction(Reason.BASE_EXISTS, f"you already have a base on {name_of(planet)}")
    if len(game.bases[seat]) >= BASES_PER_COLOUR:
        raise IllegalAction(Reason.SUPPLY_EMPTY, "every one of your bases is built")
    game.leave_mining()
    game.ore[seat] -= BASE_ORE
    game.bank_ore += BASE_ORE
    game.bases[seat].append(planet)
    game.emit(BaseBuilt(seat, planet, len(game.bases[seat])))
    if len(game.bases[seat]) >= WINNING_BASES[game.seats]:
        game.finish(seat, "bases")


def _relocate(game: DeepSpaceGame, seat: int, action: Action) -> None:
    assert isinstance(action, RelocateDog)
    planet = checks.planet_on_board(game, action.planet)
    if planet == game.dog_planet:
        raise IllegalAction(Reason.SAME_PLANET, "the dog must leave the emptied planet")
    checks.recruits_at(game, seat, planet, 1, "a space dog")
    dogs = game.dogs[seat][game.dog_planet]
    game.dogs[seat][game.dog_planet] = 0
    game.dogs[seat][planet] += dogs
    game.emit(DogRelocated(seat, game.dog_planet, planet, dogs))
    game.after_dog()


def _return_dog(game: DeepSpaceGame, seat: int, action: Action) -> None:
    game.return_dogs(seat, game.dog_planet)
    game.after_dog()


def _end_turn(game: DeepSpaceGame, seat: int, action: Action) -> None:
    assert isinstance(action, EndTurn)
    if action.discard != NONE:
        checks.card_in_hand(game, seat, action.discard)
    game.end_turn(action.discard)


_Handler = Callable[[DeepSpaceGame, int, Action], None]
HANDLERS: dict[tuple[Phase, type[Action]], _Handler] = {
    (Phase.START, TradeCards): mining.trade,
    (Phase.MINING, TradeCards): mining.trade_late,
    (Phase.MAIN, TradeCards): mining.trade_late,
    (Phase.START, Mine): mining.mine,
    (Phase.MINING, Mine): mining.mine,
    (Phase.MAIN, Mine): mining.mine_late,
    (Phase.DOG, RelocateDog): _relocate,
    (Phase.DOG, ReturnDog): _return_dog,
}
for _phase in ACTING_PHASES:
    HANDLERS[(_phase, Recruit)] = _recruit
    HANDLERS[(_phase, Move)] = _move
    HANDLERS[(_phase, Warp)] = _warp
    HANDLERS[(_phase, BuildBase)] = _build
    HANDLERS[(_phase, PlayCard)] = card_plays.play
    HANDLERS[(_phase, EndTurn)] = _end_turn
