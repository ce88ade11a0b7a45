"""A Redis that stops answering without closing its connections (its host lost, a network
split; here a stopped process, SIGSTOP): calls are answered UNAVAILABLE / STORE_UNAVAILABLE
after RISK_REDIS_TIMEOUT_MS instead of being held until the client gives up, and once Redis
answers again a retry with the same request id commits the move once."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import grpc

from risk_proto.risk.v1 import service_pb2
from risk_testing.harness import ServiceProcess
from risk_testing.redis_server import RedisServer
from risk_testing.rpc import bearer, error_info, rpc_error
from tests.service.rawbot import (
    Log,
    Stub,
    channel,
    next_request,
    open_table,
    play,
    quick_game,
)

# far past the service's 1 s: a call still waiting for Redis then ends DEADLINE_EXCEEDED
CLIENT_DEADLINE_S = 20


async def test_a_store_that_stops_answering_is_answered_unavailable_then_plays_on(
        tmp_path: Path) -> None:
    redis = RedisServer(tmp_path / "redis", appendfsync="everysec")
    redis.start()
    service = ServiceProcess(redis.url, tmp_path, RISK_REDIS_TIMEOUT_MS="1000")
    try:
        service.start()
        async with channel(service.target) as ch:
            stub = Stub(ch)
            table = await open_table(stub, quick_game(seed=6))
            await play(stub, table, Log(table.start_version), moves=3)
            request, seat = await next_request(stub, table, "silent-1")
            version, auth = request.expected_version, bearer(table.tokens[seat])
            pid = redis.pid
            assert pid is not None
            os.kill(pid, signal.SIGSTOP)
            try:
                # the move (the hot path's shared connection) and a listing (the pooled
                # command client) are both answered, not held
                moved = await rpc_error(stub.SubmitAction(request, metadata=auth,
                                                          timeout=CLIENT_DEADLINE_S))
                listed = await rpc_error(stub.ListGames(service_pb2.ListGamesRequest(),
                                                        timeout=CLIENT_DEADLINE_S))
            finally:
                os.kill(pid, signal.SIGCONT)
            for error in (moved, listed):
                assert error.code() == grpc.StatusCode.UNAVAILABLE, error
                assert error_info(error).reason == "STORE_UNAVAILABLE"
            reply = await stub.SubmitAction(request, metadata=auth, timeout=CLIENT_DEADLINE_S)
            assert reply.version == version + 1
            game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=table.game_id))).game
            assert game.version == version + 1, "the move was committed once"
            await play(stub, table, Log(game.version), moves=3)  # and the game plays on
    finally:
        service.stop()
        redis.stop()
