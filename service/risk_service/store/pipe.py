"""One multiplexed Redis connection: the store's connection to a single Redis
(store/connection.py, `StoreConnection`).

redis-py checks a connection out of its pool for every command, packs it in Python and checks
it back in: at a few thousand commits a second that bookkeeping costs more than Redis itself.
Redis answers the commands of one connection in the order they were sent, so any number of
concurrent callers can share one socket: each call writes its packed command (hiredis packs
it) and parks a future in a FIFO; replies are parsed by hiredis as they arrive and hand their
futures their results in the same order. Nothing is borrowed and nothing waits for a free
connection; commands sent in the same event-loop turn leave in one write.

Only non-blocking, single-command calls belong here (EVALSHA, HGET, HGETALL, ...): a blocking
XREAD or a WATCH/MULTI transaction would hold up or mix with every other caller's command;
those stay on redis-py's pool. Errors keep redis-py's types, so the service maps them as it
maps redis-py's: a lost connection is `redis.exceptions.ConnectionError` (answered
UNAVAILABLE), an error reply is `redis.exceptions.ResponseError`. A call whose connection was
lost is retried on a fresh one, as the redis-py client is configured to do; the store's
commits are safe to retry (the version check or the request record answers a repeat).
"""

from __future__ import annotations

import asyncio
import collections
import functools
import ssl
from collections.abc import Callable, Sequence
from typing import Any, cast

import hiredis
from redis import exceptions as rx
from redis.asyncio.connection import UnixDomainSocketConnection, parse_url

from risk_service.store.connection import Arg, Script

# hiredis's stub types the argument as a one-element tuple; it takes any number of parts
_pack = cast(Callable[[tuple[Arg, ...]], bytes], hiredis.pack_command)

_BACKOFF_S = (0.02, 0.04, 0.08)  # waits before the retries of a call whose connection died
CONNECT_TIMEOUT_S = 5.0  # a connection (and its AUTH, SELECT) not made by then has failed


def pipe_supported(url: str) -> bool:
    """TCP (plain or TLS) and Unix-socket URLs."""
    return url.startswith(("redis://", "rediss://", "unix://"))


async def _settled(futures: list[asyncio.Future[Any]]) -> list[Any]:
    """Each future's result, or the exception it ended with, in order (`gather` with
    return_exceptions, without the gathering future and callbacks gather costs per call: a
    connection answers its commands in the order they were sent, so awaiting them one by one
    waits no longer)."""
    replies: list[Any] = []
    for future in futures:
        try:
            replies.append(await future)
        except asyncio.CancelledError:
            for rest in futures:
                rest.cancel()
            raise
        except Exception as exc:  # an error reply (or a lost connection) is a reply
            replies.append(exc)
    return replies


class _Connection(asyncio.Protocol):
    """One connection's replies, matched to their commands in order. With `timeout_s`, a
    connection that owes replies and has heard nothing from Redis for that long is given up:
    its calls fail with redis-py's TimeoutError and it is closed. A Redis that stops answering
    without closing its connections (its host lost, a network split, a stopped process)
    leaves no call waiting for longer; on a cluster that is what lets the call go on to a
    promoted replica."""

    def __init__(self, timeout_s: float | None = None) -> None:
        self.reader = hiredis.Reader()
        self.waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.outgoing: list[bytes] = []
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.loop = asyncio.get_running_loop()
        self.timeout_s = timeout_s
        self.heard = 0.0  # loop time of the last bytes from Redis (or of the wait's start)
        self.watchdog: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # (uvloop's transports do not subclass asyncio.Transport, but offer the same calls)
        self.transport = cast(asyncio.Transport, transport)

    def send(self, packed: bytes) -> asyncio.Future[Any]:
        if self.closed:
            raise rx.ConnectionError("the Redis connection is closed")
        future: asyncio.Future[Any] = self.loop.create_future()
        if not self.waiting and self.timeout_s is not None:  # a wait for Redis starts now
            self.heard = self.loop.time()
            if self.watchdog is None:
                self.watchdog = self.loop.call_later(self.timeout_s, self._watch)
        self.waiting.append(future)
        if not self.outgoing:
            self.loop.call_soon(self._flush)
        self.outgoing.append(packed)
        return future

    def _flush(self) -> None:
        if self.transport is not None and not self.closed:
            self.transport.writelines(self.outgoing)
        self.outgoing = []

    def _watch(self) -> None:
        self.watchdog = None
        if self.closed or not self.waiting or self.timeout_s is None:
            return
        quiet = self.loop.time() - self.heard
        if quiet < self.timeout_s:
            self.watchdog = self.loop.call_later(self.timeout_s - quiet, self._watch)
            return
        self._fail(rx.TimeoutError(f"Redis did not answer for {quiet:.1f} s"))
        if self.transport is not None:
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        self.heard = self.loop.time()
        self.reader.feed(data)
        try:
            while (reply := self.reader.gets()) is not False:
                future = self.waiting.popleft()
                if future.done():  # its caller gave up (cancelled); the reply is dropped
                    continue
                if isinstance(reply, hiredis.ReplyError):
                    future.set_exception(rx.ResponseError(str(reply)))
                else:
                    future.set_result(reply)
        except (hiredis.ProtocolError, IndexError) as exc:  # out of step: start over
            self._fail(rx.ConnectionError(f"Redis protocol error: {exc}"))
            if self.transport is not None:
                self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(rx.ConnectionError(f"lost the Redis connection: {exc or 'closed by peer'}"))

    def _fail(self, error: Exception) -> None:
        self.closed = True
        if self.watchdog is not None:
            self.watchdog.cancel()
            self.watchdog = None
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(error)


class RedisPipe:
    """A shared connection to the Redis at `url`, opened on first use and reopened after a
    loss. `await pipe.call("HGET", key, field)` answers what redis-py would (bytes, ints,
    lists, None), or raises redis-py's exceptions."""

    def __init__(self, url: str, *, connect_timeout_s: float = CONNECT_TIMEOUT_S,
                 reply_timeout_s: float | None = None,
                 tls: ssl.SSLContext | None = None, username: str = "",
                 password: str = "") -> None:
        """`tls`: the context for a rediss:// URL (the system's defaults when None);
        `username`/`password`: credentials given beside the URL rather than in it;
        `reply_timeout_s`: how long the connection may owe replies without a word from Redis
        before its calls fail with TimeoutError (None: no limit)."""
        if not pipe_supported(url):
            raise ValueError(f"RedisPipe does not serve {url.split(':', 1)[0]}:// URLs")
        self.options = parse_url(url)
        if username:
            self.options["username"] = username
        if password:
            self.options["password"] = password
        self.tls = (tls or ssl.create_default_context()) if url.startswith("rediss://") else None
        self.connect_timeout_s = connect_timeout_s
        self.reply_timeout_s = reply_timeout_s
        self._connection: _Connection | None = None
        self._connecting: asyncio.Lock | None = None

    def _up(self) -> _Connection | None:
        """The connection, if it is open (nearly always): no coroutine to ask it."""
        connection = self._connection
        return connection if connection is not None and not connection.closed else None

    async def _open(self) -> _Connection:
        connection = self._up()
        if connection is not None:
            return connection
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            connection = self._up()
            if connection is not None:
                return connection
            loop = asyncio.get_running_loop()
            opts = self.options
            made = functools.partial(_Connection, self.reply_timeout_s)
            try:
                async with asyncio.timeout(self.connect_timeout_s):
                    if opts.get("connection_class") is UnixDomainSocketConnection:
                        _, connection = await loop.create_unix_connection(made, opts["path"])
                    else:
                        _, connection = await loop.create_connection(
                            made, opts.get("host", "localhost"), opts.get("port", 6379),
                            ssl=self.tls)
                    await self._handshake(connection)
            except (OSError, TimeoutError) as exc:
                raise rx.ConnectionError(f"cannot connect to Redis: {exc}") from exc
            self._connection = connection
            return connection

    async def _handshake(self, connection: _Connection) -> None:
        opts = self.options
        if opts.get("password"):
            auth: list[Arg] = ["AUTH", opts["password"]]
            if opts.get("username"):
                auth.insert(1, opts["username"])
            await connection.send(_pack(tuple(auth)))
        if opts.get("db"):
            await connection.send(_pack(("SELECT", opts["db"])))

    async def call(self, *args: Arg) -> Any:
        reply = (await self.call_adjacent(args))[0]
        if isinstance(reply, Exception):
            raise reply
        return reply

    async def call_adjacent(self, *commands: Sequence[Arg], key: Arg = "") -> list[Any]:
        """Commands written back to back on one connection, nothing of another caller's
        between them: a commit and the `WAIT` that must follow it on the connection that wrote
        it, or `ASKING` and the command it is for. Answers each command's reply, or the
        `ResponseError` of its error reply, in order. (`key` routes on a cluster; here there is
        one server.) A lost connection is retried on a fresh one (`_BACKOFF_S`), a silent one
        (TimeoutError) is not, and a connection that cannot be opened raises as `_open`
        does."""
        if len(commands) != 1:
            return await self._adjacent(commands)
        # one command (a script alone: most calls), answered here: no list of futures to
        # settle, and no frame of its own for each reply to pass through
        packed = _pack(tuple(commands[0]))
        for wait in (*_BACKOFF_S, None):
            try:
                connection = self._up() or await self._open()
                reply = connection.send(packed)
                try:
                    return [await reply]
                except (rx.ConnectionError, rx.TimeoutError):
                    raise
                except Exception as exc:  # an error reply is a reply
                    return [exc]
            except rx.ConnectionError:
                if wait is None:
                    raise
                await asyncio.sleep(wait)
        raise AssertionError("unreachable")

    async def _adjacent(self, commands: Sequence[Sequence[Arg]]) -> list[Any]:
        """`call_adjacent` of several commands."""
        packed = [_pack(tuple(command)) for command in commands]
        for wait in (*_BACKOFF_S, None):
            try:
                connection = await self._open()
                futures = [connection.send(part) for part in packed]
                replies = await _settled(futures)
            except rx.ConnectionError:
                replies = [rx.ConnectionError("lost the Redis connection")]
            lost = next((r for r in replies
                         if isinstance(r, rx.ConnectionError | rx.TimeoutError)), None)
            if lost is None:
                return replies
            if wait is None or isinstance(lost, rx.TimeoutError):  # silent: no use resending
                raise lost
            await asyncio.sleep(wait)
        raise AssertionError("unreachable")

    async def call_each(self, *commands: Sequence[Arg]) -> list[Any]:
        """One server serves every key: the commands go together, as `call_adjacent`'s."""
        return await self.call_adjacent(*commands) if commands else []

    def script(self, text: str) -> Script:
        """A Lua script run on this connection (NOSCRIPT handled by `Script`)."""
        return Script(self, text)

    async def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None and connection.transport is not None:
            connection.transport.close()
