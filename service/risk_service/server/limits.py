"""Per-caller limits applied before a call reaches the games: a request rate per caller and
a number of open streams per connection. Both are per process (each replica enforces its own
share); over a limit the answer is RESOURCE_EXHAUSTED with a reason that says which."""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable

from risk_service.errors import Code, ServiceError

_MAX_CALLERS = 100_000  # buckets kept; the least recently seen are dropped first


class RateLimiter:
    """A token bucket per caller: `rate` requests a second on average, bursts up to `burst`."""

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.clock = clock
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def admit(self, caller: str) -> None:
        if self.rate <= 0:
            return
        now = self.clock()
        tokens, last = self.buckets.pop(caller, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self.buckets[caller] = (tokens, now)
            raise ServiceError(
                Code.RESOURCE_EXHAUSTED, "RATE_LIMITED",
                f"more than {self.rate:g} requests a second from this caller; slow down",
                {"retry_after_ms": str(int((1 - tokens) / self.rate * 1000) + 1)},
            )
        self.buckets[caller] = (tokens - 1, now)
        while len(self.buckets) > _MAX_CALLERS:
            self.buckets.popitem(last=False)


class StreamCounter:
    """Open streams per connection (gRPC peer address)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    def enter(self, peer: str) -> None:
        count = self.open.get(peer, 0)
        if self.limit and count >= self.limit:
            raise ServiceError(
                Code.RESOURCE_EXHAUSTED, "TOO_MANY_STREAMS",
                f"at most {self.limit} open streams per connection",
            )
        self.open[peer] = count + 1

    def leave(self, peer: str) -> None:
        count = self.open.get(peer, 0) - 1
        if count > 0:
            self.open[peer] = count
        else:
            self.open.pop(peer, None)


def caller_key(token: str | None, peer: str) -> str:
    """Who a call is for rate limiting: its token (as a digest), else its address."""
    if token:
        return "t:" + hashlib.sha256(token.encode()).hexdigest()[:32]
    host = peer.rsplit(":", 1)[0] if peer.count(":") >= 2 else peer  # drop the port
    return "a:" + host
