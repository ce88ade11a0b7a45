"""Redis comes back at an older state (a restore, a failover to a lagging replica, power loss
with `everysec`): two service processes that cached states of the lost branch serve the
restored game and accept moves computed on it, never the lost branch."""

from __future__ import annotations

import shutil
from pathlib import Path

import grpc
import redis.asyncio as aioredis

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceFactory
from risk_testing.rpc import bearer, create_request
from tests.conftest import RedisServerFactory
from tests.reliability.replay import check_export
from tests.stored_state import astate_now

Stub = service_pb2_grpc.RiskServiceStub


async def _view(stub: Stub, game_id: str) -> service_pb2.GetGameResponse:
    return await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))


async def _claim(stub: Stub, game_id: str, tokens: list[str], pick: int) -> int:
    """One claim by the deciding seat, computed on what `stub`'s process serves; `pick`
    chooses among the free territories (0: the first, -1: the last). Returns the version the
    move committed."""
    game = (await _view(stub, game_id)).game
    auth = bearer(tokens[game.decision.seats[0]])
    legal = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(game_id=game_id),
                                        metadata=auth)
    assert legal.version == game.version
    reply = await stub.SubmitAction(service_pb2.SubmitActionRequest(
        game_id=game_id, action=legal.actions[pick].action, expected_version=legal.version,
        request_id=f"claim-{legal.version}-{pick}"), metadata=auth)
    return reply.version


async def test_two_processes_follow_redis_restored_from_an_older_aof(
    make_redis_server: RedisServerFactory, make_service: ServiceFactory, tmp_path: Path,
) -> None:
    """Play, copy the AOF, play on through both processes (the lost branch), restore the
    older AOF and restart Redis. The process that cached a lost version accepts a move made on
    the restored board (instead of ABORTED forever); once the new branch reaches the lost
    branch's version again, the other process serves the new board and accepts a move made on
    it; the lost claims appear nowhere, and the log, events and snapshot agree."""
    server = make_redis_server(appendfsync="always")
    one, two = make_service(server.url), make_service(server.url)
    async with grpc.aio.insecure_channel(one.target) as ch1, \
            grpc.aio.insecure_channel(two.target) as ch2:
        a, b = Stub(ch1), Stub(ch2)
        request = create_request(seed=9, players=3)
        request.issue_seat_tokens = True
        created = await a.CreateGame(request)
        game_id, tokens = created.game.game_id, list(created.seat_tokens)
        for _ in range(4):
            restored_version = await _claim(a, game_id, tokens, 0)
        saved = tmp_path / "aof-at-restore-point"
        shutil.copytree(server.data_dir / "appendonlydir", saved)
        restored_board = (await _view(a, game_id)).board

        for _ in range(3):  # the lost branch: process one caches restored_version + 3 ...
            await _claim(a, game_id, tokens, 0)
        for _ in range(3):  # ... and process two restored_version + 6
            lost_version = await _claim(b, game_id, tokens, 0)
        lost_board = (await _view(b, game_id)).board
        assert lost_version == restored_version + 6

        server.stop()
        shutil.rmtree(server.data_dir / "appendonlydir")
        shutil.copytree(saved, server.data_dir / "appendonlydir")
        server.start()

        for stub in (a, b):
            got = await _view(stub, game_id)
            assert (got.game.version, got.board) == (restored_version, restored_board)
        # process one cached version restored+3: a move made on the restored board is taken
        assert await _claim(a, game_id, tokens, -1) == restored_version + 1
        for _ in range(5):  # the new branch reaches the lost branch's version again
            version = await _claim(a, game_id, tokens, -1)
        assert version == lost_version
        new_board = (await _view(a, game_id)).board
        assert new_board != lost_board
        # process two cached the lost branch at this very version: it serves the new board
        assert (await _view(b, game_id)).board == new_board
        assert await _claim(b, game_id, tokens, -1) == lost_version + 1
        assert (await _view(a, game_id)).board == (await _view(b, game_id)).board

        for seat in (0, 1):
            await b.Resign(service_pb2.ResignRequest(game_id=game_id),
                           metadata=bearer(tokens[seat]))
        export = await a.ExportGame(service_pb2.ExportGameRequest(game_id=game_id),
                                    metadata=bearer(tokens[2]))
    assert [e.version for e in export.log] == list(range(1, export.version + 1))
    client = aioredis.Redis.from_url(server.url)
    try:
        snapshot = (await astate_now(client, game_id))[1]
        assert check_export(export, snapshot) == lost_version  # version 1 is the start
    finally:
        await client.aclose()
