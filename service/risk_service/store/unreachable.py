"""Which errors mean the store could not serve, so that a caller retries or waits for it.

redis-py raises a `RedisError` when a command fails, but its cluster client raises a
`RedisClusterException` (no subclass of `RedisError`) when the cluster could not be used as it
stands: it reached no node at all (its cause is the last node's connection error: a cluster
not formed yet, every node restarting), a slot has no master in its map (`SlotNotCoveredError`,
a failover under way), or the nodes it asked for the slot map disagree or leave slots
uncovered (a failover seen by some nodes and not yet by others). That is the same outage as a
refused connection, so it is treated the same. Any other `RedisClusterException` (keys of
different slots in one pipeline, say) is a fault of the service's own.
"""

from __future__ import annotations

from redis.exceptions import RedisClusterException, RedisError, SlotNotCoveredError

# what redis-py's NodesManager.initialize says when the slot map it was given is not usable
# yet (redis-py has no class for these)
_RESHAPING = ("could not agree on a valid slots cache", "All slots are not covered")


def store_unavailable(exc: BaseException) -> bool:
    """Whether `exc` says Redis (one server or a whole cluster) could not serve."""
    if isinstance(exc, RedisClusterException):
        return (isinstance(exc, SlotNotCoveredError)
                or isinstance(exc.__cause__, RedisError | OSError | TimeoutError)
                or any(phrase in str(exc) for phrase in _RESHAPING))
    return isinstance(exc, RedisError)
