"""SIGKILL the service (and Redis) mid-game: games continue from Redis with nothing lost."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import grpc
import pytest
import redis.asyncio

from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.redis_server import RedisServer
from risk_testing.rpc import bearer
from tests.conftest import RedisServerFactory
from tests.service.rawbot import (
    Log,
    Relay,
    Stored,
    Stub,
    Table,
    assert_acks_in_stream,
    assert_replays,
    channel,
    open_table,
    play,
    quick_game,
    read_stream,
    seqs,
    stored,
    summary,
    until_ok,
    wire_bytes,
)

# the crashes land between snapshots as well as on them (docs/storage.md)
SNAPSHOT_EVERY = "4"


async def _wait(predicate: Callable[[], Awaitable[bool]], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def _views(stub: Stub, table: Table) -> list[bytes]:
    """GetGame as a spectator and as every seat, serialised deterministically."""
    out = []
    for token in (None, *table.tokens):
        reply = await stub.GetGame(service_pb2.GetGameRequest(game_id=table.game_id),
                                   metadata=bearer(token) if token else None)
        out.append(reply.SerializeToString(deterministic=True))
    return out


class Follower:
    """A StreamEvents subscriber that records every event it gets, and can resume.

    With `resume` it reconnects by itself after an UNAVAILABLE end (after_seq = its last seq),
    as a client should; `resumes` counts how often it had to.
    """

    def __init__(self, stub: Stub, game_id: str, token: str, *, resume: bool = False) -> None:
        self.stub, self.game_id, self.token = stub, game_id, token
        self.resume = resume
        self.resumes = 0
        self.events: list[game_pb2.Event] = []
        self.task: asyncio.Task[None] | None = None
        self.call: grpc.aio.UnaryStreamCall | None = None

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            self.call = self.stub.StreamEvents(
                service_pb2.StreamEventsRequest(game_id=self.game_id, after_seq=self.last_seq),
                metadata=bearer(self.token),
            )
            try:
                async for message in self.call:
                    self.events.append(message.event)
                return
            except grpc.aio.AioRpcError as error:
                if not self.resume or error.code() != grpc.StatusCode.UNAVAILABLE:
                    raise
                self.resumes += 1
                await asyncio.sleep(0.05)

    async def reached(self, seq: int, timeout: float = 5.0) -> None:
        async def done() -> bool:
            assert self.task is not None
            if self.task.done():
                self.task.result()  # surface the stream's error
            return self.last_seq >= seq
        await _wait(done, timeout, f"the subscriber to reach seq {seq}")

    async def broken(self, timeout: float = 5.0) -> grpc.aio.AioRpcError:
        assert self.task is not None
        try:
            await asyncio.wait_for(self.task, timeout)
        except grpc.aio.AioRpcError as error:
            return error
        raise AssertionError("the stream ended without an error")

    async def stop(self) -> None:
        if self.call is not None:
            self.call.cancel()
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)


@pytest.fixture
async def session_service(
    make_service: ServiceFactory, redis_client: redis.asyncio.Redis
) -> ServiceProcess:
    """One service process on the flushed session Redis, writing a snapshot every 4 versions
    only: what a restarted process loads is a snapshot and the log after it."""
    return make_service(RISK_SNAPSHOT_EVERY=SNAPSHOT_EVERY)


async def test_killed_service_restarts_from_redis_and_the_stream_resumes_without_gap(
    session_service: ServiceProcess, redis_client: redis.asyncio.Redis
) -> None:
    """After SIGKILL and restart: same version and views; a resumed stream has no gap or dup."""
    async with channel(session_service.target) as ch:
        stub = Stub(ch)
        table = await open_table(stub, quick_game(seed=61, max_turns=6))
        follower = Follower(stub, table.game_id, table.tokens[0])
        follower.start()
        log = Log(table.start_version)
        await play(stub, table, log, moves=30)
        before = await summary(stub, table.game_id)
        await follower.reached(before.last_seq)
        views = await _views(stub, table)
        held = await stored(redis_client, table.game_id)

        session_service.kill()
        error = await follower.broken()
        assert error.code() == grpc.StatusCode.UNAVAILABLE, error
        resume_after = follower.last_seq
        await asyncio.to_thread(session_service.start)

        assert await summary(stub, table.game_id) == before
        assert await _views(stub, table) == views
        assert await stored(redis_client, table.game_id) == held
        follower.start()  # after_seq = the last seq it received
        await play(stub, table, log)
        final = await summary(stub, table.game_id)
        assert final.outcome.reason == "turn_cap"
        await follower.reached(final.last_seq)
        await follower.stop()

        assert seqs(follower.events) == list(range(1, final.last_seq + 1))
        fresh = await read_stream(stub, table.game_id, table.tokens[0], after_seq=0,
                                  upto=final.last_seq)
        assert wire_bytes(follower.events) == wire_bytes(fresh)
        await assert_acks_in_stream(stub, table, log, final.last_seq)
        assert_replays(await stored(redis_client, table.game_id), table, log)
    print(f"\nservice kill with a live subscriber: resumed after seq {resume_after} of "
          f"{final.last_seq}, {len(log.moves)} moves, {log.failed_calls} failed calls")


async def test_bot_loop_survives_service_kills_mid_submit(
    session_service: ServiceProcess, redis_client: redis.asyncio.Redis
) -> None:
    """Kills while a bot submits: lost replies resolve by request id; Redis equals the replay."""
    relay = Relay(session_service.port)
    await relay.start()
    crashes: list[asyncio.Task[None]] = []
    outcomes: dict[str, bool] = {}  # crash mode -> was the interrupted action committed?
    game_id = ""

    async def version_is(version: int) -> bool:
        return (await stored(redis_client, game_id)).version == version

    async def crash(version: int, mode: str) -> None:
        if mode == "reply_lost":  # the commit happens, its reply never arrives
            await _wait(lambda: version_is(version + 1), 5, "the commit")
        elif mode == "request_lost":  # the request never reaches the service
            await asyncio.sleep(0.05)
            assert await version_is(version)
        session_service.kill()
        relay.cut()
        await asyncio.sleep(0.2)  # down a moment: the bot's calls fail UNAVAILABLE meanwhile
        outcomes[mode] = await version_is(version + 1)
        await asyncio.to_thread(session_service.start)

    plan = {12: "reply_lost", 30: "request_lost", 50: "in_flight"}

    async def before_submit(move: int, version: int) -> None:
        mode = plan.get(move)
        if mode is None:
            return
        relay.hold["replies"] = mode == "reply_lost"
        relay.hold["requests"] = mode == "request_lost"
        crashes.append(asyncio.create_task(crash(version, mode)))

    started = time.monotonic()
    async with channel(relay.target) as ch:
        stub = Stub(ch)
        table = await open_table(stub, quick_game(seed=71, max_turns=6))
        game_id = table.game_id
        log = Log(table.start_version)
        await play(stub, table, log, before_submit=before_submit)
        await asyncio.gather(*crashes)
        final = await summary(stub, table.game_id)
        assert final.outcome.reason == "turn_cap"
        assert final.version == log.version
        await assert_acks_in_stream(stub, table, log, final.last_seq)
    await relay.close()

    assert set(outcomes) == set(plan.values())
    assert outcomes["reply_lost"] and not outcomes["request_lost"]
    assert log.failed_submits >= 2
    assert log.failure_codes == {grpc.StatusCode.UNAVAILABLE}
    assert log.resolved_committed >= 1 and log.resolved_applied >= 1
    assert_replays(await stored(redis_client, table.game_id), table, log)
    print(f"\nservice kills mid-submit: {len(log.moves)} moves, {final.last_seq} events, "
          f"{log.failed_calls} failed calls ({log.failed_submits} submits), lost replies "
          f"resolved by request id: {log.resolved_committed} committed / "
          f"{log.resolved_applied} applied on retry; in-flight kill committed: "
          f"{outcomes['in_flight']}; {time.monotonic() - started:.1f} s")


@pytest.fixture
async def own_redis(
    make_redis_server: RedisServerFactory,
) -> AsyncIterator[tuple[RedisServer, redis.asyncio.Redis]]:
    """A Redis of this test's own (it gets SIGKILLed) and a client for reading it directly."""
    # AOF with appendfsync always; started from a worker thread for the reason in _start_redis
    server = await asyncio.to_thread(make_redis_server)
    client = redis.asyncio.Redis.from_url(server.url)
    yield server, client
    await client.aclose()


async def test_no_acknowledged_action_is_lost_when_redis_and_service_are_killed(
    own_redis: tuple[RedisServer, redis.asyncio.Redis], make_service: ServiceFactory
) -> None:
    """SIGKILL Redis and the service together; after AOF replay every acked move is there."""
    server, client = own_redis
    service = make_service(url=server.url, RISK_SNAPSHOT_EVERY=SNAPSHOT_EVERY)
    relay = Relay(service.port)
    await relay.start()
    checks: list[tuple[str, Stored, Stored]] = []
    crashes: list[asyncio.Task[None]] = []
    game_id = ""

    async def crash_both(mode: str) -> None:
        held = await stored(client, game_id)
        server.kill()
        service.kill()
        relay.cut()
        await client.connection_pool.disconnect()  # the test's own connections died too
        await asyncio.sleep(0.2)  # the bot's calls fail UNAVAILABLE meanwhile
        await _start_redis(server)  # same port and data dir: Redis replays its AOF
        # read back before the service returns: nothing can have moved the game since the kill
        checks.append((mode, held, await stored(client, game_id)))
        await asyncio.to_thread(service.start)

    async def before_submit(move: int, version: int) -> None:
        if move == 20:  # move 20 was just acknowledged: crash before the next one
            await crash_both("after_ack")
        elif move == 45:  # the next commit lands in Redis; its reply is lost
            relay.hold["replies"] = True

            async def later() -> None:
                await _wait(lambda: _at(client, game_id, version + 1), 5, "the commit")
                await crash_both("reply_lost")

            crashes.append(asyncio.create_task(later()))
        elif move == 60:  # a subscriber that must ride out a Redis-only restart
            follower.start()
        elif move == 70:  # Redis alone dies; the running service must reconnect by itself
            held = await stored(client, game_id)
            server.kill()
            await client.connection_pool.disconnect()
            await asyncio.sleep(0.3)
            await _start_redis(server)
            checks.append(("redis_only", held, await stored(client, game_id)))

    async with channel(relay.target) as ch, channel(service.target) as direct:
        stub = Stub(ch)
        table = await open_table(stub, quick_game(seed=83, max_turns=6))
        game_id = table.game_id
        follower = Follower(Stub(direct), game_id, table.tokens[1], resume=True)
        log = Log(table.start_version)
        await play(stub, table, log, before_submit=before_submit)
        await asyncio.gather(*crashes)
        final = await until_ok(lambda: summary(stub, game_id), log)
        assert final.outcome.reason == "turn_cap"
        await follower.reached(final.last_seq)
        await follower.stop()
        assert seqs(follower.events) == list(range(1, final.last_seq + 1))
        fresh = await read_stream(stub, game_id, table.tokens[1], after_seq=0,
                                  upto=final.last_seq)
        assert wire_bytes(follower.events) == wire_bytes(fresh)
        await assert_acks_in_stream(stub, table, log, final.last_seq)
    await relay.close()

    assert [mode for mode, _before, _after in checks] == ["after_ack", "reply_lost", "redis_only"]
    for mode, before, after in checks:
        assert after == before, f"{mode}: Redis lost writes in the crash"
    start = table.start_version
    assert [before.version for _mode, before, _after in checks] == [start + 20, start + 46,
                                                                    start + 70]
    assert log.resolved_committed >= 1
    assert_replays(await stored(client, table.game_id), table, log)
    print(f"\nRedis + service SIGKILL x2, Redis alone x1 (AOF fsync always): "
          f"{len(log.moves)} moves, {log.failed_calls} failed calls "
          f"({sorted(c.name for c in log.failure_codes)}), {log.resolved_committed} lost reply "
          f"resolved by request id, nothing lost; a subscriber rode out the Redis restart "
          f"({follower.resumes} resumes)")


async def _start_redis(server: RedisServer) -> None:
    """Start Redis from a worker thread, so its fork runs no Python code in the child.

    RedisServer.start()/start_async() on the main thread fork with a preexec_fn (the
    parent-death hook), so the child runs Python's at-fork handlers, grpc's among them; once
    grpc has threads in this process that child dies with SIGSEGV/SIGABRT before exec in about
    1 of 8 starts with calls in flight (1 of 40 idle). Off the main thread no hook is installed,
    the fork runs no Python code, and it is safe.
    """
    await asyncio.to_thread(server.start)


async def _at(client: redis.asyncio.Redis, game_id: str, version: int) -> bool:
    return (await stored(client, game_id)).version == version
