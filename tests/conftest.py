"""Root fixtures: a real, isolated Redis for the whole suite, plus extra servers on demand.

Every test that touches storage runs against a real ``redis-server`` child started here on a
free loopback port with its own temporary data directory (``risk_testing.redis_server``); there
is no fake and no skip, so a machine without Redis fails loudly with the install hint from
``RedisServer``. The session server uses ``appendfsync everysec`` for speed; fault-injection
tests ask ``make_redis_server`` for servers of their own (``appendfsync always`` by default)
that they may kill and restart freely.

Every test is bounded (pytest-timeout, configured in pyproject.toml) and none may leave a process
running (tests.child_processes: what is left is ended and the session fails naming it).
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Protocol

import pytest
import redis.asyncio

from risk_service.redis_server import AppendFsync
from risk_testing import harness
from risk_testing.redis_server import RedisServer
from tests.child_processes import (
    no_process_left_behind,  # noqa: F401 (an autouse fixture, found by name)
    pytest_runtest_protocol,  # noqa: F401 (a hook, found by name)
)
from tests.chromium import chromium  # noqa: F401 (a fixture, found by name)

# The files that take the longest (`--durations`, a clean clone on 2 cores, 2026-12-06), longest
# first. scripts/test has pytest-xdist hand files to its workers one at a time in collection
# order (`--no-loadscope-reorder`: by default it orders them by their number of tests, which put
# these files, with few but long tests, last, and the last 2% of a run took a minute and a
# half). A stale list costs only that tail.
SLOW_FIRST = (
    "tests/reliability/test_fuzz.py",
    "tests/web/test_variant_panels.py",
    "tests/tournament/test_director.py",
    "tests/client/test_node_client.py",
    "tests/client/test_cli_games.py",
    "tests/engine/test_classic_validation.py",
    "tests/client/test_standalone_sdk.py",
    "tests/reliability/test_leaks_every_variant.py",
    "tests/client/test_sdk_e2e.py",
    "tests/service/test_campaign_service.py",
    "tests/client/test_cli_tournament.py",
    "tests/reliability/test_faults.py",
    "tests/web/test_accessibility.py",
    "tests/engine/test_deep_space_validation.py",
    "tests/reliability/test_fuzz_phases.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """SLOW_FIRST's files first, then the others by their number of tests, most first (what
    pytest-xdist does by default); each file's tests in their own order."""
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    counts: dict[str, int] = {}
    for item in items:
        path = item.nodeid.partition("::")[0]
        counts[path] = counts.get(path, 0) + 1
    items.sort(key=lambda item: (rank.get(path := item.nodeid.partition("::")[0], len(rank)),
                                 -counts[path]))


def pytest_configure(config: pytest.Config) -> None:
    """SIGINT as a user's Ctrl-C, also when the suite runs as a background job of a shell
    without job control, which starts it with SIGINT ignored: every child a test starts
    inherits that, and a `risk watch` a test stops with SIGINT would never end."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def service_launcher(no_process_left_behind: None) -> Iterator[None]:  # noqa: F811
    """Service processes fork from one preloaded process per worker (risk_testing.launcher):
    each start skips the 0.4 s of CPU its imports cost. After no_process_left_behind, so ended
    before it looks. RISK_TEST_PRELOAD=0 runs every service as a new interpreter."""
    if os.environ.get("RISK_TEST_PRELOAD", "1") == "0":
        yield
        return
    with harness.launching():
        yield


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


@contextlib.asynccontextmanager
async def flushed_redis(redis_url: str) -> AsyncIterator[redis.asyncio.Redis]:
    """A client of the session's Redis, emptied first; closed after."""
    client = redis.asyncio.Redis.from_url(redis_url, decode_responses=False)
    await client.flushall()
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
async def redis_client(redis_url: str) -> AsyncIterator[redis.asyncio.Redis]:
    async with flushed_redis(redis_url) as client:
        yield client


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
