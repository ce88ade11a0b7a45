"""Classic auto-defend left unset is decided by the game's clock (the rules digest: on for
timed games), through the public RPCs on a real service and Redis.

The tests share one service (`service`, which conftest's `stub` connects to): each plays a
game of its own and none needs a fresh process."""

from __future__ import annotations

from risk_proto.risk.v1 import lifecycle_pb2, service_pb2, service_pb2_grpc
from risk_rules import wire
from risk_rules.engine import LegalAction, get_ruleset
from risk_rules.engine.classic.model import ClassicView
from risk_testing.rpc import bearer, classic_options
from tests.serving import module_service

service = module_service("service-auto-defend")
Stub = service_pb2_grpc.RiskServiceStub
TIMED = lifecycle_pb2.ClockOptions(decision_seconds=600)  # long: nothing times out here


async def _play_until_a_battle(
    stub: Stub, clock: lifecycle_pb2.ClockOptions, **options: object
) -> tuple[bool, set[str]]:
    """Bots play a dealt 3-player game until its first battle is rolled; returns the game's
    auto-defend option as the board shows it and every decision kind met on the way."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=classic_options(players=3, setup=2, auto_place=True, **options), seed=5,
        issue_seat_tokens=True, clock=clock))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    kinds: set[str] = set()
    for entropy in range(400):
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        seat = game.decision.seats[0]
        kinds.add(game.decision.kind)
        auth = bearer(tokens[seat])
        board = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                    metadata=auth)).board
        view = wire.from_message(board.classic, ClassicView)
        legal = await stub.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=auth)
        choices = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
                   for e in legal.actions]
        action = get_ruleset("classic").bot_choose(view, choices, entropy)
        reply = await stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game_id, action=wire.action_to_proto("classic", action),
            expected_version=legal.version, request_id=f"step-{entropy}"), metadata=auth)
        if any(e.classic.WhichOneof("kind") == "battle_resolved" for e in reply.events):
            return view.options.auto_defend_max_dice is True, kinds
    raise AssertionError("no battle in 400 moves")


async def test_a_timed_game_rolls_the_defence_without_asking(stub: Stub) -> None:
    """With a decision clock and auto_defend_max_dice unset, the board says auto-defend is on
    and the first attack is rolled at once: no seat is ever asked to defend."""
    auto, kinds = await _play_until_a_battle(stub, TIMED)
    assert auto and "defend" not in kinds


async def test_an_untimed_game_asks_the_defender(stub: Stub) -> None:
    """Without a clock the unset option means off: the defender chooses its dice."""
    auto, kinds = await _play_until_a_battle(stub, lifecycle_pb2.ClockOptions())
    assert not auto and "defend" in kinds


async def test_an_explicit_choice_beats_the_clock(stub: Stub) -> None:
    """auto_defend_max_dice=false in a timed game keeps the defender's choice."""
    auto, kinds = await _play_until_a_battle(stub, TIMED, auto_defend_max_dice=False)
    assert not auto and "defend" in kinds
