"""Risk: Deep Space actions as protobuf messages: one typed builder per action of the contract.

Planets and home stations are ids in the board's order or their names in any case ("red
station", "Nova Prime"); cards are ids 0-35 (`risk show` lists each hand with its ids);
resources are `gem` or `ore`. Each builder returns a ready `game_pb2.Action`, and
`risk submit GAME VERB ...` reads its words off these builders (`risk_client.grammar`):
`mine Mars ore`, `move 'Red Station' Mars 2 with-dog`, `play-card 12 planet=Mars count=2`,
`end-turn discard=7`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from risk_client.grammar import SEAT, Choice, Labelled, Verbs
from risk_client.places import Places
from risk_proto.risk.v1 import deep_space_pb2, game_pb2
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD
from risk_rules.engine.deep_space.cards import DECK_SIZE, card_type

NODES = Places("planet or station", DEEP_SPACE_BOARD.names)
RESOURCES = Choice("resource", {"gem": deep_space_pb2.DEEP_SPACE_RESOURCE_GEM,
                                "ore": deep_space_pb2.DEEP_SPACE_RESOURCE_ORE})


def card_label(card: int) -> str:
    """"Meteor Strike (card 12)"."""
    if 0 <= card < DECK_SIZE:
        return f"{card_type(card).name} (card {card})"
    return f"card #{card}"


Node = Annotated[int | str, NODES]
Resource = Annotated[int | str, RESOURCES]
Card = Annotated[int, Labelled(card_label)]
Seat = Annotated[int, SEAT]
_A = deep_space_pb2.DeepSpaceAction


def _deep_space(**case: object) -> game_pb2.Action:
    return game_pb2.Action(deep_space=_A(**case))  # type: ignore[arg-type]


def trade_cards(cards: Sequence[int]) -> game_pb2.Action:
    """Start of turn: two cards for one recruit on your home station."""
    return _deep_space(trade_cards=_A.TradeCards(cards=sorted(cards)))


def mine(planet: Node, resource: Resource) -> game_pb2.Action:
    """Before acting: 1 gem or 1 ore from a planet where you have 2+ recruits."""
    return _deep_space(mine=_A.Mine(planet=NODES.find(planet), resource=RESOURCES.number(resource)))


def recruit(count: int) -> game_pb2.Action:
    """Buy this many recruits at 1 gem each, onto your home station."""
    return _deep_space(recruit=_A.Recruit(count=count))


def move(origin: Node, destination: Node, count: int, with_dog: bool = False
         ) -> game_pb2.Action:
    """Move a crew along a link (with-dog: your space dogs there go too)."""
    return _deep_space(move=_A.Move(origin=NODES.find(origin),
                                    destination=NODES.find(destination),
                                    count=count, with_dog=with_dog))


def warp(origin: Node, destination: Node, count: int, with_dog: bool = False
         ) -> game_pb2.Action:
    """Move a crew through the gem warp between two warp planets (1 gem)."""
    return _deep_space(warp=_A.Warp(origin=NODES.find(origin),
                                    destination=NODES.find(destination),
                                    count=count, with_dog=with_dog))


def build_base(planet: Node) -> game_pb2.Action:
    """Build a base (3 ore) on a planet with 3+ of your recruits."""
    return _deep_space(build_base=_A.BuildBase(planet=NODES.find(planet)))


def play_card(
    card: Card,
    *,
    planet: Node | None = None,
    target: Seat | None = None,
    count: int | None = None,
    resource: Resource | None = None,
    pay_from: Node | None = None,
) -> game_pb2.Action:
    """Play an action card; name only the fields the card reads."""
    message = _A.PlayCard(card=card)
    if planet is not None:
        message.planet = NODES.find(planet)
    if target is not None:
        message.target = target
    if count is not None:
        message.count = count
    if resource is not None:
        message.resource = RESOURCES.number(resource)
    if pay_from is not None:
        message.pay_from = NODES.find(pay_from)
    return _deep_space(play_card=message)


def relocate_dog(planet: Node) -> game_pb2.Action:
    """Space dog decision: the dogs of the emptied planet go to another of your planets."""
    return _deep_space(relocate_dog=_A.RelocateDog(planet=NODES.find(planet)))


def return_dog() -> game_pb2.Action:
    """Space dog decision: the dogs of the emptied planet go back to the bank."""
    return _deep_space(return_dog=_A.ReturnDog())


def end_turn(discard: Card | None = None) -> game_pb2.Action:
    """Replenish, optionally discard a card and draw one, and pass the turn."""
    message = _A.EndTurn()
    if discard is not None and discard >= 0:
        message.discard = discard
    return _deep_space(end_turn=message)


VERBS = Verbs("deep_space", [
    trade_cards, mine, recruit, move, warp, build_base, play_card, relocate_dog, return_dog,
    end_turn,
])
