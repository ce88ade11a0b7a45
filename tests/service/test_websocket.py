"""StreamEvents and Session over WebSocket on the HTTP port of a real service process: the
same messages as gRPC's, whole games played through seat sockets, refusals told by close code
and Connect's error JSON, handshakes refused, and clients that leave or a service that stops
leaving nothing open. The client (risk_testing.wsclient) speaks RFC 6455 itself."""

from __future__ import annotations

import asyncio
import base64
import gc
import json
import shutil
import ssl
import struct
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.protocol import Protocol

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc, session_pb2
from risk_service.feed import FLUSH_SLICE
from risk_service.redis_server import free_port
from risk_service.server.calls import Chain
from risk_service.server.http_port import ConnectionGuard, HttpPort
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import bearer, create_request
from risk_testing.wsclient import (
    BINARY,
    CLOSE,
    PING,
    PONG,
    TEXT,
    Refused,
    WebSocket,
    client_frame,
)
from tests.conftest import RedisServerFactory
from tests.service.botplay import FAST_OPTIONS, create_game
from tests.service.test_http_protocols import _self_signed
from tests.service.test_operations import Scraper
from tests.service.test_session import (
    SEED,
    TIMEOUT_S,
    Refusal,
    SessionClient,
    _play,
    _unary_refusal,
    assert_acks_are_stored_replies,
)
from tests.service.test_slow_subscriber import _play as play_moves
from tests.service.test_stream import assert_replayed
from tests.serving import LogMark, module_service

Stub = service_pb2_grpc.RiskServiceStub
STREAM = "/risk.v1.RiskService/StreamEvents"
SESSION = "/risk.v1.RiskService/Session"
ORIGIN = "https://play.example"

# one service for the tests that need only a service with these settings, each on games of
# its own, reading only the log lines of its own games written after it began; a test that
# stops the service, counts its metrics or needs other settings starts its own
web = module_service("service-websocket", http=True, RISK_HTTP_CORS_ORIGINS=ORIGIN,
                     RISK_MAX_MESSAGE_BYTES="4096")


@pytest.fixture
async def stub(web: ServiceProcess) -> AsyncIterator[Stub]:
    async with grpc.aio.insecure_channel(web.target) as channel:
        yield service_pb2_grpc.RiskServiceStub(channel)


async def connect(service: ServiceProcess, path: str, token: str | None = None,
                  **options: Any) -> WebSocket:
    return await WebSocket.connect("127.0.0.1", service.http_port, path, token=token, **options)


@dataclass
class Ended:
    """How a WebSocket call ended: its close code and reason, and the error JSON before it."""

    code: int
    reason: str
    error: dict[str, Any] | None

    @property
    def info(self) -> error_details_pb2.ErrorInfo:
        assert self.error is not None
        (detail,) = self.error["details"]
        value = detail["value"]
        return error_details_pb2.ErrorInfo.FromString(
            base64.b64decode(value + "=" * (-len(value) % 4)))


async def read_to_end(ws: WebSocket) -> tuple[list[bytes], Ended]:
    """Every binary message until the close, and how the call ended."""
    messages, error = [], None
    async with asyncio.timeout(TIMEOUT_S):
        while True:
            message = await ws.receive()
            if message.opcode == BINARY:
                messages.append(message.data)
            elif message.opcode == TEXT:
                error = json.loads(message.data)
            else:
                assert message.opcode == CLOSE
                ws.writer.close()
                return messages, Ended(message.close_code, message.close_reason, error)


@dataclass
class WsSession(SessionClient):
    """A seat's Session over a WebSocket."""

    ws: WebSocket
    seen: list[game_pb2.Event] = field(default_factory=list)
    answers: asyncio.Queue[session_pb2.SessionResponse] = field(default_factory=asyncio.Queue)
    ended: asyncio.Future[Ended] | None = None

    @classmethod
    async def open(cls, service: ServiceProcess, game_id: str, token: str | None,
                   *, acks_only: bool = False) -> WsSession:
        session = cls(await connect(service, SESSION, token))
        session.ended = asyncio.get_running_loop().create_future()
        session.ws.send(session_pb2.SessionRequest(open=session_pb2.SessionOpen(
            game_id=game_id, acks_only=acks_only)).SerializeToString())
        asyncio.create_task(session._read())  # noqa: RUF006 - ends with the socket
        return session

    async def _read(self) -> None:
        assert self.ended is not None
        error = None
        while True:
            try:
                message = await self.ws.receive()
            except (OSError, asyncio.IncompleteReadError):
                self.ended.set_result(Ended(1006, "", error))  # dropped without a close
                return
            if message.opcode == TEXT:
                error = json.loads(message.data)
                continue
            if message.opcode == CLOSE:
                self.ended.set_result(Ended(message.close_code, message.close_reason, error))
                return
            reply = session_pb2.SessionResponse.FromString(message.data)
            kind = reply.WhichOneof("kind")
            if kind == "event":
                self.seen.append(reply.event)
                continue
            if kind == "ack":
                self.seen.extend(service_pb2.SubmitActionResponse.FromString(
                    reply.ack.submitted).events)
            self.answers.put_nowait(reply)

    async def send(self, request: session_pb2.SessionRequest) -> None:
        self.ws.send(request.SerializeToString())

    async def close(self) -> Ended:
        """Close as a client does once it has its answers; the server's close answers it."""
        assert self.ended is not None
        self.ws.send(struct.pack("!H", 1000), CLOSE)
        ended = await asyncio.wait_for(self.ended, TIMEOUT_S)
        self.ws.writer.close()
        return ended


async def test_a_game_through_websocket_sessions_and_a_websocket_spectator(
        web: ServiceProcess, stub: Stub) -> None:
    """Three seats play a whole game on WebSocket sessions while the others submit the same
    move at once: each seat saw exactly its events in seq order, each ack is the unary call's
    stored reply, a WebSocket spectator saw the public events; closing ends each call
    cleanly, and each call and each action has its log line."""
    mark = LogMark(web)
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    sessions = [await WsSession.open(web, game.game_id, token) for token in game.seat_tokens]
    spectator = await connect(web, STREAM, subprotocols=("risk.v1",))
    assert spectator.headers["sec-websocket-protocol"] == "risk.v1"
    spectator.send(service_pb2.StreamEventsRequest(game_id=game.game_id).SerializeToString())
    acks = await _play(stub, game, sessions, rivals=True)
    final = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game
    for seat, session in enumerate(sessions):
        await session.until_seq(final.last_seq)
        assert_replayed(session.seen, game, seat)
    seen: list[game_pb2.Event] = []
    while not seen or seen[-1].seq < final.last_seq:
        message = await asyncio.wait_for(spectator.receive(), TIMEOUT_S)
        assert message.opcode == BINARY
        seen.append(service_pb2.StreamEventsResponse.FromString(message.data).event)
    assert_replayed(seen, game, None)
    await assert_acks_are_stored_replies(stub, game, acks)
    for session in sessions:
        assert (await session.close()).code == 1000
    await spectator.close()
    # (this game's lines: another test's calls may still be logging their ends)
    lines = await _lines(mark, game.game_id, lambda line: line.get("protocol") == "websocket",
                         4)
    assert sorted(line["method"] for line in lines) == [SESSION] * 3 + [STREAM]
    acted = [line for line in mark.lines() if line.get("game_id") == game.game_id
             and line.get("method") == f"{SESSION}/SubmitAction"]
    assert sum(line["code"] == "OK" for line in acted) == len(acks)


async def test_a_session_closed_after_its_answers_is_logged_ok(
        web: ServiceProcess, stub: Stub) -> None:
    """A WebSocket session its client closes after its answers is logged OK (docs/api.md)."""
    mark = LogMark(web)
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    sessions = [await WsSession.open(web, game.game_id, token) for token in game.seat_tokens]
    acks = await _play(stub, game, sessions, moves=6)
    assert len(acks) == 6
    for session in sessions:
        assert (await session.close()).code == 1000
    lines = await _lines(mark, game.game_id, lambda line: line.get("method") == SESSION,
                         len(sessions))
    assert [(line["code"], line["game_id"]) for line in lines] == [
        ("OK", game.game_id)] * len(sessions)


async def _lines(mark: LogMark, game_id: str, keep: Any,
                 count: int) -> list[dict[str, Any]]:
    """The call log lines of `game_id` since `mark` that `keep` keeps, once there are
    `count` (or the time is up)."""
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        lines = [line for line in mark.lines() if line.get("event") == "rpc"
                 and line.get("game_id") == game_id and keep(line)]
        if len(lines) >= count or time.monotonic() > deadline:
            return lines
        await asyncio.sleep(0.05)


async def test_a_websocket_stream_sends_the_grpc_streams_bytes(
        web: ServiceProcess, stub: Stub) -> None:
    """StreamEvents over a WebSocket, resumed after a seq, for a seat and for a spectator:
    each binary message is byte for byte the message gRPC's StreamEvents sends."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    sessions = [await WsSession.open(web, game.game_id, token) for token in game.seat_tokens]
    await _play(stub, game, sessions, moves=12)
    last = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game.last_seq
    after = 2
    async with grpc.aio.insecure_channel(web.target) as channel:
        raw = channel.unary_stream(STREAM, request_serializer=lambda m: m.SerializeToString(),
                                   response_deserializer=lambda data: data)
        for token in (None, game.seat_tokens[1]):
            request = service_pb2.StreamEventsRequest(game_id=game.game_id, after_seq=after)
            call = raw(request, metadata=bearer(token) if token else None)
            over_grpc = [await call.read() for _ in range(last - after)]
            call.cancel()
            ws = await connect(web, STREAM, token)
            ws.send(request.SerializeToString())
            over_ws = [(await asyncio.wait_for(ws.receive(), TIMEOUT_S)).data
                       for _ in range(last - after)]
            await ws.close()
            assert over_ws == over_grpc


async def test_refusals_end_the_call_with_their_status_as_on_grpc(
        web: ServiceProcess, stub: Stub) -> None:
    """An unknown game, a token of no seat, a first message that is no request, and a second
    message on a stream each end the call with Connect's error JSON (the ErrorInfo gRPC
    gives) and close code 4000 + the gRPC code, the reason as the close reason; a refused
    action on a session is a SessionError with the unary call's status, and the session
    goes on."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    cases: list[tuple[str | None, bytes, int, str]] = [
        (None, service_pb2.StreamEventsRequest(game_id="0123456789abcdef").SerializeToString(),
         5, "GAME_NOT_FOUND"),
        ("not-a-token", service_pb2.StreamEventsRequest(game_id=game.game_id)
         .SerializeToString(), 16, "BAD_CREDENTIALS"),
        (None, b"\xff\xff\xff", 3, "MALFORMED_REQUEST"),
    ]
    for token, first, code, reason in cases:
        ws = await connect(web, STREAM, token)
        ws.send(first)
        messages, ended = await read_to_end(ws)
        assert (messages, ended.code, ended.reason, ended.info.reason) == (
            [], 4000 + code, reason, reason)
        assert ended.error is not None and ended.error["message"] == ended.info.metadata[
            "message"]
        unary = await _grpc_refusal(web, first, token)
        assert (unary.code, unary.reason, unary.message) == (
            code, reason, ended.error["message"])
    ws = await connect(web, STREAM)
    ws.send(service_pb2.StreamEventsRequest(game_id=game.game_id).SerializeToString())
    ws.send(service_pb2.StreamEventsRequest(game_id=game.game_id).SerializeToString())
    _messages, ended = await read_to_end(ws)
    assert (ended.code, ended.info.reason) == (4003, "MALFORMED_REQUEST")

    session = await WsSession.open(web, game.game_id, game.seat_tokens[0])
    version = game.version
    request = service_pb2.SubmitActionRequest(
        game_id=game.game_id, action=game_pb2.Action(), expected_version=version)
    answer = await session.submit(game_pb2.Action(), version)
    assert answer.WhichOneof("kind") == "error"
    unary = await _unary_refusal(stub, request, game.seat_tokens[0])
    assert Refusal.of_status(answer.error.status) == unary
    answer = await session.submit(game_pb2.Action(), version + 5)  # still open: answered
    assert answer.WhichOneof("kind") == "error"
    await session.close()


async def _grpc_refusal(service: ServiceProcess, first: bytes, token: str | None) -> Refusal:
    """How gRPC's StreamEvents refuses the same request bytes."""
    async with grpc.aio.insecure_channel(service.target) as channel:
        raw = channel.unary_stream(STREAM, request_serializer=lambda data: data,
                                   response_deserializer=lambda data: data)
        call = raw(first, metadata=bearer(token) if token else None)
        try:
            await call.read()
        except grpc.aio.AioRpcError as error:
            return Refusal.of_call(error)
    raise AssertionError("the gRPC stream was not refused")


async def test_protocol_errors_close_the_socket_with_the_rfcs_codes(
        web: ServiceProcess, stub: Stub) -> None:
    """A text message closes with 1003, an unmasked frame or a fragment out of place with
    1002, a message over RISK_MAX_MESSAGE_BYTES (4096 here) with 1009; a ping is answered
    with its pong, and a message in fragments is read whole."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    for bad, code in ((client_frame(TEXT, b"{}"), 1003),
                      (client_frame(BINARY, b"\x0a\x01x", masked=False), 1002),
                      (client_frame(0x0, b"x"), 1002),
                      (client_frame(BINARY, b"x", rsv=0x40), 1002),
                      (client_frame(BINARY, b"\x00" * 5000), 1009)):
        ws = await connect(web, STREAM)
        ws.send_raw(bad)
        _messages, ended = await read_to_end(ws)
        assert ended.code == code, bad[:4]
    ws = await connect(web, STREAM)
    ws.send_raw(client_frame(0x9, b"hello"))
    pong = await asyncio.wait_for(ws.reader.readexactly(7), TIMEOUT_S)
    assert pong == b"\x8a\x05hello"
    request = service_pb2.StreamEventsRequest(game_id=game.game_id).SerializeToString()
    ws.send_raw(client_frame(BINARY, request[:5], fin=False))
    ws.send_raw(client_frame(0x0, request[5:]))
    message = await asyncio.wait_for(ws.receive(), TIMEOUT_S)
    assert service_pb2.StreamEventsResponse.FromString(message.data).event.seq == 1
    await ws.close()


async def test_handshakes_that_are_refused_and_accepted(web: ServiceProcess,
                                                        stub: Stub) -> None:
    """Another path is 404, another page's origin 403 (ORIGIN_NOT_ALLOWED), subprotocols
    without risk.v1 400, another protocol version 426; a listed origin and the service's own
    are accepted, and a browser's token in the `bearer.<token>` subprotocol acts for its seat
    while the server answers `risk.v1` alone."""
    refusals = [
        ({"path": "/risk.v1.RiskService/GetGame"}, 404, "METHOD_NOT_AVAILABLE"),
        ({"origin": "https://evil.example"}, 403, "ORIGIN_NOT_ALLOWED"),
        ({"subprotocols": ("chat",)}, 400, "MALFORMED_REQUEST"),
        ({"extra": (("Authorization", "Bearer a"),), "subprotocols": ("risk.v1", "bearer.b")},
         400, "MALFORMED_REQUEST"),
    ]
    for options, status, reason in refusals:
        path = options.pop("path", STREAM)
        with pytest.raises(Refused) as refused:
            await WebSocket.connect("127.0.0.1", web.http_port, path, **options)
        assert refused.value.status == status
        body = json.loads(refused.value.body)
        (detail,) = body["details"]
        assert detail["debug"]["reason"] == reason
    with pytest.raises(Refused) as refused:
        await WebSocket.connect("127.0.0.1", web.http_port, STREAM, version="8")
    assert refused.value.status == 426
    assert refused.value.headers["sec-websocket-version"] == "13"
    for origin in (ORIGIN, f"http://127.0.0.1:{web.http_port}"):
        ws = await connect(web, STREAM, origin=origin)
        await ws.close()
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    seat = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game \
        .decision.seats[0]
    token = game.seat_tokens[seat]
    ws = await connect(web, SESSION, subprotocols=("risk.v1", f"bearer.{token}"),
                       origin=ORIGIN)
    assert ws.headers["sec-websocket-protocol"] == "risk.v1"
    session = WsSession(ws, ended=asyncio.get_running_loop().create_future())
    ws.send(session_pb2.SessionRequest(open=session_pb2.SessionOpen(
        game_id=game.game_id, acks_only=True)).SerializeToString())
    reader = asyncio.create_task(session._read())
    answer = await session.submit(game_pb2.Action(), game.version)
    # refused by the rules, not for its credentials: the token reached the seat
    assert answer.WhichOneof("kind") == "error"
    assert Refusal.of_status(answer.error.status).reason not in (
        "BAD_CREDENTIALS", "MISSING_CREDENTIALS")
    await session.close()
    await reader


async def test_ambiguous_upgrades_are_refused(web: ServiceProcess) -> None:
    """An upgrade with two Sec-WebSocket-Key headers, or two Origin headers (the first one
    allowed, the second not), is refused 400 MALFORMED_REQUEST rather than read by its first
    header (RFC 6455 4.2.1, 10.2)."""
    key = base64.b64encode(b"k" * 16).decode()
    own = f"http://127.0.0.1:{web.http_port}"
    for extra in ((("Sec-WebSocket-Key", key),),
                  (("Origin", own), ("Origin", "https://evil.example"))):
        with pytest.raises(Refused) as refused:
            await WebSocket.connect("127.0.0.1", web.http_port, STREAM, extra=extra)
        assert refused.value.status == 400, extra
        (detail,) = json.loads(refused.value.body)["details"]
        assert detail["debug"]["reason"] == "MALFORMED_REQUEST"


async def test_a_close_inside_a_fragmented_message_is_a_protocol_error(
        web: ServiceProcess, stub: Stub) -> None:
    """A client that closes between the fragments of a message, leaving it unfinished, is
    answered 1002 (RFC 6455 5.4: a message's fragments are not interleaved with its end);
    a spectator that has its backlog still has its pings answered, and its close after a
    whole message is answered 1000."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    request = service_pb2.StreamEventsRequest(game_id=game.game_id).SerializeToString()
    ws = await connect(web, STREAM)
    ws.send_raw(client_frame(BINARY, request[:3], fin=False))
    ws.send_raw(client_frame(CLOSE, struct.pack("!H", 1000)))
    _messages, ended = await read_to_end(ws)
    assert ended.code == 1002
    ws = await connect(web, STREAM)
    ws.send_raw(client_frame(BINARY, request[:3], fin=False))
    ws.send_raw(client_frame(0x0, request[3:]))
    assert service_pb2.StreamEventsResponse.FromString(
        (await asyncio.wait_for(ws.receive(), TIMEOUT_S)).data).event.seq == 1
    ws.send_raw(client_frame(PING, b"still there"))
    async with asyncio.timeout(TIMEOUT_S):
        while (message := await ws.receive(pongs=True)).opcode != PONG:
            assert message.opcode == BINARY
    assert message.data == b"still there"
    ws.send_raw(client_frame(CLOSE, struct.pack("!H", 1000)))
    _messages, ended = await read_to_end(ws)
    assert ended.code == 1000


async def test_clients_that_leave_and_a_stopping_service_leave_nothing_open(
        make_service: ServiceFactory) -> None:
    """Streams whose clients drop the connection release their subscriptions
    (risk_subscribers back to 0) and log CANCELLED; a service stopping with sockets open
    closes them with 1001 and exits within its grace period."""
    port = free_port()
    service = make_service(http=True, RISK_METRICS_PORT=str(port),
                           RISK_KEY_PREFIX="service-websocket-stop")
    scraper = Scraper(port)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game = await create_game(stub, SEED, **FAST_OPTIONS)
    request = service_pb2.StreamEventsRequest(game_id=game.game_id).SerializeToString()

    async def watching() -> WebSocket:
        ws = await connect(service, STREAM)
        ws.send(request)
        await asyncio.wait_for(ws.receive(), TIMEOUT_S)
        return ws

    sockets = [await watching() for _ in range(3)]
    assert await scraper.value("risk_subscribers") == 3
    for ws in sockets:
        ws.writer.transport.abort()
    await scraper.until("risk_subscribers", lambda v: v == 0)
    sockets = [await watching() for _ in range(3)]
    started = time.monotonic()
    assert await asyncio.to_thread(service.stop) == 0
    assert time.monotonic() - started < 10
    for ws in sockets:
        _messages, ended = await read_to_end(ws)
        assert ended.code == 1001
    lines = [json.loads(line) for line in service.logs().splitlines() if line.startswith("{")]
    dropped = [line for line in lines if line.get("method") == STREAM
               and line.get("protocol") == "websocket"]
    assert sum(line["code"] == "CANCELLED" for line in dropped) >= 3


async def test_an_upgrade_leaves_no_http_protocol_for_the_collector() -> None:
    """Neither uvicorn's HTTP protocol object, the port's guard around it nor the websockets
    library's handshake protocol outlives an upgraded connection's hand-over (an upgraded
    connection never calls their connection_lost): a burst of spectators' handshakes leaves
    nothing waiting for the collector (which the service runs rarely) and the memory is
    reused at once. (The port's own objects suffice: every upgrade is refused here.)"""
    port = HttpPort({}, Chain(), max_message_bytes=65536, origins=frozenset())
    bound = await port.start("127.0.0.1:0", grace_s=1)
    assert port.server is not None
    http_protocols = (HttpToolsProtocol, ConnectionGuard, Protocol)
    gc.collect()
    gc.disable()
    try:
        for _ in range(10):
            reader, writer = await asyncio.open_connection("127.0.0.1", bound)
            writer.write(b"GET /risk.v1.RiskService/StreamEvents HTTP/1.1\r\nHost: x\r\n"
                         b"Upgrade: websocket\r\nConnection: Upgrade\r\n"
                         b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         b"Sec-WebSocket-Version: 8\r\n\r\n")
            assert (await reader.readline()).startswith(b"HTTP/1.1 426 ")
            writer.close()
            await writer.wait_closed()
        await asyncio.sleep(0.1)
        left = [o for o in gc.get_objects() if isinstance(o, http_protocols)]
        assert left == []
    finally:
        gc.enable()
        await port.stop()


def test_frames_written_by_hand_are_the_librarys() -> None:
    """The frames the service writes itself (a delivered event, an error, its close) are the
    bytes the websockets library would write, at each length encoding (RFC 6455 5.2)."""
    from websockets.frames import Close, Frame, Opcode  # noqa: PLC0415

    from risk_service.server.websocket import close_payload, frame  # noqa: PLC0415

    for size in (0, 5, 125, 126, 300, 65535, 65536, 70000):
        payload = bytes(range(256)) * (size // 256) + bytes(size % 256)
        assert frame(BINARY, payload) == Frame(Opcode.BINARY, payload).serialize(mask=False)
        assert frame(TEXT, payload) == Frame(Opcode.TEXT, payload).serialize(mask=False)
    assert frame(BINARY, b"Hello") == b"\x82\x05Hello"
    for code, reason in ((1000, ""), (4008, "SUBSCRIBER_TOO_SLOW"), (1001, "x" * 200)):
        expected = Close(code, reason.encode()[:123].decode()).serialize()
        assert close_payload(code, reason) == expected


async def test_a_session_flooded_with_actions_answers_every_one_in_order(
        web: ServiceProcess, stub: Stub) -> None:
    """A client that sends 300 actions without reading (the socket stops reading past a bound,
    as a gRPC stream's window does) still gets an answer to each, in the order sent, and the
    game moves once: only the action at the current version is taken."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    seat = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game \
        .decision.seats[0]
    listed = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(
        game_id=game.game_id), metadata=bearer(game.seat_tokens[seat]))
    session = await WsSession.open(web, game.game_id, game.seat_tokens[seat], acks_only=True)
    for n in range(300):
        session.ws.send(session_pb2.SessionRequest(submit=session_pb2.SessionAction(
            action=listed.actions[0].action, expected_version=game.version,
            request_id=f"flood-{n}")).SerializeToString())
    answers = [await asyncio.wait_for(session.answers.get(), TIMEOUT_S) for _ in range(300)]
    kinds = [answer.WhichOneof("kind") for answer in answers]
    assert kinds == ["ack"] + ["error"] * 299
    assert [a.ack.request_id if a.HasField("ack") else a.error.request_id
            for a in answers] == [f"flood-{n}" for n in range(300)]
    got = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game
    assert got.version == game.version + 1
    assert (await session.close()).code == 1000


async def test_a_websocket_over_tls(make_service: ServiceFactory, tmp_path: Path) -> None:
    """With RISK_TLS_CERT_FILE/KEY_FILE the HTTP port's sockets are wss: a client trusting
    the service's certificate streams a game's events over TLS."""
    cert, key = _self_signed(tmp_path)
    service = make_service(credentials=grpc.ssl_channel_credentials(cert.read_bytes()),
                           http=True, RISK_TLS_CERT_FILE=str(cert), RISK_TLS_KEY_FILE=str(key),
                           RISK_KEY_PREFIX="service-websocket-tls")
    async with grpc.aio.secure_channel(
            service.target, grpc.ssl_channel_credentials(cert.read_bytes())) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game = await create_game(stub, SEED, **FAST_OPTIONS)
    ws = await connect(service, STREAM, tls=ssl.create_default_context(cafile=str(cert)))
    ws.send(service_pb2.StreamEventsRequest(game_id=game.game_id).SerializeToString())
    first = service_pb2.StreamEventsResponse.FromString(
        (await asyncio.wait_for(ws.receive(), TIMEOUT_S)).data)
    assert first.event.seq == 1
    await ws.close()


async def test_a_spectator_that_stops_reading_is_cut_off_and_resumes(
        make_service: ServiceFactory) -> None:
    """A WebSocket spectator that stops reading (its socket's buffers full) is ended
    4008 SUBSCRIBER_TOO_SLOW with the last seq it was sent, and sent nothing out of order
    before; a reader beside it missed nothing, and the stalled one resumes after that seq."""
    service = make_service(http=True, RISK_SUBSCRIBER_BUFFER="4",
                           RISK_KEY_PREFIX="service-websocket-stalled")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        created = await stub.CreateGame(create_request(
            seed=21, players=3, setup=2, auto_place=True, auto_defend_max_dice=True))
        game_id = created.game.game_id
        tokens = [(await stub.JoinGame(service_pb2.JoinGameRequest(
            game_id=game_id, seat=s))).seat_token for s in range(3)]
        request = service_pb2.StreamEventsRequest(game_id=game_id)
        stalled = await connect(service, STREAM, receive_buffer=4096)
        stalled.send(request.SerializeToString())
        await asyncio.wait_for(stalled.receive(), TIMEOUT_S)  # live, then it stops reading
        stalled.writer.transport.pause_reading()  # type: ignore[attr-defined]
        reader = await connect(service, STREAM)
        reader.send(request.SerializeToString())
        read: list[int] = []

        async def follow() -> None:
            while (message := await reader.receive()).opcode == BINARY:
                read.append(service_pb2.StreamEventsResponse.FromString(message.data).event.seq)

        following = asyncio.create_task(follow())
        last_seq = 0
        for _ in range(40):
            last_seq = await play_moves(stub, game_id, tokens, 25)
            if '"SUBSCRIBER_TOO_SLOW"' in service.logs():
                break
        stalled.writer.transport.resume_reading()  # type: ignore[attr-defined]
        got, ended = await read_to_end(stalled)
        assert (ended.code, ended.reason) == (4008, "SUBSCRIBER_TOO_SLOW")
        sent = int(ended.info.metadata["last_seq"])
        seqs = [service_pb2.StreamEventsResponse.FromString(m).event.seq for m in got]
        assert seqs == list(range(2, sent + 1))
        async with asyncio.timeout(TIMEOUT_S):
            while not read or read[-1] < last_seq:
                await asyncio.sleep(0.01)
        assert read == list(range(1, last_seq + 1))
        following.cancel()
        await asyncio.gather(following, return_exceptions=True)
        await reader.close()
        resumed = await connect(service, STREAM)
        resumed.send(service_pb2.StreamEventsRequest(game_id=game_id, after_seq=sent)
                     .SerializeToString())
        rest = [service_pb2.StreamEventsResponse.FromString(
            (await asyncio.wait_for(resumed.receive(), TIMEOUT_S)).data).event.seq
            for _ in range(last_seq - sent)]
        assert rest == list(range(sent + 1, last_seq + 1))
        await resumed.close()


async def test_a_websocket_spectator_across_a_redis_restart_and_a_rollback(
        make_redis_server: RedisServerFactory, make_service: ServiceFactory,
        tmp_path: Path) -> None:
    """A caught-up WebSocket spectator (its stream handed off to the feed) goes on after its
    Redis restarts (fsync always: nothing lost), and when Redis comes back from an older AOF
    that lacks an event it was sent, its call ends ABORTED GAME_ROLLED_BACK with the last seq
    that survived, as a gRPC stream's does (tests/service/test_feed.py)."""
    server = make_redis_server()
    service = make_service(server.url, http=True)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game = (await stub.CreateGame(create_request(seed=31, players=3))).game
        ws = await connect(service, STREAM)
        ws.send(service_pb2.StreamEventsRequest(game_id=game.game_id).SerializeToString())

        async def read_until(seq: int) -> list[int]:
            seqs: list[int] = []
            while not seqs or seqs[-1] < seq:
                message = await asyncio.wait_for(ws.receive(), TIMEOUT_S)
                assert message.opcode == BINARY, message
                seqs.append(service_pb2.StreamEventsResponse.FromString(message.data).event.seq)
            return seqs

        async def join(seat: int) -> int:
            async with asyncio.timeout(TIMEOUT_S):
                while True:  # the service may still be reconnecting to Redis
                    try:
                        await stub.JoinGame(service_pb2.JoinGameRequest(
                            game_id=game.game_id, seat=seat, display_name=f"seat {seat}"))
                        break
                    except grpc.aio.AioRpcError as exc:
                        assert exc.code() == grpc.StatusCode.UNAVAILABLE, exc
                        await asyncio.sleep(0.2)
            return (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))
                    ).game.last_seq

        assert await read_until(game.last_seq) == list(range(1, game.last_seq + 1))
        server.kill()
        server.start()
        survived = await join(0)
        assert await read_until(survived) == list(range(game.last_seq + 1, survived + 1))
        older = tmp_path / "older-aof"
        shutil.copytree(server.data_dir / "appendonlydir", older)
        lost = await join(1)
        assert await read_until(lost) == list(range(survived + 1, lost + 1))
        server.kill()
        shutil.rmtree(server.data_dir / "appendonlydir")
        shutil.copytree(older, server.data_dir / "appendonlydir")
        server.start()
        got, ended = await read_to_end(ws)
        assert got == []
        assert (ended.code, ended.reason) == (4000 + grpc.StatusCode.ABORTED.value[0],
                                              "GAME_ROLLED_BACK")
        assert ended.info.metadata["last_seq"] == str(survived)


async def test_more_spectators_than_one_turn_takes_get_every_event_once_in_order(
        web: ServiceProcess, stub: Stub) -> None:
    """More WebSocket spectators of one game than its feed hands events to in one turn of the
    event loop (feed.FLUSH_SLICE), while moves go on: the feed sweeps them (one message
    assembled per pass for all alike at one point), and every spectator still gets every event
    once, in order, as gRPC's StreamEvents gives it, no message over the batch limit it asked
    for."""
    mark = LogMark(web)
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    count, batch = 2 * FLUSH_SLICE + 40, 4
    request = service_pb2.StreamEventsRequest(game_id=game.game_id, max_batch=batch)
    seen: list[list[game_pb2.Event]] = [[] for _ in range(count)]
    largest = [0] * count
    sockets = [await connect(web, STREAM) for _ in range(count)]

    async def follow(i: int, ws: WebSocket) -> None:
        ws.send(request.SerializeToString())
        while (message := await ws.receive()).opcode == BINARY:
            events = service_pb2.StreamEventsResponse.FromString(message.data).events
            largest[i] = max(largest[i], len(events))
            seen[i].extend(events)

    following = [asyncio.create_task(follow(i, ws)) for i, ws in enumerate(sockets)]
    try:
        first = (await stub.GetGame(service_pb2.GetGameRequest(
            game_id=game.game_id))).game.last_seq
        async with asyncio.timeout(TIMEOUT_S):  # every stream caught up, handed off
            while any(len(s) < first for s in seen):
                await asyncio.sleep(0.02)
        last = await play_moves(stub, game.game_id, game.seat_tokens, 30)
        assert last > first
        async with asyncio.timeout(TIMEOUT_S):
            while any(not s or s[-1].seq < last for s in seen):
                await asyncio.sleep(0.02)
        call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game.game_id))
        over_grpc = [(await call.read()).event for _ in range(last)]
        call.cancel()
        assert [e.seq for e in over_grpc] == list(range(1, last + 1))
        wrong = [s for s in seen if s != over_grpc]
        assert not wrong, ([e.seq for e in wrong[0]], len(wrong))
        assert 1 <= max(largest) <= batch
        assert '"feed-sweep' not in mark.text()  # no sweep failed
    finally:
        for task in following:
            task.cancel()
        await asyncio.gather(*following, return_exceptions=True)
        for ws in sockets:
            ws.writer.close()
