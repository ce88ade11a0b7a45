"""Client tests run against real service processes too: share the service fixtures."""

from tests.service.conftest import make_service

__all__ = ["make_service"]
