"""Every store script on a Redis that forgot it (SCRIPT FLUSH: what a restart, a failover to a
replica or a new node leaves), through each of the store's connections on a real redis-server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import redis.asyncio as aioredis

from risk_service.errors import ServiceError
from risk_service.store.checkpoints import Checkpoint, CheckpointStore, Kept
from risk_service.store.connection import RedisPyConnection, StoreConnection
from risk_service.store.game_store import CommitOutcome, GameRecord, GameStore
from risk_service.store.keys import Keys
from risk_service.store.pipe import RedisPipe
from risk_service.store.tournament_store import TournamentStore

Flush = Callable[[], Awaitable[object]]


def record(game_id: str) -> GameRecord:
    return GameRecord(game_id=game_id, variant="classic", status=1, version=0, last_seq=0,
                      created_ms=1, updated_ms=1, players=2, snapshot=b"state-0", meta=b"m",
                      names=("ann", "bob"), seat_digests=(b"d0", b""), host_digest=b"h",
                      commit_id="c0")


async def first_commit(store: GameStore, game_id: str) -> None:
    """A game created and moved once (its hash, stream, request record and log all exist)."""
    assert await store.create(record(game_id), [b"created"])
    done = await store.commit(
        game_id, expected_version=0, first_seq=2, snapshot=b"state-1", status=1, now_ms=2,
        events=[b"moved"], meta=b"m", log_entry=b"entry-1", request_field="0:r1",
        request_value=b"reply-1", expected_commit_id="c0", commit_id="c1")
    assert done.outcome is CommitOutcome.OK and done.version == 1


async def every_script(store: GameStore, flush: Flush, game_id: str, label: str) -> None:
    """Each store operation that runs a script, each right after the script cache was
    flushed: all of them answer as if Redis had never forgotten."""
    tournaments = TournamentStore(store.redis, store.keys, store.connection)
    checkpoints = CheckpointStore(store.redis, store.keys, store.connection)
    await flush()
    await first_commit(store, game_id)  # create, then commit
    await flush()
    loaded = await store.load(game_id)
    assert loaded is not None and (loaded.version, loaded.commit_id) == (1, "c1")
    await flush()
    again = await store.commit(
        game_id, expected_version=0, first_seq=2, snapshot=b"state-1", status=1, now_ms=2,
        events=[b"moved"], meta=b"m", log_entry=b"entry-1", request_field="0:r1",
        request_value=b"reply-1", expected_commit_id="c0", commit_id="c9")
    assert (again.outcome, again.prior) == (CommitOutcome.DUPLICATE, b"reply-1")

    assert await store.lease(game_id, "me", 60_000)
    await flush()
    assert await store.extend_lease(game_id, "me", 60_000)
    await flush()
    await store.release(game_id, "me")
    assert await store.lease(game_id, "other", 60_000), "the released lease is free"

    campaign = f"camp-{game_id}"
    await store.create_campaign(campaign, {"version": 0, "x": "1"})
    await flush()
    assert await store.update_campaign(campaign, 0, [("x", "2")])
    assert (await store.load_campaign(campaign))[b"x"] == b"2"
    await flush()
    assert await store.drop_campaign(campaign, 1)
    assert await store.load_campaign(campaign) == {}

    await flush()
    assert await checkpoints.write(game_id, "c1", 1, [Kept(0, 0, b"at-0"), Kept(1, 1, b"at-1")])
    await flush()
    assert await checkpoints.read(game_id, "c1", 1) == Checkpoint(1, b"at-1", ())

    await flush()
    assert await tournaments.copy(label, game_id, 1, b"fact-1", final=False, keep_ms=60_000) == 1
    await flush()
    assert await tournaments.copy(label, game_id, 2, b"fact-2", final=True, keep_ms=60_000) == 2
    assert await tournaments.read_feed(label, 0, 10) == [(1, b"fact-1"), (2, b"fact-2")]


@pytest.fixture(params=["pipe", "redis-py"])
async def connection(request: pytest.FixtureRequest, redis_url: str,
                     redis_client: aioredis.Redis) -> AsyncIterator[StoreConnection]:
    """The single Redis's connection the service uses (the pipe), and redis-py's."""
    made: StoreConnection = (RedisPipe(redis_url) if request.param == "pipe"
                             else RedisPyConnection(redis_client))
    yield made
    await made.close()


async def test_every_script_survives_a_flushed_script_cache(
    connection: StoreConnection, redis_client: aioredis.Redis
) -> None:
    """Commit, create, load, leases, campaign CAS and drop, checkpoints and the tournament
    copy each work right after SCRIPT FLUSH, on either single-Redis connection."""
    await redis_client.flushdb()
    store = GameStore(redis_client, Keys(), connection)
    await every_script(store, redis_client.script_flush, "g-flushed", "cup")


async def test_a_store_on_a_bare_client_and_its_wait_survive_a_flush(
    redis_client: aioredis.Redis
) -> None:
    """RISK_DURABILITY=replica (WAIT right behind the script) on a server with no replica,
    its script cache flushed: the write runs once and is answered unreplicated (UNAVAILABLE)."""
    await redis_client.flushdb()
    store = GameStore(redis_client, Keys(), wait_replicas=1, wait_timeout_ms=10)
    await redis_client.script_flush()
    with pytest.raises(ServiceError, match="not confirmed by 1 replica"):
        await store.create(record("g-wait"), [b"created"])
    loaded = await store.load("g-wait")
    assert loaded is not None and loaded.version == 0, "written once, though not replicated"
