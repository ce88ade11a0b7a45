"""Live fan-out on a Redis Cluster: feed readers woken by a per-game doorbell.

On a cluster one XREAD may only name streams of one slot, so the single-Redis reader's one
XREAD BLOCK over all its games cannot be had: a blocked connection waits on one slot only, and
polling every slot of ten thousand streamed games costs Redis more than the games do (the
first version polled; bench/RESULTS.md). Instead each commit rings a doorbell: on a cluster the
commit script ends with `SPUBLISH <stream key> <seq>` (a shard channel named like the stream,
so it lives in the game's slot, and costs nothing when no one listens). Each process keeps one
pub/sub connection per master (`Doorbell`, a `_Line` per master) subscribed (SSUBSCRIBE) to
the streams it reads; a ring marks the game's slot for its reader, which then reads only the
marked slots, each with one non-blocking XREAD, one pipeline per master (redis-py's cluster
client follows MOVED and ASK). Work is in proportion to events, not to streamed games.

One master's trouble stays its own. A master's line is made once, by its own task: the
subscribers that come while it connects wait in its wanted set rather than each connecting
(two first subscriptions racing in redis-py's `PubSub.connect` opened two connections, one
never read, and their games were served by the sweep alone). A reader's reads go out per
master, each in a task of its own, so a read that waits on a dead master holds back that
master's slots and no other; a failed master's slots are tried again after a backoff, and a
slot map refresh runs in a task of its own (redis-py runs a due refresh in whichever command
comes first, and one that asks a node that does not answer waits out its timeout). Before,
one master killed froze every game of every reader that had a slot on it, all of them when
it was the node REDIS_URL names.

What the bell cannot promise, the reader covers: a line rings every channel once its
subscription is confirmed (on connecting and on every reconnection: what was committed before
it is read then), every slot is read once every `sweep_s` (a ring lost some other way), and
a slot whose read failed is read again, its feeds checked first. A slot whose master changed
(a failover to a replica that may lag, a migration) has its bell moved to the new master and
its feeds checked like a reconnect on a single Redis: each must still find the entry it last
read, else its subscribers are told the stream was rolled back (feed.py). Replies of a read
during which a slot changed master are dropped and read again after that check.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any, cast

import structlog
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import Connection
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.crc import key_slot
from redis.exceptions import MovedError, RedisError, ResponseError, SlotNotCoveredError

from risk_service.feed import _XREAD_COUNT, GameFeed, StreamReader
from risk_service.store.keys import XReadReply, stream_id
from risk_service.store.unreachable import store_unavailable

log = structlog.get_logger()

# what of the cluster client's connection settings a doorbell's own connection takes (besides
# every ssl_* one): who connects and how, and how long a connection attempt may take; not the
# reply timeout (a line waits for messages as long as there are none) nor the retries (its
# task reconnects, and nothing else may connect it meanwhile)
_LINE_KWARGS = ("username", "password", "connection_class", "socket_connect_timeout")
_BACKOFF_S = (0.05, 1.0)  # first and longest wait before a failed line or read is tried again


def master_of(cluster: RedisCluster, slot: int) -> ClusterNode | None:
    """The master `cluster`'s slot map names for `slot`; None when it names none (a failover
    under way, a map not loaded yet: redis-py raises KeyError for a slot missing from it)."""
    try:
        return cluster.nodes_manager.get_node_from_slot(slot)
    except (SlotNotCoveredError, KeyError):
        return None


def _by_slot(keys: Iterable[bytes]) -> list[list[bytes]]:
    """`keys` in groups of one slot: one SSUBSCRIBE or SUNSUBSCRIBE may name one slot only."""
    groups: dict[int, list[bytes]] = {}
    for key in keys:
        groups.setdefault(key_slot(key), []).append(key)
    return list(groups.values())


class _Line:
    """One master's pub/sub connection: the shard channels it should carry (`want`) and the
    task that connects, subscribes them all, and reads its messages until the connection
    fails, then does it again. Only that task connects: a subscription sent meanwhile goes on
    the connection it made, or waits in `want` for it."""

    def __init__(self, bell: Doorbell, node: ClusterNode) -> None:
        self.bell = bell
        self.name = str(node.name)
        self.host, self.port = str(node.host), int(node.port)
        self.want: set[bytes] = set()
        self.conn: Connection | None = None  # while connected, with `want` subscribed
        self.lock = asyncio.Lock()  # (un)subscriptions go out one at a time, in order
        self.task = asyncio.create_task(self._run(), name=f"doorbell:{self.name}")

    async def send(self, command: str, keys: list[bytes]) -> None:
        """SSUBSCRIBE or SUNSUBSCRIBE `keys` now if connected (else the task subscribes what
        is wanted once it is). Only what still holds is sent: a key still wanted, one no
        longer wanted, whatever came in between."""
        async with self.lock:
            conn = self.conn
            if conn is None or not conn.is_connected:
                return
            subscribe = command == "SSUBSCRIBE"
            # a connection that fails here fails the task's read too, and its next one
            # subscribes what is wanted then
            with contextlib.suppress(RedisError, OSError):
                for group in _by_slot(k for k in keys if (k in self.want) == subscribe):
                    await conn.send_command(command, *group, check_health=False)

    async def _run(self) -> None:
        backoff = _BACKOFF_S[0]
        while True:
            conn = self.bell.connection(self.host, self.port)
            try:
                await conn.connect()  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
                async with self.lock:
                    self.conn = conn
                    for group in _by_slot(self.want):
                        await conn.send_command("SSUBSCRIBE", *group, check_health=False)
                async for _ in self._read(conn):
                    backoff = _BACKOFF_S[0]  # it answers: a later failure starts afresh
            except Exception as exc:  # the bell rings on: a line that ended would leave its
                # master's games to the sweep alone
                if store_unavailable(exc):
                    log.warning("doorbell_failed", node=self.name, error=str(exc))
                else:
                    log.error("doorbell_error", node=self.name, error=repr(exc), exc_info=exc)
            finally:
                self.conn = None
                with contextlib.suppress(Exception):
                    await conn.disconnect(nowait=True)
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, _BACKOFF_S[1])

    async def _read(self, conn: Connection) -> AsyncIterator[Any]:
        """Ring for each message and each confirmed subscription; yields after each."""
        while True:
            try:
                reply = await conn.read_response()
            except MovedError as moved:
                # a subscription sent to a master that no longer serves the slot: ring its
                # keys, whose reader then reads the slot and so learns its new master
                for key in [k for k in self.want if key_slot(k) == moved.slot_id]:
                    self.bell.ring(key)
                continue
            except ResponseError as exc:  # refused (an ACL, say): the connection is fine
                log.warning("doorbell_refused", node=self.name, error=str(exc))
                continue
            if isinstance(reply, list) and len(reply) >= 2 and reply[0] in (
                    b"smessage", b"ssubscribe"):
                self.bell.ring(cast(bytes, reply[1]))
            yield reply

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


class Doorbell:
    """One pub/sub connection per master, subscribed to the shard channels (stream keys) of
    the games this process reads; `ring(key)` is called for each message and for each
    subscription the master confirms. Readers say which master serves a key (from their own
    slot map); nothing here waits on a master's connection."""

    def __init__(self, cluster: RedisCluster) -> None:
        self.cluster = cluster
        self.ring: Callable[[bytes], None] = lambda key: None
        self.lines: dict[str, _Line] = {}  # master name -> its line
        self.line_of: dict[bytes, _Line] = {}  # channel -> the line that carries it

    def connection(self, host: str, port: int) -> Connection:
        # the cluster client's user, password and TLS (connection class, ssl_* files and
        # checks): without them a TLS port drops the connection, an ACL refuses SSUBSCRIBE
        kwargs = {key: value for key, value in self.cluster.connection_kwargs.items()
                  if key in _LINE_KWARGS or key.startswith("ssl_")}
        connection_class = cast(type[Connection], kwargs.pop("connection_class", Connection))
        # RESP2: messages and confirmations are the replies `_Line._read` reads (under
        # redis-py's default RESP3 they are pushes, which a bare read does not return)
        return connection_class(host=host, port=port, protocol=2,
                                retry=Retry(NoBackoff(), 0), **kwargs)

    async def listen(self, keys: list[bytes], node: ClusterNode) -> None:
        """Ring for `keys` (all of one slot) from `node`, the master serving them now."""
        await self.forget([k for k in keys if k in self.line_of
                           and self.line_of[k].name != node.name])
        line = self.lines.get(node.name)
        if line is None:  # made before any wait, so concurrent first subscribers share it
            line = self.lines[node.name] = _Line(self, node)
        fresh = [k for k in keys if k not in line.want]
        line.want.update(fresh)
        for key in fresh:
            self.line_of[key] = line
        if fresh:
            await line.send("SSUBSCRIBE", fresh)

    async def forget(self, keys: list[bytes]) -> None:
        by_line: dict[_Line, list[bytes]] = {}
        for key in keys:
            line = self.line_of.pop(key, None)
            if line is not None:
                line.want.discard(key)
                by_line.setdefault(line, []).append(key)
        for line, channels in by_line.items():
            if not line.want and self.lines.get(line.name) is line:
                # nothing left there (the slots moved away, the node may be dead or a
                # replica now): drop the connection rather than keep reconnecting to it
                del self.lines[line.name]
                await line.close()
            else:
                await line.send("SUNSUBSCRIBE", channels)

    async def close(self) -> None:
        lines = list(self.lines.values())
        self.lines.clear()
        self.line_of.clear()
        for line in lines:
            await line.close()


class ClusterStreamReader(StreamReader):
    """A `StreamReader` whose client is a `RedisCluster`: reads the slots its doorbell marks,
    one read in flight per master."""

    sweep_s = 1.0  # every slot is read this often whatever rang (set from the settings)

    def __init__(self, hub: Any, index: int, client: Any) -> None:
        super().__init__(hub, index, client)
        self.dirty: set[int] = set()  # slots with news (or not yet read)
        self.unverified: set[int] = set()  # slots whose feeds are checked before the next read
        self.reading: set[int] = set()  # slots a read in flight covers
        self.masters: dict[int, str] = {}  # slot -> the master its feeds were last placed on
        self.belled: dict[bytes, str] = {}  # stream key -> the master its bell listens on
        self.busy: set[str] = set()  # masters with a read in flight
        self.resume_at: dict[str, float] = {}  # master whose read failed -> when to try again
        self.backoff: dict[str, float] = {}
        self.fetches: set[asyncio.Task[None]] = set()
        self.refresh: asyncio.Task[None] | None = None
        self.mapped = False  # the client has had its first slot map
        self.poked = False  # woken while not idle: the next idle returns at once
        self.bell = Doorbell(cast(RedisCluster, client))  # the hub's, by attach_doorbell

    def add(self, feed: GameFeed) -> None:
        super().add(feed)
        self._wake()  # also mid-round: its bell is subscribed by the next round, not a sweep

    def _rang(self, key: bytes) -> None:
        if key in self.feeds:
            self.dirty.add(key_slot(key))
            self._wake()

    def _wake(self) -> None:
        if self.wake is not None and not self.wake.done():
            self.wake.set_result(None)
        else:
            self.poked = True

    def _master(self, slot: int) -> str:
        """The name of the master serving `slot`, "" while the slot map has none for it (a
        failover under way: a read of the slot fails and is tried again)."""
        node = master_of(cast(RedisCluster, self.redis), slot)
        return "" if node is None else str(node.name)

    async def _run(self) -> None:
        cluster = cast(RedisCluster, self.redis)
        backoff = _BACKOFF_S[0]
        next_sweep = 0.0
        while True:
            self.poked = False
            if not self.feeds:
                if self.belled:  # the last games went while the reader was busy
                    gone, self.belled = list(self.belled), {}
                    self.masters.clear()
                    await self.bell.forget(gone)
                await self._idle(None)
                continue
            try:
                if not self.mapped:  # nothing can be read before the first slot map
                    await cluster.initialize()
                    self.mapped = True
                slots: dict[int, list[bytes]] = {}
                for key in self.feeds:
                    slots.setdefault(key_slot(key), []).append(key)
                current = await self._place(slots)
            except Exception as exc:  # a reader outlives any failed round
                self._failed("", exc)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, _BACKOFF_S[1])
                continue
            backoff = _BACKOFF_S[0]
            now = time.monotonic()
            if now >= next_sweep:
                next_sweep = now + self.sweep_s
                self.dirty.update(slots)
            self.dirty.intersection_update(slots)
            wait = next_sweep - now
            todo: dict[str, dict[int, list[bytes]]] = {}
            for slot in self.dirty - self.reading:
                master = current.get(slot, "")
                if not master:  # none known now: tried again once the map may have one
                    wait = min(wait, 0.25)
                elif master in self.busy:
                    continue  # the read in flight wakes this loop when it ends
                elif self.resume_at.get(master, 0.0) > now:
                    wait = min(wait, self.resume_at[master] - now)
                else:
                    todo.setdefault(master, {})[slot] = slots[slot]
            if todo:
                self._refresh()
            for master, groups in todo.items():
                self.dirty.difference_update(groups)
                self._spawn_read(master, groups)
            await self._idle(max(0.0, wait))

    async def _place(self, slots: dict[int, list[bytes]]) -> dict[int, str]:
        """The master serving each slot now (none: not in the map). Bells go to it: a new
        feed's, and those of a slot whose master changed since its feeds were placed (whose
        feeds are then checked before their next read); the gone feeds' bells are dropped."""
        moved = 0
        current: dict[int, str] = {}
        for slot, keys in slots.items():
            node = master_of(cast(RedisCluster, self.redis), slot)
            if node is None:
                continue
            master = current[slot] = str(node.name)
            if self.masters.get(slot, master) != master:
                self.unverified.add(slot)
                self.dirty.add(slot)
                moved += len(keys)
            self.masters[slot] = master
            fresh = [key for key in keys if self.belled.get(key) != master]
            if fresh:
                await self.bell.listen(fresh, node)
                for key in fresh:
                    self.belled[key] = master
                self.dirty.add(slot)  # read once now: what was committed before the bell
        gone = [key for key in self.belled if key not in self.feeds]
        for key in gone:
            del self.belled[key]
        if gone:
            await self.bell.forget(gone)
        for slot in [s for s in self.masters if s not in slots]:
            del self.masters[slot]
            self.unverified.discard(slot)
        if moved:
            log.info("feed_slots_moved", reader=self.index, games=moved)
        return current

    def _refresh(self) -> None:
        """Let a slot map refresh that a failed read asked for run in a task of its own, and
        before this round's reads start: they then find it under way and read with the map
        they have, instead of one of them running it and waiting on whatever it asks."""
        if self.refresh is None or self.refresh.done():
            self.refresh = asyncio.create_task(self._refresh_map())

    async def _refresh_map(self) -> None:
        with contextlib.suppress(Exception):  # redis-py logs it; a later read asks again
            await cast(RedisCluster, self.redis).initialize()

    def _spawn_read(self, master: str, groups: dict[int, list[bytes]]) -> None:
        self.busy.add(master)
        self.reading.update(groups)
        task = asyncio.create_task(self._read(master, groups),
                                   name=f"feed-read:{self.index}:{master}")
        self.fetches.add(task)
        task.add_done_callback(self.fetches.discard)

    async def _read(self, master: str, groups: dict[int, list[bytes]]) -> None:
        """Read `groups` (slot -> stream keys), all served by `master`, in one pipeline, after
        checking the feeds of the slots that need it; deliver what came."""
        try:
            check = {slot for slot in groups if slot in self.unverified}
            if check:
                self.unverified.difference_update(check)
                await self._verify([self.feeds[k] for slot in check for k in groups[slot]
                                    if k in self.feeds])
            streams: dict[int, dict[bytes, str]] = {}
            for slot, keys in groups.items():
                cursors = {key: stream_id(self.feeds[key].cursor) for key in keys
                           if key in self.feeds}
                if cursors:
                    streams[slot] = cursors
            replies: list[XReadReply | None] = []
            cluster = cast(RedisCluster, self.redis)
            node = cluster.get_node(node_name=master)
            if streams and node is not None:
                async with cluster.pipeline(transaction=False) as pipe:
                    for cursors in streams.values():
                        # sent to the master by name: redis-py finds the keys of an XREAD
                        # it is to route by asking the node REDIS_URL names (COMMAND
                        # GETKEYS), so every read waited on that node, and failed while it
                        # was down, whichever master it was for (a MOVED reply is still
                        # followed, routed the usual way)
                        pipe.execute_command("XREAD", "COUNT", _XREAD_COUNT, "STREAMS",
                                             *cursors, *cursors.values(), target_nodes=node)
                    replies = cast(list[XReadReply | None], await pipe.execute())
            elif streams:  # the map no longer names it: read again where it says
                self.dirty.update(groups)
                streams = {}
        except Exception as exc:  # a reader outlives any failed read
            self._failed(master, exc)
            self.dirty.update(groups)
            self.unverified.update(groups)  # it may have reached a master that lost writes
            wait = self.backoff.get(master, _BACKOFF_S[0])
            self.resume_at[master] = time.monotonic() + wait
            self.backoff[master] = min(wait * 2, _BACKOFF_S[1])
            return
        finally:
            self.busy.discard(master)
            self.reading.difference_update(groups)
            self._wake()
        self.backoff.pop(master, None)
        self.resume_at.pop(master, None)
        for slot, reply in zip(streams, replies, strict=True):
            if self._master(slot) != master:
                self.dirty.add(slot)  # read again once the new master has been checked
                continue
            for key, entries in reply or ():
                found = self.feeds.get(key)
                if found is not None and entries:
                    found.deliver(entries)
                    if len(entries) >= _XREAD_COUNT:
                        self.dirty.add(slot)  # more where these came from

    def _failed(self, master: str, exc: Exception) -> None:
        """Log a failed read (or round, master ""). Whatever failed, the reader goes on: its
        task is all that feeds its games' streams (a cluster client raises more than
        `RedisError` while a failover reshapes the cluster)."""
        if store_unavailable(exc):
            log.warning("feed_read_failed", reader=self.index, node=master,
                        games=len(self.feeds), error=str(exc))
        else:
            log.error("feed_reader_error", reader=self.index, node=master,
                      games=len(self.feeds), error=repr(exc), exc_info=exc)

    async def _idle(self, timeout: float | None) -> None:
        """Wait `timeout` seconds (None: until a game is added), or less when a bell rings, a
        game is added or a read ends."""
        if self.poked:
            return
        self.wake = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait([self.wake], timeout=timeout)
        finally:
            self.wake = None

    async def close(self) -> None:
        tasks = [t for t in (self.task, self.refresh, *self.fetches) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await super().close()
        await self.bell.close()


def attach_doorbell(readers: list[StreamReader], client: RedisCluster, sweep_s: float) -> None:
    """One doorbell (a pub/sub connection per master) for all of a process's cluster readers:
    a ring goes to the reader of the key's slot (FeedHub gives a game to reader slot % n)."""
    cluster_readers = [cast(ClusterStreamReader, r) for r in readers]
    bell = Doorbell(client)
    bell.ring = lambda key: cluster_readers[key_slot(key) % len(cluster_readers)]._rang(key)
    for reader in cluster_readers:
        reader.bell = bell
        reader.sweep_s = sweep_s


def cluster_reader_client(redis_url: str, **kwargs: object) -> RedisCluster:
    """A cluster reader's client. A read that fails is tried once more, soon (which also
    asks for a slot map refresh), then left to the reader, which tries that master's slots
    again after its own backoff while its other masters' reads go on: redis-py's default
    retries would hold a dead master's read for seconds past its failover. One read in
    flight per master, and beside it a map refresh or a read redirected from another
    master: three connections per node at most."""
    kwargs.setdefault("retry", Retry(ExponentialBackoff(cap=0.1, base=0.02), 1))
    return RedisCluster.from_url(redis_url, max_connections=3, **kwargs)
