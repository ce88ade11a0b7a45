"""StreamEvents with `max_batch`: the same events as one per message, fewer messages when behind.

Every stream here is read as raw bytes, so each batch is also checked against protobuf's own
encoding of the message it decodes to: the service assembles batches by concatenating cached
encodings, and a client must not be able to tell. Spectator delay, a reissued token, a stream
too far behind and a rolled-back store end a batching stream where they end a plain one.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc
from risk_rules import wire
from risk_rules.engine import REGISTRY, LegalAction, get_ruleset
from risk_service.operations.streams import BACKLOG_PAGE, MAX_BATCH
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import (
    bearer,
    classic_options,
    create_request,
    error_info,
    quiet_then_hang_up,
    rpc_error,
)
from tests.conftest import RedisServerFactory
from tests.reliability.canaries import DRIVERS
from tests.service.test_http import SERVICE, _connection, _game, envelope, parse, read_envelope
from tests.serving import module_service

Stub = service_pb2_grpc.RiskServiceStub
METHOD = "/risk.v1.RiskService/StreamEvents"
TIMEOUT_S = 30
ACTIONS = 120  # per variant: past the setup into play, where redacted events appear

# one service (with the HTTP port) for the tests that need only a service, each on games of
# its own; a test that needs other settings or its own Redis starts its own service
service = module_service("service-stream-batches", http=True)


class RawStream:
    """One StreamEvents call whose replies are read as the bytes the server sent."""

    def __init__(self, channel: grpc.aio.Channel, game_id: str, *, token: str | None = None,
                 after_seq: int = 0, max_batch: int = 0) -> None:
        call = channel.unary_stream(
            METHOD, request_serializer=service_pb2.StreamEventsRequest.SerializeToString,
            response_deserializer=None)
        self.max_batch = max_batch
        self.call: Any = call(
            service_pb2.StreamEventsRequest(game_id=game_id, after_seq=after_seq,
                                            max_batch=max_batch),
            metadata=bearer(token) if token else None)
        self.sizes: list[int] = []  # events per message received

    async def read(self) -> list[game_pb2.Event]:
        """The next message's events, after checking its form and its bytes."""
        data = await asyncio.wait_for(self.call.read(), TIMEOUT_S)
        assert data is not grpc.aio.EOF, "the stream ended without a status"
        reply = service_pb2.StreamEventsResponse.FromString(data)
        if self.max_batch <= 1:
            assert reply.HasField("event") and not reply.events
            events = [reply.event]
        else:
            assert not reply.HasField("event"), "a batching stream set `event`"
            assert 1 <= len(reply.events) <= min(self.max_batch, MAX_BATCH)
            events = list(reply.events)
        assert data == reply.SerializeToString(deterministic=True), (
            "the assembled bytes are not protobuf's encoding of the message")
        self.sizes.append(len(events))
        return events

    async def until(self, seq: int) -> list[game_pb2.Event]:
        """Events up to `seq` (which must end a message)."""
        events: list[game_pb2.Event] = []
        while not events or events[-1].seq < seq:
            events += await self.read()
        assert events[-1].seq == seq, "a message ran past the seq asked for"
        return events

    def cancel(self) -> None:
        self.call.cancel()


@pytest.fixture
async def channel(service: ServiceProcess) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(service.target) as channel:
        yield channel


async def _last_seq(stub: Stub, game_id: str, token: str | None = None) -> int:
    got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                             metadata=bearer(token) if token else None)
    return int(got.game.last_seq)


async def _step(stub: Stub, variant: str, game_id: str, tokens: list[str], move: int) -> bool:
    """One move by the deciding seat, chosen by the variant's bot; False once nobody decides."""
    rules = get_ruleset(variant)
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                               metadata=bearer(tokens[0]))).game
    if not game.decision.seats:
        return False
    auth = bearer(tokens[game.decision.seats[0]])
    board = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                metadata=auth)).board
    listed = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(game_id=game_id),
                                         metadata=auth)
    legal = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
             for e in listed.actions]
    view = wire.from_message(wire.view_from_proto(board)[1], rules.view_type)
    action = rules.bot_choose(view, legal, move * 0x9E3779B97F4A7C15 & (2**64 - 1))
    await stub.SubmitAction(service_pb2.SubmitActionRequest(
        game_id=game_id, action=wire.action_to_proto(variant, action),
        expected_version=listed.version, request_id=f"batch-{move}"), metadata=auth)
    return True


def _bytes(events: list[game_pb2.Event]) -> list[bytes]:
    return [e.SerializeToString(deterministic=True) for e in events]


@pytest.mark.parametrize("variant", sorted(REGISTRY))
async def test_batched_streams_carry_the_same_events_as_plain_ones(
    variant: str, channel: grpc.aio.Channel
) -> None:
    """Live during play and from seq 0 afterwards, as a spectator and as a seat, a stream
    with max_batch 64 (and 3) gets byte for byte the events of a stream without batching,
    in the same order; reading the finished game's backlog takes fewer messages."""
    stub = Stub(channel)
    driver = DRIVERS[variant]
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=driver.options(), seed=driver.seed, issue_seat_tokens=True))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    viewers = (None, tokens[0])
    live = {(token, size): RawStream(channel, game_id, token=token, max_batch=size)
            for token in viewers for size in (0, 64)}
    for move in range(ACTIONS):
        if not await _step(stub, variant, game_id, tokens, move):
            break
    for token in viewers:
        last = await _last_seq(stub, game_id, token)
        plain = await live[token, 0].until(last)
        batched = await live[token, 64].until(last)
        assert [e.seq for e in plain] == list(range(1, last + 1))
        assert _bytes(batched) == _bytes(plain)
        for size in (3, 64):
            backlog = RawStream(channel, game_id, token=token, max_batch=size)
            assert _bytes(await backlog.until(last)) == _bytes(plain)
            assert len(backlog.sizes) < len(plain) and max(backlog.sizes) == size
            assert await quiet_then_hang_up(backlog.call), "sent more than the game holds"
    for stream in live.values():
        stream.cancel()
    # the seat sees what the spectator does not (its hand), in batches too
    seat_events = _bytes(await RawStream(channel, game_id, token=tokens[0], max_batch=64)
                         .until(await _last_seq(stub, game_id, tokens[0])))
    spectator = _bytes(await RawStream(channel, game_id, max_batch=64)
                       .until(await _last_seq(stub, game_id)))
    assert len(seat_events) == len(spectator)
    if driver.redacts:
        assert seat_events != spectator, "the views never differed: redaction untested"


async def test_a_resumed_stream_gets_its_backlog_in_full_batches(
    channel: grpc.aio.Channel
) -> None:
    """Resuming a long game from seq 0, and from inside it, a batching stream gets every event
    once in order, in messages as full as asked for (capped at the server's MAX_BATCH, the
    store read BACKLOG_PAGE at a time), then waits."""
    stub = Stub(channel)
    variant = "classic"
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=DRIVERS[variant].options(), seed=DRIVERS[variant].seed,
        issue_seat_tokens=True))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    move = 0
    while await _last_seq(stub, game_id) <= 2 * BACKLOG_PAGE + 10:
        assert await _step(stub, variant, game_id, tokens, move)
        move += 1
    last = await _last_seq(stub, game_id)
    for after, asked in ((0, 50), (0, 2**32 - 1), (BACKLOG_PAGE - 3, 1000)):
        stream = RawStream(channel, game_id, after_seq=after, max_batch=asked)
        events = await stream.until(last)
        assert [e.seq for e in events] == list(range(after + 1, last + 1))
        size = min(asked, MAX_BATCH)
        # every message is full but the last of each store page (and of the backlog)
        pages = -(-(last - after) // BACKLOG_PAGE)
        assert sum(1 for n in stream.sizes if n < size) <= pages + 1
        assert max(stream.sizes) == size
        assert await quiet_then_hang_up(stream.call)


async def test_a_burst_arrives_batched_and_one_event_at_a_time_when_keeping_up(
    channel: grpc.aio.Channel
) -> None:
    """A live batching stream gets the several events of one commit (the last join starts
    the game: joined, started, the deal) in one message; with max_batch 0 or 1 every message
    still carries one event, in `event`."""
    stub = Stub(channel)
    game = (await stub.CreateGame(create_request(seed=5, players=3))).game
    streams = {size: RawStream(channel, game.game_id, max_batch=size) for size in (0, 1, 64)}
    for stream in streams.values():
        await stream.until(game.last_seq)
    for seat in range(3):
        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game.game_id, seat=seat))
    last = await _last_seq(stub, game.game_id)
    got = {size: _bytes(await stream.until(last)) for size, stream in streams.items()}
    assert got[0] == got[1] == got[64]
    assert set(streams[0].sizes) == set(streams[1].sizes) == {1}
    assert max(streams[64].sizes[1:]) > 1, "the start's events came one message each"
    for stream in streams.values():
        stream.cancel()


async def test_max_batch_of_the_wrong_type_is_invalid_argument_over_json(
    service: ServiceProcess
) -> None:
    """Over the HTTP port's JSON a negative, fractional or too large max_batch is
    INVALID_ARGUMENT, and the largest uint32 is taken (capped) like any other."""
    game_id, _tokens, _first = _game(service)
    for bad in (-1, 1.5, 2**32, "many"):
        conn = _connection(service)
        body = json.dumps({"gameId": game_id, "maxBatch": bad}).encode()
        conn.request("POST", SERVICE + "StreamEvents", envelope(body),
                     {"Content-Type": "application/connect+json"})
        reply = conn.getresponse()
        flags, data = read_envelope(reply)
        conn.close()
        assert flags & 0x02, f"{bad!r}: not an end-of-stream"
        assert json.loads(data)["error"]["code"] == "invalid_argument", bad
    conn = _connection(service)
    body = json.dumps({"gameId": game_id, "maxBatch": 2**32 - 1}).encode()
    conn.request("POST", SERVICE + "StreamEvents", envelope(body),
                 {"Content-Type": "application/connect+json"})
    reply = conn.getresponse()
    flags, data = read_envelope(reply)
    conn.close()
    assert flags == 0
    batch = parse(service_pb2.StreamEventsResponse, json.loads(data))
    assert not batch.HasField("event") and batch.events[0].seq == 1


def test_http_port_streams_batches_as_connect_json_and_grpc_web(
    service: ServiceProcess
) -> None:
    """Connect JSON and gRPC-Web binary server streams carry a batch per message, the same
    events gRPC sends one at a time."""
    game_id, _tokens, _first = _game(service)
    with grpc.insecure_channel(service.target) as sync_channel:
        sync = service_pb2_grpc.RiskServiceStub(sync_channel)
        last = sync.GetGame(service_pb2.GetGameRequest(game_id=game_id)).game.last_seq
        call = sync.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id))
        expected = [next(call).event for _ in range(last)]
        call.cancel()
    assert last > 2
    for content_type, encode, decode in (
        ("application/connect+json",
         lambda r: json_format.MessageToJson(r).encode(),
         lambda d: parse(service_pb2.StreamEventsResponse, json.loads(d))),
        ("application/grpc-web+proto", lambda r: r.SerializeToString(),
         service_pb2.StreamEventsResponse.FromString),
    ):
        request = service_pb2.StreamEventsRequest(game_id=game_id, max_batch=64)
        conn = _connection(service)
        conn.request("POST", SERVICE + "StreamEvents", envelope(encode(request)),
                     {"Content-Type": content_type})
        reply = conn.getresponse()
        assert reply.status == 200
        events: list[game_pb2.Event] = []
        messages = 0
        while len(events) < last:
            flags, data = read_envelope(reply)
            assert flags == 0, data
            batch = decode(data)
            assert not batch.HasField("event")
            events += batch.events
            messages += 1
        conn.close()
        assert events == expected, content_type
        assert messages < last, content_type


# ---- where a batching stream ends -----------------------------------------------------


async def test_batching_spectator_of_a_delayed_game_is_held_back_the_same(
    channel: grpc.aio.Channel
) -> None:
    """With spectator_delay_events 5 a batching spectator, live and joining late, never gets
    any of the newest five events; every earlier one arrives, once, in order."""
    stub = Stub(channel)
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=classic_options(players=3, auto_defend_max_dice=True), seed=17,
        issue_seat_tokens=True, spectator_delay_events=5))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    live = RawStream(channel, game_id, max_batch=64)
    received: list[int] = []

    async def watch() -> None:
        while True:
            received.extend(e.seq for e in await live.read())

    watcher = asyncio.create_task(watch())
    for move in range(40):
        await _step(stub, "classic", game_id, tokens, move)
        await asyncio.sleep(0.01)
    newest = await _last_seq(stub, game_id, tokens[0])
    await asyncio.sleep(0.3)
    watcher.cancel()
    live.cancel()
    assert received == list(range(1, len(received) + 1))
    assert received and received[-1] <= newest - 5
    late = RawStream(channel, game_id, max_batch=64)
    assert [e.seq for e in await late.until(newest - 5)] == list(range(1, newest - 4))
    assert await quiet_then_hang_up(late.call), "an event among the newest five was let through"


async def test_batching_stream_with_a_reissued_token_ends_at_the_reissue(
    channel: grpc.aio.Channel
) -> None:
    """A batching seat stream gets the reissue of its token, then nothing more (though the
    moves right after it may be due in the same batch), and ends UNAUTHENTICATED /
    CREDENTIALS_REVOKED."""
    stub = Stub(channel)
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=classic_options(players=3), seed=6, issue_seat_tokens=True))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    for move in range(3):
        await _step(stub, "classic", game_id, tokens, move)
    stream = RawStream(channel, game_id, token=tokens[0], max_batch=64)
    await stream.until(await _last_seq(stub, game_id))
    tokens[0] = (await stub.ReissueSeatToken(
        service_pb2.ReissueSeatTokenRequest(game_id=game_id, seat=0),
        metadata=bearer(created.host_token))).seat_token
    for move in range(3, 9):
        await _step(stub, "classic", game_id, tokens, move)
    received: list[game_pb2.Event] = []
    with pytest.raises(grpc.aio.AioRpcError) as ended:
        while True:
            received += await stream.read()
    assert ended.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert error_info(ended.value).reason == "CREDENTIALS_REVOKED"
    assert [e.lifecycle.WhichOneof("kind") for e in received] == ["seat_token_reissued"]


async def test_stalled_batching_stream_is_cut_off_and_resumes(
    make_service: ServiceFactory
) -> None:
    """A batching stream that stops reading ends RESOURCE_EXHAUSTED / SUBSCRIBER_TOO_SLOW
    with the last seq it was sent; resumed after it (batching again) it gets the rest."""
    service = make_service(RISK_SUBSCRIBER_BUFFER="16",
                           RISK_KEY_PREFIX="service-stream-batches-stalled")
    # its own connection without window growth, so that the server meets back-pressure soon
    slow = grpc.aio.insecure_channel(service.target, options=[
        ("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 1024)])
    async with grpc.aio.insecure_channel(service.target) as channel, slow:
        stub = Stub(channel)
        created = await stub.CreateGame(service_pb2.CreateGameRequest(
            options=classic_options(players=3, setup=2, auto_place=True,
                                    auto_defend_max_dice=True),
            seed=21, issue_seat_tokens=True))
        game_id, tokens = created.game.game_id, list(created.seat_tokens)
        stalled = RawStream(slow, game_id, max_batch=8)
        got = [e.seq for e in await stalled.read()]  # registered; then not read during play
        for move in range(400):
            if not await _step(stub, "classic", game_id, tokens, move):
                break
        last = await _last_seq(stub, game_id)
        with pytest.raises(grpc.aio.AioRpcError) as ended:
            while True:
                got += [e.seq for e in await stalled.read()]
        assert ended.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        info = error_info(ended.value)
        assert info.reason == "SUBSCRIBER_TOO_SLOW"
        resume_after = int(info.metadata["last_seq"])
        assert got == list(range(1, len(got) + 1)) and resume_after == got[-1] < last
        resumed = RawStream(slow, game_id, after_seq=resume_after, max_batch=8)
        rest = [e.seq for e in await resumed.until(last)]
        resumed.cancel()
        assert got + rest == list(range(1, last + 1))


async def test_batching_stream_that_saw_lost_events_ends_rolled_back(
    make_redis_server: RedisServerFactory, make_service: ServiceFactory, tmp_path: Path
) -> None:
    """Redis restarted from an older AOF: a batching stream that was sent the lost events ends
    ABORTED / GAME_ROLLED_BACK naming the last seq that survived; resuming with batching past
    it is told the same. Once the game goes on with other events at the lost seqs, new
    streams, batching or not, get those, never the lost ones the process encoded before."""
    server = make_redis_server()
    service = make_service(server.url)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        game = (await stub.CreateGame(create_request(seed=3, players=3))).game
        stream = RawStream(channel, game.game_id, max_batch=64)
        await stream.until(game.last_seq)
        plain = RawStream(channel, game.game_id)
        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game.game_id, seat=0))
        survived = await _last_seq(stub, game.game_id)
        await stream.until(survived)
        older = tmp_path / "older-aof"
        shutil.copytree(server.data_dir / "appendonlydir", older)
        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game.game_id, seat=1))
        lost = await _last_seq(stub, game.game_id)
        await stream.until(lost)
        await plain.until(lost)
        plain.cancel()

        server.kill()
        shutil.rmtree(server.data_dir / "appendonlydir")
        shutil.copytree(older, server.data_dir / "appendonlydir")
        server.start()

        error = await asyncio.wait_for(rpc_error(stream.read()), 20)
        assert error.code() == grpc.StatusCode.ABORTED
        info = error_info(error)
        assert (info.reason, info.metadata["last_seq"]) == ("GAME_ROLLED_BACK", str(survived))
        resumed = RawStream(channel, game.game_id, after_seq=lost, max_batch=64)
        error = await asyncio.wait_for(rpc_error(resumed.read()), 20)
        assert error.code() == grpc.StatusCode.ABORTED
        assert error_info(error).metadata["last_seq"] == str(survived)

        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game.game_id, seat=2,
                                                        display_name="other branch"))
        assert await _last_seq(stub, game.game_id) >= lost
        for size in (0, 64):
            fresh = RawStream(channel, game.game_id, max_batch=size)
            joins = [e.lifecycle.seat_joined for e in await fresh.until(lost)
                     if e.lifecycle.WhichOneof("kind") == "seat_joined"]
            fresh.cancel()
            assert [j.seat for j in joins] == [0, 2], f"max_batch {size}: the lost join came back"
