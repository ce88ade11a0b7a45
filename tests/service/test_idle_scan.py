"""The sweepers' scan of the waiting and active games (sweeper.py, `abandon_idle`) is one
process's at a time, and reads what it judges by, not the games' snapshots: a deployment of
several processes reads its games once a minute, not once per process. When the process
holding the scan's turn stops, another takes the turn over and scans.

Two services run in the test's process on the real Redis (two processes of one deployment, each
with its own process id and its own sweeper); what Redis served is read from its own command
statistics.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from risk_proto.risk.v1 import classic_pb2, service_pb2
from risk_service.operations import ACTIVE, GameService
from risk_service.operations.identity import Caller
from risk_service.sweeper import Sweeper
from risk_testing.inprocess import in_process_service
from risk_testing.rpc import classic_options
from tests.service.conftest import Clock

GAMES = 12
TURN_MS = 1_500  # how long the scan's turn outlives its holder's last sweep, here
WAIT_S = 20.0


@pytest.fixture
async def pair(redis_client: aioredis.Redis, redis_url: str, clock: Clock
               ) -> AsyncIterator[tuple[GameService, GameService]]:
    async with (in_process_service(redis_url, clock) as one,
                in_process_service(redis_url, clock) as other):
        assert one.process_id != other.process_id
        yield one, other


def sweeper(games: GameService) -> Sweeper:
    """A process's sweeper that scans on every sweep while it holds the scan's turn."""
    return Sweeper(games, games.store, interval_ms=50, idle_scan_ms=0, turn_ms=TURN_MS)


async def create(games: GameService) -> str:
    created = await games.commands.create(service_pb2.CreateGameRequest(
        options=classic_options(players=3, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL,
                                auto_place=True), seed=4, issue_seat_tokens=True),
        Caller.of(None))
    assert created.game.status == service_pb2.GAME_STATUS_ACTIVE
    return created.game.game_id


async def calls(client: aioredis.Redis) -> dict[str, int]:
    """How many times Redis ran each command since its statistics were last reset."""
    stats = await client.info("commandstats")
    return {name.removeprefix("cmdstat_"): int(stat["calls"]) for name, stat in stats.items()}


async def status(games: GameService, game_id: str) -> int:
    return (await games.queries.get(service_pb2.GetGameRequest(game_id=game_id),
                                    Caller.of(None))).game.status


async def test_one_process_scans_the_games_for_the_deployment(
        pair: tuple[GameService, GameService], redis_client: aioredis.Redis) -> None:
    """Both processes sweep once: the games are read once, each by its status and last update,
    and no snapshot is read (none of them is idle, moved on or stalled)."""
    one, other = pair
    for _ in range(GAMES):
        await create(one)
    await redis_client.config_resetstat()
    await sweeper(one).sweep_once()
    await sweeper(other).sweep_once()
    served = await calls(redis_client)
    assert served.get("hmget") == GAMES, served
    assert "hgetall" not in served, f"the scan read whole games: {served}"


async def test_the_scan_passes_on_when_its_process_stops(
        pair: tuple[GameService, GameService], clock: Clock) -> None:
    """The process holding the scan's turn stops sweeping: the other does not scan while the
    turn is still held, and scans (abandoning the game gone idle meanwhile) once it lapsed."""
    one, other = pair
    game_id = await create(one)
    await sweeper(one).sweep_once()  # its turn: it scans, and nothing is idle yet
    clock.now += one.limits.idle_after(ACTIVE) + 1  # and then it stops
    follower = sweeper(other)
    await follower.sweep_once()
    assert await status(other, game_id) == service_pb2.GAME_STATUS_ACTIVE, \
        "a process scanned while another held the turn"
    async with asyncio.timeout(WAIT_S):
        while await status(other, game_id) != service_pb2.GAME_STATUS_ABANDONED:
            await asyncio.sleep(TURN_MS / 1000 / 4)
            await follower.sweep_once()
