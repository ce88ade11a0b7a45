"""A 4-player Risk Strike game played by bots through the real service and raw gRPC stubs.

The loop is what any remote client does, and in Strike the deciding seat is often not the
active player (response windows, deployment): GetGame's summary names the deciding seat; that
seat's token reads the board (`board.strike`) and ListLegalActions; the engine's bot picks from
what the seat sees; SubmitAction carries the version read. The seed is one whose game has a
supporter, a Cancel Order and a Spy. A live StreamEvents subscriber per seat must receive the
replayed game exactly as that seat may see it: the Spy's reveal with the cards for the spy, and
hidden ids for everyone else.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator

import grpc
import pytest

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc, strike_pb2
from risk_rules import wire
from risk_rules.engine import Action, LegalAction, get_ruleset
from risk_rules.engine.strike.model import (
    HIDDEN,
    Deploy,
    HandRevealed,
    PlayCancelOrder,
    StrikeOptions,
    StrikeView,
)
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import bearer
from tests.service.streamcheck import assert_every_version_streamed

Stub = service_pb2_grpc.RiskServiceStub
RULES = get_ruleset("strike")
SEED = 34  # 159 actions: 4 supporter deployments, 2 Cancel Orders, a Spy reveal
PLAYERS = 4
TIMEOUT_S = 60
_MASK64 = (1 << 64) - 1


def bot_entropy(seed: int, move: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + move) & _MASK64


@pytest.fixture
async def stub(service: ServiceProcess) -> AsyncIterator[Stub]:
    channel = grpc.aio.insecure_channel(service.target)
    yield service_pb2_grpc.RiskServiceStub(channel)
    await channel.close()


def _is_game_end(event: game_pb2.Event) -> bool:
    return event.WhichOneof("variant") == "strike" and \
        event.strike.WhichOneof("kind") == "game_ended"


async def _subscribe(stub: Stub, game_id: str, token: str) -> list[game_pb2.Event]:
    """Every event the seat's stream sends, from the first, until the game ends."""
    call = stub.StreamEvents(
        service_pb2.StreamEventsRequest(game_id=game_id, after_seq=0), metadata=bearer(token)
    )
    got: list[game_pb2.Event] = []
    try:
        async for reply in call:
            got.append(reply.event)
            if _is_game_end(reply.event):
                break
    finally:
        call.cancel()
    return got


async def test_bots_play_strike_through_the_service(stub: Stub) -> None:
    """A bot game through raw stubs: out-of-turn deciders, a supporter, a Cancel Order, a Spy
    reveal that each seat's live stream shows to the spy only, and an outcome."""
    options = strike_pb2.StrikeOptions(players=PLAYERS)
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=game_pb2.GameOptions(strike=options), seed=SEED, issue_seat_tokens=True,
    ))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    assert len(tokens) == PLAYERS
    streams = [asyncio.create_task(_subscribe(stub, game_id, t)) for t in tokens]
    seen: Counter[str] = Counter()
    moves: list[tuple[int, Action]] = []
    async with asyncio.timeout(TIMEOUT_S):
        while True:
            summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
            if summary.HasField("outcome"):
                break
            (seat,) = summary.decision.seats
            auth = bearer(tokens[seat])
            got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id), metadata=auth)
            assert got.viewer_seat == seat and got.game.version == summary.version
            view = wire.from_message(got.board.strike, StrikeView)
            assert view.viewer == seat and len(view.hand) == view.hand_counts[seat]
            listed = await stub.ListLegalActions(
                service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=auth
            )
            assert (listed.seat, listed.version) == (seat, summary.version)
            legal = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
                     for e in listed.actions]
            action = RULES.bot_choose(view, legal, bot_entropy(SEED, len(moves)))
            seen["out_of_turn"] += seat != view.current
            if isinstance(action, Deploy) and seat not in (view.current, view.defender):
                seen["supporter"] += 1
            if isinstance(action, PlayCancelOrder):
                seen["cancel_order"] += 1
            reply = await stub.SubmitAction(service_pb2.SubmitActionRequest(
                game_id=game_id, action=wire.action_to_proto("strike", action),
                expected_version=summary.version, request_id=f"bot-{len(moves)}",
            ), metadata=auth)
            assert reply.version == summary.version + 1
            moves.append((seat, action))
        received = await asyncio.gather(*streams)

    assert summary.outcome.reason == "domination"
    assert seen["supporter"] >= 1, "no supporter deployed"
    assert seen["cancel_order"] >= 1, "no Cancel Order played"
    assert seen["out_of_turn"] > len(moves) // 2, "most decisions are out-of-turn answers"

    # the engine's replay of the same moves, as each seat may see it
    state, created_events = RULES.create(StrikeOptions(players=PLAYERS), SEED)
    replayed = list(created_events)
    for seat, action in moves:
        state, events = RULES.apply(state, seat, action)
        replayed.extend(events)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winner == summary.outcome.winner
    reveals = [e for e in replayed if isinstance(e, HandRevealed)]
    assert reveals, "no Spy reveal in the game"

    for seat, stream in enumerate(received):
        strike_events = [wire.event_from_proto(e)[1] for e in stream
                         if e.WhichOneof("variant") == "strike"]
        assert strike_events == [e.for_viewer(seat) for e in replayed], f"seat {seat}'s stream"
        shown = [e for e in strike_events if isinstance(e, HandRevealed)]
        assert len(shown) == len(reveals)
        for reveal, got in zip(reveals, shown, strict=True):
            if seat == reveal.seat:
                assert got.cards == reveal.cards and all(c != HIDDEN for c in got.cards)
            else:
                assert got.cards == (HIDDEN,) * len(reveal.cards)
        assert [e.seq for e in stream] == list(range(1, len(stream) + 1))
        assert_every_version_streamed(stream, summary.version)
