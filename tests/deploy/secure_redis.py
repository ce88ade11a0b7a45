"""Redis with TLS and ACL users for tests, from the deploy files.

`make_secrets` runs deploy/make-secrets.sh (the CA, the Redis and client certificates, which
also name localhost and 127.0.0.1, the passwords and users.acl). `SecureRedis` runs one
redis-server with TLS only (no plaintext port), the TLS directives of deploy/redis/cluster.conf
and those users, and waits until an authenticated TLS PING answers.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import redis

from risk_service.redis_server import free_port
from tests.deploy.manifests import CLUSTER_CONF, MAKE_SECRETS, parse_redis_conf

START_TIMEOUT_S = 20.0


@dataclass(frozen=True)
class Certificates:
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path


def _openssl(*args: str, cwd: Path) -> None:
    done = subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == 0, f"openssl {' '.join(args)}:\n{done.stderr}"


def make_ca(directory: Path, name: str = "ca") -> Path:
    """A CA of its own (one that signed nothing the deployment uses)."""
    directory.mkdir(parents=True, exist_ok=True)
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.crt", "-days", "2",
             "-subj", f"/CN=risk test {name}", cwd=directory)
    return directory / f"{name}.crt"


@dataclass(frozen=True)
class Secrets:
    """What deploy/make-secrets.sh wrote, by file name."""

    files: dict[str, Path]

    @property
    def certs(self) -> Certificates:
        f = self.files
        return Certificates(f["ca.crt"], f["redis.crt"], f["redis.key"], f["client.crt"],
                            f["client.key"])

    def password(self, user: str) -> str:
        return self.files[f"{user}-password"].read_text().strip()


def make_secrets(out: Path) -> Secrets:
    """Run deploy/make-secrets.sh into `out`, as a deployment does."""
    done = subprocess.run(["bash", str(MAKE_SECRETS), str(out)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return Secrets({p.name: p for p in out.iterdir()})


def tls_args(secrets: Secrets) -> list[str]:
    """The TLS directives of deploy/redis/cluster.conf (all but the port) as redis-server
    options, each container path replaced by the file make-secrets.sh wrote for it."""
    args: list[str] = []
    for name, values in parse_redis_conf(CLUSTER_CONF.read_text()).items():
        if name.startswith("tls-") and name != "tls-port":
            local = [str(secrets.files[Path(v).name]) if v.startswith("/etc/") else v
                     for v in values]
            args += [f"--{name}", *local]
    return args


@dataclass
class SecureRedis:
    """One redis-server on 127.0.0.1 with TLS only and an ACL file."""

    data_dir: Path
    secrets: Secrets
    extra_args: Sequence[str] = ()
    port: int = 0
    process: subprocess.Popen[bytes] | None = None

    def __post_init__(self) -> None:
        self.port = self.port or free_port()

    @property
    def url(self) -> str:
        return f"rediss://127.0.0.1:{self.port}/0"

    def command(self) -> list[str]:
        binary = shutil.which("redis-server")
        assert binary is not None, "redis-server is required (scripts/setup installs it)"
        return [
            # 127.0.0.2 too: an address the certificate does not name
            binary, "--port", "0", "--tls-port", str(self.port), "--bind", "127.0.0.1",
            "127.0.0.2",
            "--dir", str(self.data_dir), "--aclfile", str(self.secrets.files["users.acl"]),
            "--save", "",
            "--appendonly", "yes", "--appendfsync", "everysec",
            "--logfile", str(self.data_dir / "redis.log"),
            *tls_args(self.secrets), *self.extra_args,
        ]

    def client(self, user: str) -> redis.Redis:
        certs = self.secrets.certs
        return redis.Redis(
            host="127.0.0.1", port=self.port, username=user,
            password=self.secrets.password(user), ssl=True, ssl_ca_certs=str(certs.ca),
            ssl_certfile=str(certs.client_cert), ssl_keyfile=str(certs.client_key),
            socket_timeout=2,
        )

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with (self.data_dir / "stdout.log").open("wb") as out:
            self.process = subprocess.Popen(self.command(), stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            assert self.process.poll() is None, self.logs()
            try:
                with self.client("admin") as probe:
                    probe.ping()
                return
            except redis.RedisError:
                assert time.monotonic() < deadline, f"TLS redis did not start:\n{self.logs()}"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)

    def logs(self) -> str:
        parts = [p.read_text(errors="replace") for p in
                 (self.data_dir / "stdout.log", self.data_dir / "redis.log") if p.exists()]
        return "\n".join(parts)[-4000:]
