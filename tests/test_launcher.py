"""The preloaded launcher the suite's service starts fork from (risk_testing.launcher): a forked
service is the real service in a process of its own, with the start's environment and log
file, and the harness sees its exit as it sees a `subprocess.Popen`'s."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import uuid
from pathlib import Path

import grpc
import pytest
import redis

from risk_proto.risk.v1 import service_pb2_grpc
from risk_testing import harness, launcher
from risk_testing.launcher import ForkedProcess
from risk_testing.rpc import create_request


def test_a_forked_service_serves_with_its_own_environment_and_exits_as_a_process(
        redis_url: str, tmp_path: Path) -> None:
    prefix = f"launcher-{uuid.uuid4().hex[:8]}:"
    outer = launcher.forked_cpu()  # the session's launcher's children, if it has one
    with harness.launching():
        service = harness.ServiceProcess(redis_url, tmp_path, RISK_KEY_PREFIX=prefix)
        with harness.running(service):
            assert isinstance(service.proc, ForkedProcess)
            assert service.proc.pid not in (os.getpid(), os.getppid())
            with grpc.insecure_channel(service.target) as channel:
                game = service_pb2_grpc.RiskServiceStub(channel).CreateGame(
                    create_request(), timeout=10).game
            # its environment is the start's: the game is stored under the start's prefix
            store = redis.Redis.from_url(redis_url)
            try:
                assert store.keys(f"{prefix}*{game.game_id}*"), "game not under the prefix"
            finally:
                store.close()
        assert service.proc.returncode == 0  # SIGTERM: the graceful path, as a process ends
        # its CPU is counted (risk_testing.suite_cpu adds it) until its launcher is reaped
        assert launcher.forked_cpu() > outer
        # its stdout and stderr went to its own log file, as a new interpreter's would: the
        # JSON lines of its start first, and nothing from the launcher (no runpy warning)
        first = json.loads(service.logs().splitlines()[0])
        assert (first["event"], first["address"]) == ("listening", service.target)
    assert launcher.forked_cpu() == outer  # now in RUSAGE_CHILDREN; the outer's count kept


def test_a_killed_or_failing_fork_reports_its_status(redis_url: str, tmp_path: Path) -> None:
    with harness.launching():
        killed = harness.ServiceProcess(redis_url, tmp_path)
        killed.start()
        killed.kill()
        assert killed.proc is not None and killed.proc.returncode == -signal.SIGKILL
        # a start whose settings are refused exits 2 with its reason in its log
        refused = harness.ServiceProcess("nope://localhost", tmp_path)
        with pytest.raises(harness.ServiceExitedError):
            refused.start(timeout=20)
        assert refused.proc is not None and refused.proc.returncode == 2
        assert "risk-service:" in refused.logs()


def test_interpreter_options_get_a_new_interpreter(redis_url: str, tmp_path: Path) -> None:
    """PYTHON* settings are read when an interpreter starts: a fork could not honour them."""
    with harness.launching():
        service = harness.ServiceProcess(redis_url, tmp_path, PYTHONASYNCIODEBUG="1")
        with harness.running(service):
            assert isinstance(service.proc, subprocess.Popen)


def test_a_service_left_running_is_killed_and_named(redis_url: str, tmp_path: Path) -> None:
    service = harness.ServiceProcess(redis_url, tmp_path)
    with pytest.raises(AssertionError, match="left running") as raised, harness.launching():
        service.start()
    assert service.proc is not None
    assert str(service.proc.pid) in str(raised.value)
    assert service.proc.returncode == -signal.SIGKILL
