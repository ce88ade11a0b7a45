"""Run what deploy/ describes, with real processes instead of containers.

The image's ENTRYPOINT and HEALTHCHECK are executed with the environment the image and
compose.yaml give the service (only the addresses are rewritten to loopback ports), and its
Redis configuration is loaded by a real redis-server. The cluster deployment (compose.cluster.yaml
and k8s/, TLS and ACL users) runs in test_cluster_topology.py.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from risk_service.redis_server import free_port
from tests.deploy.manifests import (
    compose_env,
    healthcheck_command,
    load_compose,
    load_dockerfile,
    parse_duration,
    stage_env,
)

START_TIMEOUT_S = 20.0


def local_argv(argv: list[str]) -> list[str]:
    """An image command line, run with this interpreter (the image's `python` is its venv's)."""
    return [sys.executable, *argv[1:]] if argv[0] == "python" else argv


def deploy_env() -> tuple[dict[str, str], float]:
    """The service environment compose.yaml gives (on top of the image's), and its kill
    deadline."""
    service = load_compose()["services"]["risk-a"]
    return compose_env(service), parse_duration(service.get("stop_grace_period", "10s"))


def run_healthcheck(env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    command = healthcheck_command(load_dockerfile()[-1])
    return subprocess.run(local_argv(command), env=env, capture_output=True, timeout=30,
                          check=False)


@pytest.fixture
def spawned() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Processes a test starts; any still running afterwards are killed."""
    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_image_entrypoint_serves_and_passes_healthcheck(
    redis_url: str, tmp_path: Path, spawned: list[subprocess.Popen[bytes]]
) -> None:
    """ENTRYPOINT with the image + deploy settings serves; HEALTHCHECK passes; SIGTERM drains."""
    final = load_dockerfile()[-1]
    (entrypoint,) = final.all("ENTRYPOINT")
    argv = entrypoint.exec_form()
    assert argv is not None
    settings, kill_after_s = deploy_env()
    image_env = {k: v for k, v in stage_env(final).items() if k != "PATH"}
    env = {
        **os.environ,
        **image_env,
        **settings,
        # only the addresses change: loopback ports instead of the container's 0.0.0.0:50051
        # (and metrics port), the test suite's redis-server instead of the `redis` host
        "RISK_LISTEN": f"127.0.0.1:{free_port()}",
        **({"RISK_METRICS_HOST": "127.0.0.1", "RISK_METRICS_PORT": str(free_port())}
           if "RISK_METRICS_PORT" in settings else {}),
        "REDIS_URL": redis_url,
        "RISK_DATA_DIR": str(tmp_path / "data"),
    }
    log_path = tmp_path / "service.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(local_argv(argv), env=env, cwd=tmp_path, stdout=log,
                                stderr=subprocess.STDOUT)
    spawned.append(proc)

    deadline = time.monotonic() + START_TIMEOUT_S
    check = run_healthcheck(env)
    while check.returncode != 0:
        assert proc.poll() is None, f"service exited:\n{log_path.read_text()}"
        assert time.monotonic() < deadline, (
            f"HEALTHCHECK never passed: {check.stderr.decode()[-2000:]}\n{log_path.read_text()}"
        )
        time.sleep(0.2)
        check = run_healthcheck(env)

    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(kill_after_s + 5)
    took = time.monotonic() - started
    assert code == 0, log_path.read_text()
    assert took < kill_after_s, f"drain took {took:.1f}s; the orchestrator kills at {kill_after_s}s"
    assert run_healthcheck(env).returncode != 0, "HEALTHCHECK passes with no service running"


def test_healthcheck_fails_when_nothing_listens() -> None:
    """The image's HEALTHCHECK exits non-zero when no service answers on RISK_LISTEN."""
    env = {**os.environ, "RISK_LISTEN": f"0.0.0.0:{free_port()}"}
    assert run_healthcheck(env).returncode != 0


def test_redis_configuration_loads_in_real_redis(
    tmp_path: Path, spawned: list[subprocess.Popen[bytes]]
) -> None:
    """redis-server accepts compose's configuration and runs with AOF, fsync always, noeviction."""
    binary = shutil.which("redis-server")
    assert binary is not None, "redis-server is required (scripts/setup installs it)"
    data = tmp_path / "data"
    data.mkdir()
    command = [str(a) for a in load_compose()["services"]["redis"]["command"]]
    assert command[0] == "redis-server"
    port = free_port()
    # loopback port and a temporary dir instead of the container's network and volume
    overrides = ["--port", str(port), "--bind", "127.0.0.1", "--dir", str(data)]
    log = (tmp_path / "redis.log").open("wb")
    proc = subprocess.Popen([binary, *command[1:], *overrides], stdout=log,
                            stderr=subprocess.STDOUT)
    log.close()
    spawned.append(proc)
    client = redis.Redis(port=port, decode_responses=True)
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        assert proc.poll() is None, (tmp_path / "redis.log").read_text()
        try:
            client.ping()
            break
        except redis.ConnectionError:
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
    try:
        config = client.config_get("*")
        assert config["appendonly"] == "yes"
        assert config["appendfsync"] == "always"
        assert config["maxmemory-policy"] == "noeviction"
        client.set("deploy-test", "1")
        assert any(data.rglob("*.aof")), "no AOF file under the data dir"
    finally:
        client.close()
    proc.terminate()  # SIGTERM, as the orchestrator stops it: fsync the AOF and exit cleanly
    assert proc.wait(10) == 0, (tmp_path / "redis.log").read_text()
