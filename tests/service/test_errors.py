"""Every kind of bad input gets its documented status and reason, and changes nothing.

The tests share one service (`service`, which conftest's `stub` connects to): each makes
games of its own and none needs a fresh process."""

from __future__ import annotations

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from risk_proto.risk.v1 import classic_pb2, game_pb2, service_pb2, service_pb2_grpc
from risk_rules import variants, wire
from risk_testing.rpc import bearer, create_request, error_info, rpc_error
from tests.serving import module_service

service = module_service("service-errors")
Classic = classic_pb2.ClassicAction


async def _game(stub: service_pb2_grpc.RiskServiceStub) -> tuple[str, str, str, str, int]:
    """A started 3-player claim game: (game id, host token, token of the seat to act, another
    seat's token, the game's version)."""
    created = await stub.CreateGame(create_request(seed=11, players=3))
    game_id = created.game.game_id
    tokens = [
        (await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=s))).seat_token
        for s in range(3)
    ]
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    first = game.decision.seats[0]
    return game_id, created.host_token, tokens[first], tokens[(first + 1) % 3], game.version


def _claim(territory: int) -> game_pb2.Action:
    claim = Classic.ClaimTerritory(territory=territory)
    return game_pb2.Action(classic=Classic(claim_territory=claim))


async def _snapshot(stub: service_pb2_grpc.RiskServiceStub, game_id: str) -> bytes:
    reply = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
    return reply.SerializeToString(deterministic=True)


async def test_unknown_game_is_not_found(stub: service_pb2_grpc.RiskServiceStub) -> None:
    """A well-formed id of a game that does not exist answers NOT_FOUND / GAME_NOT_FOUND."""
    error = await rpc_error(stub.GetGame(service_pb2.GetGameRequest(game_id="0" * 22)))
    assert error.code() == grpc.StatusCode.NOT_FOUND
    assert error_info(error).reason == "GAME_NOT_FOUND"


async def test_refusals_decode_with_grpcio_status(
    stub: service_pb2_grpc.RiskServiceStub,
) -> None:
    """grpcio-status' from_call reads each refusal's trailer: same code, message, ErrorInfo."""
    game_id, _host, actor, _other, v = await _game(stub)
    stream = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id="0" * 22))
    refusals = [
        await rpc_error(stub.GetGame(service_pb2.GetGameRequest(game_id="0" * 22))),
        await rpc_error(stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game_id, action=_claim(99), expected_version=v), metadata=bearer(actor))),
        await rpc_error(stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game_id, action=_claim(0), expected_version=v + 5),
            metadata=bearer(actor))),
        await rpc_error(stream.read()),
    ]
    reasons = []
    for error in refusals:
        status = rpc_status.from_call(error)  # raises if code or message disagree
        assert status is not None, error
        assert (status.code, status.message) == (error.code().value[0], error.details())
        (detail,) = status.details
        info = error_details_pb2.ErrorInfo()
        assert detail.Unpack(info)
        assert info == error_info(error)
        reasons.append(info.reason)
    assert reasons == ["GAME_NOT_FOUND", "NO_SUCH_TERRITORY", "STALE_VERSION", "GAME_NOT_FOUND"]


async def test_malformed_game_id_is_invalid(stub: service_pb2_grpc.RiskServiceStub) -> None:
    """A game id that no game could have is INVALID_ARGUMENT, not NOT_FOUND."""
    error = await rpc_error(stub.GetGame(service_pb2.GetGameRequest(game_id="{x}:*")))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(error).reason == "MALFORMED_REQUEST"


async def test_bad_inputs_answer_their_status_and_change_nothing(
    stub: service_pb2_grpc.RiskServiceStub,
) -> None:
    """Malformed action, illegal move, wrong seat, missing/bad token, stale version."""
    game_id, host, actor, other, v = await _game(stub)
    before = await _snapshot(stub, game_id)
    request = service_pb2.SubmitActionRequest

    cases = [
        # (call, code, reason)
        (stub.SubmitAction(request(game_id=game_id, action=game_pb2.Action(), expected_version=v),
                           metadata=bearer(actor)),
         grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        (stub.SubmitAction(request(game_id=game_id, action=game_pb2.Action(classic=Classic()),
                                   expected_version=v), metadata=bearer(actor)),
         grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        (stub.SubmitAction(request(game_id=game_id, action=_claim(99), expected_version=v),
                           metadata=bearer(actor)),
         grpc.StatusCode.FAILED_PRECONDITION, "NO_SUCH_TERRITORY"),
        (stub.SubmitAction(request(game_id=game_id, action=_claim(0), expected_version=v),
                           metadata=bearer(other)),
         grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN"),
        (stub.SubmitAction(request(game_id=game_id, action=_claim(0), expected_version=v,
                                   seat=5), metadata=bearer(actor)),
         grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT"),
        (stub.SubmitAction(request(game_id=game_id, action=_claim(0), expected_version=v),
                           metadata=bearer(host)),
         grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT"),
        (stub.SubmitAction(request(game_id=game_id, action=_claim(0), expected_version=v)),
         grpc.StatusCode.UNAUTHENTICATED, "MISSING_CREDENTIALS"),
        (stub.SubmitAction(request(game_id=game_id, action=_claim(0), expected_version=v),
                           metadata=bearer("not-a-token")),
         grpc.StatusCode.UNAUTHENTICATED, "BAD_CREDENTIALS"),
        (stub.SubmitAction(request(game_id=game_id, action=_claim(0), expected_version=v),
                           metadata=(("authorization", "Basic abc"),)),
         grpc.StatusCode.UNAUTHENTICATED, "BAD_CREDENTIALS"),
        (stub.SubmitAction(request(game_id=game_id, action=_claim(0), expected_version=v + 3),
                           metadata=bearer(actor)),
         grpc.StatusCode.ABORTED, "STALE_VERSION"),
        (stub.SubmitAction(request(game_id=game_id, action=_claim(0), expected_version=v,
                                   request_id="has space"), metadata=bearer(actor)),
         grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        (stub.ListLegalActions(service_pb2.ListLegalActionsRequest(game_id=game_id)),
         grpc.StatusCode.UNAUTHENTICATED, "MISSING_CREDENTIALS"),
        (stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=0)),
         grpc.StatusCode.FAILED_PRECONDITION, "SEAT_TAKEN"),
        (stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=3)),
         grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        (stub.CreateGame(create_request(players=9)),
         grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        (stub.CreateGame(service_pb2.CreateGameRequest(options=game_pb2.GameOptions())),
         grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        (stub.CreateGame(service_pb2.CreateGameRequest(
            options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(setup=7)))),
         grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        (stub.ListGames(service_pb2.ListGamesRequest(page_token="???")),
         grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
    ]
    for call, code, reason in cases:
        error = await rpc_error(call)
        assert (error.code(), error_info(error).reason) == (code, reason), error.details()
        assert error.details(), "every error carries a message"
    stale = await rpc_error(stub.SubmitAction(
        request(game_id=game_id, action=_claim(0), expected_version=v + 3), metadata=bearer(actor)))
    assert error_info(stale).metadata["current_version"] == str(v)
    assert await _snapshot(stub, game_id) == before


async def test_every_contract_variant_is_served_or_unimplemented(
    stub: service_pb2_grpc.RiskServiceStub,
) -> None:
    """Each variant the contract names either creates a game with its defaults or, when this
    build does not serve it, answers UNIMPLEMENTED / VARIANT_NOT_AVAILABLE."""
    for case in game_pb2.GameOptions.DESCRIPTOR.oneofs_by_name["variant"].fields:
        if case.name == wire.EXTENSION:
            continue
        options = game_pb2.GameOptions()
        getattr(options, case.name).SetInParent()
        call = stub.CreateGame(service_pb2.CreateGameRequest(options=options, seed=1))
        described = variants.by_case(case.name)
        if described is not None:
            assert (await call).game.variant == described.number
        else:
            error = await rpc_error(call)
            assert error.code() == grpc.StatusCode.UNIMPLEMENTED
            assert error_info(error).reason == "VARIANT_NOT_AVAILABLE"


async def test_oversized_request_is_resource_exhausted(
    stub: service_pb2_grpc.RiskServiceStub,
) -> None:
    """A request above the configured message size is refused before it reaches a game."""
    request = create_request()
    request.seat_names.extend(["x" * 60] * 2000)
    error = await rpc_error(stub.CreateGame(request))
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


async def test_legal_move_after_rejections_applies(stub: service_pb2_grpc.RiskServiceStub) -> None:
    """After a burst of bad input the game still takes the right seat's legal move."""
    game_id, _host, actor, _other, v = await _game(stub)
    await rpc_error(stub.SubmitAction(service_pb2.SubmitActionRequest(
        game_id=game_id, action=_claim(99), expected_version=v), metadata=bearer(actor)))
    reply = await stub.SubmitAction(service_pb2.SubmitActionRequest(
        game_id=game_id, action=_claim(0), expected_version=v, request_id="r1"),
        metadata=bearer(actor))
    assert reply.version == v + 1
    assert reply.events[0].classic.territory_claimed.territory == 0


async def test_two_authorization_values_are_refused_whichever_comes_first(
        stub: service_pb2_grpc.RiskServiceStub) -> None:
    """A call carrying two `authorization` values, the seat's own first or last, is refused
    UNAUTHENTICATED / BAD_CREDENTIALS and moves nothing: the rate limit and the credential
    check never read different ones."""
    game_id, _host, token, _other, version = await _game(stub)
    before = await _snapshot(stub, game_id)
    move = service_pb2.SubmitActionRequest(game_id=game_id, action=_claim(0),
                                           expected_version=version)
    for values in ((token, "junk"), ("junk", token)):
        metadata = tuple(("authorization", f"Bearer {value}") for value in values)
        error = await rpc_error(stub.SubmitAction(move, metadata=metadata))
        assert (error.code(), error_info(error).reason) == (
            grpc.StatusCode.UNAUTHENTICATED, "BAD_CREDENTIALS")
    assert await _snapshot(stub, game_id) == before
    reply = await stub.SubmitAction(move, metadata=bearer(token))  # one value: it counts
    assert reply.version == version + 1
