"""GetGame's at_version on a Redis Cluster: the replay checkpoints one process writes sit in
the game's slot and another process replays from them."""

from __future__ import annotations

import random

import grpc
from redis.asyncio.cluster import RedisCluster

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_service.store.keys import Keys
from tests.cluster.conftest import ClusterServiceFactory
from tests.service.finished_games import finished_game, spectator_boards


async def test_checkpoints_share_the_game_slot_and_serve_another_process(
    make_cluster_service: ClusterServiceFactory, cluster_client: RedisCluster,
) -> None:
    """A's first replay writes the game's checkpoints under its hash tag (same slot as its
    hash and log, same expiry); B answers random versions from them, byte-identical to the
    export's full replay."""
    a, b = make_cluster_service(), make_cluster_service()
    keys = Keys()
    async with grpc.aio.insecure_channel(a.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game = await finished_game(stub, "classic")
        boards = await spectator_boards(stub, game)
        await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id, at_version=1))
    checkpoints = f"risk:g:{{{game.game_id}}}:cp"
    slot = cluster_client.keyslot(keys.game(game.game_id))
    assert cluster_client.keyslot(checkpoints) == slot == cluster_client.keyslot(
        keys.log(game.game_id))
    assert await cluster_client.hget(checkpoints, "every") == b"32"
    # the checkpoints expire with the game, at the same millisecond (two PTTLs read one after
    # the other differ by the time between; carried over by PEXPIRE, a PTTL let the
    # checkpoints outlive the game by a millisecond: 2591999965 > 2591999964)
    game_expiry = await cluster_client.execute_command("PEXPIRETIME", keys.game(game.game_id))
    assert game_expiry > 0
    assert await cluster_client.execute_command("PEXPIRETIME", checkpoints) == game_expiry
    async with grpc.aio.insecure_channel(b.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        for version in random.Random(7).sample(range(game.version + 1), 12):
            got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id,
                                                                at_version=version))
            assert got.board.SerializeToString(deterministic=True) == \
                boards[version].SerializeToString(deterministic=True), f"at version {version}"
