"""The webhook queue under RISK_DURABILITY=replica (docs/notifications.md, "Delivery: at least
once"), on a real primary and replica pair: a message is queued only once the replica confirms
it, so a failover right after loses nothing queued; while the replica does not confirm, the
enqueue is refused and a commit's notices stay in its outbox until a sweep queues them.

The first two drive the queue itself (the service's `Webhooks` on the store's `RedisPipe`) in
the test's process, so that the replica can be stopped between a commit and its enqueue, a
moment no client call can reach; the last runs service processes and the receiver process of
test_webhooks.py across a failover."""

from __future__ import annotations

import asyncio
import base64
import os
import secrets
import signal
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import grpc
import pytest
import redis.asyncio as aioredis

from risk_proto.risk.v1 import service_pb2
from risk_service.notify.delivery import Retries, endpoint_id
from risk_service.notify.queue import NotReplicated
from risk_service.notify.webhooks import Webhooks
from risk_service.operations.notices import envelope, outbox_field, pack
from risk_service.redis_server import free_port
from risk_service.server.metrics import Metrics
from risk_service.store.keys import Keys
from risk_service.store.pipe import RedisPipe
from risk_testing.harness import ServiceFactory
from risk_testing.redis_server import RedisServer
from tests.service import test_webhooks as hooks
from tests.service.test_my_games import Stub, move, new_player, player_game

Receiver, hook_env, wait_for = hooks.Receiver, hooks.hook_env, hooks.wait_for
# the webhook tests' fixtures (the receiver process, the secret), found by name
secret, receivers = hooks.secret, hooks.receivers
MOVES = 10

URL = f"http://127.0.0.1:{free_port()}/hooks"  # never reached: nothing here delivers
ENDPOINT = endpoint_id(URL)
TIMEOUT_MS = 1500  # RISK_DURABILITY_TIMEOUT_MS (a loaded machine's replica may take a while)
KEYS = Keys("whr")
T0 = 1_700_000_000_000


class Pair:
    """A primary and its replica (appendfsync everysec, as a replicated deployment runs)."""

    def __init__(self, tmp: Path) -> None:
        self.primary = RedisServer(tmp / "primary", appendfsync="everysec",
                                   extra_args=("--repl-diskless-sync-delay", "0"))
        self.primary.start()
        self.replica = RedisServer(tmp / "replica", appendfsync="everysec", extra_args=(
            "--replicaof", "127.0.0.1", str(self.primary.port)))
        self.replica.start()

    async def linked(self) -> None:
        """Until the primary counts its replica online (it then answers WAIT)."""
        async with aioredis.Redis.from_url(self.primary.url) as primary:
            for _ in range(500):
                info = await primary.info("replication")
                if any(isinstance(v, dict) and v.get("state") == "online"
                       for k, v in info.items() if k.startswith("slave")):
                    return
                await asyncio.sleep(0.02)
        raise AssertionError("the replica never came online")

    def pause_replica(self) -> None:
        """SIGSTOP: the replica takes nothing more and confirms nothing (a slow or cut link)."""
        assert self.replica.pid is not None
        os.kill(self.replica.pid, signal.SIGSTOP)

    def resume_replica(self) -> None:
        assert self.replica.pid is not None
        os.kill(self.replica.pid, signal.SIGCONT)

    def stop(self) -> None:
        self.resume_replica()
        self.replica.stop()
        self.primary.stop()


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[Pair]:
    made = Pair(tmp_path)
    yield made
    made.stop()


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now


@pytest.fixture
async def hooks(pair: Pair) -> AsyncIterator[tuple[Webhooks, Clock]]:
    """The service's webhooks on the pair's primary, waiting for one replica."""
    await pair.linked()
    connection = RedisPipe(pair.primary.url)
    clock = Clock()
    secret = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
    made = Webhooks(connection, KEYS, [URL], secret, clock_ms=clock, retries=Retries(),
                    metrics=Metrics(), max_len=100, wait_replicas=1,
                    wait_timeout_ms=TIMEOUT_MS)
    yield made, clock
    await made.close()
    await connection.close()


async def _queued(url: str) -> set[str]:
    """The ids in the endpoint's queue, as the server at `url` holds it."""
    async with aioredis.Redis.from_url(url) as client:
        return {m.decode() for m in await client.hkeys(KEYS.webhook(ENDPOINT, "msg"))}


async def _failover(pair: Pair) -> None:
    """The primary dies (SIGKILL) and its replica is promoted, as Sentinel would."""
    pair.primary.kill()
    async with aioredis.Redis.from_url(pair.replica.url) as replica:
        await replica.execute_command("REPLICAOF", "NO", "ONE")


async def test_an_enqueue_waits_for_the_replica_and_survives_a_failover(
        pair: Pair, hooks: tuple[Webhooks, Clock]) -> None:
    """An enqueue that returned is on the replica (the promoted one still holds it after the
    primary is killed at once); while the replica confirms nothing, an enqueue is refused
    (NotReplicated, a store error: the caller's request fails and is retried) after the
    durability timeout instead of being acknowledged."""
    webhooks, _clock = hooks
    first = await webhooks.enqueue("round.created", {"tournament": "t", "round": 1},
                                   key="round/t/1")
    pair.pause_replica()
    with pytest.raises(NotReplicated):
        await webhooks.enqueue("round.created", {"tournament": "t", "round": 2},
                               key="round/t/2")
    pair.resume_replica()
    await _failover(pair)
    assert first in await _queued(pair.replica.url), "an acknowledged enqueue was lost"


async def test_a_commits_notices_unconfirmed_stay_in_its_outbox_until_swept(
        pair: Pair, hooks: tuple[Webhooks, Clock]) -> None:
    """A commit's notices whose enqueue the replica did not confirm are not forgotten: the
    game's outbox field and the intent stay, the sweep queues them once the replica is back,
    and after a failover the promoted replica holds the message."""
    webhooks, clock = hooks
    game_id = "0123456789abcdef012345"
    body = envelope("game.started", {"game_id": game_id, "variant": "classic", "version": 1},
                    T0)
    async with aioredis.Redis.from_url(pair.primary.url) as primary:
        # the commit: its intent, then its notices in the game's hash (as operations/commit.py
        # writes them with the change)
        await webhooks.intend(game_id, 1)
        await primary.hset(KEYS.game(game_id), outbox_field(1), pack([("game.started", body)]))
        pair.pause_replica()
        await webhooks.after_commit(game_id, 1)  # the Notify effect: NotReplicated, deferred
        pair.resume_replica()
        assert await primary.hexists(KEYS.game(game_id), outbox_field(1)), \
            "the notices left the outbox though their enqueue was not confirmed"
        assert await primary.zcard(KEYS.notices_pending(KEYS.bucket(game_id))) == 1
        clock.now += 10_000  # the intent is past the sweeper's grace
        assert await webhooks.sweep() == 1
        assert not await primary.hexists(KEYS.game(game_id), outbox_field(1))
        queued = await _queued(pair.primary.url)
    assert len(queued) == 1
    await _failover(pair)
    assert await _queued(pair.replica.url) == queued, "the swept message was lost"


async def test_a_service_under_replica_durability_loses_no_delivery_to_a_failover(
        pair: Pair, make_service: ServiceFactory, receivers: Callable[[], Receiver],
        secret: str) -> None:
    """A service process under RISK_DURABILITY=replica on the pair's primary, its receiver
    down: a game played with player tokens queues its start and every turn; the primary is
    killed -9 right after the last move's reply and its replica promoted; a service on the
    promoted replica delivers every one of them, verified, once the receiver is up."""
    await pair.linked()
    receiver = receivers()
    env = hook_env(secret, receiver.url)
    first = make_service(pair.primary.url, RISK_DURABILITY="replica",
                         RISK_DURABILITY_TIMEOUT_MS="2000", **env)
    async with grpc.aio.insecure_channel(first.target) as channel:
        stub = Stub(channel)
        (ann, ann_t), (bob, bob_t) = await new_player(stub), await new_player(stub)
        game_id = (await player_game(stub, ann_t, [ann, bob], players=2)).game.game_id
        tokens = {0: ann_t, 1: bob_t}
        expected = {("game.started", 1, -1)}
        last = -1
        for done in range(MOVES + 1):
            game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
            seat = game.decision.seats[0]
            if seat != last:
                expected.add(("turn.started", game.version, seat))
                last = seat
            if done < MOVES:
                await move(stub, game_id, tokens[seat])
    await _failover(pair)
    first.kill()
    second = make_service(pair.replica.url, **env)  # no replica left to wait for
    receiver.start()
    await wait_for("every notice of the game", lambda: _delivered(receiver, game_id) >= expected,
                   timeout=60)
    assert _delivered(receiver, game_id) == expected
    assert all(r["verified"] for r in receiver.records())
    assert second.proc is not None and second.proc.poll() is None


def _delivered(receiver: Receiver, game_id: str) -> set[tuple[str, int, int]]:
    return {(r["envelope"]["type"], r["envelope"]["data"]["version"],
             r["envelope"]["data"].get("seat", -1)) for r in receiver.delivered()
            if r["envelope"]["data"].get("game_id") == game_id}
