"""Which errors mean the store could not serve, so that a caller retries or waits for it.

redis-py raises a `RedisError` when a command fails, but its cluster client raises a
`RedisClusterException` (no subclass of `RedisError`) when it reached no node at all: its
cause is the last node's connection error. That is the same outage (a cluster not formed yet,
every node restarting), so it is treated the same; a `RedisClusterException` without such a
cause (keys of different slots in one command, say) is a fault of the service's own.
"""

from __future__ import annotations

from redis.exceptions import RedisClusterException, RedisError


def store_unavailable(exc: BaseException) -> bool:
    """Whether `exc` says Redis (one server or a whole cluster) could not serve."""
    if isinstance(exc, RedisClusterException):
        return isinstance(exc.__cause__, RedisError | OSError | TimeoutError)
    return isinstance(exc, RedisError)
