"""Fixtures for the tournament tests: real service processes on the session's real Redis."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.service.harness import ServiceProcess

ServiceFactory = Callable[..., ServiceProcess]


@pytest.fixture
def make_service(redis_url: str, tmp_path: Path, redis_client: object
                 ) -> Iterator[ServiceFactory]:
    """Start service processes on a freshly flushed session Redis; stop them all after."""
    started: list[ServiceProcess] = []

    def make(**env: str) -> ServiceProcess:
        service = ServiceProcess(redis_url, tmp_path, **env)
        service.start()
        started.append(service)
        return service

    yield make
    for service in started:
        service.stop()
