"""Risk Strike described: its board is the six continents battles go between (linked as in
strike/cards.py, drawn by engine/strike/layout.json), its two decks and its options."""

from __future__ import annotations

import functools

from risk_proto.risk.v1 import variant_pb2
from risk_rules.descriptions import layout
from risk_rules.descriptions.notes import MAX_TURNS, Described, OptionNote
from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.core.graph import Board
from risk_rules.engine.strike.cards import (
    ALL_CARDS,
    CONTINENT_CARDS,
    CONTINENT_NAMES,
    DOMINATION,
    LINKS,
    continent_of,
    tactic_of,
)

_TACTICS = {
    "TROOPS": "deploy step: +1 die to its side while active",
    "ARTILLERY": "any time after deployment: one chosen player discards up to 2 active Troops",
    "SABOTAGE": "right after deployment: the battle ends, Troops go back to their owners' "
                "hands and the attacker's turn ends",
    "SPY": "any time in your turn: look at one player's hand, then draw 1 tactics card",
    "RALLY": "after a roll in a battle you take part in: +2 to each die of your side",
    "EXPAND": "any time in your turn: draw 2 continent cards or 1 tactics card",
    "BOMBARD": "after a roll: change any one die to 6, then re-pair the dice",
    "CANCEL_ORDER": "in answer to another player's tactics card: cancel it (not Troops)",
}


@functools.cache
def continent_map() -> variant_pb2.GameMap:
    graph = Board.build([("continents", 0, CONTINENT_NAMES)],
                        {CONTINENT_NAMES[c]: [CONTINENT_NAMES[o] for o in linked]
                         for c, linked in enumerate(LINKS)})
    board = layout.game_map(graph, layout.read("risk_rules.engine.strike"),
                            region_noun="continent", group_noun="",
                            groups=[-1] * len(CONTINENT_NAMES))
    # each continent in the colour the classic board gives it, so the two look alike
    colours = layout.read("risk_rules.engine.classic").group_colours
    for region in board.regions:
        region.tags.append(f"domination:{DOMINATION[region.id]}")
        region.colour = colours.get(region.name, "")
    return board


def decks() -> list[variant_pb2.Deck]:
    continents = variant_pb2.Deck(
        name="continent",
        description="one card per classic territory, laid face up; holding a continent's "
                    "domination number of its cards takes its coin (tag domination:N)",
    )
    for card in range(CONTINENT_CARDS):
        continent = continent_of(card)
        continents.cards.add(id=card, name=CLASSIC_BOARD.names[card], kind="continent",
                             region=continent, group=-1)
    tactics = variant_pb2.Deck(name="tactics", description="the hidden hand's cards")
    for card in range(CONTINENT_CARDS, ALL_CARDS):
        kind = tactic_of(card)
        tactics.cards.add(id=card, name=kind.name.replace("_", " ").title(), kind=kind.name,
                          region=-1, group=-1, text=_TACTICS[kind.name])
    return [continents, tactics]


OPTIONS = {
    "players": OptionNote("players"),
    "max_turns": MAX_TURNS,
    "auto_pass": OptionNote("pass for a seat asked in a window (or to deploy) with no card it "
                            "could play; this tells everyone that it had none"),
}


def describe() -> Described:
    return Described(title="Risk Strike", map=continent_map(), decks=decks(), options=OPTIONS)
