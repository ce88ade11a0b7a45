"""Redis Cluster: commits/s and Redis CPU per commit, connections per streamed game count,
cross-process delivery, and the cost of WAIT, each against a single-Redis baseline in the run.

    python bench/cluster.py [--seconds 5] [--games 1,1000,10000] [--only commits,streams,delivery]

1. commits: the store's commit (GameStore.commit, the Lua script every action ends in) from
   this process, `--concurrency` games each with one commit in flight, for `--seconds`:
   - baseline: one redis-server, the shared connection (store/pipe.py);
   - cluster of 1 master, and of 3 masters: the slot-routing shared connections
     (store/cluster_pipe.py), and on 3 masters also redis-py's RedisCluster for the same calls;
   - 3 masters with a replica each: RISK_DURABILITY=local, then replica (WAIT 1 after each
     commit, on the connection that wrote it).
   Printed: commits/s (ratio to the baseline), Redis CPU (user+sys of every master, from INFO
   cpu) per commit in microseconds, this client's CPU per commit, and commit latency p50/p99.
2. streams: one service process on the 3x1 cluster; for each count N, N games each with one
   spectator stream open: the service's descriptors and its TCP connections to the cluster's
   nodes, and the Redis CPU the idle polling of N games costs (per second, no events).
3. delivery: process A commits moves of `--delivery-games` games, process B serves
   `--subscribers` spectators on each; events delivered per second at B's subscribers and
   the events committed per second, on a single Redis (baseline) and on the cluster.
4. failover: commits to `--concurrency` games on 3 masters + 3 replicas; a master is
   SIGKILLed 2 s in, after its replica stopped reading for 2.5 s (and restarted 3 s later,
   rejoining as a replica): acknowledged commits
   missing from Redis afterwards, failed calls and the longest pause of a game, with
   RISK_DURABILITY=local and =replica.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import secrets
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
import redis
import redis.asyncio
from redis.asyncio.cluster import RedisCluster

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.service import Game, make_plan, new_game, percentile, say  # noqa: E402
from bench.streams import bounded, descriptors  # noqa: E402
from risk_proto.risk.v1 import service_pb2, service_pb2_grpc  # noqa: E402
from risk_service.store.cluster_pipe import ClusterPipe  # noqa: E402
from risk_service.store.game_store import GameRecord, GameStore  # noqa: E402
from risk_service.store.keys import Keys, stream_seq  # noqa: E402
from risk_service.store.pipe import RedisPipe  # noqa: E402
from risk_testing.cluster import LocalCluster  # noqa: E402
from risk_testing.harness import ServiceProcess  # noqa: E402
from risk_testing.redis_server import RedisServer  # noqa: E402
from risk_testing.rpc import create_request  # noqa: E402

SNAPSHOT = secrets.token_bytes(900)  # about a classic game's snapshot
EVENT = secrets.token_bytes(60)
REPLY = secrets.token_bytes(180)
ENTRY = secrets.token_bytes(70)
STOPPED_S = 2.5  # failover: how long the victim's replica stops reading before the kill


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--concurrency", type=int, default=64, help="commits in flight")
    parser.add_argument("--games", default="1,1000,10000", help="streamed game counts")
    parser.add_argument("--delivery-games", type=int, default=20)
    parser.add_argument("--subscribers", type=int, default=10, help="spectators per game")
    parser.add_argument("--only", default="commits,streams,delivery,failover")
    return parser.parse_args(argv)


def node_cpu(ports: list[int]) -> float:
    total = 0.0
    for port in ports:
        with redis.Redis(port=port) as client:
            info = client.info("cpu")
            total += float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
    return total


# ---- 1. commits ----------------------------------------------------------------------------


async def commit_rate(store: GameStore, ports: list[int], args: argparse.Namespace
                      ) -> dict[str, float]:
    games = [f"{int(time.time() * 1000):012x}{secrets.token_hex(5)}"
             for _ in range(args.concurrency)]
    for game_id in games:
        await store.create(GameRecord(game_id, "classic", 2, 0, 0, 0, 0, 3, SNAPSHOT, b"",
                                      ("",) * 3, (b"",) * 3, b"", "c0"), [EVENT])
    latencies: list[float] = []
    count = 0
    deadline = 0.0

    at = {g: (0, 1, "c0") for g in games}  # each game's version, last seq and commit id

    async def play(game_id: str) -> None:
        nonlocal count
        version, seq, cid = at[game_id]
        while time.monotonic() < deadline:
            new_cid = secrets.token_hex(8)
            t0 = time.perf_counter()
            result = await store.commit(
                game_id, expected_version=version, first_seq=seq + 1, snapshot=SNAPSHOT,
                status=2, now_ms=0, events=[EVENT], meta=b"", log_entry=ENTRY,
                request_field=f"0:r{version}", request_value=REPLY,
                expected_commit_id=cid, commit_id=new_cid)
            latencies.append(time.perf_counter() - t0)
            assert result.outcome.value == "ok", result
            version, seq, cid = version + 1, seq + 1, new_cid
            at[game_id] = (version, seq, cid)
            count += 1

    deadline = time.monotonic() + 0.5  # warm up: connections, scripts, slot maps
    await asyncio.gather(*(play(g) for g in games))
    count, latencies = 0, []
    cpu0, client0, t0 = node_cpu(ports), time.process_time(), time.monotonic()
    deadline = t0 + args.seconds
    await asyncio.gather(*(play(g) for g in games))
    elapsed = time.monotonic() - t0
    cpu, client = node_cpu(ports) - cpu0, time.process_time() - client0
    latencies.sort()
    return {"rate": count / elapsed, "redis_us": cpu / count * 1e6,
            "client_us": client / count * 1e6, "p50": percentile(latencies, 50) * 1e3,
            "p99": percentile(latencies, 99) * 1e3}


async def commits(args: argparse.Namespace, work: Path) -> None:
    say("\n## commits (GameStore.commit from this process; "
        f"{args.concurrency} in flight, {args.seconds:g} s each)")
    say("| setup | commits/s | ratio | Redis CPU/commit (us) | client CPU/commit (us) "
        "| p50 ms | p99 ms |")
    say("|---|---|---|---|---|---|---|")
    baseline = 0.0

    def line(name: str, r: dict[str, float]) -> None:
        nonlocal baseline
        baseline = baseline or r["rate"]
        say(f"| {name} | {r['rate']:,.0f} | {r['rate'] / baseline:.2f} | {r['redis_us']:.1f} "
            f"| {r['client_us']:.1f} | {r['p50']:.2f} | {r['p99']:.2f} |")

    single = RedisServer(work / "single", appendfsync="everysec")
    single.start()
    try:
        client = redis.asyncio.Redis.from_url(single.url)
        pipe = RedisPipe(single.url)
        line("single Redis, shared connection (baseline)",
             await commit_rate(GameStore(client, Keys(), pipe), [single.port], args))
        await pipe.close()
        await client.aclose()
    finally:
        single.stop()

    for masters, replicas in ((1, 0), (3, 0), (3, 1)):
        cluster = LocalCluster(work / f"c{masters}x{replicas}", masters=masters,
                               replicas=replicas)
        cluster.start()
        try:
            ports = [n.port for n in cluster.live_masters()]
            client = RedisCluster.from_url(cluster.url)
            keys = Keys(buckets=16)
            shape = f"{masters} master{'s' if masters > 1 else ''}" + (
                f" + {masters * replicas} replicas" if replicas else "")
            routes: list[tuple[str, ClusterPipe | None, int]] = [
                (f"cluster {shape}, ClusterPipe", ClusterPipe(cluster.url), 0)]
            if (masters, replicas) == (3, 0):
                routes.append((f"cluster {shape}, redis-py RedisCluster", None, 0))
            if replicas:
                routes = [(f"cluster {shape}, ClusterPipe, durability local",
                           ClusterPipe(cluster.url), 0),
                          (f"cluster {shape}, ClusterPipe, durability replica (WAIT 1)",
                           ClusterPipe(cluster.url), 1)]
            for name, hot, wait in routes:
                store = GameStore(client, keys, hot, wait_replicas=wait, wait_timeout_ms=1000)
                line(name, await commit_rate(store, ports, args))
                if hot is not None:
                    await hot.close()
            await client.aclose()
        finally:
            cluster.stop()


# ---- 2. streams: connections and descriptors by streamed game count ----------------------


def redis_sockets(pid: int, ports: set[int]) -> int:
    """TCP connections of process `pid` whose remote port is one of `ports`."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            next(f)
            for row in f:
                parts = row.split()
                remote_port = int(parts[2].rsplit(":", 1)[1], 16)
                if parts[9] in inodes and remote_port in ports:
                    found += 1
    return found


async def streamed(count: int, target: str, pid: int, ports: set[int], masters: list[int]
                   ) -> None:
    """Open `count` games' streams on the service at `target` and print its figures."""
    channels = [grpc.aio.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in range(max(1, count // 200 + 1))]
    stubs = [service_pb2_grpc.RiskServiceStub(c)  # type: ignore[no-untyped-call]
             for c in channels]
    created = await bounded([
        (lambda i=i: stubs[i % len(stubs)].CreateGame(
            create_request(seed=i, players=3), timeout=60)) for i in range(count)], 64)
    games = [c.game for c in created if not isinstance(c, BaseException)]
    failed: list[str] = []

    async def stream(i: int, game: Any) -> None:
        call = stubs[i // 200].StreamEvents(service_pb2.StreamEventsRequest(
            game_id=game.game_id, after_seq=game.last_seq))
        try:
            async for _ in call:
                pass
        except asyncio.CancelledError:
            call.cancel()
            raise
        except grpc.aio.AioRpcError as error:
            failed.append(error.code().name)

    tasks = []
    for i, game in enumerate(games):
        tasks.append(asyncio.create_task(stream(i, game)))
        if i % 200 == 199:
            await asyncio.sleep(0.05)
    await asyncio.sleep(3.0)
    cpu0 = node_cpu(masters)
    await asyncio.sleep(5.0)
    idle = (node_cpu(masters) - cpu0) / 5.0 * 1000
    say(f"| {count:,} | {descriptors(pid):,} | {redis_sockets(pid, ports):,} | "
        f"{idle:.1f} | {len(games) - len(failed):,} ({len(failed)}) |")
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for ch in channels:
        await ch.close()


async def streams(args: argparse.Namespace, work: Path) -> None:
    counts = [int(c) for c in args.games.split(",")]
    say("\n## streamed games on the cluster (3 masters + 3 replicas): one service process")
    say("| streamed games | descriptors | Redis connections | Redis CPU idle (ms/s, all "
        "masters) | streams open (failed) |")
    say("|---|---|---|---|---|")
    cluster = LocalCluster(work / "streams")
    cluster.start()
    service = ServiceProcess(cluster.url, work, RISK_REDIS_CLUSTER="true",
                             RISK_LOG_LEVEL="warning", RISK_MAX_STREAMED_GAMES="20000",
                             RISK_MAX_STREAMS_PER_CALLER="0")
    service.start(timeout=60)
    assert service.proc is not None
    pid = service.proc.pid
    ports = {n.port for n in cluster.nodes}
    masters = [n.port for n in cluster.live_masters()]
    try:
        for count in counts:
            await streamed(count, service.target, pid, ports, masters)
    finally:
        service.stop()
        cluster.stop()


# ---- 3. delivery across processes ----------------------------------------------------------


async def delivery_rate(url: str, work: Path, args: argparse.Namespace, **env: str
                        ) -> dict[str, float]:
    # every spectator comes from this one address: the per-caller stream bound is off
    env.setdefault("RISK_MAX_STREAMS_PER_CALLER", "0")
    a = ServiceProcess(url, work, RISK_LOG_LEVEL="warning", **env)
    b = ServiceProcess(url, work, RISK_LOG_LEVEL="warning", **env)
    a.start(timeout=60)
    b.start(timeout=60)
    try:
        ca, cb = grpc.aio.insecure_channel(a.target), grpc.aio.insecure_channel(b.target)
        sa = service_pb2_grpc.RiskServiceStub(ca)  # type: ignore[no-untyped-call]
        sb = service_pb2_grpc.RiskServiceStub(cb)  # type: ignore[no-untyped-call]
        games: list[Game] = []
        for i in range(args.delivery_games):
            game = await new_game(sa, 1000 + i, 3)
            game.plan = make_plan(create_request(seed=1000 + i, players=3).options, 1000 + i,
                                  400)
            games.append(game)
        received = 0
        stop = asyncio.Event()

        async def spectate(game: Game) -> None:
            nonlocal received
            call = sb.StreamEvents(service_pb2.StreamEventsRequest(
                game_id=game.game_id, after_seq=game.start_seq))
            try:
                async for _ in call:
                    received += 1
            except asyncio.CancelledError:
                call.cancel()
                raise

        watchers = [asyncio.create_task(spectate(g)) for g in games
                    for _ in range(args.subscribers)]
        await asyncio.sleep(2.0)
        deadline = time.monotonic() + args.seconds

        async def submit(game: Game) -> None:
            while time.monotonic() < deadline and game.step < len(game.plan):
                request, metadata = game.request()
                reply = await sa.SubmitAction(request, metadata=metadata, timeout=30)
                game.version = reply.version

        t0 = time.monotonic()
        await asyncio.gather(*(submit(g) for g in games))
        elapsed = time.monotonic() - t0
        await asyncio.sleep(1.0)  # the last events reach B's subscribers
        stop.set()
        committed = 0
        for g in games:
            committed += (await sa.GetGame(service_pb2.GetGameRequest(
                game_id=g.game_id))).game.last_seq - g.start_seq
        for w in watchers:
            w.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        await ca.close()
        await cb.close()
        return {"committed": committed / elapsed, "delivered": received / elapsed,
                "complete": received / max(1, committed * args.subscribers)}
    finally:
        a.stop()
        b.stop()


async def delivery(args: argparse.Namespace, work: Path) -> None:
    say(f"\n## delivery: moves committed through process A, {args.subscribers} spectators per "
        f"game on process B, {args.delivery_games} games, {args.seconds:g} s")
    say("| store | events committed/s | events delivered/s at B | ratio | delivered/expected |")
    say("|---|---|---|---|---|")
    single = RedisServer(work / "delivery-single", appendfsync="everysec")
    single.start()
    try:
        base = await delivery_rate(single.url, work, args)
    finally:
        single.stop()
    say(f"| single Redis (baseline) | {base['committed']:,.0f} | {base['delivered']:,.0f} | "
        f"1.00 | {base['complete']:.3f} |")
    cluster = LocalCluster(work / "delivery-cluster")
    cluster.start()
    try:
        got = await delivery_rate(cluster.url, work, args, RISK_REDIS_CLUSTER="true")
    finally:
        cluster.stop()
    say(f"| cluster 3 masters + 3 replicas | {got['committed']:,.0f} | {got['delivered']:,.0f} "
        f"| {got['delivered'] / base['delivered']:.2f} | {got['complete']:.3f} |")


# ---- 4. failover: what each durability setting loses --------------------------------------


async def failover_run(cluster: LocalCluster, wait: int, args: argparse.Namespace
                       ) -> dict[str, float]:
    """Commit continuously to `--concurrency` games; 2 s in, stop the replica of the master of
    the first game's slot for 2.5 s, then SIGKILL that master (restarted 3 s later: it
    rejoins as a replica). Then count the acknowledged
    commits whose event (seq, commit id) is not in Redis, and the longest pause of the
    killed shard's games."""
    client = RedisCluster.from_url(cluster.url)
    pipe = ClusterPipe(cluster.url)
    store = GameStore(client, Keys(buckets=16), pipe, wait_replicas=wait, wait_timeout_ms=1000)
    games = [f"{int(time.time() * 1000):012x}{secrets.token_hex(5)}"
             for _ in range(args.concurrency)]
    for game_id in games:
        await store.create(GameRecord(game_id, "classic", 2, 0, 0, 0, 0, 3, SNAPSHOT, b"",
                                      ("",) * 3, (b"",) * 3, b"", "c0"), [EVENT])
    victim = cluster.master_of(Keys().game(games[0]))
    on_victim = {g for g in games if cluster.master_of(Keys().game(g)) is victim}
    acked: dict[str, dict[int, str]] = {g: {} for g in games}  # seq -> commit id
    last_ok: dict[str, float] = {}
    pauses: list[float] = []
    errors = 0
    end = time.monotonic() + 2.0 + args.seconds + 6.0

    async def play(game_id: str) -> None:
        nonlocal errors
        version, seq, cid = 0, 1, "c0"
        while time.monotonic() < end:
            new_cid = secrets.token_hex(8)
            try:
                result = await store.commit(
                    game_id, expected_version=version, first_seq=seq + 1, snapshot=SNAPSHOT,
                    status=2, now_ms=0, events=[EVENT], meta=b"", log_entry=ENTRY,
                    request_field=f"0:{new_cid}", request_value=REPLY,
                    expected_commit_id=cid, commit_id=new_cid)
            except Exception:  # a lost connection, no replica's confirmation: try again
                errors += 1
                await asyncio.sleep(0.05)
                continue
            if result.outcome.value != "ok":  # the store lost commits: go on from what it has
                fields = await client.hmget(Keys().game(game_id), ["version", "seq", "cid"])
                version, seq, cid = int(fields[0]), int(fields[1]), (fields[2] or b"").decode()
                continue
            now = time.monotonic()
            if game_id in last_ok and now - last_ok[game_id] > 0.2:
                pauses.append(now - last_ok[game_id])
            last_ok[game_id] = now
            version, seq, cid = version + 1, seq + 1, new_cid
            acked[game_id][seq] = cid

    async def chaos() -> None:
        await asyncio.sleep(2.0)
        # the replica stops reading for 2.5 s first (SIGSTOP), as a replica lagging behind a
        # busy master or a slow network does: what the master acknowledges meanwhile and
        # still holds in its output buffer when it dies is on no replica
        replica = cluster.replica_of(victim)
        assert replica.pid is not None
        os.kill(replica.pid, signal.SIGSTOP)
        await asyncio.sleep(STOPPED_S)
        victim.kill()
        os.kill(replica.pid, signal.SIGCONT)
        await asyncio.sleep(3.0)
        await asyncio.to_thread(victim.start)

    await asyncio.gather(chaos(), *(play(g) for g in games))
    lost = 0
    for game_id in games:
        entries = await client.xrange(Keys().events(game_id))
        held = {stream_seq(entry_id): fields[b"c"].decode() for entry_id, fields in entries}
        lost += sum(1 for seq, cid in acked[game_id].items() if held.get(seq) != cid)
    await pipe.close()
    await client.aclose()
    await asyncio.to_thread(cluster.wait_ready)
    return {"acked": sum(len(a) for a in acked.values()), "lost": lost, "errors": errors,
            "pause": max(pauses, default=0.0), "games": len(on_victim)}


async def failover(args: argparse.Namespace, work: Path) -> None:
    say("\n## failover: a master SIGKILLed under load after its replica stopped reading for "
        f"2.5 s (3 masters + 3 replicas), {args.concurrency} games committing, restarted 3 s "
        "later as a replica")
    say("| durability | commits acknowledged | acknowledged but lost | failed calls "
        "| longest pause of a game (s) | games on the killed master |")
    say("|---|---|---|---|---|---|")
    for name, wait in (("local", 0), ("replica (WAIT 1)", 1)):
        cluster = LocalCluster(work / f"failover-{wait}")
        cluster.start()
        try:
            r = await failover_run(cluster, wait, args)
        finally:
            cluster.stop()
        say(f"| {name} | {r['acked']:,.0f} | {r['lost']:,.0f} | {r['errors']:,.0f} | "
            f"{r['pause']:.1f} | {r['games']:.0f} |")


async def run(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="risk-bench-cluster-"))
    parts: dict[str, Callable[[argparse.Namespace, Path], Awaitable[None]]] = {
        "commits": commits, "streams": streams, "delivery": delivery, "failover": failover}
    try:
        for name in args.only.split(","):
            await parts[name](args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    load = os.getloadavg()
    say(f"date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M:%S} UTC; cores: "
        f"{os.cpu_count()}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    asyncio.run(run(args))
    load = os.getloadavg()
    say(f"\nload average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
