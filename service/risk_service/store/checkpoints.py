"""Replay checkpoints kept with a game in Redis: the state every `every` versions of a game that
is over, so that GetGame(at_version) in any process, fresh or not, replays at most `every` - 1
log entries from the checkpoint at or before the version asked for (operations/replay.py).

One hash per game, `Keys.checkpoints`, under the game's hash tag (one slot on a Redis
Cluster, with the game's hash and log): `fmt` (the layout below, CHECKPOINT_FORMAT), `cid`
(the commit id of the game state they were replayed to: a store rolled back to another state
does not match and is replayed afresh), `every`, and per checkpoint version v (0, every,
2 * every, ... up to the game's version) `s:<v>`, the state as a serialised risk.v1.StoredGame
(the snapshot encoding: schema version, variant, rules version; deterministic), and `i:<v>`,
the log list index of the first entry after v (a game stored before every commit had a log
entry has fewer entries than versions). The first replay of a game writes them (a script that
checks the game's `cid` and gives the hash the game hash's remaining time to live); a read is
one script that returns the checkpoint and the log entries after it up to the version asked
for. Games never replayed have none: nothing is written while a game is played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from risk_service.store.connection import RedisPyConnection, StoreConnection
from risk_service.store.keys import Keys

CHECKPOINT_FORMAT = "1"

# KEYS: checkpoints hash, log list. ARGV: the game state's commit id, the version wanted, the
# format. Nothing (an empty list) unless checkpoints of this format and state are kept.
_READ = """
local head = redis.call('HMGET', KEYS[1], 'fmt', 'cid', 'every')
if head[1] ~= ARGV[3] or head[2] ~= ARGV[1] then return {} end
local every, version = tonumber(head[3]), tonumber(ARGV[2])
local at = version - version % every
local kept = redis.call('HMGET', KEYS[1], 's:' .. at, 'i:' .. at)
if not kept[1] or not kept[2] then return {} end
local entries = {}
if version > at then
  local first = tonumber(kept[2])
  entries = redis.call('LRANGE', KEYS[2], first, first + version - at - 1)
end
return {tostring(at), kept[1], entries}
"""

# KEYS: game hash, checkpoints hash. ARGV: the commit id replayed, format, every, then the
# field/value pairs. Written only while the game still holds that state; expires with it, at
# the same millisecond (PEXPIRETIME, Redis 7.0: a PTTL carried over by PEXPIRE let the
# checkpoints outlive the game by the millisecond that passed between the two calls).
_WRITE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if (redis.call('HGET', KEYS[1], 'cid') or '') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[2], 'fmt', ARGV[2], 'cid', ARGV[1], 'every', ARGV[3])
for i = 4, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
local at = redis.call('PEXPIRETIME', KEYS[1])
if at > 0 then redis.call('PEXPIREAT', KEYS[2], at) end
return 1
"""


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A game's state at `version` (a serialised StoredGame) and the log entries after it, up
    to the version asked for (fewer than `every`; none for lifecycle versions of an old game)."""

    version: int
    state: bytes
    entries: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class Kept:
    """One checkpoint to write: its version, the log index after it, its state's bytes."""

    version: int
    log_index: int
    state: bytes


class CheckpointStore:
    def __init__(self, client: aioredis.Redis | RedisCluster, keys: Keys,
                 connection: StoreConnection | None = None) -> None:
        """`connection`: the store's (GameStore.connection) for the scripts; None runs them
        through `client`."""
        self.keys = keys
        connection = connection or RedisPyConnection(client)
        self._read = connection.script(_READ)
        self._write = connection.script(_WRITE)

    async def read(self, game_id: str, commit_id: str, version: int) -> Checkpoint | None:
        """The checkpoint at or before `version` with the log entries up to `version`; None
        when the game has none for the state `commit_id` wrote (never replayed, expired, of
        another format, or replayed before Redis lost writes)."""
        reply = cast(list[Any], await self._read(
            [self.keys.checkpoints(game_id), self.keys.log(game_id)],
            [commit_id, version, CHECKPOINT_FORMAT]))
        if not reply:
            return None
        at, state, entries = reply
        return Checkpoint(int(at), state, tuple(entries))

    async def write(self, game_id: str, commit_id: str, every: int,
                    kept: Sequence[Kept]) -> bool:
        """Replace the game's checkpoints; False (nothing written) if the game is gone or no
        longer holds the state `commit_id` wrote."""
        args: list[str | int | bytes] = [commit_id, CHECKPOINT_FORMAT, every]
        for point in kept:
            args += [f"s:{point.version}", point.state, f"i:{point.version}", point.log_index]
        return bool(await self._write(
            [self.keys.game(game_id), self.keys.checkpoints(game_id)], args))
