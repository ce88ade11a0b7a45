"""StreamEvents against a whole bot game: late joiners and resumed seats get every event once.

The reference is the game rebuilt offline: the engine replays the logged actions from the seed
and each event is redacted for the viewer and encoded as the service would. A subscriber's
events must equal that list byte for byte (seq, version, payload; the commit time aside): no
gap, no duplicate, no event another viewer should not see.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
import redis.asyncio

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc
from risk_service.operations.streams import BACKLOG_PAGE
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import bearer, error_info, quiet_then_hang_up, rpc_error
from tests.conftest import RedisServerFactory
from tests.service.botplay import (
    FAST_OPTIONS,
    BotGame,
    create_game,
    expected_events,
    play,
    play_game,
    replay,
)
from tests.serving import module_service

Stub = service_pb2_grpc.RiskServiceStub

SEED = 0xC0FFEE8DED00002F  # 3 players: ~350 actions, ~700 events, two eliminations
LATE_JOIN_MOVES = 100  # the spectator subscribes once this many actions are in
CUT_SEQ = 250  # the seat subscriber hangs up after the first event at or past this seq
RESUME_MOVES = 200  # ... and comes back once this many actions are in
TIMEOUT_S = 30

# one service for the tests that need only a service (each plays games of its own)
service = module_service("service-stream")


@pytest.fixture
async def stub(service: ServiceProcess) -> AsyncIterator[Stub]:
    channel = grpc.aio.insecure_channel(service.target)
    yield service_pb2_grpc.RiskServiceStub(channel)
    await channel.close()


@dataclass
class Subscription:
    """What one StreamEvents call received, and how much of it arrived while the game ran."""

    events: list[game_pb2.Event] = field(default_factory=list)
    live: int = 0  # events of actions submitted after the call started, received mid-game


def _is_game_end(event: game_pb2.Event) -> bool:
    return event.classic.WhichOneof("kind") == "game_ended"


async def _subscribe(
    stub: Stub,
    game: BotGame,
    token: str | None,
    after_seq: int,
    stop: Callable[[game_pb2.Event], bool] = _is_game_end,
) -> Subscription:
    """Stream until `stop` says so, then hang up (cancel the call)."""
    call = stub.StreamEvents(
        service_pb2.StreamEventsRequest(game_id=game.game_id, after_seq=after_seq),
        metadata=bearer(token) if token else None,
    )
    # an action may be in flight while the call starts, so only later versions count as live
    started = game.version + 1
    got = Subscription()
    try:
        async for reply in call:
            got.events.append(reply.event)
            if game.outcome is None and reply.event.version > started:
                got.live += 1
            if stop(reply.event):
                break
    finally:
        call.cancel()
    return got


def assert_replayed(received: list[game_pb2.Event], game: BotGame, viewer: int | None) -> None:
    """`received` (a stream from seq 1) is exactly the replayed game as `viewer` may see it.

    The service's own lifecycle events (joins, start, clocks) share the seq space but have no
    engine counterpart: they are checked for order only, and each engine event's seq is
    checked after discounting them. Commit times are checked for order, not value.
    """
    seqs = [e.seq for e in received]
    assert seqs == list(range(1, len(received) + 1)), "a gap or a duplicate"
    times = [e.at_ms for e in received]
    assert times == sorted(times), "commit times go backwards"
    engine_events = []
    lifecycle = 0
    for event in received:
        if event.WhichOneof("variant") != "classic":
            lifecycle += 1
            continue
        bare = game_pb2.Event()
        bare.CopyFrom(event)
        bare.ClearField("at_ms")
        bare.seq -= lifecycle
        engine_events.append(bare.SerializeToString(deterministic=True))
    expected = [e.SerializeToString(deterministic=True) for e in expected_events(game, viewer)]
    assert engine_events == expected


async def test_late_and_resumed_subscribers_get_every_event_once(stub: Stub) -> None:
    """A late spectator and a seat that hangs up and resumes each get exactly the replayed log."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    seat = 1
    late_join = asyncio.Event()
    resume = asyncio.Event()
    cut_while_running: list[bool] = []

    async def after_action(g: BotGame) -> None:
        if g.moves == LATE_JOIN_MOVES:
            late_join.set()
        if g.moves == RESUME_MOVES:
            resume.set()

    async def spectator() -> Subscription:
        await late_join.wait()
        return await _subscribe(stub, game, None, after_seq=0)

    async def seat_subscriber() -> tuple[Subscription, Subscription]:
        first = await _subscribe(stub, game, game.seat_tokens[seat], after_seq=0,
                                 stop=lambda e: e.seq >= CUT_SEQ)
        cut_while_running.append(game.outcome is None)
        await resume.wait()
        second = await _subscribe(stub, game, game.seat_tokens[seat],
                                  after_seq=first.events[-1].seq)
        return first, second

    async with asyncio.timeout(TIMEOUT_S):
        watching = asyncio.gather(spectator(), seat_subscriber())
        await play(stub, game, after_action=after_action)
        spectated, (before_cut, after_cut) = await watching

    final_state, _items = replay(game)
    assert game.outcome is not None
    outcome = (game.outcome.winner, list(game.outcome.ranking), game.outcome.reason)
    assert outcome == (final_state.winner, list(final_state.ranking), final_state.end_reason)

    assert_replayed(spectated.events, game, None)
    assert spectated.live > 0, "the late spectator only ever saw backlog"

    assert before_cut.events[-1].seq == CUT_SEQ
    assert cut_while_running == [True], "the seat hung up only after the game had ended"
    assert after_cut.events[0].seq == CUT_SEQ + 1
    assert_replayed(before_cut.events + after_cut.events, game, seat)
    assert before_cut.live > 0 and after_cut.live > 0, "a seat phase never ran live"


async def test_unknown_game_stream_is_not_found(stub: Stub) -> None:
    """StreamEvents for a game that does not exist fails NOT_FOUND / GAME_NOT_FOUND."""
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id="0" * 22))
    error = await rpc_error(call.read())
    assert error.code() == grpc.StatusCode.NOT_FOUND
    assert error_info(error).reason == "GAME_NOT_FOUND"


async def test_stream_of_finished_game_replays_backlog_and_stays_open(stub: Stub) -> None:
    """After the game ended a stream still delivers the whole log, then waits, open."""
    game = await play_game(stub, 5, **{**FAST_OPTIONS, "max_turns": 3})
    for viewer in (None, 2):
        token = None if viewer is None else game.seat_tokens[viewer]
        call = stub.StreamEvents(
            service_pb2.StreamEventsRequest(game_id=game.game_id),
            metadata=bearer(token) if token else None,
        )
        async with asyncio.timeout(TIMEOUT_S):
            got = [(await call.read()).event for _ in range(game.last_seq)]
        assert_replayed(got, game, viewer)
        assert any(_is_game_end(e) for e in got)
        assert await quiet_then_hang_up(call), (
            "the stream closed (or sent more) after the last event")
        assert await call.code() == grpc.StatusCode.CANCELLED


async def test_a_long_backlog_arrives_whole_in_order_from_any_seq(stub: Stub) -> None:
    """A subscriber many pages behind (the backlog is read BACKLOG_PAGE events at a time) gets
    every event after its seq, once and in order, then waits for more."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    await play(stub, game)
    assert game.last_seq > 4 * BACKLOG_PAGE, "the game is too short to span several pages"
    # from the start, from a page boundary, and from just past one
    for viewer, after_seq in ((None, 0), (1, BACKLOG_PAGE), (None, 2 * BACKLOG_PAGE + 1)):
        token = None if viewer is None else game.seat_tokens[viewer]
        call = stub.StreamEvents(
            service_pb2.StreamEventsRequest(game_id=game.game_id, after_seq=after_seq),
            metadata=bearer(token) if token else None,
        )
        async with asyncio.timeout(TIMEOUT_S):
            got = [(await call.read()).event for _ in range(game.last_seq - after_seq)]
        assert [e.seq for e in got] == list(range(after_seq + 1, game.last_seq + 1))
        if after_seq == 0:
            assert_replayed(got, game, viewer)
        assert await quiet_then_hang_up(call), (
            "the stream closed (or sent more) after the last event")


async def test_spectators_joining_at_once_open_no_redis_connection_each(
        make_redis_server: RedisServerFactory, make_service: ServiceFactory) -> None:
    """200 spectators of a played game subscribe at once, each from seq 0: every one reads
    its backlog (the whole game) and the service reads them all over its shared connection,
    so Redis serves as many clients after the burst as before it (a pool grown by the burst
    would keep its connections open, idle, on both sides)."""
    # a fresh service on a Redis of its own: Redis counts the clients of every process on it
    # (the module's shared service among them), and a pool that earlier tests had grown would
    # hide one the burst grows
    server = make_redis_server(appendfsync="everysec")
    service = make_service(server.url)
    async with grpc.aio.insecure_channel(service.target) as channel, \
            redis.asyncio.Redis.from_url(server.url) as redis_client:
        stub = Stub(channel)
        game = await play_game(stub, 5, **{**FAST_OPTIONS, "max_turns": 3})
        first = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game.game_id))
        async with asyncio.timeout(TIMEOUT_S):
            await first.read()  # the game's feed (its reader's connection) is up
        before = (await redis_client.info("clients"))["connected_clients"]
        calls = [stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game.game_id))
                 for _ in range(200)]

        async def backlog(call: grpc.aio.UnaryStreamCall[Any, Any]) -> list[int]:
            return [(await call.read()).event.seq for _ in range(game.last_seq)]

        try:
            async with asyncio.timeout(TIMEOUT_S):
                got = await asyncio.gather(*(backlog(call) for call in calls))
        finally:
            for call in (first, *calls):
                call.cancel()
        assert all(seqs == list(range(1, game.last_seq + 1)) for seqs in got)
        after = (await redis_client.info("clients"))["connected_clients"]
        assert after <= before + 1, f"Redis clients {before} -> {after}"  # (+3 over the pool)
