"""The HTTP port's server, measured against Hypercorn (HTTP/1.1 and HTTP/2) serving the same
application: server CPU per Connect call and memory per idle connection (issue 33, "HTTP on a
well-kept server ... decide by measurement").

    python bench/http_servers.py [--quick] [--calls 3000] [--clients 16] [--idle 1000]
                                 [--rounds 3] [--hypercorn-path DIR]

Hypercorn is not a dependency of the service: install it beside, e.g.
`pip install --target /tmp/hc hypercorn==0.18.0`, and pass `--hypercorn-path /tmp/hc`.
Without it only uvicorn is measured.

A child process builds the port's own ASGI application (server.http_port.HttpPort: the
connection and request guards, the web app, CORS, connectrpc, the call chain) over a route
table of one call, Ping (no Redis: what differs between servers is the server's share), and
serves it three ways on one event loop (uvloop's, the service's default): `uvicorn-h11`
(HttpPort.start, as shipped), `hypercorn-h11` and `hypercorn-h2` (`hypercorn.asyncio.serve`
on the same app; HTTP/2 by prior knowledge, cleartext, as a TLS deployment would negotiate it
by ALPN). This process is
the client: connectrpc's client on pyqwest, binary protobuf, `--clients` calls in flight,
`--calls` calls per phase, phases rotated per round. Per server: the child's CPU time (utime
+ stime from /proc/<pid>/stat) per call, median over rounds; then its RSS growth per
connection for `--idle` connections opened and left idle after one Ping each (HTTP/2: the
preface, SETTINGS and one request each).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import rss_bytes  # noqa: E402 - needs ROOT on sys.path
from bench.service import cpu_seconds  # noqa: E402

PING = "/risk.v1.RiskService/Ping"
SERVERS = ("uvicorn-h11", "hypercorn-h11", "hypercorn-h2")
IDLE_TIMEOUT_S = 120.0  # the bench's idle connections must outlive the measurement


# ---- the server (child process) -------------------------------------------------------------


async def serve(hypercorn_path: str) -> None:
    """Serve the port's application on uvicorn and, if it imports, Hypercorn; print the
    ports as one JSON line; run until stdin closes."""
    from risk_proto.risk.v1 import service_pb2  # noqa: PLC0415 - the child's imports
    from risk_service.operations import Caller  # noqa: PLC0415
    from risk_service.server.calls import Chain  # noqa: PLC0415
    from risk_service.server.http_port import HttpLimits, HttpPort  # noqa: PLC0415
    from risk_service.server.routes import Kind, Route  # noqa: PLC0415

    async def ping(_request: service_pb2.PingRequest, _caller: Caller
                   ) -> service_pb2.PingResponse:
        return service_pb2.PingResponse()

    routes = {PING: Route(name="Ping", path=PING, request=service_pb2.PingRequest,
                          response=service_pb2.PingResponse, kind=Kind.UNARY, call=ping,
                          credentials=False, creation=False, encoded=False, cacheable=False,
                          side_effects=False, limited=False)}
    limits = HttpLimits(request_timeout_s=IDLE_TIMEOUT_S, idle_timeout_s=IDLE_TIMEOUT_S,
                        max_connections=1 << 20)
    port = HttpPort(routes, Chain(), max_message_bytes=4 << 20, origins=frozenset(),
                    limits=limits)
    ports = {"uvicorn-h11": await port.start("127.0.0.1:0", grace_s=1)}
    stop = asyncio.Event()
    tasks = []
    sockets = []  # open while Hypercorn serves their descriptors
    if hypercorn_path:
        sys.path.insert(0, hypercorn_path)
        from hypercorn.asyncio import serve as hypercorn_serve  # type: ignore[import-not-found]  # noqa: PLC0415
        from hypercorn.config import Config  # type: ignore[import-not-found]  # noqa: PLC0415

        for name in ("hypercorn-h11", "hypercorn-h2"):
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            config = Config()
            config.bind = [f"fd://{sock.fileno()}"]
            config.keep_alive_timeout = IDLE_TIMEOUT_S
            config.h11_max_incomplete_size = limits.max_header_bytes
            config.accesslog = None
            config.errorlog = None
            config.loglevel = "WARNING"
            config.include_server_header = False
            ports[name] = sock.getsockname()[1]
            tasks.append(asyncio.create_task(hypercorn_serve(
                port.app, config, shutdown_trigger=stop.wait)))
            sockets.append(sock)
    print(json.dumps(ports), flush=True)
    # nothing more on the pipe, which the parent no longer reads (the calls' log lines would
    # fill it and stop the server)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    await port.stop()
    for sock in sockets:
        with contextlib.suppress(OSError):  # Hypercorn closed its descriptor already
            sock.close()


# ---- the client (this process) --------------------------------------------------------------


async def calls_phase(url: str, http2: bool, calls: int, clients: int) -> None:
    """`calls` Pings with `clients` in flight."""
    from connectrpc.compat import google_protobuf_binary_codec  # noqa: PLC0415
    from pyqwest import Client, HTTPTransport, HTTPVersion  # noqa: PLC0415

    from risk_proto.risk.v1 import service_pb2  # noqa: PLC0415
    from risk_proto.risk.v1.service_connect import RiskServiceClient  # noqa: PLC0415

    transport = HTTPTransport(pool_max_idle_per_host=1024,
                              http_version=HTTPVersion.HTTP2 if http2 else HTTPVersion.HTTP1)
    client = RiskServiceClient(url, codec=google_protobuf_binary_codec(),
                               accept_compression=[], send_compression=None,
                               http_client=Client(transport), timeout_ms=30_000)
    left = calls

    async def caller() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            await client.ping(service_pb2.PingRequest())

    await asyncio.gather(*(caller() for _ in range(clients)))
    await transport.aclose()


_PING_H1 = (b"POST " + PING.encode() + b" HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/proto\r\nContent-Length: 0\r\n\r\n")


def _h2_ping() -> bytes:
    """The HTTP/2 preface, an empty SETTINGS frame and one Ping's HEADERS (END_STREAM),
    encoded with hpack's literal-without-indexing, no Huffman (RFC 7541 6.2.2)."""
    def literal(name: bytes, value: bytes) -> bytes:
        return b"\x00" + bytes([len(name)]) + name + bytes([len(value)]) + value
    block = b"".join(literal(k, v) for k, v in (
        (b":method", b"POST"), (b":scheme", b"http"), (b":path", PING.encode()),
        (b":authority", b"x"), (b"content-type", b"application/proto")))
    headers = len(block).to_bytes(3, "big") + b"\x01\x05" + (1).to_bytes(4, "big") + block
    settings = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
    return b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + settings + headers


async def idle_phase(port: int, http2: bool, count: int
                     ) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """`count` connections, each answered once, then left open and idle."""
    opened = []
    hello = _h2_ping() if http2 else _PING_H1
    for start in range(0, count, 100):
        batch = [await asyncio.open_connection("127.0.0.1", port)
                 for _ in range(min(100, count - start))]
        for _reader, writer in batch:
            writer.write(hello)
        for reader, _writer in batch:
            await asyncio.wait_for(reader.read(1), 10)  # answered: the server holds its state
        opened += batch
    return opened


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 round, 1000 calls, 300 idle")
    parser.add_argument("--calls", type=int, default=3000, help="Pings per phase")
    parser.add_argument("--clients", type=int, default=16, help="Pings in flight")
    parser.add_argument("--idle", type=int, default=1000, help="idle connections per server")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--servers", default=",".join(SERVERS),
                        help="which of them, comma-separated (uvicorn-h11 always)")
    parser.add_argument("--hypercorn-path", default="",
                        help="a directory holding hypercorn (pip install --target)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.calls, args.idle, args.rounds = 1000, 300, 1
    return args


async def run(args: argparse.Namespace) -> None:
    child = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--hypercorn-path", args.hypercorn_path],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(
            filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))})
    try:
        assert child.stdout is not None and child.stdin is not None
        ports: dict[str, int] = json.loads(child.stdout.readline())
        wanted = {"uvicorn-h11", *args.servers.split(",")}
        servers = [name for name in SERVERS if name in ports and name in wanted]
        print(f"load {os.getloadavg()[0]:.1f}; servers: {', '.join(servers)}")
        per_call: dict[str, list[float]] = {name: [] for name in servers}
        for name in servers:  # warm-up, unrecorded
            await calls_phase(f"http://127.0.0.1:{ports[name]}", name.endswith("h2"), 200,
                        args.clients)
        for round_ in range(args.rounds):
            for name in servers[round_ % len(servers):] + servers[:round_ % len(servers)]:
                before, started = cpu_seconds(child.pid), time.perf_counter()
                await calls_phase(f"http://127.0.0.1:{ports[name]}", name.endswith("h2"),
                            args.calls, args.clients)
                cpu, wall = cpu_seconds(child.pid) - before, time.perf_counter() - started
                per_call[name].append(cpu / args.calls * 1e6)
                print(f"round {round_ + 1} {name:14} {args.calls / wall:8.0f} calls/s "
                      f"server CPU {cpu / args.calls * 1e6:7.1f} us/call")
        base = statistics.median(per_call["uvicorn-h11"])
        for name in servers:
            median = statistics.median(per_call[name])
            print(f"median {name:14} server CPU {median:7.1f} us/call  "
                  f"ratio to uvicorn-h11 {median / base:.2f}")
        for name in servers:
            before = rss_bytes(child.pid)
            held = await idle_phase(ports[name], name.endswith("h2"), args.idle)
            grown = rss_bytes(child.pid) - before
            print(f"idle {name:14} {args.idle} connections: RSS +{grown / 2**20:.1f} MiB, "
                  f"{grown / args.idle / 1024:.1f} KiB per connection")
            for _reader, writer in held:
                writer.close()
            await asyncio.sleep(0.5)  # let the server see them go before the next one
        print(f"load {os.getloadavg()[0]:.1f}")
    finally:
        if child.stdin is not None:
            child.stdin.close()
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.serve:
        from risk_service.__main__ import loop_factory  # noqa: PLC0415 - the child's

        # the service's default loop (RISK_EVENT_LOOP=uvloop)
        with asyncio.Runner(loop_factory=loop_factory("uvloop")) as runner:
            runner.run(serve(args.hypercorn_path))
    else:
        asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
