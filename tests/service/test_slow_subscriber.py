"""A subscriber that stops reading is cut off with a clear status; the others keep up."""

from __future__ import annotations

import asyncio

import grpc

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_rules import wire
from risk_rules.engine import LegalAction, get_ruleset
from risk_rules.engine.classic.model import ClassicView
from risk_testing.harness import ServiceFactory
from risk_testing.rpc import bearer, create_request, error_info

BUFFER = 16


async def _play(stub: service_pb2_grpc.RiskServiceStub, game_id: str, tokens: list[str],
                actions: int) -> int:
    """Drive up to `actions` bot moves; returns the last seq."""
    rules = get_ruleset("classic")
    last_seq = 0
    for step in range(actions):
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        last_seq = game.last_seq
        if not game.decision.seats:
            break
        seat = game.decision.seats[0]
        auth = bearer(tokens[seat])
        board = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                    metadata=auth)).board
        legal = await stub.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=auth)
        view = wire.from_message(board.classic, ClassicView)
        options = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
                   for e in legal.actions]
        action = rules.bot_choose(view, options, step)
        reply = await stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game_id, action=wire.action_to_proto("classic", action),
            expected_version=legal.version), metadata=auth)
        last_seq = reply.events[-1].seq if reply.events else last_seq
    return last_seq


async def test_stalled_subscriber_is_disconnected_and_resumes(
    make_service: ServiceFactory, redis_client: object
) -> None:
    """The stalled stream ends RESOURCE_EXHAUSTED/SUBSCRIBER_TOO_SLOW; a reader misses nothing."""
    service = make_service(RISK_SUBSCRIBER_BUFFER=str(BUFFER))
    # the stalled reader gets its own connection (a stalled stream can hold up the connection's
    # flow-control window) and no window growth, so the server meets back-pressure soon
    slow_channel = grpc.aio.insecure_channel(
        service.target,
        options=[("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 1024)],
    )
    async with grpc.aio.insecure_channel(service.target) as channel, slow_channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        created = await stub.CreateGame(create_request(
            seed=21, players=3, setup=2, auto_place=True, auto_defend_max_dice=True))
        game_id = created.game.game_id
        tokens = [(await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=s)))
                  .seat_token for s in range(3)]

        slow_stub = service_pb2_grpc.RiskServiceStub(slow_channel)
        stalled = slow_stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id))
        # the first read proves the stream is registered; then it is not read during play
        first = await asyncio.wait_for(stalled.read(), 10)
        seen: list[int] = []

        async def keep_up() -> None:
            async for message in stub.StreamEvents(
                service_pb2.StreamEventsRequest(game_id=game_id)
            ):
                seen.append(message.event.seq)

        reader = asyncio.create_task(keep_up())
        last_seq = await asyncio.wait_for(_play(stub, game_id, tokens, actions=400), 120)
        for _ in range(200):
            if seen and seen[-1] == last_seq:
                break
            await asyncio.sleep(0.05)
        reader.cancel()

        assert seen == list(range(1, last_seq + 1)), "the reading subscriber got every event"
        got = [first.event.seq]
        try:
            while True:
                message = await asyncio.wait_for(stalled.read(), 10)
                if message is grpc.aio.EOF:
                    break
                got.append(message.event.seq)
            raise AssertionError("the stalled stream was never cut off")
        except grpc.aio.AioRpcError as error:
            assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            info = error_info(error)
            assert info.reason == "SUBSCRIBER_TOO_SLOW"
            resume_after = int(info.metadata["last_seq"])
        assert got == list(range(1, len(got) + 1)) and resume_after == got[-1]
        resumed = slow_stub.StreamEvents(
            service_pb2.StreamEventsRequest(game_id=game_id, after_seq=resume_after))
        rest = [(await asyncio.wait_for(resumed.read(), 10)).event.seq
                for _ in range(last_seq - resume_after)]
        resumed.cancel()
        assert got + rest == list(range(1, last_seq + 1))
