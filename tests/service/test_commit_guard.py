"""The one commit path refuses a change it must never write: a version without an event
(a client that follows the stream would never learn of it). GameService on a real Redis."""

from __future__ import annotations

import time

import pytest
import redis.asyncio as aioredis

from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_service.operations import GameService, records
from risk_service.operations.commit import BrokenCommit, Change
from risk_service.store.game_store import GameStore
from risk_service.store.keys import Keys
from risk_testing.inprocess import in_process_hub
from risk_testing.rpc import create_request


async def test_a_commit_without_an_event_is_refused_and_nothing_is_written(
    redis_client: aioredis.Redis, redis_url: str,
) -> None:
    """A change with no event is refused before Redis sees it: the game stays at its version
    with its events, and the refusal is an error of the service, not the client's."""
    keys = Keys()
    games = GameService(GameStore(redis_client, keys),
                        in_process_hub(redis_client, keys, redis_url),
                        clock_ms=lambda: int(time.time() * 1000))
    request = create_request(seed=3, players=3)
    request.issue_seat_tokens = True
    created = await games.commands.create(request)
    game_id = created.game.game_id
    record = await games.store.load(game_id)
    assert record is not None
    before = (record.version, record.last_seq, await redis_client.llen(keys.log(game_id)))
    change = Change(record, records.decode_state(record), records.decode_meta(record),
                    record.status, [], game_pb2.LogEntry(seat=-1, lifecycle="start"))
    with pytest.raises(BrokenCommit, match="without an event"):
        await games.commits.commit(change, actor=None)
    after = await games.store.load(game_id)
    assert after is not None
    assert (after.version, after.last_seq, await redis_client.llen(keys.log(game_id))) == before
    assert after.status == service_pb2.GAME_STATUS_ACTIVE
