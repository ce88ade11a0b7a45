"""Fixtures for the tournament tests: real service processes on the session's real Redis."""

from __future__ import annotations

import pytest

from risk_testing.harness import ServiceFactory
from tests.service.conftest import make_service

__all__ = ["ServiceFactory", "make_service", "start_service"]


@pytest.fixture
def start_service(make_service: ServiceFactory, redis_client: object) -> ServiceFactory:
    """`make_service` (tests/service: processes stopped after the test) on a freshly flushed
    Redis: each test starts with no tournament, game or feed."""
    return make_service
