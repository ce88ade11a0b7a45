"""`--workers N`: N service processes on one port (SO_REUSEPORT) under one parent, on the
Redis Cluster. Connections are spread over the workers; a killed worker is restarted while the
others serve; SIGTERM to the parent drains and stops them all."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import socket
import time
import urllib.request
from pathlib import Path

import grpc

from risk_testing.cluster import LocalCluster
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import create_request
from tests.service.rawbot import Stub, channel

WORKERS = 2


def _metrics_ports(count: int) -> int:
    """The first of `count` consecutive loopback ports, free now, below the kernel's
    ephemeral range: worker i serves metrics on the first + i, and a port next to one
    free_port() gave may meanwhile become the local end of any outgoing connection (which
    the kernel takes from that range), so the worker could not bind it."""
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    for _ in range(100):
        first = random.randrange(10_000, low - count)
        try:
            for port in range(first, first + count):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", port))
        except OSError:
            continue
        return first
    raise AssertionError(f"no {count} free ports in a row below {low}")


def _children(pid: int) -> list[int]:
    """The live child processes of `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _calls_served(port: int) -> float:
    """CreateGame calls a worker answered, from its own /metrics page."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        page = reply.read().decode()
    found = re.findall(r'^risk_rpcs_total\{[^}]*CreateGame[^}]*\} ([0-9.e+]+)$', page, re.M)
    return sum(float(v) for v in found)


async def _until_up(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            await asyncio.to_thread(_calls_served, port)
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


async def _create_retrying(stub: Stub) -> None:
    """CreateGame as a client does it while a worker is down: a connection the dead worker's
    socket had queued is reset (docs/storage.md, "--workers N"), so UNAVAILABLE is retried
    for a few seconds; any other error, or no answer by then, fails."""
    deadline = time.monotonic() + 10
    while True:
        try:
            await stub.CreateGame(create_request(seed=2, players=3), wait_for_ready=True,
                                  timeout=5)
            return
        except grpc.aio.AioRpcError as error:
            if error.code() != grpc.StatusCode.UNAVAILABLE or time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


async def test_workers_share_one_port_restart_and_stop_together(
    cluster: LocalCluster, tmp_path: Path
) -> None:
    """Two workers behind one address: new connections reach both; a SIGKILLed worker comes
    back while the other answers; SIGTERM to the parent ends every worker and the parent."""
    metrics = _metrics_ports(WORKERS)
    service = ServiceProcess(cluster.url, tmp_path, RISK_REDIS_CLUSTER="true",
                             RISK_WORKERS=str(WORKERS), RISK_METRICS_PORT=str(metrics))
    service.start(timeout=30)
    assert service.proc is not None
    try:
        deadline = time.monotonic() + 20
        while len(_children(service.proc.pid)) < WORKERS and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        workers = _children(service.proc.pid)
        assert len(workers) == WORKERS
        for i in range(WORKERS):  # every worker is up (its metrics port answers)
            await _until_up(metrics + i)
        for _ in range(24):  # a new connection each: the kernel spreads them
            async with channel(service.target) as ch:
                await Stub(ch).CreateGame(create_request(seed=1, players=3))
        served = [await asyncio.to_thread(_calls_served, metrics + i) for i in range(WORKERS)]
        assert all(n > 0 for n in served), f"calls per worker: {served}"

        os.kill(workers[0], signal.SIGKILL)
        while workers[0] in _children(service.proc.pid):  # its sockets are closed once dead
            assert time.monotonic() < deadline + 10, "the killed worker was never reaped"
            await asyncio.sleep(0.02)
        async with channel(service.target) as ch:
            for _ in range(10):  # the survivor answers meanwhile
                await _create_retrying(Stub(ch))
        while time.monotonic() < deadline + 10:
            now = _children(service.proc.pid)
            if len(now) == WORKERS and workers[0] not in now:
                break
            await asyncio.sleep(0.1)
        restarted = _children(service.proc.pid)
        assert len(restarted) == WORKERS and workers[0] not in restarted, restarted
        await service.wait_serving()
    finally:
        code = service.stop()
    assert code == 0, service.logs()
    assert not _children(service.proc.pid), "a worker outlived its parent"
    assert "worker_exited" in service.logs()
