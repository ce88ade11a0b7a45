"""Browser tests of the web app: Debian's Chromium (/usr/bin/chromium, installed by
`scripts/setup test`) driven by Playwright's Python package, against a real service process
with its HTTP port on a free port and a real redis-server, as tests/service do.

Why Python's Playwright rather than npm's playwright-core: the tests then share the service
tests' fixtures and harness (processes, Redis, gRPC stubs to compare a page with GetGame) in
one pytest run, with no second test runner and no lock file to keep beside the Node client's.
Nothing downloads a browser: `launch` is given the distribution's binary (and Playwright gives
every launch a fresh profile directory of its own, so no --user-data-dir is passed).

Every page records its console errors and uncaught exceptions, and a test fails on any; and
the WebSockets it opened and the API calls it POSTed, as Chromium's DevTools network events
report them (Playwright's `websocket` and `request` events), so a test can tell which
transport a page used. The one
exception is the browser's own line for a request that could not connect, which Chromium logs
whenever a fetch meets a stopped service: a test that stops the service on purpose accepts
those (and only those) inside `pages.outage()`.

One driver and one Chromium serve every browser test a pytest worker runs (tests/chromium.py),
and each test's contexts are closed when it ends. They live on the session's event loop, so
this directory's tests (`pytest_collection_modifyitems`) and the async fixtures they use run
on that loop too.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import grpc
import pytest
import pytest_asyncio
import redis.asyncio
from playwright.async_api import Browser, ConsoleMessage, Page

from risk_proto.risk.v1 import service_pb2_grpc
from risk_testing.harness import ServiceFactory, ServiceProcess
from tests.chromium import Chromium
from tests.conftest import flushed_redis
from tests.service.conftest import make_service  # noqa: F401 (a fixture, used by name)

ARTIFACTS = Path(__file__).parent / "artifacts"
# what Chromium logs itself when a request cannot reach the server
_UNREACHABLE = re.compile(r"net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE|"
                          r"INCOMPLETE_CHUNKED_ENCODING|CONNECTION_CLOSED|NETWORK_CHANGED)")
SERVICE = "/risk.v1.RiskService/"
HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """This directory's async tests run on the session's event loop, the one this worker's
    browser lives on (pytest-asyncio's "run all tests in the session in the same event loop",
    kept to tests/web: the hook sees the whole session's items)."""
    session_loop = pytest.mark.asyncio(loop_scope="session")
    for item in items:
        if pytest_asyncio.is_async_test(item) and item.path.is_relative_to(HERE):
            item.add_marker(session_loop, append=False)


@dataclass
class Pages:
    """Opens pages, each in a context of its own (its own storage: its own seats), and keeps
    every console error they log."""

    browser: Browser
    base_url: str
    errors: list[str] = field(default_factory=list)
    down: bool = False
    # per page: the paths of the WebSockets it opened and of the API methods it POSTed
    opened: dict[int, list[str]] = field(default_factory=dict)
    posted: dict[int, list[str]] = field(default_factory=dict)

    async def open(self, path: str = "/", *, width: int = 1280, height: int = 860,
                   timezone_id: str | None = None, locale: str | None = None) -> Page:
        """A page in a context of its own; `timezone_id` and `locale` are the browser's (as
        a person's device sets them), its defaults where None."""
        context = await self.browser.new_context(viewport={"width": width, "height": height},
                                                 timezone_id=timezone_id, locale=locale)
        page = await context.new_page()
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))
        opened = self.opened.setdefault(id(page), [])
        posted = self.posted.setdefault(id(page), [])
        page.on("websocket", lambda socket: opened.append(urlsplit(socket.url).path))
        page.on("request", lambda request: posted.append(urlsplit(request.url).path)
                if request.method == "POST" else None)
        await page.goto(self.base_url + path)
        return page

    def sockets(self, page: Page, method: str) -> int:
        """How many WebSockets `page` opened for `method` (StreamEvents, Session)."""
        return self.opened[id(page)].count(f"{SERVICE}{method}")

    def posts(self, page: Page, method: str) -> int:
        """How many times `page` called `method` by HTTP POST (gRPC-Web, Connect)."""
        return self.posted[id(page)].count(f"{SERVICE}{method}")

    def _console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        if self.down and _UNREACHABLE.search(message.text):
            return
        self.errors.append(f"{message.text} ({message.location.get('url', '')})")

    @contextlib.contextmanager
    def outage(self) -> Iterator[None]:
        """The service is stopped on purpose: unreachable-request lines are expected."""
        self.down = True
        try:
            yield
        finally:
            self.down = False


@pytest_asyncio.fixture(loop_scope="session")
async def browser(chromium: Chromium) -> AsyncIterator[Browser]:
    """This worker's Chromium; every context the test opened in it is closed after the test."""
    running = await chromium.browser()
    yield running
    await chromium.close_contexts(running.contexts)


@pytest_asyncio.fixture(loop_scope="session")
async def redis_client(redis_url: str) -> AsyncIterator[redis.asyncio.Redis]:
    """tests/conftest.py's, on the session's loop: a client belongs to the loop it was
    opened on."""
    async with flushed_redis(redis_url) as client:
        yield client


@pytest.fixture
def http_service(make_service: ServiceFactory, redis_client: object) -> ServiceProcess:  # noqa: F811
    """One service process with its HTTP port, on a freshly flushed Redis."""
    return make_service(http=True)


@pytest_asyncio.fixture(loop_scope="session")
async def pages(chromium: Chromium, browser: Browser,
                http_service: ServiceProcess) -> AsyncIterator[Pages]:
    """Its contexts are closed as the test ends, before the service stops under them."""
    opened = Pages(browser, http_service.http_url)
    yield opened
    try:
        assert not opened.errors, "console errors:\n" + "\n".join(opened.errors)
    finally:
        await chromium.close_contexts(browser.contexts)


@pytest_asyncio.fixture(loop_scope="session")
async def stub(http_service: ServiceProcess) -> AsyncIterator[service_pb2_grpc.RiskServiceStub]:
    async with grpc.aio.insecure_channel(http_service.target) as channel:
        yield service_pb2_grpc.RiskServiceStub(channel)
