"""Redis with TLS and ACL users for tests: certificates made with openssl, redis-server started
with the options the deploy files give it.

`make_certificates` makes what deploy/make-secrets.sh makes for a deployment (a private CA, a
server certificate for the Redis hosts, a client certificate), here for 127.0.0.1 and
localhost. `SecureRedis` runs one redis-server with TLS only (no plaintext port) and the ACL
users of deploy/redis/users.acl, and waits until an authenticated TLS PING answers.
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


def _signed(directory: Path, name: str, ca: str, subject: str, extensions: str) -> None:
    """`name`.key and `name`.crt, signed by the CA `ca`(.crt/.key), with `extensions`."""
    (directory / f"{name}.ext").write_text(extensions)
    _openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", subject,
             cwd=directory)
    _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.crt", "-CAkey", f"{ca}.key",
             "-CAcreateserial", "-days", "2", "-out", f"{name}.crt", "-extfile", f"{name}.ext",
             cwd=directory)


def make_ca(directory: Path, name: str = "ca") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.crt", "-days", "2",
             "-subj", f"/CN=risk test {name}", cwd=directory)
    return directory / f"{name}.crt"


def make_certificates(directory: Path, hosts: Sequence[str] = ("localhost",),
                      ips: Sequence[str] = ("127.0.0.1",)) -> Certificates:
    """A CA, a server certificate naming `hosts` and `ips`, and a client certificate."""
    make_ca(directory)
    names = [f"DNS:{h}" for h in hosts] + [f"IP:{i}" for i in ips]
    _signed(directory, "redis", "ca", "/CN=redis",
            f"subjectAltName={','.join(names)}\nextendedKeyUsage=serverAuth,clientAuth\n")
    _signed(directory, "client", "ca", "/CN=risk-service",
            "extendedKeyUsage=clientAuth\n")
    return Certificates(directory / "ca.crt", directory / "redis.crt", directory / "redis.key",
                        directory / "client.crt", directory / "client.key")


def tls_args(certs: Certificates) -> list[str]:
    """redis-server options for TLS on every link (clients, replication, cluster bus), with
    client certificates required: what deploy/redis/redis-cluster.conf sets, with paths here."""
    return [
        "--tls-cert-file", str(certs.server_cert), "--tls-key-file", str(certs.server_key),
        "--tls-ca-cert-file", str(certs.ca), "--tls-auth-clients", "yes",
        "--tls-replication", "yes", "--tls-cluster", "yes",
    ]


@dataclass
class SecureRedis:
    """One redis-server on 127.0.0.1 with TLS only and an ACL file."""

    data_dir: Path
    certs: Certificates
    acl_file: Path
    admin: tuple[str, str]  # (user, password) able to PING, for the readiness probe
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
            binary, "--port", "0", "--tls-port", str(self.port), "--bind", "127.0.0.1",
            "--dir", str(self.data_dir), "--aclfile", str(self.acl_file), "--save", "",
            "--appendonly", "yes", "--appendfsync", "everysec",
            "--logfile", str(self.data_dir / "redis.log"),
            *tls_args(self.certs), *self.extra_args,
        ]

    def client(self, user: str, password: str, **kwargs: object) -> redis.Redis:
        return redis.Redis(
            host="127.0.0.1", port=self.port, username=user, password=password, ssl=True,
            ssl_ca_certs=str(self.certs.ca), ssl_certfile=str(self.certs.client_cert),
            ssl_keyfile=str(self.certs.client_key), socket_timeout=2, **kwargs,  # type: ignore[arg-type]
        )

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with (self.data_dir / "stdout.log").open("wb") as out:
            self.process = subprocess.Popen(self.command(), stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            assert self.process.poll() is None, self.logs()
            try:
                with self.client(*self.admin) as probe:
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
