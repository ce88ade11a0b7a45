"""Pieces for a GameService run inside a test's or a benchmark's own process, on a real Redis."""

from __future__ import annotations

import redis.asyncio as aioredis

from risk_service.feed import FeedHub, reader_client
from risk_service.store.keys import Keys


def in_process_hub(client: aioredis.Redis, keys: Keys, redis_url: str) -> FeedHub:
    """A FeedHub for a GameService run inside the test process (one reader connection)."""
    return FeedHub(client, keys, reader_client=lambda: reader_client(redis_url, 5000), readers=1)
