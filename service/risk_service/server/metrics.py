"""Prometheus metrics of one service process (served over HTTP when a port is configured).

Counters get the `_total` suffix on the wire: `risk_rpcs_total`, `risk_commit_conflicts_total`,
`risk_redis_errors_total`, `risk_streams_refused_total`, `risk_stream_rollbacks_total`,
`risk_replay_steps_total`, and the webhooks' `risk_webhooks_delivered_total`,
`risk_webhooks_failed_total`, `risk_webhooks_dead_total` and `risk_webhooks_queue_depth`
(docs/notifications.md), by endpoint (the id in its Redis keys, not its URL).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram


class Metrics:
    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry or CollectorRegistry()
        self.rpcs = Counter(
            "risk_rpcs", "RPCs by method and status code", ["method", "code"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "risk_rpc_seconds", "RPC latency", ["method"], registry=self.registry,
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
        )
        self.active_games = Gauge(
            "risk_active_games",
            "Games in progress, all variants (read from the game index by the health check)",
            registry=self.registry,
        )
        self.subscribers = Gauge(
            "risk_subscribers", "Open StreamEvents subscriptions in this process",
            registry=self.registry,
        )
        self.commit_conflicts = Counter(
            "risk_commit_conflicts",
            "Commits that lost the version race to another commit (the caller re-reads)",
            registry=self.registry,
        )
        self.redis_errors = Counter(
            "risk_redis_errors", "Redis errors by where they were seen (rpc, health)",
            ["source"], registry=self.registry,
        )
        self.streams_refused = Counter(
            "risk_streams_refused",
            "StreamEvents calls refused before their first event, by reason "
            "(TOO_MANY_STREAMED_GAMES, TOO_MANY_SUBSCRIBERS, ...)",
            ["reason"], registry=self.registry,
        )
        self.stream_rollbacks = Counter(
            "risk_stream_rollbacks",
            "Streamed games whose Redis stream lost events already delivered (their "
            "subscribers were ended ABORTED/GAME_ROLLED_BACK)",
            registry=self.registry,
        )
        self.replayed = Counter(
            "risk_replay_steps",
            "Log entries applied by GetGame at_version replays: `answer` after a kept "
            "checkpoint (fewer than RISK_REPLAY_CHECKPOINT_EVERY a call), `build` by the full "
            "replay that writes a game's checkpoints", ["kind"], registry=self.registry,
        )
        self.webhooks_delivered = Counter(
            "risk_webhooks_delivered", "Webhook messages an endpoint answered 2xx, by endpoint",
            ["endpoint"], registry=self.registry)
        self.webhooks_failed = Counter(
            "risk_webhooks_failed",
            "Webhook attempts that failed (not 2xx, a timeout, no connection), by endpoint",
            ["endpoint"], registry=self.registry)
        self.webhooks_dead = Counter(
            "risk_webhooks_dead",
            "Webhook messages given up, by endpoint and reason (max_age, gone: the endpoint "
            "answered 410, queue_full)", ["endpoint", "reason"], registry=self.registry)
        self.webhooks_queue_depth = Gauge(
            "risk_webhooks_queue_depth",
            "Messages queued for an endpoint (all processes'), as this process last read it",
            ["endpoint"], registry=self.registry)
        # matchmaking (docs/ratings.md, "Matchmaking"): this process's matchmaker's tables,
        # how long their requests waited, and the requests closed without a table
        self.match_tables = Counter(
            "risk_match_tables",
            "Tables this process's matchmaker formed (claimed), by whether bots fill seats",
            ["bots"], registry=self.registry)
        self.match_wait = Histogram(
            "risk_match_wait_seconds",
            "How long each request seated at a table formed here had waited",
            buckets=(1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600), registry=self.registry)
        self.match_closed = Counter(
            "risk_match_closed",
            "Match requests closed without a table here: cancelled (CancelMatch), expired",
            ["how"], registry=self.registry)
        for bots in ("no", "yes"):
            self.match_tables.labels(bots)
        for how in ("cancelled", "expired"):
            self.match_closed.labels(how)
        for kind in ("answer", "build"):
            self.replayed.labels(kind)
        for source in ("rpc", "health"):
            self.redis_errors.labels(source)  # exported as 0 before the first error
        # every RPC counts itself: its children are looked up once per label set, not through
        # `labels()` (a lock and a key built from the names) on every call
        self._rpc_children: dict[tuple[str, str], tuple[Counter, Histogram]] = {}

    def observe_rpc(self, method: str, code: str, seconds: float) -> None:
        children = self._rpc_children.get((method, code))
        if children is None:
            children = self._rpc_children[method, code] = (
                self.rpcs.labels(method, code), self.latency.labels(method))
        children[0].inc()
        children[1].observe(seconds)

    def count_subscribers(self, count: Callable[[], float]) -> None:
        """Read the subscriber gauge from `count` at each scrape."""
        self.subscribers.set_function(count)

    def stream_refused(self, reason: str) -> None:
        self.streams_refused.labels(reason).inc()

    def stream_rolled_back(self) -> None:
        self.stream_rollbacks.inc()

    def replay_steps(self, kind: str, steps: int) -> None:
        self.replayed.labels(kind).inc(steps)

    def commit_conflict(self) -> None:
        self.commit_conflicts.inc()

    def webhook_delivered(self, endpoint: str) -> None:
        self.webhooks_delivered.labels(endpoint).inc()

    def webhook_failed(self, endpoint: str) -> None:
        self.webhooks_failed.labels(endpoint).inc()

    def webhook_dead(self, endpoint: str, reason: str, count: int = 1) -> None:
        self.webhooks_dead.labels(endpoint, reason).inc(count)

    def webhook_queue_depth(self, endpoint: str, depth: int) -> None:
        self.webhooks_queue_depth.labels(endpoint).set(depth)

    def match_formed(self, bots: int, waits_s: Sequence[float]) -> None:
        self.match_tables.labels("yes" if bots else "no").inc()
        for waited in waits_s:
            self.match_wait.observe(waited)

    def match_closed_as(self, how: str) -> None:
        self.match_closed.labels(how).inc()

    def redis_error(self, source: str) -> None:
        self.redis_errors.labels(source).inc()
