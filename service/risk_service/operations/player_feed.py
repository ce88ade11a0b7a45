"""A player's stream (StreamPlayerEvents): everything that concerns one player across all their
games, each fact once, resumable by seq; the "your turn" and invitation webhooks it sends; and
the presence of players' open streams of games, which holds "your turn" back.

Exactly once, as the tournament feed (results.py) does it: a write that makes facts true
records them in the game's own hash (field `pf:<key>`, player_facts.py), atomically with the
change; just before it the writer notes an intent, `<game id>/<key>` in the pending index
(`Keys.player_facts_pending`, bucketed like the other indexes); after it landed, `copy` appends
each fact to its player's stream and deletes the field and the intent. A process that dies in
between leaves the intent; the sweeper of any process finds it `GRACE_MS` later and does the
same (`sweep`). Each append is one script on the player's own slot that refuses a fact id it
holds already (`<game id>/<key>/<place>`, remembered `COPIED_KEEP_MS`), so a copy racing the
sweeper, or repeated after a crash, appends each fact once. Facts of different games appear in
the order they were copied.

A player's stream is a Redis stream numbered `0-1`, `0-2`, ... without gaps, trimmed to its
newest `FEED_MAXLEN` entries and expiring `Limits.retention_ms` after its last fact (both
documented in docs/players.md): a reader that resumes after a seq older than what is kept sees
the jump in seqs and re-reads ListMyGames. A stream that has caught up waits on the process's
feed hub (feed.py, `FeedHub.follow`), which reads every followed stream over its shared
readers: no polling.

Webhooks (`turn.started`, `invitation.created`, `match.found`, docs/notifications.md) are queued
when a fact is copied, each under an id derived from the fact's, so the same fact copied twice
queues one message. "Your turn" is not sent while the player has a stream of that game open on
any process (Lichess pushes only to players away from the game page): every process that streams
a game to a player's own seat keeps an entry in the player's `here:<game>` sorted set (process
id -> until when, `PRESENCE_TTL_MS`, refreshed every third of it while the stream is open), and
a turn's webhook is sent only when no entry is current.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any, cast

import redis.asyncio as aioredis
import structlog
from redis.asyncio.cluster import RedisCluster

from risk_proto.risk.v1 import player_games_pb2
from risk_rules import wire
from risk_service.errors import Code, ServiceError, ServiceReason
from risk_service.feed import FeedHub, entries_after
from risk_service.operations import player_facts
from risk_service.operations.effects import Notifier
from risk_service.operations.identity import Caller
from risk_service.operations.limits import Limits
from risk_service.store.connection import RedisPyConnection, StoreConnection
from risk_service.store.keys import Keys, StreamEntries, stream_id, stream_seq
from risk_service.store.unreachable import store_unavailable

log = structlog.get_logger("players")

FEED_MAXLEN = 1000  # a player's stream keeps its newest this many facts
COPIED_KEEP_MS = 24 * 3600 * 1000  # a fact id copied is refused again within this
GRACE_MS = 5_000  # an intent younger than this may belong to a write still under way
SWEEP_BATCH = 256  # intents taken per bucket and sweep
PRESENCE_TTL_MS = 30_000  # a stream's presence lasts this long unless refreshed
FEED_PAGE = 128  # facts read from a player's stream at a time

TURN_STARTED = "turn.started"
INVITATION_CREATED = "invitation.created"
MATCH_FOUND = "match.found"

# KEYS: the player's feed, copied, seq; ARGV: fact id, fact, now, copied horizon, maxlen, keep
_COPY = """
local feed, copied, seqkey = KEYS[1], KEYS[2], KEYS[3]
redis.call('ZREMRANGEBYSCORE', copied, '-inf', ARGV[4])
if redis.call('ZSCORE', copied, ARGV[1]) then return 0 end
local seq = redis.call('INCR', seqkey)
redis.call('XADD', feed, 'MAXLEN', tonumber(ARGV[5]), '0-' .. seq, 'f', ARGV[2])
redis.call('ZADD', copied, ARGV[3], ARGV[1])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
-- the feed's doorbell, as the results feed's copy rings its own (cluster_feed.py)
redis.call('SPUBLISH', feed, seq)
return seq
"""


def player_required(caller: Caller) -> str:
    """The caller's player id; refused for a caller without a player credential."""
    if caller.player is not None:
        return caller.player
    if caller.token is None:
        raise ServiceError(Code.UNAUTHENTICATED, ServiceReason.MISSING_CREDENTIALS,
                           "this call needs a player credential: metadata "
                           "'authorization: Bearer <player token>'")
    raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.NOT_A_PLAYER,
                       "this call needs a player credential (a JWT naming the player); "
                       "a seat, host or creator token names no player")


class Presence:
    """Which players stream which games, across processes (the `here:<game>` sets)."""

    def __init__(self, client: aioredis.Redis | RedisCluster, keys: Keys, *, process_id: str,
                 clock_ms: Callable[[], int], ttl_ms: int = PRESENCE_TTL_MS) -> None:
        self.redis = client
        self.keys = keys
        self.process_id = process_id
        self.clock_ms = clock_ms
        self.ttl_ms = ttl_ms
        self.open: dict[tuple[str, str], int] = {}  # (player, game) -> streams open here
        self._refresher: asyncio.Task[None] | None = None

    async def _mark(self, player: str, game_id: str) -> None:
        key = self.keys.player(player, f"here:{game_id}")
        now = self.clock_ms()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(key, "-inf", now)
            pipe.zadd(key, {self.process_id: now + self.ttl_ms})
            pipe.pexpire(key, self.ttl_ms)
            await pipe.execute()

    async def enter(self, player: str, game_id: str) -> None:
        """A stream of `game_id` for `player`'s seat opened here: present until it closes."""
        self.open[(player, game_id)] = self.open.get((player, game_id), 0) + 1
        await self._mark(player, game_id)
        if self._refresher is None or self._refresher.done():
            self._refresher = asyncio.create_task(self._refresh(), name="presence")

    async def leave(self, player: str, game_id: str) -> None:
        left = self.open.get((player, game_id), 0) - 1
        if left > 0:
            self.open[(player, game_id)] = left
            return
        self.open.pop((player, game_id), None)
        with contextlib.suppress(Exception):  # the entry expires anyway
            await self.redis.zrem(self.keys.player(player, f"here:{game_id}"), self.process_id)

    async def _refresh(self) -> None:
        while self.open:
            await asyncio.sleep(self.ttl_ms / 3000)
            for player, game_id in list(self.open):
                try:
                    await self._mark(player, game_id)
                except Exception as exc:
                    if not store_unavailable(exc):
                        raise
                    log.warning("presence_not_refreshed", error=str(exc))

    async def present(self, player: str, game_id: str) -> bool:
        """Whether any process streams `game_id` to `player` now."""
        key = self.keys.player(player, f"here:{game_id}")
        return bool(await self.redis.zcount(key, self.clock_ms(), "+inf"))


class PlayerFeed:
    """Copies players' facts into their streams (after a write, and by the sweeper), and
    serves StreamPlayerEvents."""

    def __init__(self, client: aioredis.Redis | RedisCluster, keys: Keys, hub: FeedHub, *,
                 clock_ms: Callable[[], int], limits: Limits, presence: Presence,
                 connection: StoreConnection | None = None,
                 notifier: Notifier | None = None) -> None:
        self.redis = client
        self.keys = keys
        self.hub = hub
        self.clock_ms = clock_ms
        self.limits = limits
        self.presence = presence
        self.notifier = notifier  # the webhooks, where configured
        self._copy = (connection or RedisPyConnection(client)).script(_COPY)

    def _pending(self, game_id: str) -> str:
        return self.keys.player_facts_pending(self.keys.bucket(game_id))

    # ---- the write's steps (operations.effects) ---------------------------------------

    async def intend(self, game_id: str, keys: Iterable[str]) -> None:
        """Before a write recording facts under `keys` in the game's hash: note that it may."""
        now = self.clock_ms()
        await self.redis.zadd(self._pending(game_id),
                              {f"{game_id}/{key}": now for key in keys})

    async def after_write(self, game_id: str, keys: Iterable[str]) -> None:
        """Copy the facts a write recorded; a Redis that fails here leaves them to the
        sweeper, never to the caller whose write landed."""
        try:
            for key in keys:
                await self.copy(game_id, key)
        except Exception as exc:
            if not store_unavailable(exc):
                raise
            log.warning("player_facts_deferred", game_id=game_id, error=str(exc))

    async def copy(self, game_id: str, key: str) -> int:
        """Copy the facts recorded under `key` into their players' streams (each once), queue
        their webhooks, then forget them and the intent; how many were copied now."""
        game = self.keys.game(game_id)
        name = player_facts.field(key)
        raw = cast(bytes | None, await self.redis.hget(game, name))
        copied = 0
        for place, fact in enumerate(player_facts.unpack(raw) if raw else []):
            copied += bool(await self.append(fact, f"{game_id}/{key}/{place}"))
            await self._webhook(fact, f"{game_id}/{key}/{place}")
        if raw:
            await self.redis.hdel(game, name)
        await self.redis.zrem(self._pending(game_id), f"{game_id}/{key}")
        return copied

    async def append(self, fact: player_games_pb2.PlayerEvent, fact_id: str) -> int:
        """Append `fact` to its player's stream unless `fact_id` is there; its seq, else 0."""
        player = fact.player_id
        now = self.clock_ms()
        seq = await self._copy(
            [self.keys.player(player, "feed"), self.keys.player(player, "copied"),
             self.keys.player(player, "seq")],
            [fact_id, fact.SerializeToString(deterministic=True), now, now - COPIED_KEEP_MS,
             FEED_MAXLEN, self.limits.retention_ms])
        return int(seq)

    async def _webhook(self, fact: player_games_pb2.PlayerEvent, fact_id: str) -> None:
        if self.notifier is None:
            return
        kind = fact.WhichOneof("kind")
        base: dict[str, Any] = {"game_id": fact.game_id,
                                "variant": wire.variant_name(fact.variant)}
        if kind == "turn":
            if await self.presence.present(fact.player_id, fact.game_id):
                return  # the player has the game open: no push
            await self.notifier.enqueue(TURN_STARTED, base | {
                "version": fact.game_version, "seat": fact.seat, "name": fact.seat_name,
                "player_id": fact.player_id, "deadline_ms": fact.turn.deadline_ms,
            }, key=f"player-fact/{fact_id}")
        elif kind == "match_found":  # matchmaking seated the player (docs/ratings.md)
            found = fact.match_found
            await self.notifier.enqueue(MATCH_FOUND, base | {
                "ticket_id": found.ticket_id, "seat": fact.seat, "name": fact.seat_name,
                "player_id": fact.player_id, "table_size": found.table_size,
                "bots": found.bots, "rated": found.rated,
            }, key=f"player-fact/{fact_id}")
        elif kind == "invitation" and fact.invitation.state == (
                player_games_pb2.INVITATION_STATE_PENDING):
            invitation = fact.invitation
            await self.notifier.enqueue(INVITATION_CREATED, base | {
                "invitation_id": invitation.invitation_id, "seat": invitation.seat,
                "player_id": fact.player_id, "host_player": invitation.host_player,
                "expires_at_ms": invitation.expires_at_ms,
            }, key=f"player-fact/{fact_id}")

    async def sweep(self) -> int:
        """Copy the facts of writes whose process died before copying them; how many."""
        copied = 0
        now = self.clock_ms()
        for bucket in range(self.keys.buckets):
            members = cast(list[bytes], await self.redis.zrangebyscore(
                self.keys.player_facts_pending(bucket), "-inf", now - GRACE_MS,
                start=0, num=SWEEP_BATCH))
            for member in members:
                game_id, _, _key = member.decode().partition("/")
                for left in await self._left(game_id):
                    copied += await self.copy(game_id, left)
                await self.redis.zrem(self.keys.player_facts_pending(bucket), member)
        if copied:
            log.info("player_facts_copied_by_sweeper", facts=copied)
        return copied

    async def _left(self, game_id: str) -> list[str]:
        """The keys of the game's facts still in its hash."""
        fields = cast(list[bytes], await self.redis.hkeys(self.keys.game(game_id)))
        prefix = player_facts.FIELD_PREFIX.encode()
        return sorted(f[len(prefix):].decode() for f in fields if f.startswith(prefix))

    # ---- StreamPlayerEvents -------------------------------------------------------------

    async def read(self, player: str, after_seq: int, count: int) -> list[tuple[int, bytes]]:
        entries = cast(StreamEntries, await self.redis.xrange(
            self.keys.player(player, "feed"), min=stream_id(after_seq + 1), max="+",
            count=count))
        return [(stream_seq(entry_id), fields[b"f"]) for entry_id, fields in entries]

    async def stream(self, request: player_games_pb2.StreamPlayerEventsRequest,
                     caller: Caller) -> AsyncIterator[bytes]:
        """Serialised StreamPlayerEventsResponse messages: the caller's facts after
        `after_seq`, then new ones as they are copied (the stream does not end by itself).
        Subscribed before each backlog read, so backlog + live covers every fact; a stream
        that falls behind the hub resubscribes and reads on from the store (as StreamResults
        does)."""
        player = player_required(caller)
        facts = entries_after(self.hub, f"p:{player}", self.keys.player(player, "feed"),
                              lambda after, count: self.read(player, after, count),
                              request.after_seq, page=FEED_PAGE,
                              limit=self.limits.subscriber_buffer)
        async for seq, data in facts:
            yield _response(seq, data)


def _response(seq: int, data: bytes) -> bytes:
    event = player_games_pb2.PlayerEvent.FromString(data)
    event.seq = seq
    return player_games_pb2.StreamPlayerEventsResponse(event=event).SerializeToString(
        deterministic=True)
