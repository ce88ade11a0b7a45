"""Many clients racing on one game: the losers are answered without a Redis commit each, and
a process's cached copy never hides another process's move.

The tests share one pair of services on the session Redis (`pair`), keys under a prefix of
their own; each plays a game of its own, and none flushes Redis under them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
import pytest
import redis.asyncio

from risk_proto.risk.v1 import service_pb2
from risk_rules import wire
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import bearer, error_info
from tests.service.rawbot import Stub, bot_move, channel, open_table, quick_game, summary
from tests.serving import module_pair, unflushed_redis

RACERS = 32
PREFIX = "service-contention"


async def _evalsha_calls(client: redis.asyncio.Redis) -> int:
    stats = await client.info("commandstats")
    return int(stats.get("cmdstat_evalsha", {}).get("calls", 0))


pair = module_pair(PREFIX)
client = unflushed_redis  # a client of the session Redis that does not flush it




@pytest.fixture
async def stubs(
    pair: tuple[ServiceProcess, ServiceProcess]
) -> AsyncIterator[tuple[Stub, Stub]]:
    a, b = pair
    channels = [channel(a.target), channel(b.target)]
    yield Stub(channels[0]), Stub(channels[1])
    for ch in channels:
        await ch.close()


async def test_racers_in_one_process_cost_one_commit(
    stubs: tuple[Stub, Stub], client: redis.asyncio.Redis
) -> None:
    """32 submits of the deciding seat's move at one version, at once, to one process: one is
    applied, 31 get ABORTED STALE_VERSION with the new version, and Redis ran the commit
    script once for the round, not 32 times (Redis holds writes for 0.3 s at the start of
    each round, so the racers really are in the process together)."""
    stub = stubs[0]
    table = await open_table(stub, quick_game(seed=11))
    for round_ in range(5):
        move = await bot_move(stub, table)
        assert move is not None
        version, seat, action = move
        proto = wire.action_to_proto("classic", action)
        await client.config_resetstat()
        # hold Redis's writes a moment, so all 32 are in the process while the first commits
        await client.client_pause(300, all=False)
        results = await asyncio.gather(*(
            stub.SubmitAction(service_pb2.SubmitActionRequest(
                game_id=table.game_id, action=proto, expected_version=version,
                request_id=f"r{round_}-{n}"), metadata=bearer(table.tokens[seat]))
            for n in range(RACERS)), return_exceptions=True)
        ok = [r for r in results if isinstance(r, service_pb2.SubmitActionResponse)]
        lost = [r for r in results if isinstance(r, grpc.aio.AioRpcError)]
        assert len(ok) == 1 and len(lost) == RACERS - 1, results
        assert ok[0].version == version + 1
        for error in lost:
            assert error.code() == grpc.StatusCode.ABORTED
            info = error_info(error)
            assert info.reason == "STALE_VERSION"
            assert info.metadata["current_version"] == str(version + 1)
        assert await _evalsha_calls(client) == 1
        assert (await summary(stub, table.game_id)).version == version + 1


async def test_cached_reads_see_the_other_process_moves(stubs: tuple[Stub, Stub]) -> None:
    """Moves alternate between two processes; each GetGame on either shows the latest
    version and decision, and a submit at a version only the other process has seen works."""
    a, b = stubs
    table = await open_table(a, quick_game(seed=12))
    for step in range(12):
        mover, reader = (a, b) if step % 2 else (b, a)
        move = await bot_move(mover, table)
        assert move is not None
        version, seat, action = move
        reply = await mover.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=table.game_id, action=wire.action_to_proto("classic", action),
            expected_version=version), metadata=bearer(table.tokens[seat]))
        seen = await summary(reader, table.game_id)
        assert seen.version == reply.version == version + 1
        assert list(seen.decision.seats) == list(reply.decision.seats)
