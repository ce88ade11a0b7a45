"""Every commit has an identity: a random commit id in the game hash (`cid`) and on each stream
entry it wrote (`c`), checked by the next commit with the version. Real Redis, in-process
GameService."""

from __future__ import annotations

import time

import redis.asyncio as aioredis

from risk_proto.risk.v1 import game_pb2
from risk_service.operations import GameService
from risk_service.operations.service import commit_ids
from risk_service.store.game_store import CommitOutcome, GameStore
from risk_service.store.keys import Keys
from risk_testing.inprocess import in_process_hub
from risk_testing.rpc import create_request


async def test_stream_entries_carry_their_commit_id_and_a_commit_checks_it(
    redis_client: aioredis.Redis, redis_url: str,
) -> None:
    """The creation and the start are two commits with two ids, each on its own stream
    entries, the last in the game hash; a commit at the right version but with another
    commit id is STALE and writes nothing."""
    keys = Keys()
    store = GameStore(redis_client, keys)
    games = GameService(store, in_process_hub(redis_client, keys, redis_url),
                        clock_ms=lambda: int(time.time() * 1000))
    request = create_request(seed=3, players=3)
    request.issue_seat_tokens = True  # created (version 0), then started (version 1)
    game_id = (await games.commands.create(request)).game.game_id
    record = await store.load(game_id)
    assert record is not None and record.version == 1 and record.commit_id
    entries = await redis_client.xrange(keys.events(game_id))
    by_version: dict[int, set[bytes]] = {}
    for _id, fields in entries:
        version = game_pb2.Event.FromString(fields[b"e"]).version
        by_version.setdefault(version, set()).add(fields[b"c"])
    assert sorted(by_version) == [0, 1]
    assert all(len(ids) == 1 for ids in by_version.values())
    assert by_version[0] != by_version[1]
    assert by_version[1] == {record.commit_id.encode()}
    assert await store.state_id(game_id) == (1, record.commit_id)

    result = await store.commit(
        game_id, expected_version=1, first_seq=record.last_seq + 1, snapshot=record.snapshot,
        status=record.status, now_ms=0, events=[b"x"], meta=record.meta,
        log_entry=b"entry", expected_commit_id="0" * 16, commit_id="1" * 16)
    assert result.outcome is CommitOutcome.STALE
    assert (result.version, result.commit_id) == (1, record.commit_id)
    assert await store.state_id(game_id) == (1, record.commit_id)
    assert len(await redis_client.xrange(keys.events(game_id))) == len(entries)


def test_commit_ids_never_repeat_within_or_across_processes() -> None:
    """Commit ids are drawn from a per-process random prefix and a counter, not from the
    kernel's random source per commit: they must still be unique (a repeat at one version of a
    game would hide a state Redis lost), 16 hex digits as before, and two services (two
    processes of one deployment) must not share a sequence."""
    first, second = commit_ids(), commit_ids()
    drawn = [first() for _ in range(20_000)] + [second() for _ in range(20_000)]
    assert len(set(drawn)) == len(drawn)
    assert all(len(cid) == 16 and int(cid, 16) >= 0 for cid in drawn)
    assert drawn[0][:8] != drawn[20_000][:8]  # another prefix: 1 in 2^32 to fail by chance
