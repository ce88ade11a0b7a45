"""Live fan-out: every game streamed by this process (and every tournament's results feed it
serves) is read over a few shared Redis connections and handed to its local subscribers.

A `StreamFeed` is one followed stream's cursor and subscribers: a game's events (`GameFeed`,
`FeedHub.subscribe`) or a tournament's results feed (`FeedHub.follow`, operations/results.py);
both are Redis streams with entry ids `0-<seq>`, so one reader follows either, and an idle
stream of either kind costs Redis nothing: no poll, only the readers' shared XREAD BLOCK (or,
on a cluster, the doorbell its writes ring). Feeds are spread over a fixed set of
`StreamReader`s (the `feed_readers` setting) by the hash slot of their stream key; each reader
owns one Redis connection and runs one XREAD BLOCK over all its games' streams at once, so
ten thousand streamed games take a few dozen connections, not ten thousand. A game added to a
reader that is blocked is picked up at once: the reader's XREAD is released with CLIENT
UNBLOCK from the command connection, and the next XREAD names the new stream. (On Redis
Cluster one XREAD may only name keys of one slot, which is why feeds are grouped by slot: a
cluster's readers (cluster_feed.py) read each slot's games from the node that serves it.)

Each new event goes into every subscriber's bounded buffer without waiting. A handed-off
spectator (a listener: server/websocket.py) takes it as well, and its socket is written at the
end of the read. A feed with more than FLUSH_SLICE listeners sweeps them instead, FLUSH_SLICE
listeners per turn of the event loop, so the process's calls (the very move that made the
event) are not held behind ten thousand socket writes. Each listener the sweep reaches takes
every event it has not had, those delivered while the pass was under way too, and the sweep
passes again while any is behind: an event waits at most one pass for any spectator, and under
load a spectator's message carries several moves, as a Colyseus patch carries a tick's changes
(its events, their order and the batch limit it asked for are unchanged).

A subscriber that falls `limit` events behind is cut off (it resumes from its last seq with a
new call), so one slow reader never delays the others. Subscribers register before they read
their backlog, and a feed's cursor at that moment is never past the backlog's end, so backlog +
live covers every event; seqs remove the overlap.

A Redis that comes back at an older state (a restart from an older AOF, a failover to a
lagging replica) can drop events the feed has already delivered. Every reconnect is therefore
followed by a check that the entry at each feed's cursor is still the one it read (its commit
id `c`, or the event bytes for entries written before commits had ids). Where it is not, the
feed ends: its subscribers get `FeedRolledBack` with the last seq that survived.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from typing import Any, Generic, Protocol, TypeVar, cast

import redis.asyncio as aioredis
import structlog
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.crc import key_slot
from redis.exceptions import RedisError

from risk_rules.wire import DecodedEvent, decode_event
from risk_service.errors import Code, ServiceError, ServiceReason
from risk_service.store.keys import Keys, StreamEntries, XReadReply, stream_id, stream_seq
from risk_service.store.unreachable import store_unavailable

log = structlog.get_logger()

# entries (commits, when entries carry their commit id) a feed remembers to find the last
# seq that survived a rollback; past them a rolled-back subscriber is told to start over
_REMEMBERED = 16
_XREAD_COUNT = 512  # entries per stream per read
# A feed with more listeners than this hands them its events in rounds of a task of its own,
# this many per turn of the event loop (`StreamFeed._sweep`); with fewer, at once.
FLUSH_SLICE = 256

Fields = dict[bytes, bytes]  # one stream entry's fields
Item = TypeVar("Item")  # what a feed hands its subscribers: a decoded entry
_Taken_contra = TypeVar("_Taken_contra", contravariant=True)


class FeedRolledBack(Exception):
    """The game's stream no longer holds events this feed delivered: Redis lost writes.
    `last_seq` is the last seq known to have survived (0: none is known to)."""

    def __init__(self, last_seq: int) -> None:
        super().__init__(f"the stream was rolled back to seq {last_seq}")
        self.last_seq = last_seq


class Listener(Protocol[_Taken_contra]):
    """Who takes a subscriber's events as they come, instead of a handler popping them
    (a stream handed off by `Streams.items`: no task waits on it)."""

    def pushed(self, item: _Taken_contra) -> bool:
        """Take one event; False: the subscriber is done (its stream has ended)."""

    def rolled_back(self, last_seq: int) -> None:
        """The stream lost events the subscriber may have had (see FeedRolledBack)."""

    def flush(self) -> None:
        """The end of one read's events: what was taken may go out as one message."""

    def handed(self, items: Sequence[_Taken_contra], shared: dict[Any, Any]) -> bool:
        """The feed's pending events (`StreamFeed._sweep`), in order: those after the last
        this listener had, as `pushed` each and `flush`; `shared` is the pass's, for what
        listeners at one point of the stream have alike (the message, encoded once). False:
        the subscriber is done."""

    def position(self) -> int:
        """The seq of the last event taken (a listener that has ended: any)."""


class FeedSubscriber(Generic[Item]):
    """One stream's buffer. The feed pushes; the stream's handler pops, or its listener takes
    each event as it is pushed.

    The handler parks on a bare future that `push` resolves (an asyncio.Event would look the
    running loop up on every wait, and with a thousand streams per event that adds up)."""

    __slots__ = ("feed", "items", "limit", "listener", "loop", "overflowed", "rolled_back",
                 "spectator", "waiter")

    def __init__(self, feed: StreamFeed[Item], limit: int, spectator: bool = False) -> None:
        self.feed = feed
        self.limit = limit
        self.spectator = spectator  # a stream without a seat: counted (FeedHub.on_watch)
        # a list, not a deque: it is taken whole (next_batch), and an empty deque is a
        # 600-byte block, kept by every idle stream
        self.items: list[Item] = []
        self.overflowed = False
        self.rolled_back: int | None = None
        self.loop = asyncio.get_running_loop()
        self.waiter: asyncio.Future[None] | None = None
        self.listener: Listener[Item] | None = None

    def listen(self, listener: Listener[Item]) -> bool:
        """Hand this subscriber's events to `listener` from now on: those buffered first.
        False (and nothing handed) once it has overflowed or been rolled back: its handler
        must end it as it would."""
        if self.overflowed or self.rolled_back is not None:
            return False
        buffered, self.items = self.items, []
        self.listener = listener
        for item in buffered:
            if not listener.pushed(item):
                return True  # the listener has ended the stream (and unsubscribes it)
        listener.flush()
        return True

    def push(self, item: Item) -> bool:
        if self.listener is not None:
            return self.listener.pushed(item)
        accepted = len(self.items) < self.limit
        if accepted:
            self.items.append(item)
        else:
            self.overflowed = True
        self._wake()
        return accepted

    def roll_back(self, last_seq: int) -> None:
        if self.listener is not None:
            self.listener.rolled_back(last_seq)
            return
        self.rolled_back = last_seq
        self.items.clear()  # events of the lost branch are never handed out
        self._wake()

    def _wake(self) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def next_batch(self) -> list[Item]:
        """Wait for events; raises OverflowError once the buffer has overflowed and
        FeedRolledBack once the stream lost events this subscriber may have seen."""
        while not self.items:
            if self.rolled_back is not None:
                raise FeedRolledBack(self.rolled_back)
            if self.overflowed:
                raise OverflowError
            self.waiter = self.loop.create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        if self.rolled_back is not None:
            raise FeedRolledBack(self.rolled_back)
        batch, self.items = self.items, []
        return batch


Subscriber = FeedSubscriber[DecodedEvent]  # a game stream's


def _identity(fields: Fields) -> bytes | int:
    """What tells two entries at one seq apart: the commit id, else the entry's bytes (a
    game's event, a results feed's fact)."""
    commit = fields.get(b"c")
    return commit if commit is not None else hash(tuple(sorted(fields.items())))


def game_event(seq: int, fields: Fields) -> DecodedEvent:
    """A game stream's entry as its subscribers take it."""
    return decode_event(fields[b"e"])


class StreamFeed(Generic[Item]):
    """One followed stream: where its reader is in it, and who listens. `name` is the game
    id, or `t:<label>` for a tournament's results feed; `decode` makes an entry (its seq and
    fields) into what the subscribers take."""

    __slots__ = ("cursor", "decode", "key", "name", "pending", "pending_seqs", "reader",
                 "seen", "subscribers", "sweeper")

    def __init__(self, reader: StreamReader, name: str, key: bytes, cursor: int,
                 decode: Callable[[int, Fields], Item]) -> None:
        self.reader = reader
        self.name = name
        self.key = key
        self.cursor = cursor
        self.decode = decode
        self.subscribers: set[FeedSubscriber[Item]] = set()
        # (seq, identity) of the latest entries read, newest last
        self.seen: deque[tuple[int, bytes | int]] = deque(maxlen=_REMEMBERED)
        # delivered for the sweep (`_sweep`), and their seqs
        self.pending: list[Item] = []
        self.pending_seqs: list[int] = []
        self.sweeper: asyncio.Task[None] | None = None

    def deliver(self, entries: StreamEntries) -> None:
        items: list[Item] = []
        seqs: list[int] = []
        for entry_id, fields in entries:
            seq = stream_seq(entry_id)
            if seq <= self.cursor:  # a read issued before a re-subscription moved the cursor
                continue
            items.append(self.decode(seq, fields))
            seqs.append(seq)
            self.cursor = seq
            identity = _identity(fields)
            if not (self.seen and b"c" in fields and self.seen[-1][1] == identity):
                self.seen.append((seq, identity))
            else:
                self.seen[-1] = (seq, identity)  # one commit, one remembered entry: its last
        if not items:
            return
        # a big feed's listeners take these from its sweep, not now
        sweep = self.sweeper is not None or (
            len(self.subscribers) > FLUSH_SLICE
            and sum(sub.listener is not None for sub in self.subscribers) > FLUSH_SLICE)
        for sub in list(self.subscribers):
            if sweep and sub.listener is not None:
                continue
            self._hand(sub, items)
        if sweep:
            self.pending.extend(items)
            self.pending_seqs.extend(seqs)
            if self.sweeper is None:
                self.sweeper = asyncio.create_task(self._sweep(),
                                                   name=f"feed-sweep:{self.name}")

    def _hand(self, sub: FeedSubscriber[Item], items: list[Item]) -> None:
        """`items` to `sub`, and the end of the read to its listener, if any."""
        for item in items:
            if sub not in self.subscribers:
                return
            if not sub.push(item):
                # its handler (or listener) ends the stream, and drops the feed if it was
                # the last: not here, in the middle of the reader's round
                self._discard(sub)
                return
        if sub.listener is not None:
            sub.listener.flush()

    async def _sweep(self) -> None:
        """Pass over the listeners, FLUSH_SLICE of them per turn of the loop, each taking the
        pending events it has not had (those delivered during the pass too), pass after pass
        until a pass ends with nothing new: an event waits at most one pass for any listener.
        Events every listener has had are then let go."""
        try:
            while self.pending:
                mark = self.cursor  # moves only when a read delivers (and appends) more
                listening = [sub for sub in self.subscribers if sub.listener is not None]
                shared: dict[Any, Any] = {}
                for start in range(0, len(listening), FLUSH_SLICE):
                    if start:
                        await asyncio.sleep(0)
                    pending = self.pending
                    for sub in listening[start:start + FLUSH_SLICE]:
                        listener = sub.listener
                        if (listener is not None and sub in self.subscribers
                                and not listener.handed(pending, shared)):
                            self._discard(sub)
                low = min((sub.listener.position() for sub in self.subscribers
                           if sub.listener is not None), default=None)
                if low is None or self.cursor == mark:
                    self.pending, self.pending_seqs = [], []
                else:
                    kept = bisect.bisect_right(self.pending_seqs, low)
                    del self.pending[:kept], self.pending_seqs[:kept]
        finally:
            self.sweeper = None

    def unsubscribe(self, sub: FeedSubscriber[Item]) -> None:
        """`sub` is gone (a stream that ended); the stream's last one takes the feed along."""
        self._discard(sub)
        if not self.subscribers:
            self.reader.hub.drop(self)

    def _discard(self, sub: FeedSubscriber[Item]) -> None:
        if sub in self.subscribers:
            self.subscribers.discard(sub)
            self.reader.hub.subscribers -= 1
            if sub.spectator and self.reader.hub.on_watch is not None:
                self.reader.hub.on_watch(self.name, -1)


GameFeed = StreamFeed[DecodedEvent]  # a streamed game's


class StreamReader:
    """One Redis connection reading the streams of many games with one XREAD BLOCK."""

    def __init__(self, hub: FeedHub, index: int, client: Any) -> None:
        self.hub = hub
        self.index = index
        # single-connection client, no retries: a reconnect must be seen (a cluster reader's
        # is a cluster client: cluster_feed.py)
        self.redis = client
        self.feeds: dict[bytes, StreamFeed[Any]] = {}
        self.client_id: int | None = None
        self.round = 0  # XREADs issued
        self.blocked = False  # an XREAD is out, naming the keys of `round`
        self.unblocking = False
        self.wake: asyncio.Future[None] | None = None
        self.task: asyncio.Task[None] | None = None
        self.helpers: set[asyncio.Task[None]] = set()

    def add(self, feed: StreamFeed[Any]) -> None:
        self.feeds[feed.key] = feed
        if self.task is None:
            self.task = asyncio.create_task(self._run(), name=f"feed-reader:{self.index}")
        if self.wake is not None and not self.wake.done():
            self.wake.set_result(None)
        elif self.blocked and not self.unblocking and self.client_id is not None:
            self.unblocking = True
            self._spawn(self._unblock(self.round, self.client_id))

    def remove(self, feed: StreamFeed[Any]) -> None:
        # a blocked XREAD may still name the key; what it returns for it is dropped
        if self.feeds.get(feed.key) is feed:
            del self.feeds[feed.key]

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self.helpers.add(task)
        task.add_done_callback(self.helpers.discard)

    async def _unblock(self, round_: int, client_id: int) -> None:
        """Release the reader's XREAD of `round_` so that its next one names the new keys.
        The XREAD may not have reached Redis yet (CLIENT UNBLOCK then finds nothing to
        release): try again until it has, or until the reader has moved on by itself."""
        try:
            delay = 0.001
            while self.blocked and self.round == round_:
                if await self.hub.redis.client_unblock(client_id):
                    return
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.05)
        except RedisError:
            pass  # the reader's own read fails too and it starts over
        finally:
            self.unblocking = False

    async def _run(self) -> None:
        backoff = 0.05
        reconnected = False
        while True:
            if not self.feeds:
                self.wake = asyncio.get_running_loop().create_future()
                try:
                    await self.wake
                finally:
                    self.wake = None
                continue
            try:
                if self.client_id is None:
                    self.client_id = int(await self.redis.client_id())
                    if reconnected:
                        await self._verify()
                streams = {key: stream_id(feed.cursor) for key, feed in self.feeds.items()}
                self.round += 1
                self.blocked = True
                try:
                    reply = cast(XReadReply | None, await self.redis.xread(
                        streams, block=self.hub.block_ms, count=_XREAD_COUNT))
                finally:
                    self.blocked = False
            except Exception as exc:  # a reader outlives any failed round
                # the next connection is checked for a rollback before it reads on
                self.client_id = None
                reconnected = True
                backoff = await self._wait_after(exc, backoff)
                continue
            backoff = 0.05
            reconnected = False
            for key, entries in reply or ():
                feed = self.feeds.get(key)
                if feed is not None:
                    feed.deliver(entries)

    async def _wait_after(self, exc: Exception, backoff: float) -> float:
        """Log a failed round and wait `backoff` seconds; returns the next wait (doubled, at
        most 2 s). Whatever failed, the reader goes on: its task is all that feeds its games'
        streams, so a reader that ended would leave them open and silent for good (a cluster
        client raises more than `RedisError` while a failover reshapes the cluster)."""
        if store_unavailable(exc):
            log.warning("feed_read_failed", reader=self.index, games=len(self.feeds),
                        error=str(exc))
        else:
            log.error("feed_reader_error", reader=self.index, games=len(self.feeds),
                      error=repr(exc), exc_info=exc)
        await asyncio.sleep(backoff)
        return min(backoff * 2, 2.0)

    async def _verify(self, among: Sequence[StreamFeed[Any]] | None = None) -> None:
        """After a reconnect (or, on a cluster, a new master for their slot): end every feed
        (of `among`, default all) whose stream lost entries it had read."""
        feeds = [feed for feed in (self.feeds.values() if among is None else among)
                 if feed.cursor > 0]
        if not feeds:
            return
        control = self.hub.redis
        async with control.pipeline(transaction=False) as pipe:
            for feed in feeds:
                pipe.xrange(feed.key, min=stream_id(feed.cursor), max=stream_id(feed.cursor))
            found = cast(list[StreamEntries], await pipe.execute())
        for feed, entries in zip(feeds, found, strict=True):
            seen = feed.seen[-1] if feed.seen else None
            if entries and (seen is None or seen[0] != feed.cursor
                            or _identity(entries[0][1]) == seen[1]):
                continue
            await self._rolled_back(feed)

    async def _rolled_back(self, feed: StreamFeed[Any]) -> None:
        """The last seq that survived: the newest remembered entry still in the stream (with
        every older remembered one), else the stream's end when nothing was read yet."""
        control = self.hub.redis
        survived = 0
        if feed.seen:
            async with control.pipeline(transaction=False) as pipe:
                for seq, _ in feed.seen:
                    pipe.xrange(feed.key, min=stream_id(seq), max=stream_id(seq))
                found = cast(list[StreamEntries], await pipe.execute())
            for (seq, identity), entries in zip(feed.seen, found, strict=True):
                if not entries or _identity(entries[0][1]) != identity:
                    break
                survived = seq
        else:
            last = cast(StreamEntries, await control.xrevrange(feed.key, count=1))
            survived = min(stream_seq(last[0][0]), feed.cursor) if last else 0
        log.warning("feed_rolled_back", feed=feed.name, cursor=feed.cursor,
                    last_seq=survived, subscribers=len(feed.subscribers))
        self.hub.drop(feed)
        feed.pending.clear()  # a sweep under way hands out no event of the lost branch
        feed.pending_seqs.clear()
        for sub in feed.subscribers:
            sub.roll_back(survived)
        if self.hub.on_rolled_back is not None:
            self.hub.on_rolled_back()

    async def close(self) -> None:
        tasks = [t for t in (self.task, *self.helpers) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.task = None
        await self.redis.aclose()


class FeedHub:
    """The process's feeds, by name (game id, or `t:<label>`); a feed lives while it has
    subscribers.

    `redis` is the command client (CLIENT UNBLOCK, rollback checks); `reader_client()` makes
    the reader connections, at most `readers` of them. Past `max_games` streamed games or
    `max_subscribers` subscribers (0: no limit) a new subscription is refused with
    RESOURCE_EXHAUSTED."""

    def __init__(
        self, client: aioredis.Redis | RedisCluster, keys: Keys, *,
        reader_client: Callable[[], Any], readers: int = 16,
        block_ms: int = 5000, max_games: int = 10_000, max_subscribers: int = 0,
        on_refused: Callable[[str], None] | None = None,
        on_rolled_back: Callable[[], None] | None = None,
        reader_class: type[StreamReader] | None = None,
    ) -> None:
        reader_class = reader_class or StreamReader
        self.redis = client
        self.keys = keys
        self.block_ms = block_ms
        self.max_games = max_games
        self.max_subscribers = max_subscribers
        self.on_refused = on_refused
        self.on_rolled_back = on_rolled_back
        # told (game id, +1 / -1) as a spectator's subscriber comes and goes
        # (broadcast.spectators: the spectator counts)
        self.on_watch: Callable[[str, int], None] | None = None
        self.feeds: dict[str, StreamFeed[Any]] = {}
        self.subscribers = 0
        self.readers = [reader_class(self, i, reader_client()) for i in range(max(1, readers))]

    @property
    def subscriber_count(self) -> int:
        return self.subscribers

    def _stream_refusal(self, reason: ServiceReason, message: str, limit: int) -> ServiceError:
        if self.on_refused is not None:
            self.on_refused(reason)
        log.warning("stream_refused", reason=reason, limit=limit, games=len(self.feeds),
                    subscribers=self.subscribers)
        return ServiceError(Code.RESOURCE_EXHAUSTED, reason, message, {"limit": str(limit)})

    async def subscribe(self, game_id: str, limit: int, after_seq: int | None = None, *,
                        spectator: bool = False) -> Subscriber:
        """Register a subscriber. `after_seq`: a seq the game's stream is known to have
        reached (its stored last seq read before this call), so a new feed need not ask
        Redis where the stream ends; None: ask. `spectator`: a stream without a seat, told
        to `on_watch` while it lasts."""
        sub = await self.follow(game_id, self.keys.events(game_id), game_event, limit,
                                after_seq)
        if spectator:
            sub.spectator = True
            if self.on_watch is not None:
                self.on_watch(game_id, 1)
        return sub

    async def follow(self, name: str, key: str, decode: Callable[[int, Fields], Item],
                     limit: int, after_seq: int | None = None) -> FeedSubscriber[Item]:
        """Register a subscriber of the stream `key` (entry ids `0-<seq>`), under the feed
        `name`, whose entries `decode` makes into what it takes; `after_seq` as `subscribe`.
        Every subscriber counts against `max_subscribers`, every feed against `max_games`."""
        if self.max_subscribers and self.subscribers >= self.max_subscribers:
            raise self._stream_refusal(
                ServiceReason.TOO_MANY_SUBSCRIBERS,
                f"this process serves at most {self.max_subscribers} streams; retry later or "
                "on another replica", self.max_subscribers)
        feed = self.feeds.get(name)
        if feed is None:
            if len(self.feeds) >= self.max_games:
                raise self._stream_refusal(
                    ServiceReason.TOO_MANY_STREAMED_GAMES,
                    f"this process streams at most {self.max_games} games at once; retry later "
                    "or on another replica", self.max_games)
            stream = key.encode()
            if after_seq is None:
                last = cast(StreamEntries, await self.redis.xrevrange(stream, count=1))
                after_seq = stream_seq(last[0][0]) if last else 0
                feed = self.feeds.get(name)  # another subscriber may have made it meanwhile
            if feed is None:
                reader = self.readers[key_slot(stream) % len(self.readers)]
                feed = self.feeds[name] = StreamFeed(reader, name, stream, after_seq, decode)
                reader.add(feed)
        sub: FeedSubscriber[Item] = FeedSubscriber(feed, limit)
        feed.subscribers.add(sub)
        self.subscribers += 1
        return sub

    async def unsubscribe(self, sub: FeedSubscriber[Any]) -> None:
        sub.feed.unsubscribe(sub)

    def drop(self, feed: StreamFeed[Any]) -> None:
        if self.feeds.get(feed.name) is feed:
            del self.feeds[feed.name]
            feed.reader.remove(feed)

    async def close(self) -> None:
        self.feeds.clear()
        for reader in self.readers:
            await reader.close()


def stored_entry(seq: int, fields: Fields) -> tuple[int, bytes]:
    """A fact stream's entry as its readers take it from the hub: (seq, the stored bytes)."""
    return seq, fields[b"f"]


async def entries_after(hub: FeedHub, name: str, key: str,
                        read: Callable[[int, int], Awaitable[list[tuple[int, bytes]]]],
                        after: int, *, page: int, limit: int
                        ) -> AsyncIterator[tuple[int, bytes]]:
    """(seq, bytes) of every entry of the fact stream `key` after `after`: what `read(after,
    page)` finds stored, then what the hub reads live, forever (the results feed and a
    player's stream).

    Subscribed before each backlog read, so backlog + live covers every entry (seqs remove
    the overlap). A subscriber that falls `limit` entries behind the hub, or whose feed
    Redis rolled back, is not cut off: it drops its subscription and reads on from the store
    after the last seq it gave, subscribed afresh."""
    while True:
        sub = await hub.follow(name, key, stored_entry, limit)
        try:
            while True:
                rows = await read(after, page)
                for seq, data in rows:
                    yield seq, data
                    after = seq
                if len(rows) < page:
                    break
            while True:
                try:
                    batch = await sub.next_batch()
                except (OverflowError, FeedRolledBack):
                    break
                for seq, data in batch:
                    if seq > after:
                        yield seq, data
                        after = seq
        finally:
            sub.feed.unsubscribe(sub)


def reader_client(redis_url: str, block_ms: int, **kwargs: Any) -> aioredis.Redis:
    """One reader's connection: a single connection whose socket waits out a blocked XREAD,
    and no retries, so that a reconnect is seen (and checked for a rollback) by the reader
    instead of being hidden inside a retried command."""
    return aioredis.Redis.from_url(
        redis_url, single_connection_client=True, socket_timeout=block_ms / 1000 + 5,
        retry=Retry(NoBackoff(), 0), retry_on_error=[], **kwargs,
    )
