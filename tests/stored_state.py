"""The state a game is at as Redis holds it, for tests that read Redis directly: the stored
snapshot brought to the game's version by the log entries after it (`sidx`), exactly as the
service's own loads do (records.decode_state), so a test never takes a snapshot a few
versions old for the game's state."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import redis
import redis.asyncio

from risk_rules import wire
from risk_service.operations import records
from risk_service.store.game_store import GameRecord, parse_record
from risk_service.store.keys import Keys

KEYS = Keys()


def _record(game_id: str, raw: dict[bytes, bytes], tail: list[bytes]) -> GameRecord:
    record = parse_record(game_id, raw, tail)
    assert record is not None, f"game {game_id} is not in Redis"
    if record.snapshot_version is not None:
        # the hash and the list are two reads here (the service's load is one script): a
        # commit in between appends entries past the hash's version, which belong to a later
        # state; the log is append-only, so the first ones are this state's
        record = dataclasses.replace(
            record, tail=record.tail[:record.version - record.snapshot_version])
    return record


def record_now(client: redis.Redis, game_id: str) -> GameRecord:
    """The game's record with its log tail (a synchronous client)."""
    raw = cast(dict[bytes, bytes], client.hgetall(KEYS.game(game_id)))
    start = raw.get(b"sidx")
    tail = cast(list[bytes], client.lrange(KEYS.log(game_id), int(start), -1)) \
        if start is not None else []
    return _record(game_id, raw, tail)


async def arecord_now(client: redis.asyncio.Redis, game_id: str) -> GameRecord:
    """The game's record with its log tail (an asyncio client)."""
    raw = cast(dict[bytes, bytes], await client.hgetall(KEYS.game(game_id)))
    start = raw.get(b"sidx")
    tail = cast(list[bytes], await client.lrange(KEYS.log(game_id), int(start), -1)) \
        if start is not None else []
    return _record(game_id, raw, tail)


def state_of(record: GameRecord) -> tuple[Any, bytes]:
    """The record's engine state and its deterministic encoding."""
    state = records.decode_state(record)
    return state, wire.encode_state(record.variant, state)


def state_now(client: redis.Redis, game_id: str) -> tuple[Any, bytes]:
    return state_of(record_now(client, game_id))


async def astate_now(client: redis.asyncio.Redis, game_id: str) -> tuple[Any, bytes]:
    return state_of(await arecord_now(client, game_id))
