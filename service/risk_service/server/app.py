"""Assemble and run one service process: Redis, the game service, gRPC server, the HTTP port
(Connect, gRPC-Web, JSON; server.http_port), health, metrics, TLS.

`serve()` owns the process lifecycle: start the embedded redis-server when no REDIS_URL is
set, serve until SIGTERM/SIGINT, then drain: health goes NOT_SERVING, in-flight calls get the
grace period, streams end, Redis connections close, and an embedded Redis is stopped last.

Health: the overall service "" is liveness (SERVING while the process runs, NOT_SERVING from
shutdown on); "risk.v1.RiskService" is readiness and also follows Redis (NOT_SERVING while it
does not answer). The HTTP endpoint (RISK_METRICS_PORT) says the same on /livez and /readyz.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import grpc
import redis.asyncio as aioredis
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from risk_proto.risk.v1 import service_pb2
from risk_rules import variants
from risk_service import finishing
from risk_service.campaigns import CampaignService
from risk_service.cluster_feed import (
    ClusterStreamReader,
    attach_doorbell,
    cluster_reader_client,
)
from risk_service.director.director import DirectorSettings
from risk_service.feed import FeedHub, reader_client
from risk_service.instance import InstanceLock, check_listen
from risk_service.matchmaking.service import MatchSettings
from risk_service.operations import ACTIVE, GameService, Limits, players
from risk_service.redis_access import RedisAccess, check_access
from risk_service.redis_server import RedisServer, supervise
from risk_service.server import reflection
from risk_service.server.calls import Admission, Chain
from risk_service.server.interceptor import RouteHandlers, RpcInterceptor
from risk_service.server.limits import RateLimiter, StreamCounter
from risk_service.server.metrics import Metrics
from risk_service.server.ops_http import OpsHttp
from risk_service.server.routes import build as build_routes
from risk_service.settings import Settings
from risk_service.store.cluster_pipe import ClusterPipe
from risk_service.store.connection import RedisPyConnection, StoreConnection
from risk_service.store.game_store import GameStore
from risk_service.store.keys import Keys
from risk_service.store.pipe import CONNECT_TIMEOUT_S, RedisPipe, pipe_supported
from risk_service.store.unreachable import store_unavailable
from risk_service.sweeper import Sweeper

if TYPE_CHECKING:
    from risk_service.notify.webhooks import Webhooks
    from risk_service.server.http_port import HttpPort

log = structlog.get_logger("service")
SERVICE_NAME = service_pb2.DESCRIPTOR.services_by_name["RiskService"].full_name
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


# how long a feed reader's XREAD blocks; a new game is added without waiting for it (CLIENT
# UNBLOCK), so it only bounds how long a dead connection can go unnoticed
FEED_BLOCK_MS = 5000


def clock_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass
class App:
    settings: Settings
    server: grpc.aio.Server
    port: int
    redis: aioredis.Redis | RedisCluster
    connection: StoreConnection  # the store's (store/connection.py)
    hub: FeedHub
    health: health.aio.HealthServicer
    metrics: Metrics
    keys: Keys
    store: GameStore
    ops_http: OpsHttp | None = None
    http: HttpPort | None = None
    webhooks: Webhooks | None = None  # closed after its delivery task ends
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    ready: bool = False  # readiness, as "risk.v1.RiskService" reports it
    stopping: bool = False

    async def stop(self, grace: float | None = None) -> None:
        self.stopping = True
        self.ready = False
        await self.health.enter_graceful_shutdown()
        grace = self.settings.shutdown_grace_s if grace is None else grace
        # both ports stop accepting at once and share one grace for the calls in flight
        deadline = time.monotonic() + grace
        await asyncio.gather(self.server.stop(grace),
                             self.http.stop() if self.http is not None else asyncio.sleep(0))
        for task in self.tasks:
            # cancelled again until it ends: a cancel that lands inside a redis-py call can be
            # swallowed there (seen with the sweeper), and the loop would then run on forever
            while not task.done():
                task.cancel()
                await asyncio.wait([task], timeout=0.1)
            with contextlib.suppress(asyncio.CancelledError):
                await task
        # then the rest of the changes whose callers went (the calls', and the background
        # tasks' just cancelled: a commit's effects, a game's start), before Redis closes:
        # within what is left of the grace, at least a second
        await finishing.drain(max(deadline - time.monotonic(), 1.0))
        if self.ops_http is not None:
            await self.ops_http.stop()
        if self.webhooks is not None:
            await self.webhooks.close()
        await self.hub.close()
        await self.redis.aclose()
        await self.connection.close()


async def _watch_redis(app: App) -> None:
    """Readiness follows the store: "risk.v1.RiskService" is NOT_SERVING while Redis does not
    answer ("" stays SERVING: the process is alive). Refreshes the active-games gauge too."""
    serving: bool | None = None
    interval = app.settings.health_interval_s
    timeout = max(1.0, interval)
    while True:
        try:
            await asyncio.wait_for(app.redis.ping(), timeout=timeout)
            active = await asyncio.wait_for(app.store.count("*", ACTIVE), timeout=timeout)
            ok = True
        except Exception as exc:
            if not (store_unavailable(exc) or isinstance(exc, OSError | TimeoutError)):
                # not a store that is down: say what it was, and keep watching (a watcher that
                # ended would leave readiness as it was, whatever Redis did next)
                log.error("health_check_error", error=repr(exc), exc_info=exc)
            ok = False
            app.metrics.redis_error("health")
        else:
            app.metrics.active_games.set(active)
        if ok != serving and not app.stopping:
            serving = ok
            app.ready = ok
            await app.health.set(SERVICE_NAME, SERVING if ok else NOT_SERVING)
            log.info("health", serving=ok)
        await asyncio.sleep(interval)


def _read(setting: str, path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise RuntimeError(f"{setting}={path}: {exc.strerror or exc}") from None


def _server_credentials(
    settings: Settings,
) -> tuple[grpc.ServerCredentials | None, grpc.ServerCredentials | None]:
    """(credentials of `listen`, credentials of `mtls_listen`); None: plaintext / no listener.

    grpc's Python API either never asks for a client certificate or requires one, so "clients
    may present a certificate" takes two listeners: `listen` without client certificates and
    `mtls_listen` requiring them. Without `mtls_listen`, `listen` itself requires them."""
    cert, key, ca = settings.tls_cert_file, settings.tls_key_file, settings.tls_client_ca_file
    if not cert and not key:
        if ca or settings.mtls_listen:
            raise RuntimeError("RISK_TLS_CLIENT_CA_FILE and RISK_MTLS_LISTEN need "
                               "RISK_TLS_CERT_FILE and RISK_TLS_KEY_FILE")
        return None, None
    if not cert or not key:
        raise RuntimeError("RISK_TLS_CERT_FILE and RISK_TLS_KEY_FILE go together")
    if settings.mtls_listen and not ca:
        raise RuntimeError("RISK_MTLS_LISTEN needs RISK_TLS_CLIENT_CA_FILE")
    pair = [(_read("RISK_TLS_KEY_FILE", key), _read("RISK_TLS_CERT_FILE", cert))]
    if not ca:
        return grpc.ssl_server_credentials(pair), None
    roots = _read("RISK_TLS_CLIENT_CA_FILE", ca)
    mutual = grpc.ssl_server_credentials(pair, root_certificates=roots, require_client_auth=True)
    if not settings.mtls_listen:
        return mutual, None
    return grpc.ssl_server_credentials(pair), mutual


def _add_port(server: grpc.aio.Server, address: str,
              credentials: grpc.ServerCredentials | None) -> int:
    port: int = (server.add_insecure_port(address) if credentials is None
                 else server.add_secure_port(address, credentials))
    if port == 0:
        raise RuntimeError(f"cannot listen on {address}")
    return port


def server_options(settings: Settings) -> list[tuple[str, int]]:
    """gRPC core's limits on requests and connections (docs/reliability.md, "Connections")."""
    options = [
        ("grpc.max_receive_message_length", settings.max_message_bytes),
        # only the workers of one parent share an address (workers.py); a lone process must
        # fail on a taken port, not quietly share it
        ("grpc.so_reuseport", 1 if settings.reuse_port else 0),
        ("grpc.server_handshake_timeout_ms", settings.handshake_timeout_ms),
        # ... and must acknowledge the server's SETTINGS within as long
        ("grpc.http2.settings_timeout", settings.handshake_timeout_ms),
        ("grpc.max_connection_idle_ms", settings.connection_idle_ms),
        ("grpc.keepalive_time_ms", settings.keepalive_time_ms),
        ("grpc.keepalive_timeout_ms", settings.keepalive_timeout_ms),
        ("grpc.http2.ping_timeout_ms", settings.keepalive_timeout_ms),
        # keep pinging a connection whose calls send nothing (a half-sent request), instead of
        # gRPC's default of stopping after two pings without data
        ("grpc.http2.max_pings_without_data", 0),
        # calls that arrived but that the server has not picked up yet: past gRPC's own
        # default (1,000, then random early drops up to 3,000) a burst of streams opened at
        # once was cancelled before the service ever saw it, with no status or log
        ("grpc.server.max_pending_requests", settings.max_pending_calls),
        ("grpc.server.max_pending_requests_hard_limit", settings.max_pending_calls),
        ("grpc.server_max_unrequested_time_in_server", settings.max_pending_call_s),
    ]
    if settings.max_calls_per_connection:
        options.append(("grpc.max_concurrent_streams", settings.max_calls_per_connection))
    if settings.connection_age_ms:
        options += [("grpc.max_connection_age_ms", settings.connection_age_ms),
                    ("grpc.max_connection_age_grace_ms", settings.connection_age_grace_ms)]
    return options


def _retrying(*errors: type[RedisError]) -> dict[str, Any]:
    """A redis-py client's retries: a call that failed with one of `errors` is tried again
    on a fresh connection (3 times, 20 ms doubling up to 0.5 s), so the first call after a
    Redis restart does not fail."""
    return {"retry": Retry(ExponentialBackoff(cap=0.5, base=0.02), 3, supported_errors=errors),
            "retry_on_error": list(errors)}


def store_connection(settings: Settings, redis_url: str, client: aioredis.Redis | RedisCluster,
                     access: RedisAccess) -> StoreConnection:
    """The store's connection, chosen here once for the topology (store/connection.py): a
    single Redis's multiplexed pipe (store/pipe.py), or a cluster's, one per master
    (store/cluster_pipe.py), plain or TLS; redis-py's `client` for a URL neither serves."""
    if not pipe_supported(redis_url):
        return RedisPyConnection(client)
    pipe_access: dict[str, Any] = {"tls": access.tls, "username": access.username,
                                   "password": access.password,
                                   "reply_timeout_s": settings.redis_timeout_s,
                                   "connect_timeout_s": settings.redis_timeout_s
                                   or CONNECT_TIMEOUT_S}
    if settings.redis_cluster:
        return ClusterPipe(redis_url, **pipe_access)
    return RedisPipe(redis_url, **pipe_access)


def _connect(settings: Settings, redis_url: str, metrics: Metrics,
             access: RedisAccess) -> tuple[aioredis.Redis | RedisCluster, Keys, FeedHub,
                                           StoreConnection]:
    """The Redis clients: the command client, the feed hub's readers and the store's
    connection (`store_connection`), for a single Redis or, with `redis_cluster`, a Redis
    Cluster (cluster_feed.py). Every one connects with `access`' user, password and TLS
    files (redis_access.py)."""
    hub_options: dict[str, Any] = {
        "readers": settings.feed_readers, "block_ms": FEED_BLOCK_MS,
        "max_games": settings.max_streamed_games, "max_subscribers": settings.max_subscribers,
        "on_refused": metrics.stream_refused, "on_rolled_back": metrics.stream_rolled_back,
    }
    credentials = access.client_kwargs()
    # a Redis that stops answering fails a call after this, instead of holding it for ever
    timeouts = {"socket_timeout": settings.redis_timeout_s,
                "socket_connect_timeout": settings.redis_timeout_s}
    if settings.redis_cluster:
        # a timed-out call is tried again: redis-py's cluster client re-reads the slot map
        # between tries, which is how it finds a promoted replica
        cluster = RedisCluster.from_url(
            redis_url, max_connections=settings.redis_max_connections,
            **_retrying(RedisConnectionError, RedisTimeoutError), **timeouts, **credentials)
        keys = Keys(settings.key_prefix, buckets=settings.index_buckets)
        hub = FeedHub(cluster, keys,
                      reader_client=lambda: cluster_reader_client(redis_url, **timeouts,
                                                                  **credentials),
                      reader_class=ClusterStreamReader, **hub_options)
        attach_doorbell(hub.readers, cluster, settings.cluster_feed_sweep_ms / 1000)
        return cluster, keys, hub, store_connection(settings, redis_url, cluster, access)
    # One Redis: calls wait (up to redis_pool_timeout_s) for a free connection instead of
    # failing when more than redis_max_connections are busy at once. A timed-out call is not
    # retried (the same silent server would be asked again, for as long once more); the
    # client retries with its request id.
    client = aioredis.Redis(connection_pool=aioredis.BlockingConnectionPool.from_url(
        redis_url, max_connections=settings.redis_max_connections,
        timeout=settings.redis_pool_timeout_s, health_check_interval=10,
        **_retrying(RedisConnectionError), **timeouts, **credentials,
    ))
    keys = Keys(settings.key_prefix)
    # every streamed game is read over these few connections (feed.py), never one per game
    hub = FeedHub(client, keys,
                  reader_client=lambda: reader_client(redis_url, FEED_BLOCK_MS, **credentials),
                  **hub_options)
    return client, keys, hub, store_connection(settings, redis_url, client, access)


def _webhooks(settings: Settings, store: GameStore, metrics: Metrics) -> Webhooks | None:
    """The webhooks of RISK_WEBHOOK_URL (docs/notifications.md), or None."""
    urls = settings.webhook_urls()
    if not urls:
        return None
    # imported only when configured: httpx is a good part of a start without it
    from risk_service.notify.delivery import Retries  # noqa: PLC0415 - when configured
    from risk_service.notify.webhooks import Webhooks  # noqa: PLC0415 - when configured

    retries = Retries(timeout_ms=settings.webhook_timeout_ms,
                      base_ms=settings.webhook_retry_base_ms,
                      cap_ms=settings.webhook_retry_cap_ms,
                      max_age_ms=settings.webhook_max_age_s * 1000,
                      poll_ms=settings.webhook_poll_ms)
    return Webhooks(store.connection, store.keys, urls, settings.webhook_secret,
                    clock_ms=clock_ms, retries=retries, metrics=metrics,
                    max_len=settings.webhook_queue_max,
                    # the queue is as durable as the commits (docs/notifications.md)
                    wait_replicas=store.wait_replicas, wait_timeout_ms=store.wait_timeout_ms)


async def start(settings: Settings, redis_url: str) -> App:
    """Start serving on settings.listen against `redis_url`; returns the running app."""
    variants.load(settings.extra_variant_modules())  # before a call can name one
    credentials, mutual = _server_credentials(settings)  # bad TLS settings fail before anything
    signer = None
    if settings.export_signing_key:  # a bad key file fails here too, naming its setting
        from risk_service.export_signing import ExportSigner  # noqa: PLC0415 - only with a key

        signer = ExportSigner.from_files(settings.export_signing_key,
                                         settings.export_retired_key_files())
    # the Redis user, password and TLS beside the URL; every client below connects with them
    access = RedisAccess.from_settings(settings, redis_url)
    metrics = Metrics()
    client, keys, hub, connection = _connect(settings, redis_url, metrics, access)
    # wrong credentials or certificates stop the start here, with the setting to fix
    if not await check_access(client, access):  # not fatal: readiness waits for it
        log.warning("redis_unreachable", redis=access.describe())
    store = GameStore(client, keys, connection,
                      wait_replicas=1 if settings.durability == "replica" else 0,
                      wait_timeout_ms=settings.durability_timeout_ms)
    webhooks = _webhooks(settings, store, metrics)
    games = GameService(
        store, hub, clock_ms=clock_ms,
        limits=Limits(
            subscriber_buffer=settings.subscriber_buffer,
            max_page_size=settings.max_page_size,
            retention_ms=settings.retention_s * 1000,
            abandon_after_ms=settings.abandon_after_s * 1000,
            unstarted_expire_ms=settings.unstarted_expire_s * 1000,
            unstarted_retention_ms=settings.unstarted_retention_s * 1000,
            campaign_idle_ms=settings.campaign_idle_s * 1000,
            organiser_digests=settings.organiser_digests(),
            organiser_needs_client_cert=bool(settings.tls_client_ca_file),
            creator_digests=settings.creator_digests(),
            list_budget_s=settings.list_budget_ms / 1000,
            max_round_games=settings.max_round_games,
            max_round_bot_tables=settings.max_round_bot_tables,
            max_bot_only_games=settings.max_bot_only_games,
            bot_only_move_ms=settings.bot_only_move_ms,
            max_turns=settings.max_turns,
            snapshot_every=settings.snapshot_every,
            replay_checkpoint_every=settings.replay_checkpoint_every,
            vacation_days_per_year=settings.vacation_days_per_year,
            rating_season=settings.rating_season,
            rating_provisional_games=settings.rating_provisional_games,
        ),
        on_replay=metrics.replay_steps,
        on_conflict=metrics.commit_conflict,
        export_signer=signer,
        notifier=webhooks,
        # player tokens (docs/players.md): a bad JWKS or key setting fails the start here
        players=players.from_settings(settings, client, keys.prefix, clock_ms=clock_ms,
                                      creator_digests=settings.creator_digests()),
        matchmaking=MatchSettings.from_settings(settings),
        match_metrics=metrics,
        director=DirectorSettings(interval_ms=settings.event_director_ms,
                                  lease_ms=settings.event_lease_ms),
    )
    metrics.count_subscribers(lambda: hub.subscriber_count)
    campaigns = CampaignService(games)
    idle_limit_ms = min(settings.abandon_after_s, settings.unstarted_expire_s) * 1000
    sweeper = Sweeper(games, store, interval_ms=settings.sweep_interval_ms,
                      idle_scan_ms=min(60_000, idle_limit_ms // 4 or 1), campaigns=campaigns,
                      results_sweep_ms=settings.results_sweep_ms, webhooks=webhooks)
    # one set of limits for both transports: a caller's bucket is the same over gRPC and HTTP
    admission = Admission(
        rate=RateLimiter(settings.rate_limit_per_s,
                         settings.rate_limit_burst or 2 * settings.rate_limit_per_s),
        streams=StreamCounter(settings.max_streams_per_connection,
                              settings.max_streams_per_caller),
        creation=RateLimiter(settings.create_rate_per_s,
                             settings.create_burst or 10 * settings.create_rate_per_s,
                             what="games and campaigns created"),
        replay=RateLimiter(settings.replay_budget_per_s,
                           settings.replay_budget_burst or 10 * settings.replay_budget_per_s,
                           what="replay steps (log entries GetGame's at_version applies)"),
    )
    # every transport serves the one route table through the one chain (server.routes, calls)
    chain = Chain(admission, metrics)
    routes = build_routes(games, campaigns)
    handlers = RouteHandlers(routes, chain)
    server = grpc.aio.server(
        interceptors=[RpcInterceptor(chain, handlers)],
        options=server_options(settings),
    )
    # generic handlers only: grpc.aio also takes "registered" methods, and then keeps a
    # pending request per registered method and waits over all of them for every call, a
    # cost that grows with the service's 44 RPCs (server CPU per SubmitAction, 8 pairs
    # against cd22c75: 1.054 and 1.041 without them, 1.090 and 1.052 with; bench/RESULTS.md)
    server.add_generic_rpc_handlers((handlers,))
    health_servicer = health.aio.HealthServicer()  # "" starts SERVING: the process is alive
    await health_servicer.set(SERVICE_NAME, NOT_SERVING)  # until Redis first answers
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable(server, (SERVICE_NAME, health.SERVICE_NAME))
    port = _add_port(server, settings.listen, credentials)
    mtls_port = None if mutual is None else _add_port(server, settings.mtls_listen, mutual)
    app = App(settings, server, port, client, connection, hub, health_servicer, metrics, keys,
              store, webhooks=webhooks)
    http_port = None
    if settings.http_listen:
        # imported only when served: connectrpc and uvicorn are 90 ms of a start without it
        from risk_service.server.http_port import (  # noqa: PLC0415 - when served
            HttpLimits,
            HttpPort,
            cors_origins,
        )

        limits = HttpLimits(
            request_timeout_s=settings.http_request_timeout_ms / 1000,
            idle_timeout_s=settings.http_idle_timeout_ms / 1000,
            max_header_bytes=settings.http_max_header_bytes,
            max_headers=settings.http_max_headers,
            max_connections=settings.http_max_connections,
            stream_heartbeat_s=settings.http_stream_heartbeat_ms / 1000)
        app.http = HttpPort(routes, chain, limits=limits,
                            max_message_bytes=settings.max_message_bytes,
                            origins=cors_origins(settings.http_cors_origins),
                            export_keys=None if signer is None else signer.jwks())
        http_port = await app.http.start(
            settings.http_listen, grace_s=settings.shutdown_grace_s,
            cert_file=settings.tls_cert_file, key_file=settings.tls_key_file,
            reuse_port=settings.reuse_port)
    if settings.metrics_port:
        app.ops_http = OpsHttp(metrics, lambda: app.ready)
        try:
            await app.ops_http.start(settings.metrics_host, settings.metrics_port)
        except OSError as exc:
            raise RuntimeError(f"cannot serve metrics on {settings.metrics_host}:"
                               f"{settings.metrics_port}: {exc.strerror or exc}") from None
        log.info("metrics", address=f"http://{settings.metrics_host}:{settings.metrics_port}"
                 "/metrics")
    await server.start()
    app.tasks.append(asyncio.create_task(_watch_redis(app), name="health"))
    app.tasks.append(asyncio.create_task(sweeper.run(), name="sweeper"))
    app.tasks.append(asyncio.create_task(games.matchmaking.run(), name="matchmaker"))
    app.tasks.append(asyncio.create_task(games.director.run(), name="director"))
    if webhooks is not None:  # delivery stops with the drain; a claim it held passes on
        app.tasks.append(asyncio.create_task(webhooks.run(), name="webhooks"))
        log.info("webhooks", endpoints=[e.id for e in webhooks.endpoints])
    tls = ("off" if credentials is None
           else "mutual" if settings.tls_client_ca_file and not settings.mtls_listen
           else "server")
    loop = type(asyncio.get_running_loop()).__module__.split(".")[0]  # "uvloop" or "asyncio"
    http = ({} if http_port is None
            else {"http_address": settings.http_listen, "http_port": http_port})
    log.info("listening", address=settings.listen, port=port, tls=tls, event_loop=loop, **http)
    if signer is not None:
        log.info("export_signing", key_id=signer.key_id, retired=len(signer.retired))
    if mtls_port is not None:
        log.info("listening", address=settings.mtls_listen, port=mtls_port, tls="mutual")
    return app


async def serve(settings: Settings) -> None:
    """Run until SIGTERM or SIGINT."""
    embedded: RedisServer | None = None
    stop_supervisor = asyncio.Event()
    supervisor: asyncio.Task[None] | None = None
    redis_url = settings.redis_url
    # a taken port stops the start before Redis is touched (a worker's siblings hold it: its
    # parent checked it)
    if not settings.reuse_port:
        check_listen(settings.listen)
    if settings.http_listen and not settings.reuse_port:
        check_listen(settings.http_listen, "RISK_HTTP_LISTEN")
    lock = InstanceLock(settings.data_dir)
    if not redis_url:
        lock.acquire()  # never start (or stop) a Redis that a live instance owns
        embedded = RedisServer(
            settings.data_dir / "redis", appendfsync=settings.redis_appendfsync  # type: ignore[arg-type]
        )
        await embedded.start_async()
        redis_url = embedded.url
        supervisor = asyncio.create_task(supervise(embedded, stop_supervisor))
        log.info("embedded_redis", url=redis_url, data_dir=str(embedded.data_dir))
    app = await start(settings, redis_url)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    await stopping.wait()
    log.info("shutting_down")
    await app.stop()
    if embedded is not None:
        stop_supervisor.set()
        if supervisor is not None:
            await supervisor
        await embedded.stop_async()
    lock.release()
    log.info("stopped")
