"""Root fixtures: a real, isolated Redis for the whole suite, plus extra servers on demand.

Every test that touches storage runs against a real ``redis-server`` child started here on a
free loopback port with its own temporary data directory; there is no fake and no skip, so a
machine without Redis fails loudly with the install hint from ``RedisServer``. The session server
uses ``appendfsync everysec`` for speed; fault-injection tests ask ``make_redis_server`` for
servers of their own (``appendfsync always`` by default) that they may kill and restart freely.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Protocol

import pytest
import redis.asyncio

from risk_service.redis_server import AppendFsync, RedisServer


class RedisServerFactory(Protocol):
    def __call__(
        self,
        *,
        appendonly: bool = True,
        appendfsync: AppendFsync = "always",
        extra_args: Sequence[str] = (),
    ) -> RedisServer: ...


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis-session"), appendfsync="everysec")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_url(redis_server: RedisServer) -> str:
    return redis_server.url


@pytest.fixture
async def redis_client(redis_url: str) -> AsyncIterator[redis.asyncio.Redis]:
    client = redis.asyncio.Redis.from_url(redis_url, decode_responses=False)
    await client.flushall()
    yield client
    await client.aclose()


@pytest.fixture
def make_redis_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[RedisServerFactory]:
    servers: list[RedisServer] = []

    def make(
        *,
        appendonly: bool = True,
        appendfsync: AppendFsync = "always",
        extra_args: Sequence[str] = (),
    ) -> RedisServer:
        server = RedisServer(
            tmp_path_factory.mktemp("redis-extra"),
            appendonly=appendonly,
            appendfsync=appendfsync,
            extra_args=extra_args,
        )
        servers.append(server)
        server.start()
        return server

    yield make
    for server in servers:
        server.stop()
