"""`Webhooks`: what the rest of the service holds to send notifications (docs/notifications.md).

- `await webhooks.enqueue(event_type, payload, key=...)`: queue a message for every endpoint,
  durably (in Redis before it returns). With a `key`, the message's `webhook-id` derives from
  it, so enqueueing the same key again (a retried request) sends nothing new while the first
  is queued or was delivered within `queue.DONE_KEEP_MS`.
- From a game's commit, exactly once: the plan records the commit's notices in the game's
  hash and lists a `Notify` effect (operations/notices.py, effects.py); `intend` runs before
  the write, `after_commit` queues them after it, `sweep` (the sweeper, any process) queues
  those a crash left (outbox.py).
- `run`: the delivery loops of this process (delivery.py); `close` on drain.

Every configured endpoint gets its own copy of each message, in its own queue: one endpoint
down delays only its own deliveries. Today the endpoints are the URLs of RISK_WEBHOOK_URL,
signed with one secret; an endpoint per tenant is another `Endpoint` with its own queue, and
needs no change below this object.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Callable, Sequence
from typing import Any

import structlog

from risk_service.notify.delivery import Deliverer, DeliveryMetrics, Endpoint, Retries
from risk_service.notify.outbox import Outbox
from risk_service.notify.queue import WebhookQueue
from risk_service.notify.secret import check_secret
from risk_service.operations.notices import envelope
from risk_service.store.connection import StoreConnection
from risk_service.store.keys import Keys
from risk_service.store.unreachable import store_unavailable

log = structlog.get_logger("webhooks")


def message_id(key: str | None) -> str:
    """A `webhook-id`: derived from `key` (the same key, the same id), else random."""
    if key is None:
        return "msg_" + secrets.token_urlsafe(18)
    digest = hashlib.sha256(key.encode()).digest()[:18]
    return "msg_" + base64.urlsafe_b64encode(digest).decode()


class Webhooks:
    def __init__(self, connection: StoreConnection, keys: Keys, urls: Sequence[str],
                 secret: str, *, clock_ms: Callable[[], int], retries: Retries,
                 metrics: DeliveryMetrics, max_len: int, wait_replicas: int = 0,
                 wait_timeout_ms: int = 1000) -> None:
        """`wait_replicas`: RISK_DURABILITY=replica's count; every queue write and commit
        intent is then acknowledged only once that many replicas confirm it (queue.py)."""
        check_secret(secret)
        self.clock_ms = clock_ms
        self.metrics = metrics
        self.endpoints = tuple(Endpoint.of(url) for url in urls)
        self.queue = WebhookQueue(connection, keys, max_len=max_len,
                                  wait_replicas=wait_replicas, wait_timeout_ms=wait_timeout_ms)
        self.outbox = Outbox(connection, keys, wait_replicas=wait_replicas,
                             wait_timeout_ms=wait_timeout_ms)
        self.deliverer = Deliverer(self.queue, self.endpoints, secret, retries=retries,
                                   metrics=metrics, clock_ms=clock_ms)

    async def enqueue(self, event_type: str, payload: dict[str, Any], *,
                      key: str | None = None) -> str:
        """Queue `payload` as a message of `event_type` for every endpoint; its webhook-id."""
        now = self.clock_ms()
        msg_id = message_id(key)
        await self._put(msg_id, event_type, envelope(event_type, payload, now), now)
        return msg_id

    async def _put(self, msg_id: str, kind: str, body: bytes, now_ms: int) -> None:
        for endpoint in self.endpoints:
            outcome = await self.queue.put(endpoint.id, msg_id, kind, body, now_ms)
            if outcome == "queued":
                self.deliverer.wake(endpoint.id)
            elif outcome in ("full", "gone"):
                reason = "queue_full" if outcome == "full" else "gone"
                self.metrics.webhook_dead(endpoint.id, reason)
                log.warning("webhook_not_queued", endpoint=endpoint.id, id=msg_id, type=kind,
                            reason=reason)

    # ---- from a commit (operations.effects.Notifier) ----------------------------------

    async def intend(self, game_id: str, version: int) -> None:
        await self.outbox.intend(game_id, version, self.clock_ms())

    async def after_commit(self, game_id: str, version: int) -> None:
        """The Notify effect: queue the commit's notices. A Redis that fails here leaves them
        to the sweeper, never to the caller whose commit landed."""
        try:
            await self._drain(game_id, version)
        except Exception as exc:
            if not store_unavailable(exc):
                raise
            log.warning("webhook_enqueue_deferred", game_id=game_id, version=version,
                        error=str(exc))

    async def _drain(self, game_id: str, version: int) -> int:
        notices = await self.outbox.take(game_id, version)
        now = self.clock_ms()
        for place, (kind, body) in enumerate(notices):
            # the id names this commit's notice: the same on a second queueing (a sweep
            # racing the committing process), another for another commit at this version
            key = f"{game_id}/{version}/{place}/{hashlib.sha256(body).hexdigest()}"
            await self._put(message_id(key), kind, body, now)
        await self.outbox.done(game_id, version)
        return len(notices)

    async def sweep(self) -> int:
        """Queue the notices of commits whose process died before it queued them; how many."""
        queued = 0
        for game_id, version in await self.outbox.stale_intents(self.clock_ms()):
            for left in await self.outbox.left(game_id):
                queued += await self._drain(game_id, left)
            await self.outbox.done(game_id, version)
        if queued:
            log.info("webhooks_queued_by_sweeper", notices=queued)
        return queued

    # ---- delivery --------------------------------------------------------------------

    async def run(self) -> None:
        await self.deliverer.run()

    async def close(self) -> None:
        await self.deliverer.close()
