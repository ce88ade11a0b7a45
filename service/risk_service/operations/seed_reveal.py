"""When a game's seed may be shown: once the game is over, and for a game of a duplicate
round once every game of that round is over, since they all share the seed (the deck order and
dice of the games still played would be known)."""

from __future__ import annotations

from risk_proto.risk.v1 import lifecycle_pb2
from risk_service.operations.records import FINAL
from risk_service.store.game_store import GameRecord
from risk_service.store.tournament_store import TournamentStore


async def seed_revealable(tournaments: TournamentStore, record: GameRecord,
                          meta: lifecycle_pb2.GameMeta) -> bool:
    if record.status not in FINAL:
        return False
    others = [g for g in meta.duplicate_games if g != record.game_id]
    if not others:
        return True
    # a game that is gone (0: expired after its retention) ended long ago
    return all(s in FINAL or s == 0 for s in await tournaments.statuses(others))
