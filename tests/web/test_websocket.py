"""A browser's own WebSocket (Chromium's, from a page the HTTP port served) on StreamEvents
and Session: what a web client without gRPC gets, with its token as a subprotocol."""

from __future__ import annotations

import base64
from typing import Any

import grpc

from risk_proto.risk.v1 import (
    classic_pb2,
    game_pb2,
    service_pb2,
    service_pb2_grpc,
    session_pb2,
)
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import bearer
from tests.web.conftest import Pages

# runs in the page: opens the socket, sends the (base64) messages, and resolves with the
# first `count` binary messages received (base64) and the subprotocol the server chose
_TALK = """async ({path, protocols, messages, count}) => {
  const decode = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const encode = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
  const ws = new WebSocket(`ws://${location.host}${path}`, protocols);
  ws.binaryType = "arraybuffer";
  const received = [];
  return await new Promise((resolve, reject) => {
    ws.onopen = () => messages.forEach((m) => ws.send(decode(m)));
    ws.onmessage = (m) => {
      if (typeof m.data === "string") { reject(new Error(m.data)); return; }
      received.push(encode(m.data));
      if (received.length === count) { ws.close(1000); resolve({received, protocol: ws.protocol}); }
    };
    ws.onerror = () => reject(new Error("socket error"));
    setTimeout(() => reject(new Error("timed out")), 20000);
  });
}"""


async def _talk(page: Any, path: str, protocols: list[str], messages: list[bytes],
                count: int) -> tuple[list[bytes], str]:
    result = await page.evaluate(_TALK, {
        "path": path, "protocols": protocols, "count": count,
        "messages": [base64.b64encode(m).decode() for m in messages]})
    return [base64.b64decode(m) for m in result["received"]], result["protocol"]


async def test_a_page_streams_events_and_plays_a_move_over_websockets(
        pages: Pages, stub: service_pb2_grpc.RiskServiceStub, http_service: ServiceProcess,
) -> None:
    """From the app's own page, Chromium's WebSocket reads a game's events (the same bytes
    as gRPC's StreamEvents), and a seat's session, its token sent as the `bearer.<token>`
    subprotocol, plays a move whose ack is the SubmitAction reply; the server chose
    `risk.v1` and the page logged no error."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
            players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True)),
        issue_seat_tokens=True))
    game_id = created.game.game_id
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    assert game.last_seq >= 2
    page = await pages.open("/")
    request = service_pb2.StreamEventsRequest(game_id=game_id)
    received, protocol = await _talk(page, "/risk.v1.RiskService/StreamEvents", ["risk.v1"],
                                     [request.SerializeToString()], game.last_seq)
    assert protocol == "risk.v1"
    async with grpc.aio.insecure_channel(http_service.target) as channel:
        call = channel.unary_stream("/risk.v1.RiskService/StreamEvents",
                                    request_serializer=lambda m: m.SerializeToString(),
                                    response_deserializer=lambda data: data)(request)
        over_grpc = [await call.read() for _ in range(game.last_seq)]
        call.cancel()
    assert received == over_grpc

    seat = game.decision.seats[0]
    token = created.seat_tokens[seat]
    listed = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(
        game_id=game_id), metadata=bearer(token))
    opening = session_pb2.SessionRequest(open=session_pb2.SessionOpen(
        game_id=game_id, acks_only=True))
    move = session_pb2.SessionRequest(submit=session_pb2.SessionAction(
        action=listed.actions[0].action, expected_version=game.version, request_id="page-1"))
    (answer,), protocol = await _talk(page, "/risk.v1.RiskService/Session",
                                      ["risk.v1", f"bearer.{token}"],
                                      [opening.SerializeToString(), move.SerializeToString()], 1)
    assert protocol == "risk.v1"
    ack = session_pb2.SessionResponse.FromString(answer).ack
    assert ack.request_id == "page-1"
    replayed = await stub.SubmitAction(service_pb2.SubmitActionRequest(
        game_id=game_id, action=listed.actions[0].action, expected_version=game.version,
        request_id="page-1"), metadata=bearer(token))
    assert replayed.SerializeToString(deterministic=True) == ack.submitted
