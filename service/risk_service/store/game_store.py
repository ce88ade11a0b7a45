"""The game store: one atomic commit per change, plus reads and the game index.

A commit writes the new snapshot, the action's events and the request record in one Lua script
that first checks the stored version still equals the version the caller read (optimistic
concurrency: a loser gets STALE and re-reads). The ListGames index is maintained after the
commit and can be rebuilt from the game hashes, so it never sits on the commit path.

Every script and every call of the hot path (commits, game reads, request records, event
backlogs) goes through the store's connection (store/connection.py), whichever topology it
serves; the indexes, campaigns' pages and the sweeper's bookkeeping use redis-py's client.
"""

from __future__ import annotations

import heapq
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import chain
from typing import Any, cast

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from risk_service.errors import Code, ServiceError, ServiceReason
from risk_service.store.connection import Arg, RedisPyConnection, Script, StoreConnection
from risk_service.store.keys import Keys, stream_id, stream_seq

_COMMIT = """
local game, stream, requests, log = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local expected, snap, status, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local req_field, req_value, first_seq = ARGV[5], ARGV[6], tonumber(ARGV[7])
local meta, entry, retention_ms = ARGV[8], ARGV[9], tonumber(ARGV[10])
local claim = ARGV[11]  -- a game-hash field that must not exist yet (a seat being joined)
local expected_cid, cid = ARGV[12], ARGV[13]  -- the read state's commit id; this commit's
local extra = tonumber(ARGV[14])  -- how many game-hash field/value pairs follow
local cfields = tonumber(ARGV[15 + 2 * extra])  -- then campaign-hash pairs, then the events
local first_event = 16 + 2 * extra + 2 * cfields
if redis.call('EXISTS', game) == 0 then return {'missing'} end
if req_field ~= '' then
  local prior = redis.call('HGET', requests, req_field)
  if prior then return {'duplicate', prior} end
end
local fields = redis.call('HMGET', game, 'version', 'seq', 'cid')
local stored_cid = fields[3] or ''  -- '' for a game whose last commit predates commit ids
-- a version number alone does not name a state: after Redis lost writes (a restore, a
-- failover) the same version can be reached again by other commits
if fields[1] ~= expected or stored_cid ~= expected_cid then
  return {'stale', fields[1], stored_cid}
end
if tonumber(fields[2]) + 1 ~= first_seq then return {'stale', fields[1], stored_cid} end
if claim ~= '' and redis.call('HEXISTS', game, claim) == 1 then return {'taken'} end
local seq = first_seq - 1
for i = first_event, #ARGV do
  seq = seq + 1
  redis.call('XADD', stream, '0-' .. seq, 'e', ARGV[i], 'c', cid)
end
local version = tonumber(expected) + 1
-- 'scid' = 'cid' says this code wrote the commit, so 'sver' and 'sidx' describe 'snap' (a
-- process of an earlier release writes 'snap' and 'cid' only: its snapshot is at 'version')
redis.call('HSET', game, 'version', version, 'seq', seq, 'status', status,
           'updated', now, 'meta', meta, 'cid', cid, 'scid', cid)
for i = 15, 14 + 2 * extra, 2 do redis.call('HSET', game, ARGV[i], ARGV[i + 1]) end
for i = 16 + 2 * extra, first_event - 1, 2 do redis.call('HSET', KEYS[5], ARGV[i], ARGV[i + 1]) end
local logged
if entry ~= '' then logged = redis.call('RPUSH', log, entry)
else logged = redis.call('LLEN', log) end
-- no snapshot: the state is the last one's plus the log entries from 'sidx' on
if snap ~= '' then redis.call('HSET', game, 'snap', snap, 'sver', version, 'sidx', logged) end
if req_field ~= '' then redis.call('HSET', requests, req_field, req_value) end
if retention_ms > 0 then
  for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], retention_ms) end
end
-- the game's doorbell: a shard channel named like the stream (so in the game's slot), on
-- which a cluster's feed readers listen (cluster_feed.py); with no listener it costs next to
-- nothing, and one script serves every topology (Redis 7)
redis.call('SPUBLISH', stream, seq)
return {'ok', tostring(version), tostring(seq)}
"""

# A new game: its hash and its creation events, at once (one slot: the game's hash tag).
# ARGV: commit id, field count n, '1' to leave a game already stored under the id alone (a
# retried round), the keys' expiry in ms (0: none), the n field/value pairs, the events.
_CREATE = """
if ARGV[3] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local n = tonumber(ARGV[2])
for i = 5, 4 + 2 * n, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
for i = 5 + 2 * n, #ARGV do
  redis.call('XADD', KEYS[2], '0-' .. (i - 4 - 2 * n), 'e', ARGV[i], 'c', ARGV[1])
end
local ttl = tonumber(ARGV[4])
if ttl > 0 then
  for i = 1, 2 do redis.call('PEXPIRE', KEYS[i], ttl) end
end
return 1
"""

# A game as a cold load needs it, in one round trip: its hash and the log entries committed
# after its snapshot (from list index 'sidx' on; none for a game last written by a release
# before snapshots were spaced out, whose snapshot is at its version).
_LOAD = """
local kept = redis.call('HMGET', KEYS[1], 'sidx', 'scid', 'cid')
local tail = {}
if kept[1] and kept[2] == kept[3] then
  tail = redis.call('LRANGE', KEYS[2], tonumber(kept[1]), -1)
end
return {redis.call('HGETALL', KEYS[1]), tail}
"""

# The largest sequence number a Redis stream id can carry: a client may resume after it.
MAX_SEQ = 2**64 - 1

# A campaign record changes only if it is still at the version the caller read.
_CAMPAIGN_CAS = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('HINCRBY', KEYS[1], 'version', 1)
return 1
"""

# Delete a campaign only if it is still at the version the sweeper judged idle.
_DROP_CAMPAIGN = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
"""

# Delete a lease only if this process still holds it (it may have expired and passed on).
_RELEASE_LEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# Extend a lease only if this process still holds it (a bot run longer than the lease).
_EXTEND_LEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""


class CommitOutcome(Enum):
    OK = "ok"
    STALE = "stale"
    DUPLICATE = "duplicate"
    MISSING = "missing"
    TAKEN = "taken"  # the claimed field (a seat's token) exists already


@dataclass(frozen=True, slots=True)
class CommitResult:
    outcome: CommitOutcome
    version: int = 0  # the new version (OK) or the stored one (STALE)
    prior: bytes = b""  # the stored request record (DUPLICATE)
    commit_id: str = ""  # the stored state's commit id (STALE)


@dataclass(frozen=True, slots=True)
class GameHead:
    """What the sweeper's scan reads of each game (`GameStore.heads`): a record's fields of the
    same names, without the snapshot, names and digests."""
    game_id: str
    variant: str
    status: int
    updated_ms: int
    meta: bytes


@dataclass(frozen=True, slots=True)
class GameRecord:
    game_id: str
    variant: str
    status: int
    version: int
    last_seq: int
    created_ms: int
    updated_ms: int
    players: int
    snapshot: bytes
    meta: bytes  # a serialised risk.v1.GameMeta (clocks, bots, delays)
    names: tuple[str, ...]
    seat_digests: tuple[bytes, ...]  # b"" for a seat no one has joined
    host_digest: bytes
    # the random id of the commit that wrote this state ("" for a game last written before
    # commit ids): with the version it names the state, even after Redis lost writes
    commit_id: str = ""
    # `snapshot` holds the state at this version (None: a game last written by a release
    # before snapshots were spaced out, whose snapshot is at `version`)...
    snapshot_version: int | None = None
    # ... and these serialised log entries (versions snapshot_version + 1 .. version, in
    # order) bring it to `version` through the rules (records.decode_state)
    tail: tuple[bytes, ...] = ()
    # a serialised risk.v1.Decision of the state at `version`, written by each commit that
    # writes no snapshot: what a ListGames summary needs of a state it does not rebuild
    decision: bytes = b""


def not_replicated(replicas: int, timeout_ms: int) -> ServiceError:
    """A write the master took but no replica confirmed in time. It is not undone (Redis
    cannot), and it may yet reach the replica: the client retries with the same request id,
    and the retry answers the stored reply once a replica has it (or commits the move if a
    failover lost it)."""
    return ServiceError(
        Code.UNAVAILABLE, ServiceReason.STORE_UNAVAILABLE,
        f"the write was not confirmed by {replicas} replica(s) within {timeout_ms} ms; retry "
        "with the same request_id", {"replicated": "false"})


def _int(value: bytes | None) -> int:
    return int(value) if value else 0


def _fields(reply: dict[bytes, bytes] | list[bytes]) -> dict[bytes, bytes]:
    """A hash's or a stream entry's fields: redis-py makes them a dict; the shared connection
    and a script give Redis' own reply, a flat field-value list."""
    if isinstance(reply, dict):
        return reply
    return dict(zip(reply[::2], reply[1::2], strict=True))


def _event_field(fields: dict[bytes, bytes] | list[bytes]) -> bytes:
    """An event stream entry's `e` field."""
    return _fields(fields)[b"e"]


def parse_record(game_id: str, raw: dict[bytes, bytes], tail: Sequence[bytes] = ()
                 ) -> GameRecord | None:
    """The record of a game hash (`HGETALL`) and the log entries from its `sidx` on; None
    for no game."""
    if not raw or b"snap" not in raw:
        return None
    # 'sver' describes 'snap' only if this code wrote the last commit (see _COMMIT)
    kept = b"scid" in raw and raw.get(b"scid") == raw.get(b"cid")
    sver = raw.get(b"sver") if kept else None
    players = _int(raw.get(b"players"))
    return GameRecord(
        game_id=game_id,
        variant=raw[b"variant"].decode(),
        status=_int(raw.get(b"status")),
        version=_int(raw.get(b"version")),
        last_seq=_int(raw.get(b"seq")),
        created_ms=_int(raw.get(b"created")),
        updated_ms=_int(raw.get(b"updated")),
        players=players,
        snapshot=raw[b"snap"],
        meta=raw.get(b"meta", b""),
        names=tuple(raw.get(f"name:{s}".encode(), b"").decode() for s in range(players)),
        seat_digests=tuple(raw.get(f"tok:{s}".encode(), b"") for s in range(players)),
        host_digest=raw.get(b"tok:host", b""),
        commit_id=raw.get(b"cid", b"").decode(),
        snapshot_version=int(sver) if sver is not None else None,
        tail=tuple(tail) if sver is not None else (),
        decision=raw.get(b"dec", b""),
    )


class GameStore:
    def __init__(self, client: aioredis.Redis | RedisCluster, keys: Keys | None = None,
                 connection: StoreConnection | None = None, *, wait_replicas: int = 0,
                 wait_timeout_ms: int = 1000) -> None:
        """`connection`: the one the process chose for its topology (server/app.py); None
        sends everything through `client` (a store built on a bare redis-py client)."""
        self.redis = client
        self.keys = keys or Keys()
        # the hot path and every script: the topology's connection; everything else uses
        # redis-py's pool
        self.connection: StoreConnection = (
            connection if connection is not None else RedisPyConnection(client))
        # RISK_DURABILITY=replica: a write is acknowledged only once this many replicas
        # confirm it (WAIT, on the connection that wrote it), within the timeout
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        script = self.connection.script
        self._commit = script(_COMMIT)
        self._load = script(_LOAD)
        self._create = script(_CREATE)
        self._release = script(_RELEASE_LEASE)
        self._extend = script(_EXTEND_LEASE)
        self._campaign_cas = script(_CAMPAIGN_CAS)
        self._drop_campaign = script(_DROP_CAMPAIGN)

    async def create(
        self,
        record: GameRecord,
        events: Sequence[bytes],
        extra_fields: Sequence[tuple[str, bytes]] = (),
        *,
        if_absent: bool = False,
        ttl_ms: int = 0,
    ) -> bool:
        """Write a new game and its creation events atomically, then index it. `extra_fields`
        are more game-hash fields (a tournament game's first fact). With `if_absent`, a game
        already stored under the id is left as it is and False returned (a retried round).
        With `ttl_ms` its keys expire that long after, unless a commit pushes it on."""
        k = self.keys
        fields: dict[str, bytes | str | int] = {
            "variant": record.variant,
            "status": record.status,
            "version": record.version,
            "seq": len(events),
            "created": record.created_ms,
            "updated": record.updated_ms,
            "players": record.players,
            "snap": record.snapshot,
            "meta": record.meta,
            "tok:host": record.host_digest,
            "cid": record.commit_id,
            # the creation's snapshot; the log has no entry yet
            "sver": record.version,
            "sidx": 0,
            "scid": record.commit_id,
        }
        for seat, seat_digest in enumerate(record.seat_digests):
            if seat_digest:
                fields[f"tok:{seat}"] = seat_digest
        for seat, name in enumerate(record.names):
            if name:
                fields[f"name:{seat}"] = name
        fields.update(extra_fields)
        args = [record.commit_id, len(fields), "1" if if_absent else "0", ttl_ms,
                *(part for pair in fields.items() for part in pair), *events]
        created = await self._write(self._create,
                                    [k.game(record.game_id), k.events(record.game_id)], args)
        if not created:
            return False
        await self.index(record.game_id, record.variant, None, record.status)
        return True

    def _write(self, script: Script, keys: Sequence[str], args: Sequence[Arg]
               ) -> Awaitable[Any]:
        """Run a write script; with `wait_replicas`, `WAIT` follows it on the same connection
        and the write stands acknowledged only if enough replicas confirm it in time. (The
        script's own coroutine when no WAIT follows: one frame less for every commit's
        reply to pass through.)"""
        if not self.wait_replicas:
            return script(keys, args)
        return self._write_waited(script, keys, args)

    async def _write_waited(self, script: Script, keys: Sequence[str], args: Sequence[Arg]
                            ) -> Any:
        reply, acked = await script.run(
            keys, args, ("WAIT", self.wait_replicas, self.wait_timeout_ms))
        if isinstance(reply, Exception):
            raise reply
        if isinstance(acked, Exception) or acked < self.wait_replicas:
            raise not_replicated(self.wait_replicas, self.wait_timeout_ms)
        return reply

    async def load(self, game_id: str) -> GameRecord | None:
        """The game with the log entries after its snapshot (one round trip, atomic), or
        None if there is no such game."""
        flat, tail = await self._load([self.keys.game(game_id), self.keys.log(game_id)])
        return parse_record(game_id, _fields(flat), tail)

    async def state_id(self, game_id: str) -> tuple[int, str] | None:
        """The stored state's (version, commit id), None if there is no such game: a cheap
        freshness check for a cached copy."""
        version, cid = await self.connection.call("HMGET", self.keys.game(game_id), "version",
                                                  "cid")
        return (int(version), (cid or b"").decode()) if version is not None else None

    async def request_record(self, game_id: str, request_field: str) -> bytes | None:
        """A stored request record (fingerprint + reply), if that request id was used."""
        if not request_field:
            return None
        return cast(bytes | None,
                    await self.connection.call("HGET", self.keys.requests(game_id),
                                               request_field))

    async def commit(
        self,
        game_id: str,
        *,
        expected_version: int,
        first_seq: int,
        snapshot: bytes,
        status: int,
        now_ms: int,
        events: Sequence[bytes],
        meta: bytes,
        log_entry: bytes = b"",
        request_field: str = "",
        request_value: bytes = b"",
        retention_ms: int = 0,
        fields: Sequence[tuple[str, bytes]] = (),
        campaign_id: str = "",
        campaign_fields: Sequence[tuple[str, bytes]] = (),
        claim: str = "",
        expected_commit_id: str = "",
        commit_id: str = "",
    ) -> CommitResult:
        """Apply one change's writes if the game is still at `expected_version`; with a
        retention (the end's, or a live game's idle expiry), every key of the game expires
        that long after this commit. `fields` are
        extra game-hash fields written in the same commit (a joined or reissued seat's token
        digest and name); with `claim`, the commit is TAKEN if that game-hash field exists
        (a seat someone joined first). The stored state must also be the one
        `expected_commit_id` wrote; `commit_id` names the new one (game hash field `cid`, and
        field `c` of each of its stream entries)."""
        keys = list(self.keys.game_keys(game_id))
        if campaign_fields:  # the campaign shares the game's slot: one atomic commit
            keys.append(self.keys.campaign(campaign_id))
        args: list[Arg] = [
            str(expected_version), snapshot, status, now_ms, request_field, request_value,
            first_seq, meta, log_entry, retention_ms, claim, expected_commit_id, commit_id,
            len(fields)]
        if fields:  # (most commits write none: no generator made for nothing)
            args += chain.from_iterable(fields)
        args.append(len(campaign_fields))
        if campaign_fields:
            args += chain.from_iterable(campaign_fields)
        args += events
        reply = await self._write(self._commit, keys, args)
        outcome = CommitOutcome(reply[0].decode())
        if outcome is CommitOutcome.OK:
            return CommitResult(outcome, version=int(reply[1]))
        if outcome is CommitOutcome.STALE:
            return CommitResult(outcome, version=_int(reply[1]),
                                commit_id=(reply[2] or b"").decode() if len(reply) > 2 else "")
        if outcome is CommitOutcome.DUPLICATE:
            return CommitResult(outcome, prior=reply[1])
        return CommitResult(outcome)

    # ---- campaigns -----------------------------------------------------------------------

    async def create_campaign(self, campaign_id: str, fields: dict[str, bytes | str | int]
                              ) -> None:
        await self.redis.hset(self.keys.campaign(campaign_id), mapping=fields)  # type: ignore[arg-type]
        await self.redis.zadd(self.keys.campaigns(self.keys.bucket(campaign_id)), {campaign_id: 0})

    async def load_campaign(self, campaign_id: str) -> dict[bytes, bytes]:
        return cast(dict[bytes, bytes],
                    await self.redis.hgetall(self.keys.campaign(campaign_id)))

    async def update_campaign(self, campaign_id: str, expected_version: int,
                              fields: Sequence[tuple[str, bytes | str]]) -> bool:
        """Write `fields` and bump the version if it is still `expected_version`."""
        done = await self._campaign_cas(
            [self.keys.campaign(campaign_id)],
            [expected_version, *(part for pair in fields for part in pair)])
        return bool(done)

    async def schedule_campaign(self, campaign_id: str, expires_ms: int) -> None:
        """Note when the campaign expires unless it is active again before (secondary)."""
        await self.redis.zadd(self.keys.campaign_expiring(self.keys.bucket(campaign_id)),
                              {campaign_id: expires_ms})

    async def drop_campaign(self, campaign_id: str, version: int | None) -> bool:
        """Delete the campaign record if it is still at `version` (None: it is gone already),
        then its index entries. False when it changed meanwhile (it stays, indexed)."""
        if version is not None and not await self._drop_campaign(
                [self.keys.campaign(campaign_id)], [version]):
            return False
        bucket = self.keys.bucket(campaign_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(self.keys.campaigns(bucket), campaign_id)
            pipe.zrem(self.keys.campaign_expiring(bucket), campaign_id)
            await pipe.execute()
        return True

    async def campaign_page(self, before: str, limit: int) -> list[str]:
        return await self._newest(self.keys.campaigns, before, limit)

    async def _newest(self, index: Callable[[int], str], before: str, limit: int) -> list[str]:
        """Up to `limit` ids older than `before` ('' for the newest), newest first, from every
        bucket of `index` (one bucket on a single Redis): each bucket's newest `limit`, merged."""
        start = f"({before}" if before else "+"
        async with self.redis.pipeline(transaction=False) as pipe:
            for bucket in range(self.keys.buckets):
                pipe.zrevrangebylex(index(bucket), start, "-", 0, limit)
            pages = cast(list[list[bytes]], await pipe.execute())
        ids = [i for page in pages for i in page]
        if len(pages) > 1:
            ids = heapq.nlargest(limit, ids)
        return [i.decode() for i in ids]

    async def read_log(self, game_id: str, start: int = 0, count: int | None = None
                       ) -> list[bytes]:
        """Serialised log entries from list index `start` on (`count` of them, or all)."""
        stop = -1 if count is None else start + count - 1
        return cast(list[bytes], await self.redis.lrange(self.keys.log(game_id), start, stop))

    # ---- sweeper bookkeeping (secondary; the game hash is the truth) -------------------------

    async def schedule(self, game_id: str, deadline_ms: int) -> None:
        """Record (or with 0, drop) the game's pending deadline in the deadline index."""
        key = self.keys.deadlines(self.keys.bucket(game_id))
        if deadline_ms:
            await self.redis.zadd(key, {game_id: deadline_ms})
        else:
            await self.redis.zrem(key, game_id)

    async def due(self, index: Callable[[int], str], now_ms: int, limit: int) -> list[str]:
        """Members of every bucket of `index` (Keys.deadlines, .expiring, .campaign_expiring)
        whose time has come, up to `limit` per bucket."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for bucket in range(self.keys.buckets):
                pipe.zrangebyscore(index(bucket), "-inf", now_ms, 0, limit)
            found = cast(list[list[bytes]], await pipe.execute())
        return [i.decode() for ids in found for i in ids]

    async def lease(self, game_id: str, owner: str, ms: int) -> bool:
        return bool(await self.redis.set(self.keys.lease(game_id), owner, nx=True, px=ms))

    async def take_turn(self, job: str, owner: str, ms: int) -> bool:
        """Whether `owner` holds the turn of the deployment-wide `job` for the next `ms`: a
        turn nobody holds (its holder stopped, or let it lapse) is taken, the holder's is
        renewed, another process's is left to it. Plain commands, not a script: a turn that
        lapses between the holder's GET and PEXPIRE and is taken meanwhile is renewed for
        its new holder, and both processes run the job once, which every job so held
        tolerates (the idle scan's writes are version-checked commits); at the next sweep
        the GET settles it. Two round trips for the holder, one for the others."""
        key = self.keys.turn(job)
        held = await self.redis.get(key)
        if held is None:
            return bool(await self.redis.set(key, owner, nx=True, px=ms))
        if held not in (owner.encode(), owner):  # (either client kind)
            return False
        return bool(await self.redis.pexpire(key, ms))

    async def first_look_at_bots(self, game_id: str, ms: int) -> bool:
        """True for the first caller within `ms`, across processes, to look at this stalled
        game's bots (sweeper.py); the others leave them alone until the mark expires."""
        return bool(await self.redis.set(self.keys.bots_looked_at(game_id), b"1", nx=True,
                                         px=ms))

    async def release(self, game_id: str, owner: str) -> None:
        await self._release([self.keys.lease(game_id)], [owner])

    async def extend_lease(self, game_id: str, owner: str, ms: int) -> bool:
        """Hold a lease `ms` longer, if `owner` still holds it; False when it passed on."""
        return bool(await self._extend([self.keys.lease(game_id)], [owner, ms]))

    async def retire(self, game_id: str, variant: str, expires_ms: int) -> None:
        """A game reached a final status: drop its deadline and note when it expires."""
        bucket = self.keys.bucket(game_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(self.keys.deadlines(bucket), game_id)
            pipe.zadd(self.keys.expiring(bucket), {f"{variant}:{game_id}": expires_ms})
            await pipe.execute()

    async def forget(self, member: str) -> None:
        """After retention (`member` is "<variant>:<game id>" from the expiring index):
        remove what is left of the game from every index; its own keys have expired."""
        variant, game_id = member.split(":", 1)
        k = self.keys
        b = k.bucket(game_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            for status in range(6):
                pipe.zrem(k.index("*", status, b), game_id)
                pipe.zrem(k.index(variant, status, b), game_id)
            pipe.zrem(k.expiring(b), member)
            pipe.zrem(k.deadlines(b), game_id)
            pipe.delete(*k.game_keys(game_id), k.lease(game_id), k.checkpoints(game_id))
            await pipe.execute()

    async def read_events(
        self, game_id: str, after_seq: int, count: int | None = None
    ) -> list[tuple[int, bytes]]:
        """Stored events with seq > after_seq, in order, as (seq, bytes)."""
        if after_seq >= MAX_SEQ:  # no stream id lies past the largest one (and +1 overflows)
            return []
        # through the shared connection: a thousand spectators joining at once read their
        # backlogs there, rather than growing redis-py's pool to hundreds of connections
        # that stay open idle (bench/RESULTS.md)
        command = ["XRANGE", self.keys.events(game_id), stream_id(after_seq + 1), "+"]
        if count is not None:
            command += ["COUNT", str(count)]
        entries = await self.connection.call(*command)
        return [(stream_seq(entry_id), _event_field(fields)) for entry_id, fields in entries]

    # ---- the ListGames index (secondary; rebuilt from the game hashes if lost) -------------

    # Game ids start with their creation time in hex, so the index sorted sets hold every
    # member at score 0 and order them lexicographically: newest first is ZREVRANGEBYLEX, and
    # the last id of a page is an exact cursor for the next one even while games are created.

    async def index(self, game_id: str, variant: str, old_status: int | None, status: int) -> None:
        k = self.keys
        b = k.bucket(game_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            if old_status is not None and old_status != status:
                pipe.zrem(k.index("*", old_status, b), game_id)
                pipe.zrem(k.index(variant, old_status, b), game_id)
            for key in (k.index("*", 0, b), k.index(variant, 0, b), k.index("*", status, b),
                        k.index(variant, status, b)):
                pipe.zadd(key, {game_id: 0})
            await pipe.execute()

    async def page(self, variant: str, status: int, before: str, limit: int) -> list[str]:
        """Up to `limit` game ids older than `before` ('' for the newest), newest first."""
        return await self._newest(lambda b: self.keys.index(variant, status, b), before, limit)

    async def count(self, variant: str, status: int) -> int:
        """How many games the index holds for `variant` / `status` (every bucket)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for bucket in range(self.keys.buckets):
                pipe.zcard(self.keys.index(variant, status, bucket))
            return sum(cast(list[int], await pipe.execute()))

    async def _each(self, commands: Iterable[tuple[Arg, ...]]) -> list[Any]:
        """`StoreConnection.call_each`, an error reply raised."""
        replies = await self.connection.call_each(*commands)
        error = next((reply for reply in replies if isinstance(reply, Exception)), None)
        if error is not None:
            raise error
        return replies

    async def heads(self, game_ids: Sequence[str]) -> list[GameHead | None]:
        """Each game's head (None for a game that is gone) in one round trip, without the rest
        of its hash: the sweeper's scan reads every waiting and active game this way and loads
        the whole record of only those whose bots it must look at."""
        replies = await self._each(("HMGET", self.keys.game(game_id), "variant", "status",
                                    "updated", "meta") for game_id in game_ids)
        return [None if variant is None
                else GameHead(game_id, variant.decode(), _int(status), _int(updated), meta or b"")
                for game_id, (variant, status, updated, meta) in zip(game_ids, replies,
                                                                     strict=True)]

    async def load_many(self, game_ids: Sequence[str]) -> list[GameRecord]:
        """Several games in one round trip, for summaries; ids whose game is gone are skipped.
        The records come without their log tails (`records.listed` summarises them from the
        snapshot and the stored decision): a page of 200 games neither reads 200 lists nor
        replays them."""
        replies = await self._each(("HGETALL", self.keys.game(game_id)) for game_id in game_ids)
        parsed = (parse_record(g, _fields(raw)) for g, raw in zip(game_ids, replies, strict=True))
        return [record for record in parsed if record is not None]
