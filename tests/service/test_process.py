"""The service process as an operator meets it: embedded Redis, health, logs, SIGTERM."""

from __future__ import annotations

import concurrent.futures
import contextlib
import datetime
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_service.redis_server import free_port
from risk_service.settings import Settings
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import bearer, create_request, rpc_error

ROOT = Path(__file__).resolve().parents[2]


def _log_lines(service: ServiceProcess) -> list[dict[str, object]]:
    return [json.loads(line) for line in service.logs().splitlines() if line.startswith("{")]


def test_embedded_redis_serves_and_keeps_games_across_restarts(tmp_path: Path) -> None:
    """With no REDIS_URL the service starts its own Redis; a game survives a restart."""
    service = ServiceProcess("", tmp_path, RISK_DATA_DIR=str(tmp_path / "data"))
    service.env["REDIS_URL"] = ""
    service.start()
    try:
        with grpc.insecure_channel(service.target) as channel:
            stub = service_pb2_grpc.RiskServiceStub(channel)
            game_id = stub.CreateGame(create_request(seed=3)).game.game_id
        assert service.stop() == 0
        assert (tmp_path / "data" / "redis").is_dir()
        service.start()
        with grpc.insecure_channel(service.target) as channel:
            stub = service_pb2_grpc.RiskServiceStub(channel)
            reply = stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
        assert reply.game.game_id == game_id
    finally:
        service.stop()


@contextlib.contextmanager
def _default_addresses_taken() -> Iterator[None]:
    """As while `scripts/serve` runs (the README's first command): its gRPC and HTTP addresses
    are listened on, by this test where they are free."""
    serve = (ROOT / "scripts" / "serve").read_text()
    http = re.search(r"RISK_HTTP_LISTEN-([\d.]+):(\d+)", serve)
    assert http, "scripts/serve names its HTTP address"
    grpc_host, _, grpc_port = Settings().listen.rpartition(":")
    with contextlib.ExitStack() as held:
        for host, port in ((grpc_host, int(grpc_port)), (http[1], int(http[2]))):
            holder = held.enter_context(socket.socket())
            with contextlib.suppress(OSError):  # taken already: by scripts/serve, say
                holder.bind((host, port))
                holder.listen()
        yield


def test_missing_redis_binary_is_a_clear_error(tmp_path: Path) -> None:
    """Without redis-server on PATH and no REDIS_URL, the service exits saying how to fix it,
    also while another service (`scripts/serve`) holds the default addresses."""
    bare = tmp_path / "bin"
    bare.mkdir()
    env = {**os.environ, "PATH": str(bare), "RISK_DATA_DIR": str(tmp_path / "d"),
           "RISK_LISTEN": f"127.0.0.1:{free_port()}", "RISK_HTTP_LISTEN": "",
           "RISK_METRICS_PORT": "0"}
    env.pop("REDIS_URL", None)
    with _default_addresses_taken():
        done = subprocess.run(
            [sys.executable, "-m", "risk_service"], env=env, capture_output=True, timeout=30,
            check=False,
        )
    assert done.returncode != 0
    assert b"redis-server" in done.stderr and b"REDIS_URL" in done.stderr, done.stderr


def test_health_and_reflection(service: ServiceProcess) -> None:
    """The standard health service says SERVING and reflection lists risk.v1.RiskService."""
    with grpc.insecure_channel(service.target) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for name in ("", "risk.v1.RiskService"):
            reply = health.Check(health_pb2.HealthCheckRequest(service=name))
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        response = next(iter(stub.ServerReflectionInfo(iter([request]))))
        names = {s.name for s in response.list_services_response.service}
        assert "risk.v1.RiskService" in names


async def test_one_log_line_per_rpc_without_tokens(service: ServiceProcess) -> None:
    """Each call writes one JSON line with method, code, duration, game and request id."""
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        created = await stub.CreateGame(create_request(seed=5, players=3))
        game_id = created.game.game_id
        joined = await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=0))
        await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                           metadata=bearer(joined.seat_token))
        await rpc_error(stub.SubmitAction(
            service_pb2.SubmitActionRequest(game_id=game_id, expected_version=9,
                                            request_id="req-42"),
            metadata=bearer(joined.seat_token)))
    service.stop()
    lines = [line for line in _log_lines(service)
             if line.get("event") == "rpc" and str(line["method"]).startswith("/risk.v1.")]
    methods = [line["method"] for line in lines]
    assert methods == [
        "/risk.v1.RiskService/CreateGame", "/risk.v1.RiskService/JoinGame",
        "/risk.v1.RiskService/GetGame", "/risk.v1.RiskService/SubmitAction",
    ]
    assert all(isinstance(line["duration_ms"], float) for line in lines)
    assert not any(str(line.get("method")).startswith("/grpc.health.")
                   for line in _log_lines(service)), "successful health probes stay quiet"
    assert lines[2]["game_id"] == game_id and lines[2]["code"] == "OK"
    assert lines[3]["code"] == "INVALID_ARGUMENT" and lines[3]["request_id"] == "req-42"
    for line in lines:  # what log shippers index on
        assert line["level"] == "info"
        stamp = datetime.datetime.strptime(str(line["timestamp"]), "%Y-%m-%dT%H:%M:%S.%fZ")
        assert abs(stamp - datetime.datetime.utcnow()).total_seconds() < 120
    text = service.logs()
    assert created.host_token not in text and joined.seat_token not in text


def test_sigterm_drains_and_exits_cleanly(make_service: ServiceFactory) -> None:
    """SIGTERM: the process stops serving, logs its shutdown and exits 0."""
    service = make_service()
    assert service.stop() == 0
    events = [line.get("event") for line in _log_lines(service)]
    assert events[-2:] == ["shutting_down", "stopped"]


def test_sigterm_while_sweeping_exits_promptly(redis_url: str, tmp_path: Path) -> None:
    """SIGTERM while the sweeper is busy (every 10 ms): each process stops within seconds,
    12 times (a cancel swallowed inside a Redis call once left the sweeper looping and the
    process running until SIGKILL, about 1 stop in 4)."""
    for _round in range(2):
        services = [ServiceProcess(redis_url, tmp_path, RISK_SWEEP_INTERVAL_MS="10")
                    for _ in range(6)]
        with concurrent.futures.ThreadPoolExecutor(len(services)) as pool:
            # six processes importing at once on a busy machine: allow them a slow start
            list(pool.map(lambda service: service.start(timeout=60), services))
        time.sleep(0.5)
        for service in services:
            assert service.proc is not None
            service.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 8
        hung = []
        for service in services:
            assert service.proc is not None
            try:
                service.proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                hung.append(service.port)
                service.kill()
        assert not hung, f"{len(hung)} of {len(services)} processes did not stop on SIGTERM"
        assert all(s.proc is not None and s.proc.returncode == 0 for s in services)


def test_event_loop_is_uvloop_unless_asked_otherwise(make_service: ServiceFactory,
                                                    redis_url: str, tmp_path: Path) -> None:
    """uvloop by default, asyncio's own loop on request (both logged at start), and an unknown
    loop name stops the start with a message naming the variable."""
    for env, expected in (({}, "uvloop"), ({"RISK_EVENT_LOOP": "asyncio"}, "asyncio")):
        service = make_service(**env)
        assert service.stop() == 0
        listening = [line for line in _log_lines(service) if line.get("event") == "listening"]
        assert [line["event_loop"] for line in listening] == [expected]
    wrong = ServiceProcess(redis_url, tmp_path, RISK_EVENT_LOOP="tokio")
    with pytest.raises(RuntimeError, match="RISK_EVENT_LOOP='tokio' is not one of uvloop"):
        wrong.start()


def test_redis_server_binary_is_available() -> None:
    """The suite's own precondition: redis-server is installed (scripts/setup installs it)."""
    assert shutil.which("redis-server")


def test_a_port_taken_by_another_service_is_not_taken_for_ours(
    make_service: ServiceFactory, redis_url: str, tmp_path: Path
) -> None:
    """The harness's own check: a service whose drawn port another test's service holds
    fails to bind, while the health check on that port is answered by the other one. The
    start must not count that answer as ours: it draws fresh ports and ends serving itself
    (stop 42's run on 3 workers: a replica's calls went to another worker's service)."""
    holder = make_service()
    ours = ServiceProcess(redis_url, tmp_path / "ours")
    (tmp_path / "ours").mkdir()
    ours.port, ours.target = holder.port, holder.target
    try:
        ours.start()
        assert ours.target != holder.target
        assert ours.proc is not None and ours.proc.poll() is None
        assert any(line.get("event") == "listening" and line.get("port") == ours.port
                   for line in _log_lines(ours))
    finally:
        ours.stop()
