"""Counts in English for every text the client prints: "1 army", "3 armies", "2 dice"."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


def dice_words(count: int) -> str:
    return plural(count, "die", "dice")
