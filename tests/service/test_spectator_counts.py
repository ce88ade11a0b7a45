"""Spectator counts (issue 37 item 3): streams of a game without a seat, opened on two real
service processes on one Redis, are counted in GetGame's and ListGames' summaries on either
process; a seat's own stream is not a spectator, and a spectator who leaves is counted out."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import grpc
import pytest

from risk_proto.risk.v1 import classic_pb2, game_pb2, service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceFactory, ServiceProcess
from tests.service.test_plain_streams import curl, ndjson_until

Stub = service_pb2_grpc.RiskServiceStub


@pytest.fixture
def two(make_service: ServiceFactory, redis_client: object) -> tuple[ServiceProcess, ...]:
    """Two service processes on the same Redis, the second with its HTTP port."""
    return make_service(), make_service(http=True)


@pytest.fixture
async def stubs(two: tuple[ServiceProcess, ...]) -> AsyncIterator[tuple[Stub, Stub]]:
    async with grpc.aio.insecure_channel(two[0].target) as a, \
            grpc.aio.insecure_channel(two[1].target) as b:
        yield service_pb2_grpc.RiskServiceStub(a), service_pb2_grpc.RiskServiceStub(b)


async def until(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def test_spectators_on_two_processes_are_counted_in_summaries(
        two: tuple[ServiceProcess, ...], stubs: tuple[Stub, Stub]) -> None:
    """A gRPC spectator on one process and a curl NDJSON spectator on the other make 2 in
    GetGame and ListGames on both (a seat's stream beside them counts for nothing); when the
    gRPC one leaves, both say 1, and 0 once curl has gone too."""
    a = stubs[0]
    created = await a.CreateGame(service_pb2.CreateGameRequest(
        options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
            players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True)),
        issue_seat_tokens=True))
    game_id = created.game.game_id
    last = (await a.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.last_seq

    async def counted(count: int) -> bool:
        for stub in stubs:
            got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
            listed = await stub.ListGames(service_pb2.ListGamesRequest())
            (summary,) = [g for g in listed.games if g.game_id == game_id]
            if (got.game.spectators, summary.spectators) != (count, count):
                return False
        return True

    assert await counted(0)
    spectator = a.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id))
    seat = a.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id), metadata=(
        ("authorization", f"Bearer {created.seat_tokens[0]}"),))
    await spectator.read()
    await seat.read()
    async with curl(f"{two[1].http_url}/v1/games/{game_id}/events") as process:
        await ndjson_until(process, last)
        await until(lambda: counted(2), "two spectators counted on both processes")
        spectator.cancel()
        await until(lambda: counted(1), "the gRPC spectator counted out")
    await until(lambda: counted(0), "the curl spectator counted out")
    seat.cancel()
