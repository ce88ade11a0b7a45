"""The checks the Deep Space handlers share, each raising the rule's reason code: places on the
board, recruit counts, gems and the bank, a crew's move, and every rule a card play must meet.

`check_card` has the last word on a card play: the listing of legal actions offers a
candidate only when it passes, so the two never disagree.
"""

from __future__ import annotations

from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD as BOARD
from risk_rules.engine.deep_space.board import NODES
from risk_rules.engine.deep_space.cards import card_type
from risk_rules.engine.deep_space.model import (
    NONE,
    CardKind,
    Cost,
    Move,
    PlayCard,
    Resource,
    Warp,
)
from risk_rules.engine.deep_space.play import DeepSpaceGame, name_of

CARD_FIELDS: dict[CardKind, frozenset[str]] = {
    CardKind.SPACE_DOG: frozenset({"planet"}),
    CardKind.FORCE_FIELD: frozenset({"planet"}),
    CardKind.METEOR_STRIKE: frozenset({"planet", "count"}),
    CardKind.HYPERJUMP: frozenset(),
    CardKind.REINFORCEMENTS: frozenset(),
    CardKind.GEM_RUSH: frozenset(),
    CardKind.ORE_HAUL: frozenset(),
    CardKind.BATTLE_CRY: frozenset(),
    CardKind.PROSPECTOR: frozenset({"planet", "resource"}),
    CardKind.SABOTAGE: frozenset({"target"}),
}
CARD_DEFAULTS: dict[str, object] = {
    "planet": NONE, "target": NONE, "count": 0, "resource": Resource.GEM,
}


def node_on_board(game: DeepSpaceGame, node: int) -> int:
    """A place on the board that exists for this game: a planet in play or a used station."""
    if not 0 <= node < NODES or not game.in_play[node]:
        raise IllegalAction(Reason.NO_SUCH_PLANET, f"{name_of(node)} is not on this game's board")
    return node


def planet_on_board(game: DeepSpaceGame, node: int) -> int:
    node_on_board(game, node)
    if BOARD.is_station(node):
        raise IllegalAction(Reason.HOME_STATION, f"{name_of(node)} is a home station, not a planet")
    return node


def recruit_count(count: int, high: int, what: str) -> None:
    if count < 1:
        raise IllegalAction(Reason.TOO_FEW_RECRUITS, f"{what}: at least 1 recruit, got {count}")
    if count > high:
        raise IllegalAction(Reason.TOO_MANY_RECRUITS, f"{what}: at most {high}, got {count}")


def recruits_at(game: DeepSpaceGame, seat: int, node: int, least: int, what: str) -> None:
    have = game.recruits[seat][node]
    if have < least:
        raise IllegalAction(
            Reason.NOT_ENOUGH_RECRUITS,
            f"{what} needs {least} of your recruits on {name_of(node)}; you have {have}",
        )


def gems_for(game: DeepSpaceGame, seat: int, least: int, what: str) -> None:
    if game.gems[seat] < least:
        raise IllegalAction(Reason.NOT_ENOUGH_GEMS, f"{what} costs {least} gem(s); you have "
                            f"{game.gems[seat]}")


def bank_has(game: DeepSpaceGame, resource: Resource) -> None:
    if game.bank(resource) < 1:
        raise IllegalAction(Reason.BANK_EMPTY, f"the bank has no {resource.name.lower()} left")


def crew(game: DeepSpaceGame, seat: int, action: Move | Warp) -> None:
    """The checks a move and a warp share once origin and destination are known to exist."""
    origin, destination = action.origin, action.destination
    if BOARD.is_station(destination):
        raise IllegalAction(Reason.HOME_STATION, "recruits never enter a home station")
    if origin == destination:
        raise IllegalAction(Reason.SAME_PLANET, "a move goes to another planet")
    if game.moves_left < 1:
        raise IllegalAction(Reason.NO_MOVES_LEFT, "no moves left this turn")
    recruit_count(action.count, game.recruits[seat][origin], f"a crew from {name_of(origin)}")
    dogs = game.dogs[seat][origin]
    if action.with_dog and not dogs:
        raise IllegalAction(Reason.NO_DOG, f"you have no space dog on {name_of(origin)}")
    if dogs and not action.with_dog and action.count == game.recruits[seat][origin]:
        raise IllegalAction(Reason.DOG_MUST_FOLLOW, "a space dog stays with at least one recruit")
    if game.shielded(seat, destination):
        raise IllegalAction(
            Reason.FORCE_FIELD, f"an opponent's force field protects {name_of(destination)}"
        )


def card_in_hand(game: DeepSpaceGame, seat: int, card: int) -> None:
    if card not in game.hands[seat]:
        raise IllegalAction(Reason.CARD_NOT_IN_HAND, f"card {card} is not in seat {seat}'s hand")


def check_card(game: DeepSpaceGame, seat: int, action: PlayCard) -> None:
    """Every rule a card play must meet. The cost is paid first, so the card's own conditions
    are checked on the board as it is after paying."""
    card_in_hand(game, seat, action.card)
    spec = card_type(action.card)
    for field, default in CARD_DEFAULTS.items():
        if field not in CARD_FIELDS[spec.kind] and getattr(action, field) != default:
            raise IllegalAction(Reason.UNUSED_FIELD, f"{spec.name} takes no {field}")
    after = list(game.recruits[seat])
    if spec.cost is Cost.RECRUIT:
        if not 0 <= action.pay_from < NODES or not game.in_play[action.pay_from] or \
                game.recruits[seat][action.pay_from] < 1:
            raise IllegalAction(Reason.INVALID_PAYMENT,
                                f"{spec.name} costs a recruit: pay_from must hold one of yours")
        after[action.pay_from] -= 1
    elif action.pay_from != NONE:
        raise IllegalAction(
            Reason.INVALID_PAYMENT, f"{spec.name} costs no recruit: pay_from must be -1"
        )
    if spec.cost is Cost.GEM:
        gems_for(game, seat, 1, spec.name)
    kind = spec.kind
    if kind in (CardKind.SPACE_DOG, CardKind.FORCE_FIELD, CardKind.PROSPECTOR):
        planet = planet_on_board(game, action.planet)
        if after[planet] < 1:
            raise IllegalAction(Reason.NOT_ENOUGH_RECRUITS,
                                f"{spec.name} needs your recruits on {name_of(planet)}")
        if kind is CardKind.SPACE_DOG and game.dogs_in_bank() < 1:
            raise IllegalAction(Reason.BANK_EMPTY, "every space-dog token is in play")
        if kind is CardKind.FORCE_FIELD:
            if game.force_fields[planet] != NONE:
                raise IllegalAction(
                    Reason.FORCE_FIELD, f"{name_of(planet)} already has a force field"
                )
            if game.fields_in_bank() < 1:
                raise IllegalAction(Reason.BANK_EMPTY, "every force-field token is in play")
        if kind is CardKind.PROSPECTOR:
            bank_has(game, action.resource)
    elif kind is CardKind.METEOR_STRIKE:
        planet = planet_on_board(game, action.planet)
        victim = game.occupant(planet, seat)
        if victim == NONE:
            raise IllegalAction(Reason.INVALID_TARGET, f"no opponent recruits on {name_of(planet)}")
        if not any(game.is_planet(n) and after[n] > 0 for n in BOARD.links[planet]):
            raise IllegalAction(
                Reason.NOT_ADJACENT,
                f"{name_of(planet)} is not linked to a planet where you have recruits",
            )
        recruit_count(action.count, min(spec.amount, game.recruits[victim][planet]), spec.name)
    elif kind is CardKind.BATTLE_CRY:
        if game.battle_cry:
            raise IllegalAction(
                Reason.CARD_NOT_PLAYABLE, "a Battle Cry is already waiting for a battle"
            )
    elif kind is CardKind.SABOTAGE:
        target = action.target
        if not 0 <= target < game.seats or target == seat or game.out[target]:
            raise IllegalAction(
                Reason.NOT_AN_OPPONENT, f"seat {target} is not an opponent in the game"
            )
