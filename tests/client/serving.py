"""One real service process per test module, for the client tests that share it.

`module_service(prefix)` makes a module-scoped fixture: `python -m risk_service` on a free
port over the session's redis-server, its keys under `prefix` so modules do not meet.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest

from risk_client import RiskClient
from risk_client.results import GameEvent, GameSnapshot, game_events
from risk_testing.harness import ServiceProcess


def module_service(prefix: str) -> Callable[..., Iterator[ServiceProcess]]:
    @pytest.fixture(scope="module")
    def service(
        redis_url: str, tmp_path_factory: pytest.TempPathFactory
    ) -> Iterator[ServiceProcess]:
        process = ServiceProcess(redis_url, tmp_path_factory.mktemp(prefix),
                                 RISK_KEY_PREFIX=prefix)
        process.start()
        yield process
        process.stop()

    return service


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
