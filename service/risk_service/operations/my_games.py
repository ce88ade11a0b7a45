"""ListMyGames: a player's games, newest activity first, each with whose turn it is and until
when, and the index behind it.

The index is one sorted set per player (`Keys.player(player, "games")`: game id -> the time
of the game's last commit, ms), under the player's own hash tag, so on a cluster no key holds
every player's writes and no call spans slots. It is never part of a game's commit: the
`IndexPlayers` effect of every commit of a game that names players (its seats' players and
its host player) updates it after the write, for each of them. Like the other secondary
indexes it may lag a crash (the game shows with its previous activity time, or, for a game
whose first commit's effect was lost, not at all until its next commit), and it is
rebuildable from the games (`rebuild`). Listing reads each page's games from their own hashes,
so a game is always shown as it is stored; entries of games that are gone (expired) are
dropped as they are met.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import cast

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from risk_proto.risk.v1 import service_pb2
from risk_service.errors import malformed
from risk_service.operations import identity, records
from risk_service.operations.identity import Caller
from risk_service.operations.limits import Limits
from risk_service.operations.player_facts import players_of
from risk_service.operations.player_feed import player_required
from risk_service.operations.records import ACTIVE
from risk_service.operations.views import summary
from risk_service.store.game_store import GameStore

DEFAULT_PAGE = 50
REBUILD_PAGE = 200
_TOKEN = re.compile(r"^([0-9]{1,15}):([0-9a-f]{12,64}(\.[0-9]{1,3})?)$")


class MyGames:
    def __init__(self, store: GameStore, limits: Limits, clock_ms: Callable[[], int]) -> None:
        self.store = store
        self.redis: aioredis.Redis | RedisCluster = store.redis
        self.keys = store.keys
        self.limits = limits
        self.clock_ms = clock_ms

    async def index(self, game_id: str, players: Sequence[str], at_ms: int) -> None:
        """The `IndexPlayers` effect: `game_id` had activity at `at_ms` for each player."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for player in players:
                key = self.keys.player(player, "games")
                pipe.zadd(key, {game_id: at_ms})
                pipe.pexpire(key, self.limits.retention_ms)
            await pipe.execute()

    async def list(self, request: service_pb2.ListMyGamesRequest, caller: Caller
                   ) -> service_pb2.ListMyGamesResponse:
        """One page of the caller's games, newest activity first. A page may hold fewer
        than `page_size` games (a status filter, games gone) and still have a next page."""
        player = player_required(caller)
        if request.page_size < 0:
            raise malformed("page_size must not be negative")
        if request.status not in service_pb2.GameStatus.values():
            raise malformed(f"unknown status {request.status}")
        size = min(request.page_size or DEFAULT_PAGE, self.limits.max_page_size)
        key = self.keys.player(player, "games")
        top: str | float = "+inf"
        after_id = ""
        if request.page_token:
            matched = _TOKEN.match(request.page_token)
            if matched is None:
                raise malformed("page_token is not one this service issued")
            top, after_id = int(matched.group(1)), matched.group(2)
        # the entries at the cursor's time that were shown already come first (members of one
        # score are listed in reverse order of id): skip them
        raw = cast(list[tuple[bytes, float]], await self.redis.zrevrangebyscore(
            key, top, "-inf", start=0, num=size + 1 + 64, withscores=True))
        entries = [(m.decode(), int(s)) for m, s in raw]
        if after_id:
            entries = [(g, s) for g, s in entries if s != top or g < after_id]
        page = entries[:size]
        more = len(entries) > size
        by_id = {r.game_id: r for r in await self.store.load_many([g for g, _ in page])}
        gone = [g for g, _ in page if g not in by_id]
        if gone:
            await self.redis.zrem(key, *gone)
        games = []
        for game_id, at_ms in page:
            record = by_id.get(game_id)
            if record is None or request.status not in (0, record.status):
                continue
            meta = records.decode_meta(record)
            seat = identity.player_seat(meta, player)
            state, decision = records.listed(record)
            shown = summary(record, state, meta, seat=seat, decision=decision)
            turn = (record.status == ACTIVE and seat is not None
                    and seat in shown.decision.seats)
            games.append(service_pb2.MyGame(game=shown, seat=-1 if seat is None else seat,
                                            your_turn=turn, last_activity_ms=at_ms))
        token = f"{page[-1][1]}:{page[-1][0]}" if more and page else ""
        return service_pb2.ListMyGamesResponse(games=games, next_page_token=token)

    async def rebuild(self, player: str) -> int:
        """Rebuild `player`'s index from the games themselves (every game the service lists
        that names the player); how many games it holds now."""
        key = self.keys.player(player, "games")
        found: dict[str, int] = {}
        cursor = ""
        while True:
            ids = await self.store.page("*", 0, cursor, REBUILD_PAGE)
            if not ids:
                break
            for record in await self.store.load_many(ids):
                if player in players_of(records.decode_meta(record)):
                    found[record.game_id] = record.updated_ms
            cursor = ids[-1]
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(key)
            if found:
                pipe.zadd(key, found)
                pipe.pexpire(key, self.limits.retention_ms)
            await pipe.execute()
        return len(found)
