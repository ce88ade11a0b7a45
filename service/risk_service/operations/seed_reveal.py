"""When a game's seed, and what its draws gave, may be shown. The games of a duplicate round
share their seed and draw the same dice and cards in the same order, so a game's seed is shown
once it is over and every other game of its round is over too (the deck order and dice of the
games still played would be known), and until then its draws are shown only to its own seats
(`views.DRAWS_WITHHELD`): another game's seat, the host or a spectator reading the dice of a
game further on would read the dice the others are yet to throw."""

from __future__ import annotations

from risk_proto.risk.v1 import lifecycle_pb2
from risk_service.operations.records import FINAL
from risk_service.store.game_store import GameRecord
from risk_service.store.tournament_store import TournamentStore


async def seed_revealable(tournaments: TournamentStore, record: GameRecord,
                          meta: lifecycle_pb2.GameMeta) -> bool:
    if record.status not in FINAL:
        return False
    return await _others_over(tournaments, record, meta)


async def draws_secret(tournaments: TournamentStore, record: GameRecord,
                       meta: lifecycle_pb2.GameMeta) -> bool:
    """Whether the game's draws are withheld from callers without a seat in it: it is a game
    of a duplicate round, and that game or another of the round is still waiting or played.
    No Redis read for a game of no duplicate round."""
    if not [g for g in meta.duplicate_games if g != record.game_id]:
        return False
    return record.status not in FINAL or not await _others_over(tournaments, record, meta)


async def _others_over(tournaments: TournamentStore, record: GameRecord,
                       meta: lifecycle_pb2.GameMeta) -> bool:
    others = [g for g in meta.duplicate_games if g != record.game_id]
    if not others:
        return True
    # a game that is gone (0: expired after its retention) ended long ago
    return all(s in FINAL or s == 0 for s in await tournaments.statuses(others))
