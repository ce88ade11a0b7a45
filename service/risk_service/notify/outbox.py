"""Exactly-once enqueue from a game's commit: the notices a commit makes are queued once each,
whether or not the process that committed lives to queue them.

A game's keys and an endpoint's queue are in different slots, so no one script can write
both. The commit therefore writes its notices into the game's own hash (field
`w:<version>`, operations/notices.py), atomically with the change. Just before that write,
the committing process notes an intent, `<game id>/<version>` in the pending index
(`Keys.notices_pending`, bucketed like the other indexes); after the write landed, the
`Notify` effect queues the notices (each under an id derived from the game, the version,
its place and its body, so queueing twice is a no-op: `queue.put` answers "duplicate"),
deletes the field and drops the intent. If the process dies between the write and the
effect, the sweeper of any process finds the intent once it is `GRACE_MS` old and does the
same. An intent whose commit never landed (a lost race, a crash before the write) finds no
field and is dropped. Under RISK_DURABILITY=replica the intent, like the queue's writes
(queue.py), is acknowledged only once the replicas confirm it: on a Redis Cluster the pending
index is on another master than the game, whose commit's `WAIT` does not cover it. The one
gap: a process that stalls longer than `GRACE_MS` between the intent and the write, then dies
right after the write, leaves the field without an intent; those notices go out when a later
commit of the game with notices of its own is swept, as the sweep drains every `w:` field of
the game it visits.
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_service.notify.queue import NotReplicated
from risk_service.operations.notices import Notice, outbox_field, unpack
from risk_service.store.connection import StoreConnection
from risk_service.store.keys import Keys

GRACE_MS = 5_000  # an intent younger than this may belong to a commit still being written
SWEEP_BATCH = 256  # intents taken per bucket and sweep


class Outbox:
    def __init__(self, connection: StoreConnection, keys: Keys, *, wait_replicas: int = 0,
                 wait_timeout_ms: int = 1000) -> None:
        self.connection = connection
        self.keys = keys
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms

    def _pending(self, game_id: str) -> str:
        return self.keys.notices_pending(self.keys.bucket(game_id))

    async def intend(self, game_id: str, version: int, now_ms: int) -> None:
        """Before the commit of `version` that records notices: note that it may (confirmed by
        the replicas under replica durability, else `NotReplicated`: the commit is not made)."""
        add = ("ZADD", self._pending(game_id), now_ms, f"{game_id}/{version}")
        if not self.wait_replicas:
            await self.connection.call(*add)
            return
        added, acked = await self.connection.call_adjacent(
            add, ("WAIT", self.wait_replicas, self.wait_timeout_ms), key=self._pending(game_id))
        if isinstance(added, Exception):
            raise added
        if isinstance(acked, Exception) or acked < self.wait_replicas:
            raise NotReplicated(self.wait_replicas, self.wait_timeout_ms)

    async def take(self, game_id: str, version: int) -> list[Notice]:
        """The notices the commit of `version` recorded and nobody queued yet."""
        value = await self.connection.call("HGET", self.keys.game(game_id),
                                           outbox_field(version))
        return unpack(value) if value else []

    async def left(self, game_id: str) -> list[int]:
        """The versions of the game whose notices are still in its hash."""
        fields: Sequence[bytes] = await self.connection.call("HKEYS", self.keys.game(game_id))
        return sorted(int(f[2:]) for f in fields if f.startswith(b"w:") and f[2:].isdigit())

    async def done(self, game_id: str, version: int) -> None:
        """The notices of `version` are queued: forget them and the intent."""
        await self.connection.call("HDEL", self.keys.game(game_id), outbox_field(version))
        await self.connection.call("ZREM", self._pending(game_id), f"{game_id}/{version}")

    async def stale_intents(self, now_ms: int) -> list[tuple[str, int]]:
        """(game id, version) of every intent older than `GRACE_MS`, in every bucket."""
        found = []
        for bucket in range(self.keys.buckets):
            members = await self.connection.call(
                "ZRANGEBYSCORE", self.keys.notices_pending(bucket), "-inf", now_ms - GRACE_MS,
                "LIMIT", 0, SWEEP_BATCH)
            for member in members:
                game_id, _, version = member.decode().rpartition("/")
                found.append((game_id, int(version)))
        return found
