"""The process cache: the games this process committed (or read) last, with their decoded
state, so a SubmitAction at the cached version skips the read and the decode.

A cached copy is never trusted on its own: a commit checks the stored version and commit id,
and a read checks them first (`Committer.fresh`), so a copy another process made stale, or a
state Redis lost, costs a refusal or a read, never a wrong answer.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from risk_service.store.game_store import GameRecord

Cached = tuple[GameRecord, Any]  # a stored game and its decoded engine state


class GameCache:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._games: OrderedDict[str, Cached] = OrderedDict()

    def get(self, game_id: str) -> Cached | None:
        return self._games.get(game_id)

    def keep(self, record: GameRecord, state: Any) -> None:
        cached = self._games.get(record.game_id)
        if cached is not None and cached[0].version > record.version:
            return  # never replace a newer copy (a read may finish after a commit)
        self._games[record.game_id] = (record, state)
        self._games.move_to_end(record.game_id)
        while len(self._games) > self.capacity:
            self._games.popitem(last=False)

    def forget(self, game_id: str, cached: Cached) -> None:
        """Drop `cached`, unless a newer copy has replaced it meanwhile."""
        if self._games.get(game_id) is cached:
            del self._games[game_id]

    def forget_up_to(self, game_id: str, version: int) -> None:
        """Drop the copy of a game if it is at `version` or before (a commit based on it was
        refused: another process moved the game on, or Redis lost the cached state)."""
        cached = self._games.get(game_id)
        if cached is not None and cached[0].version <= version:
            del self._games[game_id]
