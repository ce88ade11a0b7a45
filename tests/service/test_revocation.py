"""A stream ends as soon as its credential stops being valid: after ReissueSeatToken, a
StreamEvents opened with the seat's old token gets nothing more of the game."""

from __future__ import annotations

import asyncio

import grpc

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceFactory
from risk_testing.rpc import bearer, create_request, error_info

Stub = service_pb2_grpc.RiskServiceStub


async def _move(stub: Stub, game_id: str, tokens: list[str]) -> None:
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    auth = bearer(tokens[game.decision.seats[0]])
    legal = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(game_id=game_id),
                                        metadata=auth)
    await stub.SubmitAction(service_pb2.SubmitActionRequest(
        game_id=game_id, action=legal.actions[0].action, expected_version=legal.version),
        metadata=auth)


async def test_stream_with_a_reissued_token_ends_revoked(
    make_service: ServiceFactory, redis_client: object
) -> None:
    """Seat 0 streams with its token; the host reissues it and play goes on: the old stream
    gets nothing after the reissue and ends UNAUTHENTICATED / CREDENTIALS_REVOKED, while a
    stream with the new token (from the start, past the reissue) keeps going."""
    service = make_service()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        request = create_request(seed=6, players=3)
        request.issue_seat_tokens = True
        created = await stub.CreateGame(request)
        game_id, tokens = created.game.game_id, list(created.seat_tokens)
        for _ in range(3):
            await _move(stub, game_id, tokens)
        old = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id),
                                metadata=bearer(tokens[0]))
        last = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.last_seq
        for _ in range(last):
            await asyncio.wait_for(old.read(), 10)
        reissued = await stub.ReissueSeatToken(
            service_pb2.ReissueSeatTokenRequest(game_id=game_id, seat=0),
            metadata=bearer(created.host_token))
        tokens[0] = reissued.seat_token
        for _ in range(6):
            await _move(stub, game_id, tokens)
        received = []
        try:
            while True:
                message = await asyncio.wait_for(old.read(), 10)
                assert message is not grpc.aio.EOF, "the old token's stream ended without a status"
                received.append(message.event)
        except grpc.aio.AioRpcError as error:
            assert error.code() == grpc.StatusCode.UNAUTHENTICATED
            assert error_info(error).reason == "CREDENTIALS_REVOKED"
        assert [e.lifecycle.WhichOneof("kind") for e in received] == ["seat_token_reissued"]
        new = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id),
                                metadata=bearer(tokens[0]))
        total = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.last_seq
        seqs = [(await asyncio.wait_for(new.read(), 10)).event.seq for _ in range(total)]
        assert seqs == list(range(1, total + 1))
        new.cancel()
