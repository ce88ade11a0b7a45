"""`RiskClient.stream_games` (issue 37 item 1, the SDK's side): two games followed as one
stream through a SIGKILL and restart of the service; the SDK reopens the stream with its last
resume token by itself, and every event of each game arrives once, in order."""

from __future__ import annotations

import asyncio
import time

import grpc

from risk_client import RiskClient
from risk_proto.risk.v1 import classic_pb2, game_pb2, service_pb2
from risk_testing.harness import ServiceFactory
from tests.web.driver import move_by_grpc

OPTIONS = game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
    players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True))


async def test_stream_games_resumes_by_itself_across_a_restart(
        make_service: ServiceFactory, redis_client: object) -> None:
    """Moves before and after the restart reach the SDK's stream once each: per game, seqs
    1..last; the SDK reported its reconnect."""
    service = make_service()
    reconnects: list[str] = []
    async with RiskClient(service.target) as client:
        stub = client._connection.ready_stub()  # the raw calls the players make
        games = {}
        for _ in range(2):
            created = await stub.CreateGame(service_pb2.CreateGameRequest(
                options=OPTIONS, issue_seat_tokens=True))
            games[created.game.game_id] = dict(enumerate(created.seat_tokens))
        seqs: dict[str, list[int]] = {g: [] for g in games}
        stream = client.stream_games(
            games=list(games), on_reconnect=lambda error, _n: reconnects.append(str(error)))

        async def read_until_last() -> None:
            lasts = {g: (await stub.GetGame(service_pb2.GetGameRequest(game_id=g))
                         ).game.last_seq for g in games}
            deadline = time.monotonic() + 30
            while any(not seqs[g] or seqs[g][-1] < s for g, s in lasts.items()):
                assert time.monotonic() < deadline, (seqs, lasts)
                reply = await asyncio.wait_for(anext(stream), 30)
                if reply.WhichOneof("kind") == "event":
                    seqs[reply.event.game_id].append(reply.event.event.seq)

        for game_id, tokens in games.items():
            await move_by_grpc(stub, game_id, tokens)
        await read_until_last()
        service.restart()  # SIGKILL, then a new process on the same ports
        for game_id, tokens in games.items():
            for _ in range(2):
                while True:
                    try:
                        await move_by_grpc(stub, game_id, tokens)
                        break
                    except grpc.aio.AioRpcError:  # the service still starting: again
                        await asyncio.sleep(0.1)
        await read_until_last()
        await stream.aclose()
        for game_id in games:
            last = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
                    ).game.last_seq
            assert seqs[game_id] == list(range(1, last + 1))
    assert reconnects  # the SDK lost the stream and said so before it reopened it
