"""The delivery worker: every process works every endpoint's queue, signing and posting each
message as the Standard Webhooks specification says.

Each attempt is signed afresh (`webhook-timestamp` is the attempt's time, so a receiver's
five-minute tolerance holds for a retry days later) with the same `webhook-id` and the same
body; the signature is `standardwebhooks.Webhook.sign`'s, the specification's own library,
so this module writes no HMAC of its own. The HTTP client is httpx, with a timeout on the
whole attempt and no redirects followed (a redirect is a failure: the receiver's URL is
configured, not discovered).

What an answer means (the specification's recommendations): any 2xx is delivered; 410 Gone
disables the endpoint (queue.gone: what is queued for it is dead-lettered, nothing more is
sent until its URL changes); anything else, a timeout or a connection error is a failed
attempt, retried after an exponential backoff with jitter (`backoff_ms`), until the message
is older than the maximum age, when it is dead-lettered.

Endpoints never wait on each other: each has its own queue and its own loop. An endpoint
that fails a whole batch rests (its loop sleeps, backing off exponentially) and is then
probed with one message at a time until one goes through: a dead receiver costs one attempt
per rest, not one per queued message.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

import httpx
import structlog
from standardwebhooks import Webhook

from risk_service.notify.queue import Claimed, WebhookQueue
from risk_service.store.unreachable import store_unavailable

log = structlog.get_logger("webhooks")

BODY_READ_LIMIT = 64 * 1024  # of a receiver's answer, read to keep its connection reusable
USER_AGENT = "risk-service-webhooks"
# the longest a failing endpoint rests between probes: a receiver that is back is found within
# this (each message still waits out its own backoff)
REST_CAP_MS = 30_000


def endpoint_id(url: str) -> str:
    """An endpoint's name in Redis keys and metrics: stable across processes and restarts,
    and not the URL itself (which may carry a credential)."""
    return hashlib.sha256(url.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Endpoint:
    id: str
    url: str

    @classmethod
    def of(cls, url: str) -> Endpoint:
        return cls(endpoint_id(url), url)


@dataclass(frozen=True, slots=True)
class Retries:
    """How hard delivery tries (settings: RISK_WEBHOOK_*)."""

    timeout_ms: int = 10_000
    base_ms: int = 5_000
    cap_ms: int = 3_600_000
    max_age_ms: int = 3 * 24 * 3600 * 1000
    poll_ms: int = 1_000
    batch: int = 16  # messages of one endpoint in flight at once, per process

    @property
    def lease_ms(self) -> int:
        """How long a claim holds a message: its attempt is bounded by the timeout, and what
        is left covers settling it; past this, another process may send it."""
        return 2 * self.timeout_ms + 5_000


def backoff_ms(attempt: int, retries: Retries, rand: Callable[[], float] = random.random) -> int:
    """The wait after failed attempt `attempt` (1, 2, ...): doubling from the base up to the
    cap, half of it fixed and half drawn (so retries of many messages spread out, and a wait
    never collapses to nothing)."""
    full = min(retries.cap_ms, retries.base_ms << min(attempt - 1, 40))
    return full // 2 + int(rand() * (full - full // 2))


class DeliveryMetrics(Protocol):
    def webhook_delivered(self, endpoint: str) -> None: ...
    def webhook_failed(self, endpoint: str) -> None: ...
    def webhook_dead(self, endpoint: str, reason: str, count: int = 1) -> None: ...
    def webhook_queue_depth(self, endpoint: str, depth: int) -> None: ...


class Deliverer:
    def __init__(self, queue: WebhookQueue, endpoints: Sequence[Endpoint], secret: str, *,
                 retries: Retries, metrics: DeliveryMetrics, clock_ms: Callable[[], int],
                 client: httpx.AsyncClient | None = None) -> None:
        self.queue = queue
        self.endpoints = tuple(endpoints)
        self.signer = Webhook(secret)
        self.retries = retries
        self.metrics = metrics
        self.clock_ms = clock_ms
        self.client = client or httpx.AsyncClient(
            timeout=httpx.Timeout(retries.timeout_ms / 1000),
            follow_redirects=False,
            # the environment's proxy variables are not a webhook setting: a deployment that
            # needs a proxy for its receiver says so where the service is configured
            trust_env=False,
            limits=httpx.Limits(max_connections=max(4, retries.batch * len(self.endpoints))),
            headers={"user-agent": USER_AGENT},
        )
        self._wake = {e.id: asyncio.Event() for e in self.endpoints}

    def wake(self, endpoint: str) -> None:
        """A message was queued for `endpoint` by this process: look now, not at the poll."""
        event = self._wake.get(endpoint)
        if event is not None:
            event.set()

    async def run(self) -> None:
        await asyncio.gather(*(self._work(e) for e in self.endpoints))

    async def close(self) -> None:
        await self.client.aclose()

    async def _idle(self, endpoint: Endpoint, seconds: float) -> None:
        wake = self._wake[endpoint.id]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), seconds)
        wake.clear()

    async def _work(self, endpoint: Endpoint) -> None:
        failing = 0  # batches in a row of which nothing was delivered
        while True:
            if failing:  # the endpoint rests before the next probe
                await asyncio.sleep(min(backoff_ms(failing, self.retries), REST_CAP_MS) / 1000)
            try:
                claimed = await self.queue.claim(endpoint.id, self.clock_ms(),
                                                 self.retries.lease_ms,
                                                 1 if failing else self.retries.batch)
                self.metrics.webhook_queue_depth(endpoint.id,
                                                 await self.queue.depth(endpoint.id))
                if not claimed:
                    await self._idle(endpoint, self.retries.poll_ms / 1000)
                    continue
                results = await asyncio.gather(*(self._attempt(endpoint, m) for m in claimed))
            except Exception as exc:
                if not store_unavailable(exc):
                    log.exception("webhook_worker_error", endpoint=endpoint.id)
                else:
                    log.warning("webhook_store_unavailable", endpoint=endpoint.id,
                                error=str(exc))
                await asyncio.sleep(self.retries.poll_ms / 1000)
                continue
            failing = 0 if any(results) else failing + 1

    async def _post(self, endpoint: Endpoint, message: Claimed) -> int | str:
        """One attempt: the status code, or what went wrong before there was one."""
        sent = datetime.fromtimestamp(self.clock_ms() // 1000, tz=UTC)
        headers = {
            "content-type": "application/json",
            "webhook-id": message.id,
            "webhook-timestamp": str(int(sent.timestamp())),
            "webhook-signature": self.signer.sign(message.id, sent, message.body.decode()),
        }
        try:
            async with asyncio.timeout(self.retries.timeout_ms / 1000), self.client.stream(
                    "POST", endpoint.url, content=message.body, headers=headers) as response:
                read = 0
                async for chunk in response.aiter_raw():
                    read += len(chunk)
                    if read > BODY_READ_LIMIT:
                        break
                return response.status_code
        except TimeoutError:
            return "timeout"
        except (httpx.HTTPError, httpx.InvalidURL, OSError) as exc:
            return type(exc).__name__

    async def _attempt(self, endpoint: Endpoint, message: Claimed) -> bool:
        """Send one claimed message and settle it; whether the endpoint took it."""
        answer = await self._post(endpoint, message)
        now = self.clock_ms()
        if isinstance(answer, int) and 200 <= answer < 300:
            await self.queue.delivered(endpoint.id, message, now)
            self.metrics.webhook_delivered(endpoint.id)
            return True
        self.metrics.webhook_failed(endpoint.id)
        if answer == 410:
            buried = await self.queue.gone(endpoint.id, now)
            self.metrics.webhook_dead(endpoint.id, "gone", buried)
            log.warning("webhook_endpoint_gone", endpoint=endpoint.id, dead_lettered=buried)
            return False
        if now - message.enqueued_ms >= self.retries.max_age_ms:
            if await self.queue.bury(endpoint.id, message, "max_age", now):
                self.metrics.webhook_dead(endpoint.id, "max_age")
                log.warning("webhook_dead_lettered", endpoint=endpoint.id, id=message.id,
                            type=message.kind, attempts=message.attempt, answer=answer)
            return False
        delay = backoff_ms(message.attempt, self.retries)
        await self.queue.retry(endpoint.id, message, now + delay)
        log.info("webhook_retry", endpoint=endpoint.id, id=message.id, type=message.kind,
                 attempt=message.attempt, answer=answer, retry_in_ms=delay)
        return False
