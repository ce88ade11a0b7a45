"""Fixtures for tests against real service processes on a real redis-server."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest

from tests.service.harness import ServiceProcess

ServiceFactory = Callable[..., ServiceProcess]


@pytest.fixture
def make_service(redis_url: str, tmp_path: Path) -> Iterator[ServiceFactory]:
    """Start service processes on the session Redis (or another url); stop them all after."""
    started: list[ServiceProcess] = []

    def make(url: str | None = None, credentials: grpc.ChannelCredentials | None = None,
             **env: str) -> ServiceProcess:
        service = ServiceProcess(url or redis_url, tmp_path, credentials, **env)
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
