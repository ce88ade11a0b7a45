"""The cluster, durability, Redis timeout and workers settings: what a deployment writes is
what it gets, and a setting that cannot work stops the start with a message naming it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from risk_service.settings import Settings

CLUSTER = {"REDIS_URL": "redis://10.0.0.5:6379", "RISK_REDIS_CLUSTER": "true"}


def test_cluster_durability_and_workers_are_read_from_the_environment() -> None:
    """RISK_REDIS_CLUSTER, RISK_INDEX_BUCKETS, RISK_DURABILITY(_TIMEOUT_MS), RISK_WORKERS."""
    settings = Settings.from_env({**CLUSTER, "RISK_INDEX_BUCKETS": "32",
                                  "RISK_DURABILITY": "replica",
                                  "RISK_DURABILITY_TIMEOUT_MS": "250", "RISK_WORKERS": "4"})
    assert settings.redis_cluster and settings.index_buckets == 32
    assert settings.durability == "replica" and settings.durability_timeout_ms == 250
    assert settings.workers == 4
    assert Settings.from_env({}).durability == "local" and not Settings.from_env({}).redis_cluster


def test_the_redis_timeout_is_a_setting() -> None:
    """RISK_REDIS_TIMEOUT_MS: 5 s unless set; 0 waits for Redis for ever."""
    assert Settings.from_env({}).redis_timeout_s == 5.0
    assert Settings.from_env({"RISK_REDIS_TIMEOUT_MS": "1500"}).redis_timeout_s == 1.5
    assert Settings.from_env({"RISK_REDIS_TIMEOUT_MS": "0"}).redis_timeout_s is None


@pytest.mark.parametrize(("env", "named"), [
    ({"RISK_DURABILITY": "quorum", "REDIS_URL": "redis://r:6379"}, "RISK_DURABILITY"),
    ({"RISK_DURABILITY": "replica"}, "RISK_DURABILITY=replica needs a REDIS_URL"),
    ({"RISK_REDIS_CLUSTER": "true"}, "RISK_REDIS_CLUSTER=true needs REDIS_URL"),
    ({**CLUSTER, "RISK_INDEX_BUCKETS": "0"}, "RISK_INDEX_BUCKETS"),
    ({"RISK_WORKERS": "0"}, "RISK_WORKERS"),
    ({"RISK_REDIS_TIMEOUT_MS": "-1"}, "RISK_REDIS_TIMEOUT_MS"),
    # a commit's WAIT holds its connection for up to the durability timeout
    ({"RISK_DURABILITY": "replica", "REDIS_URL": "redis://r:6379",
      "RISK_REDIS_TIMEOUT_MS": "1000"}, "RISK_REDIS_TIMEOUT_MS=1000 must exceed"),
])
def test_a_setting_that_cannot_work_stops_the_start(env: dict[str, str], named: str) -> None:
    """Each refusal names the setting to fix (a value on reading, a combination when the
    service starts)."""
    with pytest.raises(ValueError, match=named):
        Settings.from_env(env).check_redis()


def test_the_service_refuses_cluster_without_a_url_at_start() -> None:
    """`python -m risk_service` with RISK_REDIS_CLUSTER=true and no REDIS_URL exits 2 at once,
    saying what is missing, before it starts a Redis or listens."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    done = subprocess.run([sys.executable, "-m", "risk_service"], capture_output=True,
                          text=True, timeout=60, check=False,
                          env={**env, "RISK_REDIS_CLUSTER": "true"})
    assert done.returncode == 2
    assert "RISK_REDIS_CLUSTER=true needs REDIS_URL" in done.stderr
