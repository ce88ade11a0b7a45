"""The replay budget: GetGame's at_version charges the log entries it replays to its caller (its
verified token, else its address); a caller past its budget is refused RESOURCE_EXHAUSTED /
RATE_LIMITED with retry_after_ms on gRPC and on the HTTP port alike, before any replay work,
while other callers' replays and its own plain reads go on."""

from __future__ import annotations

import grpc

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceFactory
from risk_testing.rpc import bearer, error_info
from tests.service.finished_games import finished_game
from tests.service.test_http import info_of, post_json

EVERY = 16
BURST = 100  # replay steps: five replays of 15 log entries and a checkpoint (4) each


async def test_a_caller_past_its_replay_budget_is_refused_and_others_are_not(
    make_service: ServiceFactory, redis_client: object,
) -> None:
    """Seat 0's token spends its budget on replays and is refused RATE_LIMITED with
    retry_after_ms over gRPC and JSON; an anonymous caller still replays, seat 0 still reads
    the game without at_version."""
    web = make_service(http=True, RISK_REPLAY_CHECKPOINT_EVERY=str(EVERY),
                       RISK_REPLAY_BUDGET_PER_S="1", RISK_REPLAY_BUDGET_BURST=str(BURST))
    async with grpc.aio.insecure_channel(web.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game = await finished_game(stub, "classic")  # its seats' tokens are credentials now
        assert game.version > 4 * EVERY
        # seat 1 pays for the game's first replay (the one that writes its checkpoints)
        await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id, at_version=0),
                           metadata=bearer(game.seat_tokens[1]))

        spender = bearer(game.seat_tokens[0])
        served = 0
        refused: grpc.aio.AioRpcError | None = None
        for call in range(BURST):
            version = (call % (game.version // EVERY)) * EVERY + EVERY - 1  # 15 entries
            try:
                await stub.GetGame(service_pb2.GetGameRequest(
                    game_id=game.game_id, at_version=version), metadata=spender)
            except grpc.aio.AioRpcError as error:
                refused = error
                break
            served += 1
        assert refused is not None, "a caller replayed without limit"
        assert served == BURST // (EVERY - 1 + 4)
        assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        info = error_info(refused)
        assert info.reason == "RATE_LIMITED"
        assert "replay steps" in info.metadata["message"]
        assert int(info.metadata["retry_after_ms"]) > 0

        # the same caller over the HTTP port: the same budget, the same refusal
        status, body = post_json(web, "GetGame", {"gameId": game.game_id,
                                                  "atVersion": str(EVERY - 1)},
                                 token=game.seat_tokens[0])
        assert (status, body["code"]) == (429, "resource_exhausted"), body
        assert info_of(body).reason == "RATE_LIMITED"
        assert int(info_of(body).metadata["retry_after_ms"]) > 0

        # its plain reads are not replays
        plain = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id),
                                   metadata=spender)
        assert plain.game.version == game.version

        # another caller (no token: its address) replays as before, on both ports
        for version in (EVERY - 1, 2 * EVERY - 1, game.version):
            got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id,
                                                                at_version=version))
            assert got.HasField("board")
        status, body = post_json(web, "GetGame", {"gameId": game.game_id, "atVersion": "1"})
        assert status == 200, body
