"""JoinGame is one atomic commit and safe to retry: a seat is taken together with its
seat_joined event, and a join resent with its request id gets the first reply again."""

from __future__ import annotations

import asyncio

import grpc

from risk_client import RiskClient
from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import bearer, create_request, error_info, rpc_error

Stub = service_pb2_grpc.RiskServiceStub


async def _events(stub: Stub, game_id: str) -> list[game_pb2.Event]:
    last = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.last_seq
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id))
    out = [(await asyncio.wait_for(call.read(), 10)).event for _ in range(last)]
    call.cancel()
    return out


def _joins(events: list[game_pb2.Event]) -> list[int]:
    return [e.lifecycle.seat_joined.seat for e in events
            if e.lifecycle.WhichOneof("kind") == "seat_joined"]


def _join(game_id: str, seat: int, request_id: str, name: str = "") -> service_pb2.JoinGameRequest:
    return service_pb2.JoinGameRequest(game_id=game_id, seat=seat, display_name=name or f"p{seat}",
                                       request_id=request_id)


async def test_join_retried_after_a_lost_reply_gets_the_same_token_and_the_game_starts(
    stub: Stub,
) -> None:
    """Seat 0's join is sent with a deadline too short to get the reply, then resent with
    the same request id, also concurrently: every answer is the same token, there is one
    seat_joined for the seat, the token acts, and the last join starts the game."""
    game_id = (await stub.CreateGame(create_request(seed=2, players=3))).game.game_id
    try:  # the reply is lost: usually the deadline passes first, else it is dropped here
        await stub.JoinGame(_join(game_id, 0, "join-0"), timeout=0.001)
    except grpc.aio.AioRpcError as lost:
        assert lost.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    retried = await asyncio.gather(*(stub.JoinGame(_join(game_id, 0, "join-0"))
                                     for _ in range(4)))
    assert len({r.seat_token for r in retried}) == 1
    again = await stub.JoinGame(_join(game_id, 0, "join-0"))
    assert again == retried[0]
    reused = await rpc_error(stub.JoinGame(_join(game_id, 0, "join-0", name="someone else")))
    assert reused.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(reused).reason == "REQUEST_ID_REUSED"
    other = await rpc_error(stub.JoinGame(_join(game_id, 1, "join-0")))
    assert error_info(other).reason == "REQUEST_ID_REUSED"
    taken = await rpc_error(stub.JoinGame(_join(game_id, 0, "join-x")))
    assert error_info(taken).reason == "SEAT_TAKEN"
    tokens = [retried[0].seat_token]
    for seat in (1, 2):
        tokens.append((await stub.JoinGame(_join(game_id, seat, f"join-{seat}"))).seat_token)
    # the last join's reply lost too: its retry still answers after the game has started
    assert (await stub.JoinGame(_join(game_id, 2, "join-2"))).seat_token == tokens[2]
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                               metadata=bearer(tokens[0]))).game
    assert game.status == service_pb2.GAME_STATUS_ACTIVE
    assert [s.display_name for s in game.seats] == ["p0", "p1", "p2"]
    events = await _events(stub, game_id)
    assert _joins(events) == [0, 1, 2]
    assert game.version == 3  # one commit per join, the last one starting the game


async def test_sdk_join_sends_a_request_id_and_every_seat_joins_once(
    service: ServiceProcess, stub: Stub,
) -> None:
    """The SDK's join carries a request id: joining with one id twice gives one token."""
    game_id = (await stub.CreateGame(create_request(seed=2, players=3))).game.game_id
    async with RiskClient(service.target) as client:
        first = await client.join_game(game_id, 0, "ann", request_id="ann-1")
        assert await client.join_game(game_id, 0, "ann", request_id="ann-1") == first
        others = [await client.join_game(game_id, seat) for seat in (1, 2)]
    assert len({first, *others}) == 3
    assert _joins(await _events(stub, game_id)) == [0, 1, 2]
