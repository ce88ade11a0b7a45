"""Draw piles with a discard pile that is reshuffled when the pile runs out."""

from __future__ import annotations

from dataclasses import dataclass

from risk_rules.engine.core.rng import Pcg32


@dataclass(frozen=True, slots=True)
class Draw:
    card: int | None  # None: both piles were empty
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    reshuffled: int  # size of the new pile when the discards were reshuffled, else 0


def draw_card(deck: tuple[int, ...], discard: tuple[int, ...], rng: Pcg32) -> Draw:
    """Take the top card (index 0), reshuffling the discards into a new pile first if needed."""
    reshuffled = 0
    if not deck and discard:
        deck = rng.shuffled(sorted(discard))
        discard = ()
        reshuffled = len(deck)
    if not deck:
        return Draw(None, deck, discard, 0)
    return Draw(deck[0], deck[1:], discard, reshuffled)
