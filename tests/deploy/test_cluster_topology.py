"""compose.cluster.yaml's Redis Cluster, for real: six redis-servers with TLS and ACL users
started from the deploy files (tests/deploy/cluster_harness.py), formed as its init job forms
them, then used as the service's `risk` user would use them.
"""

from __future__ import annotations

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

from risk_service.redis_access import RedisAccess
from risk_service.redis_server import free_port
from risk_service.settings import Settings
from risk_service.store.keys import Keys
from tests.deploy.cluster_harness import ANNOUNCE, LoopbackCluster, load_cluster_compose
from tests.deploy.manifests import (
    compose_env,
    containers,
    load_dockerfile,
    load_k8s,
    one,
    stage_env,
)


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
    with pytest.raises(redis.ConnectionError):
        redis.Redis(host="127.0.0.1", port=node.port, socket_timeout=2).ping()
    anonymous = redis.Redis(host="127.0.0.1", port=node.port, ssl=True, socket_timeout=2,
                            ssl_ca_certs=str(cluster.secrets["ca.crt"]),
                            ssl_certfile=str(cluster.secrets["client.crt"]),
                            ssl_keyfile=str(cluster.secrets["client.key"]))
    with pytest.raises(redis.AuthenticationError):
        anonymous.ping()
    no_cert = redis.Redis(host="127.0.0.1", port=node.port, ssl=True, socket_timeout=2,
                          username="risk", password=cluster.risk_password,
                          ssl_ca_certs=str(cluster.secrets["ca.crt"]))
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


def alive(target: str) -> bool:
    """The process's own health status ("", liveness) is SERVING."""
    with grpc.insecure_channel(target) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=""), timeout=1)
        except grpc.RpcError:
            return False
    return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)


@pytest.mark.parametrize("source", ["compose", "k8s"])
def test_service_replicas_connect_to_the_cluster_as_risk_over_tls(
    cluster: LoopbackCluster, source: str, tmp_path: Path
) -> None:
    """Two service processes with the settings compose (or the Kubernetes ConfigMap) gives
    the replicas, files and URL pointed at this cluster: both pass the start-up check of
    their credentials and certificates against a node (a refusal exits 2), serve, hold
    connections as `risk` on the cluster, and drain on SIGTERM (exit 0).

    Readiness and games on the cluster need RISK_REDIS_CLUSTER support (branch h-cluster);
    deploy/README.md, "After merging the cluster support", says what to add here."""
    settings = (compose_env(load_cluster_compose()["services"]["risk"]) if source == "compose"
                else k8s_service_env())
    final = load_dockerfile()[-1]
    image_env = {k: v for k, v in stage_env(final).items() if k != "PATH"}
    procs: list[tuple[subprocess.Popen[bytes], str, Path]] = []
    try:
        for replica in range(2):
            target = f"127.0.0.1:{free_port()}"
            env = {**os.environ, **image_env, **cluster.service_env(settings),
                   "RISK_LISTEN": target, "RISK_METRICS_PORT": "0",
                   "RISK_DATA_DIR": str(tmp_path / f"data{replica}")}
            log = tmp_path / f"replica{replica}.log"
            with log.open("wb") as out:
                proc = subprocess.Popen([sys.executable, "-m", "risk_service"], env=env,
                                        stdout=out, stderr=subprocess.STDOUT)
            procs.append((proc, target, log))
        for proc, target, log in procs:
            deadline = time.monotonic() + 30
            while not alive(target):
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, f"never served:\n{log.read_text()}"
                time.sleep(0.2)
            assert "redis_unreachable" not in log.read_text(), log.read_text()
        users = []
        for node in cluster.running():
            with cluster.admin(node) as admin:
                # (the nodes' own replication links show as "(superuser)")
                users += [c["user"] for c in admin.client_list()
                          if c["user"] not in ("admin", "(superuser)")]
        assert users and set(users) == {"risk"}, users
        for proc, _target, log in procs:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(20) == 0, log.read_text()
    finally:
        for proc, _target, _log in procs:
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
