"""Pieces for a GameService run inside a test's or a benchmark's own process, on a real Redis."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

import redis.asyncio as aioredis

from risk_service import finishing
from risk_service.feed import FeedHub, reader_client
from risk_service.operations import GameService, Limits
from risk_service.store.game_store import GameStore
from risk_service.store.keys import Keys
from risk_service.store.pipe import RedisPipe

DRAIN_S = 20.0
DRAIN_ROUNDS = 5


def in_process_hub(client: aioredis.Redis, keys: Keys, redis_url: str) -> FeedHub:
    """A FeedHub for a GameService run inside the test process (one reader connection)."""
    return FeedHub(client, keys, reader_client=lambda: reader_client(redis_url, 5000), readers=1)


@contextlib.asynccontextmanager
async def in_process_service(redis_url: str, clock_ms: Callable[[], int], *,
                             keys: Keys | None = None, limits: Limits | None = None,
                             pipe: bool = False) -> AsyncIterator[GameService]:
    """A GameService in this process on its own connection to `redis_url` (keys under
    `keys`, the default prefix without). `pipe`: its store sends the hot path and the
    scripts through the store's pipe, as server/app.py builds a process's store for a single
    Redis (else through redis-py's client). On exit, the work it still runs is ended: what
    its calls left to finish (risk_service/finishing.py) is waited for, its bot runs are
    cancelled, and its connections closed."""
    client = aioredis.from_url(redis_url)
    keys = keys or Keys()
    hub = in_process_hub(client, keys, redis_url)
    connection = RedisPipe(redis_url) if pipe else None
    service = GameService(GameStore(client, keys, connection), hub, clock_ms=clock_ms,
                          limits=limits)
    try:
        yield service
    finally:
        # bot runs first (a cancelled one may hand its commit's effects on, which may start
        # another run), then the work left to finish, until neither is left
        for _ in range(DRAIN_ROUNDS):
            runs = [run for run in service.timers.bot_runs.values() if not run.done()]
            for run in runs:
                run.cancel()
            await asyncio.gather(*runs, return_exceptions=True)
            if not await finishing.drain(DRAIN_S) and not any(
                    not run.done() for run in service.timers.bot_runs.values()):
                break
        await hub.close()
        if connection is not None:
            await connection.close()
        await client.aclose()
