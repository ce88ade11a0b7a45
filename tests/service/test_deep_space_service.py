"""Risk Deep Space through the real service: a bot game end to end over raw gRPC stubs.

CreateGame with Deep Space options and `issue_seat_tokens` starts the game at once. The bots then
play as any remote client would: GetGame with the deciding seat's token (its `board.deep_space`
view), ListLegalActions, the engine's bot on that view and list, SubmitAction with the version.
A StreamEvents subscriber listens live from the start; its Deep Space events must equal, byte
for byte, an offline engine replay of the logged actions from the seed. Illegal moves are
answered FAILED_PRECONDITION with the Deep Space reason code in `ErrorInfo.reason`.
"""

from __future__ import annotations

import asyncio

import grpc

from risk_proto.risk.v1 import (
    common_pb2,
    deep_space_pb2,
    game_pb2,
    service_pb2,
    service_pb2_grpc,
)
from risk_rules import wire
from risk_rules.engine import Action, LegalAction, get_ruleset
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD
from risk_rules.engine.deep_space.model import (
    BuildBase,
    DeepSpaceOptions,
    DeepSpaceView,
    Mine,
    Move,
    Phase,
    PlayCard,
    Resource,
    Warp,
)
from risk_testing.rpc import bearer, error_info, rpc_error
from tests.service.streamcheck import assert_every_version_streamed

Stub = service_pb2_grpc.RiskServiceStub
VARIANT = "deep_space"
RULES = get_ruleset(VARIANT)
SEED = 0xD5EED5  # 3 players: a base win in about 130 actions
OPTIONS = DeepSpaceOptions(players=3)
TIMEOUT_S = 60
_MASK64 = (1 << 64) - 1


def _create(seed: int = SEED) -> service_pb2.CreateGameRequest:
    options = game_pb2.GameOptions(
        deep_space=deep_space_pb2.DeepSpaceOptions(players=OPTIONS.players)
    )
    return service_pb2.CreateGameRequest(options=options, seed=seed, issue_seat_tokens=True)


def _entropy(move: int) -> int:
    return (SEED * 0x9E3779B97F4A7C15 + move) & _MASK64


async def _subscribe(stub: Stub, game_id: str, out: list[game_pb2.Event]) -> None:
    """Stream as a spectator from the first event until the Deep Space game ends."""
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id, after_seq=0))
    try:
        async for reply in call:
            out.append(reply.event)
            if reply.event.deep_space.WhichOneof("kind") == "game_ended":
                return
    finally:
        call.cancel()


def _replayed(seed: int, log: list[tuple[int, int, Action]]) -> list[tuple[int, bytes]]:
    """(version, encoded Deep Space event) of the game rebuilt offline from seed and actions."""
    state, created = RULES.create(OPTIONS, seed)
    items = [(0, e) for e in created]
    for seat, version, action in log:
        state, events = RULES.apply(state, seat, action)
        items.extend((version, e) for e in events)
    assert RULES.outcome(state) is not None
    return [
        (version, wire.event_to_proto(VARIANT, e, 0, version).deep_space.SerializeToString(
            deterministic=True))
        for version, e in items
    ]


async def test_bot_game_end_to_end_matches_the_engine_replay(stub: Stub) -> None:
    """Bots play a whole game through the RPCs; a live subscriber sees exactly the replay."""
    created = await stub.CreateGame(_create())
    game_id = created.game.game_id
    assert created.game.status == service_pb2.GAME_STATUS_ACTIVE
    assert created.game.variant == common_pb2.VARIANT_DEEP_SPACE
    tokens = list(created.seat_tokens)
    assert len(tokens) == OPTIONS.players
    received: list[game_pb2.Event] = []
    subscriber = asyncio.create_task(_subscribe(stub, game_id, received))
    log: list[tuple[int, int, Action]] = []
    request = service_pb2.GetGameRequest(game_id=game_id)
    summary = (await stub.GetGame(request)).game
    version, outcome = summary.version, None
    live_before_end = 0
    while outcome is None:
        assert len(log) < 5000, "the bots stalled"
        (seat,) = summary.decision.seats
        token = bearer(tokens[seat])
        got = await stub.GetGame(request, metadata=token)
        assert got.viewer_seat == seat and got.board.WhichOneof("variant") == "deep_space"
        view = wire.from_message(got.board.deep_space, DeepSpaceView)
        assert view.viewer == seat and view.phase is not Phase.FINISHED
        listed = await stub.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=token
        )
        assert (listed.version, listed.seat) == (version, seat)
        legal = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
                 for e in listed.actions]
        action = RULES.bot_choose(view, legal, _entropy(len(log)))
        reply = await stub.SubmitAction(
            service_pb2.SubmitActionRequest(
                game_id=game_id, action=wire.action_to_proto(VARIANT, action),
                expected_version=version, request_id=f"ds-{len(log)}",
            ),
            metadata=token,
        )
        assert reply.version > version
        log.append((seat, reply.version, action))
        version = reply.version
        live_before_end = len(received)
        if reply.HasField("outcome"):
            outcome = reply.outcome
        else:
            summary = (await stub.GetGame(request)).game
            assert list(summary.decision.seats) == list(reply.decision.seats)
    await asyncio.wait_for(subscriber, TIMEOUT_S)
    print(f"\ndeep space service game: {len(log)} actions, {len(received)} events streamed, "
          f"{outcome.reason}, winner seat {outcome.winner}")
    assert outcome.reason in ("bases", "turn_cap")
    assert sorted(outcome.ranking) == list(range(OPTIONS.players))
    assert live_before_end > 0, "the subscriber received events while the game was played"
    seqs = [e.seq for e in received]
    assert seqs == list(range(1, len(received) + 1)), "a gap or a duplicate"
    streamed = [
        (e.version, e.deep_space.SerializeToString(deterministic=True))
        for e in received if e.WhichOneof("variant") == "deep_space"
    ]
    assert streamed == _replayed(SEED, log)
    final = await stub.GetGame(request)
    assert final.game.status == service_pb2.GAME_STATUS_FINISHED
    assert final.game.outcome == outcome
    assert_every_version_streamed(received, final.game.version)
    assert wire.from_message(final.board.deep_space, DeepSpaceView).phase is Phase.FINISHED


async def test_illegal_moves_are_refused_with_deep_space_reasons(stub: Stub) -> None:
    """Rule-breaking actions answer FAILED_PRECONDITION with the Deep Space reason code."""
    created = await stub.CreateGame(_create(seed=7))
    game_id = created.game.game_id
    (seat,) = created.game.decision.seats
    got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                             metadata=bearer(created.seat_tokens[seat]))
    view = wire.from_message(got.board.deep_space, DeepSpaceView)
    home = view.stations[seat]
    first = DEEP_SPACE_BOARD.links[home][0]
    other = next(s for s in range(OPTIONS.players) if s != seat)
    not_held = next(c for c in range(36) if c not in view.hands[seat])
    version = got.game.version
    cases: list[tuple[Action, str, int]] = [
        (Move(home, first, 4), "TOO_MANY_RECRUITS", seat),
        (Move(first, home, 1), "HOME_STATION", seat),
        (Move(home, 12, 1), "NOT_ADJACENT", seat),
        (Move(home, 99, 1), "NO_SUCH_PLANET", seat),
        (Warp(first, 12, 1), "NOT_WARP_PLANET", seat),
        (Mine(first, Resource.ORE), "NOT_ENOUGH_RECRUITS", seat),
        (BuildBase(first), "NOT_ENOUGH_RECRUITS", seat),
        (PlayCard(not_held), "CARD_NOT_IN_HAND", seat),
        (Move(view.stations[other], DEEP_SPACE_BOARD.links[view.stations[other]][0], 1),
         "NOT_YOUR_TURN", other),
    ]
    for action, reason, actor in cases:
        error = await rpc_error(stub.SubmitAction(
            service_pb2.SubmitActionRequest(
                game_id=game_id, action=wire.action_to_proto(VARIANT, action),
                expected_version=version,
            ),
            metadata=bearer(created.seat_tokens[actor]),
        ))
        assert error.code() == grpc.StatusCode.FAILED_PRECONDITION, (action, error.details())
        info = error_info(error)
        assert (info.domain, info.reason) == ("risk.v1", reason), action
    after = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
    assert after.game.version == version, "refused actions change nothing"
