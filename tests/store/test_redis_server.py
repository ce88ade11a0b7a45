"""The local redis-server child (the embedded Redis, and the tests' one that extends it): it
starts, survives SIGKILL via its AOF, stops cleanly."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import redis
import redis.asyncio

from risk_service.redis_server import (
    PortTakenError,
    RedisServerError,
    free_port,
    supervise,
)
from risk_testing.redis_server import RedisServer

if TYPE_CHECKING:
    from tests.conftest import RedisServerFactory


async def test_session_server_answers_ping(redis_client: redis.asyncio.Redis) -> None:
    """The suite's shared Redis answers PING through redis-py asyncio."""
    assert await redis_client.ping() is True


def test_started_server_answers_ping_at_its_url(make_redis_server: RedisServerFactory) -> None:
    """A freshly started server answers PING at the URL it advertises."""
    server = make_redis_server()
    assert server.url == f"redis://127.0.0.1:{server.port}/0"
    with redis.Redis.from_url(server.url) as client:
        assert client.ping() is True


def test_acknowledged_writes_survive_sigkill_and_restart(
    make_redis_server: RedisServerFactory,
) -> None:
    """With appendfsync always, every acknowledged write is back after kill -9 and restart."""
    server = make_redis_server(appendfsync="always")
    url_before = server.url
    with redis.Redis.from_url(server.url) as client:
        for index in range(200):
            client.set(f"game:{index}", f"state-{index}".encode())
        client.rpush("log", b"a", b"b", b"c")

    old_pid = server.pid
    server.kill()
    assert not server.is_running()

    server.restart()
    assert server.url == url_before
    assert server.pid != old_pid
    with redis.Redis.from_url(server.url) as client:
        assert client.dbsize() == 201
        assert client.get("game:0") == b"state-0"
        assert client.get("game:199") == b"state-199"
        assert client.lrange("log", 0, -1) == [b"a", b"b", b"c"]


def test_stop_leaves_no_process_and_frees_the_port(make_redis_server: RedisServerFactory) -> None:
    """After stop() the redis-server process is gone and nothing listens on its port."""
    server = make_redis_server()
    pid = server.pid
    assert pid is not None

    server.stop()

    assert not server.is_running()
    assert server.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", server.port), timeout=1).close()


def test_missing_binary_says_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without redis-server on PATH, start() explains how to install it or use REDIS_URL."""
    empty_dir = tmp_path / "empty-path"
    empty_dir.mkdir()
    monkeypatch.setenv("PATH", str(empty_dir))

    with pytest.raises(RuntimeError, match=r"apt-get install -y redis-server.*REDIS_URL"):
        RedisServer(tmp_path / "data").start()


def test_failed_start_shows_the_log_tail(tmp_path: Path) -> None:
    """A server that cannot start raises an error quoting Redis's own complaint."""
    server = RedisServer(tmp_path / "data", extra_args=["--no-such-directive", "1"])

    with pytest.raises(RedisServerError, match="no-such-directive"):
        server.start()
    assert not server.is_running()


def _occupy(port: int) -> socket.socket:
    """Somebody else's listener on `port`, as another program that bound it first."""
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    holder.bind(("127.0.0.1", port))
    holder.listen()
    return holder


def _pid_at(port: int) -> int:
    with redis.Redis(port=port, socket_timeout=2) as client:
        return int(client.info("server")["process_id"])


@pytest.mark.parametrize("how", ["start", "start_async"])
@pytest.mark.parametrize("which", ["port", "bus_port"])
def test_a_picked_port_taken_before_the_first_start_is_drawn_again(
    tmp_path: Path, which: str, how: str,
) -> None:
    """Between picking a free port and the child binding it, somebody else may take it (CI:
    a cluster node "exited during startup ... Address already in use"). The first start draws
    a fresh port and the server runs, on ports nobody else holds."""
    server = RedisServer(tmp_path / "data", appendfsync="everysec", bus_port=0,
                         extra_args=("--cluster-enabled", "yes"))
    taken = getattr(server, which)
    with _occupy(taken):
        if how == "start":
            server.start()
        else:
            asyncio.run(server.start_async())
        try:
            assert getattr(server, which) != taken
            assert "Address already in use" in server.log_path.read_text()
            assert _pid_at(server.port) == server.pid
            with redis.Redis(port=server.port, socket_timeout=2) as client:
                assert client.cluster("myid")  # a cluster node, on its own bus port
        finally:
            server.stop()


def test_a_port_the_caller_gave_is_never_changed(tmp_path: Path) -> None:
    """A port given by the caller (a configured address) is kept: taken, the start fails."""
    port = free_port()
    with _occupy(port), pytest.raises(PortTakenError, match=f"port {port} exited during"):
        RedisServer(tmp_path / "data", port).start()


def test_a_server_keeps_its_port_across_restarts(tmp_path: Path) -> None:
    """Once the server has answered, clients hold its URL: a restart that finds the port taken
    fails rather than moving the data to another address."""
    server = RedisServer(tmp_path / "data", appendfsync="everysec")
    server.start()
    url = server.url
    server.stop()
    with _occupy(server.port), pytest.raises(PortTakenError):
        server.restart()
    assert server.url == url
    server.restart()
    try:
        assert _pid_at(server.port) == server.pid
    finally:
        server.stop()


async def test_supervise_restarts_a_server_killed_behind_its_back(
    make_redis_server: RedisServerFactory,
) -> None:
    """supervise() brings a SIGKILLed server back on the same URL with its data intact."""
    server = make_redis_server(appendfsync="always")
    async with redis.asyncio.Redis.from_url(server.url) as client:
        await client.set("game:1", b"alive")
    old_pid = server.pid
    assert old_pid is not None

    stop_event = asyncio.Event()
    supervisor = asyncio.create_task(supervise(server, stop_event, poll_interval=0.05))
    try:
        os.kill(old_pid, signal.SIGKILL)
        async with asyncio.timeout(10):
            while server.pid in (None, old_pid):
                await asyncio.sleep(0.05)
            # the new pid is known before the server has read its AOF and listens (on a busy
            # machine a connection in between was refused): the data, once it answers
            async with redis.asyncio.Redis.from_url(server.url) as client:
                while True:
                    try:
                        value = await client.get("game:1")
                        break
                    except redis.exceptions.ConnectionError:
                        await asyncio.sleep(0.05)
            assert value == b"alive"
    finally:
        stop_event.set()
        await asyncio.wait_for(supervisor, timeout=5)
    assert server.is_running()


async def test_supervise_leaves_a_stopped_server_alone(
    make_redis_server: RedisServerFactory,
) -> None:
    """A deliberate stop() is not a crash: supervise() does not start the server again."""
    server = make_redis_server()
    stop_event = asyncio.Event()
    supervisor = asyncio.create_task(supervise(server, stop_event, poll_interval=0.02))

    await server.stop_async()
    await asyncio.sleep(0.2)
    stop_event.set()
    await asyncio.wait_for(supervisor, timeout=5)

    assert not server.is_running()


def test_a_replica_stopped_while_it_writes_its_first_aof_exits_cleanly(
    make_redis_server: RedisServerFactory,
) -> None:
    """Redis refuses a SIGTERM while it writes its first AOF, which a replica does right after
    its first copy of its master ("Writing initial AOF, can't exit"), and runs on. stop()
    repeats the SIGTERM, so the replica still shuts down cleanly (Redis says "bye bye"),
    instead of being SIGKILLed once the wait ran out."""
    primary = make_redis_server(appendfsync="everysec", extra_args=(
        "--enable-debug-command", "local", "--repl-diskless-sync-delay", "0"))
    with redis.Redis.from_url(primary.url) as client:
        # enough data that the replica's AOF rewrite after the copy outlasts the stop below
        client.execute_command("DEBUG", "POPULATE", 150_000, "game", 64)
    replica = make_redis_server(appendfsync="everysec", extra_args=(
        "--replicaof", "127.0.0.1", str(primary.port)))
    with redis.Redis.from_url(replica.url) as client:
        for _ in range(400):
            if client.info("replication").get("master_link_status") == "up":
                break
            time.sleep(0.01)
        else:
            raise AssertionError("the replica never finished its copy")
    replica.stop(timeout=10.0)
    log = replica.log_path.read_text(errors="replace")
    assert "bye bye" in log, log[-2000:]
