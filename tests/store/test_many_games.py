"""Reads of many games at once (`GameStore.load_many` for ListGames and "my games",
`GameStore.heads` for the sweepers' scan) through each single-Redis connection the store is
built on: the service's pipe, whose replies are Redis' own (a flat list for HGETALL), and
redis-py's. Each game answers its own hash, in the order asked, and a game that is gone is
left out (load_many) or None (heads)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from risk_service.store.connection import RedisPyConnection, StoreConnection
from risk_service.store.game_store import GameHead, GameRecord, GameStore
from risk_service.store.keys import Keys
from risk_service.store.pipe import RedisPipe


def record(game_id: str, status: int, updated_ms: int) -> GameRecord:
    return GameRecord(game_id=game_id, variant="classic", status=status, version=0,
                      last_seq=0, created_ms=1, updated_ms=updated_ms, players=2,
                      snapshot=f"state of {game_id}".encode(), meta=f"meta {game_id}".encode(),
                      names=("ann", f"bob of {game_id}"), seat_digests=(b"d0", b""),
                      host_digest=b"h", commit_id=f"c-{game_id}")


@pytest.fixture(params=["pipe", "redis-py"])
async def store(request: pytest.FixtureRequest, redis_url: str,
                redis_client: aioredis.Redis) -> AsyncIterator[GameStore]:
    made: StoreConnection = (RedisPipe(redis_url) if request.param == "pipe"
                             else RedisPyConnection(redis_client))
    yield GameStore(redis_client, Keys(), made)
    await made.close()


async def test_many_games_read_at_once_answer_each_its_own(store: GameStore) -> None:
    games = [record(f"g{n}", status=1 + n % 2, updated_ms=1_000 + n) for n in range(5)]
    for game in games:
        assert await store.create(game, [b"created"])
    asked = ["g3", "gone", "g0", "g4", "g1"]
    loaded = await store.load_many(asked)
    assert [r.game_id for r in loaded] == ["g3", "g0", "g4", "g1"]
    for got in loaded:
        want = games[int(got.game_id[1:])]
        assert (got.snapshot, got.meta, got.names, got.status, got.updated_ms,
                got.commit_id) == (want.snapshot, want.meta, want.names, want.status,
                                   want.updated_ms, want.commit_id)
    heads = await store.heads(asked)
    assert heads == [None if game_id == "gone" else
                     GameHead(game_id, "classic", games[int(game_id[1:])].status,
                              games[int(game_id[1:])].updated_ms,
                              games[int(game_id[1:])].meta)
                     for game_id in asked]
    assert await store.load_many([]) == [] and await store.heads([]) == []
