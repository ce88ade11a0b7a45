"""A player's yearly vacation allowance (docs/lifecycle.md, "Vacation per year"): the days a
player may stop their clocks across all their games in one calendar year (UTC), drawn by
StartVacation of a seat bound to the player on top of the game's own `vacation_days`.

The allowance lives under the player's hash tag (`Keys.player(p, "vacation")`: field
`y:<year>` the time taken that year in ms, and one reservation `r:<game id>/<seat>` per seat on
vacation), the vacation under the game's: no script can write both on a Redis Cluster. So the
time is reserved from the player first, then the vacation is committed in the game, then the
reservation is confirmed; the reservation's id is the `until` the game records
(`GameMeta.vacation_until_ms`), so whether a reservation's vacation exists can always be read
from the game. A reservation is `h` (held: the game's commit may not have landed) or `l` (live:
it did). Every step is one script on the player's slot, conditional on the reservation's id and
state, so a retry or a race does not take or return time twice:

- the game refuses (or the commit's outcome is unknown): `reconcile` reads the game and
  confirms the reservation if the vacation is there, else returns it in full;
- EndVacation returns to the year what the game returns to the seat (`until` - now);
- a process that dies between the steps leaves an intent in the pending index
  (`Keys.vacation_pending`, written before the reservation; `Keys.vacation_ending`, before
  EndVacation's commit):
  the sweeper reconciles it once it is `RESERVATION_GRACE_MS` old; the next StartVacation of
  that seat reconciles a leftover too. A live reservation whose game shows an earlier `until`
  was ended early by an EndVacation that died before its refund: the refund is made then; one
  whose vacation ran its course is used in full and forgotten.

A seat without a player (anonymous, bots) has only the game's allowance, as has every seat
where `vacation_days_per_year` is 0.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from risk_service import clocks
from risk_service.errors import Code, ServiceError, ServiceReason
from risk_service.operations import records
from risk_service.store.connection import RedisPyConnection
from risk_service.store.game_store import GameStore

# a held reservation younger than this may belong to a StartVacation still committing its
# game; older, the sweeper settles it from what the game shows
RESERVATION_GRACE_MS = 60_000
# the player's hash outlives a year's counter and any game's vacation
KEEP_MS = 400 * clocks.DAY_MS

# KEYS: the player's vacation hash. ARGV: field, id, year, ms, cap ms (0: none), now ms, state.
# {'ok', 1} taken, {'ok', 0} this id holds it already (a retry), {'busy', held} another
# vacation's reservation holds the seat, {'exhausted', ms left this year}.
_RESERVE = """
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held then
  if string.match(held, '^%a|([^|]*)|') == ARGV[2] then return {'ok', 0} end
  return {'busy', held}
end
local year = 'y:' .. ARGV[3]
local used = tonumber(redis.call('HGET', KEYS[1], year) or '0')
local cap = tonumber(ARGV[5])
if cap > 0 and used + tonumber(ARGV[4]) > cap then
  return {'exhausted', tostring(cap - used)}
end
redis.call('HINCRBY', KEYS[1], year, ARGV[4])
redis.call('HSET', KEYS[1], ARGV[1],
           ARGV[7] .. '|' .. ARGV[2] .. '|' .. ARGV[3] .. '|' .. ARGV[4] .. '|' .. ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[8])
return {'ok', 1}
"""

# KEYS: the player's vacation hash. ARGV: field, id, state wanted ('*': any), ms to return to
# the reservation's year (at most what it took), new state ('': forget the reservation).
# 'ok', 'gone' (no reservation), 'other' (another id or state holds it).
_SETTLE = """
local held = redis.call('HGET', KEYS[1], ARGV[1])
if not held then return 'gone' end
local state, id, year, ms = string.match(held, '^(%a)|([^|]*)|([^|]*)|([^|]*)|')
if id ~= ARGV[2] or (ARGV[3] ~= '*' and state ~= ARGV[3]) then return 'other' end
local back = math.min(tonumber(ARGV[4]), tonumber(ms))
if back > 0 then redis.call('HINCRBY', KEYS[1], 'y:' .. year, -back) end
if ARGV[5] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[5] .. string.sub(held, 2))
end
return 'ok'
"""


def year_of(ms: int) -> int:
    """The calendar year (UTC) a vacation starting at `ms` is charged to."""
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC).year


@dataclass(frozen=True, slots=True)
class Reservation:
    state: str  # 'h' held, 'l' live
    until: int  # the vacation's id: the end the game records
    year: int
    ms: int
    at_ms: int

    @classmethod
    def parse(cls, raw: bytes) -> Reservation:
        state, until, year, ms, at = raw.decode().split("|")
        return cls(state, int(until), int(year), int(ms), int(at))


class VacationAllowance:
    def __init__(self, store: GameStore, *, days_per_year: int,
                 clock_ms: Callable[[], int]) -> None:
        self.store = store
        self.keys = store.keys
        self.redis: aioredis.Redis | RedisCluster = store.redis
        self.cap_ms = days_per_year * clocks.DAY_MS
        self.clock_ms = clock_ms
        connection = RedisPyConnection(self.redis)
        self._reserve = connection.script(_RESERVE)
        self._settle = connection.script(_SETTLE)

    @property
    def enabled(self) -> bool:
        return self.cap_ms > 0

    def _hash(self, player: str) -> str:
        return self.keys.player(player, "vacation")

    @staticmethod
    def _field(game_id: str, seat: int) -> str:
        return f"r:{game_id}/{seat}"

    def _pending(self, game_id: str) -> str:
        return self.keys.vacation_pending(self.keys.bucket(game_id))

    @staticmethod
    def _intent(player: str, game_id: str, seat: int, until: int) -> str:
        return json.dumps([player, game_id, seat, until])

    async def used_ms(self, player: str, year: int) -> int:
        """The vacation time (ms) `player` has taken in `year` (their reservations included)."""
        raw = await self.redis.hget(self._hash(player), f"y:{year}")
        return int(raw or 0)

    async def reserve(self, player: str, game_id: str, seat: int, days: int, now: int
                      ) -> int:
        """Take `days` from the player's year for a vacation of `seat` from `now`; the
        reservation's id (the `until` the game will record). YEARLY_VACATION_EXHAUSTED when
        the year has not that much left."""
        until = now + days * clocks.DAY_MS
        await self.redis.zadd(self._pending(game_id),
                              {self._intent(player, game_id, seat, until): now})
        for _ in range(2):  # a leftover reservation of the seat is settled once, then again
            outcome, detail = await self._take(player, game_id, seat, until, days=days,
                                               now=now)
            if outcome == b"ok":
                return until
            if outcome == b"exhausted":
                await self._forget_intent(player, game_id, seat, until)
                left = int(detail) // clocks.DAY_MS
                raise ServiceError(
                    Code.FAILED_PRECONDITION, ServiceReason.YEARLY_VACATION_EXHAUSTED,
                    f"player {player} has {left} whole days of vacation left in "
                    f"{year_of(now)} (across their games)",
                    {"days_left": str(left), "year": str(year_of(now))})
            held = Reservation.parse(detail)
            if not await self.reconcile(player, game_id, seat, held, force=False):
                break
        await self._forget_intent(player, game_id, seat, until)
        raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.ALREADY_ON_VACATION,
                           f"a vacation of seat {seat} is being started or is under way")

    async def _take(self, player: str, game_id: str, seat: int, until: int, *, days: int,
                    now: int, cap_ms: int | None = None, state: str = "h"
                    ) -> tuple[bytes, bytes]:
        reply = cast(list[bytes], await self._reserve(
            [self._hash(player)],
            [self._field(game_id, seat), str(until), str(year_of(now)),
             str(days * clocks.DAY_MS), str(self.cap_ms if cap_ms is None else cap_ms),
             str(now), state, str(KEEP_MS)]))
        return reply[0], reply[1] if isinstance(reply[1], bytes) else str(reply[1]).encode()

    async def confirm(self, player: str, game_id: str, seat: int, until: int, *, days: int,
                      now: int) -> None:
        """The game committed the vacation: its reservation is live. If it is gone (a
        sweeper settled it as never committed while the commit was slow), the time is taken
        again, past the cap if need be: the game has granted it."""
        field = self._field(game_id, seat)
        outcome = await self._settle([self._hash(player)], [field, str(until), "*", "0", "l"])
        if outcome == b"gone":
            await self._take(player, game_id, seat, until, days=days, now=now, cap_ms=0,
                             state="l")
        await self._forget_intent(player, game_id, seat, until)

    async def held(self, player: str, game_id: str, seat: int) -> Reservation | None:
        raw = await self.redis.hget(self._hash(player), self._field(game_id, seat))
        return None if raw is None else Reservation.parse(cast(bytes, raw))

    async def reconcile(self, player: str, game_id: str, seat: int, held: Reservation, *,
                        force: bool = True) -> bool:
        """Settle `held` from what the game shows (the module's docstring); False when it is
        a held reservation still within its grace (`force` False) whose game does not show
        it yet: a StartVacation may be committing it now."""
        now = self.clock_ms()
        record = await self.store.load(game_id)
        shown: int | None = None
        if record is not None:
            meta = records.decode_meta(record)
            if seat < len(meta.vacation_until_ms):
                shown = meta.vacation_until_ms[seat]
        field, hash_key, until = self._field(game_id, seat), self._hash(player), str(held.until)
        if shown == held.until:
            if held.until <= now:  # it ran its course: used in full
                await self._settle([hash_key], [field, until, "*", "0", ""])
            elif held.state == "h":
                await self._settle([hash_key], [field, until, "h", "0", "l"])
            return True
        if held.state == "h":
            if record is not None and not force and now - held.at_ms < RESERVATION_GRACE_MS:
                return False
            await self._settle([hash_key], [field, until, "h", str(held.ms), ""])
            return True
        # live, and the game shows another end: ended early, its refund lost in a crash
        start = held.until - held.ms
        back = held.until - shown if shown is not None and start <= shown < held.until else 0
        await self._settle([hash_key], [field, until, "l", str(back), ""])
        return True

    async def release_if_not_committed(self, player: str, game_id: str, seat: int,
                                       until: int) -> None:
        """StartVacation's commit failed (refused, or its outcome unknown): confirm or return
        the reservation from what the game shows. If Redis does not answer, the intent stays
        for the sweeper."""
        held = await self.held(player, game_id, seat)
        if held is not None and held.until == until:
            await self.reconcile(player, game_id, seat, held)
        await self._forget_intent(player, game_id, seat, until)

    async def ending(self, player: str, game_id: str, seat: int, until: int, now: int
                     ) -> None:
        """EndVacation is about to commit the early end of the vacation reserved as `until`:
        its intent, so that a process that dies between that commit and `ended` leaves the
        refund to the sweeper (`reconcile` returns what the game no longer shows). An end
        that is refused, or whose outcome is unknown, leaves it too: reconciling a vacation
        the game still shows changes nothing."""
        await self.redis.zadd(self._ending(game_id),
                              {self._intent(player, game_id, seat, until): now})

    async def ended(self, player: str, game_id: str, seat: int, until: int, now: int) -> None:
        """EndVacation committed at `now` a vacation that was to end at `until`: the time not
        taken goes back to the player's year, and the reservation and the end's intent are
        forgotten."""
        await self._settle([self._hash(player)],
                           [self._field(game_id, seat), str(until), "*",
                            str(max(0, until - now)), ""])
        await self.redis.zrem(self._ending(game_id), self._intent(player, game_id, seat, until))

    def _ending(self, game_id: str) -> str:
        return self.keys.vacation_ending(self.keys.bucket(game_id))

    async def _forget_intent(self, player: str, game_id: str, seat: int, until: int) -> None:
        await self.redis.zrem(self._pending(game_id), self._intent(player, game_id, seat, until))

    async def sweep(self) -> int:
        """Settle the reservations whose StartVacation died between its steps (intents older
        than the grace); how many intents were cleared."""
        cleared = 0
        now = self.clock_ms()
        for bucket in range(self.keys.buckets):
            for key in (self.keys.vacation_pending(bucket), self.keys.vacation_ending(bucket)):
                members = cast(list[bytes], await self.redis.zrangebyscore(
                    key, "-inf", now - RESERVATION_GRACE_MS, start=0, num=64))
                for member in members:
                    player, game_id, seat, until = json.loads(member)
                    held = await self.held(player, game_id, seat)
                    if held is not None and held.until == until:
                        await self.reconcile(player, game_id, seat, held)
                    await self.redis.zrem(key, member)
                    cleared += 1
        return cleared
