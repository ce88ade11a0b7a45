"""Prometheus metrics of one service process (served over HTTP when a port is configured)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram


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

    def observe_rpc(self, method: str, code: str, seconds: float) -> None:
        self.rpcs.labels(method, code).inc()
        self.latency.labels(method).observe(seconds)
