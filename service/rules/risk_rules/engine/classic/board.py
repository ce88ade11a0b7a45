"""The classic 42-territory map and its 44-card deck."""

from __future__ import annotations

from risk_rules.engine.core.graph import Board

_REGIONS: list[tuple[str, int, list[str]]] = [
    ("North America", 5, [
        "Alaska", "Northwest Territory", "Greenland", "Alberta", "Ontario", "Quebec",
        "Western United States", "Eastern United States", "Central America",
    ]),
    ("South America", 2, ["Venezuela", "Peru", "Brazil", "Argentina"]),
    ("Europe", 5, [
        "Iceland", "Scandinavia", "Great Britain", "Northern Europe", "Western Europe",
        "Southern Europe", "Ukraine",
    ]),
    ("Africa", 3, ["North Africa", "Egypt", "East Africa", "Congo", "South Africa", "Madagascar"]),
    ("Asia", 7, [
        "Ural", "Siberia", "Yakutsk", "Kamchatka", "Irkutsk", "Mongolia", "Japan", "Afghanistan",
        "China", "Middle East", "India", "Siam",
    ]),
    ("Australia", 2, ["Indonesia", "New Guinea", "Western Australia", "Eastern Australia"]),
]

_BORDERS: dict[str, list[str]] = {
    "Alaska": ["Northwest Territory", "Alberta", "Kamchatka"],
    "Northwest Territory": ["Alaska", "Alberta", "Ontario", "Greenland"],
    "Greenland": ["Northwest Territory", "Ontario", "Quebec", "Iceland"],
    "Alberta": ["Alaska", "Northwest Territory", "Ontario", "Western United States"],
    "Ontario": [
        "Northwest Territory", "Alberta", "Western United States", "Eastern United States",
        "Quebec", "Greenland",
    ],
    "Quebec": ["Ontario", "Eastern United States", "Greenland"],
    "Western United States": ["Alberta", "Ontario", "Eastern United States", "Central America"],
    "Eastern United States": [
        "Western United States", "Ontario", "Quebec", "Central America",
    ],
    "Central America": ["Western United States", "Eastern United States", "Venezuela"],
    "Venezuela": ["Central America", "Peru", "Brazil"],
    "Peru": ["Venezuela", "Brazil", "Argentina"],
    "Brazil": ["Venezuela", "Peru", "Argentina", "North Africa"],
    "Argentina": ["Peru", "Brazil"],
    "Iceland": ["Greenland", "Great Britain", "Scandinavia"],
    "Scandinavia": ["Iceland", "Great Britain", "Northern Europe", "Ukraine"],
    "Great Britain": ["Iceland", "Scandinavia", "Northern Europe", "Western Europe"],
    "Northern Europe": [
        "Great Britain", "Scandinavia", "Ukraine", "Southern Europe", "Western Europe",
    ],
    "Western Europe": ["Great Britain", "Northern Europe", "Southern Europe", "North Africa"],
    "Southern Europe": [
        "Western Europe", "Northern Europe", "Ukraine", "Middle East", "Egypt", "North Africa",
    ],
    "Ukraine": [
        "Scandinavia", "Northern Europe", "Southern Europe", "Middle East", "Afghanistan", "Ural",
    ],
    "North Africa": [
        "Brazil", "Western Europe", "Southern Europe", "Egypt", "East Africa", "Congo",
    ],
    "Egypt": ["North Africa", "Southern Europe", "Middle East", "East Africa"],
    "East Africa": [
        "Egypt", "North Africa", "Congo", "South Africa", "Madagascar", "Middle East",
    ],
    "Congo": ["North Africa", "East Africa", "South Africa"],
    "South Africa": ["Congo", "East Africa", "Madagascar"],
    "Madagascar": ["South Africa", "East Africa"],
    "Ural": ["Ukraine", "Siberia", "China", "Afghanistan"],
    "Siberia": ["Ural", "Yakutsk", "Irkutsk", "Mongolia", "China"],
    "Yakutsk": ["Siberia", "Irkutsk", "Kamchatka"],
    "Kamchatka": ["Yakutsk", "Irkutsk", "Mongolia", "Japan", "Alaska"],
    "Irkutsk": ["Siberia", "Yakutsk", "Kamchatka", "Mongolia"],
    "Mongolia": ["Siberia", "Irkutsk", "Kamchatka", "Japan", "China"],
    "Japan": ["Kamchatka", "Mongolia"],
    "Afghanistan": ["Ukraine", "Ural", "China", "India", "Middle East"],
    "China": ["Afghanistan", "Ural", "Siberia", "Mongolia", "Siam", "India"],
    "Middle East": [
        "Southern Europe", "Ukraine", "Afghanistan", "India", "Egypt", "East Africa",
    ],
    "India": ["Middle East", "Afghanistan", "China", "Siam"],
    "Siam": ["India", "China", "Indonesia"],
    "Indonesia": ["Siam", "New Guinea", "Western Australia"],
    "New Guinea": ["Indonesia", "Western Australia", "Eastern Australia"],
    "Western Australia": ["Indonesia", "New Guinea", "Eastern Australia"],
    "Eastern Australia": ["Western Australia", "New Guinea"],
}

CLASSIC_BOARD = Board.build(_REGIONS, _BORDERS)
TERRITORIES = CLASSIC_BOARD.size  # 42

# The deck: card i < 42 shows territory i with symbol i % 3 (round-robin over the territory
# order above, as the rules reference decides: 14 of each); cards 42 and 43 are wild.
INFANTRY, CAVALRY, ARTILLERY, WILD = 0, 1, 2, 3
SYMBOL_NAMES = ("infantry", "cavalry", "artillery", "wild")
WILD_CARDS = (42, 43)
DECK_SIZE = 44


def card_symbol(card: int) -> int:
    return WILD if card >= TERRITORIES else card % 3


def card_territory(card: int) -> int | None:
    return card if card < TERRITORIES else None
