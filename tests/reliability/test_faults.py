"""Faults: SIGKILL the service or Redis mid-commit, drop clients mid-stream; nothing is lost.

The clients are the contenders of `contenders.py` (re-read on ABORTED, resend the same request
id on a lost reply, deliberate duplicates) and spectators that resume after their last seq. A
chaos task strikes while submissions are in flight:

- the service: SIGKILL one replica (then the other) with requests in flight, restart it;
- Redis with `appendfsync always`: SIGKILL it mid-game, restart it on its AOF: every action
  acknowledged before the kill is in the store when it comes back, and at the end each game's
  log is exactly the acknowledged actions;
- Redis with `appendfsync everysec`: SIGKILL it right after a burst and count the acknowledged
  actions missing after the restart (printed), which must stay within the fsync window;
- the clients: close spectators' channels under their open streams, again and again.

Every game then continues to its end, and every spectator holds every event exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import urllib.request
from collections.abc import AsyncIterator

import grpc
import pytest
import redis.asyncio

from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_service.store.keys import Keys
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.redis_server import RedisServer, free_port
from tests.conftest import RedisServerFactory
from tests.reliability.contenders import (
    Ack,
    Behaviour,
    Contender,
    Follower,
    Ledger,
    Stub,
    Table,
    assert_follows,
    canonical,
    channel,
    open_tables,
    request_probe,
    spectator_events,
    summary,
)

CLIENTS = 16
GAMES = 3


class Run:
    """Contenders and spectators on some replicas, with a chaos task beside them."""

    def __init__(self, replicas: list[ServiceProcess], client: redis.asyncio.Redis, *,
                 cap: int, seed: int, behaviour: Behaviour | None = None) -> None:
        self.replicas = replicas
        self.client = client
        self.cap = cap
        self.seed = seed
        self.behaviour = behaviour or Behaviour()
        self.ledger = Ledger()
        self.stop = asyncio.Event()
        self.tables: list[Table] = []
        self.followers: list[Follower] = []
        self.channels: list[grpc.aio.Channel] = []

    @property
    def targets(self) -> list[str]:
        return [r.target for r in self.replicas]

    async def open(self, games: int = GAMES, max_turns: int = 12) -> None:
        admin = channel(self.targets[0])
        self.channels.append(admin)
        self.tables = await open_tables(Stub(admin), games, seed=self.seed, max_turns=max_turns)
        # one spectator per game and replica; after a break each tries the next replica
        for table in self.tables:
            for first in range(len(self.targets)):
                follower = Follower(self.targets[first:] + self.targets[:first], table.game_id)
                follower.start()
                self.followers.append(follower)

    def contenders(self, clients: int = CLIENTS) -> list[Contender]:
        out = []
        for n in range(clients):
            own, other = channel(self.targets[n % len(self.targets)]), channel(
                self.targets[(n + 1) % len(self.targets)])
            self.channels += [own, other]
            out.append(Contender(n, self.tables[n % len(self.tables)], Stub(own), Stub(other),
                                 ledger=self.ledger, behaviour=self.behaviour,
                                 seed=self.seed, committed=request_probe(self.client)))
        return out

    async def play(self, chaos: asyncio.Task[None] | None = None,
                   clients: int = CLIENTS) -> float:
        started = time.monotonic()
        await asyncio.gather(*(c.play(self.stop, self.cap) for c in self.contenders(clients)))
        if chaos is not None:
            await chaos
        return time.monotonic() - started

    async def when_busy(self, at_least: int = 4, timeout: float = 20.0) -> int:
        """Wait until `at_least` submissions are in flight (on a loaded machine, settle for
        one after `timeout`); returns how many are."""
        settle_at = time.monotonic() + timeout
        give_up_at = settle_at + timeout
        while self.ledger.inflight < at_least:
            now = time.monotonic()
            if now >= settle_at:
                at_least = 1
            assert now < give_up_at, "nothing in flight any more: did every game end?"
            await asyncio.sleep(0.001)
        return self.ledger.inflight

    async def when_acked(self, at_least: int, timeout: float = 20.0) -> None:
        """Wait until `at_least` actions have been acknowledged, over all games."""
        end = time.monotonic() + timeout
        while sum(len(a) for a in self.ledger.acks.values()) < at_least:
            assert time.monotonic() < end, "the games do not move"
            await asyncio.sleep(0.01)

    async def settle(self) -> dict[str, int]:
        """Check the games against the acks and the spectators against the stored events."""
        admin = channel(self.targets[-1])
        self.channels.append(admin)
        stub = Stub(admin)
        figures = await self.ledger.settle(stub, self.client, self.tables)
        for table in self.tables:
            final = (await stub.GetGame(service_pb2.GetGameRequest(
                game_id=table.game_id))).game.last_seq
            stored = await spectator_events(stub, table.game_id, final)
            for follower in self.followers:
                if follower.game_id == table.game_id:
                    await follower.reached(final)
                    assert_follows(follower, stored)
        figures["resumes"] = sum(f.resumes for f in self.followers)
        figures["drops"] = sum(f.drops for f in self.followers)
        await self.close()
        return figures

    async def close(self) -> None:
        for follower in self.followers:
            await follower.stop()
        for ch in self.channels:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ch.close(), 5)


def _acked_before(ledger: Ledger, moment: float) -> dict[str, list[Ack]]:
    return {game: [a for a in acks if a.at <= moment] for game, acks in ledger.acks.items()}


async def _missing(client: redis.asyncio.Redis, acks: dict[str, list[Ack]]) -> list[Ack]:
    """The acknowledged actions that the store does not hold at their version."""
    keys = Keys()
    missing = []
    for game_id, held in acks.items():
        logged = {}
        for data in await client.lrange(keys.log(game_id), 0, -1):
            entry = game_pb2.LogEntry.FromString(data)
            if entry.WhichOneof("entry") == "action":
                logged[entry.version] = (entry.seat, canonical(entry.action))
        missing += [a for a in held if logged.get(a.version) != (a.seat, a.action)]
    return missing


@pytest.mark.slow
async def test_service_killed_mid_commit_and_mid_stream_loses_nothing(
    make_service: ServiceFactory, redis_client: redis.asyncio.Redis
) -> None:
    """SIGKILL each replica with submits in flight, restart: no ack lost, spectators whole."""
    replicas = [make_service(), make_service()]
    # the contenders play until the third kill is over (the cap is only a bound), on games
    # long enough to outlast it: each kill waits for submissions in flight
    run = Run(replicas, redis_client, cap=1000, seed=5100)
    await run.open(max_turns=40)
    kills: list[int] = []

    async def chaos() -> None:
        for round_no, victim in enumerate((0, 1, 0)):
            await run.when_acked(40 * (round_no + 1))
            kills.append(await run.when_busy(6))
            replicas[victim].kill()
            await asyncio.sleep(0.3)  # down a moment: its clients get UNAVAILABLE meanwhile
            await asyncio.to_thread(replicas[victim].start)
            await asyncio.sleep(0.4)
        run.stop.set()

    played = await run.play(asyncio.create_task(chaos()))
    figures = await run.settle()
    print(f"\nfaults/service SIGKILL x{len(kills)} (in flight at each kill: {kills}), "
          f"{played:.1f} s: " + summary(run.ledger.counts, figures)
          + f"; spectators resumed {figures['resumes']} times")
    assert not run.ledger.problems, run.ledger.problems[:10]
    assert figures["lost"] == 0 and figures["doubled"] == 0
    assert run.ledger.counts["lost replies"] > 0 and figures["resumes"] >= 3


@pytest.fixture
async def own_redis(make_redis_server: RedisServerFactory, request: pytest.FixtureRequest
                    ) -> AsyncIterator[tuple[RedisServer, redis.asyncio.Redis]]:
    server = make_redis_server(appendfsync=request.param)
    client = redis.asyncio.Redis.from_url(server.url)
    yield server, client
    await client.aclose()


async def _restart(server: RedisServer, client: redis.asyncio.Redis) -> None:
    """Start Redis again on its port and data dir (it replays its AOF). From a worker thread:
    a fork on the event loop thread runs grpc's at-fork handlers (see tests/service/
    test_crash.py)."""
    await client.connection_pool.disconnect()
    await asyncio.to_thread(server.start)


@pytest.mark.slow
@pytest.mark.parametrize("own_redis", ["always"], indirect=True)
async def test_redis_killed_with_fsync_always_loses_no_acknowledged_action(
    own_redis: tuple[RedisServer, redis.asyncio.Redis], make_service: ServiceFactory
) -> None:
    """SIGKILL Redis (appendfsync always) twice mid-game: every ack survives the AOF replay."""
    server, client = own_redis
    replicas = [make_service(url=server.url), make_service(url=server.url)]
    run = Run(replicas, client, cap=150, seed=5200)
    await run.open()
    checked: list[tuple[int, int, int]] = []  # (in flight, acks before the kill, missing)

    async def chaos() -> None:
        for round_no in range(2):
            await run.when_acked(60 * (round_no + 1))
            busy = await run.when_busy(6)
            server.kill()
            killed = time.monotonic()
            await asyncio.sleep(0.3)
            await _restart(server, client)
            acked = _acked_before(run.ledger, killed)
            missing = await _missing(client, acked)
            checked.append((busy, sum(len(a) for a in acked.values()), len(missing)))
            await asyncio.sleep(0.5)

    played = await run.play(asyncio.create_task(chaos()))
    figures = await run.settle()
    print(f"\nfaults/Redis SIGKILL x2, appendfsync always, {played:.1f} s: (in flight, acked "
          f"before the kill, missing after the AOF replay) = {checked}; "
          + summary(run.ledger.counts, figures) + f"; spectators resumed {figures['resumes']}")
    assert not run.ledger.problems, run.ledger.problems[:10]
    assert [missing for _busy, _acked, missing in checked] == [0, 0]
    assert figures["lost"] == 0 and figures["doubled"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("own_redis", ["everysec"], indirect=True)
async def test_redis_killed_with_fsync_everysec_loses_at_most_the_fsync_window(
    own_redis: tuple[RedisServer, redis.asyncio.Redis], make_service: ServiceFactory
) -> None:
    """SIGKILL Redis (appendfsync everysec) right after a burst; print the acks it lost."""
    server, client = own_redis
    replicas = [make_service(url=server.url), make_service(url=server.url)]
    run = Run(replicas, client, cap=10_000, seed=5300,
              behaviour=Behaviour(lose_reply=0, duplicate=0, concurrent_duplicate=0,
                                  reuse_id=0))
    await run.open(games=4, max_turns=400)
    players = asyncio.ensure_future(run.play(clients=24))
    await asyncio.sleep(1.5)  # the burst
    busy = await run.when_busy(6)
    server.kill()
    killed = time.monotonic()
    run.stop.set()
    players.cancel()
    await asyncio.gather(players, return_exceptions=True)
    await _restart(server, client)
    acked = _acked_before(run.ledger, killed)
    total = sum(len(a) for a in acked.values())
    window = [a for acks in acked.values() for a in acks if a.at > killed - 1.0]
    missing = await _missing(client, acked)
    await run.close()
    print(f"\nfaults/Redis SIGKILL right after a 1.5 s burst, appendfsync everysec: {total} "
          f"actions acknowledged, {len(window)} of them in the last second (the window everysec "
          f"may not have fsynced yet), {busy} in flight at the kill; lost after the AOF replay: "
          f"{len(missing)}")
    # everysec fsyncs once a second (a write may wait up to 2 s behind a slow fsync): what it
    # loses was acknowledged within that window. SIGKILL leaves the kernel's page cache, so a
    # process crash alone usually loses nothing; a power loss could lose the whole window.
    assert all(a.at > killed - 2.5 for a in missing)


async def _subscribers(port: int) -> float:
    def read() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
            return str(reply.read().decode())
    text = await asyncio.to_thread(read)
    return next(float(line.split()[-1]) for line in text.splitlines()
                if line.startswith("risk_subscribers"))


async def _gauge_becomes(port: int, value: int, timeout: float = 5.0) -> float:
    """The subscriber gauge once it shows `value` (or what it shows after `timeout`)."""
    end = time.monotonic() + timeout
    while (seen := await _subscribers(port)) != value and time.monotonic() < end:
        await asyncio.sleep(0.05)
    return seen


async def test_clients_dropping_connections_mid_stream_resume_without_gap(
    make_service: ServiceFactory, redis_client: redis.asyncio.Redis
) -> None:
    """Spectators whose channels are closed under open streams resume with no gap or dup."""
    metrics = free_port()
    replicas = [make_service(RISK_METRICS_PORT=str(metrics))]
    run = Run(replicas, redis_client, cap=150, seed=5400)
    await run.open(games=2)
    for _ in range(3):  # more spectators per game
        for table in run.tables:
            follower = Follower(run.targets, table.game_id)
            follower.start()
            run.followers.append(follower)

    async def chaos() -> None:
        for round_no in range(12):
            await run.when_busy(2)
            for n, follower in enumerate(run.followers):
                if (n + round_no) % 3 == 0:
                    await follower.drop()
            await asyncio.sleep(0.05)

    played = await run.play(asyncio.create_task(chaos()), clients=8)
    live = len(run.followers)
    open_streams = await _gauge_becomes(metrics, live)
    figures = await run.settle()
    after = await _gauge_becomes(metrics, 0)
    print(f"\nfaults/dropped connections: {figures['drops']} channels closed under open "
          f"streams ({live} spectators, {played:.1f} s); every spectator resumed after its last "
          f"seq without gap or duplicate; server subscribers {open_streams:.0f} while "
          f"following, {after:.0f} after they left; " + summary(run.ledger.counts, figures))
    assert figures["drops"] >= 12 and figures["lost"] == 0 and figures["doubled"] == 0
    assert open_streams == live and after == 0
