"""Live fan-out on a Redis Cluster: a feed reader that reads each slot's games from its node.

On a cluster one XREAD may only name streams of one slot, so the single-Redis reader's one
XREAD BLOCK over all its games cannot be had: a blocked connection waits on one slot only.
A cluster reader therefore polls: each round is one pipeline with a non-blocking XREAD per
slot among its games, which redis-py's cluster client sends as one write per master (it keeps
the slot map and follows MOVED and ASK, so the reader survives slot moves and failovers). After
a round that found nothing it waits `poll_ms`, or less when a new game is added. Cost: one
XREAD per streamed slot per round (bench/cluster.py measures it); latency: up to `poll_ms`.

A new master for a slot (a failover to a replica that may lag, or a migration) is checked like
a reconnect on a single Redis: each of that slot's feeds must still find the entry it last
read, else its subscribers are told the stream was rolled back (feed.py). Replies of a round
during which a slot changed master are dropped and read again after that check.
"""

from __future__ import annotations

import asyncio
from typing import cast

import structlog
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot
from redis.exceptions import RedisError

from risk_service.feed import _XREAD_COUNT, GameFeed, StreamReader
from risk_service.store.keys import XReadReply, stream_id

log = structlog.get_logger()


class ClusterStreamReader(StreamReader):
    """A `StreamReader` whose client is a `RedisCluster`; polls every `hub.poll_ms`."""

    poll_s = 0.02  # set from the hub's setting by make_cluster_reader

    def _master(self, slot: int) -> str:
        client = cast(RedisCluster, self.redis)
        node = client.nodes_manager.get_node_from_slot(slot)
        return str(node.name)

    async def _run(self) -> None:
        backoff = 0.05
        masters: dict[int, str] = {}  # slot -> the master its feeds were last read from
        failed = False
        while True:
            if not self.feeds:
                await self._idle(None)
                continue
            groups: dict[int, dict[bytes, str]] = {}
            for key, feed in self.feeds.items():
                groups.setdefault(key_slot(key), {})[key] = stream_id(feed.cursor)
            try:
                await cast(RedisCluster, self.redis).initialize()  # the slot map, once
                if failed:  # the reads in between may have gone to a new master
                    await self._verify()
                    failed = False
                await self._check_masters(masters, groups)
                before = {slot: self._master(slot) for slot in groups}
                client = cast(RedisCluster, self.redis)
                async with client.pipeline(transaction=False) as pipe:
                    for streams in groups.values():
                        pipe.xread(streams, count=_XREAD_COUNT)  # type: ignore[arg-type]
                    replies = cast(list[XReadReply | None], await pipe.execute())
            except RedisError as exc:
                failed = True
                log.warning("feed_read_failed", reader=self.index, games=len(self.feeds),
                            error=str(exc))
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            backoff = 0.05
            delivered = False
            for slot, reply in zip(groups, replies, strict=True):
                if self._master(slot) != before[slot]:
                    continue  # read again once the new master has been checked
                for key, entries in reply or ():
                    found = self.feeds.get(key)
                    if found is not None and entries:
                        found.deliver(entries)
                        delivered = True
            if not delivered:
                await self._idle(self.poll_s)

    async def _check_masters(self, masters: dict[int, str],
                             groups: dict[int, dict[bytes, str]]) -> None:
        """Verify the feeds of every slot whose master changed since it was last read."""
        moved: list[GameFeed] = []
        for slot, streams in groups.items():
            master = self._master(slot)
            if masters.get(slot, master) != master:
                moved += [self.feeds[key] for key in streams if key in self.feeds]
            masters[slot] = master
        for slot in [s for s in masters if s not in groups]:
            del masters[slot]
        if moved:
            log.info("feed_slots_moved", reader=self.index, games=len(moved))
            await self._verify(moved)

    async def _idle(self, timeout: float | None) -> None:
        """Wait `timeout` seconds (None: until a game is added), or less when one is."""
        self.wake = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait([self.wake], timeout=timeout)
        finally:
            self.wake = None


def cluster_reader_client(redis_url: str, **kwargs: object) -> RedisCluster:
    """A cluster reader's client: one connection per master is all a round's pipeline uses."""
    return RedisCluster.from_url(redis_url, max_connections=4, **kwargs)
