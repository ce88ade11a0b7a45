"""Live fan-out on a Redis Cluster: feed readers woken by a per-game doorbell.

On a cluster one XREAD may only name streams of one slot, so the single-Redis reader's one
XREAD BLOCK over all its games cannot be had: a blocked connection waits on one slot only, and
polling every slot of ten thousand streamed games costs Redis more than the games do (the
first version polled; bench/RESULTS.md). Instead each commit rings a doorbell: on a cluster the
commit script ends with `SPUBLISH <stream key> <seq>` (a shard channel named like the stream,
so it lives in the game's slot, and costs nothing when no one listens). Each process keeps one
pub/sub connection per master (`Doorbell`) subscribed (SSUBSCRIBE) to the streams it reads;
a ring marks the game's slot for its reader, which then reads only the marked slots, each
with one non-blocking XREAD, in one pipeline that redis-py's cluster client sends to the
masters that serve them (following MOVED and ASK). Work is in proportion to events, not to
streamed games.

What the bell cannot promise, the reader covers: a feed is read once right after its bell is
subscribed (an event committed before that is found then), every slot is read once every
`sweep_s` (a ring lost with a pub/sub connection), and after a pub/sub or read error every
slot is read and every feed checked. A slot whose master changed (a failover to a replica
that may lag, a migration) has its bells moved to the new master and its feeds checked like
a reconnect on a single Redis: each must still find the entry it last read, else its
subscribers are told the stream was rolled back (feed.py). Replies of a round during which a
slot changed master are dropped and read again after that check.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any, cast

import redis.asyncio as aioredis
import structlog
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.crc import key_slot
from redis.exceptions import RedisError, SlotNotCoveredError

from risk_service.feed import _XREAD_COUNT, GameFeed, StreamReader
from risk_service.store.keys import XReadReply, stream_id

log = structlog.get_logger()

# what of the cluster client's connection settings a doorbell's own connection takes (besides
# every ssl_* one): who connects and how, not the cluster client's timeouts and retries
_ACCESS_KWARGS = ("username", "password", "connection_class")


def master_of(cluster: RedisCluster, slot: int) -> ClusterNode | None:
    """The master `cluster`'s slot map names for `slot`; None when it names none (a failover
    under way, a map not loaded yet: redis-py raises KeyError for a slot missing from it)."""
    try:
        return cluster.nodes_manager.get_node_from_slot(slot)
    except (SlotNotCoveredError, KeyError):
        return None


class Doorbell:
    """One pub/sub connection per master, subscribed to the shard channels (stream keys) of
    the games this process reads; `ring(key)` is called for each message, `lost()` when a
    connection failed (rings may have been missed)."""

    def __init__(self, cluster: RedisCluster) -> None:
        self.cluster = cluster
        self.ring: Callable[[bytes], None] = lambda key: None
        self.lost: Callable[[], None] = lambda: None
        self.pubsubs: dict[str, PubSub] = {}  # master name -> its pub/sub
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.node_of: dict[bytes, str] = {}  # channel -> the master it is subscribed on
        self.count: dict[str, int] = {}  # master -> channels subscribed there

    def _pubsub(self, name: str, host: str, port: int) -> PubSub:
        pubsub = self.pubsubs.get(name)
        if pubsub is None:
            # the cluster client's user, password and TLS (connection class, ssl_* files and
            # checks): without them a TLS port drops the connection, an ACL refuses SSUBSCRIBE
            kwargs = {key: value for key, value in self.cluster.connection_kwargs.items()
                      if key in _ACCESS_KWARGS or key.startswith("ssl_")}
            client = aioredis.Redis(connection_pool=aioredis.ConnectionPool(
                host=host, port=port, **kwargs))
            pubsub = self.pubsubs[name] = client.pubsub(ignore_subscribe_messages=True)
        return pubsub

    async def subscribe(self, slot: int, keys: list[bytes]) -> None:
        """Listen to `keys` (all of `slot`) on the master that serves the slot now."""
        await self.cluster.initialize()  # a no-op once the client has its slot map
        node = master_of(self.cluster, slot)
        if node is None:
            raise SlotNotCoveredError(f"slot {slot} has no master now")
        stale = [k for k in keys if self.node_of.get(k, node.name) != node.name]
        await self.unsubscribe(stale)
        pubsub = self._pubsub(node.name, node.host, int(node.port))
        await pubsub.ssubscribe(*keys)
        for key in keys:
            self.node_of[key] = node.name
        self.count[node.name] = self.count.get(node.name, 0) + len(keys)
        if node.name not in self.tasks:
            self.tasks[node.name] = asyncio.create_task(self._listen(node.name, pubsub),
                                                        name=f"doorbell:{node.name}")

    async def unsubscribe(self, keys: list[bytes]) -> None:
        by_node: dict[str, list[bytes]] = {}
        for key in keys:
            name = self.node_of.pop(key, None)
            if name is not None:
                by_node.setdefault(name, []).append(key)
        for name, channels in by_node.items():
            self.count[name] -= len(channels)
            if not self.count[name]:
                # nothing left there (the slots moved away, the node may be dead or a
                # replica now): drop the connection rather than keep reconnecting to it
                del self.count[name]
                await self._drop(name)
                continue
            with contextlib.suppress(RedisError, OSError):
                for channel in channels:  # one slot per SUNSUBSCRIBE
                    await self.pubsubs[name].sunsubscribe(channel)

    async def _drop(self, name: str) -> None:
        task, pubsub = self.tasks.pop(name, None), self.pubsubs.pop(name, None)
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await pubsub.aclose()

    async def _listen(self, name: str, pubsub: PubSub) -> None:
        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True,
                                                   timeout=1.0)
            except Exception as exc:  # the bell rings on: a listener that ended would leave
                # its master's games to the sweep alone
                if isinstance(exc, RedisError | OSError):
                    log.warning("doorbell_failed", node=name, error=str(exc))
                else:
                    log.error("doorbell_error", node=name, error=repr(exc), exc_info=exc)
                self.lost()
                await asyncio.sleep(0.5)
                continue
            if message is not None and message.get("type") in ("smessage", b"smessage"):
                self.ring(cast(bytes, message["channel"]))

    async def close(self) -> None:
        for name in list(self.pubsubs):
            await self._drop(name)


class ClusterStreamReader(StreamReader):
    """A `StreamReader` whose client is a `RedisCluster`: reads the slots its doorbell marks."""

    sweep_s = 1.0  # every slot is read this often whatever rang (set from the settings)

    def __init__(self, hub: Any, index: int, client: Any) -> None:
        super().__init__(hub, index, client)
        self.dirty: set[int] = set()  # slots with news (or not yet read)
        self.everything = True  # read every slot next round (and check every feed)
        self.belled: set[bytes] = set()  # stream keys whose doorbell is subscribed
        self.bell = Doorbell(cast(RedisCluster, client))  # the hub's, by attach_doorbell

    def _rang(self, key: bytes) -> None:
        if key in self.feeds:
            self.dirty.add(key_slot(key))
            self._wake()

    def _lost(self) -> None:
        self.everything = True
        self._wake()

    def _wake(self) -> None:
        if self.wake is not None and not self.wake.done():
            self.wake.set_result(None)

    def _master(self, slot: int) -> str:
        """The name of the master serving `slot`, "" while the slot map has none for it (a
        failover under way: a read of the slot fails and is tried again)."""
        node = master_of(cast(RedisCluster, self.redis), slot)
        return "" if node is None else str(node.name)

    async def _bells(self) -> None:
        """Subscribe the bells of new feeds (their slots are then read), drop the gone."""
        fresh: dict[int, list[bytes]] = {}
        for key in self.feeds:
            if key not in self.belled:
                fresh.setdefault(key_slot(key), []).append(key)
        for slot, keys in fresh.items():
            await self.bell.subscribe(slot, keys)
            self.belled.update(keys)
            self.dirty.add(slot)
        gone = [key for key in self.belled if key not in self.feeds]
        if gone:
            self.belled.difference_update(gone)
            await self.bell.unsubscribe(gone)

    async def _run(self) -> None:
        backoff = 0.05
        masters: dict[int, str] = {}  # slot -> the master its feeds were last read from
        failed = False
        next_sweep = 0.0
        while True:
            if not self.feeds:
                await self._idle(None)
                continue
            try:
                await cast(RedisCluster, self.redis).initialize()  # the slot map, once
                if failed:  # the reads in between may have gone to a new master
                    await self._verify()
                    failed = False
                await self._bells()
                groups: dict[int, dict[bytes, str]] = {}
                for key, feed in self.feeds.items():
                    groups.setdefault(key_slot(key), {})[key] = stream_id(feed.cursor)
                await self._check_masters(masters, groups)
                if self.everything or time.monotonic() >= next_sweep:
                    self.everything = False
                    next_sweep = time.monotonic() + self.sweep_s
                    todo = set(groups)
                else:
                    todo = self.dirty & set(groups)
                self.dirty.clear()
                before = {slot: self._master(slot) for slot in todo}
                replies: list[XReadReply | None] = []
                if todo:
                    async with cast(RedisCluster, self.redis).pipeline(
                            transaction=False) as pipe:
                        for slot in todo:
                            pipe.xread(groups[slot], count=_XREAD_COUNT)  # type: ignore[arg-type]
                        replies = cast(list[XReadReply | None], await pipe.execute())
            except Exception as exc:  # a reader outlives any failed round
                failed = True
                self.everything = True
                backoff = await self._wait_after(exc, backoff)
                continue
            backoff = 0.05
            for slot, reply in zip(todo, replies, strict=True):
                if self._master(slot) != before[slot]:
                    self.dirty.add(slot)  # read again once the new master has been checked
                    continue
                for key, entries in reply or ():
                    found = self.feeds.get(key)
                    if found is not None and entries:
                        found.deliver(entries)
                        if len(entries) >= _XREAD_COUNT:
                            self.dirty.add(slot)  # more where these came from
            if not self.dirty and not self.everything:
                await self._idle(max(0.0, next_sweep - time.monotonic()))

    async def _check_masters(self, masters: dict[int, str],
                             groups: dict[int, dict[bytes, str]]) -> None:
        """For every slot whose master changed since it was last read: move its bells to the
        new master and verify its feeds."""
        moved: list[GameFeed] = []
        for slot, streams in groups.items():
            master = self._master(slot)
            if not master:  # none known now: checked once the map has one
                self.dirty.add(slot)
                continue
            if masters.get(slot, master) != master:
                keys = [key for key in streams if key in self.feeds]
                moved += [self.feeds[key] for key in keys]
                await self.bell.subscribe(slot, keys)
                self.dirty.add(slot)
            masters[slot] = master
        for slot in [s for s in masters if s not in groups]:
            del masters[slot]
        if moved:
            log.info("feed_slots_moved", reader=self.index, games=len(moved))
            await self._verify(moved)

    async def _idle(self, timeout: float | None) -> None:
        """Wait `timeout` seconds (None: until a game is added), or less when a bell rings."""
        self.wake = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait([self.wake], timeout=timeout)
        finally:
            self.wake = None

    async def close(self) -> None:
        await super().close()
        await self.bell.close()


def attach_doorbell(readers: list[StreamReader], client: RedisCluster, sweep_s: float) -> None:
    """One doorbell (a pub/sub connection per master) for all of a process's cluster readers:
    a ring goes to the reader of the key's slot (FeedHub gives a game to reader slot % n)."""
    cluster_readers = [cast(ClusterStreamReader, r) for r in readers]
    bell = Doorbell(client)
    bell.ring = lambda key: cluster_readers[key_slot(key) % len(cluster_readers)]._rang(key)

    def lost() -> None:
        for reader in cluster_readers:
            reader._lost()

    bell.lost = lost
    for reader in cluster_readers:
        reader.bell = bell
        reader.sweep_s = sweep_s


def cluster_reader_client(redis_url: str, **kwargs: object) -> RedisCluster:
    """A cluster reader's client: one connection per master is all a round's pipeline uses."""
    return RedisCluster.from_url(redis_url, max_connections=2, **kwargs)
