"""Redis keys and calls of tournament events: the event's record, the director's lease on it,
and the list of running events every process's director scans.

An event's keys share its tournament label's hash tag `{t:<label>}` with the rounds its
director creates (store/tournament_store.py), so on a Redis Cluster they sit on one slot. The
record is one hash: `v`, its version, and `r`, the serialised `risk.v1.EventRecord`; every
change is a compare-and-set on `v` in one script (`_SWAP`), so two processes that both read
version 7 cannot both write version 8. The lease (`_LEASE`) is a key holding the process id
of the director that seats the event's rounds now; it lapses unless renewed, so any process
takes the event over after its holder dies. The one key outside the labels,
`<p>:events`, is the set of labels of running events (written at start and at the end).
"""

from __future__ import annotations

import asyncio
from typing import cast

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from risk_proto.risk.v1 import events_pb2
from risk_service.store.connection import RedisPyConnection, StoreConnection

# Write the record at version ARGV[2] if it is at ARGV[1] now ('0': absent).
_SWAP = """
local held = redis.call('HGET', KEYS[1], 'v') or '0'
if held ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'r', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
"""

# Take the lease for ARGV[1] for ARGV[2] ms, or renew it if ARGV[1] holds it; 1 if held now.
_LEASE = """
local holder = redis.call('GET', KEYS[1])
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""


class EventStore:
    def __init__(self, client: aioredis.Redis | RedisCluster, prefix: str,
                 connection: StoreConnection | None = None) -> None:
        self.redis = client
        self.prefix = prefix
        run = connection or RedisPyConnection(client)
        self._swap = run.script(_SWAP)
        self._lease = run.script(_LEASE)
        # set when this process marks an event running: its director, idle, looks at once
        self.started = asyncio.Event()

    def record_key(self, label: str) -> str:
        return f"{self.prefix}:t:{{t:{label}}}:event"

    def lease_key(self, label: str) -> str:
        return f"{self.prefix}:t:{{t:{label}}}:event:lease"

    def running_key(self) -> str:
        return f"{self.prefix}:events"

    async def load(self, label: str) -> tuple[int, events_pb2.EventRecord] | None:
        """The record and its version, None if there is no event under `label`."""
        version, raw = cast(list[bytes | None],
                            await self.redis.hmget(self.record_key(label), ["v", "r"]))
        if version is None or raw is None:
            return None
        return int(version), events_pb2.EventRecord.FromString(raw)

    async def swap(self, label: str, held: int, record: events_pb2.EventRecord,
                   keep_ms: int) -> bool:
        """Write `record` as version `held + 1` if the stored one is still `held` (0: none)."""
        record.event.version = held + 1
        done = await self._swap([self.record_key(label)],
                                [str(held), str(held + 1),
                                 record.SerializeToString(deterministic=True), keep_ms])
        return bool(int(done))

    async def delete(self, label: str) -> None:
        await self.redis.delete(self.record_key(label))

    async def lease(self, label: str, holder: str, lease_ms: int) -> bool:
        """Hold (take or renew) the director's lease on the event; False if another holds it."""
        return bool(int(await self._lease([self.lease_key(label)], [holder, lease_ms])))

    async def release(self, label: str, holder: str) -> None:
        key = self.lease_key(label)
        if await self.redis.get(key) == holder.encode():
            await self.redis.delete(key)

    async def running(self) -> list[str]:
        members = cast(set[bytes], await self.redis.smembers(self.running_key()))
        return sorted(m.decode() for m in members)

    async def mark_running(self, label: str) -> None:
        await self.redis.sadd(self.running_key(), label)
        self.started.set()

    async def mark_done(self, label: str) -> None:
        await self.redis.srem(self.running_key(), label)
