"""GetGame's at_version: a finished game of every variant, as a spectator saw it at any version,
over gRPC and over the HTTP port's JSON, equal to the engine's spectator view after replaying
the game's export up to that version; refused for a game still in play and past the last
version, with the same reasons on both ports."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_rules.engine import REGISTRY
from tests.service.conftest import ServiceFactory
from tests.service.finished_games import (
    fast_options,
    finished_game,
    spectator_boards,
)
from tests.service.harness import ServiceProcess
from tests.service.rpc import bearer, error_info, rpc_error
from tests.service.test_http import info_of, parse, post_json

SAMPLES = 40  # versions read per port and game, spread over the whole game


def _sampled(last: int) -> list[int]:
    step = max(1, last // SAMPLES)
    return sorted({0, 1, last // 2, last, *range(0, last + 1, step)})


@pytest.fixture
def web(make_service: ServiceFactory, redis_client: object) -> ServiceProcess:
    return make_service(http=True)


@pytest.mark.parametrize("variant", sorted(REGISTRY))
async def test_a_finished_game_replays_at_every_version_on_both_ports(
    variant: str, web: ServiceProcess,
) -> None:
    async with grpc.aio.insecure_channel(web.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game = await finished_game(stub, variant)
        boards = await spectator_boards(stub, game)
        # the game changed along the way: a replay that showed one board throughout fails
        assert boards[game.version // 2] != boards[game.version], variant
        final = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))
        assert final.board == boards[game.version]

        # the first reads arrive together: they share the game's one replay
        concurrent = await asyncio.gather(*(stub.GetGame(service_pb2.GetGameRequest(
            game_id=game.game_id, at_version=v)) for v in _sampled(game.version)))
        assert [r.board for r in concurrent] == [boards[v] for v in _sampled(game.version)]
        for version in _sampled(game.version):
            got = await stub.GetGame(service_pb2.GetGameRequest(
                game_id=game.game_id, at_version=version))
            assert got.board == boards[version], f"{variant} at version {version} over gRPC"
            assert got.viewer_seat == -1 and got.game.version == game.version
            status, body = post_json(web, "GetGame",
                                     {"gameId": game.game_id, "atVersion": str(version)})
            assert status == 200, body
            reply = parse(service_pb2.GetGameResponse, body)
            assert reply.board == boards[version], f"{variant} at version {version} over JSON"

        # a seat's credential changes nothing: a replay is the spectator's board, no hand
        middle = game.version // 2
        as_seat = await stub.GetGame(service_pb2.GetGameRequest(
            game_id=game.game_id, at_version=middle), metadata=bearer(game.seat_tokens[0]))
        assert as_seat.board == boards[middle] and as_seat.viewer_seat == -1

        # past the last version: INVALID_ARGUMENT naming the last one, on both ports
        error = await rpc_error(stub.GetGame(service_pb2.GetGameRequest(
            game_id=game.game_id, at_version=game.version + 1)))
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        info = error_info(error)
        assert info.reason == "VERSION_OUT_OF_RANGE"
        assert info.metadata["current_version"] == str(game.version)
        status, body = post_json(web, "GetGame", {"gameId": game.game_id,
                                                  "atVersion": str(game.version + 1)})
        assert (status, body["code"]) == (400, "invalid_argument")
        assert info_of(body).reason == "VERSION_OUT_OF_RANGE"


async def test_a_game_in_play_or_waiting_is_not_replayed(web: ServiceProcess) -> None:
    """GAME_NOT_OVER on both ports, at any version, while the game is waiting or in play."""
    async with grpc.aio.insecure_channel(web.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        options, seed = fast_options("classic")
        waiting = await stub.CreateGame(service_pb2.CreateGameRequest(options=options,
                                                                      seed=seed))
        playing = await stub.CreateGame(service_pb2.CreateGameRequest(
            options=options, seed=seed, issue_seat_tokens=True))
        for created in (waiting, playing):
            game_id = created.game.game_id
            error = await rpc_error(stub.GetGame(service_pb2.GetGameRequest(
                game_id=game_id, at_version=0), metadata=bearer(created.host_token)))
            assert error.code() == grpc.StatusCode.FAILED_PRECONDITION
            assert error_info(error).reason == "GAME_NOT_OVER"
            status, body = post_json(web, "GetGame", {"gameId": game_id, "atVersion": "0"})
            assert (status, body["code"]) == (400, "failed_precondition")
            assert info_of(body).reason == "GAME_NOT_OVER"
        # without at_version the game in play is read as before
        got = await stub.GetGame(service_pb2.GetGameRequest(game_id=playing.game.game_id))
        assert got.game.status == service_pb2.GAME_STATUS_ACTIVE and got.HasField("board")
