"""The Deep Space action deck, read once at import from the bundled data file `deck.json`.

The deck was never published in text, so the rules reference decides one. Which kinds, how many
of each, what each costs and how big its effect is all come from `deck.json`; the engine only
knows what each kind does. Card ids are positions in the deck as listed: every copy of the
first kind, then every copy of the next, and so on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from risk_rules.engine.deep_space.model import CardKind, Cost


@dataclass(frozen=True, slots=True)
class CardType:
    kind: CardKind
    name: str
    count: int
    cost: Cost
    amount: int  # the effect's size: recruits removed or placed, gems or ore taken, ore lost
    text: str


def _load(data: dict[str, Any]) -> tuple[CardType, ...]:
    types = tuple(
        CardType(
            kind=CardKind[entry["kind"]],
            name=entry["name"],
            count=int(entry["count"]),
            cost=Cost[entry["cost"].upper()],
            amount=int(entry["amount"]),
            text=entry["text"],
        )
        for entry in data["cards"]
    )
    if len({t.kind for t in types}) != len(types):
        raise ValueError("deck.json lists a card kind twice")
    return types


def _read(name: str) -> dict[str, Any]:
    text = files(__package__).joinpath(name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


CARD_TYPES = _load(_read("deck.json"))
BY_KIND: dict[CardKind, CardType] = {t.kind: t for t in CARD_TYPES}
CARD_KINDS: tuple[CardKind, ...] = tuple(t.kind for t in CARD_TYPES for _ in range(t.count))
DECK_SIZE = len(CARD_KINDS)  # 36


def card_type(card: int) -> CardType:
    return BY_KIND[CARD_KINDS[card]]


def is_card(card: int) -> bool:
    return 0 <= card < DECK_SIZE
