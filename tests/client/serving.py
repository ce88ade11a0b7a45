"""Helpers of the client tests; `module_service` (tests/serving.py) gives a module one
service process that its tests share."""

from __future__ import annotations

import re

from risk_client import RiskClient
from risk_client.results import GameEvent, GameSnapshot, game_events
from tests.serving import module_service

__all__ = ["finished_events", "found", "module_service"]


def found(pattern: str, text: str) -> re.Match[str]:
    """The first match of a multi-line pattern, or a failure that shows the text."""
    match = re.search(pattern, text, re.M)
    assert match, f"{pattern!r} not in:\n{text}"
    return match


async def finished_events(client: RiskClient, game: GameSnapshot) -> list[GameEvent]:
    """A finished game's events, decoded, through its last (the stream stays open after it)."""
    messages = []
    async for message in client.stream_events(game.game_id):
        messages.append(message)
        if message.seq == game.last_seq:
            break
    return game_events(messages)
