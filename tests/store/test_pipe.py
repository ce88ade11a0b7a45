"""The shared, multiplexed Redis connection of the hot path, against real redis-servers."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest
import redis.asyncio
import uvloop
from redis import exceptions as rx

from risk_service.store.pipe import RedisPipe, pipe_supported

if TYPE_CHECKING:
    from tests.conftest import RedisServerFactory

_ECHO_KEYS = "return {KEYS[1], ARGV[1]}"


async def test_concurrent_callers_each_get_their_own_reply(
    redis_url: str, redis_client: redis.asyncio.Redis
) -> None:
    """500 calls in flight on one connection: every caller gets the reply to its command."""
    await redis_client.hset("h", mapping={f"f{i}": f"v{i}" for i in range(500)})
    pipe = RedisPipe(redis_url)
    try:
        first = await pipe.call("CLIENT", "ID")
        replies = await asyncio.gather(*(pipe.call("HGET", "h", f"f{i}") for i in range(500)))
        assert replies == [f"v{i}".encode() for i in range(500)]
        assert await pipe.call("HGET", "h", "absent") is None
        assert await pipe.call("HGETALL", "nothing") == []
        assert await pipe.call("CLIENT", "ID") == first, "the calls shared one connection"
    finally:
        await pipe.close()


async def test_a_cancelled_caller_does_not_shift_the_replies(
    redis_url: str, redis_client: redis.asyncio.Redis
) -> None:
    """A caller that gives up (a gRPC deadline) drops its reply; later callers get theirs."""
    await redis_client.set("slow", "x")
    pipe = RedisPipe(redis_url)
    try:
        await pipe.call("PING")
        blocked = asyncio.ensure_future(pipe.call("BLPOP", "no-such-list", "0.2"))
        await asyncio.sleep(0.05)
        blocked.cancel()
        after = await pipe.call("GET", "slow")
        assert after == b"x"
        assert blocked.cancelled()
    finally:
        await pipe.close()


async def test_error_replies_raise_redis_errors_and_the_connection_stays(redis_url: str) -> None:
    """An error reply raises redis-py's ResponseError for that caller only."""
    pipe = RedisPipe(redis_url)
    try:
        wrong, right = await asyncio.gather(pipe.call("NOSUCHCOMMAND"), pipe.call("ECHO", "ok"),
                                            return_exceptions=True)
        assert isinstance(wrong, rx.ResponseError)
        assert "unknown command" in str(wrong).lower()
        assert right == b"ok"
    finally:
        await pipe.close()


async def test_scripts_survive_a_flushed_script_cache(
    redis_url: str, redis_client: redis.asyncio.Redis
) -> None:
    """EVALSHA of a script the server forgot (a restart) loads it again and answers."""
    pipe = RedisPipe(redis_url)
    try:
        echo = pipe.script(_ECHO_KEYS)
        assert await echo(["k"], ["a"]) == [b"k", b"a"]
        await redis_client.script_flush()
        assert await echo(["k2"], [7]) == [b"k2", b"7"]
    finally:
        await pipe.close()


async def test_reconnects_after_the_server_restarts(make_redis_server: RedisServerFactory) -> None:
    """SIGKILL and restart of Redis: calls in flight fail with ConnectionError (UNAVAILABLE to
    a client), and the next call works on a new connection without any reset."""
    server = make_redis_server(appendfsync="always")
    pipe = RedisPipe(server.url)
    try:
        await pipe.call("SET", "kept", "1")
        in_flight = asyncio.ensure_future(pipe.call("BLPOP", "no-such-list", "5"))
        await asyncio.sleep(0.1)
        server.kill()
        with pytest.raises(rx.ConnectionError):
            await in_flight
        server.restart()
        assert await pipe.call("GET", "kept") == b"1"
    finally:
        await pipe.close()
        server.stop()


async def test_no_server_is_a_connection_error(make_redis_server: RedisServerFactory) -> None:
    """With nothing listening, a call fails with ConnectionError after its retries."""
    server = make_redis_server()
    url = server.url
    server.stop()
    pipe = RedisPipe(url, connect_timeout_s=1)
    with pytest.raises(rx.ConnectionError):
        await pipe.call("PING")
    await pipe.close()


def test_pipe_serves_tcp_tls_and_unix_urls() -> None:
    """redis://, rediss:// and unix:// are served (tests/deploy/test_redis_security.py runs
    it over TLS); other schemes are refused by name."""
    assert pipe_supported("redis://cache:6379/0")
    assert pipe_supported("unix:///tmp/redis.sock")
    assert pipe_supported("rediss://cache:6380/0")
    assert not pipe_supported("redis+sentinel://s:26379/mymaster")
    with pytest.raises(ValueError, match="redis\\+sentinel"):
        RedisPipe("redis+sentinel://s:26379/mymaster")


def test_works_on_uvloop(redis_url: str) -> None:
    """The service may run on uvloop (RISK_EVENT_LOOP=uvloop), whose transports are not
    asyncio's classes: the pipe connects, selects its database and answers there too."""

    async def main() -> list[object]:
        pipe = RedisPipe(redis_url.rsplit("/", 1)[0] + "/3")
        try:
            await pipe.call("SET", "on-uvloop", "yes")
            return list(await asyncio.gather(pipe.call("GET", "on-uvloop"),
                                             pipe.call("CLIENT", "INFO")))
        finally:
            await pipe.close()

    value, info = uvloop.run(asyncio.wait_for(main(), 10))
    assert value == b"yes"
    assert b" db=3 " in bytes(info)  # type: ignore[arg-type]
