"""Risk Legacy actions as protobuf messages: one typed builder per action of the contract.

Territories are the classic map's (ids 0-41 or names in any case); cards are named by their
resource values, high to low (`buy-red-star 3 2 1 1`); sides are `attacker` or `defender`.
Each builder returns a ready `game_pb2.Action`, and `risk submit GAME VERB ...` reads its words
off these builders (`risk_client.grammar`): `place-hq Alaska`, `attack Alaska Kamchatka 3`,
`fire-missile defender 0`, `take-card 2`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from risk_client.grammar import Choice, Verbs
from risk_client.places import Places
from risk_proto.risk.v1 import game_pb2, legacy_pb2
from risk_rules.engine.classic.board import CLASSIC_BOARD

TERRITORIES = Places("territory", CLASSIC_BOARD.names)
SIDES = Choice("side", {"attacker": legacy_pb2.LEGACY_SIDE_ATTACKER,
                        "defender": legacy_pb2.LEGACY_SIDE_DEFENDER})
Territory = Annotated[int | str, TERRITORIES]
Side = Annotated[int | str, SIDES]
_A = legacy_pb2.LegacyAction


def _legacy(**case: object) -> game_pb2.Action:
    return game_pb2.Action(legacy=_A(**case))  # type: ignore[arg-type]


def place_hq(territory: Territory) -> game_pb2.Action:
    """Setup: your HQ and starting troops on a legal starting territory."""
    return _legacy(place_hq=_A.PlaceHq(territory=TERRITORIES.find(territory)))


def play_scar(territory: Territory) -> game_pb2.Action:
    """Scar window: your scar card on a territory without a scar."""
    return _legacy(play_scar=_A.PlayScar(territory=TERRITORIES.find(territory)))


def pass_() -> game_pb2.Action:
    """Decline when a window asks."""
    return _legacy(**{"pass": _A.Pass()})


def buy_red_star(values: Sequence[int]) -> game_pb2.Action:
    """Start of turn: 4 cards, named by their values, for a Red Star."""
    return _legacy(buy_red_star=_A.BuyRedStar(values=sorted(values, reverse=True)))


def join_war(territory: Territory) -> game_pb2.Action:
    """Start of turn holding no territory: 4 troops on a legal starting territory."""
    return _legacy(join_war=_A.JoinWar(territory=TERRITORIES.find(territory)))


def trade_resources(values: Sequence[int]) -> game_pb2.Action:
    """Recruit, once a turn: cards worth 2+ resources (their values) for troops."""
    return _legacy(trade_resources=_A.TradeResources(values=sorted(values, reverse=True)))


def place_troops(territory: Territory, count: int) -> game_pb2.Action:
    """Place recruited troops on your territory."""
    return _legacy(place_troops=_A.PlaceTroops(territory=TERRITORIES.find(territory),
                                               count=count))


def expand(from_territory: Territory, to_territory: Territory, count: int) -> game_pb2.Action:
    """Move troops into an adjacent unoccupied territory."""
    return _legacy(expand=_A.Expand(from_territory=TERRITORIES.find(from_territory),
                                    to_territory=TERRITORIES.find(to_territory), count=count))


def attack(from_territory: Territory, to_territory: Territory, dice: int) -> game_pb2.Action:
    """Attack an adjacent enemy territory with 1 to 3 dice."""
    return _legacy(attack=_A.Attack(from_territory=TERRITORIES.find(from_territory),
                                    to_territory=TERRITORIES.find(to_territory), dice=dice))


def defend(dice: int) -> game_pb2.Action:
    """Defend the pending attack with 1 or 2 dice."""
    return _legacy(defend=_A.Defend(dice=dice))


def fire_missile(side: Side, die: int) -> game_pb2.Action:
    """Missile window: a side's die (index from the highest, 0 first) becomes a 6."""
    return _legacy(fire_missile=_A.FireMissile(side=SIDES.number(side), die=die))


def move_in(count: int) -> game_pb2.Action:
    """Move troops into the territory just conquered."""
    return _legacy(move_in=_A.MoveIn(count=count))


def end_attack() -> game_pb2.Action:
    """Stop attacking."""
    return _legacy(end_attack=_A.EndAttack())


def maneuver(from_territory: Territory, to_territory: Territory, count: int
             ) -> game_pb2.Action:
    """The turn's one maneuver between your territories."""
    return _legacy(maneuver=_A.Maneuver(from_territory=TERRITORIES.find(from_territory),
                                        to_territory=TERRITORIES.find(to_territory),
                                        count=count))


def end_turn() -> game_pb2.Action:
    """Skip the maneuver and end the turn (at the start: give up a join with no territory)."""
    return _legacy(end_turn=_A.EndTurn())


def take_card(slot: int) -> game_pb2.Action:
    """End of turn: take the face-up card in slot 0-3."""
    return _legacy(take_card=_A.TakeCard(slot=slot))


VERBS = Verbs("legacy", [
    place_hq, play_scar, pass_, buy_red_star, join_war, trade_resources, place_troops, expand,
    attack, defend, fire_missile, move_in, end_attack, maneuver, end_turn, take_card,
])
