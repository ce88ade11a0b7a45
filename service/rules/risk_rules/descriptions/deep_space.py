"""Risk Deep Space described: the board of engine/deep_space/board.json drawn by its
layout.json (quadrants, the gem warp as a hub, each seat count's stations and covered
planets), the action deck of deck.json and the options."""

from __future__ import annotations

import functools

from risk_proto.risk.v1 import variant_pb2
from risk_rules.descriptions import layout
from risk_rules.descriptions.notes import MAX_TURNS, Described, OptionNote
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD as BOARD
from risk_rules.engine.deep_space.cards import CARD_KINDS, card_type

# what each node is, by the rules reference's letters (board.json lists planets A, B, C, I, E
# per quadrant in that order)
_RINGS = {"A": "outer", "B": "outer", "C": "corner", "I": "inner", "E": "edge"}
_QUADRANTS = ("Red quadrant", "Blue quadrant", "Green quadrant", "Yellow quadrant")


@functools.cache
def space_map() -> variant_pb2.GameMap:
    drawn = layout.read("risk_rules.engine.deep_space")
    kinds = ["planet" if BOARD.is_planet(n) else "station" for n in range(BOARD.size)]
    board = layout.game_map(BOARD.graph, drawn, region_noun="planet", group_noun="quadrant",
                            kinds=kinds, groups=BOARD.quadrant)
    rings = _rings()
    for region in board.regions:
        if BOARD.is_station(region.id):
            region.colour = BOARD.colour(region.id)
            region.tags.append("home")
        else:
            region.tags.append(rings[region.id])
        if region.id in BOARD.warp:
            region.tags.append("warp")
    for quadrant, name in enumerate(_QUADRANTS):
        members = [n for n in range(BOARD.size) if BOARD.quadrant[n] == quadrant]
        board.groups.add(id=quadrant, name=name, bonus=0, members=members,
                         colour=drawn.group_colours.get(name, ""))
    board.hubs.append(layout.hub(
        drawn, "Gem Warp", BOARD.warp,
        "pay 1 gem to move from any warp planet to any other (one move)"))
    for players, seats in sorted(BOARD.layouts.items()):
        board.layouts.add(players=players, homes=seats.stations,
                          out_of_play=[n for n, live in enumerate(seats.in_play) if not live])
    return board


def _rings() -> dict[int, str]:
    """Each planet's ring, from the order board.json lists planets in (4 of each letter)."""
    letters = "ABCIE"
    return {n: _RINGS[letters[n // 4]] for n in range(BOARD.planets)}


def action_deck() -> variant_pb2.Deck:
    deck = variant_pb2.Deck(name="action",
                            description="action cards, held face up (hands are public)")
    for card in range(len(CARD_KINDS)):
        kind = card_type(card)
        deck.cards.add(id=card, name=kind.name, kind=kind.kind.name, region=-1, group=-1,
                       value=kind.amount,
                       cost="" if kind.cost.name == "FREE" else kind.cost.name.lower(),
                       text=kind.text)
    return deck


OPTIONS = {
    "players": OptionNote("players; 2 use stations 0 and 2 and cover two corner planets"),
    "max_turns": MAX_TURNS,
}


def describe() -> Described:
    return Described(title="Risk: Deep Space", map=space_map(), decks=[action_deck()],
                     options=OPTIONS)
