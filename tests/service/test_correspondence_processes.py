"""Correspondence deadlines enforced exactly once by two real service processes on one Redis
(docs/lifecycle.md, "Correspondence clocks", "Exactly once").

A turn deadline is at least an hour away and the service has no clock to move, so the test
injects the fault a stalled world would leave: it writes each game's turn deadline as already
passed into the game's stored meta and the deadline index, then lets both processes' sweepers
find it at the same moments.
"""

from __future__ import annotations

import asyncio
import time

import grpc
import redis.asyncio as aioredis

from risk_proto.risk.v1 import (
    classic_pb2,
    game_pb2,
    lifecycle_pb2,
    service_pb2,
    service_pb2_grpc,
)
from risk_service.redis_server import free_port
from risk_testing.harness import ServiceFactory
from risk_testing.rpc import classic_options
from tests.service.test_lifecycle import _metric

GAMES = 4
HOUR_S = 3600


async def _lifecycle(client: aioredis.Redis, game_id: str) -> list[str]:
    """The kinds of the game's lifecycle events in Redis, in order."""
    kinds = []
    for _id, fields in await client.xrange(f"risk:g:{{{game_id}}}:ev"):
        event = game_pb2.Event.FromString(fields[b"e"])
        if event.WhichOneof("variant") == "lifecycle":
            kinds.append(str(event.lifecycle.WhichOneof("kind")))
    return kinds


async def test_two_processes_enforce_a_due_turn_deadline_once(
        make_service: ServiceFactory, redis_client: aioredis.Redis) -> None:
    """Two `python -m risk_service` processes sweep the same due turn deadlines every 10 ms:
    each game's missed turn is counted once (one turn_missed), the turn moves on to the next
    seat with a fresh hour, every timeout logged as applied is in a stream, and neither
    process lost a commit race."""
    ports = [free_port(), free_port()]
    services = [make_service(RISK_SWEEP_INTERVAL_MS="10", RISK_METRICS_PORT=str(port))
                for port in ports]
    async with grpc.aio.insecure_channel(services[0].target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        created = [await stub.CreateGame(service_pb2.CreateGameRequest(
            options=classic_options(players=3, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL,
                                    auto_place=True),
            seed=30 + n, issue_seat_tokens=True,
            clock=lifecycle_pb2.ClockOptions(turn_seconds=HOUR_S, missed_turns_limit=3)))
            for n in range(GAMES)]
        games = [reply.game.game_id for reply in created]
        first_seat = {}
        due = int(time.time() * 1000) - 1000
        for game_id in games:  # the fault: each turn deadline has passed already
            key = f"risk:g:{{{game_id}}}"
            meta = lifecycle_pb2.GameMeta.FromString(await redis_client.hget(key, "meta"))
            assert meta.deadline_ms > due + HOUR_S * 1000 - 60_000
            first_seat[game_id] = meta.turn_seat
            meta.deadline_ms = due
            await redis_client.hset(key, "meta", meta.SerializeToString(deterministic=True))
            await redis_client.zadd("risk:deadlines", {game_id: due})

        async def moved_on() -> bool:
            for game_id in games:
                game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
                if game.deadline_ms <= due or "turn_missed" not in await _lifecycle(
                        redis_client, game_id):
                    return False
            return True

        deadline = time.monotonic() + 30
        while not await moved_on():
            assert time.monotonic() < deadline, "not within 30 s: every due turn taken"
            await asyncio.sleep(0.05)
        turns = [(await stub.GetGame(service_pb2.GetGameRequest(game_id=g))).game
                 for g in games]
    conflicts = [await _metric(port, "risk_commit_conflicts_total") for port in ports]
    for service in services:
        service.stop()
    timed_out = 0
    for game_id, game in zip(games, turns, strict=True):
        kinds = await _lifecycle(redis_client, game_id)
        assert kinds.count("turn_missed") == 1, (game_id, kinds)
        timed_out += kinds.count("decision_timed_out")
        assert game.missed_turns[first_seat[game_id]] == 1
        assert game.deadline_ms > due + HOUR_S * 1000 - 60_000, "a fresh hour for the next turn"
    applied = sum(s.logs().count('"timeout_applied"') for s in services)
    assert applied == timed_out, "a timeout logged as applied is not in a stream"
    assert conflicts == [0, 0], f"the two processes raced for one deadline: {conflicts}"
