"""A Deep Space action card played: the checks, the cost paid, the card announced, and one effect
per card kind (the deck's numbers come from `deck.json` through `cards.card_type`).
"""

from __future__ import annotations

from collections.abc import Callable

from risk_rules.engine.core.ruleset import Action
from risk_rules.engine.deep_space import checks
from risk_rules.engine.deep_space.cards import card_type
from risk_rules.engine.deep_space.model import (
    NONE,
    CardKind,
    CardPlayed,
    Cost,
    DogPlaced,
    ForceFieldPlaced,
    Mined,
    OreReturned,
    Phase,
    PlayCard,
    RecruitsPlaced,
    RecruitsRemoved,
    Resource,
    ResourcesTaken,
)
from risk_rules.engine.deep_space.play import DeepSpaceGame


def play(game: DeepSpaceGame, seat: int, action: Action) -> None:
    assert isinstance(action, PlayCard)
    checks.check_card(game, seat, action)
    spec = card_type(action.card)
    game.leave_mining()
    game.hands[seat].remove(action.card)
    game.to_discard((action.card,))
    gems_paid = 0
    if spec.cost is Cost.GEM:
        game.pay_gems(seat, 1)
        gems_paid = 1
    recruit_from = action.pay_from if spec.cost is Cost.RECRUIT else NONE
    game.emit(CardPlayed(seat, action.card, spec.kind, action.planet, action.target,
                         action.count, gems_paid, recruit_from))
    if recruit_from != NONE:
        game.remove_own(seat, recruit_from, 1)
    EFFECTS[spec.kind](game, seat, action, spec.amount)


def _space_dog(game: DeepSpaceGame, seat: int, action: PlayCard, amount: int) -> None:
    game.dogs[seat][action.planet] += 1
    game.emit(DogPlaced(seat, action.planet))


def _force_field(game: DeepSpaceGame, seat: int, action: PlayCard, amount: int) -> None:
    game.force_fields[action.planet] = seat
    game.emit(ForceFieldPlaced(seat, action.planet))


def _meteor_strike(game: DeepSpaceGame, seat: int, action: PlayCard, amount: int) -> None:
    planet = action.planet
    victim = game.occupant(planet, seat)
    game.recruits[victim][planet] -= action.count
    game.supply[victim] += action.count
    game.emit(RecruitsRemoved(victim, planet, action.count))
    if game.recruits[victim][planet] == 0 and game.dogs[victim][planet]:
        if game.dog_destinations(victim, planet):
            game.phase = Phase.DOG
            game.dog_planet, game.dog_seat = planet, victim
        else:
            game.return_dogs(victim, planet)


def _hyperjump(game: DeepSpaceGame, seat: int, action: PlayCard, amount: int) -> None:
    game.moves_left += amount


def _reinforcements(game: DeepSpaceGame, seat: int, action: PlayCard, amount: int) -> None:
    placed = game.add_home(seat, amount)
    game.emit(RecruitsPlaced(seat, game.stations[seat], placed))


def _gem_rush(game: DeepSpaceGame, seat: int, action: PlayCard, amount: int) -> None:
    game.emit(ResourcesTaken(seat, Resource.GEM, game.take_gems(seat, amount)))


def _ore_haul(game: DeepSpaceGame, seat: int, action: PlayCard, amount: int) -> None:
    game.emit(ResourcesTaken(seat, Resource.ORE, game.take_ore(seat, amount)))


def _battle_cry(game: DeepSpaceGame, seat: int, action: PlayCard, amount: int) -> None:
    game.battle_cry = True


def _prospector(game: DeepSpaceGame, seat: int, action: PlayCard, amount: int) -> None:
    game.take(seat, action.resource, amount)
    game.emit(Mined(seat, action.planet, action.resource))


def _sabotage(game: DeepSpaceGame, seat: int, action: PlayCard, amount: int) -> None:
    target = action.target
    lost = min(amount, game.ore[target])
    game.ore[target] -= lost
    game.bank_ore += lost
    game.emit(OreReturned(target, lost))


_Effect = Callable[[DeepSpaceGame, int, PlayCard, int], None]
EFFECTS: dict[CardKind, _Effect] = {
    CardKind.SPACE_DOG: _space_dog,
    CardKind.FORCE_FIELD: _force_field,
    CardKind.METEOR_STRIKE: _meteor_strike,
    CardKind.HYPERJUMP: _hyperjump,
    CardKind.REINFORCEMENTS: _reinforcements,
    CardKind.GEM_RUSH: _gem_rush,
    CardKind.ORE_HAUL: _ore_haul,
    CardKind.BATTLE_CRY: _battle_cry,
    CardKind.PROSPECTOR: _prospector,
    CardKind.SABOTAGE: _sabotage,
}
