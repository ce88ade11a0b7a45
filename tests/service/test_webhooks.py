"""Signed webhooks (docs/notifications.md) through real service processes on a real Redis, to a
receiver process that verifies every delivery with the Standard Webhooks library: games'
starts and ends arrive signed; a receiver down for a while gets everything once back, with the
same webhook-id on every retry; messages queued by a process killed -9 are delivered by
another; a dead endpoint does not hold up another; 410 Gone stops delivery; a timeout and a
round are notified; notices a crash left unqueued are swept."""

from __future__ import annotations

import asyncio
import base64
import inspect
import json
import secrets
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis.asyncio as aioredis

from risk_proto.risk.v1 import lifecycle_pb2, service_pb2, service_pb2_grpc, tournament_pb2
from risk_service.notify.delivery import endpoint_id
from risk_service.operations.notices import envelope, outbox_field, pack
from risk_service.redis_server import free_port
from risk_service.store.keys import Keys
from risk_testing.harness import ServiceFactory, ServiceProcess, running
from risk_testing.rpc import bearer, classic_options
from tests.tournament.players import player, quick_options

Stub = service_pb2_grpc.RiskServiceStub
RECEIVER = Path(__file__).with_name("webhook_receiver.py")
# the keys of the module's shared service; a test's own service has a prefix of its own
PREFIX = "service-webhooks"
# notices of one game played by `play_game`: started, two seats resigning, finished
PER_GAME = 4


class Receiver:
    """The receiver process (webhook_receiver.py) on one port, which it keeps across restarts."""

    def __init__(self, tmp: Path, secret: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/hooks"
        self.secret = secret
        self.log = tmp / f"receiver-{self.port}.jsonl"
        self.proc: subprocess.Popen[str] | None = None

    def start(self, status: int = 200) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(RECEIVER), "--port", str(self.port), "--secret", self.secret,
             "--log", str(self.log), "--status", str(status)],
            stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "ready"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def records(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines() if line]

    def delivered(self) -> list[dict[str, Any]]:
        """The deliveries this receiver accepted (verified, answered 2xx)."""
        return [r for r in self.records() if r["verified"] and 200 <= r["status"] < 300]


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


@pytest.fixture
def secret() -> str:
    return new_secret()


@pytest.fixture
def receivers(tmp_path: Path, secret: str) -> Iterator[Callable[[], Receiver]]:
    made: list[Receiver] = []

    def make() -> Receiver:
        receiver = Receiver(tmp_path, secret)
        made.append(receiver)
        return receiver

    yield make
    for receiver in made:
        receiver.stop()


def hook_env(secret: str, *urls: str, **more: str) -> dict[str, str]:
    """A service posting to `urls`, retrying fast (so that a test waits seconds, not hours)."""
    return {"RISK_WEBHOOK_URL": ",".join(urls), "RISK_WEBHOOK_SECRET": secret,
            "RISK_WEBHOOK_RETRY_BASE_MS": "100", "RISK_WEBHOOK_RETRY_CAP_MS": "400",
            "RISK_WEBHOOK_POLL_MS": "100", "RISK_WEBHOOK_TIMEOUT_MS": "2000",
            "RISK_SWEEP_INTERVAL_MS": "50", **more}


@dataclass
class Hooked:
    service: ServiceProcess
    receiver: Receiver


@pytest.fixture(scope="module")
def hooked(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hooked]:
    """One receiver answering 200 and one service posting to it, shared by the module's tests
    that look only at their own games' notices (each plays games of its own). The tests of
    a receiver failing, gone or stopped, of a killed process, or of the metrics start their
    own receivers and services, their keys under prefixes of their own."""
    tmp = tmp_path_factory.mktemp(PREFIX)
    receiver = Receiver(tmp, new_secret())
    receiver.start()
    try:
        with running(ServiceProcess(redis_url, tmp, RISK_KEY_PREFIX=PREFIX,
                                    **hook_env(receiver.secret, receiver.url))) as (service,):
            yield Hooked(service, receiver)
    finally:
        receiver.stop()


@dataclass
class Store:
    """A client of the session's Redis (not flushed: the module's shared service keeps its
    keys there) and the keys of the services a test looks at."""
    redis: aioredis.Redis
    keys: Keys

    @property
    def env(self) -> dict[str, str]:
        """What a service of the test's own is given: its keys under the test's prefix."""
        return {"RISK_KEY_PREFIX": self.keys.prefix}

    async def stats(self, url: str) -> dict[str, int]:
        raw = await self.redis.hgetall(self.keys.webhook(endpoint_id(url), "stats"))
        return {k.decode(): int(v) for k, v in raw.items()}

    async def queued(self, url: str) -> int:
        return int(await self.redis.zcard(self.keys.webhook(endpoint_id(url), "due")))


@pytest.fixture
async def own(redis_url: str, request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    """The keys of a test's own services: a prefix named after the test."""
    async with aioredis.Redis.from_url(redis_url) as client:
        yield Store(client, Keys(f"{PREFIX}-{request.node.name}"))


@pytest.fixture
async def shared(redis_url: str) -> AsyncIterator[Store]:
    """The keys of the module's shared service."""
    async with aioredis.Redis.from_url(redis_url) as client:
        yield Store(client, Keys(PREFIX))


async def play_game(target: str) -> str:
    """A 3-seat classic game: started at creation, two seats resign, seat 1 wins."""
    async with grpc.aio.insecure_channel(target) as channel:
        stub = Stub(channel)
        created = await stub.CreateGame(service_pb2.CreateGameRequest(
            options=classic_options(players=3, auto_defend_max_dice=True), seed=17,
            issue_seat_tokens=True))
        game_id = created.game.game_id
        for seat in (2, 0):
            await stub.Resign(service_pb2.ResignRequest(game_id=game_id),
                              metadata=bearer(created.seat_tokens[seat]))
        return game_id


def notices(records: list[dict[str, Any]], game_id: str) -> list[dict[str, Any]]:
    return [r for r in records if r["envelope"]["data"].get("game_id") == game_id]


def notice_name(record: dict[str, Any]) -> tuple[str, str, int]:
    """What a message is about, whatever its id: (type, game, seat)."""
    data = record["envelope"]["data"]
    return record["envelope"]["type"], data.get("game_id", ""), data.get("seat", -1)


async def wait_for(what: str, check: Callable[[], Any], timeout: float = 30.0) -> Any:
    """`check()` (awaited if it is a coroutine) once it is true, polled for `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return result
        await asyncio.sleep(0.05)
    raise AssertionError(f"not within {timeout} s: {what}")


def one_id_per_notice(records: list[dict[str, Any]]) -> dict[tuple[str, str, int], str]:
    """Each notice's webhook-id, checking that every delivery of it carried the same one."""
    ids: dict[tuple[str, str, int], set[str]] = {}
    for record in records:
        ids.setdefault(notice_name(record), set()).add(record["id"])
    assert all(len(seen) == 1 for seen in ids.values()), ids
    return {name: seen.pop() for name, seen in ids.items()}


async def test_game_start_and_end_arrive_signed(hooked: Hooked) -> None:
    """A game's start, its seats' resignations and its end (with the ranking) reach the
    receiver, each verified with the standardwebhooks library, in the spec's envelope."""
    receiver = hooked.receiver
    game_id = await play_game(hooked.service.target)
    got = await wait_for("the game's four notices", lambda: len(
        notices(receiver.delivered(), game_id)) >= PER_GAME and receiver.delivered())
    assert all(r["verified"] for r in receiver.records())
    by_type = {r["envelope"]["type"]: r["envelope"] for r in notices(got, game_id)}
    assert set(by_type) == {"game.started", "seat.removed", "game.finished"}
    started, finished = by_type["game.started"], by_type["game.finished"]
    assert started["data"]["players"] == 3 and len(started["data"]["seats"]) == 3
    assert finished["data"]["winner"] == 1 and finished["data"]["ranking"][0] == 1
    assert finished["data"]["reason"] == "resignation"
    assert finished["timestamp"].endswith("Z")
    removed = sorted(r["envelope"]["data"]["seat"] for r in notices(got, game_id)
                     if r["envelope"]["type"] == "seat.removed")
    assert removed == [0, 2]
    mine = notices(got, game_id)  # (the shared receiver's other deliveries are other tests')
    assert len({r["id"] for r in mine}) == len(mine), "one delivery per message"


async def test_receiver_down_then_up_gets_everything_with_the_same_ids(
        make_service: ServiceFactory, own: Store,
        receivers: Callable[[], Receiver], secret: str) -> None:
    """A receiver failing (503), then gone from the network, then back: every notice arrives
    after, and every attempt of one notice carried the same webhook-id."""
    receiver = receivers()
    receiver.start(status=503)
    service = make_service(**hook_env(secret, receiver.url), **own.env)
    game_id = await play_game(service.target)
    await wait_for("a second attempt at the game's end", lambda: sum(
        1 for r in notices(receiver.records(), game_id)
        if r["envelope"]["type"] == "game.finished") >= 2)
    receiver.stop()
    failed = (await own.stats(receiver.url))["failed"]

    async def refused() -> bool:  # attempts made while nothing listens
        return (await own.stats(receiver.url))["failed"] > failed + 1

    await wait_for("attempts while the receiver is down", refused)
    assert not receiver.delivered()
    receiver.start(status=200)
    await wait_for("all four notices once the receiver is back", lambda: len(
        notices(receiver.delivered(), game_id)) == PER_GAME)
    records = notices(receiver.records(), game_id)
    assert all(r["verified"] for r in records)
    ids = one_id_per_notice(records)
    assert len(ids) == PER_GAME
    retried = [r for r in records if r["status"] == 503]
    assert {r["id"] for r in retried} <= set(ids.values())

    async def emptied() -> bool:  # the receiver holds a delivery a moment before it is acked
        return await own.queued(receiver.url) == 0

    await wait_for("the queue emptied", emptied)


async def test_messages_queued_by_a_killed_process_are_delivered_by_another(
        make_service: ServiceFactory, own: Store,
        receivers: Callable[[], Receiver], secret: str) -> None:
    """Notices queued while the receiver is down survive a kill -9 of the service: a restarted
    process delivers them all, any duplicate with the same webhook-id."""
    receiver = receivers()  # not started: the service's attempts are refused
    env = hook_env(secret, receiver.url, **own.env)
    first = make_service(**env)
    games = [await play_game(first.target) for _ in range(3)]

    async def all_queued() -> bool:
        return await own.queued(receiver.url) == PER_GAME * len(games)

    await wait_for("every notice queued in Redis", all_queued)
    first.kill()
    receiver.start()
    make_service(**env)
    await wait_for("every notice of the three games", lambda: all(
        len({notice_name(r) for r in notices(receiver.delivered(), g)}) == PER_GAME
        for g in games))
    records = receiver.records()
    assert all(r["verified"] for r in records)
    ids = one_id_per_notice(records)
    assert len(ids) == PER_GAME * len(games)

    async def empty() -> bool:
        return await own.queued(receiver.url) == 0

    await wait_for("an empty queue", empty)


async def test_a_dead_endpoint_does_not_hold_up_another(
        make_service: ServiceFactory, own: Store,
        receivers: Callable[[], Receiver], secret: str) -> None:
    """With two endpoints, one always answering 500, the other gets every notice while the
    dead one's messages wait in its own queue; the metrics count each endpoint apart."""
    dead, good = receivers(), receivers()
    dead.start(status=500)
    good.start()
    metrics_port = free_port()
    service = make_service(**hook_env(secret, dead.url, good.url,
                                      RISK_METRICS_PORT=str(metrics_port), **own.env))
    games = [await play_game(service.target) for _ in range(2)]
    await wait_for("every notice at the good endpoint", lambda: all(
        len(notices(good.delivered(), g)) == PER_GAME for g in games))
    assert await own.queued(dead.url) == PER_GAME * len(games)
    dead_stats = await own.stats(dead.url)
    assert dead_stats["failed"] >= 1 and "delivered" not in dead_stats
    assert not dead.delivered() and dead.records()
    assert all(r["verified"] for r in dead.records() + good.records())
    good_id, dead_id = endpoint_id(good.url), endpoint_id(dead.url)
    counted = f'risk_webhooks_delivered_total{{endpoint="{good_id}"}} {PER_GAME * 2}.0'

    def scraped() -> str | None:
        # the receiver holds the last delivery a moment before the service counts it
        with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics",
                                    timeout=5) as reply:
            text: str = reply.read().decode()
        return text if counted in text else None

    text = await wait_for("every delivery counted", scraped)
    assert f'risk_webhooks_failed_total{{endpoint="{dead_id}"}}' in text
    assert f'risk_webhooks_delivered_total{{endpoint="{dead_id}"}}' not in text


async def test_gone_stops_delivery(
        make_service: ServiceFactory, own: Store,
        receivers: Callable[[], Receiver], secret: str) -> None:
    """An endpoint answering 410 Gone is sent nothing more: later notices are dead-lettered
    and counted, and the receiver sees the one request it answered 410."""
    receiver = receivers()
    receiver.start(status=410)
    service = make_service(**hook_env(secret, receiver.url), **own.env)
    async with grpc.aio.insecure_channel(service.target) as channel:
        created = await Stub(channel).CreateGame(service_pb2.CreateGameRequest(
            options=classic_options(players=3), seed=5, issue_seat_tokens=True))
    await wait_for("the 410", receiver.records)
    gone = own.keys.webhook(endpoint_id(receiver.url), "gone")
    await wait_for("the endpoint disabled", lambda: own.redis.exists(gone))
    await play_game(service.target)

    async def buried() -> bool:
        return (await own.stats(receiver.url)).get("dead", 0) >= 1 + PER_GAME

    await wait_for("later notices dead-lettered", buried)
    [only] = receiver.records()
    assert only["verified"] and only["status"] == 410
    assert only["envelope"]["data"]["game_id"] == created.game.game_id
    assert await own.queued(receiver.url) == 0


async def test_a_timed_out_seat_is_notified(hooked: Hooked) -> None:
    """A seat whose decision clock runs out under the forfeit policy is notified as timed out
    and then removed, with the policy and the seat."""
    receiver, service = hooked.receiver, hooked.service
    clock = lifecycle_pb2.ClockOptions(decision_seconds=1,
                                       on_timeout=lifecycle_pb2.TIMEOUT_POLICY_FORFEIT)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        created = await stub.CreateGame(service_pb2.CreateGameRequest(
            options=classic_options(players=3, auto_defend_max_dice=True), seed=17,
            issue_seat_tokens=True, clock=clock))
        game_id = created.game.game_id
        sleeper = created.game.decision.seats[0]

    def timed_out() -> list[dict[str, Any]]:
        return [r["envelope"] for r in notices(receiver.delivered(), game_id)
                if r["envelope"]["type"] in ("seat.timed_out", "seat.removed")]

    first, second = (await wait_for("the timeout's two notices",
                                    lambda: len(timed_out()) >= 2 and timed_out()))[:2]
    assert {first["type"], second["type"]} == {"seat.timed_out", "seat.removed"}
    by_type = {first["type"]: first["data"], second["type"]: second["data"]}
    # one removal per seat: the forfeit (logged as a resignation) is not told twice
    removals = [e["data"]["seat"] for e in timed_out() if e["type"] == "seat.removed"]
    assert len(removals) == len(set(removals)), removals
    assert by_type["seat.timed_out"]["seat"] == sleeper
    assert by_type["seat.timed_out"]["policy"] == "forfeit"
    assert by_type["seat.removed"] == by_type["seat.removed"] | {"seat": sleeper,
                                                                 "cause": "forfeit"}
    assert all(r["verified"] for r in receiver.records())


async def test_notices_a_crash_left_unqueued_are_swept(hooked: Hooked, shared: Store) -> None:
    """A commit's notices left in its game's hash by a process that died before queueing them
    are queued by another process's sweeper, once; an intent whose commit never landed is
    dropped."""
    receiver, service = hooked.receiver, hooked.service
    redis_client, keys = shared.redis, shared.keys
    game_id = await play_game(service.target)
    await wait_for("the game's notices", lambda: len(
        notices(receiver.delivered(), game_id)) == PER_GAME)
    # what a process killed between the write and the Notify effect leaves: the commit's
    # field in the game's hash and the intent it noted before the write (long ago)
    left = envelope("seat.timed_out", {"game_id": game_id, "variant": "classic",
                                       "version": 99, "seat": 1, "name": "", "policy": "pass"},
                    int(time.time() * 1000))
    await redis_client.hset(keys.game(game_id), outbox_field(99),
                            pack([("seat.timed_out", left)]))
    pending = keys.notices_pending()
    await redis_client.zadd(pending, {f"{game_id}/99": 1, f"{game_id}/100": 1})
    swept = await wait_for("the swept notice", lambda: [
        r for r in notices(receiver.delivered(), game_id)
        if r["envelope"]["data"]["version"] == 99])
    assert swept[0]["envelope"]["type"] == "seat.timed_out"

    async def cleared() -> bool:
        return (not await redis_client.zcard(pending)
                and not await redis_client.hexists(keys.game(game_id), outbox_field(99)))

    await wait_for("the intents and the field gone", cleared)
    assert len(notices(receiver.delivered(), game_id)) == PER_GAME + 1


async def test_a_round_is_notified_once_per_request(hooked: Hooked) -> None:
    """CreateRound sends `round.created` with its games and seats, and its games' starts name
    the tournament; the same request retried sends nothing new, another request does. (The
    module's only test that creates rounds: every `round.created` is its own.)"""
    receiver, service = hooked.receiver, hooked.service
    table = tournament_pb2.RoundTable(seats=[player("ann"), player("bob"), player("cy")])

    def a_round(request_id: str, number: int) -> tournament_pb2.CreateRoundRequest:
        return tournament_pb2.CreateRoundRequest(
            request_id=request_id, tournament="cup", round=number, options=quick_options(),
            games=[table])

    def rounds() -> list[dict[str, Any]]:
        return [r["envelope"]["data"] for r in receiver.delivered()
                if r["envelope"]["type"] == "round.created"]

    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        first = await stub.CreateRound(a_round("r1", 1))
        await wait_for("the round's notice", rounds)
        again = await stub.CreateRound(a_round("r1", 1))
        assert again.games[0].game_id == first.games[0].game_id
        await stub.CreateRound(a_round("r2", 2))
    await wait_for("the second round's notice", lambda: len(rounds()) >= 2)
    [one, two] = sorted(rounds(), key=lambda data: data["round"])
    assert (one["round"], two["round"]) == (1, 2)
    assert one["tournament"] == "cup" and one["games"][0]["game_id"] == first.games[0].game_id
    assert [s["name"] for s in one["games"][0]["seats"]] == ["ann", "bob", "cy"]
    game_id = first.games[0].game_id
    started = await wait_for("the round game's start", lambda: [
        r["envelope"]["data"] for r in notices(receiver.delivered(), game_id)
        if r["envelope"]["type"] == "game.started"])
    assert started[0]["tournament"] == "cup" and started[0]["round"] == 1
    assert all(r["verified"] for r in receiver.records())
