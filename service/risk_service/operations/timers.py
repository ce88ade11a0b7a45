"""What happens to games without a caller, driven by the sweeper and by commits: decision
deadlines (the timeout policy), correspondence turns (missed turns counted, a seat removed or
botted after too many in a row, and the vacations that stop a seat's clocks), bot seats
taking their turns, and abandoning idle games.

A timeout lands exactly once: its commit is based on the version whose deadline passed, so a
move (or another process's timeout) that got there first makes it STALE.

A game no person plays (every seat the service's bot) has nobody to wait for, so its bots
would commit as fast as the process can: they move at most once per `bot_only_move_ms`, and
the process counts such games (`bot_only_games`) so that CreateRound can refuse more than
`max_bot_only_games` (docs/tournaments.md, "What a round may cost").
"""

from __future__ import annotations

import asyncio
import secrets

import structlog

from risk_proto.risk.v1 import game_pb2, lifecycle_pb2, service_pb2
from risk_rules import wire
from risk_rules.engine import Event, get_ruleset
from risk_rules.lifecycle import (
    DecisionTimedOut,
    GameAbandoned,
    MissedTurnPolicy,
    SeatHandedToBot,
    SeatRemoved,
    TimeoutPolicy,
    TurnMissed,
)
from risk_service import clocks
from risk_service.errors import Code, ServiceError, ServiceReason, malformed
from risk_service.finishing import to_the_end
from risk_service.operations import identity, records
from risk_service.operations.bot_levels import level_name
from risk_service.operations.commit import (
    Change,
    Committer,
    lifecycle_change,
    lifecycle_entry,
)
from risk_service.operations.identity import Caller
from risk_service.operations.records import ABANDONED, ACTIVE, WAITING
from risk_service.operations.vacation import VacationAllowance
from risk_service.operations.views import summary
from risk_service.store.game_store import CommitOutcome, GameRecord

log = structlog.get_logger("games")

BOT_LEASE_MS = 10_000  # one process plays a game's bots; another takes over after this


def _seat_player(meta: lifecycle_pb2.GameMeta, seat: int) -> str | None:
    """The player a seat is bound to (None: an anonymous seat)."""
    return meta.seat_players[seat] or None if seat < len(meta.seat_players) else None


class Timers:
    def __init__(self, commits: Committer, *, process_id: str) -> None:
        self.commits = commits
        self.store = commits.store
        self.process_id = process_id
        self.vacations = VacationAllowance(
            self.store, days_per_year=commits.limits.vacation_days_per_year,
            clock_ms=commits.clock_ms)
        self.bot_runs: dict[str, asyncio.Task[None]] = {}
        # games of bots only this process plays (or is about to: a round being opened)
        self.bot_only: set[str] = set()

    async def enforce_deadline(self, game_id: str) -> bool:
        """Apply the timeout policy if the game's pending deadline has passed. Exactly once:
        the commit only lands on the version whose deadline it was. True if applied."""
        record = await self.store.load(game_id)
        if record is None or record.status != ACTIVE:
            await self.store.schedule(game_id, 0)
            return False
        meta = records.decode_meta(record)
        now = self.commits.clock_ms()
        if not meta.deadline_ms or meta.deadline_ms > now:
            await self.store.schedule(game_id, meta.deadline_ms)  # resync the index
            return False
        seat = meta.clock_seat
        if meta.bot_seats[seat]:  # the bot took over; make sure one is playing
            self.start_bots(game_id)
            return False
        rules = get_ruleset(record.variant)
        state = records.decode_state(record)
        policy = TimeoutPolicy(meta.clock.on_timeout or TimeoutPolicy.DEFAULT_ACTION)
        events: list[Event] = [DecisionTimedOut(seat, policy)]
        entry = game_pb2.LogEntry(seat=seat, timed_out=True)
        if clocks.correspondence(meta) and seat == meta.turn_seat and not meta.turn_missed:
            # a missed turn (once per turn): counted, and after the limit in a row the seat
            # is removed or handed to the bot instead of the timeout policy
            meta.turn_missed = True
            meta.missed_turns[seat] += 1
            missed = meta.missed_turns[seat]
            events.append(TurnMissed(seat, missed))
            limit = meta.clock.missed_turns_limit
            if limit and missed >= limit:
                if MissedTurnPolicy(meta.clock.on_missed_turns
                                    or MissedTurnPolicy.REMOVE) is MissedTurnPolicy.REMOVE:
                    events.append(SeatRemoved(seat, missed))
                    policy = TimeoutPolicy.FORFEIT
                else:
                    policy = TimeoutPolicy.BOT
        if policy is TimeoutPolicy.FORFEIT:
            state, engine_events = rules.resign(state, seat)
            entry.resign = True
        else:
            if policy is TimeoutPolicy.BOT:
                meta.bot_seats[seat] = True
                events.append(SeatHandedToBot(seat))
                action = rules.bot_action(state, seat, secrets.randbits(64))
                entry.by_bot = True
            else:
                action = rules.default_action(state, seat)
            state, engine_events = rules.apply(state, seat, action)
            entry.action.CopyFrom(wire.action_to_proto(record.variant, action))
        events.extend(engine_events)
        change = Change(record, state, meta, record.status, events, entry)
        result, _plan = await self.commits.commit(change, actor=seat)
        if result.outcome is CommitOutcome.OK:
            log.info("timeout_applied", game_id=game_id, seat=seat, policy=policy.name,
                     version=record.version + 1)
            return True
        return False

    async def enforce_deadlines(self, game_id: str, most: int = 500) -> int:
        """`enforce_deadline` until none is due: the rest of a missed correspondence turn is
        taken decision by decision (a log entry holds one action), each its own commit, and
        its deadline has passed already. How many were applied."""
        applied = 0
        while applied < most and await self.enforce_deadline(game_id):
            applied += 1
        return applied

    # ---- vacations (correspondence clocks) ---------------------------------------------

    async def start_vacation(self, request: service_pb2.StartVacationRequest, caller: Caller
                             ) -> service_pb2.StartVacationResponse:
        """The caller's seat stops its clocks in this game for `days` whole days; a seat
        bound to a player draws them from the player's year too (operations/vacation.py)."""
        if request.days < 1:
            raise malformed("days: at least 1")
        seat_asked = request.seat if request.HasField("seat") else None
        # one instant for the reservation and the commit: the vacation's `until` is the
        # reservation's id, so it must be the one the game records
        now = self.commits.clock_ms()

        def checked(record: GameRecord) -> tuple[int, lifecycle_pb2.GameMeta]:
            seat = self._vacation_seat(record, caller, seat_asked)
            meta = records.decode_meta(record)
            if not clocks.correspondence(meta) or not meta.clock.vacation_days:
                raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.VACATION_NOT_OFFERED,
                                   "this game's clock gives no vacation")
            if meta.bot_seats[seat]:
                raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.VACATION_NOT_OFFERED,
                                   f"the service's bot plays seat {seat}")
            if clocks.on_vacation(meta, seat, now):
                raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.ALREADY_ON_VACATION,
                                   f"seat {seat} is on vacation until "
                                   f"{meta.vacation_until_ms[seat]} (Unix ms)")
            days_left = meta.vacation_left_ms[seat] // clocks.DAY_MS
            if request.days > days_left:
                raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.VACATION_EXHAUSTED,
                                   f"seat {seat} has {days_left} whole days of vacation left",
                                   {"days_left": str(days_left)})
            return seat, meta

        def build(record: GameRecord) -> Change | None:
            seat, meta = checked(record)
            events = clocks.start_vacation(meta, seat, request.days, now)
            return Change(record, records.decode_state(record), meta, record.status, events,
                          lifecycle_entry("vacation"))

        # the game's own refusals come first; then the player's year, then the commit
        seat, meta = checked(await self.commits.load(request.game_id))
        player = _seat_player(meta, seat) if self.vacations.enabled else None
        if player is None:
            record = await self.commits.lifecycle_commit(request.game_id, build)
        else:
            until = await self.vacations.reserve(player, request.game_id, seat, request.days,
                                                 now)
            try:
                record = await self.commits.lifecycle_commit(request.game_id, build)
            except BaseException:
                await self.vacations.release_if_not_committed(player, request.game_id, seat,
                                                              until)
                raise
            await self.vacations.confirm(player, request.game_id, seat, until,
                                         days=request.days, now=now)
        assert record is not None  # build refuses rather than returning None
        return service_pb2.StartVacationResponse(
            game=summary(record, records.decode_state(record)))

    async def end_vacation(self, request: service_pb2.EndVacationRequest, caller: Caller
                           ) -> service_pb2.EndVacationResponse:
        """The caller's seat is back: its clocks run again, the unused time returned (to the
        player's year too)."""
        seat_asked = request.seat if request.HasField("seat") else None
        now = self.commits.clock_ms()
        ended: dict[str, int] = {}

        def build(record: GameRecord) -> Change | None:
            seat = self._vacation_seat(record, caller, seat_asked)
            meta = records.decode_meta(record)
            if not clocks.on_vacation(meta, seat, now):
                raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.NOT_ON_VACATION,
                                   f"seat {seat} is not on vacation")
            ended.update(seat=seat, until=meta.vacation_until_ms[seat])
            events = clocks.end_vacation(meta, seat, now)
            return Change(record, records.decode_state(record), meta, record.status, events,
                          lifecycle_entry("vacation_end"))

        player = None
        if self.vacations.enabled:
            before = await self.commits.load(request.game_id)
            seat = self._vacation_seat(before, caller, seat_asked)
            player = _seat_player(records.decode_meta(before), seat)
            held = None if player is None else await self.vacations.held(
                player, request.game_id, seat)
            if player is not None and held is not None:
                # a StartVacation that died before confirming: live first, so no sweeper
                # returns in full a vacation partly taken
                await self.vacations.reconcile(player, request.game_id, seat, held)
                # a process that dies after the commit below leaves the refund to the sweeper
                await self.vacations.ending(player, request.game_id, seat, held.until, now)

        async def end_and_refund() -> GameRecord | None:
            record = await self.commits.lifecycle_commit(request.game_id, build)
            if player is not None and record is not None:
                await self.vacations.ended(player, request.game_id, ended["seat"],
                                           ended["until"], now)
            return record

        # the end and the refund of the player's unused days together, whatever becomes of
        # the call: nothing else returns those days once the game shows the vacation ended
        record = await to_the_end(end_and_refund(), "end_vacation")
        assert record is not None
        return service_pb2.EndVacationResponse(
            game=summary(record, records.decode_state(record)))

    def _vacation_seat(self, record: GameRecord, caller: Caller, asked: int | None) -> int:
        """The seat a vacation call acts for: the caller's, in a game being played."""
        seat = identity.acting_seat(identity.identify(record, caller, self.commits.limits),
                                    caller.token, asked)
        records.require_status(record, ACTIVE)
        return seat

    async def resume_bots(self, game_id: str) -> None:
        """Start the game's bots if one is to decide and none plays here: after a crash of the
        process that played them, nothing else would (an untimed game has no deadline)."""
        running = self.bot_runs.get(game_id)
        if running is not None and not running.done():
            return
        record = await self.store.load(game_id)
        if record is None or record.status != ACTIVE:
            return
        seats = get_ruleset(record.variant).decision(records.decode_state(record)).seats
        if seats and records.decode_meta(record).bot_seats[seats[0]]:
            self.start_bots(game_id)

    def bot_only_games(self) -> int:
        """Games of bots only this process plays now."""
        return sum(1 for game_id in self.bot_only
                   if (run := self.bot_runs.get(game_id)) is not None and not run.done())

    def start_bots(self, game_id: str) -> None:
        """Make sure a task plays the game's bot seats (a commit left one to decide)."""
        running = self.bot_runs.get(game_id)
        if running is None or running.done():
            self.bot_runs[game_id] = asyncio.create_task(self._play_bots(game_id),
                                                         name=f"bots:{game_id}")

    async def _play_bots(self, game_id: str) -> None:
        """Take every decision that belongs to a bot seat, until a human must act."""
        if not await self.store.lease(game_id, self.process_id, BOT_LEASE_MS):
            self._ended(game_id)
            return
        pace = self.commits.limits.bot_only_move_ms / 1000
        leased = asyncio.get_running_loop().time()
        try:
            while True:
                # the state this process committed last, when Redis still holds it: a load
                # would replay the log since the last snapshot for every bot move
                try:
                    record, state = await self.commits.fresh(game_id)
                except ServiceError:  # the game is gone (expired, deleted)
                    return
                if record.status != ACTIVE:
                    return
                meta = records.decode_meta(record)
                rules = get_ruleset(record.variant)
                seats = rules.decision(state).seats
                if not seats or not meta.bot_seats[seats[0]]:
                    return
                seat = seats[0]
                # a round's bot plays at its level; a seat handed over by a BOT timeout at
                # the engine's default
                level = meta.bot_levels[seat] if seat < len(meta.bot_levels) else 0
                action = rules.bot_action(state, seat, secrets.randbits(64), level_name(level))
                new_state, events = rules.apply(state, seat, action)
                entry = game_pb2.LogEntry(
                    seat=seat, by_bot=True, action=wire.action_to_proto(record.variant, action))
                await self.commits.commit(Change(record, new_state, meta, record.status,
                                                 list(events), entry), actor=seat)
                if len(meta.bot_seats) and all(meta.bot_seats):
                    self.bot_only.add(game_id)
                    await asyncio.sleep(pace)
                else:
                    await asyncio.sleep(0)
                now = asyncio.get_running_loop().time()
                if (now - leased) * 1000 > BOT_LEASE_MS / 2:  # a paced game outlives a lease
                    if not await self.store.extend_lease(game_id, self.process_id,
                                                         BOT_LEASE_MS):
                        return  # another process plays it now
                    leased = now
        except Exception:  # a bot run must never take the process down
            log.exception("bot_run_failed", game_id=game_id)
        finally:
            try:
                await self.store.release(game_id, self.process_id)
            finally:
                self._ended(game_id)

    def _ended(self, game_id: str) -> None:
        """Forget a finished run (and so the game, as one of bots only played here)."""
        self.bot_only.discard(game_id)
        if self.bot_runs.get(game_id) is asyncio.current_task():
            del self.bot_runs[game_id]

    def idle_cutoff(self, status: int) -> int:
        """The last update time (ms) at which a game of `status` counts as idle now."""
        return self.commits.clock_ms() - self.commits.limits.idle_after(status)

    async def abandon_if_idle(self, game_id: str) -> bool:
        """Mark a waiting or active game abandoned when nobody acted for too long (a game
        still waiting for players sooner: `unstarted_expire_ms`)."""

        def build(r: GameRecord) -> Change | None:
            if r.status not in (WAITING, ACTIVE) or r.updated_ms > self.idle_cutoff(r.status):
                return None
            return lifecycle_change(r, ABANDONED, GameAbandoned(), "abandon")

        return await self.commits.lifecycle_commit(game_id, build) is not None
