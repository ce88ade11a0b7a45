"""Spectator counts per game, across the service's processes, approximate and cheap on a
cluster (issue 37 item 3; docs/broadcasts.md, "Spectator counts").

Each process counts its own spectators (streams of a game without a seat: StreamEvents on
every transport, and the games of a StreamGames stream) as the feed hub adds and drops their
subscribers (`FeedHub.on_watch`), and publishes that count into one small hash per game,
`<game key>:spectators`, in the game's own slot: field = the process id, value =
`<count>:<until ms>`. A change is published `DEBOUNCE_S` after it (a burst of joins is one
write), and every count still held is published again every `ttl/3`, so a process that died
stops counting within `TTL_MS`. A summary (GetGame, ListGames) reads the hash and sums the
fields that are still current: one HGETALL per game, pipelined for a page, and reused by
the process's summaries for `READ_MS` (a game polled by many clients); nothing is
counted per spectator in Redis, and an idle spectator costs Redis nothing until the next
refresh, which is one write per game per process every 10 s.

Hand-written: it is a counter per key with a lease per writer; Redis's own per-field expiry
(HEXPIRE) needs Redis 7.4, and the deployment's Redis may be older (7.0 here).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, cast

import structlog

from risk_service.store.keys import Keys
from risk_service.store.unreachable import store_unavailable

log = structlog.get_logger("broadcast")

TTL_MS = 30_000  # a published count stands this long unless published again
DEBOUNCE_S = 0.2  # a change is published this long after it, with those that follow it
READ_MS = 1000  # a count read is reused by this process's summaries for this long
READ_CACHE = 4096  # games whose count read is kept


def spectators_key(keys: Keys, game_id: str) -> str:
    """The game's spectator counts (in the game's slot: its key's hash tag)."""
    return f"{keys.game(game_id)}:spectators"


def current(fields: dict[bytes, bytes], now_ms: int) -> int:
    """The sum of the counts in `fields` (process -> `<count>:<until>`) still current."""
    total = 0
    for value in fields.values():
        count, _, until = value.partition(b":")
        with contextlib.suppress(ValueError):
            if int(until) > now_ms:
                total += int(count)
    return total


class SpectatorCounts:
    """This process's spectators per game, and everyone's as published."""

    def __init__(self, client: Any, keys: Keys, *, process_id: str,
                 clock_ms: Callable[[], int], ttl_ms: int = TTL_MS) -> None:
        self.redis = client
        self.keys = keys
        self.process_id = process_id
        self.clock_ms = clock_ms
        self.ttl_ms = ttl_ms
        self.local: dict[str, int] = {}  # game -> spectators streaming it here
        self.changed: set[str] = set()  # games whose count is not published yet
        self._wake: asyncio.Event | None = None
        # counts read lately: game -> (count, read at ms); a game polled by many clients is
        # read from Redis once a READ_MS
        self.read: OrderedDict[str, tuple[int, int]] = OrderedDict()
        self._task: asyncio.Task[None] | None = None

    def watch(self, game_id: str, delta: int) -> None:
        """A spectator of `game_id` began (+1) or stopped (-1) streaming here."""
        count = self.local.get(game_id, 0) + delta
        if count > 0:
            self.local[game_id] = count
        else:
            self.local.pop(game_id, None)
        self.changed.add(game_id)
        if self._task is None or self._task.done():
            self._wake = asyncio.Event()
            self._task = asyncio.create_task(self._run(), name="spectator-counts")
        elif self._wake is not None:
            self._wake.set()

    async def _run(self) -> None:
        """Publish changes as they come and refresh what is held, until nothing is."""
        assert self._wake is not None
        refresh_s = self.ttl_ms / 3000
        while self.local or self.changed:
            await asyncio.sleep(DEBOUNCE_S)
            try:
                # the changes, else (a refresh) every count still held
                await self.publish(set(self.changed) or set(self.local))
            except Exception as exc:
                if not store_unavailable(exc):
                    raise
                log.warning("spectator_counts_not_published", error=str(exc))
            if self.changed:
                continue
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), refresh_s)

    async def publish(self, games: Iterable[str]) -> None:
        """Write this process's count of each of `games` (0: its field removed)."""
        games = list(games)
        if not games:
            return
        until = self.clock_ms() + self.ttl_ms
        for game_id in games:
            self.changed.discard(game_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id in games:
                key = spectators_key(self.keys, game_id)
                count = self.local.get(game_id, 0)
                if count:
                    pipe.hset(key, self.process_id, f"{count}:{until}")
                    pipe.pexpire(key, self.ttl_ms)
                else:
                    pipe.hdel(key, self.process_id)
            await pipe.execute()

    async def counts(self, game_ids: list[str]) -> list[int]:
        """Each game's spectators across the processes, as last published (read at most
        READ_MS ago)."""
        now = self.clock_ms()
        wanted = [g for g in game_ids if now - self.read.get(g, (0, -READ_MS))[1] >= READ_MS]
        if wanted:
            async with self.redis.pipeline(transaction=False) as pipe:
                for game_id in wanted:
                    pipe.hgetall(spectators_key(self.keys, game_id))
                found = cast(list[dict[bytes, bytes]], await pipe.execute())
            for game_id, fields in zip(wanted, found, strict=True):
                self.read[game_id] = (current(fields, now), now)
                self.read.move_to_end(game_id)
            while len(self.read) > READ_CACHE:
                self.read.popitem(last=False)
        return [self.read[g][0] if g in self.read else 0 for g in game_ids]

    def counted(self, operation: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
        """GetGame or ListGames with each summary's `spectators` filled in."""
        async def call(request: Any, caller: Any) -> Any:
            reply = await operation(request, caller)
            summaries = list(reply.games) if hasattr(reply, "games") else [reply.game]
            for summary, count in zip(summaries, await self.counts(
                    [s.game_id for s in summaries]), strict=True):
                summary.spectators = count
            return reply
        return call
