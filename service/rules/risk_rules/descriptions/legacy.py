"""Risk Legacy described: the classic world map, the resource deck of an unplayed box (a
campaign's world changes card values and bonuses; GetGame's view shows those) and the
options."""

from __future__ import annotations

from risk_proto.risk.v1 import variant_pb2
from risk_rules.descriptions.classic import world_map
from risk_rules.descriptions.notes import MAX_TURNS, Described, OptionNote
from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.legacy.content import BASE_CONTENT


def resource_deck() -> variant_pb2.Deck:
    content = BASE_CONTENT
    deck = variant_pb2.Deck(
        name="resource",
        description="a territory card per territory and the coin cards, each worth its "
                    "resources: spent on troops or Red Stars (values on an unplayed board; a "
                    "campaign raises them)",
    )
    for territory in range(TERRITORIES):
        deck.cards.add(id=territory, name=CLASSIC_BOARD.names[territory], kind="territory",
                       region=territory, group=CLASSIC_BOARD.region_of[territory],
                       value=content.base_card_value)
    for coin in range(content.coin_cards):
        deck.cards.add(id=TERRITORIES + coin, name="Coin", kind="coin", region=-1, group=-1,
                       value=content.coin_value)
    return deck


OPTIONS = {
    "players": OptionNote("players, each with a faction"),
    "max_turns": MAX_TURNS,
    "campaign_id": OptionNote("the campaign the game belongs to; set by StartCampaignGame",
                              settable=False),
    "auto_defend_max_dice": OptionNote("roll the defender's maximum dice without asking"),
    "world": OptionNote("the campaign's world (scars, cities, names, card values); set by "
                        "StartCampaignGame, an unplayed board otherwise", settable=False),
}


def describe() -> Described:
    return Described(title="Risk Legacy", map=world_map(), decks=[resource_deck()],
                     options=OPTIONS)
