"""Match requests in Redis: tickets, a queue per pool, and the claim that seats a table once.

Every matchmaking key shares one hash tag, `{<prefix>:mm}`, so each step below is one script
on one slot, on a single Redis and on a Redis Cluster alike (matchmaking writes a few keys per
request and per table, far from a hot slot at the rates of bench/matchmaking.py):

- `t:<ticket>` (hash): `s` its status (a MatchStatus number), `p` its player, `pool`, `exp`
  its expiry (ms), `b` the ticket as requested (a serialised MatchTicket), and `g` the game and
  `seat` once seated;
- `q:<pool>` (sorted set): the pool's waiting tickets, ticket -> when it began waiting (ms);
- `pools` (set): the pools that may hold waiting tickets;
- `pl:<player>` (string): the player's open ticket (waiting or being seated) and its request
  id, `<ticket>|<request id>`: one open request per player;
- `exp` (sorted set): waiting tickets by expiry (ms);
- `plan:<game>`: a formed table (a serialised MatchPlan) until its game exists;
- `matching` (sorted set): formed tables' games by the end of their lease (ms).

A table is taken by `claim`, one script: it seats the tickets only if every one is still
waiting and unexpired (marking them MATCHING with the table's game id and seat), takes them out
of the queue, stores the plan and leases it. The game is then created from the plan under its
fixed id (idempotently: `Commands.open_game(if_absent=True)`) and `finish` marks the tickets
MATCHED. A process that dies between the two leaves the plan leased; once the lease is over,
any process's matchmaker takes it (`stale`, which extends the lease first) and creates the same
game, so a ticket ends in exactly one game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from risk_proto.risk.v1 import matchmaking_pb2
from risk_service.store.connection import RedisPyConnection, StoreConnection

WAITING = matchmaking_pb2.MATCH_STATUS_WAITING
MATCHING = matchmaking_pb2.MATCH_STATUS_MATCHING
MATCHED = matchmaking_pb2.MATCH_STATUS_MATCHED
CANCELLED = matchmaking_pb2.MATCH_STATUS_CANCELLED
EXPIRED = matchmaking_pb2.MATCH_STATUS_EXPIRED

# KEYS: ticket, queue, pools, player, expiry
# ARGV: ticket id, player, pool, since, expires, request id, ticket bytes, keep ms
_REQUEST = """
local open = redis.call('GET', KEYS[4])
if open then return {0, open} end
redis.call('HSET', KEYS[1], 's', ARGV[9], 'p', ARGV[2], 'pool', ARGV[3], 'b', ARGV[7],
           'exp', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[8])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('SET', KEYS[4], ARGV[1] .. '|' .. ARGV[6], 'PX', ARGV[8])
redis.call('ZADD', KEYS[5], ARGV[5], ARGV[1])
return {1, ARGV[1]}
"""

# KEYS: ticket, queue, player, expiry; ARGV: ticket id, new status, keep ms, only if expired by
# (ms; 0: whenever)
_CLOSE = """
local s, exp = unpack(redis.call('HMGET', KEYS[1], 's', 'exp'))
if not s then return {-1, ''} end
if s ~= ARGV[5] then return {tonumber(s), redis.call('HGET', KEYS[1], 'g') or ''} end
if tonumber(ARGV[4]) > 0 and tonumber(exp) > tonumber(ARGV[4]) then return {tonumber(s), ''} end
redis.call('HSET', KEYS[1], 's', ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
local open = redis.call('GET', KEYS[3])
if open and string.sub(open, 1, #ARGV[1] + 1) == ARGV[1] .. '|' then
  redis.call('DEL', KEYS[3])
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {tonumber(ARGV[2]), ''}
"""

# KEYS: queue, matching, plan, expiry, then n tickets, then their n players' keys
# ARGV: game id, plan, lease end, now, n, then the n ticket ids
_CLAIM = """
local n = tonumber(ARGV[5])
if redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
for i = 1, n do
  local s, exp = unpack(redis.call('HMGET', KEYS[4 + i], 's', 'exp'))
  if s ~= ARGV[6 + n] or tonumber(exp) <= tonumber(ARGV[4]) then return 0 end
end
for i = 1, n do
  local id = ARGV[5 + i]
  redis.call('HSET', KEYS[4 + i], 's', ARGV[7 + n], 'g', ARGV[1], 'seat', i - 1)
  redis.call('PERSIST', KEYS[4 + i])
  redis.call('PERSIST', KEYS[4 + n + i])
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[4], id)
end
redis.call('SET', KEYS[3], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
"""

# KEYS: matching, plan, then n tickets, then their n players' keys
# ARGV: game id, n, keep ms, matching, matched, then the n ticket ids
_FINISH = """
local n = tonumber(ARGV[2])
for i = 1, n do
  local id = ARGV[5 + i]
  local s, g = unpack(redis.call('HMGET', KEYS[2 + i], 's', 'g'))
  if s == ARGV[4] and g == ARGV[1] then
    redis.call('HSET', KEYS[2 + i], 's', ARGV[5])
    redis.call('PEXPIRE', KEYS[2 + i], ARGV[3])
    local open = redis.call('GET', KEYS[2 + n + i])
    if open and string.sub(open, 1, #id + 1) == id .. '|' then
      redis.call('DEL', KEYS[2 + n + i])
    end
  end
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return 1
"""

# KEYS: matching; ARGV: now, lease end, count. The formed tables whose lease is over, leased
# again to the caller
_STALE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, game in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], game) end
return due
"""

# KEYS: pools, queue; ARGV: pool. Forget a pool whose queue is empty
_FORGET = """
if redis.call('ZCARD', KEYS[2]) == 0 then redis.call('SREM', KEYS[1], ARGV[1]) end
return 1
"""


class MatchQueue:
    """The matchmaking keys of one deployment (key prefix) and the scripts that change them."""

    def __init__(self, client: aioredis.Redis | RedisCluster, prefix: str,
                 connection: StoreConnection | None = None) -> None:
        self.redis = client
        self.stem = f"{prefix}:mm:{{{prefix}:mm}}"
        connection = connection or RedisPyConnection(client)
        self._request = connection.script(_REQUEST)
        self._close = connection.script(_CLOSE)
        self._claim = connection.script(_CLAIM)
        self._finish = connection.script(_FINISH)
        self._stale = connection.script(_STALE)
        self._forget = connection.script(_FORGET)

    def ticket_key(self, ticket_id: str) -> str:
        return f"{self.stem}:t:{ticket_id}"

    def queue_key(self, pool: str) -> str:
        return f"{self.stem}:q:{pool}"

    def player_key(self, player: str) -> str:
        return f"{self.stem}:pl:{player}"

    def plan_key(self, game_id: str) -> str:
        return f"{self.stem}:plan:{game_id}"

    @property
    def pools_key(self) -> str:
        return f"{self.stem}:pools"

    @property
    def expiry_key(self) -> str:
        return f"{self.stem}:exp"

    @property
    def matching_key(self) -> str:
        return f"{self.stem}:matching"

    async def request(self, ticket: matchmaking_pb2.MatchTicket, *, pool: str, since_ms: int,
                      request_id: str, keep_ms: int) -> str | None:
        """Queue `ticket` unless its player has an open one: None, else that one's
        `<ticket>|<request id>`."""
        done, value = cast(tuple[int, bytes], await self._request(
            [self.ticket_key(ticket.ticket_id), self.queue_key(pool), self.pools_key,
             self.player_key(ticket.player_id), self.expiry_key],
            [ticket.ticket_id, ticket.player_id, pool, since_ms, ticket.expires_at_ms,
             request_id, ticket.SerializeToString(deterministic=True), keep_ms, WAITING]))
        return None if int(done) else _text(value)

    async def read(self, ticket_id: str) -> dict[str, bytes]:
        """The ticket's hash (empty when there is none)."""
        fields = await self.redis.hgetall(self.ticket_key(ticket_id))
        return {_text(k): cast(bytes, v) for k, v in fields.items()}

    async def close(self, ticket_id: str, pool: str, player: str, status: int, *,
                    keep_ms: int, expired_by_ms: int = 0) -> tuple[int, str]:
        """Close a waiting ticket as `status` (CANCELLED, or EXPIRED when its expiry is at or
        before `expired_by_ms`): the status it has now (-1: no such ticket) and, when it is
        seated, its game."""
        status_now, game = cast(tuple[int, bytes], await self._close(
            [self.ticket_key(ticket_id), self.queue_key(pool), self.player_key(player),
             self.expiry_key],
            [ticket_id, status, keep_ms, expired_by_ms, WAITING]))
        return int(status_now), _text(game)

    async def due(self, now_ms: int, count: int) -> list[str]:
        """Waiting tickets whose expiry has passed."""
        return [_text(t) for t in await self.redis.zrangebyscore(
            self.expiry_key, "-inf", now_ms, start=0, num=count)]

    async def anything(self) -> bool:
        """Whether a ticket waits (a pool, an expiry) or a formed table is in flight, in one
        command: without any of them a matchmaker's pass has nothing to do."""
        return bool(await self.redis.exists(self.pools_key, self.expiry_key, self.matching_key))

    async def pools(self) -> list[str]:
        return sorted(_text(p) for p in await self.redis.smembers(self.pools_key))

    async def waiting(self, pool: str, count: int) -> list[tuple[str, int, bytes]]:
        """The pool's oldest `count` waiting tickets: (id, since ms, ticket bytes)."""
        entries = cast(list[tuple[bytes, float]], await self.redis.zrange(
            self.queue_key(pool), 0, count - 1, withscores=True))
        if not entries:
            await self._forget([self.pools_key, self.queue_key(pool)], [pool])
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for ticket, _since in entries:
                pipe.hmget(self.ticket_key(_text(ticket)), "s", "b")
            rows = await pipe.execute()
        out = []
        gone = []
        for (ticket, since), (status, body) in zip(entries, rows, strict=True):
            if status is None:  # its hash expired (no matchmaker ran for an hour past it)
                gone.append(ticket)
            elif int(status) == WAITING and body:
                out.append((_text(ticket), int(since), cast(bytes, body)))
        if gone:
            await self.redis.zrem(self.queue_key(pool), *gone)
        return out

    async def claim(self, plan: matchmaking_pb2.MatchPlan, pool: str, *, lease_end_ms: int,
                    now_ms: int) -> bool:
        """Seat the plan's tickets at its table, if every one still waits (one script)."""
        tickets = [seat.ticket_id for seat in plan.seats]
        players = [seat.player_id for seat in plan.seats]
        done = await self._claim(
            [self.queue_key(pool), self.matching_key, self.plan_key(plan.game_id),
             self.expiry_key, *map(self.ticket_key, tickets), *map(self.player_key, players)],
            [plan.game_id, plan.SerializeToString(deterministic=True), lease_end_ms, now_ms,
             len(tickets), *tickets, WAITING, MATCHING])
        return bool(int(done))

    async def plan(self, game_id: str) -> matchmaking_pb2.MatchPlan | None:
        raw = await self.redis.get(self.plan_key(game_id))
        return None if raw is None else matchmaking_pb2.MatchPlan.FromString(cast(bytes, raw))

    async def finish(self, plan: matchmaking_pb2.MatchPlan, *, keep_ms: int) -> None:
        """The plan's game exists: its tickets are MATCHED and the plan is forgotten."""
        tickets = [seat.ticket_id for seat in plan.seats]
        await self._finish(
            [self.matching_key, self.plan_key(plan.game_id), *map(self.ticket_key, tickets),
             *(self.player_key(seat.player_id) for seat in plan.seats)],
            [plan.game_id, len(tickets), keep_ms, MATCHING, MATCHED, *tickets])

    async def stale(self, now_ms: int, lease_end_ms: int, count: int) -> list[str]:
        """Formed tables whose lease ended (their process died or stalled), leased again."""
        return [_text(g) for g in await self._stale([self.matching_key],
                                                    [now_ms, lease_end_ms, count])]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def split_open(value: str) -> tuple[str, str]:
    """`<ticket>|<request id>` -> (ticket, request id)."""
    ticket, _, request_id = value.partition("|")
    return ticket, request_id


__all__: Sequence[str] = ["CANCELLED", "EXPIRED", "MATCHED", "MATCHING", "WAITING", "MatchQueue",
                          "split_open"]
