"""Many streamed games over few Redis connections, the limit past them, and streams told when
Redis comes back at an older state.

Everything runs on real redis-server processes and real service processes; connections are
counted with CLIENT LIST on the Redis the service uses.
"""

from __future__ import annotations

import asyncio
import resource
import shutil
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
import redis.asyncio

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_service import feed as feed_module
from risk_service.feed import FeedHub, reader_client
from risk_service.store.keys import Keys
from risk_testing.harness import ServiceFactory
from risk_testing.rpc import create_request, error_info, rpc_error
from tests.conftest import RedisServerFactory

Stub = service_pb2_grpc.RiskServiceStub

GAMES = 2_000
STREAMS_PER_CHANNEL = 200  # under the service's open-streams-per-connection limit (256)
# this test process stands for thousands of clients, all from one address: past the default
# open streams per caller (RISK_MAX_STREAMS_PER_CALLER, 1,000)
MANY_CLIENTS = {"RISK_MAX_STREAMS_PER_CALLER": "0"}
POOL = 8  # RISK_REDIS_MAX_CONNECTIONS: the service's command connections
READERS = 4  # RISK_FEED_READERS
# the command pool, the commit pipe, the readers, and a spare for a connection being replaced
MAX_CONNECTIONS = POOL + 1 + READERS + 1
TIMEOUT_S = 120


def _channels(target: str, count: int) -> list[grpc.aio.Channel]:
    # a subchannel pool per channel: channels to one target would otherwise share one
    # connection, and the service caps open streams per connection
    return [grpc.aio.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])
            for _ in range(count)]


async def _service_connections(client: redis.asyncio.Redis) -> int:
    """Client connections to Redis other than this test's own."""
    clients = await client.client_list(_type="normal")
    mine = await client.client_id()
    return sum(1 for c in clients if int(c["id"]) != mine)


async def _until_a_reader_blocks(client: redis.asyncio.Redis, timeout: float = 10) -> None:
    """Until a connection of the service waits in XREAD BLOCK (CLIENT LIST's `b` flag)."""
    deadline = time.monotonic() + timeout
    while not any(c["cmd"] == "xread" and "b" in c["flags"]
                  for c in await client.client_list(_type="normal")):
        assert time.monotonic() < deadline, "no feed reader blocked in XREAD"
        await asyncio.sleep(0.01)


async def _gather_bounded(calls: list[Callable[[], Any]], at_once: int) -> list[Any]:
    """Make each call (a gRPC call starts when it is made) with at most `at_once` in flight."""
    gate = asyncio.Semaphore(at_once)

    async def one(call: Callable[[], Any]) -> Any:
        async with gate:
            return await call()

    return await asyncio.gather(*(one(c) for c in calls))


@pytest.fixture
def many_descriptors() -> None:
    """Room for the test's own channels and streams whatever the shell's default is."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 8192 <= hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (8192, hard))


async def test_thousands_of_streamed_games_share_a_few_redis_connections(
    make_service: ServiceFactory, redis_client: redis.asyncio.Redis, many_descriptors: None,
) -> None:
    """2,000 streams on 2,000 games: each gets the event committed after it opened, and the
    service holds no more than a pool's worth of Redis connections plus its few readers."""
    service = make_service(RISK_REDIS_MAX_CONNECTIONS=str(POOL), RISK_FEED_READERS=str(READERS),
                           **MANY_CLIENTS)
    channels = _channels(service.target, GAMES // STREAMS_PER_CHANNEL)
    stubs = [Stub(c) for c in channels]
    calls: list[Any] = []
    try:
        async with asyncio.timeout(TIMEOUT_S):
            created = await _gather_bounded(
                [partial(stubs[i % len(stubs)].CreateGame, create_request(seed=i, players=3))
                 for i in range(GAMES)], 64)
            games = [(c.game.game_id, c.game.last_seq) for c in created]
            # opened a channel's worth at a time (a burst of them all is the next test's),
            # each after the game's last event but one: that one is its backlog, and once it
            # has arrived the stream is subscribed and past its backlog, so the join
            # committed next can only reach it live, through the feed
            for start in range(0, GAMES, STREAMS_PER_CHANNEL):
                opened = [stubs[start // STREAMS_PER_CHANNEL].StreamEvents(
                    service_pb2.StreamEventsRequest(game_id=game_id, after_seq=last_seq - 1))
                    for game_id, last_seq in games[start:start + STREAMS_PER_CHANNEL]]
                calls += opened
                backlog = await asyncio.gather(*(call.read() for call in opened))
                assert [m.event.seq for m in backlog] == [
                    last_seq for _, last_seq in games[start:start + STREAMS_PER_CHANNEL]]
            firsts = [asyncio.ensure_future(call.read()) for call in calls]
            joined = await _gather_bounded(
                [partial(stubs[i % len(stubs)].JoinGame, service_pb2.JoinGameRequest(
                    game_id=game_id, seat=0, display_name="a")) for i, (game_id, _) in
                 enumerate(games)], 64)
            assert len(joined) == GAMES
            connections = await _service_connections(redis_client)
            got = await asyncio.gather(*firsts)
        assert [m.event.seq for m in got] == [last_seq + 1 for _, last_seq in games]
        assert all(m.event.WhichOneof("variant") != "classic" for m in got)  # the seat join
        assert connections <= MAX_CONNECTIONS, (
            f"{connections} Redis connections for {GAMES} streamed games")
        assert await _service_connections(redis_client) <= MAX_CONNECTIONS
    finally:
        for call in calls:
            call.cancel()
        for channel in channels:
            await channel.close()


async def test_streamed_games_past_the_limit_are_refused_with_a_reason(
    make_service: ServiceFactory, redis_client: redis.asyncio.Redis,
) -> None:
    """Past RISK_MAX_STREAMED_GAMES a stream of one more game is RESOURCE_EXHAUSTED /
    TOO_MANY_STREAMED_GAMES; another stream of a game already streamed is still served, and
    so is a new game once one is no longer streamed."""
    limit = 3
    service = make_service(RISK_MAX_STREAMED_GAMES=str(limit))
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        ids = [(await stub.CreateGame(create_request(seed=i))).game.game_id
               for i in range(limit + 1)]
        open_calls = [stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=g))
                      for g in ids[:limit]]
        for call in open_calls:
            await asyncio.wait_for(call.read(), 10)  # registered: it has a message
        refused = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=ids[limit]))
        error = await rpc_error(refused.read())
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        info = error_info(error)
        assert info.reason == "TOO_MANY_STREAMED_GAMES"
        assert info.metadata["limit"] == str(limit)

        again = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=ids[0]))
        await asyncio.wait_for(again.read(), 10)
        again.cancel()
        open_calls[1].cancel()
        for _ in range(100):  # the cancelled stream's handler unsubscribes shortly after
            retry = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=ids[limit]))
            try:
                await asyncio.wait_for(retry.read(), 10)
                break
            except grpc.aio.AioRpcError as exc:
                assert error_info(exc).reason == "TOO_MANY_STREAMED_GAMES"
                await asyncio.sleep(0.05)
        else:
            raise AssertionError("a freed game slot was never given to another game")
        retry.cancel()
        for call in open_calls:
            call.cancel()
    lines = [line for line in service.logs().splitlines() if "stream_refused" in line]
    assert lines and "TOO_MANY_STREAMED_GAMES" in lines[0]


async def test_a_game_added_to_a_blocked_reader_is_read_at_once(
    make_service: ServiceFactory, redis_client: redis.asyncio.Redis,
) -> None:
    """With one reader blocked on one game's stream, a second game streamed afterwards gets
    its events well before the reader's XREAD would have timed out (5 s)."""
    service = make_service(RISK_FEED_READERS="1")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        first, second = [(await stub.CreateGame(create_request(seed=i))).game for i in (1, 2)]
        blocked = stub.StreamEvents(service_pb2.StreamEventsRequest(
            game_id=first.game_id, after_seq=first.last_seq))
        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=first.game_id, seat=0))
        await asyncio.wait_for(blocked.read(), 10)
        await _until_a_reader_blocks(redis_client)  # on `first` alone
        # after the last event but one: once that one (its backlog) has arrived, the stream
        # is subscribed, and the join committed next can only reach it through the reader
        added = stub.StreamEvents(service_pb2.StreamEventsRequest(
            game_id=second.game_id, after_seq=second.last_seq - 1))
        backlog = await asyncio.wait_for(added.read(), 10)
        assert backlog.event.seq == second.last_seq
        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=second.game_id, seat=0))
        committed = time.monotonic()
        message = await asyncio.wait_for(added.read(), 10)
        waited = time.monotonic() - committed
        assert message.event.seq == second.last_seq + 1
        assert waited < 2.5, f"the new game's event waited {waited:.1f} s for the reader"
        blocked.cancel()
        added.cancel()


# ---- Redis coming back at an older state -------------------------------------------------


def _aof(data_dir: Path) -> Path:
    return data_dir / "appendonlydir"


@pytest.fixture
async def stub_on(make_redis_server: RedisServerFactory, make_service: ServiceFactory
                  ) -> AsyncIterator[Any]:
    """(redis server, service, stub) on a Redis of the test's own (fsync always)."""
    server = make_redis_server()
    service = make_service(server.url)
    async with grpc.aio.insecure_channel(service.target) as channel:
        yield server, service, Stub(channel)


async def _join(stub: Stub, game_id: str, seat: int, name: str) -> None:
    await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=seat,
                                                    display_name=name))


async def _read_until(call: Any, seq: int) -> list[int]:
    seqs = []
    while not seqs or seqs[-1] < seq:
        seqs.append((await asyncio.wait_for(call.read(), 10)).event.seq)
    return seqs


async def _stream_a_lost_join(stub: Stub, server: Any, tmp_path: Path, seed: int
                              ) -> tuple[Any, Any, int, int, Path]:
    """A spectator stream that has read a join the AOF copy taken before it does not hold:
    (game, the stream, the last seq the copy holds, the last seq the stream read, the copy)."""
    game = (await stub.CreateGame(create_request(seed=seed, players=3))).game
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game.game_id))
    await _read_until(call, game.last_seq)
    await _join(stub, game.game_id, 0, "kept")
    survived = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))
                ).game.last_seq
    await _read_until(call, survived)
    older = tmp_path / "older-aof"
    shutil.copytree(_aof(server.data_dir), older)
    await _join(stub, game.game_id, 1, "lost")
    lost = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game.last_seq
    assert lost > survived
    await _read_until(call, lost)
    return game, call, survived, lost, older


async def test_stream_that_saw_lost_events_ends_rolled_back(stub_on: Any, tmp_path: Path
                                                             ) -> None:
    """Redis restarted from an older AOF: a stream that had delivered the lost events ends
    ABORTED / GAME_ROLLED_BACK naming the last seq that survived, and a client resuming after
    a lost seq is told the same."""
    server, _service, stub = stub_on
    game, call, survived, lost, older = await _stream_a_lost_join(stub, server, tmp_path, 3)

    server.kill()
    shutil.rmtree(_aof(server.data_dir))
    shutil.copytree(older, _aof(server.data_dir))
    server.start()

    error = await asyncio.wait_for(rpc_error(call.read()), 20)
    assert error.code() == grpc.StatusCode.ABORTED
    info = error_info(error)
    assert (info.reason, info.metadata["last_seq"]) == ("GAME_ROLLED_BACK", str(survived))

    resumed = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game.game_id,
                                                                after_seq=lost))
    error = await asyncio.wait_for(rpc_error(resumed.read()), 20)
    assert error.code() == grpc.StatusCode.ABORTED
    info = error_info(error)
    assert (info.reason, info.metadata["last_seq"]) == ("GAME_ROLLED_BACK", str(survived))


async def test_stream_ends_when_the_older_state_has_moved_on_to_the_same_seq(
    stub_on: Any, make_redis_server: RedisServerFactory, make_service: ServiceFactory,
    tmp_path: Path,
) -> None:
    """The older state was written on before this process saw it again (a lagging replica
    that took over and served another process): the stream's last seq exists again but holds
    another event. The stream that delivered the lost one still ends GAME_ROLLED_BACK."""
    server, _service, stub = stub_on
    game, call, survived, lost, older = await _stream_a_lost_join(stub, server, tmp_path, 4)

    server.kill()
    # the other branch: another Redis and process, from the older state, commit the same seq
    other = make_redis_server()
    other.stop()
    shutil.rmtree(_aof(other.data_dir), ignore_errors=True)
    shutil.copytree(older, _aof(other.data_dir))
    other.start()
    writer = make_service(other.url)
    async with grpc.aio.insecure_channel(writer.target) as channel:
        await _join(Stub(channel), game.game_id, 2, "other branch")
        moved = (await Stub(channel).GetGame(service_pb2.GetGameRequest(
            game_id=game.game_id))).game.last_seq
    assert moved == lost
    writer.stop()
    other.stop()
    shutil.rmtree(_aof(server.data_dir))
    shutil.copytree(_aof(other.data_dir), _aof(server.data_dir))
    server.start()

    error = await asyncio.wait_for(rpc_error(call.read()), 20)
    assert error.code() == grpc.StatusCode.ABORTED
    info = error_info(error)
    assert (info.reason, info.metadata["last_seq"]) == ("GAME_ROLLED_BACK", str(survived))


BURST = 2_500  # streams opened at once: past gRPC's default backlog of calls not yet taken up


async def test_a_burst_of_streams_opened_at_once_is_served_whole(
    make_service: ServiceFactory, redis_client: redis.asyncio.Redis, many_descriptors: None,
) -> None:
    """2,500 StreamEvents opened at the same moment on one game each get the next event: none
    is cancelled unseen by gRPC's backlog of calls the service has not picked up yet."""
    service = make_service(**MANY_CLIENTS)
    channels = _channels(service.target, -(-BURST // STREAMS_PER_CHANNEL))
    calls: list[Any] = []
    try:
        stub = Stub(channels[0])
        game = (await stub.CreateGame(create_request(seed=5, players=3))).game
        # each after the last event but one, which is its backlog: once that has arrived,
        # the stream is subscribed and past its backlog, so the join reaches it live
        calls += [Stub(channels[i // STREAMS_PER_CHANNEL]).StreamEvents(
            service_pb2.StreamEventsRequest(game_id=game.game_id, after_seq=game.last_seq - 1))
            for i in range(BURST)]
        async with asyncio.timeout(TIMEOUT_S):
            backlog = await asyncio.gather(*(call.read() for call in calls),
                                           return_exceptions=True)
        failed = [r for r in backlog if isinstance(r, BaseException)]
        assert not failed, f"{len(failed)} of {BURST} streams failed, e.g. {failed[0]!r}"
        assert {m.event.seq for m in backlog} == {game.last_seq}
        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game.game_id, seat=0))
        async with asyncio.timeout(TIMEOUT_S):
            got = await asyncio.gather(*(call.read() for call in calls),
                                       return_exceptions=True)
        failed = [r for r in got if isinstance(r, BaseException)]
        assert not failed, f"{len(failed)} of {BURST} streams failed, e.g. {failed[0]!r}"
        assert {m.event.seq for m in got} == {game.last_seq + 1}
    finally:
        for call in calls:
            call.cancel()
        for channel in channels:
            await channel.close()


@dataclass
class _Seq:
    seq: int


class _Recorder:
    """A listener (feed.Listener) that keeps the seqs it takes, and is slow to take a sweep's
    events (about 100 us each: a few socket writes), so that a pass is long enough for reads
    to deliver more while it runs."""

    def __init__(self) -> None:
        self.got: list[int] = []

    def position(self) -> int:
        return self.got[-1] if self.got else 0

    def pushed(self, item: _Seq) -> bool:
        if item.seq > self.position():
            self.got.append(item.seq)
        return True

    def rolled_back(self, last_seq: int) -> None:
        raise AssertionError(f"rolled back to {last_seq}")

    def flush(self) -> None:
        pass

    def handed(self, items: Sequence[_Seq], shared: dict[Any, Any]) -> bool:
        until = time.perf_counter() + 100e-6
        while time.perf_counter() < until:
            pass
        for item in items:
            self.pushed(item)
        return True


async def test_a_sweep_over_many_listeners_loses_nothing_delivered_while_it_runs(
        redis_client: redis.asyncio.Redis, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A feed with more listeners than FLUSH_SLICE sweeps them; entries appended to the
    stream while passes are under way reach every listener once, in order, and the feed
    keeps none once all have them. (The slice is made small, so that a pass of 120 slow
    listeners yields to the reader a dozen times.)"""
    monkeypatch.setattr(feed_module, "FLUSH_SLICE", 10)
    hub = FeedHub(redis_client, Keys(), readers=1, block_ms=1000,
                  reader_client=partial(reader_client, redis_url, 1000))
    key, count, entries = "sweep-test", 120, 300
    subs = [await hub.follow("t:sweep", key, lambda seq, _fields: _Seq(seq), 1024, 0)
            for _ in range(count)]
    recorders = [_Recorder() for _ in subs]
    for sub, recorder in zip(subs, recorders, strict=True):
        assert sub.listen(recorder)
    feed = subs[0].feed

    def append() -> None:
        """From another thread and connection: the appends go on while a pass holds the
        loop, so reads land between its slices."""
        with redis.Redis.from_url(redis_url) as client:
            for seq in range(1, entries + 1):
                client.xadd(key, {b"n": str(seq).encode()}, id=f"0-{seq}")
                time.sleep(0.0005)

    try:
        await asyncio.to_thread(append)
        async with asyncio.timeout(TIMEOUT_S):
            while any(r.position() < entries for r in recorders):
                await asyncio.sleep(0.01)
        wrong = [r.got for r in recorders if r.got != list(range(1, entries + 1))]
        assert not wrong, (len(wrong), wrong[0][:20])
        async with asyncio.timeout(TIMEOUT_S):
            while feed.sweeper is not None:
                await asyncio.sleep(0.01)
        assert feed.pending == [] and feed.pending_seqs == []
    finally:
        await hub.close()
