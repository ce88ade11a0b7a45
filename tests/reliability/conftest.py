"""The service fixtures of tests/service (processes on the session Redis), shared here."""

from __future__ import annotations

from tests.service.conftest import make_service, service

__all__ = ["make_service", "service"]
