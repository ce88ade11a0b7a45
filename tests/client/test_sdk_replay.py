"""The SDK's get_game_at: a finished game replayed at a version is the engine's spectator
board after that version; past the end and for a game in play, the service's refusals."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from risk_client import IllegalMove, InvalidArgument, RiskClient
from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceProcess
from tests.service.finished_games import fast_options, finished_game, spectator_boards


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    process = ServiceProcess(redis_url, tmp_path_factory.mktemp("sdk-replay"),
                             RISK_KEY_PREFIX="sdk-replay")
    process.start()
    yield process
    process.stop()


async def test_get_game_at_replays_a_finished_game(service: ServiceProcess) -> None:
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game = await finished_game(stub, "deep_space")
        boards = await spectator_boards(stub, game)
        options, seed = fast_options("classic")
        playing = await stub.CreateGame(service_pb2.CreateGameRequest(
            options=options, seed=seed, issue_seat_tokens=True))
    async with RiskClient(service.target) as client:
        for version in (0, game.version // 3, game.version):
            got = await client.get_game_at(game.game_id, version)
            assert got.board == boards[version] and got.viewer_seat == -1
        with pytest.raises(InvalidArgument) as past:
            await client.get_game_at(game.game_id, game.version + 1)
        assert past.value.reason == "VERSION_OUT_OF_RANGE"
        with pytest.raises(IllegalMove) as in_play:
            await client.get_game_at(playing.game.game_id, 0)
        assert in_play.value.reason == "GAME_NOT_OVER"
