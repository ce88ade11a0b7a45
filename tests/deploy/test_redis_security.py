"""The service on a Redis that requires TLS, a client certificate and an ACL user, for real.

One redis-server serves TLS only (no plaintext port) with the TLS directives of the deployed
node config, asks for client certificates and loads the users of deploy/redis/users.acl.template,
all from deploy/make-secrets.sh, run here as a deployment runs it. The service process gets the
settings the deploy files give it (RISK_REDIS_USERNAME, RISK_REDIS_PASSWORD_FILE,
RISK_REDIS_TLS_*) and plays; with a wrong password, a CA that did not sign Redis' certificate or
no client certificate it must refuse to start with one line naming the setting to fix, not a
traceback.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis.asyncio

from risk_service.redis_access import RedisAccess, _tls_alert
from risk_service.redis_server import free_port
from risk_service.settings import Settings
from risk_service.store.pipe import RedisPipe
from risk_testing.harness import ServiceProcess
from tests.deploy.secure_redis import Certificates, Secrets, SecureRedis, make_ca, make_secrets
from tests.service.rawbot import (
    Log,
    Stub,
    channel,
    open_table,
    play,
    quick_game,
    read_stream,
    seqs,
    stored,
)


@dataclass(frozen=True)
class Secured:
    redis: SecureRedis
    secrets: Secrets

    @property
    def certs(self) -> Certificates:
        return self.secrets.certs

    def service_env(self, **overrides: str) -> dict[str, str]:
        """The security settings deploy/ gives the service, with this test's paths."""
        return {
            "RISK_REDIS_USERNAME": "risk",
            "RISK_REDIS_PASSWORD_FILE": str(self.secrets.files["risk-password"]),
            "RISK_REDIS_TLS_CA_FILE": str(self.certs.ca),
            "RISK_REDIS_TLS_CERT_FILE": str(self.certs.client_cert),
            "RISK_REDIS_TLS_KEY_FILE": str(self.certs.client_key),
            **overrides,
        }


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Secured]:
    root = tmp_path_factory.mktemp("secure-redis")
    secrets = make_secrets(root / "secrets")
    server = SecureRedis(root / "redis", secrets)
    server.start()
    yield Secured(server, secrets)
    server.stop()


@pytest.fixture
async def admin(secured: Secured) -> AsyncIterator[redis.asyncio.Redis]:
    certs = secured.certs
    client = redis.asyncio.Redis(
        host="127.0.0.1", port=secured.redis.port, username="admin",
        password=secured.secrets.password("admin"), ssl=True, ssl_ca_certs=str(certs.ca),
        ssl_certfile=str(certs.client_cert), ssl_keyfile=str(certs.client_key),
    )
    await client.flushall()
    yield client
    await client.aclose()


def refused_start(secured: Secured, tmp_path: Path, url: str | None = None,
                  **env: str) -> str:
    """Start the service with `env`; it must exit 2 by itself. Returns what it printed."""
    done = subprocess.run(
        [sys.executable, "-m", "risk_service"],
        env={**os.environ, "RISK_LISTEN": f"127.0.0.1:{free_port()}",
             "REDIS_URL": url or secured.redis.url, "RISK_DATA_DIR": str(tmp_path),
             **secured.service_env(**env)},
        capture_output=True, text=True, timeout=60, check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 2, f"exit {done.returncode}:\n{output}"
    assert "Traceback" not in output, output
    return output


async def test_service_plays_over_tls_as_its_acl_user(
    secured: Secured, admin: redis.asyncio.Redis, tmp_path: Path
) -> None:
    """With the deploy settings the service serves a game over TLS as user `risk`: moves are
    committed, a spectator streams them, and Redis holds them under the service's prefix."""
    service = ServiceProcess(secured.redis.url, tmp_path, **secured.service_env())
    service.start(timeout=30)
    try:
        ch = channel(service.target)
        stub = Stub(ch)
        table = await open_table(stub, quick_game(seed=71, max_turns=4))
        log = Log(table.start_version)
        await play(stub, table, log, moves=6)
        held = await stored(admin, table.game_id)
        assert held.version == log.version
        events = await read_stream(stub, table.game_id, None, after_seq=0, upto=held.last_seq)
        assert seqs(events) == list(range(1, held.last_seq + 1))
        await ch.close()
        # every connection of the service is the `risk` user's (the only plaintext-free way
        # in is TLS: the server has no plaintext port), and it wrote only its own keys
        clients = await admin.client_list()
        users = {c["user"] for c in clients if c["name"] != "" or c["user"] != "admin"}
        assert users == {"risk"}, clients
        keys = [k.decode() async for k in admin.scan_iter(count=1000)]
        assert keys and all(k.startswith("risk:") for k in keys), keys
    finally:
        assert service.stop() == 0, service.logs()


def test_wrong_password_stops_the_start_with_a_clear_message(
    secured: Secured, tmp_path: Path
) -> None:
    """A password Redis refuses: exit 2 with one line naming the credentials settings."""
    wrong = tmp_path / "wrong"
    wrong.write_text("not-the-password\n")
    output = refused_start(secured, tmp_path, RISK_REDIS_PASSWORD_FILE=str(wrong))
    assert "refused the credentials" in output
    assert "RISK_REDIS_PASSWORD" in output
    assert "as user risk" in output
    assert "not-the-password" not in output, "the password must not be printed"


def test_unknown_ca_stops_the_start_with_a_clear_message(
    secured: Secured, tmp_path: Path
) -> None:
    """A CA that did not sign Redis' certificate: exit 2 naming RISK_REDIS_TLS_CA_FILE."""
    other = make_ca(tmp_path / "other", "other-ca")
    output = refused_start(secured, tmp_path, RISK_REDIS_TLS_CA_FILE=str(other))
    assert "TLS with Redis at rediss://127.0.0.1" in output
    assert "certificate verify failed" in output.lower()
    assert "RISK_REDIS_TLS_CA_FILE" in output


def test_missing_client_certificate_stops_the_start(secured: Secured, tmp_path: Path) -> None:
    """Redis requires a client certificate and none is given: exit 2, a clear reason."""
    output = refused_start(secured, tmp_path, RISK_REDIS_TLS_CERT_FILE="",
                           RISK_REDIS_TLS_KEY_FILE="")
    assert "TLS with Redis" in output or "closed the connection" in output, output
    assert "RISK_REDIS_TLS_CERT_FILE" in output


async def test_a_refused_client_certificate_is_told_from_an_outage(secured: Secured) -> None:
    """Under TLS 1.3 Redis refuses a client without a certificate after the handshake, so
    redis-py's first PING sometimes sees only "closed by the server before write", as in an
    outage, and the service waited for Redis for ever (1 start in 6 here). The check's probe
    listens after the handshake and reads the alert every time; with the certificate it
    hears nothing (it listens a second each time, hence two tries of that)."""
    for env, refused in (({"RISK_REDIS_TLS_CERT_FILE": "", "RISK_REDIS_TLS_KEY_FILE": ""}, True),
                         ({}, False)):
        settings = Settings.from_env({"REDIS_URL": secured.redis.url,
                                      **secured.service_env(**env)})
        access = RedisAccess.from_settings(settings, settings.redis_url)
        for _ in range(10 if refused else 2):
            alert = await _tls_alert(access, 5.0)
            if refused:
                assert alert is not None and "certificate required" in str(alert), alert
            else:
                assert alert is None, alert


def test_unreadable_ca_file_stops_the_start(secured: Secured, tmp_path: Path) -> None:
    """A CA path that is not a PEM bundle: exit 2 naming the setting, before any connection."""
    bad = tmp_path / "ca.pem"
    bad.write_text("not a certificate\n")
    output = refused_start(secured, tmp_path, RISK_REDIS_TLS_CA_FILE=str(bad))
    assert f"RISK_REDIS_TLS_CA_FILE={bad}" in output


def test_plain_url_to_a_tls_port_says_to_use_rediss(secured: Secured, tmp_path: Path) -> None:
    """redis:// to a TLS-only Redis: exit 2 saying to use rediss://."""
    output = refused_start(secured, tmp_path, url=f"redis://127.0.0.1:{secured.redis.port}/0",
                           RISK_REDIS_TLS_CA_FILE="", RISK_REDIS_TLS_CERT_FILE="",
                           RISK_REDIS_TLS_KEY_FILE="")
    assert "rediss://" in output


async def test_hot_path_pipe_runs_over_tls_as_the_acl_user(secured: Secured) -> None:
    """The commit path's shared connection (store/pipe.py) speaks TLS with the client
    certificate and authenticates as `risk`: what the service's commits go through."""
    settings = Settings.from_env({"REDIS_URL": secured.redis.url, **secured.service_env()})
    access = RedisAccess.from_settings(settings, settings.redis_url)
    pipe = RedisPipe(access.url, tls=access.tls, username=access.username,
                     password=access.password)
    try:
        info = (await pipe.call("CLIENT", "INFO")).decode()
        assert " user=risk " in f" {info} ", info
        assert await pipe.call("SET", "risk:pipe-check", "1") == b"OK"
        with pytest.raises(redis.exceptions.ResponseError, match="NOPERM"):
            await pipe.call("SET", "other:key", "1")  # the ACL keeps it to its prefix
    finally:
        await pipe.close()


def test_certificate_must_name_the_host_unless_told_otherwise(
    secured: Secured, tmp_path: Path
) -> None:
    """127.0.0.2 is not in Redis' certificate: the start is refused naming
    RISK_REDIS_TLS_CHECK_HOSTNAME; with it off the CA check alone lets the service serve."""
    url = f"rediss://127.0.0.2:{secured.redis.port}/0"
    output = refused_start(secured, tmp_path, url=url)
    assert "RISK_REDIS_TLS_CHECK_HOSTNAME" in output
    assert "127.0.0.2" in output
    service = ServiceProcess(url, tmp_path, **secured.service_env(
        RISK_REDIS_TLS_CHECK_HOSTNAME="false"))
    service.start(timeout=30)
    assert service.stop() == 0, service.logs()


@pytest.mark.parametrize(
    ("url", "env", "message"),
    [
        ("rediss://risk:pw@h:6379/0", {"RISK_REDIS_PASSWORD": "pw"},
         "password is given twice"),
        ("rediss://risk@h:6379/0", {"RISK_REDIS_USERNAME": "risk"}, "user is given twice"),
        ("redis://h:6379/0", {"RISK_REDIS_TLS_CA_FILE": "/ca.pem"}, "use rediss://"),
        ("rediss://h:6379/0", {"RISK_REDIS_TLS_CERT_FILE": "/c.pem"}, "go together"),
        ("rediss://h:6379/0", {"RISK_REDIS_PASSWORD": "a", "RISK_REDIS_PASSWORD_FILE": "/p"},
         "both set"),
        ("rediss://h:6379/0", {"RISK_REDIS_PASSWORD_FILE": "/nonexistent/p"},
         "RISK_REDIS_PASSWORD_FILE=/nonexistent/p"),
    ],
)
def test_contradictory_settings_are_refused_before_connecting(
    url: str, env: dict[str, str], message: str
) -> None:
    """Settings that cannot all hold are refused by name, before any connection is tried."""
    settings = Settings.from_env({"REDIS_URL": url, **env})
    with pytest.raises(RuntimeError, match=re.escape(message)):
        RedisAccess.from_settings(settings, url)
