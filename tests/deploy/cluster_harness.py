"""The Redis Cluster of deploy/compose.cluster.yaml, run with real processes on loopback.

Everything is read from the deploy files, not restated here: the node services and their
redis-server options (compose), the node configuration (deploy/redis/cluster.conf, mounted by
compose), the secrets (made by deploy/make-secrets.sh, as a deployment makes them, mounted
where compose mounts them) and the init job's redis-cli options and `--cluster-replicas`.
Only what a loopback run must change is changed: each container path becomes the local file
compose would mount there, ports become free loopback ports (with the cluster bus on a free
port of its own), and each node announces `localhost` (which the certificate names) instead
of its compose hostname.

`LoopbackCluster.start()` starts the nodes, forms the cluster as the init job does and waits
until every node reports it OK with each master's replica in sync. Other tests (the cluster
support's) can reuse it for a TLS + ACL cluster: `service_env()` gives a service replica the
settings compose gives it, pointed at this cluster.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
import yaml

from risk_service.redis_server import PORT_ATTEMPTS, PORT_TAKEN_LOG, free_port
from tests.deploy.manifests import CLUSTER_COMPOSE, DEPLOY, compose_env
from tests.deploy.secure_redis import make_secrets

START_TIMEOUT_S = 30.0
ANNOUNCE = "localhost"  # a name the certificate carries (deploy/make-secrets.sh)


def load_cluster_compose() -> dict[str, Any]:
    doc = yaml.safe_load(CLUSTER_COMPOSE.read_text())
    assert isinstance(doc, dict)
    return doc


def shell_script(service: dict[str, Any]) -> str:
    """The script of a service whose entrypoint is `sh -c` and command is that script."""
    assert service.get("entrypoint") == ["sh", "-c"], service.get("entrypoint")
    command = service["command"]
    (script,) = command if isinstance(command, list) else [command]
    return str(script).replace("$$", "$")  # compose's escape for a literal $


def node_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The Redis nodes: services running redis-server with the cluster config."""
    return {name: svc for name, svc in compose["services"].items()
            if "redis-server" in str(svc.get("command", ""))}


def node_argv(service: dict[str, Any]) -> list[str]:
    """redis-server's argv in a node's script (`exec redis-server CONF --opt value ...`), with
    the config path and `$(cat FILE)` kept as written."""
    script = shell_script(service)
    line = script.strip()
    assert line.startswith("exec redis-server "), line
    # shlex would split "$(cat f)"; keep each quoted word whole
    words = shlex.split(line.removeprefix("exec "), posix=True)
    env = {k: v for k, v in compose_env(service).items()}
    return [env.get(w[1:], w) if w.startswith("$") and w[1:] in env else w for w in words]


def mounted_files(service: dict[str, Any], compose: dict[str, Any]) -> dict[str, Path]:
    """Container path -> file on the host, for a service's `configs:` and `secrets:`."""
    out: dict[str, Path] = {}
    for kind in ("configs", "secrets"):
        for entry in service.get(kind, []):
            source = compose[kind][entry["source"]]["file"]
            out[entry["target"]] = (CLUSTER_COMPOSE.parent / source).resolve()
    return out


def init_cli(compose: dict[str, Any]) -> tuple[list[str], int]:
    """The init job's redis-cli options (from its `cli="..."` line) and `--cluster-replicas`."""
    script = shell_script(compose["services"]["redis-cluster-init"])
    (cli,) = re.findall(r'^\s*cli="([^"]+)"', script, flags=re.M)
    (replicas,) = re.findall(r"--cluster-replicas (\d+)", script)
    assert "--cluster create" in script and "--cluster-yes" in script
    words = shlex.split(cli)
    assert words[0] == "redis-cli", words
    return words[1:], int(replicas)


@dataclass
class Node:
    name: str  # the compose service
    port: int
    bus_port: int
    data_dir: Path
    compose_argv: list[str]  # the compose service's command, before _argv localises it
    argv: list[str] = field(default_factory=list)  # what the node was last started with
    process: subprocess.Popen[bytes] | None = None

    def logs(self) -> str:
        path = self.data_dir / "redis.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""


def _cluster_nodes(client: redis.Redis) -> list[tuple[str, list[str], str]]:
    """(id, flags, its master's id or "-") of every node a node's CLUSTER NODES names but those
    it flags as failed."""
    named = []
    for line in str(client.execute_command("CLUSTER", "NODES")).splitlines():
        node_id, _addr, flags, master, *_ = line.split()
        if "fail" not in flags.split(","):
            named.append((node_id, flags.split(","), master))
    return named


@dataclass
class LoopbackCluster:
    root: Path
    compose: dict[str, Any] = field(default_factory=load_cluster_compose)
    nodes: list[Node] = field(default_factory=list)
    secrets: dict[str, Path] = field(default_factory=dict)
    # container path -> local file, as compose mounts it into the nodes
    mounts: dict[str, Path] = field(default_factory=dict)

    @property
    def admin_password(self) -> str:
        return self.secrets["admin-password"].read_text().strip()

    @property
    def risk_password(self) -> str:
        return self.secrets["risk-password"].read_text().strip()

    def local(self, container_path: str) -> str:
        """The local file compose mounts at `container_path` (unchanged if none is)."""
        return str(self.mounts.get(container_path, container_path))

    def _secret_file(self, host_file: Path) -> Path:
        # compose's `file: ./secrets/x` is deploy/secrets/x: here it is make-secrets' x
        if host_file.parent == (DEPLOY / "secrets").resolve():
            return self.secrets[host_file.name]
        return host_file

    def _node_conf(self, node: Node, conf_path: str) -> Path:
        """The node config compose mounts, with container paths and addresses made local."""
        lines = []
        for raw in Path(self.local(conf_path)).read_text().splitlines():
            words = raw.split()
            key = words[0].lower() if words else "#"
            local = {
                "dir": f"dir {node.data_dir}",
                "cluster-config-file": f"cluster-config-file {node.data_dir / 'nodes.conf'}",
                "tls-port": f"tls-port {node.port}",
                "bind": "bind 127.0.0.1",
            }
            if key.startswith("#"):
                lines.append(raw)
            else:
                lines.append(local.get(key) or
                             " ".join([words[0], *(self.local(w) for w in words[1:])]))
        lines += [f"cluster-port {node.bus_port}", f"logfile {node.data_dir / 'redis.log'}"]
        path = node.data_dir / "redis.conf"
        path.write_text("\n".join(lines) + "\n")
        return path

    def _argv(self, node: Node, words: list[str]) -> list[str]:
        binary = shutil.which("redis-server")
        assert binary is not None, "redis-server is required (scripts/setup installs it)"
        assert words[0] == "redis-server"
        argv = [binary, str(self._node_conf(node, words[1]))]
        options = words[2:]
        for i, word in enumerate(options):
            previous = options[i - 1] if i else ""
            if previous == "--cluster-announce-hostname":
                argv.append(ANNOUNCE)
            elif (m := re.fullmatch(r"\$\(cat (\S+)\)", word)) is not None:
                argv.append(Path(self.local(m.group(1))).read_text().strip())
            else:
                argv.append(word)
        return argv

    def start(self) -> None:
        self.secrets = make_secrets(self.root / "secrets").files
        services = node_services(self.compose)
        for name, service in services.items():
            self.mounts.update({target: self._secret_file(path) for target, path
                                in mounted_files(service, self.compose).items()})
            node = Node(name, free_port(), free_port(), self.root / name, node_argv(service))
            node.data_dir.mkdir(parents=True)
            self.nodes.append(node)
        for node in self.nodes:
            self._spawn(node)
        for node in self.nodes:
            attempt = 1
            while not self._wait_ping(node):  # a port taken since free_port(): draw again
                assert attempt < PORT_ATTEMPTS, f"{node.name}: its ports stayed taken"
                attempt += 1
                node.port, node.bus_port = free_port(), free_port()
                (node.data_dir / "redis.log").unlink()
                self._spawn(node)
        self.create()

    def _spawn(self, node: Node) -> None:
        node.argv = self._argv(node, node.compose_argv)
        with (node.data_dir / "stdout.log").open("wb") as out:
            node.process = subprocess.Popen(node.argv, stdout=out, stderr=subprocess.STDOUT)

    def admin(self, node: Node, **kwargs: Any) -> redis.Redis:
        return redis.Redis(
            host="127.0.0.1", port=node.port, username="admin", password=self.admin_password,
            ssl=True, ssl_ca_certs=str(self.secrets["ca.crt"]),
            ssl_certfile=str(self.secrets["redis.crt"]), ssl_keyfile=str(self.secrets["redis.key"]),
            socket_timeout=3, decode_responses=True, **kwargs,
        )

    def _wait_ping(self, node: Node) -> bool:
        """True once `node` answers; False if it exited because a port was taken."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            assert node.process is not None
            if node.process.poll() is not None:
                assert PORT_TAKEN_LOG in node.logs(), node.logs()
                return False
            try:
                with self.admin(node) as client:
                    client.ping()
                return True
            except redis.RedisError:
                assert time.monotonic() < deadline, f"{node.name} did not start:\n{node.logs()}"
                time.sleep(0.1)

    def cli(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """redis-cli with the init job's options (paths made local), as admin."""
        options, _ = init_cli(self.compose)
        binary = shutil.which("redis-cli")
        assert binary is not None
        return subprocess.run(
            [binary, *(self.local(o) for o in options), *args],
            env={**os.environ, "REDISCLI_AUTH": self.admin_password},
            capture_output=True, text=True, timeout=timeout, check=False,
        )

    def create(self) -> None:
        """What the init job does: `--cluster create` over the nodes in compose's order."""
        _, replicas = init_cli(self.compose)
        done = self.cli("--cluster", "create", *(f"127.0.0.1:{n.port}" for n in self.nodes),
                        "--cluster-replicas", str(replicas), "--cluster-yes")
        assert done.returncode == 0, done.stdout + done.stderr
        self.wait_formed()

    def wait_formed(self, timeout: float = START_TIMEOUT_S) -> None:
        """Every node says cluster_state:ok, every replica's link to its master is up, and
        every node's CLUSTER NODES names as masters the nodes that say they are masters (a
        role change reaches the others by gossip, after the replica's link is up)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if self._settled():
                    return
            except redis.RedisError:
                pass
            assert time.monotonic() < deadline, "the cluster did not settle:\n" + "\n".join(
                f"{n.name}: {n.logs()[-800:]}" for n in self.nodes)
            time.sleep(0.2)

    def _settled(self) -> bool:
        masters: set[str] = set()  # the nodes that say they are masters
        views: list[set[str]] = []  # the live masters each node's CLUSTER NODES names
        for node in self.running():
            with self.admin(node) as client:
                if client.cluster("INFO")["cluster_state"] != "ok":
                    return False
                info = client.info("replication")
                if info["role"] == "master":
                    masters.add(client.execute_command("CLUSTER", "MYID"))
                elif info.get("master_link_status") != "up":
                    return False
                views.append({node_id for node_id, flags, _ in _cluster_nodes(client)
                              if "master" in flags})
        return all(view == masters for view in views)

    def running(self) -> list[Node]:
        return [n for n in self.nodes if n.process is not None and n.process.poll() is None]

    def topology(self) -> dict[str, list[str]]:
        """master node id -> its replicas' ids, as the first running node sees the cluster."""
        with self.admin(self.running()[0]) as client:
            named = _cluster_nodes(client)
        masters: dict[str, list[str]] = {}
        replicas: list[tuple[str, str]] = []
        for node_id, flags, master in named:
            if "master" in flags:
                masters.setdefault(node_id, [])
            else:
                replicas.append((node_id, master))
        for node_id, master in replicas:
            masters.setdefault(master, []).append(node_id)
        return masters

    def node_of(self, node_id: str) -> Node:
        for node in self.running():
            with self.admin(node) as client:
                if client.execute_command("CLUSTER", "MYID") == node_id:
                    return node
        raise AssertionError(f"no running node has id {node_id}")

    def service_env(self, source: dict[str, str]) -> dict[str, str]:
        """A service replica's settings from `source` (compose's or the ConfigMap's), with the
        files it names made local and REDIS_URL pointing at the first node."""
        mounts = {
            "ca.crt": self.secrets["ca.crt"], "client.crt": self.secrets["client.crt"],
            "client.key": self.secrets["client.key"],
            "risk-password": self.secrets["risk-password"],
        }
        env = {
            key: str(mounts[Path(value).name])
            if value.startswith("/etc/") and Path(value).name in mounts else value
            for key, value in source.items()
        }
        env["REDIS_URL"] = f"rediss://{ANNOUNCE}:{self.nodes[0].port}/0"
        return env

    def stop(self) -> None:
        for node in self.nodes:
            if node.process is not None and node.process.poll() is None:
                node.process.terminate()
        for node in self.nodes:
            if node.process is not None:
                try:
                    node.process.wait(10)
                except subprocess.TimeoutExpired:
                    node.process.kill()
                    node.process.wait(5)
