"""A real Redis Cluster on loopback for tests and benchmarks: N masters with R replicas each.

Each node is a `redis-server --cluster-enabled yes` child (risk_testing.redis_server) on a free
port with its own free cluster-bus port (`bus_port`: `--cluster-port`, so no port+10000
arithmetic; a port found taken at the first start is drawn again), joined by
`redis-cli --cluster create ... --cluster-replicas R --cluster-yes`. `cluster-node-timeout` is
short (1 s) so that a killed master's replica takes over within a few seconds, as a test of
failover needs; `cluster-require-full-coverage no` keeps the other shards serving meanwhile.
`repl-diskless-sync-delay 0`, as in deploy/redis/cluster.conf, copies a (re)joining replica at
once (Redis' default waits 5 s, which every cluster start and rejoin paid).
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import redis

from risk_service.redis_server import HOST
from risk_testing.redis_server import RedisServer

NODE_TIMEOUT_MS = 1000


class LocalCluster:
    def __init__(self, root: Path, *, masters: int = 3, replicas: int = 1,
                 appendfsync: str = "everysec") -> None:
        self.masters = masters
        self.replicas = replicas
        self.nodes = [
            RedisServer(root / f"node-{i}", appendfsync=appendfsync,  # type: ignore[arg-type]
                        bus_port=0,
                        extra_args=("--cluster-enabled", "yes",
                                    "--cluster-config-file", "nodes.conf",
                                    "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
                                    "--cluster-require-full-coverage", "no",
                                    "--cluster-allow-reads-when-down", "no",
                                    # as deploy/redis/cluster.conf: a replica is copied at
                                    # once, not after Redis' default 5 s wait for others
                                    "--repl-diskless-sync-delay", "0"))
            for i in range(masters * (1 + replicas))
        ]

    @property
    def url(self) -> str:
        """A URL naming one node (the service finds the others)."""
        return f"redis://{HOST}:{self.nodes[0].port}"

    def start(self, timeout: float = 60.0) -> None:
        for node in self.nodes:
            node.start()
        if len(self.nodes) == 1:  # redis-cli wants three masters; one shard is assigned here
            with self.client(self.nodes[0]) as one:
                one.execute_command("CLUSTER", "ADDSLOTSRANGE", 0, 16383)
        else:
            subprocess.run(
                ["redis-cli", "--cluster", "create",
                 *(f"{HOST}:{n.port}" for n in self.nodes),
                 "--cluster-replicas", str(self.replicas), "--cluster-yes"],
                check=True, capture_output=True, timeout=timeout)
        self.wait_ready(timeout)

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until every live node says the cluster is ok and each master has its replicas."""
        deadline = time.monotonic() + timeout
        while True:
            if self._ready():
                return
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis Cluster did not become ready")
            time.sleep(0.1)

    def _ready(self) -> bool:
        try:
            for node in self.nodes:
                if not node.is_running():
                    continue
                with self.client(node) as c:
                    info = c.execute_command("CLUSTER", "INFO")
                    text = info.decode() if isinstance(info, bytes) else str(info)
                    if "cluster_state:ok" not in text:
                        return False
            return len(self.live_masters()) == self.masters and all(
                self.replica_count(m) >= self.replicas for m in self.live_masters())
        except redis.RedisError:
            return False

    @staticmethod
    def client(node: RedisServer) -> redis.Redis:
        return redis.Redis(host=HOST, port=node.port, socket_timeout=2,
                           socket_connect_timeout=2)

    def role(self, node: RedisServer) -> str:
        with self.client(node) as c:
            return str(c.info("replication")["role"])

    def live_masters(self) -> list[RedisServer]:
        return [n for n in self.nodes if n.is_running() and self.role(n) == "master"]

    def replica_count(self, node: RedisServer) -> int:
        """Replicas in sync with `node` (state online: they acknowledge WAIT)."""
        with self.client(node) as c:
            info = c.info("replication")
        return sum(1 for k, v in info.items() if k.startswith("slave") and isinstance(v, dict)
                   and v.get("state") == "online")

    def master_of(self, key: str) -> RedisServer:
        with self.client(self.live_masters()[0]) as c:
            slot = int(c.execute_command("CLUSTER", "KEYSLOT", key))
        # CLUSTER SLOTS names the master of each range by address
        with self.client(self.live_masters()[0]) as c:
            for start, end, master, *_ in c.execute_command("CLUSTER", "SLOTS"):
                if int(start) <= slot <= int(end):
                    port = int(master[1])
                    return next(n for n in self.nodes if n.port == port)
        raise LookupError(f"no master serves slot {slot}")

    def replica_of(self, master: RedisServer) -> RedisServer:
        """One replica of `master` (by the port its INFO names)."""
        with self.client(master) as c:
            info = c.info("replication")
        ports = [int(v["port"]) for k, v in info.items()
                 if k.startswith("slave") and isinstance(v, dict)]
        return next(n for n in self.nodes if n.port in ports)

    def node_id(self, node: RedisServer) -> str:
        with self.client(node) as c:
            raw = c.execute_command("CLUSTER", "MYID")
        return raw.decode() if isinstance(raw, bytes) else str(raw)

    def begin_migration(self, slot: int, source: RedisServer, target: RedisServer) -> None:
        """Mark `slot` as moving from `source` to `target` (keys then move one by one)."""
        with self.client(target) as c:
            c.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", self.node_id(source))
        with self.client(source) as c:
            c.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", self.node_id(target))

    def migrate_keys(self, slot: int, source: RedisServer, target: RedisServer,
                     keys: list[str] | None = None) -> None:
        """Move `keys` (default: every key of the slot) from `source` to `target`."""
        with self.client(source) as c:
            if keys is None:
                keys = [k.decode() for k in
                        c.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 10_000)]
            if keys:
                c.execute_command("MIGRATE", HOST, target.port, "", 0, 5000, "KEYS", *keys)

    def finish_migration(self, slot: int, target: RedisServer) -> None:
        """Give `slot` to `target` on every master (the move is then complete)."""
        owner = self.node_id(target)
        for node in [target, *[m for m in self.live_masters() if m is not target]]:
            with self.client(node) as c:
                c.execute_command("CLUSTER", "SETSLOT", slot, "NODE", owner)

    def move_slot(self, slot: int, target: RedisServer) -> None:
        """The whole resharding of one slot, as `redis-cli --cluster reshard` does it."""
        source = next(m for m in self.live_masters() if self.serves(m, slot))
        self.begin_migration(slot, source, target)
        self.migrate_keys(slot, source, target)
        self.migrate_keys(slot, source, target)  # what was written during the first pass
        self.finish_migration(slot, target)

    def serves(self, node: RedisServer, slot: int) -> bool:
        with self.client(node) as c:
            for start, end, master, *_ in c.execute_command("CLUSTER", "SLOTS"):
                if int(start) <= slot <= int(end):
                    return int(master[1]) == node.port
        return False

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
