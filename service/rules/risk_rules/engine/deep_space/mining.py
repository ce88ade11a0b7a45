"""The start of a Deep Space turn: trading two cards for a recruit, and mining a planet for a gem
or an ore. Either closes once any other action is taken (`DeepSpaceGame.leave_mining`).
"""

from __future__ import annotations

from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.ruleset import Action
from risk_rules.engine.deep_space import checks
from risk_rules.engine.deep_space.model import (
    MINE_RECRUITS,
    TRADE_CARDS,
    CardsTraded,
    Mine,
    Mined,
    Phase,
    TradeCards,
)
from risk_rules.engine.deep_space.play import DeepSpaceGame, name_of


def trade(game: DeepSpaceGame, seat: int, action: Action) -> None:
    assert isinstance(action, TradeCards)
    cards = action.cards
    if len(cards) != TRADE_CARDS or list(cards) != sorted(set(cards)):
        raise IllegalAction(
            Reason.INVALID_SET, "a trade is two distinct card ids in ascending order"
        )
    for card in cards:
        checks.card_in_hand(game, seat, card)
    if game.supply[seat] < 1:
        raise IllegalAction(Reason.SUPPLY_EMPTY, "no recruit left in your supply")
    for card in cards:
        game.hands[seat].remove(card)
    game.to_discard(cards)
    placed = game.add_home(seat, 1)
    game.emit(CardsTraded(seat, cards, placed))


def trade_late(game: DeepSpaceGame, seat: int, action: Action) -> None:
    raise IllegalAction(Reason.TRADE_NOT_ALLOWED, "cards are traded at the start of the turn only")


def mine(game: DeepSpaceGame, seat: int, action: Action) -> None:
    assert isinstance(action, Mine)
    planet = checks.planet_on_board(game, action.planet)
    checks.recruits_at(game, seat, planet, MINE_RECRUITS, "mining")
    if planet in game.mined:
        raise IllegalAction(Reason.ALREADY_MINED, f"{name_of(planet)} was mined this turn")
    checks.bank_has(game, action.resource)
    game.mined.append(planet)
    game.take(seat, action.resource, 1)
    game.phase = Phase.MINING
    game.emit(Mined(seat, planet, action.resource))


def mine_late(game: DeepSpaceGame, seat: int, action: Action) -> None:
    raise IllegalAction(Reason.MINING_OVER, "mining comes before any other action of the turn")
