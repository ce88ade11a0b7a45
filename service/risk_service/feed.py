"""Live fan-out: at most one Redis reader per game per process, feeding local subscribers.

A `GameFeed` runs one blocking XREAD loop on its game's stream and hands each new event to
every subscriber's bounded buffer. A subscriber that falls `limit` events behind is cut off
(it resumes from its last seq with a new call), so one slow reader never delays the others.
Subscribers register before they read their backlog, and the feed's cursor at that moment is
never past the backlog's end, so backlog + live covers every event; seqs remove the overlap.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import cast

import redis.asyncio as aioredis
import structlog
from redis.exceptions import RedisError

from risk_service.store.keys import Keys, StreamEntries, XReadReply, stream_id, stream_seq
from risk_service.wire import DecodedEvent, decode_event

log = structlog.get_logger()


class Subscriber:
    """One stream's buffer. The feed pushes; the stream's handler pops.

    The handler parks on a bare future that `push` resolves (an asyncio.Event would look the
    running loop up on every wait, and with a thousand streams per event that adds up)."""

    __slots__ = ("feed", "items", "limit", "loop", "overflowed", "waiter")

    def __init__(self, feed: GameFeed, limit: int) -> None:
        self.feed = feed
        self.limit = limit
        self.items: deque[DecodedEvent] = deque()
        self.overflowed = False
        self.loop = asyncio.get_running_loop()
        self.waiter: asyncio.Future[None] | None = None

    def push(self, item: DecodedEvent) -> bool:
        accepted = len(self.items) < self.limit
        if accepted:
            self.items.append(item)
        else:
            self.overflowed = True
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        return accepted

    async def next_batch(self) -> list[DecodedEvent]:
        """Wait for events; raises OverflowError once the buffer has overflowed."""
        while not self.items:
            if self.overflowed:
                raise OverflowError
            self.waiter = self.loop.create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        batch = list(self.items)
        self.items.clear()
        return batch


class GameFeed:
    def __init__(self, hub: FeedHub, game_id: str) -> None:
        self.hub = hub
        self.game_id = game_id
        self.subscribers: set[Subscriber] = set()
        self.cursor = 0
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        try:
            last = cast(StreamEntries, await self.hub.redis.xrevrange(
                self.hub.keys.events(self.game_id), count=1
            ))
            self.cursor = stream_seq(last[0][0]) if last else 0
            self.task = asyncio.create_task(self._run(), name=f"feed:{self.game_id}")
            self.ready.set_result(None)
        except BaseException as exc:
            self.ready.set_exception(exc)
            raise

    async def _run(self) -> None:
        key = self.hub.keys.events(self.game_id)
        backoff = 0.05
        while True:
            try:
                reply = cast(XReadReply | None, await self.hub.redis.xread(
                    {key: stream_id(self.cursor)}, block=self.hub.block_ms, count=512
                ))
                backoff = 0.05
            except RedisError as exc:
                log.warning("feed_read_failed", game_id=self.game_id, error=str(exc))
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            for _stream, entries in reply or ():
                for _entry_id, fields in entries:
                    item = decode_event(fields[b"e"])
                    self.cursor = item.seq
                    for sub in list(self.subscribers):
                        if not sub.push(item):
                            self.subscribers.discard(sub)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


class FeedHub:
    """The process's feeds, by game id; a feed lives while it has subscribers."""

    def __init__(self, client: aioredis.Redis, keys: Keys, *, block_ms: int = 5000) -> None:
        self.redis = client
        self.keys = keys
        self.block_ms = block_ms
        self.feeds: dict[str, GameFeed] = {}

    @property
    def subscriber_count(self) -> int:
        return sum(len(feed.subscribers) for feed in self.feeds.values())

    async def subscribe(self, game_id: str, limit: int) -> Subscriber:
        feed = self.feeds.get(game_id)
        if feed is None:
            feed = self.feeds[game_id] = GameFeed(self, game_id)
            try:
                await feed.start()
            except BaseException:
                self.feeds.pop(game_id, None)
                raise
        else:
            await asyncio.shield(feed.ready)
        sub = Subscriber(feed, limit)
        feed.subscribers.add(sub)
        return sub

    async def unsubscribe(self, sub: Subscriber) -> None:
        feed = sub.feed
        feed.subscribers.discard(sub)
        if not feed.subscribers and self.feeds.get(feed.game_id) is feed:
            del self.feeds[feed.game_id]
            await feed.close()

    async def close(self) -> None:
        feeds = list(self.feeds.values())
        self.feeds.clear()
        for feed in feeds:
            await feed.close()
