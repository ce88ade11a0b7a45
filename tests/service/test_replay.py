"""GetGame's at_version: a finished game of every variant, as a spectator saw it at any version,
over gRPC and over the HTTP port's JSON, equal to the engine's spectator view after replaying
the game's export up to that version; refused for a game still in play and past the last
version, with the same reasons on both ports. Replays start from checkpoints kept with the game
in Redis, so a fresh process replays a few log entries a call, not the game."""

from __future__ import annotations

import asyncio
import random
import re
import urllib.request

import grpc
import pytest
import redis.asyncio as aioredis

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc
from risk_rules.engine import REGISTRY
from risk_service.redis_server import free_port
from risk_service.store.keys import Keys
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import bearer, error_info, rpc_error
from tests.service.finished_games import (
    fast_options,
    finished_game,
    spectator_boards,
)
from tests.service.test_http import info_of, parse, post_json
from tests.serving import module_service

SAMPLES = 40  # versions read per port and game, spread over the whole game


def _sampled(last: int) -> list[int]:
    step = max(1, last // SAMPLES)
    return sorted({0, 1, last // 2, last, *range(0, last + 1, step)})


# one service with the HTTP port for the tests that only read games of their own; the test of
# a fresh process's checkpoints starts its own (other settings, metrics counted from its start)
web = module_service("service-replay", http=True)


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


async def _replayed(port: int) -> dict[str, float]:
    """risk_replay_steps_total by kind ("answer", "build") from a process's /metrics page."""
    def scrape() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
            return str(reply.read().decode())
    page = await asyncio.to_thread(scrape)
    found = dict(re.findall(r'^risk_replay_steps_total\{kind="(\w+)"\} ([0-9.e+]+)$', page,
                            re.MULTILINE))
    assert set(found) == {"answer", "build"}, "risk_replay_steps_total is not on the page"
    return {kind: float(value) for kind, value in found.items()}


def _bytes(board: game_pb2.BoardView) -> bytes:
    return board.SerializeToString(deterministic=True)


async def test_a_fresh_process_replays_from_the_checkpoints_kept_with_the_game(
    make_service: ServiceFactory, redis_client: aioredis.Redis,
) -> None:
    """The first replay of a finished game keeps its state every K versions in Redis (under
    the game's hash tag, expiring with it); a fresh process (no cache, another K setting)
    then answers random versions byte-identical to the export's full replay, applying fewer
    than K log entries a call and never the whole game; checkpoints of another state are
    replayed afresh."""
    every = 8
    first = make_service(RISK_REPLAY_CHECKPOINT_EVERY=str(every))
    async with grpc.aio.insecure_channel(first.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game = await finished_game(stub, "classic")
        boards = await spectator_boards(stub, game)
        await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id,
                                                      at_version=game.version // 2))
    assert game.version > 4 * every
    keys = Keys()
    checkpoints = f"risk:g:{{{game.game_id}}}:cp"  # the game's hash tag: its slot on a cluster
    kept = await redis_client.hgetall(checkpoints)
    assert (kept[b"fmt"], kept[b"every"]) == (b"1", str(every).encode())
    assert sorted(int(f[2:]) for f in kept if f.startswith(b"s:")) == list(
        range(0, game.version + 1, every))
    # they expire with the game, at the same millisecond
    game_expiry = await redis_client.execute_command("PEXPIRETIME", keys.game(game.game_id))
    assert game_expiry > 0
    assert await redis_client.execute_command("PEXPIRETIME", checkpoints) == game_expiry

    port = free_port()
    fresh = make_service(RISK_METRICS_PORT=str(port), RISK_REPLAY_CHECKPOINT_EVERY="32")
    versions = [0, game.version, *random.Random(game.version).sample(range(game.version), 30)]
    async with grpc.aio.insecure_channel(fresh.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        before = await _replayed(port)
        for version in versions:
            got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id,
                                                                at_version=version))
            assert _bytes(got.board) == _bytes(boards[version]), f"at version {version}"
            after = await _replayed(port)
            # the stride stored with the game, not this process' setting
            assert after["answer"] - before["answer"] <= every - 1, f"at version {version}"
            assert after["build"] == 0
            before = after

        # checkpoints of a state the game no longer holds (Redis lost writes) are not used
        await redis_client.hset(checkpoints, "cid", "another-commit")
        middle = game.version // 2 + 3
        got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id,
                                                            at_version=middle))
        assert _bytes(got.board) == _bytes(boards[middle])
        assert (await _replayed(port))["build"] > 0
        assert (await redis_client.hget(checkpoints, "cid")) != \
            b"another-commit"
