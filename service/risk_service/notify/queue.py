"""The webhook queues in Redis: one per endpoint, worked by every process, durable across
restarts and failover as the games are (the same Redis, the same AOF and replicas).

An endpoint's keys share its own hash tag (`Keys.webhook`), so every step below is one
script on one slot and endpoints spread over a cluster's slots:

- `due`: sorted set, message id -> when it is next to be sent (ms);
- `msg`: hash, message id -> its body (the envelope, exactly the bytes that are signed);
- `meta`: hash, message id -> `<enqueued ms>|<attempts>|<type>`;
- `done`: sorted set, message id -> when it was delivered: an id enqueued again while it is
  there (a retried CreateRound, a sweep racing the committing process) is not sent again;
  kept `DONE_KEEP_MS` and at most the queue's bound;
- `dead`: list, the newest `DEAD_KEEP` dead letters (`<id> <type> <reason> <ms>`), for an
  operator;
- `stats`: hash, `delivered`, `failed` (attempts) and `dead` counts of the endpoint, over
  every process and restart;
- `gone`: string, set when the endpoint answered 410 Gone: nothing more is sent to it.

A claim is a lease: claiming moves a due message's time to the lease's end and counts the
attempt, so no other process sends it meanwhile, and one claimed by a process that died
is due again when the lease ends and any process takes it over. The attempt count fences the
outcome: a retry or a dead letter is recorded only by the claim of the current attempt (a
process whose lease ran out before it finished cannot reschedule a message another process
holds); a delivery always removes the message (it reached the endpoint).

Durable as a commit is: under RISK_DURABILITY=replica (`wait_replicas`), queueing a message is
acknowledged only once that many replicas confirm it (`WAIT` right behind the script, on the
connection that ran it, as `GameStore` does for a commit); otherwise `put` raises
`NotReplicated`, which the callers treat as the store not serving: the source of the message
(a commit's outbox field, a player fact, a retried request) is kept, and queued again later.
A failover can then lose no message whose enqueue was acknowledged. The delivery side does
not wait: losing a delivery's record to a failover only sends it again, with the same id.

Bounded: an endpoint's queue holds at most `max_len` messages; past that, a new message is
dead-lettered at once (reason `queue_full`) rather than evicting older ones, which the
endpoint has been owed longer. Messages older than the maximum age are dead-lettered by the
worker that next fails to deliver them (delivery.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from redis.exceptions import RedisError

from risk_service.store.connection import Arg, Script, StoreConnection
from risk_service.store.keys import Keys

PARTS = ("due", "msg", "meta", "done", "dead", "stats", "gone")
DONE_KEEP_MS = 24 * 3600 * 1000  # an id delivered is not sent again if enqueued within this
DEAD_KEEP = 1000  # dead letters kept per endpoint for an operator to read

# KEYS: the endpoint's PARTS; ARGV: id, body, type, now, max_len, done horizon, dead kept
_PUT = """
local due, msg, meta, done, dead, stats, gone = unpack(KEYS)
local id, kind, now = ARGV[1], ARGV[3], ARGV[4]
local function bury(reason)
  redis.call('HINCRBY', stats, 'dead', 1)
  redis.call('LPUSH', dead, id .. ' ' .. kind .. ' ' .. reason .. ' ' .. now)
  redis.call('LTRIM', dead, 0, tonumber(ARGV[7]) - 1)
end
if redis.call('EXISTS', gone) == 1 then bury('gone') return 'gone' end
if redis.call('HEXISTS', meta, id) == 1 then return 'duplicate' end
redis.call('ZREMRANGEBYSCORE', done, '-inf', ARGV[6])
if redis.call('ZSCORE', done, id) then return 'duplicate' end
if redis.call('ZCARD', due) >= tonumber(ARGV[5]) then bury('queue_full') return 'full' end
redis.call('HSET', msg, id, ARGV[2])
redis.call('HSET', meta, id, now .. '|0|' .. kind)
redis.call('ZADD', due, now, id)
return 'queued'
"""

# KEYS: due, msg, meta, gone; ARGV: now, lease end, count. Returns flat [id, body, meta]...
_CLAIM = """
if redis.call('EXISTS', KEYS[4]) == 1 then return {} end
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, id in ipairs(ids) do
  local body = redis.call('HGET', KEYS[2], id)
  local meta = redis.call('HGET', KEYS[3], id)
  if not body or not meta then
    redis.call('ZREM', KEYS[1], id)  -- half a message: nothing to send
  else
    local born, tries, kind = string.match(meta, '^(%d+)|(%d+)|(.*)$')
    meta = born .. '|' .. (tonumber(tries) + 1) .. '|' .. kind
    redis.call('HSET', KEYS[3], id, meta)
    redis.call('ZADD', KEYS[1], ARGV[2], id)
    out[#out + 1] = id
    out[#out + 1] = body
    out[#out + 1] = meta
  end
end
return out
"""

# KEYS: due, msg, meta, done, stats; ARGV: id, now, done horizon, max kept
_DELIVERED = """
local id = ARGV[1]
redis.call('ZREM', KEYS[1], id)
redis.call('HDEL', KEYS[2], id)
redis.call('HDEL', KEYS[3], id)
redis.call('ZADD', KEYS[4], ARGV[2], id)
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', ARGV[3])
redis.call('ZREMRANGEBYRANK', KEYS[4], 0, -tonumber(ARGV[4]) - 1)
redis.call('HINCRBY', KEYS[5], 'delivered', 1)
return 1
"""

# KEYS: due, meta, stats; ARGV: id, attempt, next due. 0: another claim holds it now
_RETRY = """
local meta = redis.call('HGET', KEYS[2], ARGV[1])
if not meta or string.match(meta, '^%d+|(%d+)|') ~= ARGV[2] then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('HINCRBY', KEYS[3], 'failed', 1)
return 1
"""

# KEYS: due, msg, meta, dead, stats; ARGV: id, attempt, reason, now, dead kept
_BURY = """
local meta = redis.call('HGET', KEYS[3], ARGV[1])
if not meta or string.match(meta, '^%d+|(%d+)|') ~= ARGV[2] then return 0 end
local kind = string.match(meta, '^%d+|%d+|(.*)$')
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HINCRBY', KEYS[5], 'failed', 1)
redis.call('HINCRBY', KEYS[5], 'dead', 1)
redis.call('LPUSH', KEYS[4], ARGV[1] .. ' ' .. kind .. ' ' .. ARGV[3] .. ' ' .. ARGV[4])
redis.call('LTRIM', KEYS[4], 0, tonumber(ARGV[5]) - 1)
return 1
"""

# KEYS: due, msg, meta, dead, stats, gone; ARGV: now. The endpoint said 410 Gone: stop, and
# dead-letter what is queued for it. Returns how many were.
_GONE = """
redis.call('SET', KEYS[6], ARGV[1])
local n = redis.call('ZCARD', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
if n > 0 then
  redis.call('HINCRBY', KEYS[5], 'dead', n)
  redis.call('LPUSH', KEYS[4], '* * gone ' .. ARGV[1] .. ' (' .. n .. ' messages)')
end
return n
"""


class NotReplicated(RedisError):
    """A queue write the master took but fewer replicas than asked confirmed in time. It is
    a RedisError, so the callers treat it as the store not serving (the write may still
    reach a replica; whatever queued it keeps its source and queues it again)."""

    def __init__(self, replicas: int, timeout_ms: int) -> None:
        super().__init__(f"a webhook queue write was not confirmed by {replicas} replica(s) "
                         f"within {timeout_ms} ms")


async def durable(script: Script, keys: list[str], args: list[Arg], replicas: int,
                  timeout_ms: int) -> object:
    """Run a write script; with `replicas`, `WAIT` follows it on the same connection and
    the write stands acknowledged only if that many replicas confirm it in time."""
    if not replicas:
        return await script(keys, args)
    reply, acked = await script.run(keys, args, ("WAIT", replicas, timeout_ms))
    if isinstance(reply, Exception):
        raise reply
    if isinstance(acked, Exception) or acked < replicas:
        raise NotReplicated(replicas, timeout_ms)
    return reply


@dataclass(frozen=True, slots=True)
class Claimed:
    """A message this process holds under a lease: send it, then settle it."""

    id: str
    body: bytes
    kind: str
    enqueued_ms: int
    attempt: int  # 1 for the first attempt


class WebhookQueue:
    """The queues of every endpoint, through the store's connection."""

    def __init__(self, connection: StoreConnection, keys: Keys, *, max_len: int,
                 wait_replicas: int = 0, wait_timeout_ms: int = 1000) -> None:
        self.connection = connection
        self.keys = keys
        self.max_len = max_len
        self.wait_replicas = wait_replicas  # RISK_DURABILITY=replica: puts wait for them
        self.wait_timeout_ms = wait_timeout_ms
        script = connection.script
        self._put = script(_PUT)
        self._claim = script(_CLAIM)
        self._delivered = script(_DELIVERED)
        self._retry = script(_RETRY)
        self._bury = script(_BURY)
        self._gone = script(_GONE)

    def _k(self, endpoint: str, *parts: str) -> list[str]:
        return [self.keys.webhook(endpoint, part) for part in parts]

    async def put(self, endpoint: str, msg_id: str, kind: str, body: bytes, now_ms: int) -> str:
        """Queue a message, due now: "queued", "duplicate" (queued or delivered already under
        this id), "full" or "gone" (dead-lettered at once, counted). Under replica
        durability, raises `NotReplicated` unless the replicas confirmed it."""
        reply = await durable(self._put, self._k(endpoint, *PARTS),
                              [msg_id, body, kind, now_ms, self.max_len,
                               now_ms - DONE_KEEP_MS, DEAD_KEEP],
                              self.wait_replicas, self.wait_timeout_ms)
        return reply.decode() if isinstance(reply, bytes) else str(reply)

    async def claim(self, endpoint: str, now_ms: int, lease_ms: int, count: int
                    ) -> list[Claimed]:
        """Up to `count` due messages, held until `now_ms + lease_ms`; none for an endpoint
        that is gone."""
        flat = await self._claim(self._k(endpoint, "due", "msg", "meta", "gone"),
                                 [now_ms, now_ms + lease_ms, count])
        claimed = []
        for i in range(0, len(flat), 3):
            born, attempt, kind = flat[i + 2].decode().split("|", 2)
            claimed.append(Claimed(flat[i].decode(), flat[i + 1], kind, int(born),
                                   int(attempt)))
        return claimed

    async def delivered(self, endpoint: str, message: Claimed, now_ms: int) -> None:
        await self._delivered(self._k(endpoint, "due", "msg", "meta", "done", "stats"),
                              [message.id, now_ms, now_ms - DONE_KEEP_MS, self.max_len])

    async def retry(self, endpoint: str, message: Claimed, due_ms: int) -> bool:
        """Send again at `due_ms`; False if another process holds a later attempt."""
        return bool(await self._retry(self._k(endpoint, "due", "meta", "stats"),
                                      [message.id, message.attempt, due_ms]))

    async def bury(self, endpoint: str, message: Claimed, reason: str, now_ms: int) -> bool:
        """Dead-letter the message; False if another process holds a later attempt."""
        return bool(await self._bury(self._k(endpoint, "due", "msg", "meta", "dead", "stats"),
                                     [message.id, message.attempt, reason, now_ms, DEAD_KEEP]))

    async def gone(self, endpoint: str, now_ms: int) -> int:
        """Stop sending to the endpoint for good; how many queued messages were buried."""
        return int(await self._gone(self._k(endpoint, "due", "msg", "meta", "dead", "stats",
                                            "gone"), [now_ms]))

    async def depth(self, endpoint: str) -> int:
        return int(await self.connection.call("ZCARD", self.keys.webhook(endpoint, "due")))

    async def stats(self, endpoint: str) -> dict[str, int]:
        """The endpoint's counts over every process: delivered, failed (attempts), dead."""
        flat: Sequence[bytes] = await self.connection.call(
            "HGETALL", self.keys.webhook(endpoint, "stats"))
        if isinstance(flat, dict):  # redis-py's client parses HGETALL; the pipes do not
            return {k.decode(): int(v) for k, v in flat.items()}
        return {flat[i].decode(): int(flat[i + 1]) for i in range(0, len(flat), 2)}
