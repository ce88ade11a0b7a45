"""What the games of a duplicate round show while the round is played: they draw the same dice
and cards, so nobody outside a game (a spectator, the round's host, a player of another game)
reads its draws before every game of the round is over; its own seats see what the rules let
them. Through the real service, over gRPC and the HTTP port's JSON."""

from __future__ import annotations

import json
from typing import Any

import grpc

from risk_proto.risk.v1 import service_pb2, tournament_pb2
from risk_rules import variants, wire
from risk_rules.engine import LegalAction, get_ruleset
from risk_rules.engine.classic.model import ClassicView
from risk_service.operations.records import FINAL
from risk_testing.rpc import bearer, error_info
from tests.service.test_http import SERVICE, _connection, envelope, parse, post_json, read_envelope
from tests.tournament.conftest import ServiceFactory
from tests.tournament.players import Stub, player, quick_options

RULES = get_ruleset("classic")
TIMEOUT_S = 30
HIDDEN = -1


async def fight(stub: Stub, game: tournament_pb2.RoundGame, battles: int) -> None:
    """Play `game` through its seats, each as the engine's bot, until it has fought
    `battles` battles."""
    fought, move = 0, 0
    while fought < battles:
        move += 1
        assert move < 2000, f"only {fought} battles in {move} moves"
        got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id),
                                 metadata=bearer(game.seat_tokens[0]))
        assert got.game.status not in FINAL, "the game ended before its battles"
        seat = got.game.decision.seats[0]
        auth = bearer(game.seat_tokens[seat])
        got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id), metadata=auth)
        listed = await stub.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=game.game_id), metadata=auth)
        legal = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
                 for e in listed.actions]
        action = RULES.bot_choose(wire.from_message(got.board.classic, ClassicView), legal,
                                  1000 + move)
        reply = await stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game.game_id, action=wire.action_to_proto("classic", action),
            expected_version=listed.version, request_id=f"m{move}"), metadata=auth)
        fought += sum(e.classic.WhichOneof("kind") == "battle_resolved" for e in reply.events)


async def streamed(stub: Stub, game_id: str, token: str | None) -> list[Any]:
    """Every event of the game so far, as StreamEvents shows them to `token`."""
    last = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.last_seq
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id),
                             metadata=bearer(token) if token else None, timeout=TIMEOUT_S)
    events = []
    while not events or events[-1].seq < last:
        events.append((await call.read()).event)
    call.cancel()
    return events


def battles(events: list[Any]) -> list[Any]:
    return [e.classic.battle_resolved for e in events
            if e.classic.WhichOneof("kind") == "battle_resolved"]


def assert_dice_withheld(events: list[Any], count: int) -> None:
    """At least `count` battles, each with who fought and the losses, no die shown."""
    fought = battles(events)
    assert len(fought) >= count
    for battle in fought:
        assert battle.attack_dice and set(battle.attack_dice) == {HIDDEN}, battle
        assert battle.defence_dice and set(battle.defence_dice) == {HIDDEN}, battle
        assert battle.attacker_losses + battle.defender_losses == min(
            len(battle.attack_dice), len(battle.defence_dice))
    for event in events:  # and the roll-offs: every die of the game
        if event.classic.WhichOneof("kind") == "order_rolled":
            assert set(event.classic.order_rolled.rolls) == {HIDDEN}


def assert_dice_shown(events: list[Any], count: int) -> None:
    fought = battles(events)
    assert len(fought) >= count
    for battle in fought:
        assert all(1 <= d <= 6 for d in [*battle.attack_dice, *battle.defence_dice]), battle


def connect_events(service: Any, game_id: str, count: int) -> list[dict[str, Any]]:
    """The first `count` events of StreamEvents read as Connect's streaming JSON, no token."""
    conn = _connection(service)
    conn.request("POST", SERVICE + "StreamEvents",
                 envelope(json.dumps({"gameId": game_id}).encode()),
                 {"Content-Type": "application/connect+json"})
    reply = conn.getresponse()
    assert reply.status == 200
    events = []
    for _ in range(count):
        flags, data = read_envelope(reply)
        assert flags == 0, data
        events.append(json.loads(data)["event"])
    conn.close()
    return events


async def finish(stub: Stub, game: tournament_pb2.RoundGame) -> None:
    """End `game`: every seat but the last resigns."""
    for seat in range(len(game.seat_tokens) - 1):
        await stub.Resign(service_pb2.ResignRequest(game_id=game.game_id,
                                                    request_id=f"out{seat}"),
                          metadata=bearer(game.seat_tokens[seat]))
    got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))
    assert got.game.status in FINAL


async def test_a_duplicate_rounds_draws_stay_inside_each_game_until_the_round_is_over(
        start_service: ServiceFactory) -> None:
    """Two games of a duplicate round, one 6 battles in and one 2: a spectator, the round's
    host and a player of the other game read each game's battles (who, where, the losses)
    with every die hidden, over gRPC and JSON, and get no board from GetGame, no replay and
    no export; the game's own seats see their dice. Once one game is over its draws stay
    hidden while the other plays; once both are, everyone sees every die."""
    service = start_service(http=True)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        request = tournament_pb2.CreateRoundRequest(
            request_id="dup", tournament="dup-cup", round=1, duplicate=True,
            options=quick_options(max_turns=200))
        for table in ("a", "b"):
            request.games.add(seats=[player(f"{table}{s}") for s in range(3)])
        created = await stub.CreateRound(request)
        fast, slow = created.games
        await fight(stub, fast, 6)
        await fight(stub, slow, 2)

        for game, count in ((fast, 6), (slow, 2)):
            for outsider in (None, created.host_token):
                assert_dice_withheld(await streamed(stub, game.game_id, outsider), count)
            assert_dice_shown(await streamed(stub, game.game_id, game.seat_tokens[1]), count)
            other = slow if game is fast else fast  # another game's seat holds no credential
            try:
                await streamed(stub, game.game_id, other.seat_tokens[0])
                raise AssertionError("another game's seat token was let in")
            except grpc.aio.AioRpcError as error:
                assert error_info(error).reason == "BAD_CREDENTIALS"
            for outsider in (None, created.host_token):
                got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id),
                                         metadata=bearer(outsider) if outsider else None)
                assert not got.HasField("board") and got.game.last_seq
            seated = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id),
                                        metadata=bearer(game.seat_tokens[0]))
            assert seated.HasField("board")
            for call in (stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id,
                                                                 at_version=1)),
                         stub.ExportGame(service_pb2.ExportGameRequest(game_id=game.game_id),
                                         metadata=bearer(created.host_token))):
                try:
                    await call
                    raise AssertionError("a replay or export of a round in play")
                except grpc.aio.AioRpcError as error:
                    assert (error.code(), error_info(error).reason) == (
                        grpc.StatusCode.FAILED_PRECONDITION, "GAME_NOT_OVER")

        # the same over the HTTP port's JSON: a Connect stream and a GetGame POST
        last = (await stub.GetGame(service_pb2.GetGameRequest(game_id=fast.game_id))
                ).game.last_seq
        shown = connect_events(service, fast.game_id, last)
        fought = [e["classic"]["battleResolved"] for e in shown
                  if "battleResolved" in e.get("classic", {})]
        assert len(fought) >= 6
        for battle in fought:
            assert set(battle["attackDice"]) == set(battle["defenceDice"]) == {HIDDEN}, battle
        assert [parse(service_pb2.StreamEventsResponse, {"event": e}).event for e in shown] \
            == await streamed(stub, fast.game_id, None)
        status, got = post_json(service, "GetGame", {"gameId": fast.game_id})
        assert status == 200 and "board" not in got

        await finish(stub, fast)  # one game over, the other still played: still hidden
        assert_dice_withheld(await streamed(stub, fast.game_id, None), 6)
        await finish(stub, slow)
        for game, count in ((fast, 6), (slow, 2)):
            for outsider in (None, created.host_token):
                events = await streamed(stub, game.game_id, outsider)
                assert_dice_shown(events, count)
                assert battles(events) == battles(
                    await streamed(stub, game.game_id, game.seat_tokens[2]))
            got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))
            assert got.HasField("board")
        status, got = post_json(service, "GetGame", {"gameId": fast.game_id})
        assert status == 200 and "board" in got
        assert all(1 <= d <= 6 for e in connect_events(service, fast.game_id, last)
                   if "battleResolved" in e.get("classic", {})
                   for d in e["classic"]["battleResolved"]["attackDice"])


def test_every_draw_field_a_variant_names_is_on_its_event() -> None:
    """The descriptors' `draws` name fields their events have (a typo would hide nothing)."""
    for name in ("classic", "deep_space", "strike"):
        descriptor = variants.descriptor(name)
        events = {cls.__name__: cls for cls in descriptor.rules.event_types}
        assert descriptor.draws
        for event, fields in descriptor.draws.items():
            for path in fields:
                assert path.split(".")[0] in events[event].__dataclass_fields__, (name, path)
