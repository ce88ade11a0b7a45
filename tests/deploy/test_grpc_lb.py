"""compose.cluster.yaml's one port for N replicas, for real: HAProxy with deploy/haproxy.cfg in
front of two service processes.

The file is checked by `haproxy -c` as it is, then run with one change: Docker's DNS (the
`resolvers` section and the `server-template` that uses it) becomes one `server` line per
loopback replica with the template's own options. Calls over one client connection must reach
both replicas (per-call balancing, not per connection) and a stream must pass through.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from risk_proto.risk.v1 import service_pb2
from risk_service.redis_server import free_port
from risk_testing.harness import ServiceProcess, running
from tests.deploy.manifests import HAPROXY_CFG
from tests.service.rawbot import Log, Stub, channel, open_table, play, quick_game, read_stream

HAPROXY_MISSING = "haproxy is required (scripts/setup test installs it)"


def loopback_config(text: str, listen_port: int, replicas: list[str]) -> str:
    """haproxy.cfg with its bind on a loopback port and its DNS-found servers replaced by
    `replicas` (host:port), keeping every other line."""
    out: list[str] = []
    skipping = False
    for line in text.splitlines():
        stripped = line.strip()
        if re.match(r"^resolvers\s", line):
            skipping = True  # the whole section: it names Docker's DNS server
            continue
        if skipping and line and not line[0].isspace():
            skipping = False
        if skipping:
            continue
        if stripped.startswith("bind :"):
            options = stripped.split(maxsplit=2)[2]
            out.append(f"    bind 127.0.0.1:{listen_port} {options}")
        elif stripped.startswith("server-template "):
            words = stripped.split()
            options, skip = [], False
            for word in words[4:]:  # server-template PREFIX COUNT HOST:PORT options...
                if skip:
                    skip = False
                elif word in ("resolvers", "init-addr"):
                    skip = True
                else:
                    options.append(word)
            out += [f"    server {words[1]}{i} {target} {' '.join(options)}"
                    for i, target in enumerate(replicas, start=1)]
        else:
            out.append(line)
    return "\n".join(out) + "\n"


@pytest.fixture
def replicas(redis_url: str, tmp_path: Path) -> Iterator[list[ServiceProcess]]:
    with running(*(ServiceProcess(redis_url, tmp_path) for _ in range(2))) as started:
        yield list(started)


def test_haproxy_accepts_the_deployed_config() -> None:
    """`haproxy -c` accepts deploy/haproxy.cfg exactly as compose mounts it."""
    binary = shutil.which("haproxy")
    assert binary is not None, HAPROXY_MISSING
    done = subprocess.run([binary, "-c", "-f", str(HAPROXY_CFG)], capture_output=True,
                          text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


async def test_one_port_spreads_calls_over_the_replicas(
    replicas: list[ServiceProcess], tmp_path: Path
) -> None:
    """Through HAProxy's one port, on one client connection: a game is created, joined and
    played, its calls are served by both replicas, and a spectator's stream comes through."""
    binary = shutil.which("haproxy")
    assert binary is not None, HAPROXY_MISSING
    port = free_port()
    config = tmp_path / "haproxy.cfg"
    config.write_text(loopback_config(HAPROXY_CFG.read_text(), port,
                                      [r.target for r in replicas]))
    log = tmp_path / "haproxy.log"
    with log.open("wb") as out:
        proxy = subprocess.Popen([binary, "-db", "-f", str(config)], stdout=out,
                                 stderr=subprocess.STDOUT)
    try:
        ch = channel(f"127.0.0.1:{port}")
        stub = Stub(ch)
        deadline = time.monotonic() + 15
        while True:
            assert proxy.poll() is None, log.read_text()
            try:
                await stub.Ping(service_pb2.PingRequest(), timeout=1)
                break
            except grpc.aio.AioRpcError:  # until HAProxy listens and has checked a replica
                assert time.monotonic() < deadline, log.read_text()
                await asyncio.sleep(0.2)
        table = await open_table(stub, quick_game(seed=91, max_turns=4))
        game = Log(table.start_version)
        await play(stub, table, game, moves=10)
        events = await read_stream(stub, table.game_id, None, after_seq=0, upto=5)
        assert [e.seq for e in events][:5] == [1, 2, 3, 4, 5]
        await ch.close()
        served = [r.logs().count('"event":"rpc"') for r in replicas]
        print(f"\ncalls per replica through one connection: {served}")
        assert all(count >= 5 for count in served), f"calls per replica: {served}"
    finally:
        proxy.terminate()
        proxy.wait(10)
