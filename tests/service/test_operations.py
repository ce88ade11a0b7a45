"""Operations against real processes: Prometheus metrics over HTTP, health, TLS and mutual TLS."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
import redis.asyncio
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client.openmetrics.parser import (
    text_string_to_metric_families as openmetrics_families,
)
from prometheus_client.parser import text_string_to_metric_families

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_service.redis_server import free_port
from risk_testing.harness import ServiceFactory, ServiceProcess, running
from risk_testing.rpc import bearer, create_request, error_info, rpc_error
from tests.conftest import RedisServerFactory

Stub = service_pb2_grpc.RiskServiceStub
RPC = "/risk.v1.RiskService/"
SERVICE_NAME = "risk.v1.RiskService"
ORGANISER_TOKEN = "organiser-secret-token"
WAIT_S = 15.0

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


# ---- helpers -------------------------------------------------------------------------------


def _get(url: str) -> tuple[int, str, str]:
    """(status, content type, body) of a GET, error statuses included."""
    try:
        with urllib.request.urlopen(url, timeout=5) as reply:
            return reply.status, reply.headers["Content-Type"], reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


class Scraper:
    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"

    async def get(self, path: str) -> tuple[int, str, str]:
        return await asyncio.to_thread(_get, self.base + path)

    async def samples(self) -> Samples:
        status, _type, text = await self.get("/metrics")
        assert status == 200
        return {
            (s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples
        }

    async def value(self, name: str, **labels: str) -> float:
        return (await self.samples()).get((name, frozenset(labels.items())), 0.0)

    async def until(self, name: str, check: Callable[[float], bool], **labels: str) -> float:
        """Poll the metric until `check` accepts its value; returns that value."""
        deadline = time.monotonic() + WAIT_S
        while True:
            value = await self.value(name, **labels)
            if check(value):
                return value
            assert time.monotonic() < deadline, f"{name}{labels} stayed at {value}"
            await asyncio.sleep(0.05)


async def _eventually(probe: Callable[[], Awaitable[bool]], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not await probe():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


def _seated(seed: int) -> service_pb2.CreateGameRequest:
    """A 3-player game whose seats are all taken at creation, so it starts at once."""
    return service_pb2.CreateGameRequest(options=create_request(players=3).options, seed=seed,
                                         issue_seat_tokens=True)


def _events(service: ServiceProcess) -> list[dict[str, object]]:
    return [json.loads(line) for line in service.logs().splitlines() if line.startswith("{")]


@dataclass
class Observed:
    service: ServiceProcess
    scraper: Scraper


@pytest.fixture(scope="module")
def observed(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Observed]:
    """One service for the module's metrics tests that count only what they did themselves
    (differences, or a gauge back where it was): metrics on a free port and a fast health
    loop, its keys under a prefix of its own. (tests.serving.module_service's, but with the
    metrics port drawn as the module starts, not when the file is imported.)"""
    port = free_port()
    with running(ServiceProcess(redis_url, tmp_path_factory.mktemp("service-operations"),
                                RISK_KEY_PREFIX="service-operations",
                                RISK_METRICS_PORT=str(port),
                                RISK_HEALTH_INTERVAL_S="0.1")) as (service,):
        yield Observed(service, Scraper(port))


@pytest.fixture
async def stub(observed: Observed) -> AsyncIterator[Stub]:
    async with grpc.aio.insecure_channel(observed.service.target) as channel:
        yield Stub(channel)


@pytest.fixture
async def fresh(
    make_service: ServiceFactory, redis_client: redis.asyncio.Redis
) -> Observed:
    """A service of the test's own, as `observed` but started for it, on a flushed Redis: for
    a test of what the process logged at its start, or of a gauge over all the store's games."""
    port = free_port()
    service = make_service(RISK_METRICS_PORT=str(port), RISK_HEALTH_INTERVAL_S="0.1")
    return Observed(service, Scraper(port))


@pytest.fixture
async def fresh_stub(fresh: Observed) -> AsyncIterator[Stub]:
    async with grpc.aio.insecure_channel(fresh.service.target) as channel:
        yield Stub(channel)


# ---- metrics -------------------------------------------------------------------------------


async def test_rpcs_are_counted_by_method_and_code(observed: Observed, stub: Stub) -> None:
    """CreateGame OK and a NOT_FOUND GetGame raise their counters and latency counts."""
    scraper = observed.scraper
    created = f"{RPC}CreateGame"
    before = await scraper.samples()
    await stub.CreateGame(create_request(seed=1))
    await stub.CreateGame(create_request(seed=2))
    error = await rpc_error(stub.GetGame(service_pb2.GetGameRequest(game_id="0" * 22)))
    assert error.code() == grpc.StatusCode.NOT_FOUND
    after = await scraper.samples()

    def delta(name: str, **labels: str) -> float:
        key = (name, frozenset(labels.items()))
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert delta("risk_rpcs_total", method=created, code="OK") == 2
    assert delta("risk_rpcs_total", method=f"{RPC}GetGame", code="NOT_FOUND") == 1
    assert delta("risk_rpcs_total", method=f"{RPC}GetGame", code="OK") == 0
    assert delta("risk_rpc_seconds_count", method=created) == 2
    assert delta("risk_rpc_seconds_bucket", method=created, le="+Inf") == 2
    assert ("risk_redis_errors_total", frozenset({("source", "rpc")})) in after


async def test_http_endpoint_serves_metrics_and_probes(fresh: Observed) -> None:
    """/metrics is Prometheus text; /livez and /readyz say 200; other paths 404."""
    scraper = fresh.scraper
    status, content_type, text = await scraper.get("/metrics")
    assert status == 200 and content_type.startswith("text/plain")
    for name in ("risk_active_games", "risk_subscribers", "risk_commit_conflicts_total"):
        assert f"\n{name} " in text
    assert (await scraper.get("/livez"))[0] == 200
    assert (await scraper.get("/readyz"))[0] == 200
    assert (await scraper.get("/nope"))[0] == 404
    (logged,) = [e for e in _events(fresh.service) if e["event"] == "metrics"]
    assert logged["address"] == f"{scraper.base}/metrics"


def _fetch(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, raw body) of a GET sent with `headers`."""
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5) as reply:
        return reply.status, dict(reply.headers.items()), reply.read()


async def test_metrics_negotiate_openmetrics_and_gzip(observed: Observed, stub: Stub) -> None:
    """A scraper asking for OpenMetrics or gzip gets it, with the counter a call raised."""
    url = f"{observed.scraper.base}/metrics"
    before = await observed.scraper.value("risk_rpcs_total", method=f"{RPC}CreateGame",
                                          code="OK")
    await stub.CreateGame(create_request(seed=3))
    status, headers, body = await asyncio.to_thread(
        _fetch, url, Accept="application/openmetrics-text; version=1.0.0")
    assert status == 200 and headers["Content-Type"].startswith("application/openmetrics-text")
    samples = {(s.name, frozenset(s.labels.items())): s.value
               for family in openmetrics_families(body.decode()) for s in family.samples}
    created = ("risk_rpcs_total", frozenset({("method", f"{RPC}CreateGame"), ("code", "OK")}))
    assert samples[created] == before + 1
    status, headers, body = await asyncio.to_thread(_fetch, url, **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert headers["Content-Type"].startswith("text/plain")
    families = {f.name for f in text_string_to_metric_families(gzip.decompress(body).decode())}
    assert {"risk_rpcs", "risk_subscribers", "risk_active_games"} <= families


async def test_subscribers_gauge_follows_open_streams(observed: Observed, stub: Stub) -> None:
    """risk_subscribers counts an open StreamEvents and drops back when it is cancelled."""
    scraper = observed.scraper
    assert await scraper.value("risk_subscribers") == 0
    game_id = (await stub.CreateGame(create_request(seed=3))).game.game_id
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id))
    await call.read()  # the first backlog event: the subscription is registered by now
    assert await scraper.value("risk_subscribers") == 1
    call.cancel()
    await scraper.until("risk_subscribers", lambda v: v == 0)


async def test_active_games_gauge_counts_started_games(fresh: Observed,
                                                       fresh_stub: Stub) -> None:
    """A started game shows in risk_active_games; a waiting one does not."""
    scraper = fresh.scraper
    await scraper.until("risk_active_games", lambda v: v == 0)
    await fresh_stub.CreateGame(create_request(seed=4))  # waits for players
    started = await fresh_stub.CreateGame(_seated(seed=5))
    assert started.game.status == service_pb2.GAME_STATUS_ACTIVE
    assert await scraper.until("risk_active_games", lambda v: v >= 1) == 1


async def test_lost_version_races_are_counted(observed: Observed, stub: Stub) -> None:
    """Concurrent SubmitActions at one version: one commits, the losers count as conflicts
    (found stale by the process or by the commit's version check alike)."""
    scraper = observed.scraper
    created = await stub.CreateGame(_seated(seed=6))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    before = await scraper.value("risk_commit_conflicts_total")
    for _round in range(20):
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        seat = game.decision.seats[0]
        legal = await stub.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=bearer(tokens[seat]))
        assert legal.actions, "the deciding seat has legal actions"
        attempts = [legal.actions[i % len(legal.actions)].action for i in range(8)]
        results = await asyncio.gather(*(
            stub.SubmitAction(
                service_pb2.SubmitActionRequest(game_id=game_id, action=action,
                                                expected_version=game.version),
                metadata=bearer(tokens[seat]))
            for action in attempts), return_exceptions=True)
        ok = [r for r in results if not isinstance(r, BaseException)]
        failed = [r for r in results if isinstance(r, BaseException)]
        assert len(ok) == 1, results
        for error in failed:
            assert isinstance(error, grpc.aio.AioRpcError)
            assert error.code() == grpc.StatusCode.ABORTED
            assert error_info(error).reason == "STALE_VERSION"
        if await scraper.value("risk_commit_conflicts_total") > before:
            return
    raise AssertionError("no lost race was ever counted")


# ---- health --------------------------------------------------------------------------------


async def _status(channel: grpc.aio.Channel, service: str) -> int:
    reply = await health_pb2_grpc.HealthStub(channel).Check(
        health_pb2.HealthCheckRequest(service=service), timeout=2)
    return int(reply.status)


async def test_readiness_follows_redis_and_liveness_does_not(
    make_service: ServiceFactory, make_redis_server: RedisServerFactory
) -> None:
    """Redis killed: risk.v1.RiskService NOT_SERVING, "" still SERVING; back after restart."""
    server = make_redis_server()
    port = free_port()
    service = make_service(url=server.url, RISK_METRICS_PORT=str(port),
                           RISK_HEALTH_INTERVAL_S="0.1")
    scraper = Scraper(port)
    serving, not_serving = health_pb2.HealthCheckResponse.SERVING, \
        health_pb2.HealthCheckResponse.NOT_SERVING
    async with grpc.aio.insecure_channel(service.target) as channel:
        assert await _status(channel, "") == serving
        assert await _status(channel, SERVICE_NAME) == serving
        server.kill()

        async def not_ready() -> bool:
            return await _status(channel, SERVICE_NAME) == not_serving

        await _eventually(not_ready, "readiness to drop")
        assert await _status(channel, "") == serving
        assert (await scraper.get("/readyz"))[0] == 503
        assert (await scraper.get("/livez"))[0] == 200
        assert await scraper.value("risk_redis_errors_total", source="health") >= 1
        error = await rpc_error(Stub(channel).CreateGame(create_request(seed=8), timeout=10))
        assert error.code() == grpc.StatusCode.UNAVAILABLE
        assert await scraper.value("risk_redis_errors_total", source="rpc") == 1

        await asyncio.to_thread(server.restart)

        async def ready() -> bool:
            return await _status(channel, SERVICE_NAME) == serving

        await _eventually(ready, "readiness to return")
        assert await _status(channel, "") == serving
        assert (await scraper.get("/readyz"))[0] == 200
        await Stub(channel).CreateGame(create_request(seed=9))
    flips = [e["serving"] for e in _events(service) if e["event"] == "health"]
    assert flips == [True, False, True]


# ---- TLS -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Certs:
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path

    def channel_credentials(self, *, client: bool = False) -> grpc.ChannelCredentials:
        if not client:
            return grpc.ssl_channel_credentials(self.ca.read_bytes())
        return grpc.ssl_channel_credentials(
            self.ca.read_bytes(), self.client_key.read_bytes(), self.client_cert.read_bytes())


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def _issue(directory: Path, name: str, subject: str, extensions: str) -> None:
    """A P-256 key and a certificate for it signed by the CA in `directory`."""
    (directory / f"{name}.ext").write_text(extensions)
    _openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", subject,
             cwd=directory)
    _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
             "-set_serial", str(int.from_bytes(hashlib.sha256(name.encode()).digest()[:8])),
             "-days", "2", "-sha256", "-extfile", f"{name}.ext", "-out", f"{name}.pem",
             cwd=directory)


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    """A throwaway CA, a server certificate for 127.0.0.1/localhost and a client certificate
    (made with the openssl command line, so the tests need no extra Python package)."""
    directory = tmp_path_factory.mktemp("tls")
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-sha256",
             "-subj", "/CN=risk test CA",
             "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=directory)
    _issue(directory, "server", "/CN=localhost",
           "basicConstraints=CA:FALSE\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n"
           "extendedKeyUsage=serverAuth\n")
    _issue(directory, "client", "/CN=tournament-organiser",
           "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n")
    return Certs(directory / "ca.pem", directory / "server.pem", directory / "server.key",
                 directory / "client.pem", directory / "client.key")


def _tls_env(certs: Certs) -> dict[str, str]:
    return {"RISK_TLS_CERT_FILE": str(certs.server_cert),
            "RISK_TLS_KEY_FILE": str(certs.server_key)}


async def test_tls_serves_tls_clients_and_refuses_plaintext(
    make_service: ServiceFactory, certs: Certs, redis_client: redis.asyncio.Redis
) -> None:
    """With a server certificate the port speaks TLS only: a plaintext call is UNAVAILABLE."""
    service = make_service(credentials=certs.channel_credentials(), **_tls_env(certs))
    async with grpc.aio.secure_channel(service.target, certs.channel_credentials()) as channel:
        created = await Stub(channel).CreateGame(create_request(seed=10))
        assert created.game.game_id
    async with grpc.aio.insecure_channel(service.target) as channel:
        error = await rpc_error(Stub(channel).Ping(service_pb2.PingRequest(), timeout=5))
        assert error.code() == grpc.StatusCode.UNAVAILABLE
    assert [e["tls"] for e in _events(service) if e["event"] == "listening"] == ["server"]


async def _cancelled_game(stub: Stub) -> tuple[str, str]:
    """(game id, host token) of a game created for manual start and cancelled by its host."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=create_request(players=3).options, seed=12, manual_start=True))
    game_id = created.game.game_id
    cancelled = await stub.CancelGame(service_pb2.CancelGameRequest(game_id=game_id),
                                      metadata=bearer(created.host_token))
    assert cancelled.game.status == service_pb2.GAME_STATUS_CANCELLED
    return game_id, created.host_token


def _organiser_env(certs: Certs, **more: str) -> dict[str, str]:
    return {
        **_tls_env(certs),
        "RISK_TLS_CLIENT_CA_FILE": str(certs.ca),
        "RISK_ORGANISER_TOKEN_SHA256": hashlib.sha256(ORGANISER_TOKEN.encode()).hexdigest(),
        **more,
    }


async def test_organiser_token_needs_a_client_certificate(
    make_service: ServiceFactory, certs: Certs, redis_client: redis.asyncio.Redis
) -> None:
    """The organiser exports over mutual TLS; the same token without a certificate is denied."""
    mtls_target = f"127.0.0.1:{free_port()}"
    service = make_service(credentials=certs.channel_credentials(),
                           **_organiser_env(certs, RISK_MTLS_LISTEN=mtls_target))
    organiser = bearer(ORGANISER_TOKEN)
    export = service_pb2.ExportGameRequest
    async with grpc.aio.secure_channel(service.target, certs.channel_credentials()) as channel:
        stub = Stub(channel)
        game_id, host_token = await _cancelled_game(stub)
        error = await rpc_error(stub.ExportGame(export(game_id=game_id), metadata=organiser))
        assert error.code() == grpc.StatusCode.PERMISSION_DENIED
        assert error_info(error).reason == "ORGANISER_NEEDS_CLIENT_CERT"
        # the host's (and seats') tokens need no certificate
        by_host = await stub.ExportGame(export(game_id=game_id), metadata=bearer(host_token))
        assert by_host.status == service_pb2.GAME_STATUS_CANCELLED
    client = certs.channel_credentials(client=True)
    async with grpc.aio.secure_channel(mtls_target, client) as channel:
        exported = await Stub(channel).ExportGame(export(game_id=game_id), metadata=organiser)
        assert exported.game_id == game_id
        assert exported.status == service_pb2.GAME_STATUS_CANCELLED
        assert exported == by_host
    async with grpc.aio.secure_channel(mtls_target, certs.channel_credentials()) as channel:
        error = await rpc_error(Stub(channel).ExportGame(export(game_id=game_id),
                                                         metadata=organiser, timeout=5))
        assert error.code() == grpc.StatusCode.UNAVAILABLE, "the mTLS port wants a certificate"


async def test_client_ca_without_second_listener_requires_certificates(
    make_service: ServiceFactory, certs: Certs, redis_client: redis.asyncio.Redis
) -> None:
    """With a client CA and no RISK_MTLS_LISTEN, every client on the port needs a certificate."""
    client = certs.channel_credentials(client=True)
    service = make_service(credentials=client, **_organiser_env(certs))
    async with grpc.aio.secure_channel(service.target, client) as channel:
        stub = Stub(channel)
        game_id, _host = await _cancelled_game(stub)
        exported = await stub.ExportGame(service_pb2.ExportGameRequest(game_id=game_id),
                                         metadata=bearer(ORGANISER_TOKEN))
        assert exported.game_id == game_id
    async with grpc.aio.secure_channel(service.target, certs.channel_credentials()) as channel:
        error = await rpc_error(Stub(channel).Ping(service_pb2.PingRequest(), timeout=5))
        assert error.code() == grpc.StatusCode.UNAVAILABLE
    assert [e["tls"] for e in _events(service) if e["event"] == "listening"] == ["mutual"]


@pytest.mark.parametrize("env", [
    {"RISK_TLS_CERT_FILE": "server.pem"},
    {"RISK_TLS_CLIENT_CA_FILE": "ca.pem"},
    {"RISK_TLS_CERT_FILE": "missing.pem", "RISK_TLS_KEY_FILE": "missing.key"},
])
def test_incomplete_tls_settings_stop_the_start(
    env: dict[str, str], redis_url: str, tmp_path: Path
) -> None:
    """A half-configured or unreadable TLS setup exits with status 2 and says what is wrong."""
    done = subprocess.run(
        [sys.executable, "-m", "risk_service"], capture_output=True, timeout=30, check=False,
        cwd=tmp_path,
        env={**os.environ, "REDIS_URL": redis_url, "RISK_LISTEN": f"127.0.0.1:{free_port()}",
             **env},
    )
    assert done.returncode == 2, done.stderr.decode()
    assert b"RISK_TLS_" in done.stderr
