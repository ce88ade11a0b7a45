"""Redis keys and calls of tournaments: a label's round requests, its game lists and its
results feed, each call on one hash slot.

Every key of one tournament label shares the hash tag `{t:<label>}` (the `t:` keeps a label
from ever naming a game's slot), so a copy into the feed (script `_COPY`) is one atomic call
on one slot, also on Redis Cluster. A game's own facts live in its game hash (fields `f:<n>`,
written by the game's commit, so on the game's slot); the feed only ever receives copies of
them, in order and once each, which is what makes the copy safe to repeat after a crash. The
one key outside the labels (`<p>:tournaments`) lists the labels with games still being copied,
for the sweeper; it is written when a round is created, never on a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from risk_service.store.connection import RedisPyConnection, StoreConnection
from risk_service.store.keys import Keys, StreamEntries, stream_id, stream_seq

# Append one game's fact n to the label's feed, if it is the next one of that game not copied
# yet; a repeat (another process, the sweeper after a crash) finds it copied and writes nothing.
_COPY = """
local copied, feed, open = KEYS[1], KEYS[2], KEYS[3]
local game, n, fact, final, keep = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5]
local have = tonumber(redis.call('HGET', copied, game) or '0')
if n ~= have + 1 then return 0 end
local seq = redis.call('HINCRBY', copied, '#seq', 1)
redis.call('XADD', feed, '0-' .. seq, 'f', fact)
redis.call('HSET', copied, game, n)
if final == '1' then redis.call('SREM', open, game) end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], keep) end
-- the feed's doorbell, as a game's commit rings its stream's: the shard channel named like
-- the feed, on which a cluster's results streams follow it (cluster_feed.py,
-- operations/results.py); with no listener it costs next to nothing
redis.call('SPUBLISH', feed, seq)
return seq
"""


@dataclass(frozen=True, slots=True)
class TournamentKeys:
    prefix: str = "risk"

    def _t(self, label: str) -> str:
        return f"{self.prefix}:t:{{t:{label}}}"

    def requests(self, label: str) -> str:
        """Hash: request id -> fingerprint, the round's secret and its CreateRoundResponse."""
        return f"{self._t(label)}:req"

    def games(self, label: str) -> str:
        """Sorted set of the label's game ids (score 0, ordered by id) for ListGames."""
        return f"{self._t(label)}:games"

    def round_games(self, label: str, round_number: int) -> str:
        """Sorted set of one round's game ids, as `games`."""
        return f"{self._t(label)}:r:{round_number}"

    def copied(self, label: str) -> str:
        """Hash: game id -> how many of its facts are in the feed; `#seq`: the feed's last seq."""
        return f"{self._t(label)}:copied"

    def feed(self, label: str) -> str:
        """Stream: the results feed, entry `0-<seq>`, field `f` = a TournamentFact (no seq)."""
        return f"{self._t(label)}:feed"

    def open(self, label: str) -> str:
        """Set: the label's games whose last fact is not in the feed yet."""
        return f"{self._t(label)}:open"

    def owner(self, label: str) -> str:
        """String: who created the label's first round (the digest of its bearer token, or
        `-` for an anonymous caller); only that credential adds rounds to it."""
        return f"{self._t(label)}:owner"

    def labels(self) -> str:
        """Sorted set: label -> when a round was last created under it (ms), for the sweeper."""
        return f"{self.prefix}:tournaments"


class TournamentStore:
    def __init__(self, client: aioredis.Redis | RedisCluster, keys: Keys,
                 connection: StoreConnection | None = None) -> None:
        """`connection`: the store's (GameStore.connection) for the copy script; None runs
        it through `client`."""
        self.redis = client
        self.keys = keys
        self.tkeys = TournamentKeys(keys.prefix)
        self._copy = (connection or RedisPyConnection(client)).script(_COPY)

    async def claim_owner(self, label: str, owner: bytes, keep_ms: int) -> bytes:
        """Make `owner` the label's owner unless it has one; the owner it has now."""
        key = self.tkeys.owner(label)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(key, owner, nx=True, px=keep_ms)
            pipe.get(key)
            _new, held = await pipe.execute()
        return cast(bytes, held)

    async def planned(self, label: str, request_id: str) -> bool:
        """Whether a round was planned under `request_id` already (a retry)."""
        return bool(await self.redis.hexists(self.tkeys.requests(label), request_id))

    async def claim_request(self, label: str, request_id: str, record: bytes) -> bytes | None:
        """Store a round's plan under its request id unless one is there; the stored one
        (this one if it was not)."""
        key = self.tkeys.requests(label)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hsetnx(key, request_id, record)
            pipe.hget(key, request_id)
            _new, stored = await pipe.execute()
        return cast(bytes | None, stored)

    async def add_games(self, label: str, round_number: int, game_ids: Sequence[str],
                        now_ms: int, keep_ms: int) -> None:
        """List a round's games under its label (idempotent), and the label for the sweeper."""
        k = self.tkeys
        members = dict.fromkeys(game_ids, 0)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zadd(k.games(label), members)
            pipe.zadd(k.round_games(label, round_number), members)
            pipe.sadd(k.open(label), *game_ids)
            for key in (k.requests(label), k.games(label), k.round_games(label, round_number),
                        k.open(label), k.owner(label)):
                pipe.pexpire(key, keep_ms)
            await pipe.execute()
        await self.redis.zadd(k.labels(), {label: now_ms})

    async def exists(self, label: str) -> bool:
        """A round was created under `label` (its game list or its feed is still kept)."""
        return bool(await self.redis.exists(self.tkeys.games(label), self.tkeys.feed(label)))

    async def page(self, label: str, round_number: int | None, before: str, limit: int
                   ) -> list[str]:
        """Up to `limit` of the label's (or round's) game ids older than `before`, newest first."""
        key = (self.tkeys.games(label) if round_number is None
               else self.tkeys.round_games(label, round_number))
        ids = cast(list[bytes], await self.redis.zrevrangebylex(
            key, f"({before}" if before else "+", "-", 0, limit))
        return [i.decode() for i in ids]

    async def copied(self, label: str, game_id: str) -> int:
        return int(await self.redis.hget(self.tkeys.copied(label), game_id) or 0)

    async def copy(self, label: str, game_id: str, n: int, fact: bytes, *, final: bool,
                   keep_ms: int) -> int:
        """Append the game's fact `n` to the feed if it is the next one; its seq, else 0."""
        k = self.tkeys
        seq = await self._copy([k.copied(label), k.feed(label), k.open(label)],
                               [game_id, n, fact, "1" if final else "0", keep_ms])
        return int(seq)

    async def read_feed(self, label: str, after_seq: int, count: int
                        ) -> list[tuple[int, bytes]]:
        entries = cast(StreamEntries, await self.redis.xrange(
            self.tkeys.feed(label), min=stream_id(after_seq + 1), max="+", count=count))
        return [(stream_seq(entry_id), fields[b"f"]) for entry_id, fields in entries]

    async def labels(self) -> list[str]:
        return [m.decode() for m in cast(list[bytes],
                                         await self.redis.zrange(self.tkeys.labels(), 0, -1))]

    async def open_games(self, label: str) -> list[str]:
        return sorted(m.decode() for m in cast(set[bytes],
                                               await self.redis.smembers(self.tkeys.open(label))))

    async def drop_label_if_idle(self, label: str, before_ms: int) -> None:
        """Stop sweeping a label with no game left to copy and no round since `before_ms`."""
        if await self.redis.scard(self.tkeys.open(label)):
            return
        last = await self.redis.zscore(self.tkeys.labels(), label)
        if last is not None and last < before_ms:
            await self.redis.zrem(self.tkeys.labels(), label)

    async def game_facts(self, game_id: str, first: int, last: int) -> list[bytes | None]:
        """Facts `first`..`last` of a game, from its game hash (fields `f:<n>`)."""
        if last < first:
            return []
        return cast(list[bytes | None], await self.redis.hmget(
            self.keys.game(game_id), [f"f:{n}" for n in range(first, last + 1)]))

    async def game_meta(self, game_id: str) -> bytes | None:
        return cast(bytes | None, await self.redis.hget(self.keys.game(game_id), "meta"))

    async def statuses(self, game_ids: Sequence[str]) -> list[int]:
        """The stored status of each game (0 for a game that is gone)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hget(self.keys.game(game_id), "status")
            replies = await pipe.execute()
        return [int(r) if r else 0 for r in replies]
