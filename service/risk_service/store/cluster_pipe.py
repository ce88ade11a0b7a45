"""The store's hot path on a Redis Cluster: one multiplexed connection per master, by slot.

The store's connection on a cluster (store/connection.py, `StoreConnection`): it offers the
calls of `RedisPipe` (store/pipe.py), each routed to the master that serves the
slot of its key: the game hash for reads, the first key of a script. The slot map comes from
`CLUSTER SLOTS` (asked of any node known so far) and is kept until a reply says otherwise:
- `MOVED <slot> <host:port>`: the slot has a new owner for good (a resharding, a failover):
  the map is read again and the command is sent there.
- `ASK <slot> <host:port>`: the slot is being migrated and this key is already on the target:
  the command goes there once, right behind `ASKING` on the same connection.
- `TRYAGAIN`, `CLUSTERDOWN`, a lost connection, a master silent for the reply timeout
  (`RISK_REDIS_TIMEOUT_MS`): a failover or migration is under way: the map
  is read again after a short wait, up to `failover_wait_s` in all, then the error stands
  (UNAVAILABLE for the client, which retries with its request id). The map is asked of every
  node the last one named, masters and replicas, the one that just failed last: the node of
  REDIS_URL may be the one that is gone.
Retrying a commit is safe: its version check or request record answers a repeat.

Why not redis-py's RedisCluster for this path: it does the same routing but checks a
connection out of a pool per command and packs in Python; bench/cluster.py measures both.
The cluster client still serves everything that is not hot (indexes, campaigns, the feeds).
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Coroutine, Iterable, Sequence
from typing import Any
from urllib.parse import quote

from redis import exceptions as rx
from redis.asyncio.connection import parse_url
from redis.crc import key_slot

from risk_service.store.connection import Arg, Script
from risk_service.store.pipe import CONNECT_TIMEOUT_S, RedisPipe

SLOTS = 16384
_REDIRECTS = 5  # MOVED / ASK replies followed for one call before giving up


def _address(node: Sequence[Any], asked: str) -> tuple[str, int]:
    """(host, port) of a node as CLUSTER SLOTS names it ([host, port, id, ...]); an empty host
    is the node that answered's own."""
    host = node[0].decode() if isinstance(node[0], bytes) else str(node[0])
    return host or asked, int(node[1])


def _slot(key: Arg) -> int:
    return key_slot(key if isinstance(key, bytes) else str(key).encode())


def _misrouted(reply: Any) -> bool:
    """An error reply that says the command went to the wrong master, or to one that cannot
    serve its slot now: sent again after the map is read (or the slot settles)."""
    return isinstance(reply, rx.ResponseError) and str(reply).split(" ", 1)[0] in (
        "MOVED", "ASK", "TRYAGAIN", "CLUSTERDOWN")


async def _together(calls: Iterable[Coroutine[Any, Any, None]]) -> None:
    """Run `calls` at once; the first to fail cancels the others (none is left running) and
    its error is raised as it is, not in an ExceptionGroup, so callers tell a lost Redis
    (`store_unavailable`) from the rest as they do for one call."""
    try:
        async with asyncio.TaskGroup() as tasks:
            for call in calls:
                tasks.create_task(call)
    except BaseExceptionGroup as failed:
        raise failed.exceptions[0] from None


class ClusterPipe:
    def __init__(self, url: str, *, failover_wait_s: float = 10.0,
                 connect_timeout_s: float = CONNECT_TIMEOUT_S,
                 reply_timeout_s: float | None = None,
                 tls: ssl.SSLContext | None = None, username: str = "",
                 password: str = "") -> None:
        """`url` names any node (redis:// or rediss://); the timeouts, `tls`, `username`
        and `password` are `RedisPipe`'s, given to the connection to every master alike."""
        options = parse_url(url)
        # every master is reached the way the seed is: over TLS when its URL says rediss://
        self.scheme = "rediss" if url.startswith("rediss://") else "redis"
        self.tls, self.username, self.password = tls, username, password
        self.connect_timeout_s, self.reply_timeout_s = connect_timeout_s, reply_timeout_s
        self.seed = (str(options.get("host", "localhost")), int(options.get("port", 6379)))
        # credentials in the URL itself go on to every master's URL
        url_user, url_password = options.get("username"), options.get("password")
        self._auth = "" if not url_password else (
            f"{quote(url_user or '', safe='')}:{quote(url_password, safe='')}@")
        self.failover_wait_s = failover_wait_s
        self.owners: list[tuple[str, int]] = []  # slot -> master address; [] until first read
        # every node (master or replica) the last slot map named: who to ask for the next one
        self.nodes: list[tuple[str, int]] = []
        self.maps = 0  # slot maps read so far
        self.pipes: dict[tuple[str, int], RedisPipe] = {}
        self._refreshing: asyncio.Lock | None = None
        self.redirects = 0  # MOVED and ASK replies seen (a figure for tests and benchmarks)

    def _pipe(self, address: tuple[str, int]) -> RedisPipe:
        pipe = self.pipes.get(address)
        if pipe is None:
            pipe = self.pipes[address] = RedisPipe(
                f"{self.scheme}://{self._auth}{address[0]}:{address[1]}", tls=self.tls,
                username=self.username, password=self.password,
                connect_timeout_s=self.connect_timeout_s, reply_timeout_s=self.reply_timeout_s)
        return pipe

    async def refresh(self, failed: tuple[str, int] | None = None) -> None:
        """Read the slot map from the first node that answers: every node the last map named
        (masters and replicas: a replica may be the master by now), then the seed; `failed`,
        a node that just did not answer, is asked last. A caller that waited while another
        read the map takes that one."""
        if self._refreshing is None:
            self._refreshing = asyncio.Lock()
        seen = self.maps
        async with self._refreshing:
            if self.maps != seen:
                return
            candidates = [*dict.fromkeys([*self.nodes, *self.pipes, self.seed])]
            if failed in candidates:
                candidates.remove(failed)
                candidates.append(failed)
            error: Exception = rx.ConnectionError("no Redis Cluster node answered")
            for address in candidates:
                try:
                    ranges = await self._pipe(address).call("CLUSTER", "SLOTS")
                except rx.RedisError as exc:
                    error = exc
                    continue
                owners = [self.seed] * SLOTS
                nodes: dict[tuple[str, int], None] = {}
                for start, end, *served in ranges:
                    named = [_address(node, address[0]) for node in served]
                    nodes.update(dict.fromkeys(named))
                    for slot in range(int(start), int(end) + 1):
                        owners[slot] = named[0]
                self.owners, self.nodes = owners, list(nodes)
                self.maps += 1
                for gone in set(self.pipes) - set(owners) - {self.seed}:
                    await self.pipes.pop(gone).close()
                return
            raise rx.ConnectionError(f"cannot read the cluster's slot map: {error}")

    async def call_adjacent(self, *commands: Sequence[Arg], key: Arg = "") -> list[Any]:
        """`RedisPipe.call_adjacent` on the master that serves `key`'s slot."""
        slot = _slot(key)
        deadline = time.monotonic() + self.failover_wait_s
        asking: tuple[str, int] | None = None
        redirects = 0
        backoff = 0.05
        while True:
            if not self.owners:
                await self._refresh_or_wait(deadline)
                continue
            address = asking or self.owners[slot]
            try:
                if asking is not None:
                    replies = (await self._pipe(address).call_adjacent(("ASKING",), *commands))[1:]
                else:
                    replies = await self._pipe(address).call_adjacent(*commands)
            except (rx.ConnectionError, rx.TimeoutError):
                # the master may be dead or silent: wait for its replica to take over, then
                # re-read
                if time.monotonic() + backoff > deadline:
                    raise
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 0.5)
                await self._refresh_or_wait(deadline, failed=address)
                asking = None
                continue
            asking = None
            redirect = next((r for r in replies if _misrouted(r)), None)
            if redirect is None:
                return replies
            kind, *rest = str(redirect).split(" ")
            redirects += 1
            self.redirects += 1
            if redirects > _REDIRECTS and kind in ("MOVED", "ASK"):
                raise redirect
            if kind == "ASK":
                host, _, port = rest[1].rpartition(":")
                asking = (host or address[0], int(port))
            elif kind == "MOVED":
                host, _, port = rest[1].rpartition(":")
                self.owners[slot] = (host or address[0], int(port))
                await self._refresh_or_wait(deadline)
            else:  # TRYAGAIN (keys of a migrating slot split between two nodes), CLUSTERDOWN
                if time.monotonic() + backoff > deadline:
                    raise redirect
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 0.5)
                await self._refresh_or_wait(deadline)

    async def _refresh_or_wait(self, deadline: float,
                               failed: tuple[str, int] | None = None) -> None:
        try:
            await self.refresh(failed)
        except rx.ConnectionError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)

    async def call(self, *args: Arg) -> Any:
        """One single-key command (its key second, as HGET, HGETALL, HMGET take it)."""
        (reply,) = await self.call_adjacent(args, key=args[1] if len(args) > 1 else "")
        if isinstance(reply, Exception):
            raise reply
        return reply

    async def call_each(self, *commands: Sequence[Arg]) -> list[Any]:
        """The commands grouped by the master the slot map says serves each one's key, each
        group sent together on that master's connection and the groups at once. The commands
        the map misrouted (MOVED, ASK, TRYAGAIN, CLUSTERDOWN) or whose master did not answer
        are then sent again, each on its own and all at once, through `call_adjacent`, which
        follows redirections (the first MOVED reads the map again for all of them) and waits
        out a failover. Reads only: a group cut off mid-way may have run some of its
        commands."""
        if not commands:
            return []
        deadline = time.monotonic() + self.failover_wait_s
        while not self.owners:
            await self._refresh_or_wait(deadline)
        groups: dict[tuple[str, int], list[int]] = {}
        for index, command in enumerate(commands):
            groups.setdefault(self.owners[_slot(command[1])], []).append(index)
        replies: list[Any] = [None] * len(commands)
        again: list[int] = []

        async def send(address: tuple[str, int], indexes: list[int]) -> None:
            try:
                answered = await self._pipe(address).call_adjacent(
                    *(commands[i] for i in indexes))
            except (rx.ConnectionError, rx.TimeoutError):
                again.extend(indexes)
                return
            for index, reply in zip(indexes, answered, strict=True):
                if _misrouted(reply):
                    again.append(index)
                else:
                    replies[index] = reply

        async def resend(index: int) -> None:
            command = commands[index]
            replies[index] = (await self.call_adjacent(command, key=command[1]))[0]

        await _together(send(address, indexes) for address, indexes in groups.items())
        if again:
            await _together(resend(index) for index in again)
        return replies

    def script(self, text: str) -> Script:
        """A Lua script run on the master of its first key; a master that answers NOSCRIPT
        (promoted, restarted) is given the text by `Script`."""
        return Script(self, text)

    async def close(self) -> None:
        pipes, self.pipes = self.pipes, {}
        for pipe in pipes.values():
            await pipe.close()
