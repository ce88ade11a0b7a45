"""Which games are rated, and what the commit that ends one writes.

Pure (no clock, no Redis), like `operations/player_facts.py`: `commit.plan` asks `commit_record`
for the record of the change it plans, and the commit writes it into the game's own hash (field
`rt`, a serialised `risk.v1.RatedGame` naming each seat's rated id and rank) with everything
else, so a rated result exists exactly when the commit that finishes the game exists. The
ratings themselves are updated after the write, once (ratings/service.py).

A game is rated when it was created `rated` (GameMeta.rated), it finishes (status FINISHED:
an abandoned or cancelled game is not rated) and every seat is rated: a seat bound to a player
is rated as that player (whoever played its moves at the end: a seat handed to the service's bot
after timeouts is still the player's, and a resigned or timed-out seat ranks where the game's
final ranking puts it), a bot seat with no player (a round's or a match's bot at a level) as
the id `bot:<level>` (the level's rating is updated only when the level holds one seat of the
game; with two seats of one level the players are rated against it all the same). A game of
bots only is not rated. A seat that is neither (an anonymous seat token) makes the game unrated:
its result is not recorded at all. A Legacy campaign's games are never created rated (the
campaign calls do not take the flag): a campaign's later games are played on a world its
earlier games changed, so they are no fair measure of skill.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from risk_proto.risk.v1 import lifecycle_pb2, ratings_pb2
from risk_service.operations.bot_levels import level_name
from risk_service.operations.records import FINISHED
from risk_service.ratings.store import BOT_PREFIX

FIELD = "rt"  # the game-hash field of the rated result, as the ending commit wrote it
RESULT_FIELD = "rr"  # ... and of its computed change (ratings/service.py), set once


def rated_ids(meta: lifecycle_pb2.GameMeta, seats: int) -> list[str] | None:
    """Each seat's rated id (a player id, or `bot:<level>`), or None when some seat is
    neither a player's nor a bot's."""
    players = list(meta.seat_players)
    levels = list(meta.bot_levels)
    ids: list[str] = []
    for seat in range(seats):
        if seat < len(players) and players[seat]:
            ids.append(players[seat])
        elif seat < len(levels) and levels[seat]:
            ids.append(f"{BOT_PREFIX}{level_name(levels[seat])}")
        else:
            return None
    return ids


def ranks(ranking: Sequence[int], seats: int) -> list[int]:
    """Each seat's 1-based place from the game's final ranking (best first); a seat the
    ranking leaves out shares the last place."""
    place = {seat: i + 1 for i, seat in enumerate(ranking) if 0 <= seat < seats}
    last = len(place) + 1
    return [place.get(seat, last) for seat in range(seats)]


def commit_record(*, game_id: str, variant: str, meta: lifecycle_pb2.GameMeta,
                  old_status: int, status: int, outcome: Any, seats: int, season: str,
                  now_ms: int) -> ratings_pb2.RatedGame | None:
    """The rated result the commit finishing a rated game records, or None (not rated, not
    finishing now). `outcome`: the rules' Outcome of the final state."""
    if not meta.rated or status != FINISHED or old_status == FINISHED or outcome is None:
        return None
    ids = rated_ids(meta, seats)
    if ids is None or len(ids) < 2 or all(i.startswith(BOT_PREFIX) for i in ids):
        return None  # a seat nobody's, or bots only: nothing a player's rating learns from
    places = ranks(outcome.ranking, seats)
    return ratings_pb2.RatedGame(
        game_id=game_id, variant=variant, season=season, ended_ms=now_ms,
        seats=[ratings_pb2.RatedGame.Seat(player_id=player, seat=seat, rank=places[seat])
               for seat, player in enumerate(ids)])


def pack(rated: ratings_pb2.RatedGame) -> bytes:
    return rated.SerializeToString(deterministic=True)


def unpack(value: bytes) -> ratings_pb2.RatedGame:
    return ratings_pb2.RatedGame.FromString(value)
