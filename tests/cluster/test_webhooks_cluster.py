"""Signed webhooks (docs/notifications.md) from two service processes on a real Redis Cluster
(3 masters, 3 replicas; one process with RISK_DURABILITY=replica) to two receiver processes
that verify every delivery with the standardwebhooks library (tests/service/
webhook_receiver.py): a game played with player tokens across both processes delivers its
start, every turn, both resignations and its end to each endpoint, once per notice; every
key of an endpoint's queue lives in one hash slot, so each of the queue's scripts runs on one
node (no CROSSSLOT)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc
from redis.asyncio.cluster import RedisCluster

from risk_proto.risk.v1 import service_pb2
from risk_service.notify.delivery import endpoint_id
from risk_service.notify.queue import PARTS
from risk_service.store.keys import Keys
from risk_testing.cluster import LocalCluster
from risk_testing.rpc import bearer
from tests.cluster.conftest import ClusterServiceFactory
from tests.service import test_webhooks as hooks
from tests.service.test_my_games import Stub, move, new_player, player_game, turn_of

Receiver, hook_env, wait_for = hooks.Receiver, hooks.hook_env, hooks.wait_for
# the webhook tests' fixtures (the receiver process, the secret), found by name
secret, receivers = hooks.secret, hooks.receivers

MOVES = 24  # commits by the players, alternating between the two service processes


def _notices(records: list[dict[str, Any]], game_id: str) -> set[tuple[str, int, int]]:
    """(type, version, seat) of every verified delivery about the game."""
    return {(r["envelope"]["type"], r["envelope"]["data"]["version"],
             r["envelope"]["data"].get("seat", -1))
            for r in records if r["verified"] and 200 <= r["status"] < 300
            and r["envelope"]["data"].get("game_id") == game_id}


async def test_a_games_webhooks_arrive_from_a_cluster_with_each_queue_in_one_slot(
        cluster: LocalCluster, cluster_client: RedisCluster,
        make_cluster_service: ClusterServiceFactory,
        receivers: Callable[[], Receiver], secret: str) -> None:
    """Three players play 24 moves with their own tokens through two processes on the
    cluster (one waiting for replicas), then two resign: each of two endpoints gets
    game.started, a turn.started for every turn, the two seat.removed and game.finished,
    each verified and once per webhook-id; every key under an endpoint's tag is in that
    endpoint's one slot, and the endpoint's stats count every delivery."""
    first, second = receivers(), receivers()
    first.start()
    second.start()
    env = hook_env(secret, first.url, second.url)
    del env["RISK_SWEEP_INTERVAL_MS"]  # the cluster fixture sets it (50 ms, as hook_env's)
    # process B waits for a replica on every commit and every queue write (on the queue's
    # own master: the WAIT follows each script on the connection to that node)
    a = make_cluster_service(**env)
    b = make_cluster_service(**env, RISK_DURABILITY="replica",
                             RISK_DURABILITY_TIMEOUT_MS="2000")
    async with grpc.aio.insecure_channel(a.target) as ca, \
            grpc.aio.insecure_channel(b.target) as cb:
        stubs = [Stub(ca), Stub(cb)]
        players = [await new_player(stubs[0]) for _ in range(3)]
        ids, tokens = [p for p, _ in players], [t for _, t in players]
        game_id = (await player_game(stubs[0], tokens[0], ids)).game.game_id
        expected = {("game.started", 1, -1)}
        last = -1
        for done in range(MOVES + 1):
            stub = stubs[done % 2]
            game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
            seat = game.decision.seats[0]
            if seat != last:  # the turn passed to another seat: its player is told
                expected.add(("turn.started", game.version, seat))
                last = seat
            if done < MOVES:
                await move(stub, game_id, tokens[seat])
        resigning = [s for s in range(3) if s != await turn_of(stubs[0], game_id)][:2]
        for number, seat in enumerate(resigning):
            resigned = await stubs[number % 2].Resign(
                service_pb2.ResignRequest(game_id=game_id), metadata=bearer(tokens[seat]))
            expected.add(("seat.removed", resigned.version, seat))
            if resigned.game.HasField("outcome"):
                expected.add(("game.finished", resigned.version, -1))
                break
            # a resignation of the seat to move passes the turn on
            now = resigned.game.decision.seats
            if now and now[0] != last:
                expected.add(("turn.started", resigned.version, now[0]))
                last = now[0]
        final = (await stubs[1].GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        assert final.HasField("outcome")
    turns = sum(kind == "turn.started" for kind, _v, _s in expected)
    assert turns > 8, expected
    for receiver in (first, second):
        await wait_for("every notice of the game at each endpoint",
                       lambda r=receiver: _notices(r.records(), game_id) >= expected,  # type: ignore[misc]
                       timeout=60)
        assert _notices(receiver.records(), game_id) == expected
        ids_by_notice: dict[tuple[str, int, int], set[str]] = {}
        for record in receiver.delivered():
            data = record["envelope"]["data"]
            if data.get("game_id") == game_id:
                key = (record["envelope"]["type"], data["version"], data.get("seat", -1))
                ids_by_notice.setdefault(key, set()).add(record["id"])
        assert all(len(seen) == 1 for seen in ids_by_notice.values()), ids_by_notice
    keys = Keys()
    for receiver in (first, second):
        endpoint = endpoint_id(receiver.url)
        slot = cluster_client.keyslot(keys.webhook(endpoint, "due"))
        assert {cluster_client.keyslot(keys.webhook(endpoint, p)) for p in PARTS} == {slot}
        tag = keys.webhook(endpoint, "due").rsplit(":", 1)[0]
        found = []
        for node in cluster.live_masters():
            with cluster.client(node) as client:
                found += [k.decode() for k in client.scan_iter(match=f"{tag}:*")]
        assert found, f"no key of endpoint {endpoint} on any master"
        assert {cluster_client.keyslot(k) for k in found} == {slot}, found
        stats = await cluster_client.hget(keys.webhook(endpoint, "stats"), "delivered")
        delivered = int(stats or 0)
        assert delivered >= len(expected), (delivered, len(expected))
