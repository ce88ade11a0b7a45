"""Abuse: what floods of rejected requests, half-open connections and big list pages cost.

    python bench/abuse.py flood [--requests 3000] [--size 30000] [--kind undecodable]
    python bench/abuse.py halfopen [--raw 300] [--calls 5000] [--wait 20] [--rounds 1]
    python bench/abuse.py list [--callers 8] [--page 200] [--games 400] [--seconds 8]

Each mode starts its own redis-server and one `python -m risk_service` process (bench/common.py)
and prints what it measured; extra service settings come from the environment (RISK_*).

- flood: the service's VmRSS before, then `--requests` requests of `--size` bytes that the
  service rejects, 32 in flight on one channel, then the RSS right after and again after
  `--settle` seconds. Kinds: `undecodable` (bytes that are not a CreateGameRequest:
  INVALID_ARGUMENT), `invalid` (a CreateGameRequest whose seat name is `--size` long:
  INVALID_ARGUMENT), `oversized` (over RISK_MAX_MESSAGE_BYTES: RESOURCE_EXHAUSTED),
  `unauthenticated` (a GetGame of a real game with a wrong bearer token of `--size` bytes).
- halfopen: `--raw` TCP connections that never send a byte, plus HTTP/2 connections (100
  streams each) that send the preface, SETTINGS and the HEADERS of a Ping but never its
  message (nor answer the server's pings); then how many of those sockets the server has
  closed after `--wait` seconds, the service's RSS before and after, and Ping latency (p50/p99
  of 200 sequential calls) before and while they are held; `--rounds` times over.
- list: `--games` waiting games; `--callers` clients calling ListGames with `--page` games per
  page back to back for `--seconds` (in a client process of their own), while this process
  pings, 400 calls one after another; prints ListGames pages/s and the Ping p50/p99 against
  the same Ping with no ListGames load, in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import socket
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import rss_bytes, stack  # noqa: E402 - needs ROOT on sys.path
from bench.service import say  # noqa: E402
from risk_proto.risk.v1 import service_pb2, service_pb2_grpc  # noqa: E402
from risk_testing.rawh2 import half_sent_calls  # noqa: E402
from risk_testing.rpc import bearer, create_request  # noqa: E402

MB = 1024 * 1024
PING = "/risk.v1.RiskService/Ping"
CREATE = "/risk.v1.RiskService/CreateGame"
IN_FLIGHT = 32


def mb(n: int) -> str:
    return f"{n / MB:.1f} MB"


def rejected_request(kind: str, size: int) -> tuple[str, bytes, Sequence[tuple[str, str]]]:
    """(method, serialised request, metadata) of one request the service must refuse."""
    if kind == "undecodable":
        # a length-delimited field 1 whose declared length runs past the end: never parses
        return CREATE, b"\x0a\xff\xff\xff\x0f" + b"\x00" * max(0, size - 5), ()
    if kind == "invalid":
        request = create_request()
        request.seat_names.append("x" * size)
        return CREATE, request.SerializeToString(), ()
    if kind == "oversized":
        request = create_request()
        request.seat_names.append("x" * size)
        return CREATE, request.SerializeToString(), ()
    if kind == "unauthenticated":
        return ("/risk.v1.RiskService/GetGame",
                service_pb2.GetGameRequest(game_id="0" * 22).SerializeToString(),
                bearer("t" * size))
    raise SystemExit(f"unknown kind {kind}")


async def flood(args: argparse.Namespace, target: str, pid: int) -> None:
    method, body, metadata = rejected_request(args.kind, args.size)
    codes: dict[str, int] = {}
    async with grpc.aio.insecure_channel(target, options=[
            ("grpc.max_send_message_length", 64 * MB),
            ("grpc.max_metadata_size", 64 * MB)]) as channel:
        call = channel.unary_unary(method)
        await service_pb2_grpc.RiskServiceStub(channel).Ping(service_pb2.PingRequest())
        await asyncio.sleep(1)
        before = rss_bytes(pid)
        queue = iter(range(args.requests))

        async def worker() -> None:
            for _ in queue:
                try:
                    await call(body, metadata=metadata, timeout=30)
                    code = "OK"
                except grpc.aio.AioRpcError as error:
                    code = error.code().name
                codes[code] = codes.get(code, 0) + 1

        started = time.monotonic()
        await asyncio.gather(*(worker() for _ in range(IN_FLIGHT)))
        took = time.monotonic() - started
        after = rss_bytes(pid)
        await asyncio.sleep(args.settle)
        settled = rss_bytes(pid)
    size = len(body) + sum(len(v) for _k, v in metadata)
    say(f"flood: {args.requests} {args.kind} requests of {size:,} bytes in {took:.1f} s, "
        f"answers {codes}")
    say(f"flood: service RSS before {mb(before)}, after {mb(after)} (+{mb(after - before)}), "
        f"{args.settle:g} s later {mb(settled)} (+{mb(settled - before)}); "
        f"per rejected request +{(settled - before) / args.requests / 1024:.1f} KiB")


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed (FIN or RST) the socket; reads and drops what it sent."""
    try:
        while True:
            data = sock.recv(65536, socket.MSG_DONTWAIT)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


async def ping_latency(stub: Any, n: int = 200) -> tuple[float, float]:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        await stub.Ping(service_pb2.PingRequest(), timeout=30)
        times.append((time.perf_counter() - t) * 1e3)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


async def halfopen(args: argparse.Namespace, target: str, pid: int) -> None:
    host, port = target.rsplit(":", 1)
    async with grpc.aio.insecure_channel(target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        await stub.Ping(service_pb2.PingRequest())
        await asyncio.sleep(1)
        before = rss_bytes(pid)
        p50, p99 = await ping_latency(stub)
        say(f"halfopen: {args.raw} silent connections and {args.calls} half-sent calls "
            f"(100 a connection) a round; service RSS before {mb(before)}, Ping p50/p99 "
            f"{p50:.2f}/{p99:.2f} ms")
        for round_ in range(1, args.rounds + 1):
            raw = [socket.create_connection((host, int(port))) for _ in range(args.raw)]
            calls = []
            for start in range(0, args.calls, 100):
                sock = socket.create_connection((host, int(port)))
                sock.sendall(half_sent_calls(target, min(100, args.calls - start)))
                calls.append(sock)
            opened = time.monotonic()
            await asyncio.sleep(1)
            held = rss_bytes(pid)
            q50, q99 = await ping_latency(stub)
            await asyncio.sleep(max(0.0, args.wait - (time.monotonic() - opened)))
            raw_closed = sum(closed_by_server(s) for s in raw)
            calls_closed = sum(closed_by_server(s) for s in calls)
            after = rss_bytes(pid)
            for sock in raw + calls:
                sock.close()
            say(f"halfopen round {round_}: after {args.wait:g} s closed by the server: silent "
                f"{raw_closed}/{len(raw)}, half-sent {calls_closed}/{len(calls)}; RSS while "
                f"held {mb(held)} (+{mb(held - before)}), after {mb(after)} "
                f"(+{mb(after - before)}); Ping p50/p99 while held {q50:.2f}/{q99:.2f} ms")


def _lister_main(target: str, callers: int, page: int, seconds: float,
                 out: Any) -> None:
    """A client process: `callers` channels calling ListGames back to back for `seconds`."""
    async def run() -> tuple[int, int]:
        stop = time.monotonic() + seconds
        pages = largest = 0

        async def lister() -> None:
            nonlocal pages, largest
            async with grpc.aio.insecure_channel(target) as own:
                own_stub = service_pb2_grpc.RiskServiceStub(own)
                while time.monotonic() < stop:
                    reply = await own_stub.ListGames(
                        service_pb2.ListGamesRequest(page_size=page), timeout=30)
                    pages += 1
                    largest = max(largest, len(reply.games))

        await asyncio.gather(*(lister() for _ in range(callers)))
        return pages, largest

    out.send(asyncio.run(run()))


async def listing(args: argparse.Namespace, target: str, pid: int) -> None:
    del pid
    async with grpc.aio.insecure_channel(target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        for start in range(0, args.games, 50):
            await asyncio.gather(*(stub.CreateGame(create_request(seed=i))
                                   for i in range(start, min(args.games, start + 50))))
        base50, base99 = await ping_latency(stub, 400)
        # the listers run in their own process, so decoding their pages does not delay this
        # process's pings
        ours, theirs = mp.Pipe()
        proc = mp.get_context("spawn").Process(
            target=_lister_main, args=(target, args.callers, args.page, args.seconds, theirs))
        proc.start()
        await asyncio.sleep(1.0)
        load50, load99 = await ping_latency(stub, 400)
        pages, largest = await asyncio.to_thread(ours.recv)
        proc.join()
    say(f"list: {args.games} waiting games, {args.callers} callers x ListGames(page_size="
        f"{args.page}) for {args.seconds:g} s: {pages / args.seconds:.1f} pages/s, "
        f"{largest} games per page")
    say(f"list: Ping p50/p99 {base50:.2f}/{base99:.2f} ms alone, {load50:.2f}/{load99:.2f} ms "
        f"under ListGames (p99 ratio {load99 / base99:.1f})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    f = sub.add_parser("flood")
    f.add_argument("--requests", type=int, default=3000)
    f.add_argument("--size", type=int, default=30_000)
    f.add_argument("--kind", default="undecodable",
                   choices=("undecodable", "invalid", "oversized", "unauthenticated"))
    f.add_argument("--settle", type=float, default=3.0)
    h = sub.add_parser("halfopen")
    h.add_argument("--raw", type=int, default=300)
    h.add_argument("--calls", type=int, default=5000)
    h.add_argument("--wait", type=float, default=20.0)
    h.add_argument("--rounds", type=int, default=1)
    li = sub.add_parser("list")
    li.add_argument("--callers", type=int, default=8)
    li.add_argument("--page", type=int, default=200)
    li.add_argument("--games", type=int, default=400)
    li.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args(argv)
    run = {"flood": flood, "halfopen": halfopen, "list": listing}[args.mode]
    with stack(vars(args), "info") as st:
        asyncio.run(run(args, st.service.target, st.service_pid))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
