"""How the store talks to Redis, whatever its topology: one connection interface and its scripts.

Store modules send commands through a `StoreConnection`: `call` (one command, routed by its key:
the second word, as HGET or XRANGE take it), `call_adjacent` (commands written back to back on
the connection to the node of one key, nothing of another caller's between them: a script and
the `WAIT` that must follow it on the connection that wrote) and `script` (a `Script`). One
implementation per topology is chosen once, where the process builds its store
(server/app.py, `store_connection`): a single Redis is served by `RedisPipe` (store/pipe.py),
a Redis Cluster by `ClusterPipe` (store/cluster_pipe.py). `RedisPyConnection` answers the same
calls through a redis-py client; it serves a store built on a bare client (tools, tests) and a
URL the pipes do not take, and it is what the pipes were measured against (bench/RESULTS.md,
"One way to Redis"). Store modules never ask which one they hold.

A `Script` is a Lua script's text and SHA1. Calling it runs EVALSHA on the node that owns its
keys; when that node answers NOSCRIPT (a restarted, flushed or newly promoted server has an
empty script cache) the call is made once more as EVAL with the script's text, which that node
runs and keeps, so the next EVALSHA finds it. That recovery is written here once, for every
script of every store module on every topology. It is routed as any keyed command, which is
why it is EVAL and not SCRIPT LOAD (redis-py's `Script`, and the pipes before): on a cluster
slot being moved, the keys answer from the importing master (an ASK redirection), and a SCRIPT
LOAD, which names no key, went to the slot's old master instead, so the retry met NOSCRIPT
again and the call failed (tests/cluster/test_store_scripts.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Protocol

import redis.asyncio as aioredis
from redis import exceptions as rx
from redis.asyncio.cluster import RedisCluster

Arg = bytes | str | int


def _noscript(reply: Any) -> bool:
    # redis-py turns the error reply into NoScriptError (dropping the code from its text);
    # the pipes keep Redis' own text, which starts with the code
    return isinstance(reply, rx.NoScriptError) or (
        isinstance(reply, rx.ResponseError) and str(reply).startswith("NOSCRIPT"))


class Script:
    """`await script(keys, args)`: EVALSHA on the node of the keys, EVAL there once if that
    node does not know the script."""

    def __init__(self, connection: StoreConnection, text: str) -> None:
        self.connection = connection
        self.text = text
        self.sha = hashlib.sha1(text.encode()).hexdigest()

    async def __call__(self, keys: Sequence[Arg], args: Sequence[Arg] = ()) -> Any:
        """The script's reply; its error reply raised as redis-py's ResponseError."""
        reply = (await self.run(keys, args))[0]
        if isinstance(reply, Exception):
            raise reply
        return reply

    async def run(self, keys: Sequence[Arg], args: Sequence[Arg],
                  *after: Sequence[Arg]) -> list[Any]:
        """The script's reply and those of the commands `after` (sent right behind it on the
        same connection), each a value or the ResponseError of an error reply."""
        key = keys[0] if keys else ""
        replies = await self.connection.call_adjacent(
            ("EVALSHA", self.sha, len(keys), *keys, *args), *after, key=key)
        if _noscript(replies[0]):  # the node runs the script sent whole, and keeps it
            replies = await self.connection.call_adjacent(
                ("EVAL", self.text, len(keys), *keys, *args), *after, key=key)
        return replies


class StoreConnection(Protocol):
    """What store modules send their commands through (module docstring)."""

    async def call(self, *args: Arg) -> Any:
        """One command's reply (redis-py's types); an error reply raises ResponseError."""

    async def call_adjacent(self, *commands: Sequence[Arg], key: Arg = "") -> list[Any]:
        """Commands back to back on the connection to `key`'s node; each one's reply or the
        ResponseError of its error reply, in order."""

    async def call_each(self, *commands: Sequence[Arg]) -> list[Any]:
        """Commands each routed by its own key (its second word, as HGETALL or HMGET take it),
        sent together rather than one round trip each: each one's reply or the ResponseError
        of its error reply, in order. Not adjacent: on a cluster they go to several masters,
        and a command may be sent twice after a lost connection or a moved slot, so it is
        for reads (of many games at once: a list's page, the sweepers' scan)."""

    def script(self, text: str) -> Script:
        """A script run through this connection."""

    async def close(self) -> None:
        """Close what this connection opened."""


class RedisPyConnection:
    """The store's calls through a redis-py client (a single Redis or a cluster). The client
    belongs to whoever made it: `close` leaves it open."""

    def __init__(self, client: aioredis.Redis | RedisCluster) -> None:
        self.client = client

    async def call(self, *args: Arg) -> Any:
        return await self.client.execute_command(*args)

    async def call_adjacent(self, *commands: Sequence[Arg], key: Arg = "") -> list[Any]:
        if len(commands) == 1:  # one command: redis-py routes it (and follows MOVED) itself
            try:
                return [await self.client.execute_command(*commands[0])]
            except rx.ResponseError as exc:
                return [exc]
        if isinstance(self.client, RedisCluster):
            # redis-py's cluster pipeline routes each command on its own (a keyless WAIT to
            # any node): only the cluster pipe keeps them on one connection
            raise NotImplementedError("commands that must share a connection on a Redis "
                                      "Cluster need the cluster pipe (store/cluster_pipe.py)")
        return await self.call_each(*commands)

    async def call_each(self, *commands: Sequence[Arg]) -> list[Any]:
        # redis-py's pipeline: on one Redis its commands leave together on one connection (so
        # they are adjacent too); on a cluster it routes each by its key
        async with self.client.pipeline(transaction=False) as pipe:
            for command in commands:
                pipe.execute_command(*command)
            return list(await pipe.execute(raise_on_error=False))

    def script(self, text: str) -> Script:
        return Script(self, text)

    async def close(self) -> None:
        return None
