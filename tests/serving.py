"""One real service process per test module, for the tests of a file that can share it.

A service start costs about 0.7 s of CPU (most of it imports), and the suite is CPU-bound
(bench/RESULTS.md, "The suite's wall time"): a file whose tests need a service but not a fresh
one shares one. `module_service(prefix, http=..., **env)` makes a module-scoped fixture:
`python -m risk_service` on free ports over the session's redis-server, its keys under
`prefix` so that modules do not meet, stopped when the module's last test ends. Tests that
share it create games of their own and never flush Redis (the `redis_client` fixture empties
it); a test that reads the service's log reads the lines after its own start
(`LogMark`), and a test that needs a fresh process, other settings, or to stop or kill the
service starts its own.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import grpc
import pytest
import redis.asyncio

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceProcess, running


def module_service(prefix: str, *, http: bool = False,
                   **env: str) -> Callable[..., Iterator[ServiceProcess]]:
    """A module-scoped fixture: one service with keys under `prefix` (and `env`), and the
    HTTP port too when `http`."""

    @pytest.fixture(scope="module")
    def service(
        redis_url: str, tmp_path_factory: pytest.TempPathFactory
    ) -> Iterator[ServiceProcess]:
        with running(ServiceProcess(redis_url, tmp_path_factory.mktemp(prefix), http=http,
                                    RISK_KEY_PREFIX=prefix, **env)) as (process,):
            yield process

    return service


def module_pair(prefix: str, **env: str
                ) -> Callable[..., Iterator[tuple[ServiceProcess, ServiceProcess]]]:
    """A module-scoped fixture: two services (replicas) on the session's redis-server, both
    with keys under `prefix` (and `env`)."""

    @pytest.fixture(scope="module")
    def pair(redis_url: str, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[tuple[ServiceProcess, ServiceProcess]]:
        logs = tmp_path_factory.mktemp(prefix)
        with running(*(ServiceProcess(redis_url, logs, http=False, RISK_KEY_PREFIX=prefix,
                                      **env) for _ in range(2))) as (a, b):
            yield a, b

    return pair


@pytest.fixture
async def unflushed_redis(redis_url: str) -> AsyncIterator[redis.asyncio.Redis]:
    """A client of the session's Redis that, unlike `redis_client`, does not flush it (a
    module's shared service keeps its keys there). Import it into the module that uses it."""
    connection = redis.asyncio.Redis.from_url(redis_url, decode_responses=False)
    yield connection
    await connection.aclose()


def shared_unless(own: set[str], shared: str, **own_env: str) -> Callable[..., ServiceProcess]:
    """For tests/web: an `http_service` fixture (tests/web/conftest.py's `pages` and `stub`
    take it) that is the module's shared service, the fixture named `shared`, but for the tests
    named in `own` (the ones that stop or restart it), a fresh one with the HTTP port and
    `own_env` (a key prefix of their own: Redis is not flushed under the shared one)."""

    @pytest.fixture
    def http_service(request: pytest.FixtureRequest) -> ServiceProcess:
        if request.node.originalname in own:
            make = request.getfixturevalue("make_service")
            fresh: ServiceProcess = make(http=True, **own_env)
            return fresh
        service: ServiceProcess = request.getfixturevalue(shared)
        return service

    return http_service


class LogMark:
    """A place in a shared service's log: `lines()` are the JSON lines written after it.

    A call's log line is written just after its reply is sent, so the last line of the test
    before may still be on its way when the next one begins. The mark is therefore set after
    the line of a Ping of its own: the service has written what it answered before by then."""

    def __init__(self, service: ServiceProcess, timeout: float = 10.0) -> None:
        self.service = service
        start = len(service.logs())
        channel = (grpc.insecure_channel(service.target) if service.credentials is None
                   else grpc.secure_channel(service.target, service.credentials))
        with channel:
            stub = service_pb2_grpc.RiskServiceStub(channel)  # type: ignore[no-untyped-call]
            stub.Ping(service_pb2.PingRequest(), timeout=timeout)
        deadline = time.monotonic() + timeout
        while True:
            text = service.logs()
            at = start
            for line in text[start:].splitlines(keepends=True):
                at += len(line)
                if line.startswith("{") and _is_ping(json.loads(line)):
                    self.offset = at
                    return
            if time.monotonic() > deadline:
                raise AssertionError(f"the service logged no Ping line:\n{text[start:]}")
            time.sleep(0.02)

    def text(self) -> str:
        return self.service.logs()[self.offset:]

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.text().splitlines()
                if line.startswith("{")]


def _is_ping(line: dict[str, Any]) -> bool:
    return line.get("event") == "rpc" and str(line.get("method", "")).endswith("/Ping")
