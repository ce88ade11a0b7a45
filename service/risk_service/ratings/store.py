"""Ratings in Redis: each player's rating and history per variant and season, and the
leaderboards.

A player's keys carry the player's own hash tag (`Keys.player`), as their stream and "my games"
do, so a rating update is one script on one slot and no key takes every player's writes:

- `rt:<variant>:<season>` (hash): `mu`, `sigma`, `games`, `ver` (updates so far), `at` (ms);
- `rh:<variant>:<season>` (list): the history, newest first, one serialised
  `risk.v1.RatingChange` per rated game, capped at `HISTORY_MAX`;
- `ra:<variant>:<season>` (sorted set): game id -> when its result was applied, the games
  applied already, so that applying one twice (a sweep racing the process that ended the game,
  a retry after a crash) changes nothing the second time.

A game's result is computed once and frozen in the game's hash (ratings/service.py) as each
seat's (mu, sigma) before and after. Applying it to a player moves their stored rating by that
game's change: mu by `after - before`, sigma by the ratio `after / before`. When nothing else
moved the rating meanwhile that is exactly the frozen `after`; when another game of the same
player was applied in between (two games ending at once), both changes count, instead of the
later one overwriting the earlier.

Each leaderboard (variant, season, and `players` or `bots`) is one sorted set, player id ->
displayed rating, beside a hash of each entry's figures (`ver|mu|sigma|games|at`), both under
the board's own hash tag (`Keys.leaderboard`): top N, a rank and the players around one are
ZREVRANGE / ZREVRANK plus one HMGET on that one slot, O(log n + page). An entry is replaced only
by a newer version of the player's rating, so two updates landing out of order leave the newer.

`current_ratings` is what other parts (matchmaking) read: the ratings of some players, the
default for a player never rated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from risk_service.ratings.model import DEFAULT_MU, DEFAULT_SIGMA, Rating
from risk_service.store.connection import RedisPyConnection, StoreConnection
from risk_service.store.keys import Keys

DEFAULT_SEASON = "1"  # the default of RISK_RATING_SEASON
HISTORY_MAX = 1000  # a player's history keeps its newest this many games per variant and season
APPLIED_KEEP_MS = 90 * 24 * 3600 * 1000  # a game applied is refused again within this
PLAYERS = "players"
BOTS = "bots"
BOT_PREFIX = "bot:"  # a bot seat is rated as the player `bot:<level>` (docs/ratings.md)

# KEYS: rating, history, applied; ARGV: game id, mu before, sigma before, mu after, sigma after,
# now, history entry, history max, applied horizon
_APPLY = """
local rating, history, applied = KEYS[1], KEYS[2], KEYS[3]
local function current()
  local v = redis.call('HMGET', rating, 'mu', 'sigma', 'games', 'ver')
  return v[1] or ARGV[2], v[2] or ARGV[3], v[3] or '0', v[4] or '0'
end
if redis.call('ZSCORE', applied, ARGV[1]) then
  local mu, sigma, games, ver = current()
  return {0, mu, sigma, games, ver}
end
local mu, sigma, games, ver = current()
mu = tonumber(mu) + (tonumber(ARGV[4]) - tonumber(ARGV[2]))
sigma = tonumber(sigma) * (tonumber(ARGV[5]) / tonumber(ARGV[3]))
local smu, ssigma = string.format('%.17g', mu), string.format('%.17g', sigma)
games = tonumber(games) + 1
ver = tonumber(ver) + 1
redis.call('HSET', rating, 'mu', smu, 'sigma', ssigma, 'games', games, 'ver', ver, 'at', ARGV[6])
redis.call('LPUSH', history, ARGV[7])
redis.call('LTRIM', history, 0, tonumber(ARGV[8]) - 1)
redis.call('ZREMRANGEBYSCORE', applied, '-inf', ARGV[9])
redis.call('ZADD', applied, ARGV[6], ARGV[1])
return {1, smu, ssigma, tostring(games), tostring(ver)}
"""

# KEYS: the board's sorted set, its entries; ARGV: player, version, score, entry
_BOARD = """
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old and tonumber(string.match(old, '^(%d+)')) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
"""


def board_of(player_id: str) -> str:
    """The leaderboard a rated id belongs on: bots never on the players' board."""
    return BOTS if player_id.startswith(BOT_PREFIX) else PLAYERS


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One line of a leaderboard: 1-based `rank` and the rating it shows."""

    rank: int
    rating: Rating


def _rating(player_id: str, values: Sequence[Any]) -> Rating:
    mu, sigma, games, ver, at = (None if v is None else (v.decode() if isinstance(v, bytes)
                                                         else str(v)) for v in values)
    if mu is None:
        return Rating(player_id)
    return Rating(player_id, float(mu), float(sigma or DEFAULT_SIGMA), int(games or 0),
                  int(at or 0), int(ver or 0))


def _entry(player_id: str, packed: bytes | str | None) -> Rating:
    if packed is None:
        return Rating(player_id)
    text = packed.decode() if isinstance(packed, bytes) else packed
    ver, mu, sigma, games, at = text.split("|")
    return Rating(player_id, float(mu), float(sigma), int(games), int(at), int(ver))


class RatingStore:
    """Players' ratings, histories and the leaderboards of one Redis (single or cluster)."""

    def __init__(self, client: aioredis.Redis | RedisCluster, keys: Keys | None = None, *,
                 season: str = DEFAULT_SEASON,
                 connection: StoreConnection | None = None) -> None:
        self.redis = client
        self.keys = keys or Keys()
        self.season = season  # the season results are applied to now
        connection = connection or RedisPyConnection(client)
        self._apply = connection.script(_APPLY)
        self._board = connection.script(_BOARD)

    def _player(self, player_id: str, part: str, variant: str, season: str) -> str:
        return self.keys.player(player_id, f"{part}:{variant}:{season}")

    async def current(self, variant: str, player_ids: Iterable[str],
                      season: str | None = None) -> dict[str, Rating]:
        """Each player's rating in `variant` (this season unless named); the default rating
        (mu 25, sigma 25/3, no games) for a player never rated."""
        ids = list(dict.fromkeys(player_ids))
        season = season or self.season
        if not ids:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for player in ids:
                pipe.hmget(self._player(player, "rt", variant, season),
                           ["mu", "sigma", "games", "ver", "at"])
            replies = await pipe.execute()
        return {player: _rating(player, values) for player, values in zip(ids, replies,
                                                                           strict=True)}

    async def apply(self, player_id: str, variant: str, season: str, game_id: str, *,
                    before: tuple[float, float], after: tuple[float, float], now_ms: int,
                    entry: bytes) -> tuple[bool, Rating]:
        """Apply one game's change to one player's rating, once per game id: whether it was
        applied now (False: it had been), and the rating as stored after it."""
        reply = await self._apply(
            [self._player(player_id, "rt", variant, season),
             self._player(player_id, "rh", variant, season),
             self._player(player_id, "ra", variant, season)],
            [game_id, repr(before[0]), repr(before[1]), repr(after[0]), repr(after[1]),
             now_ms, entry, HISTORY_MAX, now_ms - APPLIED_KEEP_MS])
        applied, mu, sigma, games, ver = (v.decode() if isinstance(v, bytes) else v
                                          for v in reply)
        return bool(int(applied)), Rating(player_id, float(mu), float(sigma), int(games),
                                          now_ms, int(ver))

    async def place(self, variant: str, season: str, rating: Rating) -> bool:
        """Put `rating` on its leaderboard unless a newer version of it is there."""
        board = board_of(rating.player_id)
        packed = (f"{rating.version}|{rating.mu!r}|{rating.sigma!r}|{rating.games}|"
                  f"{rating.updated_ms}")
        return bool(await self._board(
            [self.keys.leaderboard(variant, season, board, "z"),
             self.keys.leaderboard(variant, season, board, "e")],
            [rating.player_id, rating.version, repr(rating.display), packed]))

    async def history(self, player_id: str, variant: str, season: str, start: int,
                      count: int) -> tuple[list[bytes], int]:
        """`count` history entries from `start` (0: the newest), and how many there are."""
        key = self._player(player_id, "rh", variant, season)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.lrange(key, start, start + count - 1)
            pipe.llen(key)
            entries, total = await pipe.execute()
        return cast(list[bytes], entries), int(total)

    async def board_size(self, variant: str, season: str, board: str = PLAYERS) -> int:
        return int(await self.redis.zcard(self.keys.leaderboard(variant, season, board, "z")))

    async def rank(self, variant: str, season: str, player_id: str) -> int:
        """The player's 1-based place on their board, 0 when they are not on it."""
        place = cast(int | None, await self.redis.zrevrank(
            self.keys.leaderboard(variant, season, board_of(player_id), "z"), player_id))
        return 0 if place is None else place + 1

    async def board(self, variant: str, season: str, start: int, count: int,
                    board: str = PLAYERS) -> list[BoardEntry]:
        """`count` entries of a board from 0-based place `start`, best first."""
        if count <= 0:
            return []
        members = cast(list[bytes], await self.redis.zrevrange(
            self.keys.leaderboard(variant, season, board, "z"), start, start + count - 1))
        if not members:
            return []
        packed = cast(list[bytes | None], await self.redis.hmget(
            self.keys.leaderboard(variant, season, board, "e"), members))
        return [BoardEntry(start + i + 1, _entry(m.decode(), p))
                for i, (m, p) in enumerate(zip(members, packed, strict=True))]


async def current_ratings(conn_or_store: RatingStore | aioredis.Redis | RedisCluster,
                          variant: str, player_ids: list[str], *,
                          season: str | None = None, keys: Keys | None = None
                          ) -> dict[str, Rating]:
    """The ratings of `player_ids` in `variant` (the store's season, or `season`): the
    default rating (mu 25, sigma 25/3, 0 games) for a player never rated. Given a bare client,
    the keys are `keys` (default prefix `risk`) and the season `season` or the default one."""
    store = (conn_or_store if isinstance(conn_or_store, RatingStore)
             else RatingStore(conn_or_store, keys, season=season or DEFAULT_SEASON))
    return await store.current(variant, player_ids, season)


__all__ = ["BOTS", "DEFAULT_MU", "DEFAULT_SEASON", "DEFAULT_SIGMA", "PLAYERS", "BoardEntry",
           "Rating", "RatingStore", "board_of", "current_ratings"]
