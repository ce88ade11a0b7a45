"""Fixtures for tests against real service processes on a real redis-server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import grpc
import pytest

from risk_proto.risk.v1 import service_pb2_grpc
from risk_testing.harness import ServiceFactory, ServiceProcess


@pytest.fixture
def make_service(redis_url: str, tmp_path: Path) -> Iterator[ServiceFactory]:
    """Start service processes on the session Redis (or another url); stop them all after."""
    started: list[ServiceProcess] = []

    def make(url: str | None = None, credentials: grpc.ChannelCredentials | None = None,
             *, http: bool = False, **env: str) -> ServiceProcess:
        service = ServiceProcess(url or redis_url, tmp_path, credentials, http=http, **env)
        service.start()
        started.append(service)
        return service

    yield make
    for service in started:
        service.stop()


@pytest.fixture
def service(make_service: ServiceFactory, redis_client: object) -> ServiceProcess:
    """One service process on a freshly flushed Redis."""
    return make_service()


@pytest.fixture
async def stub(service: ServiceProcess) -> AsyncIterator[service_pb2_grpc.RiskServiceStub]:
    """A client stub on a channel to `service`, closed after the test."""
    async with grpc.aio.insecure_channel(service.target) as channel:
        yield service_pb2_grpc.RiskServiceStub(channel)


# A clock the service reads and the test moves on (correspondence clocks, vacation years)
START = 1_700_000_000_000  # 2023-11-14 (UTC)


class Clock:
    """The service's time, moved on by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> int:
        return self.now


@pytest.fixture
async def clock() -> Clock:
    return Clock()
