"""Fixtures for the service on a real Redis Cluster: 3 masters with a replica each, started once
per test module on loopback (about 3 s), flushed before each test, stopped after the module."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
from redis.asyncio.cluster import RedisCluster

from risk_testing.cluster import LocalCluster
from risk_testing.harness import ServiceProcess
from risk_testing.redis_server import RedisServer

ClusterServiceFactory = Callable[..., ServiceProcess]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    topology = LocalCluster(tmp_path_factory.mktemp("redis-cluster"))
    topology.start()
    yield topology
    topology.stop()


@pytest.fixture
async def cluster_client(cluster: LocalCluster) -> AsyncIterator[RedisCluster]:
    """A cluster client on a cluster whose masters were all flushed just now."""
    cluster.wait_ready()
    client = RedisCluster.from_url(cluster.url)
    await client.flushall(target_nodes=RedisCluster.PRIMARIES)
    yield client
    await client.aclose()


@pytest.fixture
def make_cluster_service(cluster: LocalCluster, tmp_path: Path
                         ) -> Iterator[ClusterServiceFactory]:
    """Start service processes on the cluster (RISK_REDIS_CLUSTER=true, REDIS_URL naming one
    node: the first, or `seed`); stop them all after the test."""
    started: list[ServiceProcess] = []

    def make(seed: RedisServer | None = None, **env: str) -> ServiceProcess:
        url = cluster.url if seed is None else seed.url
        service = ServiceProcess(url, tmp_path, RISK_REDIS_CLUSTER="true",
                                 RISK_SWEEP_INTERVAL_MS="50", **env)
        service.start(timeout=30)
        started.append(service)
        return service

    yield make
    for service in started:
        service.stop()
