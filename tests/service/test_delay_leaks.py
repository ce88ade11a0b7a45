"""A game with a spectator delay keeps its live position from those it delays (spectators and
the host) on every path that names a seq: a StreamEvents or Session asking to resume after a
seq the delay has not released yet is refused as a resume past the last seq would be, naming
only the last seq the delay has released, on gRPC, Connect and WebSocket alike."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc, session_pb2
from risk_rules import wire
from risk_service.server.websocket import STATUS_BASE
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import bearer, classic_options, error_info
from tests.service.botplay import FAST_OPTIONS, BotGame
from tests.service.test_http import SERVICE, _connection, envelope, info_of, read_envelope
from tests.service.test_session import TIMEOUT_S, _choose
from tests.service.test_websocket import STREAM, connect, read_to_end

Stub = service_pb2_grpc.RiskServiceStub
DELAY_EVENTS = 6
FAR = 10**9
ABORTED = grpc.StatusCode.ABORTED.value[0]


@pytest.fixture
def web(make_service: ServiceFactory, redis_client: object) -> ServiceProcess:
    return make_service(http=True)


@pytest.fixture
async def stub(web: ServiceProcess) -> AsyncIterator[Stub]:
    async with grpc.aio.insecure_channel(web.target) as channel:
        yield service_pb2_grpc.RiskServiceStub(channel)


async def delayed_game(stub: Stub, moves: int, *, events: int = 0, seconds: int = 0
                       ) -> BotGame:
    """A 3-seat classic game with a spectator delay of `events` and `seconds`, its seats
    joined and `moves` actions played."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=classic_options(**FAST_OPTIONS), seed=0xDE1A7,
        spectator_delay_events=events, spectator_delay_seconds=seconds))
    game_id = created.game.game_id
    tokens = [(await stub.JoinGame(service_pb2.JoinGameRequest(
        game_id=game_id, seat=seat, display_name=f"p{seat}"))).seat_token for seat in range(3)]
    game = BotGame(game_id=game_id, seed=0xDE1A7, options=classic_options(**FAST_OPTIONS),
                   host_token=created.host_token,
                   seat_tokens=tokens, created=created, version=0, last_seq=0)
    got = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                              metadata=bearer(tokens[0]))).game
    game.version, seat = got.version, got.decision.seats[0]
    for _ in range(moves):
        action = await _choose(stub, game, seat)
        reply = await stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game_id, action=action, expected_version=game.version,
            request_id=f"m{game.moves}"), metadata=bearer(tokens[seat]))
        game.actions.append((seat, wire.action_from_proto(action)[1]))
        game.version = reply.version
        seat = reply.decision.seats[0]
    game.last_seq = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                        metadata=bearer(tokens[0]))).game.last_seq
    return game


async def grpc_stream_refusal(stub: Stub, game_id: str, after_seq: int, token: str | None
                              ) -> tuple[str, dict[str, str], str]:
    """(reason, metadata, message) of a gRPC StreamEvents that must be refused at once."""
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id,
                                                             after_seq=after_seq),
                             metadata=bearer(token) if token else None, timeout=TIMEOUT_S)
    try:
        await call.read()
    except grpc.aio.AioRpcError as error:
        assert error.code() == grpc.StatusCode.ABORTED, error
        info = error_info(error)
        return info.reason, dict(info.metadata), error.details() or ""
    raise AssertionError("the stream was not refused")


async def grpc_session_refusal(stub: Stub, game_id: str, after_seq: int, token: str | None
                               ) -> tuple[str, dict[str, str], str]:
    """The same for a Session opened after `after_seq`."""
    call = stub.Session(metadata=bearer(token) if token else None, timeout=TIMEOUT_S)
    await call.write(session_pb2.SessionRequest(open=session_pb2.SessionOpen(
        game_id=game_id, after_seq=after_seq)))
    try:
        await call.read()
    except grpc.aio.AioRpcError as error:
        assert error.code() == grpc.StatusCode.ABORTED, error
        info = error_info(error)
        return info.reason, dict(info.metadata), error.details() or ""
    raise AssertionError("the session was not refused")


def connect_refusal(service: ServiceProcess, game_id: str, after_seq: int, token: str | None
                    ) -> tuple[str, dict[str, str], str]:
    """The same for StreamEvents as Connect's streaming JSON: the end-of-stream error."""
    conn = _connection(service)
    headers = {"Content-Type": "application/connect+json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request("POST", SERVICE + "StreamEvents", envelope(json.dumps(
        {"gameId": game_id, "afterSeq": str(after_seq)}).encode()), headers)
    reply = conn.getresponse()
    assert reply.status == 200
    flags, data = read_envelope(reply)
    conn.close()
    assert flags & 2, "the stream sent an event instead of ending"
    error: dict[str, Any] = json.loads(data)["error"]
    assert error["code"] == "aborted", error
    info = info_of(error)
    return info.reason, dict(info.metadata), error["message"]


async def websocket_refusal(service: ServiceProcess, game_id: str, after_seq: int,
                            token: str | None) -> tuple[str, dict[str, str], str]:
    """The same for StreamEvents over a WebSocket: the error JSON before the close."""
    ws = await connect(service, STREAM, token)
    ws.send(service_pb2.StreamEventsRequest(game_id=game_id, after_seq=after_seq)
            .SerializeToString())
    messages, ended = await read_to_end(ws)
    assert messages == [] and ended.code == STATUS_BASE + ABORTED, ended
    assert ended.error is not None
    return ended.info.reason, dict(ended.info.metadata), ended.error["message"]


async def test_a_resume_past_the_delay_names_no_seq_the_delay_has_not_released(
        web: ServiceProcess, stub: Stub) -> None:
    """Spectators and the host of a game delayed by 6 events asking to resume after seq
    10^9, or after the live seq, are refused GAME_ROLLED_BACK with `last_seq` the last seq
    the delay has released (the live seq less 6), and the live seq in neither the metadata
    nor the message, on gRPC StreamEvents and Session, Connect and WebSocket; a seat, which
    is not delayed, is told the live seq."""
    game = await delayed_game(stub, 12, events=DELAY_EVENTS)
    live = game.last_seq
    released = live - DELAY_EVENTS
    assert released > 0
    shown = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game
    assert not shown.last_seq and not shown.version  # GetGame withholds it already
    for token in (None, game.host_token):
        for after_seq in (FAR, live, released + 1):
            answers = [
                await grpc_stream_refusal(stub, game.game_id, after_seq, token),
                await grpc_session_refusal(stub, game.game_id, after_seq, token),
                connect_refusal(web, game.game_id, after_seq, token),
                await websocket_refusal(web, game.game_id, after_seq, token),
            ]
            for reason, metadata, message in answers:
                assert (reason, metadata["last_seq"]) == ("GAME_ROLLED_BACK", str(released))
                assert str(live) not in message, message
            assert len({message for _r, _m, message in answers}) == 1
    # what the delay has released still streams
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game.game_id,
                                                             after_seq=released - 1),
                             timeout=TIMEOUT_S)
    assert (await call.read()).event.seq == released
    call.cancel()
    reason, metadata, _message = await grpc_stream_refusal(stub, game.game_id, FAR,
                                                           game.seat_tokens[0])
    assert (reason, metadata["last_seq"]) == ("GAME_ROLLED_BACK", str(live))


async def test_a_delay_in_seconds_releases_nothing_younger_and_says_so(
        web: ServiceProcess, stub: Stub) -> None:
    """Under an hour's delay nothing played has been released: a spectator's resume after
    seq 1 or 10^9 is refused with `last_seq` 0 on gRPC and WebSocket, not the live seq."""
    game = await delayed_game(stub, 4, seconds=3600)
    for after_seq in (1, FAR):
        for reason, metadata, message in (
                await grpc_stream_refusal(stub, game.game_id, after_seq, None),
                await websocket_refusal(web, game.game_id, after_seq, game.host_token)):
            assert (reason, metadata["last_seq"]) == ("GAME_ROLLED_BACK", "0")
            assert str(game.last_seq) not in message, message
