"""Spectators at scale (issue 37, item 6): many spectators of one game on one service process,
their delivery p99 at a move rate, and the memory of an idle spectator against boardgame.io's
measured in the same run.

    python bench/spectators.py [--spectators 10000] [--rate 10] [--seconds 10]
                               [--transports ws,grpc] [--sub-procs 4] [--peer bgio|none]
                               [--rounds 1] [--quick] [--workers N]

Nothing here is new machinery: it runs the existing harnesses at a larger count.
- Delivery, per transport, on a fresh `bench.common.stack` each (redis-server with AOF, one
  `python -m risk_service` with its HTTP port; RISK_HTTP_MAX_CONNECTIONS raised above the
  count, since every WebSocket spectator is a connection): `bench.service.delivery`, one game,
  `--spectators` StreamEvents subscribers (max_batch 64, what the clients ask for) in
  `--sub-procs` Python client processes, on gRPC (100 streams per HTTP/2 connection) or as
  WebSockets to the HTTP port (one connection each); the driver moves at `--rate` until every
  subscriber is live (at most `--warmup` s), then submits `--rate` moves a second
  for `--seconds`; a delivery is a subscriber's receipt of a move's last event minus the
  driver's SubmitAction reply (CLOCK_MONOTONIC, system-wide), p99 over every (move,
  subscriber) pair, as bench/peers.py measures the peers (a spectator often hears of a move
  before the driver has its reply, so the p50 can be below 0); the p99 from the driver's send
  is printed beside it. The clients run on the same machine and their CPU is printed beside the
  server's: on a small machine they, not the service, may be what saturates.
- Idle memory, per transport, on a fresh stack each: `bench.memory.idle_subscribers`, the
  service's RSS growth over `--spectators` idle streams of a quiet game, ÷ the count.
- The peer: boardgame.io 0.50.2's own server (bench/peers.py's harness and
  bench/peers/bgio_server.js, socket.io clients in 2 node processes): RSS growth per idle
  spectator once all are synced, then its delivery p99 at the same rate and count.
The figures printed at the end are medians over `--rounds`, with ours ÷ boardgame.io and the
p99 against the 250 ms target.

`--cluster M` puts the games on a Redis Cluster of M masters (real `redis-server
--cluster-enabled` processes on loopback ports, no replicas; RISK_REDIS_CLUSTER) instead of one
redis-server, and `--instances K` runs K service instances (each with `--workers`), each on
addresses of its own, as the pods of a deployment: the subscriber processes spread round the
instances, the driver submits to the first, and every instance reads the game's events from
the cluster. With either, the idle memory runs are left out (they measure one process's RSS
per stream, which neither changes); CPU is summed over every instance's processes and every
master.

`--workers N` runs the service as N worker processes on one address (RISK_WORKERS: the kernel
spreads the connections over them, each reads the game's stream from Redis); their CPU and RSS
are summed. A process here may hold at most 20,000 descriptors, so past 15,000 streams the
subscribers take more client processes, and past 25,000 they connect from several loopback
addresses (bench.service.subscriber_parts, sources): 100,000 spectators need 7 workers or
more.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing as mp
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import stack  # noqa: E402 - needs ROOT on sys.path
from bench.memory import idle_subscribers  # noqa: E402
from bench.peers import (  # noqa: E402
    NAMES,
    NodeClient,
    ensure_installed,
    load_averages,
    peer_server,
    peer_spectators,
)
from bench.service import Env, delivery, new_stub, parse_args, say  # noqa: E402
from risk_testing.cluster import LocalCluster  # noqa: E402
from risk_testing.harness import ServiceProcess  # noqa: E402
from risk_testing.redis_server import RedisServer  # noqa: E402

TARGET_P99_MS = 250.0
BATCH = 64
Figures = dict[str, float]


def max_connections(spectators: int, workers: int) -> str:
    """RISK_HTTP_MAX_CONNECTIONS: every WebSocket spectator holds a connection of the HTTP
    port, so the cap (by default half the open-file limit) goes above the count (a worker's
    share of it, below the 20,000 descriptors a process may hold here)."""
    return str(spectators + 1000 if workers <= 1 else min(19_000, 2 * spectators // workers))


def service_env(args: argparse.Namespace) -> dict[str, str]:
    env = {"RISK_HTTP_MAX_CONNECTIONS": max_connections(
        -(-args.spectators // args.instances), args.workers)}  # an instance's share
    if args.workers > 1:
        env["RISK_WORKERS"] = str(args.workers)
    if args.cluster:
        env["RISK_REDIS_CLUSTER"] = "true"
    return env


@dataclass
class Deployment:
    """The service instances ((gRPC target, HTTP port) each; the first takes the driver's
    moves), their processes and Redis' (one server, or the cluster's masters)."""

    endpoints: list[tuple[str, int]]
    server_pids: list[int]
    redis_pids: list[int]


def one_stack(args: argparse.Namespace) -> bool:
    """One service (of `--workers`) on one redis-server: no `--cluster`, one instance."""
    return not args.cluster and args.instances <= 1


@contextlib.contextmanager
def deployment(args: argparse.Namespace, settings: dict[str, object]) -> Iterator[Deployment]:
    """One service on one redis-server (bench.common's stack), or with `--cluster` /
    `--instances` a Redis Cluster and several instances on it."""
    if one_stack(args):
        with stack(settings, args.log_level, http=True, **service_env(args)) as st:
            assert st.redis.pid is not None
            yield Deployment([(st.service.target, st.service.http_port)],
                             service_pids(st.service_pid, args.workers), [st.redis.pid])
        return
    work = Path(tempfile.mkdtemp(prefix="risk-bench-"))
    with contextlib.ExitStack() as stops:
        stops.callback(shutil.rmtree, work, True)
        if args.cluster:
            cluster = LocalCluster(work / "cluster", masters=args.cluster, replicas=0)
            stops.callback(cluster.stop)
            cluster.start()
            url, redis = cluster.url, [n.pid for n in cluster.nodes if n.pid is not None]
            what = f"a Redis Cluster of {args.cluster} masters"
        else:
            server = RedisServer(work / "redis", appendfsync="everysec")
            stops.callback(server.stop)
            server.start()
            assert server.pid is not None
            url, redis, what = server.url, [server.pid], "one redis-server"
        services = []
        for _ in range(args.instances):
            service = ServiceProcess(url, work, http=True, RISK_LOG_LEVEL=args.log_level,
                                     RISK_MAX_STREAMS_PER_CALLER="0", **service_env(args))
            stops.callback(service.stop)
            service.start()
            assert service.proc is not None
            services.append(service)
        pids = [pid for service in services if service.proc is not None
                for pid in service_pids(service.proc.pid, args.workers)]
        say(f"deployment: {what} (pids {', '.join(map(str, redis))}), {args.instances} "
            f"service instance(s) of {args.workers} process(es) each (pids "
            f"{', '.join(map(str, pids))}), env {service_env(args)}; settings: "
            + ", ".join(f"{k}={v}" for k, v in settings.items()))
        yield Deployment([(service.target, service.http_port) for service in services],
                         pids, redis)


def service_pids(parent: int, workers: int) -> list[int]:
    """The service's processes: the one, or the workers' parent and its `workers` children
    (waited for: the parent starts them)."""
    if workers <= 1:
        return [parent]
    deadline = time.monotonic() + 60
    while True:
        children = [int(pid) for path in Path(f"/proc/{parent}/task").glob("*/children")
                    for pid in path.read_text().split()]
        if len(children) >= workers:
            return [parent, *children]
        if time.monotonic() > deadline:
            raise RuntimeError(f"{len(children)} of {workers} workers started in 60 s")
        time.sleep(0.1)


async def _delivery(args: argparse.Namespace, endpoints: list[tuple[str, int]],
                    pids: dict[str, list[int]], ws: bool) -> Figures:
    s = parse_args(["--subscribers", str(args.spectators), "--rate", str(args.rate),
                    "--deliver-seconds", str(args.seconds), "--burst", "0",
                    "--sub-procs", str(args.sub_procs), "--catch-up", "0"])
    ctx = mp.get_context("spawn")  # never fork a process that already runs grpc threads
    target = endpoints[0][0]
    channel = grpc.aio.insecure_channel(target)
    try:
        run = await delivery(Env(s, target, new_stub(channel), ctx, pids), args.spectators,
                             args.seed, 0, BATCH, max_warmup_s=args.warmup,
                             endpoints=[(t, port if ws else 0) for t, port in endpoints])
    finally:
        await channel.close()
    cpu = run["cpu"]
    return {"delivery_p99_ms": run["p99"], "delivery_p50_ms": run["p50"],
            "send_p99_ms": run["send_p99"],
            "deliveries": run["deliveries"], "missing": run["missing"],
            "stalled": run["stalled"], "server_cpu_pct": cpu["server"],
            "redis_cpu_pct": cpu["redis"],
            "client_cpu_pct": cpu["driver"] + cpu["subscribers"]}


def ours_delivery(args: argparse.Namespace, transport: str) -> Figures:
    with deployment(args, {"bench": "spectators", "phase": f"delivery over {transport}",
                           "spectators": args.spectators, "rate": args.rate}) as d:
        pids = {"server": d.server_pids, "redis": d.redis_pids}
        return asyncio.run(_delivery(args, d.endpoints, pids, transport == "ws"))


async def _idle(args: argparse.Namespace, target: str, server_pids: list[int],
                ws_port: int) -> float:
    channel = grpc.aio.insecure_channel(target)
    try:
        return await idle_subscribers(argparse.Namespace(
            subscribers=args.spectators, seed=args.seed + 80_000, settle=args.settle,
            ws_port=ws_port, warmup=args.warmup), target, new_stub(channel), server_pids)
    finally:
        await channel.close()


def ours_idle(args: argparse.Namespace, transport: str) -> float:
    # a fresh service: on one that had streams before, the new ones would take the heap the
    # old ones freed and its RSS would not show them (bench/peers.py does the same)
    with stack({"bench": "spectators", "phase": f"idle over {transport}",
                "spectators": args.spectators}, args.log_level, http=True,
               **service_env(args)) as st:
        ws_port = st.service.http_port if transport == "ws" else 0
        return asyncio.run(_idle(args, st.service.target,
                                 service_pids(st.service_pid, args.workers), ws_port))


async def _peer(args: argparse.Namespace) -> Figures:
    with peer_server(args.peer) as (url, pid):
        say(f"\n-- {NAMES[args.peer]}: server pid {pid} at {url}, load {load_averages()}")
        try:
            figures = await peer_spectators(args.peer, url, pid, argparse.Namespace(
                spectators=args.spectators, settle=args.settle, rate=args.rate,
                deliver_s=args.seconds, burst=args.peer_burst))
        finally:
            for client in NodeClient.started:
                await client.kill()
            NodeClient.started.clear()
    return {"delivery_p99_ms": figures["delivery_p99_ms"],
            "bytes_per_idle_subscriber": figures["bytes_per_idle_subscriber"],
            "client_cpu_pct": figures["client_cpu_delivery"]}


def report(args: argparse.Namespace, rounds: dict[str, list[Figures]]) -> None:
    med = {side: {k: statistics.median(r[k] for r in runs) for k in runs[0]}
           for side, runs in rounds.items() if runs}
    say(f"\n== {args.spectators:,} spectators of one game, {args.rate:g} moves/s, medians of "
        f"{args.rounds} round(s); load averages now {load_averages()}")
    peer = med.get("peer")
    for transport in args.transports:
        d = med[f"delivery_{transport}"]
        verdict = "within" if d["delivery_p99_ms"] <= TARGET_P99_MS else "OVER"
        say(f"ours over {transport}: delivery p50 {d['delivery_p50_ms']:.1f} ms, p99 "
            f"{d['delivery_p99_ms']:.1f} ms ({verdict} the {TARGET_P99_MS:g} ms target"
            + (f"; ÷ {NAMES[args.peer]}'s {peer['delivery_p99_ms']:.1f} ms = "
               f"{d['delivery_p99_ms'] / peer['delivery_p99_ms']:.2f}" if peer else "")
            + f"); from the driver's send: p99 {d['send_p99_ms']:.1f} ms; "
            f"{d['deliveries']:,.0f} deliveries, {d['missing']:,.0f} missing, "
            f"{d['stalled']:,.0f} streams without an event; CPU % of a core while driving: "
            f"service {d['server_cpu_pct']:.0f}, Redis {d['redis_cpu_pct']:.0f}, clients "
            f"{d['client_cpu_pct']:.0f}")
        if f"idle_{transport}" not in med:
            continue
        idle = med[f"idle_{transport}"]["bytes_per_idle_subscriber"]
        say(f"ours over {transport}: {idle:,.0f} bytes per idle spectator (service RSS)"
            + (f"; ÷ {NAMES[args.peer]}'s {peer['bytes_per_idle_subscriber']:,.0f} = "
               f"{idle / peer['bytes_per_idle_subscriber']:.2f}" if peer else ""))
    if peer:
        say(f"{NAMES[args.peer]}: delivery p99 {peer['delivery_p99_ms']:.1f} ms, "
            f"{peer['bytes_per_idle_subscriber']:,.0f} bytes per idle spectator, its clients "
            f"{peer['client_cpu_pct']:.0f}% of a core")


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="1,000 spectators, 4 s of driving (explicit flags still win)")
    parser.add_argument("--spectators", type=int, default=None, help="default 10000")
    parser.add_argument("--rate", type=float, default=10.0, help="driver moves/s")
    parser.add_argument("--seconds", type=float, default=None, help="measured driving, s")
    parser.add_argument("--transports", default="ws,grpc", help="ws, grpc or both")
    parser.add_argument("--sub-procs", type=int, default=4,
                        help="subscriber client processes for the delivery runs")
    parser.add_argument("--peer", default="bgio", help="bgio, colyseus or none")
    parser.add_argument("--peer-burst", type=int, default=20,
                        help="moves of the peer harness's burst (its figure is not used)")
    parser.add_argument("--warmup", type=float, default=120.0,
                        help="at most this long (s) for every subscriber to be live before "
                             "the measured driving")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1,
                        help="service processes on one address (RISK_WORKERS)")
    parser.add_argument("--cluster", type=int, default=0,
                        help="a Redis Cluster of this many masters (0: one redis-server)")
    parser.add_argument("--instances", type=int, default=1,
                        help="service instances, each on its own addresses")
    parser.add_argument("--settle", type=float, default=3.0, help="idle seconds before RSS")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-level", default="info", help="the service's RISK_LOG_LEVEL")
    args = parser.parse_args(argv)
    args.spectators = args.spectators or (1000 if args.quick else 10_000)
    args.seconds = args.seconds or (4.0 if args.quick else 10.0)
    args.transports = [t for t in args.transports.split(",") if t]
    if set(args.transports) - {"ws", "grpc"}:
        parser.error("--transports takes ws and/or grpc")
    args.peer = "" if args.peer == "none" else args.peer
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if args.peer:
        ensure_installed()
    say(f"spectators: {args.spectators:,} of one game at {args.rate:g} moves/s; transports "
        f"{', '.join(args.transports)}; peer {NAMES.get(args.peer, 'none')}; {args.rounds} "
        f"round(s); load averages {load_averages()}")
    rounds: dict[str, list[Figures]] = {}
    for r in range(args.rounds):
        say(f"\n==== round {r + 1} of {args.rounds}")
        if args.peer:
            rounds.setdefault("peer", []).append(asyncio.run(_peer(args)))
        for transport in args.transports:
            if one_stack(args):  # (the others change no process's RSS per stream)
                say(f"\n-- ours, idle spectators over {transport}: load {load_averages()}")
                rounds.setdefault(f"idle_{transport}", []).append(
                    {"bytes_per_idle_subscriber": ours_idle(args, transport)})
            say(f"\n-- ours, delivery over {transport}: load {load_averages()}")
            rounds.setdefault(f"delivery_{transport}", []).append(
                ours_delivery(args, transport))
    report(args, rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
