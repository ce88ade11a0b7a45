"""Applying a finished rated game to its players' ratings exactly once, and the two public
reads: GetRating and GetLeaderboard (docs/ratings.md).

Exactly once, as the players' facts are copied (operations/player_feed.py): the commit that
finishes a rated game records its result in the game's own hash (field `rt`, record.py),
atomically with the ending; just before that write the writing process notes an intent, the game
id in the pending index (`Keys.ratings_pending`, bucketed like the other indexes); after it
landed, `apply` updates the ratings and drops the intent. A process that dies in between leaves
the intent, and the sweeper of any process finds it `GRACE_MS` later and does the same (`sweep`).

`apply` is safe to run any number of times, concurrently too:

1. The change is computed once: each seat's rating before (as stored now) and after
   (ratings/model.py), frozen in the game's hash (field `rr`) by a set-if-absent, so every
   later run, whichever process it is in, applies that same change and never recomputes from
   ratings the game itself already moved.
2. Each player's rating takes it through one script on the player's own slot that refuses a
   game id it has applied (ratings/store.py): on a Redis Cluster the players of one game live in
   different slots, so no single script could move them all, and none needs to.
3. Each leaderboard entry is set to the player's rating unless a newer version is there.

The season a result counts in is the one configured (RISK_RATING_SEASON) in the process that
committed the game's end, recorded with the result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import cast

import redis.asyncio as aioredis
import structlog
from redis.asyncio.cluster import RedisCluster

from risk_proto.risk.v1 import ratings_pb2
from risk_rules import variants, wire
from risk_service.errors import Code, ServiceError, ServiceReason, malformed
from risk_service.operations.limits import Limits
from risk_service.ratings import model, record
from risk_service.ratings.model import Rating
from risk_service.ratings.store import BOT_PREFIX, BOTS, PLAYERS, RatingStore
from risk_service.store.connection import RedisPyConnection, StoreConnection
from risk_service.store.keys import Keys
from risk_service.store.unreachable import store_unavailable

log = structlog.get_logger("ratings")

GRACE_MS = 5_000  # an intent younger than this may belong to a write still under way
SWEEP_BATCH = 256  # intents taken per bucket and sweep
HISTORY_PAGE = 20  # GetRating's history page when page_size is 0
BOARD_PAGE = 50  # GetLeaderboard's page when page_size is 0
MAX_PAGE = 200
MAX_SEASON = 32
MAX_PLAYER = 128

# KEYS: the game hash; ARGV: field, value. Sets the field once, and only in a game still stored
# (so a result computed for a game that has just expired leaves no key behind); the value kept.
_FREEZE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
end
return redis.call('HGET', KEYS[1], ARGV[1])
"""


def check_season(season: str) -> str:
    """A season's name: 1 to 32 letters, digits, '.', '-' or '_'."""
    if not 1 <= len(season) <= MAX_SEASON or not all(
            c.isascii() and (c.isalnum() or c in ".-_") for c in season):
        raise malformed(f"season: 1 to {MAX_SEASON} letters, digits, '.', '-' or '_', "
                        f"not {season[:40]!r}")
    return season


def _variant(number: int) -> str:
    if not number:
        raise malformed("name the variant (a risk.v1.Variant of ListVariants)")
    found = variants.by_number(number)
    if found is None:
        known = ",".join(sorted(variants.DESCRIPTORS))
        raise ServiceError(Code.NOT_FOUND, ServiceReason.VARIANT_NOT_FOUND,
                           f"no variant number {number} is served here; known: {known}",
                           {"known": known})
    return found.name


def _page(page_size: int, default: int) -> int:
    if page_size > MAX_PAGE:
        raise malformed(f"page_size is at most {MAX_PAGE}, not {page_size}")
    return page_size or default


def _offset(token: str) -> int:
    if not token:
        return 0
    if not token.isdigit() or len(token) > 9:
        raise malformed(f"page_token {token[:40]!r} is not one this call returned")
    return int(token)


class Ratings:
    """Applies rated games (after their commit, and by the sweeper) and serves the reads."""

    def __init__(self, client: aioredis.Redis | RedisCluster, keys: Keys, *,
                 clock_ms: Callable[[], int], limits: Limits,
                 connection: StoreConnection | None = None) -> None:
        self.redis = client
        self.keys = keys
        self.clock_ms = clock_ms
        self.limits = limits
        connection = connection or RedisPyConnection(client)
        self.store = RatingStore(client, keys, season=limits.rating_season,
                                 connection=connection)
        self._freeze = connection.script(_FREEZE)

    def _pending(self, game_id: str) -> str:
        return self.keys.ratings_pending(self.keys.bucket(game_id))

    # ---- the write's steps (operations.effects) ---------------------------------------

    async def intend(self, game_id: str) -> None:
        """Before the write that records `game_id`'s rated result: note that it may."""
        await self.redis.zadd(self._pending(game_id), {game_id: self.clock_ms()})

    async def after_write(self, game_id: str) -> None:
        """Apply the result the write recorded; a Redis that fails here leaves it to the
        sweeper, never to the caller whose write landed."""
        try:
            await self.apply(game_id)
        except Exception as exc:
            if not store_unavailable(exc):
                raise
            log.warning("ratings_deferred", game_id=game_id, error=str(exc))

    async def change(self, game_id: str) -> ratings_pb2.RatedGame | None:
        """The game's computed change: frozen already, or computed now and frozen."""
        game = self.keys.game(game_id)
        frozen, recorded = cast(list[bytes | None], await self.redis.hmget(
            game, [record.RESULT_FIELD, record.FIELD]))
        if frozen is not None:
            return record.unpack(frozen)
        if recorded is None:
            return None  # no rated result in this game (or the game is gone)
        rated = record.unpack(recorded)
        ids = [seat.player_id for seat in rated.seats]
        now = await self.store.current(rated.variant, ids, rated.season)
        before = [(now[i].mu, now[i].sigma) for i in ids]
        after = model.rate(before, [seat.rank for seat in rated.seats])
        for seat, (mu0, sigma0), (mu1, sigma1) in zip(rated.seats, before, after, strict=True):
            seat.mu_before, seat.sigma_before = mu0, sigma0
            seat.mu_after, seat.sigma_after = mu1, sigma1
        kept = await self._freeze([game], [record.RESULT_FIELD, record.pack(rated)])
        return None if kept is None else record.unpack(kept)

    async def apply(self, game_id: str) -> int:
        """Apply the game's rated result to every seat's rating, each once; how many ratings
        changed now (0: none recorded, or all applied before)."""
        rated = await self.change(game_id)
        changed = 0
        if rated is not None:
            counts = Counter(seat.player_id for seat in rated.seats)
            for seat in rated.seats:
                if counts[seat.player_id] > 1:
                    continue  # one bot level on two seats: the players learn, the level not
                entry = ratings_pb2.RatingChange(
                    game_id=game_id, rank=seat.rank, seats=len(rated.seats), seat=seat.seat,
                    mu_before=seat.mu_before, sigma_before=seat.sigma_before,
                    mu_after=seat.mu_after, sigma_after=seat.sigma_after,
                    rating_before=model.display(seat.mu_before, seat.sigma_before),
                    rating_after=model.display(seat.mu_after, seat.sigma_after),
                    at_ms=rated.ended_ms)
                applied, rating = await self.store.apply(
                    seat.player_id, rated.variant, rated.season, game_id,
                    before=(seat.mu_before, seat.sigma_before),
                    after=(seat.mu_after, seat.sigma_after), now_ms=rated.ended_ms,
                    entry=entry.SerializeToString(deterministic=True))
                changed += applied
                await self.store.place(rated.variant, rated.season, rating)
        await self.redis.zrem(self._pending(game_id), game_id)
        if changed:
            log.info("ratings_applied", game_id=game_id, ratings=changed)
        return changed

    async def sweep(self) -> int:
        """Apply the results of writes whose process died before applying them; how many
        ratings changed."""
        changed = 0
        now = self.clock_ms()
        for bucket in range(self.keys.buckets):
            members = cast(list[bytes], await self.redis.zrangebyscore(
                self.keys.ratings_pending(bucket), "-inf", now - GRACE_MS, start=0,
                num=SWEEP_BATCH))
            for member in members:
                changed += await self.apply(member.decode())
        if changed:
            log.info("ratings_applied_by_sweeper", ratings=changed)
        return changed

    # ---- GetRating and GetLeaderboard ----------------------------------------------------

    def _shown(self, rating: Rating, variant: str, season: str, rank: int
               ) -> ratings_pb2.Rating:
        return ratings_pb2.Rating(
            player_id=rating.player_id, variant=wire.variant_enum(variant), season=season,
            mu=rating.mu, sigma=rating.sigma, rating=rating.display,
            provisional=rating.provisional(self.limits.rating_provisional_games),
            games=rating.games, rank=rank, updated_ms=rating.updated_ms)

    async def get_rating(self, request: ratings_pb2.GetRatingRequest
                         ) -> ratings_pb2.GetRatingResponse:
        player = request.player_id
        if not 1 <= len(player) <= MAX_PLAYER:
            raise malformed(f"player_id: 1 to {MAX_PLAYER} characters")
        variant = _variant(request.variant)
        season = check_season(request.season) if request.season else self.store.season
        size = _page(request.page_size, HISTORY_PAGE)
        start = _offset(request.page_token)
        rating = (await self.store.current(variant, [player], season))[player]
        rank = await self.store.rank(variant, season, player) if rating.games else 0
        entries, total = await self.store.history(player, variant, season, start, size)
        return ratings_pb2.GetRatingResponse(
            rating=self._shown(rating, variant, season, rank),
            history=[ratings_pb2.RatingChange.FromString(e) for e in entries],
            next_page_token=str(start + size) if start + size < total else "")

    async def get_leaderboard(self, request: ratings_pb2.GetLeaderboardRequest
                              ) -> ratings_pb2.GetLeaderboardResponse:
        variant = _variant(request.variant)
        season = check_season(request.season) if request.season else self.store.season
        size = _page(request.page_size, BOARD_PAGE)
        board = BOTS if request.bots else PLAYERS
        if request.around_player:
            if request.page_token:
                raise malformed("around_player takes no page_token: page on from its "
                                "next_page_token without around_player")
            player = request.around_player
            rank = (await self.store.rank(variant, season, player)
                    if player.startswith(BOT_PREFIX) == (board == BOTS) else 0)
            if not rank:
                raise ServiceError(
                    Code.NOT_FOUND, ServiceReason.NOT_RATED,
                    f"{player[:MAX_PLAYER]!r} is not on the {board}' leaderboard of "
                    f"{variant}, season {season!r}", {"season": season})
            start = max(0, rank - 1 - size // 2)
        else:
            start = _offset(request.page_token)
        entries = await self.store.board(variant, season, start, size, board)
        total = await self.store.board_size(variant, season, board)
        return ratings_pb2.GetLeaderboardResponse(
            season=season, total=total,
            entries=[ratings_pb2.LeaderboardEntry(
                rank=e.rank, rating=self._shown(e.rating, variant, season, e.rank))
                for e in entries],
            next_page_token=str(start + size) if start + size < total else "")
