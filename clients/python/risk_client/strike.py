"""Risk Strike actions as protobuf messages: one typed builder per action of the contract.

Continents are ids 0-5 in the rules' order (North America, South America, Europe, Africa, Asia,
Australia) or their names in any case; seats are numbers. Each builder returns a ready
`game_pb2.Action`, and the command line's `risk submit GAME VERB ...` reads its words off these
builders (`risk_client.grammar`), so every action here is a verb there: `draw-cards 1`,
`attack 2 Asia Europe`, `deploy attacker 2`, `play-bombard defender 0`, `pass`.
"""

from __future__ import annotations

from typing import Annotated

from risk_client.grammar import SEAT, Choice, Verbs
from risk_client.places import Places
from risk_proto.risk.v1 import game_pb2, strike_pb2
from risk_rules.engine.strike.cards import CONTINENT_NAMES

CONTINENTS = Places("continent", CONTINENT_NAMES)
SIDES = Choice("side", {"attacker": strike_pb2.STRIKE_SIDE_ATTACKER,
                        "defender": strike_pb2.STRIKE_SIDE_DEFENDER})
Continent = Annotated[int | str, CONTINENTS]
Side = Annotated[int | str, SIDES]
Seat = Annotated[int, SEAT]
_A = strike_pb2.StrikeAction


def _strike(**case: object) -> game_pb2.Action:
    return game_pb2.Action(strike=_A(**case))  # type: ignore[arg-type]


def draw_cards(continent_cards: int) -> game_pb2.Action:
    """Start of turn: draw 2 cards, this many (0 to 2) of them continent cards."""
    return _strike(draw_cards=_A.DrawCards(continent_cards=continent_cards))


def attack(defender: Seat, from_continent: Continent, to_continent: Continent
           ) -> game_pb2.Action:
    """Attack a seat: from a continent you hold cards of, into a linked one it holds."""
    return _strike(attack=_A.Attack(defender=defender,
                                    from_continent=CONTINENTS.find(from_continent),
                                    to_continent=CONTINENTS.find(to_continent)))


def pass_turn() -> game_pb2.Action:
    """Instead of attacking: draw one tactics card and end the turn."""
    return _strike(pass_turn=_A.PassTurn())


def deploy(side: Side, count: int) -> game_pb2.Action:
    """Deploy step: this many Troops cards for the attacker's or the defender's side."""
    return _strike(deploy=_A.Deploy(side=SIDES.number(side), count=count))


def pass_() -> game_pb2.Action:
    """Decline when asked: play nothing in a window, deploy nothing."""
    return _strike(**{"pass": _A.Pass()})


def play_spy(target: Seat) -> game_pb2.Action:
    """Spy (own turn): see a seat's hand, then draw a tactics card."""
    return _strike(play_spy=_A.PlaySpy(target=target))


def play_expand(continent_cards: bool = False) -> game_pb2.Action:
    """Expand: draw 2 continent cards (continent-cards) or 1 tactics card."""
    return _strike(play_expand=_A.PlayExpand(continent_cards=continent_cards))


def play_artillery(target: Seat) -> game_pb2.Action:
    """Artillery: a seat in the battle loses an active Troops card."""
    return _strike(play_artillery=_A.PlayArtillery(target=target))


def play_sabotage() -> game_pb2.Action:
    """Sabotage: after deploying, the other side loses a Troops card."""
    return _strike(play_sabotage=_A.PlaySabotage())


def play_rally() -> game_pb2.Action:
    """Rally: after a roll, +2 to each die of your side."""
    return _strike(play_rally=_A.PlayRally())


def play_bombard(side: Side, die: int) -> game_pb2.Action:
    """Bombard: after a roll, change one die (index from the highest, 0 first) of a side."""
    return _strike(play_bombard=_A.PlayBombard(side=SIDES.number(side), die=die))


def play_cancel_order() -> game_pb2.Action:
    """Cancel Order: cancel the tactics card just played."""
    return _strike(play_cancel_order=_A.PlayCancelOrder())


def roll_again() -> game_pb2.Action:
    """The attacker rolls again."""
    return _strike(roll_again=_A.RollAgain())


def stop_attack() -> game_pb2.Action:
    """The attacker stops the attack."""
    return _strike(stop_attack=_A.StopAttack())


VERBS = Verbs("strike", [
    draw_cards, attack, pass_turn, deploy, pass_, play_spy, play_expand, play_artillery,
    play_sabotage, play_rally, play_bombard, play_cancel_order, roll_again, stop_attack,
])
