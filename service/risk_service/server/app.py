"""Assemble and run one service process: Redis, the game service, gRPC server, health.

`serve()` owns the process lifecycle: start the embedded redis-server when no REDIS_URL is
set, serve until SIGTERM/SIGINT, then drain: health goes NOT_SERVING, in-flight calls get the
grace period, streams end, Redis connections close, and an embedded Redis is stopped last.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from dataclasses import dataclass, field

import grpc
import redis.asyncio as aioredis
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from redis.exceptions import RedisError

from risk_service.feed import FeedHub
from risk_service.games import GameService, Limits
from risk_service.pb.risk.v1 import service_pb2, service_pb2_grpc
from risk_service.redis_server import RedisServer, supervise
from risk_service.server.interceptor import RpcInterceptor
from risk_service.server.metrics import Metrics
from risk_service.server.servicer import RiskServicer
from risk_service.settings import Settings
from risk_service.store.game_store import GameStore
from risk_service.store.keys import Keys
from risk_service.sweeper import Sweeper

log = structlog.get_logger("service")
SERVICE_NAME = service_pb2.DESCRIPTOR.services_by_name["RiskService"].full_name


def clock_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass
class App:
    settings: Settings
    server: grpc.aio.Server
    port: int
    redis: aioredis.Redis
    feed_redis: aioredis.Redis
    hub: FeedHub
    health: health.aio.HealthServicer
    metrics: Metrics
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    async def stop(self, grace: float | None = None) -> None:
        await self.health.enter_graceful_shutdown()
        await self.server.stop(self.settings.shutdown_grace_s if grace is None else grace)
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.hub.close()
        await self.redis.aclose()
        await self.feed_redis.aclose()


async def _watch_redis(app: App) -> None:
    """Health follows the store: NOT_SERVING while Redis does not answer."""
    serving: bool | None = None
    while True:
        try:
            await asyncio.wait_for(app.redis.ping(), timeout=1.0)
            ok = True
        except (RedisError, OSError, TimeoutError):
            ok = False
        if ok != serving:
            serving = ok
            status = (health_pb2.HealthCheckResponse.SERVING if ok
                      else health_pb2.HealthCheckResponse.NOT_SERVING)
            for name in ("", SERVICE_NAME):
                await app.health.set(name, status)
            log.info("health", serving=ok)
        await asyncio.sleep(1.0)


async def start(settings: Settings, redis_url: str) -> App:
    """Start serving on settings.listen against `redis_url`; returns the running app."""
    client = aioredis.Redis.from_url(redis_url, health_check_interval=10)
    feed_client = aioredis.Redis.from_url(redis_url)
    keys = Keys(settings.key_prefix)
    hub = FeedHub(feed_client, keys)
    metrics = Metrics()
    store = GameStore(client, keys)
    games = GameService(
        store, hub, clock_ms=clock_ms,
        limits=Limits(
            subscriber_buffer=settings.subscriber_buffer,
            max_page_size=settings.max_page_size,
            retention_ms=settings.retention_s * 1000,
            abandon_after_ms=settings.abandon_after_s * 1000,
            organiser_digests=settings.organiser_digests(),
        ),
    )
    sweeper = Sweeper(games, store, interval_ms=settings.sweep_interval_ms,
                      idle_scan_ms=min(60_000, settings.abandon_after_s * 1000 // 4 or 1))
    server = grpc.aio.server(
        interceptors=[RpcInterceptor(metrics)],
        options=[
            ("grpc.max_receive_message_length", settings.max_message_bytes),
            ("grpc.so_reuseport", 0),
        ],
    )
    # generated grpc code ships without type stubs
    service_pb2_grpc.add_RiskServiceServicer_to_server(  # type: ignore[no-untyped-call]
        RiskServicer(games), server
    )
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    port = server.add_insecure_port(settings.listen)
    if port == 0:
        raise RuntimeError(f"cannot listen on {settings.listen}")
    await server.start()
    app = App(settings, server, port, client, feed_client, hub, health_servicer, metrics)
    app.tasks.append(asyncio.create_task(_watch_redis(app), name="health"))
    app.tasks.append(asyncio.create_task(sweeper.run(), name="sweeper"))
    log.info("listening", address=settings.listen, port=port)
    return app


async def serve(settings: Settings) -> None:
    """Run until SIGTERM or SIGINT."""
    embedded: RedisServer | None = None
    stop_supervisor = asyncio.Event()
    supervisor: asyncio.Task[None] | None = None
    redis_url = settings.redis_url
    if not redis_url:
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
    log.info("stopped")
