"""Tournament players as a tournament server's clients would be: each plays its seat through
raw gRPC calls with its seat token, choosing with the engine's bot from what the seat sees,
and rides out a service restart (UNAVAILABLE: wait and ask again)."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc, tournament_pb2
from risk_rules import wire
from risk_rules.engine import LegalAction, get_ruleset
from risk_rules.engine.classic.model import ClassicView
from risk_service.operations.records import FINAL
from risk_testing.rpc import bearer, classic_options

Stub = service_pb2_grpc.RiskServiceStub
RULES = get_ruleset("classic")
TRANSIENT = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
# a rejected move is re-decided on a fresh read
RETRY = frozenset({grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION})


def quick_options(**fields: Any) -> Any:
    """3-player classic, dealt and placed at random, ending at a short turn cap."""
    return classic_options(**{"players": 3, "setup": 2, "auto_place": True,
                              "auto_defend_max_dice": True, "max_turns": 6, **fields})


def player(label: str) -> tournament_pb2.RoundSeat:
    return tournament_pb2.RoundSeat(player=label)


def bot(level: int) -> tournament_pb2.RoundSeat:
    return tournament_pb2.RoundSeat(bot=level)


async def play_seat(channel: grpc.aio.Channel, game_id: str, seat: int, token: str,
                    entropy: int) -> service_pb2.GameSummary:
    """Play `seat` until the game is over; its final summary."""
    auth = bearer(token)
    while True:
        stub = Stub(channel)
        try:
            got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                     metadata=auth, timeout=5)
            if got.game.status in FINAL:
                return got.game
            if seat not in got.game.decision.seats:
                await asyncio.sleep(0.02)
                continue
            legal = await stub.ListLegalActions(
                service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=auth, timeout=5)
            if not legal.actions or legal.version != got.game.version:
                continue
            view = wire.from_message(got.board.classic, ClassicView)
            entries = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
                       for e in legal.actions]
            action = RULES.bot_choose(view, entries, entropy + legal.version)
            await stub.SubmitAction(service_pb2.SubmitActionRequest(
                game_id=game_id, action=wire.action_to_proto("classic", action),
                expected_version=legal.version, request_id=f"s{seat}v{legal.version}"),
                metadata=auth, timeout=5)
        except grpc.aio.AioRpcError as error:
            if error.code() in TRANSIENT:
                await asyncio.sleep(0.1)
            elif error.code() not in RETRY:
                raise
