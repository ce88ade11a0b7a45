"""One real service process per test module, for the client tests that share it.

`module_service(prefix)` makes a module-scoped fixture: `python -m risk_service` on a free
port over the session's redis-server, its keys under `prefix` so modules do not meet.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest

from tests.service.harness import ServiceProcess


def module_service(prefix: str) -> Callable[..., Iterator[ServiceProcess]]:
    @pytest.fixture(scope="module")
    def service(
        redis_url: str, tmp_path_factory: pytest.TempPathFactory
    ) -> Iterator[ServiceProcess]:
        process = ServiceProcess(redis_url, tmp_path_factory.mktemp(prefix),
                                 RISK_KEY_PREFIX=prefix)
        process.start()
        yield process
        process.stop()

    return service


def found(pattern: str, text: str) -> re.Match[str]:
    """The first match of a multi-line pattern, or a failure that shows the text."""
    match = re.search(pattern, text, re.M)
    assert match, f"{pattern!r} not in:\n{text}"
    return match
