"""Classic Risk described: the world map (drawn by engine/classic/layout.json), the 44-card
territory deck and the options' meanings."""

from __future__ import annotations

import functools

from risk_proto.risk.v1 import variant_pb2
from risk_rules.descriptions import layout
from risk_rules.descriptions.notes import MAX_TURNS, Described, OptionNote
from risk_rules.engine.classic.board import (
    CLASSIC_BOARD,
    DECK_SIZE,
    SYMBOL_NAMES,
    card_symbol,
    card_territory,
)


@functools.cache
def world_map() -> variant_pb2.GameMap:
    """The 42 territories in 6 continents (Legacy plays on it too)."""
    return layout.game_map(CLASSIC_BOARD, layout.read("risk_rules.engine.classic"),
                           region_noun="territory", group_noun="continent")


def territory_deck() -> variant_pb2.Deck:
    deck = variant_pb2.Deck(
        name="territory",
        description="one card per territory with its symbol (14 of each), and 2 wild cards; "
                    "a set of three is traded for armies",
    )
    for card in range(DECK_SIZE):
        territory = card_territory(card)
        symbol = SYMBOL_NAMES[card_symbol(card)]
        name = symbol if territory is None else f"{CLASSIC_BOARD.names[territory]} ({symbol})"
        deck.cards.add(id=card, name=name, kind=symbol,
                       region=-1 if territory is None else territory,
                       group=-1 if territory is None else CLASSIC_BOARD.region_of[territory])
    return deck


OPTIONS = {
    "players": OptionNote("players; 2 plays the official two-player game with a neutral"),
    "setup": OptionNote("how the territories are first shared out", choices={
        "CLASSIC_SETUP_MODE_CLAIM": "seats claim territories one by one, then place armies",
        "CLASSIC_SETUP_MODE_RANDOM_DEAL": "territories are dealt at random",
    }),
    "auto_place": OptionNote("with a random deal (and 2 players): spread the starting armies "
                             "at random instead of placing them"),
    "trade_schedule": OptionNote("what a traded set of cards is worth", choices={
        "CLASSIC_TRADE_SCHEDULE_SEED": "4, 6, 8, 10, then +5 per set",
        "CLASSIC_TRADE_SCHEDULE_HASBRO_1993": "4, 6, 8, 10, 12, 15, then +5 per set",
        "CLASSIC_TRADE_SCHEDULE_FIXED": "by the set: infantry 4, cavalry 6, artillery 8, "
                                        "one of each 10",
    }),
    "fortify": OptionNote("where the end-of-turn move may go", choices={
        "CLASSIC_FORTIFY_MODE_CONNECTED": "to any territory joined by a chain of the seat's own",
        "CLASSIC_FORTIFY_MODE_ADJACENT": "to an adjacent territory only",
    }),
    "auto_defend_max_dice": OptionNote("roll the defender's maximum dice without asking; "
                                       "unset: on for a timed game, off otherwise"),
    "cards": OptionNote("play with territory cards"),
    "max_turns": MAX_TURNS,
}


def describe() -> Described:
    return Described(title="Risk", map=world_map(), decks=[territory_deck()], options=OPTIONS)
