"""Matchmaking's calls (RequestMatch, CancelMatch, GetMatchTicket) and the matchmaker every
process runs.

A request is checked (variant, sizes the variant seats, clock, bot wait, expiry), given the
player's current rating for the variant (ratings.store.current_ratings) and queued in its pool
(queue.py): variant, clock and rated flag. One open request per player: a second one while the
first waits or is being seated is refused FAILED_PRECONDITION / ALREADY_QUEUED, naming it,
rather than replacing it (a second device of the same player would silently take the first
one's place in the queue); the same request id again returns the open ticket (a retry).

The matchmaker (`run`, every `interval_ms`) expires tickets past their time, creates the games
of tables whose process died before creating them (a lease per formed table), and forms new
tables: each pool's waiting tickets through the pure rule (tables.py), each table claimed by
one script that seats its tickets only if all still wait, so two processes forming tables at
once never seat a ticket twice. A claimed table's game is created under the id chosen before
the claim, only if absent, with every seat bound to its player (bots at the policy's level in
the seats after them), and started; the plan's tickets are then MATCHED. Each player is told
by a `match_found` fact in their stream (written with the game's creation, copied once by
player_feed.py, which also queues the `match.found` webhook).

Idle (no pool, no expiry, no table in flight: one EXISTS tells), the matchmaker asks Redis that
one command and waits twice as long each time, up to pacing.IDLE_PAUSE_MAX_S (or `interval_ms` when
that is longer), so an idle process costs Redis a command every few seconds rather than three a
second; a request this process queues wakes it at once. A request queued through another
process is matched by that process's own matchmaker, which it wakes in the same way.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import hashlib
import secrets
from collections.abc import Callable, Sequence
from typing import Protocol, cast

import structlog

from risk_proto.risk.v1 import lifecycle_pb2, matchmaking_pb2, player_games_pb2
from risk_rules import wire
from risk_rules.engine import REGISTRY, IllegalAction
from risk_rules.lifecycle import TimeoutPolicy
from risk_service import clocks
from risk_service.errors import Code, ServiceError, ServiceReason, malformed
from risk_service.matchmaking import queue as q
from risk_service.matchmaking.queue import MatchQueue, split_open
from risk_service.matchmaking.tables import Policy, Table, Waiting, form_tables
from risk_service.operations import player_facts
from risk_service.operations.bot_levels import LEVELS, level_name
from risk_service.operations.commands import MAX_NAME, Commands
from risk_service.operations.identity import Caller, digest
from risk_service.operations.player_feed import PlayerFeed, player_required
from risk_service.operations.timers import Timers
from risk_service.pacing import pause
from risk_service.ratings.store import RatingStore, current_ratings
from risk_service.settings import Settings
from risk_service.store.keys import Keys
from risk_service.store.unreachable import store_unavailable

log = structlog.get_logger("matchmaking")

DEFAULT_EXPIRY_S = 600
EXPIRY_RANGE_S = (10, 3600)
BOTS_AFTER_RANGE_S = (1, 3600)
MAX_SIZES = 6
KEEP_MS = 3600 * 1000  # a closed ticket is readable this long
POOL_READ = 1000  # waiting tickets of one pool considered per pass (the oldest)
STALE_BATCH = 16
FACTS_KEY = "match"  # the game-hash field of a table's match_found facts (player_facts.field)


@dataclasses.dataclass(frozen=True, slots=True)
class MatchSettings:
    """The matchmaker's settings (RISK_MATCH_*, docs/configuration.md)."""

    policy: Policy = dataclasses.field(default_factory=Policy)
    interval_ms: int = 1000
    lease_ms: int = 10_000
    # a test hook: hold a claimed table this long before creating its game (0 in service)
    create_delay_ms: int = 0

    @classmethod
    def from_settings(cls, settings: Settings) -> MatchSettings:
        level = next(n for n, name in LEVELS.items() if name == settings.match_bot_level)
        return cls(policy=Policy(base_window=settings.match_window_base,
                                 widen_per_s=settings.match_window_per_s,
                                 max_window=settings.match_window_max, bot_level=level),
                   interval_ms=settings.match_interval_ms, lease_ms=settings.match_lease_ms,
                   create_delay_ms=settings.match_create_delay_ms)


class MatchMetrics(Protocol):
    """What the matchmaker counts (server.metrics.Metrics: risk_match_*)."""

    def match_formed(self, bots: int, waits_s: Sequence[float]) -> None: ...
    def match_closed_as(self, how: str) -> None: ...


@functools.cache
def seat_counts(variant: str) -> tuple[int, ...]:
    """The numbers of seats the variant's rules accept."""
    rules = REGISTRY[variant]
    accepted = []
    for players in range(2, 7):
        try:
            rules.create(rules.default_options(players), 1)
        except IllegalAction:
            continue
        accepted.append(players)
    return tuple(accepted)


def default_size(variant: str) -> int:
    """The variant's number of players when a request names no size."""
    for option in dataclasses.fields(REGISTRY[variant].options_type):
        if option.name == "players" and isinstance(option.default, int):
            return option.default
    return seat_counts(variant)[0]


def _asked(ticket: matchmaking_pb2.MatchTicket) -> bytes:
    """What a request asked for, to tell a retry from another request under the same id."""
    return matchmaking_pb2.MatchTicket(
        variant=ticket.variant, sizes=ticket.sizes, clock=ticket.clock, rated=ticket.rated,
        allow_bots_after_seconds=ticket.allow_bots_after_seconds,
        display_name=ticket.display_name).SerializeToString(deterministic=True)


def pool_of(variant: str, clock: lifecycle_pb2.ClockOptions, rated: bool) -> str:
    """The pool a request waits in: its variant, rated flag and clock (a digest of it)."""
    clock_id = hashlib.sha256(clock.SerializeToString(deterministic=True)).hexdigest()[:16]
    return f"{variant}:{'rated' if rated else 'casual'}:{clock_id}"


class Matchmaking:
    def __init__(self, commands: Commands, feed: PlayerFeed, timers: Timers, keys: Keys, *,
                 clock_ms: Callable[[], int], settings: MatchSettings | None = None,
                 ratings: RatingStore | None = None,
                 metrics: MatchMetrics | None = None) -> None:
        self.commands = commands
        self.feed = feed
        self.timers = timers
        self.keys = keys
        self.clock_ms = clock_ms
        self.settings = settings or MatchSettings()
        self.ratings = ratings  # the configured season's; None: the default season's
        self.metrics = metrics
        store = commands.store
        self.redis = store.redis
        self.queue = MatchQueue(store.redis, keys.prefix, store.connection)
        self._wake = asyncio.Event()  # set by a request queued here: match now

    # ---- the calls ----------------------------------------------------------------------

    async def request(self, request: matchmaking_pb2.RequestMatchRequest, caller: Caller
                      ) -> matchmaking_pb2.MatchTicket:
        player = player_required(caller)
        variant, sizes, clock = self._check(request)
        if request.request_id and len(request.request_id) > MAX_NAME:
            raise malformed(f"request_id has at most {MAX_NAME} characters")
        now = self.clock_ms()
        expires_s = request.expires_in_seconds or DEFAULT_EXPIRY_S
        rating = (await current_ratings(self.ratings or self.redis, variant, [player],
                                        keys=self.keys))[player]
        ticket = matchmaking_pb2.MatchTicket(
            ticket_id=secrets.token_hex(12), player_id=player,
            variant=wire.variant_enum(variant), sizes=sizes, clock=clock, rated=request.rated,
            allow_bots_after_seconds=request.allow_bots_after_seconds,
            display_name=request.display_name, status=q.WAITING, created_at_ms=now,
            expires_at_ms=now + expires_s * 1000, rating=rating.mu)
        held = await self.queue.request(
            ticket, pool=pool_of(variant, clock, request.rated), since_ms=now,
            request_id=request.request_id, keep_ms=expires_s * 1000 + KEEP_MS)
        if held is None:
            log.info("match_requested", ticket_id=ticket.ticket_id, variant=variant,
                     sizes=list(sizes), rated=request.rated)
            self._wake.set()
            return ticket
        open_ticket, open_request = split_open(held)
        if request.request_id and open_request == request.request_id:
            held_ticket = await self._ticket(open_ticket, player)  # a retry of the open request
            if _asked(held_ticket) != _asked(ticket):
                raise ServiceError(Code.INVALID_ARGUMENT, ServiceReason.REQUEST_ID_REUSED,
                                   f"request_id {request.request_id!r} was used for another "
                                   f"match request ({open_ticket})",
                                   {"ticket_id": open_ticket})
            return held_ticket
        raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.ALREADY_QUEUED,
                           f"player {player!r} has a match request open already "
                           f"({open_ticket}); cancel it (CancelMatch) to ask for another",
                           {"ticket_id": open_ticket})

    async def get(self, request: matchmaking_pb2.MatchTicketRequest, caller: Caller
                  ) -> matchmaking_pb2.MatchTicket:
        return await self._ticket(request.ticket_id, player_required(caller))

    async def cancel(self, request: matchmaking_pb2.MatchTicketRequest, caller: Caller
                     ) -> matchmaking_pb2.MatchTicket:
        """Take a waiting ticket out of its queue. A ticket cancelled or expired already is
        returned as it is; one seated at a table is refused MATCH_ALREADY_FORMED."""
        player = player_required(caller)
        ticket = await self._ticket(request.ticket_id, player)
        if ticket.status == q.WAITING:
            await self.queue.close(
                ticket.ticket_id,
                pool_of(wire.variant_name(ticket.variant), ticket.clock, ticket.rated), player,
                q.CANCELLED, keep_ms=KEEP_MS)
            ticket = await self._ticket(request.ticket_id, player)
            if ticket.status == q.CANCELLED:
                log.info("match_cancelled", ticket_id=ticket.ticket_id)
                if self.metrics is not None:
                    self.metrics.match_closed_as("cancelled")
        if ticket.status in (q.MATCHING, q.MATCHED):
            raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.MATCH_ALREADY_FORMED,
                               f"the request is seated at a table already: game "
                               f"{ticket.game_id}", {"game_id": ticket.game_id})
        return ticket

    async def _ticket(self, ticket_id: str, player: str) -> matchmaking_pb2.MatchTicket:
        fields = await self.queue.read(ticket_id) if 0 < len(ticket_id) <= 64 else {}
        if not fields or fields.get("p", b"").decode() != player:
            raise ServiceError(Code.NOT_FOUND, ServiceReason.MATCH_TICKET_NOT_FOUND,
                               f"no match request {ticket_id[:64]!r} of yours")
        ticket = matchmaking_pb2.MatchTicket.FromString(fields["b"])
        ticket.status = int(fields["s"])  # type: ignore[assignment]  # the enum's number
        if "g" in fields:
            ticket.game_id = fields["g"].decode()
            ticket.seat = int(fields.get("seat", b"0"))
            plan = await self.queue.plan(ticket.game_id) if ticket.status == q.MATCHING else None
            if plan is not None:
                ticket.table_size, ticket.bots = len(plan.seats) + plan.bots, plan.bots
            else:
                meta = await self._meta(ticket.game_id)
                if meta is not None:
                    ticket.table_size = len(meta.bot_seats)
                    ticket.bots = sum(meta.bot_seats)
        return ticket

    async def _meta(self, game_id: str) -> lifecycle_pb2.GameMeta | None:
        raw = await self.redis.hget(self.keys.game(game_id), "meta")
        return None if raw is None else lifecycle_pb2.GameMeta.FromString(cast(bytes, raw))

    def _check(self, request: matchmaking_pb2.RequestMatchRequest
               ) -> tuple[str, list[int], lifecycle_pb2.ClockOptions]:
        if not request.variant:
            raise malformed("variant is required")
        try:
            variant = wire.variant_name(request.variant)
        except wire.WireError:
            raise ServiceError(Code.UNIMPLEMENTED, ServiceReason.VARIANT_NOT_AVAILABLE,
                               f"variant {request.variant} is not served here") from None
        if variant not in REGISTRY:
            raise ServiceError(Code.UNIMPLEMENTED, ServiceReason.VARIANT_NOT_AVAILABLE,
                               f"variant {variant} is not served here")
        counts = seat_counts(variant)
        sizes = sorted(set(request.sizes)) or [default_size(variant)]
        if len(sizes) > MAX_SIZES or any(s not in counts for s in sizes):
            raise malformed(f"sizes: {variant} seats {', '.join(map(str, counts))} players, "
                            f"not {list(request.sizes)}")
        if len(request.display_name) > MAX_NAME:
            raise malformed(f"display_name is longer than {MAX_NAME} characters")
        bots = request.allow_bots_after_seconds
        if bots and not BOTS_AFTER_RANGE_S[0] <= bots <= BOTS_AFTER_RANGE_S[1]:
            raise malformed(f"allow_bots_after_seconds is 0 (never) or {BOTS_AFTER_RANGE_S[0]} "
                            f"to {BOTS_AFTER_RANGE_S[1]}, not {bots}")
        expires = request.expires_in_seconds
        if expires and not EXPIRY_RANGE_S[0] <= expires <= EXPIRY_RANGE_S[1]:
            raise malformed(f"expires_in_seconds is 0 ({DEFAULT_EXPIRY_S} s) or "
                            f"{EXPIRY_RANGE_S[0]} to {EXPIRY_RANGE_S[1]}, not {expires}")
        asked = request.clock
        if min(asked.decision_seconds, asked.bank_seconds, asked.increment_seconds) < 0:
            raise malformed("clock seconds must not be negative")
        try:
            policy = TimeoutPolicy(asked.on_timeout or TimeoutPolicy.DEFAULT_ACTION)
        except ValueError:
            raise malformed(f"unknown timeout policy {asked.on_timeout}") from None
        # spelt out as the game will have it (as Commands.open_game does), so that a clock
        # left to its defaults and the same clock written out wait in one pool
        clock = lifecycle_pb2.ClockOptions(
            decision_seconds=asked.decision_seconds, bank_seconds=asked.bank_seconds,
            increment_seconds=asked.increment_seconds,
            on_timeout=policy.value)  # type: ignore[arg-type]  # the enum's number
        clocks.settle_correspondence(asked, clock)
        return variant, sizes, clock

    # ---- the matchmaker ----------------------------------------------------------------

    async def run(self) -> None:
        """Match every `interval_ms` until cancelled; a pass that fails (a Redis outage) is
        logged and the next one goes on. Idle, the passes are spaced out (module docstring)."""
        idle = 0  # passes in a row that found nothing to do
        while True:
            try:
                if await self.queue.anything():
                    idle = 0
                    await self.match_once()
                else:
                    idle += 1
            except Exception as exc:
                if store_unavailable(exc):
                    log.warning("matchmaking_deferred", error=str(exc))
                else:  # logged, and the next pass tries again: a leased table is taken over
                    log.exception("matchmaking_failed")
            await self._pause(idle)

    async def _pause(self, idle: int) -> None:
        await pause(self.settings.interval_ms / 1000, idle, self._wake)

    async def match_once(self) -> int:
        """One pass: expire, finish tables left by dead processes, form new ones; how many
        games were created."""
        now = self.clock_ms()
        await self._expire(now)
        created = 0
        for game_id in await self.queue.stale(now, now + self.settings.lease_ms, STALE_BATCH):
            plan = await self.queue.plan(game_id)
            if plan is None:  # finished meanwhile by the process that leased it before
                continue
            log.info("match_resumed", game_id=game_id)
            await self._create(plan)
            created += 1
        for pool in await self.queue.pools():
            created += await self._match_pool(pool)
        return created

    async def _expire(self, now: int) -> None:
        for ticket_id in await self.queue.due(now, 256):
            fields = await self.queue.read(ticket_id)
            if not fields:
                await self.redis.zrem(self.queue.expiry_key, ticket_id)
                continue
            ticket = matchmaking_pb2.MatchTicket.FromString(fields["b"])
            status, _game = await self.queue.close(
                ticket_id, fields["pool"].decode(), ticket.player_id, q.EXPIRED,
                keep_ms=KEEP_MS, expired_by_ms=now)
            if status == q.EXPIRED:
                log.info("match_expired", ticket_id=ticket_id)
                if self.metrics is not None:
                    self.metrics.match_closed_as("expired")

    async def _match_pool(self, pool: str) -> int:
        waiting = await self.queue.waiting(pool, POOL_READ)
        if not waiting:
            return 0
        tickets = {}
        requests = []
        for ticket_id, since, body in waiting:
            ticket = matchmaking_pb2.MatchTicket.FromString(body)
            tickets[ticket_id] = ticket
            requests.append(Waiting(
                ticket=ticket_id, player=ticket.player_id, pool=pool,
                sizes=frozenset(ticket.sizes), mu=ticket.rating, since_ms=since,
                bots_after_ms=ticket.allow_bots_after_seconds * 1000
                if ticket.allow_bots_after_seconds else None))
        now = self.clock_ms()
        created = 0
        for table in form_tables(requests, now, self.settings.policy):
            plan = self._plan(table, [tickets[t] for t in table.tickets], now)
            if not await self.queue.claim(plan, pool, lease_end_ms=now + self.settings.lease_ms,
                                          now_ms=now):
                # a ticket left meanwhile (cancelled, expired, seated by another process)
                log.info("match_claim_lost", pool=pool, tickets=list(table.tickets))
                continue
            log.info("match_formed", game_id=plan.game_id, pool=pool, size=table.size,
                     bots=table.bots, tickets=list(table.tickets))
            if self.metrics is not None:
                began = {w.ticket: w.since_ms for w in requests}
                self.metrics.match_formed(table.bots, [(now - began[t]) / 1000
                                                       for t in table.tickets])
            if self.settings.create_delay_ms:
                await asyncio.sleep(self.settings.create_delay_ms / 1000)
            await self._create(plan)
            created += 1
        return created

    def _plan(self, table: Table, seated: list[matchmaking_pb2.MatchTicket], now: int
              ) -> matchmaking_pb2.MatchPlan:
        first = seated[0]
        return matchmaking_pb2.MatchPlan(
            game_id=f"{now:012x}{secrets.token_hex(5)}", variant=first.variant,
            clock=first.clock, rated=first.rated, seats=seated, bots=table.bots,
            bot_level=table.bot_level, seed=secrets.randbits(64), formed_at_ms=now)

    async def _create(self, plan: matchmaking_pb2.MatchPlan) -> None:
        """Create and start the plan's game (only if absent), tell its players, and mark its
        tickets MATCHED. Run again after a crash, it makes nothing twice."""
        variant = wire.variant_name(plan.variant)
        rules = REGISTRY[variant]
        size = len(plan.seats) + plan.bots
        options = rules.default_options(size)
        players = [seat.player_id for seat in plan.seats] + [""] * plan.bots
        bots = [0] * len(plan.seats) + [plan.bot_level or 2] * plan.bots
        names = [seat.display_name for seat in plan.seats] + [
            f"bot ({level_name(plan.bot_level)})"] * plan.bots
        # every seat is taken by a token nobody holds: players act with their own credential
        digests = tuple(digest(secrets.token_urlsafe(32)) for _ in range(size))

        def setup(meta: lifecycle_pb2.GameMeta, now_ms: int) -> tuple[tuple[str, bytes], ...]:
            meta.seat_players.extend(players)
            meta.bot_levels.extend(bots)
            for seat, level in enumerate(bots):
                meta.bot_seats[seat] = bool(level)
            meta.rated = plan.rated  # docs/ratings.md: the ratings follow its ending
            facts = [player_games_pb2.PlayerEvent(
                player_id=ticket.player_id, game_id=plan.game_id, game_version=0, at_ms=now_ms,
                seat=seat, variant=plan.variant, seat_name=ticket.display_name,
                match_found=player_games_pb2.PlayerEvent.MatchFound(
                    ticket_id=ticket.ticket_id, table_size=size, bots=plan.bots,
                    rated=plan.rated))
                for seat, ticket in enumerate(plan.seats)]
            return ((player_facts.field(FACTS_KEY), player_facts.pack(facts)),)

        await self.feed.intend(plan.game_id, [FACTS_KEY])
        await self.commands.open_game(
            variant, options, plan.seed, game_id=plan.game_id, names=names,
            seat_digests=lambda _players: digests, host_digest=digest(secrets.token_urlsafe(32)),
            clock=plan.clock, setup=setup, if_absent=True)
        await self.feed.after_write(plan.game_id, [FACTS_KEY])
        await self.queue.finish(plan, keep_ms=KEEP_MS)
        await self.timers.resume_bots(plan.game_id)
        log.info("match_created", game_id=plan.game_id, size=size, bots=plan.bots)
