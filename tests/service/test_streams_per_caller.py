"""Open streams are bounded per caller (its verified token, else its address) over all its
connections and transports, not only per connection: a client opening a new connection for
every few streams held any number of them (issue 32, item 3)."""

from __future__ import annotations

import asyncio
import http.client
import json
import time
from typing import Any

import grpc

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import bearer, create_request, error_info, rpc_error
from risk_testing.wsclient import BINARY
from tests.service.test_http import SERVICE, _connection, envelope, info_of, read_envelope
from tests.service.test_websocket import STREAM, connect, read_to_end

LIMIT = 3
Stub = service_pb2_grpc.RiskServiceStub


def own_connection(target: str) -> grpc.aio.Channel:
    """A channel on a connection of its own (channels to one target share one by default)."""
    return grpc.aio.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])


def connect_stream(service: ServiceProcess, game_id: str
                   ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    """StreamEvents over Connect's streaming JSON on a fresh HTTP/1.1 connection."""
    conn = _connection(service)
    conn.request("POST", SERVICE + "StreamEvents",
                 envelope(json.dumps({"gameId": game_id}).encode()),
                 {"Content-Type": "application/connect+json"})
    return conn, conn.getresponse()


def connect_error(reply: http.client.HTTPResponse) -> dict[str, Any]:
    """The error a Connect stream ended with, from its end-of-stream message."""
    assert reply.status == 200, reply.status
    flags, data = read_envelope(reply)
    assert flags & 0x02, data  # the end-of-stream message, with nothing before it
    error: dict[str, Any] = json.loads(data)["error"]
    return error


async def test_one_caller_over_many_connections_is_held_to_its_streams_another_is_not(
        make_service: ServiceFactory, redis_client: object) -> None:
    """With RISK_MAX_STREAMS_PER_CALLER=3, one address holding three streams on three
    connections (two gRPC, one HTTP) is refused a fourth with RESOURCE_EXHAUSTED /
    TOO_MANY_STREAMS over gRPC, Connect and WebSocket alike; a seat token verified before is
    another caller and is served on the same connections; once one of the address's streams
    ends, it may open another."""
    service = make_service(http=True, RISK_MAX_STREAMS_PER_CALLER=str(LIMIT))
    channels = [own_connection(service.target) for _ in range(3)]
    stubs = [Stub(channel) for channel in channels]
    opened: list[Any] = []
    held: list[http.client.HTTPConnection] = []
    try:
        request = create_request(players=3)
        request.issue_seat_tokens = True
        created = await stubs[0].CreateGame(request)
        game_id, token = created.game.game_id, created.seat_tokens[0]
        # the seat's token proves to be a credential: from now on it is a caller of its own
        got = await stubs[0].GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                     metadata=bearer(token))
        assert got.viewer_seat == 0
        watch = service_pb2.StreamEventsRequest(game_id=game_id)

        for stub in stubs[:2]:  # the address's streams: two on gRPC connections ...
            opened.append(stub.StreamEvents(watch))
            assert (await asyncio.wait_for(opened[-1].read(), 10)).event.seq == 1
        conn, reply = connect_stream(service, game_id)  # ... and one on the HTTP port
        held.append(conn)
        assert reply.status == 200
        assert json.loads(read_envelope(reply)[1])["event"]["seq"] == "1"  # an int64: a string

        refused = await rpc_error(stubs[2].StreamEvents(watch).read())
        assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert error_info(refused).reason == "TOO_MANY_STREAMS"
        assert error_info(refused).metadata["limit"] == str(LIMIT)
        assert f"at most {LIMIT} open streams per caller" in (refused.details() or "")

        conn, reply = connect_stream(service, game_id)
        held.append(conn)
        error = connect_error(reply)
        assert error["code"] == "resource_exhausted"
        assert info_of(error).reason == "TOO_MANY_STREAMS"

        ws = await connect(service, STREAM)
        ws.send(watch.SerializeToString())
        messages, ended = await read_to_end(ws)
        assert messages == []
        assert (ended.code, ended.reason) == (4008, "TOO_MANY_STREAMS")
        assert ended.info.metadata["limit"] == str(LIMIT)

        # another caller: the seat, on the connection the address was just refused on
        seat = stubs[2].StreamEvents(watch, metadata=bearer(token))
        opened.append(seat)
        assert (await asyncio.wait_for(seat.read(), 10)).event.seq == 1
        ws = await connect(service, STREAM, token)
        ws.send(watch.SerializeToString())
        message = await asyncio.wait_for(ws.receive(), 10)
        assert message.opcode == BINARY
        assert service_pb2.StreamEventsResponse.FromString(message.data).event.seq == 1
        ws.writer.close()

        opened[0].cancel()  # one of the address's streams ends: its place is free again
        deadline = time.monotonic() + 10
        while True:
            again = stubs[2].StreamEvents(watch)
            try:
                assert (await asyncio.wait_for(again.read(), 10)).event.seq == 1
                opened.append(again)
                break
            except grpc.aio.AioRpcError as error_again:
                assert error_info(error_again).reason == "TOO_MANY_STREAMS"
                assert time.monotonic() < deadline, "the ended stream was never let go"
                await asyncio.sleep(0.05)
    finally:
        for call in opened:
            call.cancel()
        for conn in held:
            conn.close()
        for channel in channels:
            await channel.close()
