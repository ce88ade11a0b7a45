"""Per-caller limits applied before a call reaches the games: a request rate per caller and
a number of open streams per connection and per caller. All are per process (each replica
enforces its own share); over a limit the answer is RESOURCE_EXHAUSTED with a reason that
says which.

A caller is its verified credential when it presents a token the service has accepted
before (`VerifiedTokens`), else its network address: a token is only a claim until it matched,
and a bucket per claimed token would give a client that invents one per call no limit at all."""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable

from risk_service.errors import Code, ServiceError, ServiceReason

_MAX_CALLERS = 100_000  # buckets kept; the least recently seen are dropped first


class RateLimiter:
    """A token bucket per caller: `rate` requests a second on average, bursts up to `burst`."""

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic, *, what: str = "requests") -> None:
        self.rate = rate
        self.what = what
        self.burst = max(burst, 1.0)
        self.clock = clock
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def admit(self, caller: str, cost: float = 1) -> None:
        """Spend `cost` of the caller's bucket, or raise RATE_LIMITED with retry_after_ms. A
        cost above the burst (a replay budget's full replay of a long game) is admitted from
        a full bucket and leaves it in debt, so no call is refused for ever."""
        if self.rate <= 0:
            return
        now = self.clock()
        tokens, last = self.buckets.pop(caller, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        needed = min(cost, self.burst)
        if tokens < needed:
            self.buckets[caller] = (tokens, now)
            raise ServiceError(
                Code.RESOURCE_EXHAUSTED, ServiceReason.RATE_LIMITED,
                f"more than {self.rate:g} {self.what} a second from this caller; slow down",
                {"retry_after_ms": str(int((needed - tokens) / self.rate * 1000) + 1)},
            )
        self.buckets[caller] = (tokens - cost, now)
        while len(self.buckets) > _MAX_CALLERS:
            self.buckets.popitem(last=False)


class VerifiedTokens:
    """SHA-256 digests of tokens that matched a credential, the most recently seen kept."""

    def __init__(self, capacity: int = _MAX_CALLERS) -> None:
        self.capacity = capacity
        self.digests: OrderedDict[bytes, None] = OrderedDict()

    def add(self, digest: bytes) -> None:
        self.digests[digest] = None
        self.digests.move_to_end(digest)
        while len(self.digests) > self.capacity:
            self.digests.popitem(last=False)

    def __contains__(self, digest: bytes) -> bool:
        return digest in self.digests


class StreamCounter:
    """Open streams per connection (gRPC peer address, `limit`) and per caller (`caller_key`,
    `per_caller`), whatever the transport; 0: no limit. The connection bound alone let one
    client hold any number of streams by opening more connections (2,000 anonymous results
    streams over a handful of them, issue 32)."""

    def __init__(self, limit: int, per_caller: int = 0) -> None:
        self.limit = limit
        self.per_caller = per_caller
        self.open: dict[str, int] = {}
        self.callers: dict[str, int] = {}

    def enter(self, peer: str, caller: str) -> None:
        count = self.open.get(peer, 0)
        if self.limit and count >= self.limit:
            raise ServiceError(
                Code.RESOURCE_EXHAUSTED, ServiceReason.TOO_MANY_STREAMS,
                f"at most {self.limit} open streams per connection",
            )
        held = self.callers.get(caller, 0)
        if self.per_caller and held >= self.per_caller:
            raise ServiceError(
                Code.RESOURCE_EXHAUSTED, ServiceReason.TOO_MANY_STREAMS,
                f"at most {self.per_caller} open streams per caller (its seat, host or "
                "organiser token once accepted, else its address), over all its connections; "
                "close one first", {"limit": str(self.per_caller)},
            )
        self.open[peer] = count + 1
        self.callers[caller] = held + 1

    def leave(self, peer: str, caller: str) -> None:
        _drop_one(self.open, peer)
        _drop_one(self.callers, caller)


def _drop_one(counts: dict[str, int], key: str) -> None:
    count = counts.get(key, 0) - 1
    if count > 0:
        counts[key] = count
    else:
        counts.pop(key, None)


def peer_host(peer: str) -> str:
    """The address of a gRPC peer ("ipv4:1.2.3.4:5678", "ipv6:[::1]:5678") without its port."""
    return peer.rsplit(":", 1)[0] if peer.count(":") >= 2 else peer


def token_digest(authorization: str | None) -> bytes | None:
    """The SHA-256 digest of the token in `authorization: Bearer <token>`, as the games
    compare it; None without a well-formed bearer token."""
    if not authorization or authorization[:7].lower() != "bearer ":
        return None
    token = authorization[7:].strip()
    return hashlib.sha256(token.encode()).digest() if token else None


def caller_key(digest: bytes | None, peer: str, verified: VerifiedTokens) -> str:
    """Who a call is for rate limiting: its token when the token is a verified credential,
    else its address (an unverified token is any string a client cares to send)."""
    if digest is not None and digest in verified:
        return "t:" + digest.hex()[:32]
    return "a:" + peer_host(peer)
