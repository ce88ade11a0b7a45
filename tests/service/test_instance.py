"""A second service started on a live one's data directory or port refuses before it touches
anything: the first keeps serving on its own Redis, and no second redis-server opens its AOF."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import grpc

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_service.redis_server import free_port
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import create_request


def _second(tmp_path: Path, *, listen: str, data_dir: Path,
            **more: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "RISK_LISTEN": listen, "RISK_DATA_DIR": str(data_dir), **more}
    env.pop("REDIS_URL", None)
    return subprocess.run([sys.executable, "-m", "risk_service"], env=env, capture_output=True,
                          timeout=30, check=False, cwd=tmp_path)


def _redis_pids(data_dir: Path) -> set[int]:
    """The redis-server processes keeping their data under `data_dir` (Redis rewrites its
    command line, but works in its --dir)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
                cwd = Path(os.readlink(entry / "cwd"))
                if b"redis-server" in cmdline and cwd.is_relative_to(data_dir):
                    found.add(int(entry.name))
            except OSError:
                continue
    return found


def test_second_instance_on_the_same_data_dir_refuses_and_leaves_the_first_alone(
        tmp_path: Path) -> None:
    """Same data dir, other port: exit 2 naming the running instance; the first still serves
    its games and its Redis is the same process, with no second redis-server started."""
    data = tmp_path / "data"
    first = ServiceProcess("", tmp_path, RISK_DATA_DIR=str(data))
    first.env["REDIS_URL"] = ""
    first.start()
    try:
        with grpc.insecure_channel(first.target) as channel:
            stub = service_pb2_grpc.RiskServiceStub(channel)
            game_id = stub.CreateGame(create_request(seed=1)).game.game_id
        redis_pid = int((data / "redis" / "redis.pid").read_text())
        before = _redis_pids(data)
        done = _second(tmp_path, listen=f"127.0.0.1:{free_port()}", data_dir=data)
        assert done.returncode == 2
        assert b"already running" in done.stderr and str(data).encode() in done.stderr
        assert str(first.proc.pid if first.proc else "").encode() in done.stderr
        assert _redis_pids(data) == before == {redis_pid}
        with grpc.insecure_channel(first.target) as channel:
            stub = service_pb2_grpc.RiskServiceStub(channel)
            reply = stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
            assert reply.game.game_id == game_id
            stub.CreateGame(create_request(seed=2))  # and it still writes
    finally:
        first.stop()


def test_taken_port_refuses_before_starting_redis(tmp_path: Path) -> None:
    """Another data dir, same port: exit 2 saying the address is in use, and no Redis data
    directory was created for the doomed start."""
    first = ServiceProcess("", tmp_path, RISK_DATA_DIR=str(tmp_path / "one"))
    first.env["REDIS_URL"] = ""
    first.start()
    try:
        other = tmp_path / "two"
        done = _second(tmp_path, listen=first.target, data_dir=other)
        assert done.returncode == 2
        assert b"in use" in done.stderr and first.target.encode() in done.stderr
        assert b"set RISK_LISTEN to another address" in done.stderr
        assert not (other / "redis").exists()
        assert not _redis_pids(other)
    finally:
        first.stop()


def test_a_taken_http_port_names_the_http_setting(tmp_path: Path) -> None:
    """The HTTP address taken, the gRPC one free: exit 2 naming the HTTP address and the
    setting to change (RISK_HTTP_LISTEN, not RISK_LISTEN), before Redis is started."""
    http = f"127.0.0.1:{free_port()}"
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", int(http.rpartition(":")[2])))
        holder.listen()
        done = _second(tmp_path, listen=f"127.0.0.1:{free_port()}", data_dir=tmp_path / "data",
                       RISK_HTTP_LISTEN=http)
    assert done.returncode == 2
    assert f"cannot listen on {http}".encode() in done.stderr
    assert b"set RISK_HTTP_LISTEN to another address" in done.stderr
    assert not (tmp_path / "data" / "redis").exists()


def test_a_crashed_instance_leaves_no_lock(tmp_path: Path) -> None:
    """After a SIGKILL the same data dir serves again at once: the lock dies with its
    process, and the game written before the crash is still there."""
    data = tmp_path / "data"
    service = ServiceProcess("", tmp_path, RISK_DATA_DIR=str(data))
    service.env["REDIS_URL"] = ""
    service.start()
    with grpc.insecure_channel(service.target) as channel:
        game_id = service_pb2_grpc.RiskServiceStub(channel).CreateGame(
            create_request(seed=4)).game.game_id
    service.kill()
    service.start()
    try:
        with grpc.insecure_channel(service.target) as channel:
            reply = service_pb2_grpc.RiskServiceStub(channel).GetGame(
                service_pb2.GetGameRequest(game_id=game_id))
        assert reply.game.game_id == game_id
    finally:
        service.stop()
