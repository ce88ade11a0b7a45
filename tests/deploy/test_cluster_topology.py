"""compose.cluster.yaml's Redis Cluster, for real: six redis-servers with TLS and ACL users
started from the deploy files (tests/deploy/cluster_harness.py), formed as its init job forms
them, then used as the service's `risk` user would use them.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import grpc
import pytest
import redis
import redis.asyncio
from grpc_health.v1 import health_pb2, health_pb2_grpc
from redis.asyncio.cluster import RedisCluster
from redis.backoff import NoBackoff
from redis.retry import Retry

from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_service.redis_access import RedisAccess
from risk_service.redis_server import free_port
from risk_service.server.app import SERVICE_NAME
from risk_service.settings import Settings
from risk_service.store.keys import Keys
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import error_info
from tests.deploy.cluster_harness import ANNOUNCE, LoopbackCluster, load_cluster_compose
from tests.deploy.manifests import (
    compose_env,
    containers,
    load_dockerfile,
    load_k8s,
    one,
    stage_env,
)
from tests.deploy.secure_redis import make_ca
from tests.service.rawbot import (
    Log,
    Relay,
    Stub,
    channel,
    open_table,
    play,
    quick_game,
    seqs,
)
from tests.service.streamcheck import assert_every_version_streamed

# moves played through each replica: a few dozen calls, inside the deployments' rate limits
MOVES_EACH = 12


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopbackCluster]:
    harness = LoopbackCluster(tmp_path_factory.mktemp("redis-cluster"))
    try:
        harness.start()
        yield harness
    finally:
        harness.stop()


def access_for(cluster: LoopbackCluster) -> RedisAccess:
    """The service's RedisAccess from compose's settings for the `risk` replicas."""
    env = cluster.service_env(compose_env(load_cluster_compose()["services"]["risk"]))
    settings = Settings.from_env(env)
    return RedisAccess.from_settings(settings, settings.redis_url)


@pytest.fixture
async def risk_client(cluster: LoopbackCluster) -> AsyncIterator[RedisCluster]:
    """redis-py's cluster client connected as the service connects: its URL and settings."""
    access = access_for(cluster)
    client = RedisCluster.from_url(access.url, **access.client_kwargs())
    yield client
    await client.aclose()


def test_cluster_has_three_masters_each_with_one_replica(cluster: LoopbackCluster) -> None:
    """The init job's `--cluster create` over compose's six nodes gives 3 masters + 3
    replicas, each master with exactly one, and all 16384 slots served."""
    topology = cluster.topology()
    assert len(topology) == 3, topology
    assert sorted(len(r) for r in topology.values()) == [1, 1, 1], topology
    with cluster.admin(cluster.nodes[0]) as client:
        info = client.cluster("INFO")
    assert info["cluster_state"] == "ok"
    assert int(info["cluster_slots_assigned"]) == 16384
    assert int(info["cluster_known_nodes"]) == 6


def test_nodes_speak_only_tls_to_known_users(cluster: LoopbackCluster) -> None:
    """No plaintext port, no anonymous user, no client without a certificate."""
    node = cluster.nodes[0]
    # one try each: redis-py's default retries would wait out the plaintext probe's 2 s
    # timeout four times
    once = Retry(NoBackoff(), 0)
    with pytest.raises(redis.ConnectionError):
        redis.Redis(host="127.0.0.1", port=node.port, socket_timeout=2, retry=once).ping()
    anonymous = redis.Redis(host="127.0.0.1", port=node.port, ssl=True, socket_timeout=2,
                            ssl_ca_certs=str(cluster.secrets["ca.crt"]),
                            ssl_certfile=str(cluster.secrets["client.crt"]),
                            ssl_keyfile=str(cluster.secrets["client.key"]), retry=once)
    with pytest.raises(redis.AuthenticationError):
        anonymous.ping()
    no_cert = redis.Redis(host="127.0.0.1", port=node.port, ssl=True, socket_timeout=2,
                          username="risk", password=cluster.risk_password,
                          ssl_ca_certs=str(cluster.secrets["ca.crt"]), retry=once)
    with pytest.raises(redis.ConnectionError):
        no_cert.ping()


async def test_service_user_reaches_every_shard_with_the_deploy_settings(
    cluster: LoopbackCluster, risk_client: RedisCluster
) -> None:
    """As `risk`, with the TLS settings compose gives the service: games' keys (each game on
    its own hash tag) land on all three masters, MOVED is followed by hostname under TLS, a
    write reaches its replica (WAIT, what RISK_DURABILITY=replica relies on), and keys
    outside the service's prefix are refused."""
    keys = Keys("risk")
    owners: set[str] = set()
    for n in range(30):
        game = f"game{n:03d}"
        await risk_client.hset(keys.game(game), mapping={"version": n})
        await risk_client.xadd(keys.events(game), {"e": b"x"})
        assert await risk_client.hget(keys.game(game), "version") == str(n).encode()
        node = risk_client.get_node_from_key(keys.game(game))
        assert node is not None
        owners.add(node.name)
        assert risk_client.keyslot(keys.game(game)) == risk_client.keyslot(keys.events(game))
    assert len(owners) == 3, owners
    # the slot map names nodes by their announced hostname (which the certificate carries),
    # not by address (redis-py then resolves `localhost` itself)
    with cluster.admin(cluster.nodes[0]) as admin:
        slots = admin.execute_command("CLUSTER", "SLOTS")
    assert {entry[2][0] for entry in slots} == {ANNOUNCE}, slots
    for primary in risk_client.get_primaries():
        acked = await risk_client.execute_command("WAIT", 1, 2000, target_nodes=primary)
        assert int(acked) == 1, f"{primary.name}: WAIT 1 answered {acked}"
    with pytest.raises(redis.exceptions.NoPermissionError):
        await risk_client.set("other:key", "1")


def k8s_service_env() -> dict[str, str]:
    docs = load_k8s()
    (container,) = containers(one(docs, "Deployment", "risk-service"))
    (name,) = [s["configMapRef"]["name"] for s in container["envFrom"] if "configMapRef" in s]
    data: dict[str, str] = one(docs, "ConfigMap", name).doc["data"]
    return data


def replica_env(cluster: LoopbackCluster, source: str, data_dir: Path) -> dict[str, str]:
    """What compose (or the Kubernetes ConfigMap) and the image give a service replica, with
    the files and URL pointed at this cluster; the listen and metrics ports are the test's."""
    settings = (compose_env(load_cluster_compose()["services"]["risk"]) if source == "compose"
                else k8s_service_env())
    final = load_dockerfile()[-1]
    image_env = {k: v for k, v in stage_env(final).items() if k != "PATH"}
    env = {**image_env, **cluster.service_env(settings), "RISK_METRICS_PORT": "0",
           "RISK_DATA_DIR": str(data_dir)}
    # ServiceProcess listens on a free port and passes REDIS_URL itself
    return {k: v for k, v in env.items() if k not in ("RISK_LISTEN", "REDIS_URL")}


async def watch(stub: Stub, game_id: str, seen: list[game_pb2.Event]) -> None:
    """A spectator: every event of the game's stream, as it comes, into `seen`."""
    async for message in stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id)):
        seen.append(message.event)


@pytest.mark.parametrize("source", ["compose", "k8s"])
async def test_service_replicas_connect_to_the_cluster_as_risk_over_tls(
    cluster: LoopbackCluster, source: str, tmp_path: Path
) -> None:
    """Two service processes with the settings compose (or the Kubernetes ConfigMap) gives
    the replicas (a Redis Cluster, RISK_DURABILITY=replica, TLS with a client certificate,
    user `risk`): both pass the start-up check of their credentials and certificates, become
    ready, and play a game together, its moves committed through one and then the other,
    while a spectator on each sees every event once, in order (the doorbell's pub/sub over
    TLS as `risk`). Only `risk` holds connections on the nodes, and both drain on SIGTERM.

    (A bounded number of moves: the deployments' per-address rate limits apply here too.)"""
    env = [replica_env(cluster, source, tmp_path / f"data{n}") for n in range(2)]
    url = cluster.service_env({})["REDIS_URL"]
    replicas = [ServiceProcess(url, tmp_path, **e) for e in env]
    channels: list[grpc.aio.Channel] = []
    watchers: list[asyncio.Task[None]] = []
    try:
        for replica in replicas:
            replica.start(timeout=60)  # readiness: the service's health follows Redis
            assert "redis_unreachable" not in replica.logs(), replica.logs()
        channels = [channel(r.target) for r in replicas]
        a, b = (Stub(ch) for ch in channels)
        table = await open_table(a, quick_game(seed=7))
        seen: tuple[list[game_pb2.Event], list[game_pb2.Event]] = ([], [])
        watchers = [asyncio.create_task(watch(stub, table.game_id, events))
                    for stub, events in zip((a, b), seen, strict=True)]
        log = Log(table.start_version)
        await play(a, table, log, moves=MOVES_EACH)
        await play(b, table, log, moves=MOVES_EACH)
        log.check_complete()
        assert len(log.moves) == 2 * MOVES_EACH
        final = (await b.GetGame(service_pb2.GetGameRequest(game_id=table.game_id))).game
        assert final.version == log.version
        for _ in range(200):
            if all(events and events[-1].seq == final.last_seq for events in seen):
                break
            await asyncio.sleep(0.05)
        for events in seen:
            assert seqs(events) == list(range(1, final.last_seq + 1)), "every event, in order"
            assert_every_version_streamed(events, final.version)
        users = []
        for node in cluster.running():
            with cluster.admin(node) as admin:
                # (the nodes' own replication links show as "(superuser)")
                users += [c["user"] for c in admin.client_list()
                          if c["user"] not in ("admin", "(superuser)")]
        assert users and set(users) == {"risk"}, users
    finally:
        for task in watchers:
            task.cancel()
        for ch in channels:
            await ch.close()
        codes = [replica.stop() for replica in replicas]
    assert codes == [0, 0], [replica.logs() for replica in replicas]


def refused_start(cluster: LoopbackCluster, tmp_path: Path, **overrides: str) -> str:
    """Start a replica with compose's settings and `overrides`: it must exit 2 by itself,
    with no traceback. Returns what it printed."""
    env = {**os.environ, **replica_env(cluster, "compose", tmp_path / "data"),
           "REDIS_URL": cluster.service_env({})["REDIS_URL"],
           "RISK_LISTEN": f"127.0.0.1:{free_port()}", **overrides}
    log = tmp_path / "replica.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "risk_service"], env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    output = log.read_text()
    assert code == 2, f"exit {code}:\n{output}"
    assert "Traceback" not in output, output
    return output


def test_a_refused_password_on_the_cluster_stops_the_start(
    cluster: LoopbackCluster, tmp_path: Path
) -> None:
    """A password the cluster refuses: the replica exits 2 with one line naming the settings
    (as on a single Redis), not a traceback and not a replica that never gets ready."""
    wrong = tmp_path / "wrong"
    wrong.write_text("not-the-password\n")
    output = refused_start(cluster, tmp_path, RISK_REDIS_PASSWORD_FILE=str(wrong))
    assert "refused the credentials" in output and "RISK_REDIS_PASSWORD" in output, output
    assert "not-the-password" not in output, "the password must not be printed"


def test_an_unknown_ca_on_the_cluster_stops_the_start(
    cluster: LoopbackCluster, tmp_path: Path
) -> None:
    """A CA that did not sign the nodes' certificates: exit 2 naming RISK_REDIS_TLS_CA_FILE."""
    other = make_ca(tmp_path / "other", "other-ca")
    output = refused_start(cluster, tmp_path, RISK_REDIS_TLS_CA_FILE=str(other))
    assert "certificate verify failed" in output.lower(), output
    assert "RISK_REDIS_TLS_CA_FILE" in output, output


async def health(target: str, service: str) -> bool:
    """Whether the replica at `target` reports `service` ("" liveness, SERVICE_NAME
    readiness) SERVING."""
    async with grpc.aio.insecure_channel(target) as ch:
        try:
            reply = await health_pb2_grpc.HealthStub(ch).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=1)
        except grpc.aio.AioRpcError:
            return False
    return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)


async def test_a_replica_started_before_the_cluster_answers_gets_ready_once_it_does(
    cluster: LoopbackCluster, tmp_path: Path
) -> None:
    """A pod may start before its Redis Cluster is formed: that is not a configuration
    mistake, so the replica runs (live, not ready, saying Redis is unreachable, answering
    calls UNAVAILABLE / STORE_UNAVAILABLE, no error logged over and over) and turns ready
    once the seed node answers."""
    seed = Relay(cluster.nodes[0].port)  # the seed node's port, served by nothing yet
    target = f"127.0.0.1:{free_port()}"
    env = {**os.environ, **replica_env(cluster, "compose", tmp_path / "data"),
           "REDIS_URL": f"rediss://{ANNOUNCE}:{seed.port}/0", "RISK_LISTEN": target}
    log = tmp_path / "replica.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "risk_service"], env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not (await health(target, "") and "redis_unreachable" in log.read_text()):
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, f"never served:\n{log.read_text()}"
            await asyncio.sleep(0.2)
        assert not await health(target, SERVICE_NAME), "ready without a Redis"
        async with grpc.aio.insecure_channel(target) as ch:
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await Stub(ch).ListGames(service_pb2.ListGamesRequest(page_size=5), timeout=20)
        # a call meanwhile is one to retry, not a fault of the service
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE, refused.value
        assert error_info(refused.value).reason == "STORE_UNAVAILABLE"
        await seed.start()
        deadline = time.monotonic() + 60
        while not await health(target, SERVICE_NAME):
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, f"never ready:\n{log.read_text()}"
            await asyncio.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(proc.wait, 20) == 0, log.read_text()
        output = log.read_text()
        assert "Traceback" not in output and '"level":"error"' not in output, output
    finally:
        await seed.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


async def test_a_killed_master_is_replaced_by_its_replica(
    cluster: LoopbackCluster, risk_client: RedisCluster
) -> None:
    """SIGKILL a master: with the node config's timeouts its replica takes over within
    seconds over the TLS bus, a write its replica had confirmed (WAIT) is still there, the
    service user's client follows the new slot map, and the old master rejoins as a replica.
    (Runs last: it changes which node is master.)"""
    keys = Keys("risk")
    key = keys.game("failover")
    await risk_client.hset(key, mapping={"version": 7})
    owner = risk_client.get_node_from_key(key)
    assert owner is not None
    assert int(await risk_client.execute_command("WAIT", 1, 2000, target_nodes=owner)) == 1
    victim = next(n for n in cluster.running() if n.port == owner.port)
    (victim_id,) = [m for m in cluster.topology() if cluster.node_of(m) is victim]
    (replica_id,) = cluster.topology()[victim_id]
    assert victim.process is not None
    victim.process.send_signal(signal.SIGKILL)
    victim.process.wait(10)
    started = time.monotonic()
    deadline = started + 30
    while replica_id not in cluster.topology():
        assert time.monotonic() < deadline, "the replica was not promoted"
        time.sleep(0.2)
    took = time.monotonic() - started
    assert await risk_client.hget(key, "version") == b"7"
    await risk_client.hset(key, mapping={"version": 8})  # writable on the new master
    assert took < 20, f"failover took {took:.1f}s"
    # the old master comes back (its nodes.conf on its volume) as the new master's replica
    with (victim.data_dir / "stdout.log").open("ab") as out:
        victim.process = subprocess.Popen(victim.argv, stdout=out, stderr=subprocess.STDOUT)
    cluster.wait_formed(timeout=60)
    assert sorted(len(r) for r in cluster.topology().values()) == [1, 1, 1]
    assert victim_id in cluster.topology()[replica_id]
