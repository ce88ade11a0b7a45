"""The game service's operations, independent of gRPC: create, join, act, stream, and the
lifecycle around them (start, cancel, resign, clocks, bots, abandon, export).

Each operation loads what it needs from the store, authenticates the caller against the game's
token digests, runs the pure engine, and commits atomically: one commit per change, whose
events are the lifecycle events (if any) followed by the engine's. Operations return protobuf
responses because a SubmitAction reply is stored verbatim for idempotent retries. Every failure
is a `ServiceError`, an `IllegalAction` or a `WireError`; `server.status` maps them to gRPC.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import hmac
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import structlog

from risk_service import clocks, wire
from risk_service.audit import chain_root, hash_chain
from risk_service.campaign_record import campaign_result
from risk_service.engine import REGISTRY, Event, IllegalAction, Reason, get_ruleset
from risk_service.errors import Code, ServiceError, malformed, not_found
from risk_service.feed import FeedHub, FeedRolledBack
from risk_service.lifecycle import (
    DecisionTimedOut,
    GameAbandoned,
    GameCancelled,
    GameStarted,
    SeatHandedToBot,
    SeatJoined,
    SeatTokenReissued,
    TimeoutPolicy,
)
from risk_service.pb.risk.v1 import game_pb2, lifecycle_pb2, service_pb2
from risk_service.store.game_store import CommitOutcome, CommitResult, GameRecord, GameStore
from risk_service.verified import VERIFIED

log = structlog.get_logger("games")

# a game id; a campaign's games are "<campaign id>.<n>"
_GAME_ID = re.compile(r"^[0-9a-f]{12,64}(\.[0-9]{1,3})?$")
_REQUEST_ID = re.compile(r"^[\x21-\x7e]{1,128}$")  # printable ASCII without spaces
MAX_NAME = 64
DEFAULT_PAGE = 50
LIST_SLICE = 25  # games of a ListGames page read and summarised between two turns of the loop
FINGERPRINT = 32  # bytes of SHA-256 in front of a stored reply
INTERNAL_RETRIES = 50  # service-made commits (joins, timeouts) retry a lost race this often
STREAM_CACHE = 8192  # encoded stream messages kept (a few recent events x audiences x games)
# a stream that starts behind reads its backlog this many events at a time: a spectator joining
# a long game from seq 0 neither holds the whole game decoded nor decodes it in one go of the
# event loop, and each page is one short XRANGE
BACKLOG_PAGE = 128
# an export page stops growing past this many bytes of log and events, well inside a client's
# default 4 MiB receive limit (one entry more may follow the limit: entries are small)
EXPORT_PAGE_BYTES = 1 << 20
# ... and holds at most this many log entries, so a page is also quick to build and to replay
EXPORT_PAGE_ENTRIES = 512
EXPORT_READ = 512  # log entries or events read from Redis at a time while building a page

WAITING = service_pb2.GAME_STATUS_WAITING
ACTIVE = service_pb2.GAME_STATUS_ACTIVE
FINISHED = service_pb2.GAME_STATUS_FINISHED
ABANDONED = service_pb2.GAME_STATUS_ABANDONED
CANCELLED = service_pb2.GAME_STATUS_CANCELLED
FINAL = (FINISHED, ABANDONED, CANCELLED)


# Asks whether the current call's peer presented a verified client certificate (mutual TLS).
# The gRPC layer sets it per call (each call runs in its own task, so the value stays with it);
# it is asked only when an organiser token needs one, as reading the call's auth context on
# every call would cost every call.
CLIENT_CERT: ContextVar[Callable[[], bool]] = ContextVar("client_cert", default=lambda: False)


def digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def require_creator(creators: tuple[bytes, ...], token: str | None) -> None:
    """Refuse a creation without a creator token, when creator tokens are configured."""
    if not creators:
        return
    if token is None:
        raise ServiceError(Code.UNAUTHENTICATED, "MISSING_CREDENTIALS",
                           "creating needs a creator token: metadata "
                           "'authorization: Bearer <token>'")
    presented, found = digest(token), False
    for stored in creators:
        found |= hmac.compare_digest(stored, presented)
    if not found:
        raise ServiceError(Code.PERMISSION_DENIED, "NOT_CREATOR",
                           "this token may not create games or campaigns")


@dataclass(frozen=True, slots=True)
class Caller:
    seat: int | None  # None: a spectator, the host or an organiser (no seat)
    host: bool = False
    organiser: bool = False


@dataclass(frozen=True, slots=True)
class Limits:
    subscriber_buffer: int = 1024
    max_page_size: int = 200
    retention_ms: int = 30 * 24 * 3600 * 1000
    abandon_after_ms: int = 7 * 24 * 3600 * 1000
    # a game that never started: abandoned after this long without a join (or start), and
    # then kept this long only (there is no play to audit); bounds what a flood of CreateGame
    # calls can leave in Redis
    unstarted_expire_ms: int = 24 * 3600 * 1000
    unstarted_retention_ms: int = 3600 * 1000
    # a campaign with no game started, finished or decided for this long is deleted; a
    # complete campaign is kept `retention_ms` after its last reward decision
    campaign_idle_ms: int = 90 * 24 * 3600 * 1000
    # SHA-256 digests of the organiser tokens (tournament servers)
    organiser_digests: tuple[bytes, ...] = ()
    # organiser tokens count only on calls with a client certificate (mutual TLS is configured)
    organiser_needs_client_cert: bool = False
    # games kept decoded in the process cache (0: no cache)
    cached_games: int = 4096
    # CreateGame and CreateCampaign need a token whose digest is one of these (empty: anyone
    # may create); ListGames ends a page early, with a page token, past this much time
    creator_digests: tuple[bytes, ...] = ()
    list_budget_s: float = 0.02


@dataclass
class _Change:
    """One commit being prepared: what it writes and what it tells the caller."""

    record: GameRecord
    state: Any
    meta: lifecycle_pb2.GameMeta
    status: int
    events: list[Event] = field(default_factory=list)
    entry: game_pb2.LogEntry | None = None
    fields: tuple[tuple[str, bytes], ...] = ()  # extra game-hash fields, written atomically
    claim: str = ""  # a game-hash field that must not exist yet (the seat a join takes)


class GameService:
    def __init__(
        self,
        store: GameStore,
        hub: FeedHub,
        *,
        clock_ms: Callable[[], int],
        limits: Limits | None = None,
        new_token: Callable[[], str] = lambda: secrets.token_urlsafe(32),
        new_seed: Callable[[], int] = lambda: secrets.randbits(64),
        new_commit_id: Callable[[], str] = lambda: secrets.token_hex(8),
        on_conflict: Callable[[], None] = lambda: None,
    ) -> None:
        self.store = store
        self.hub = hub
        self.clock_ms = clock_ms
        self.limits = limits or Limits()
        self.new_token = new_token
        self.new_seed = new_seed
        self.new_commit_id = new_commit_id
        self.on_conflict = on_conflict  # a commit lost the version race (metrics)
        self.bot_runs: dict[str, asyncio.Task[None]] = {}
        # The games this process committed last, with their decoded state: a SubmitAction at
        # the cached version skips the read, and the commit's version check catches a cache
        # that another process made stale (the caller then gets ABORTED, as it would anyway).
        self.cache: OrderedDict[str, tuple[GameRecord, Any]] = OrderedDict()
        # A SubmitAction committing to a game in this process: the others on that game wait
        # for it, then answer from the cache (the ones it made stale never reach Redis).
        self.committing: dict[str, asyncio.Future[None]] = {}
        # serialised stream messages by (game, seq, viewer): shared by subscribers alike
        self.stream_cache: OrderedDict[tuple[str, int, int | None], bytes] = OrderedDict()
        self.process_id = secrets.token_hex(8)

    # ---- loading and identifying -------------------------------------------------------

    async def _load(self, game_id: str) -> GameRecord:
        if not _GAME_ID.match(game_id):
            raise malformed(f"game_id {game_id[:80]!r} is not a game id")
        record = await self.store.load(game_id)
        if record is None:
            raise not_found(game_id)
        return record

    async def _fresh(self, game_id: str) -> tuple[GameRecord, Any]:
        """The game as stored now, with its decoded state. The cached copy serves when Redis
        still holds its state — its version and the id of the commit that wrote it (one small
        read instead of the whole game and a decode); every write to a game, seats taken
        included, is a commit of a new version."""
        cached = self.cache.get(game_id)
        if cached is not None:
            if await self.store.state_id(game_id) == _state_id(cached[0]):
                return cached
            self._forget(game_id, cached)  # moved on, or Redis lost the cached state
        record = await self._load(game_id)
        state = self._state(record)
        self._keep(record, state)
        return record, state

    def _identify(self, record: GameRecord, token: str | None) -> Caller:
        """Who the token is for this game; organiser tokens may also need this call's
        client certificate (CLIENT_CERT)."""
        if token is None:
            return Caller(None)
        presented = digest(token)
        seat = None
        for index, stored in enumerate(record.seat_digests):
            # compare every digest, so timing does not tell which seat (if any) matched
            if hmac.compare_digest(stored or b"\0" * 32, presented):
                seat = index
        host = hmac.compare_digest(record.host_digest or b"\0" * 32, presented)
        organiser = self._is_organiser(presented)
        if organiser and self.limits.organiser_needs_client_cert and not CLIENT_CERT.get()():
            raise ServiceError(
                Code.PERMISSION_DENIED, "ORGANISER_NEEDS_CLIENT_CERT",
                "organiser tokens are accepted only with a client certificate (mutual TLS)",
            )
        if seat is None and not host and not organiser:
            raise ServiceError(
                Code.UNAUTHENTICATED, "BAD_CREDENTIALS", "the token is not valid for this game"
            )
        VERIFIED.get()(presented)  # a credential: its caller is rate-limited as itself
        return Caller(seat, host, organiser)

    def _is_organiser(self, presented: bytes) -> bool:
        found = False
        for stored in self.limits.organiser_digests:
            found |= hmac.compare_digest(stored, presented)
        return found

    @staticmethod
    def _acting_seat(caller: Caller, token: str | None, requested: int | None) -> int:
        if token is None:
            raise ServiceError(
                Code.UNAUTHENTICATED, "MISSING_CREDENTIALS",
                "this call needs a seat token: metadata 'authorization: Bearer <token>'",
            )
        if caller.seat is None:
            raise ServiceError(
                Code.PERMISSION_DENIED, "WRONG_SEAT",
                "this token holds no seat; join a seat to act",
            )
        if requested is not None and requested != caller.seat:
            raise ServiceError(
                Code.PERMISSION_DENIED, "WRONG_SEAT",
                f"this token acts for seat {caller.seat}, not seat {requested}",
            )
        return caller.seat

    @staticmethod
    def _require_host(caller: Caller, token: str | None) -> None:
        if token is None:
            raise ServiceError(Code.UNAUTHENTICATED, "MISSING_CREDENTIALS",
                               "this call needs the host's token")
        if not caller.host:
            raise ServiceError(Code.PERMISSION_DENIED, "NOT_HOST", "only the host may do this")

    @staticmethod
    def _state(record: GameRecord) -> Any:
        _variant, _rules_version, state = wire.decode_state(record.snapshot)
        return state

    @staticmethod
    def _meta(record: GameRecord) -> lifecycle_pb2.GameMeta:
        return lifecycle_pb2.GameMeta.FromString(record.meta)

    @staticmethod
    def _require_status(record: GameRecord, *allowed: int) -> None:
        if record.status in allowed:
            return
        if record.status == WAITING:
            raise ServiceError(Code.FAILED_PRECONDITION, "GAME_NOT_STARTED",
                               "the game has not started: every seat must be taken first")
        if record.status in FINAL:
            raise ServiceError(Code.FAILED_PRECONDITION, Reason.GAME_OVER, "the game is over")
        raise ServiceError(Code.FAILED_PRECONDITION, "GAME_ALREADY_STARTED",
                           "the game has already started")

    # ---- views -------------------------------------------------------------------------

    def _summary(
        self, record: GameRecord, state: Any, meta: lifecycle_pb2.GameMeta | None = None,
        *, seat: int | None = None,
    ) -> service_pb2.GameSummary:
        """The summary for a caller holding `seat` (None: no seat). While a game with a
        spectator delay is played, a caller without a seat gets no more of its progress than
        a delayed stream gives: version, last seq, the decision, its deadline, the banks, the
        bot seats and the time of the last change are withheld (left unset)."""
        rules = get_ruleset(record.variant)
        meta = meta if meta is not None else self._meta(record)
        if seat is None and record.status not in FINAL and (
                meta.spectator_delay_events or meta.spectator_delay_seconds):
            return service_pb2.GameSummary(
                game_id=record.game_id,
                variant=wire.variant_enum(record.variant),
                status=record.status,  # type: ignore[arg-type]
                rules_version=rules.rules_version,
                seats=[service_pb2.Seat(seat=i, display_name=record.names[i],
                                        taken=bool(record.seat_digests[i]))
                       for i in range(record.players)],
                created_at_ms=record.created_ms,
                clock=meta.clock,
                spectator_delay_events=meta.spectator_delay_events,
                spectator_delay_seconds=meta.spectator_delay_seconds,
            )
        summary = service_pb2.GameSummary(
            game_id=record.game_id,
            variant=wire.variant_enum(record.variant),
            status=record.status,  # type: ignore[arg-type]
            version=record.version,
            last_seq=record.last_seq,
            rules_version=rules.rules_version,
            seats=[
                service_pb2.Seat(seat=i, display_name=record.names[i],
                                 taken=bool(record.seat_digests[i]))
                for i in range(record.players)
            ],
            created_at_ms=record.created_ms,
            updated_at_ms=record.updated_ms,
            clock=meta.clock,
            deadline_ms=meta.deadline_ms,
            bank_ms=meta.bank_ms,
            bot_seats=meta.bot_seats,
            spectator_delay_events=meta.spectator_delay_events,
            spectator_delay_seconds=meta.spectator_delay_seconds,
        )
        if record.status == ACTIVE:
            summary.decision.CopyFrom(wire.decision_to_proto(rules.decision(state)))
        outcome = wire.outcome_to_proto(rules.outcome(state))
        if outcome is not None:
            summary.outcome.CopyFrom(outcome)
        return summary

    @staticmethod
    def _events_for(variant: str, items: Sequence[tuple[int, int, Event, int]],
                    viewer: int | None) -> list[game_pb2.Event]:
        out = []
        for seq, version, event, at_ms in items:
            seen = event.for_viewer(viewer)
            if seen is not None:
                out.append(wire.event_to_proto(variant, seen, seq, version, at_ms))
        return out

    # ---- the one way a change is written -----------------------------------------------

    async def _commit(
        self,
        change: _Change,
        *,
        actor: int | None,
        request_field: str = "",
        reply: Callable[[list[tuple[int, int, Event, int]]], bytes] | None = None,
    ) -> tuple[CommitResult, list[tuple[int, int, Event, int]], bytes]:
        """Settle clocks, number the events, write everything in one atomic commit, then
        update the secondary indexes. Returns the result, the numbered events and the reply
        bytes that were stored with the request id (if any)."""
        record = change.record
        rules = get_ruleset(record.variant)
        now = self.clock_ms()
        if change.status == ACTIVE and rules.outcome(change.state) is not None:
            change.status = FINISHED
        if change.status == ACTIVE:
            seats = rules.decision(change.state).seats
            started = clocks.advance(change.meta, actor, seats[0] if seats else None, now)
            if started is not None:
                change.events.append(started)
        else:
            clocks.stop(change.meta)
        if not change.events:  # a client following the stream would never see this version
            raise _broken_commit(record, "a commit without an event")
        version = record.version + 1
        items = [(record.last_seq + i, version, e, now)
                 for i, e in enumerate(change.events, start=1)]
        reply_bytes = reply(items) if reply is not None else b""
        if change.entry is None:  # every version has its log entry (ExportGame, verify)
            raise _broken_commit(record, "a commit without a log entry")
        change.entry.version = version
        change.entry.at_ms = now
        entry = change.entry.SerializeToString(deterministic=True)
        final = change.status in FINAL
        campaign_id, campaign_fields = "", []
        if change.status == FINISHED and "." in record.game_id:  # a campaign's game ends
            campaign_id = self.store.keys.tag(record.game_id)
            raw = await self.store.load_campaign(campaign_id)
            if raw:
                campaign_fields = campaign_result(raw, change.state)
        snapshot = wire.encode_state(record.variant, change.state)
        meta = change.meta.SerializeToString(deterministic=True)
        commit_id = self.new_commit_id()
        result = await self.store.commit(
            record.game_id,
            expected_version=record.version,
            first_seq=record.last_seq + 1,
            snapshot=snapshot,
            status=change.status,
            now_ms=now,
            events=[wire.encode_event(record.variant, e, s, v, at) for s, v, e, at in items],
            meta=meta,
            log_entry=entry,
            request_field=request_field,
            request_value=reply_bytes,
            retention_ms=self._retention(record) if final else 0,
            fields=change.fields,
            campaign_id=campaign_id,
            campaign_fields=campaign_fields,
            claim=change.claim,
            expected_commit_id=record.commit_id,
            commit_id=commit_id,
        )
        if result.outcome is CommitOutcome.OK:
            self._remember(change, snapshot, meta, now, len(items), commit_id=commit_id)
            await self._after_commit(record, change, now, campaign_id if campaign_fields else "")
        else:
            cached = self.cache.get(record.game_id)
            if cached is not None and cached[0].version <= record.version:
                # another process moved the game on, or Redis lost the cached state
                self._forget(record.game_id, cached)
            if result.outcome is CommitOutcome.STALE:
                self.on_conflict()
        return result, items, reply_bytes

    def _remember(self, change: _Change, snapshot: bytes, meta: bytes, now: int,
                  events: int, *, commit_id: str) -> None:
        """Keep the committed game in the process cache, for the next SubmitAction on it."""
        record = change.record
        digests, names = record.seat_digests, record.names
        if change.fields:  # a joined or reissued seat: keep the cache's seats in step
            replaced = dict(change.fields)
            digests = tuple(replaced.get(f"tok:{seat}", d) for seat, d in enumerate(digests))
            names = tuple(replaced[f"name:{seat}"].decode() if f"name:{seat}" in replaced
                          else n for seat, n in enumerate(names))
        new = GameRecord(record.game_id, record.variant, change.status, record.version + 1,
                         record.last_seq + events, record.created_ms, now, record.players,
                         snapshot, meta, names, digests, record.host_digest, commit_id)
        self._keep(new, change.state)

    def _forget(self, game_id: str, cached: tuple[GameRecord, Any]) -> None:
        if self.cache.get(game_id) is cached:
            del self.cache[game_id]

    def _keep(self, record: GameRecord, state: Any) -> None:
        cached = self.cache.get(record.game_id)
        if cached is not None and cached[0].version > record.version:
            return  # never replace a newer copy (a read may finish after a commit)
        self.cache[record.game_id] = (record, state)
        self.cache.move_to_end(record.game_id)
        while len(self.cache) > self.limits.cached_games:
            self.cache.popitem(last=False)

    async def _after_commit(self, record: GameRecord, change: _Change, now: int,
                            campaign_id: str = "") -> None:
        """Secondary bookkeeping (rebuildable, never part of the commit): indexes, expiry,
        deadlines, bots. `campaign_id`: the campaign whose game this commit ended."""
        if change.status != record.status:
            await self.store.index(record.game_id, record.variant, record.status, change.status)
            if change.status in FINAL:
                await self.store.retire(record.game_id, record.variant,
                                        now + self._retention(record))
        if campaign_id:
            await self.store.schedule_campaign(campaign_id, now + self.limits.campaign_idle_ms)
        if clocks.timed(change.meta) or record.status != change.status:
            await self.store.schedule(record.game_id, change.meta.deadline_ms)
        if change.status == ACTIVE and any(change.meta.bot_seats):
            seats = get_ruleset(record.variant).decision(change.state).seats
            if seats and change.meta.bot_seats[seats[0]]:
                self._start_bots(record.game_id)

    async def _lifecycle_commit(
        self, game_id: str, build: Callable[[GameRecord], _Change | None]
    ) -> GameRecord | None:
        """Commit a service-made change, re-reading and rebuilding it after a lost race.
        `build` returns None when the change no longer applies."""
        for _ in range(INTERNAL_RETRIES):
            record = await self._load(game_id)
            change = build(record)
            if change is None:
                return None
            result, _items, _reply = await self._commit(change, actor=None)
            if result.outcome is CommitOutcome.OK:
                return await self.store.load(game_id)
            if result.outcome is CommitOutcome.MISSING:
                raise not_found(game_id)
        raise ServiceError(Code.UNAVAILABLE, "STORE_UNAVAILABLE",
                           "the game changes too fast to commit this; retry")

    def _start_change(self, record: GameRecord, events: list[Event], steps: list[str]
                      ) -> _Change:
        """A change to WAITING/ACTIVE bookkeeping that starts the game when it may. `steps`
        name it in the log (a join that takes the last seat logs "join,start")."""
        meta = self._meta(record)
        status = record.status
        if status == WAITING and all(record.seat_digests) and not meta.manual_start:
            status = ACTIVE
            events.append(GameStarted())
            steps = [*steps, "start"]
        return _Change(record, self._state(record), meta, status, events,
                       _lifecycle_entry(",".join(steps)))

    # ---- creating and joining ----------------------------------------------------------

    async def create(
        self, request: service_pb2.CreateGameRequest, token: str | None = None
    ) -> service_pb2.CreateGameResponse:
        require_creator(self.limits.creator_digests, token)
        try:
            variant, options = wire.options_from_proto(request.options)
        except wire.VariantNotServed as exc:
            raise ServiceError(Code.UNIMPLEMENTED, "VARIANT_NOT_AVAILABLE", str(exc)) from None
        host_token = self.new_token()
        seat_tokens: list[str] = []

        def seats(players: int) -> tuple[bytes, ...]:
            if request.issue_seat_tokens:
                seat_tokens.extend(self.new_token() for _ in range(players))
            return tuple(digest(t) for t in seat_tokens) or (b"",) * players

        now = self.clock_ms()
        record, state = await self.open_game(
            variant, options, request.seed if request.HasField("seed") else None,
            game_id=f"{now:012x}{secrets.token_hex(5)}", names=request.seat_names,
            seat_digests=seats, host_digest=digest(host_token), clock=request.clock,
            delay_events=request.spectator_delay_events,
            delay_seconds=request.spectator_delay_seconds, manual_start=request.manual_start,
        )
        return service_pb2.CreateGameResponse(
            game=self._summary(record, state), host_token=host_token, seat_tokens=seat_tokens,
        )

    async def open_game(
        self, variant: str, options: Any, seed: int | None, *, game_id: str,
        names: Sequence[str], seat_digests: Callable[[int], tuple[bytes, ...]],
        host_digest: bytes, clock: lifecycle_pb2.ClockOptions, delay_events: int = 0,
        delay_seconds: int = 0, manual_start: bool = False,
    ) -> tuple[GameRecord, Any]:
        """Create and store a game; it starts at once when every seat already has a token
        (and manual_start is off). Returns the stored record and the engine state."""
        rules = REGISTRY[variant]
        seed = self.new_seed() if seed is None else seed
        # options the creator left to the game's clock (classic's auto-defend) are decided here
        options = rules.settle_options(
            options, timed=bool(clock.decision_seconds or clock.bank_seconds))
        try:
            state, events = rules.create(options, seed)
        except IllegalAction as exc:
            raise malformed(f"options: {exc.message}") from None
        players = rules.seat_count(state)
        names = list(names)
        if len(names) > players or any(len(n) > MAX_NAME for n in names):
            raise malformed(f"at most {players} seat names of at most {MAX_NAME} characters")
        if min(clock.decision_seconds, clock.bank_seconds, clock.increment_seconds) < 0:
            raise malformed("clock seconds must not be negative")
        try:
            policy = TimeoutPolicy(clock.on_timeout or TimeoutPolicy.DEFAULT_ACTION)
        except ValueError:
            raise malformed(f"unknown timeout policy {clock.on_timeout}") from None
        clock = lifecycle_pb2.ClockOptions(
            decision_seconds=clock.decision_seconds, bank_seconds=clock.bank_seconds,
            increment_seconds=clock.increment_seconds,
            on_timeout=policy.value,  # type: ignore[arg-type]
        )
        meta = clocks.new_meta(clock, players, delay_events=delay_events,
                               delay_seconds=delay_seconds, manual_start=manual_start)
        now = self.clock_ms()
        digests = seat_digests(players)
        record = GameRecord(
            game_id=game_id,
            variant=variant,
            status=WAITING,
            version=0,
            last_seq=len(events),
            created_ms=now,
            updated_ms=now,
            players=players,
            snapshot=wire.encode_state(variant, state),
            meta=meta.SerializeToString(deterministic=True),
            names=tuple(names + [""] * (players - len(names))),
            seat_digests=digests,
            host_digest=host_digest,
            commit_id=self.new_commit_id(),
        )
        await self.store.create(
            record,
            [wire.encode_event(variant, e, seq, 0, now)
             for seq, e in enumerate(events, start=1)],
        )
        if all(digests) and not manual_start:
            record = await self._lifecycle_commit(
                game_id, lambda r: self._start_change(r, [], []) if r.status == WAITING else None
            ) or record
        return record, self._state(record)

    async def join(self, request: service_pb2.JoinGameRequest) -> service_pb2.JoinGameResponse:
        """Take a seat: its token digest and name are written by the commit of its
        `seat_joined` event (which starts the game when it takes the last seat), so a seat is
        never taken without its event. With a request id the reply is stored with the commit,
        and a retry of a join whose reply was lost gets the same token."""
        if request.request_id and not _REQUEST_ID.match(request.request_id):
            raise malformed("request_id must be 1 to 128 printable ASCII characters, no spaces")
        record = await self._load(request.game_id)
        seat, name = request.seat, request.display_name
        if not 0 <= seat < record.players:
            raise malformed(f"seat must be 0..{record.players - 1}, got {seat}")
        if len(name) > MAX_NAME:
            raise malformed(f"display_name is longer than {MAX_NAME} characters")
        fingerprint = hashlib.sha256(f"join\0{seat}\0{name}".encode()).digest()
        # request ids of joins are scoped to the game (the caller has no seat yet)
        request_field = f"join:{request.request_id}" if request.request_id else ""
        prior = await self.store.request_record(record.game_id, request_field)
        if prior is not None:
            return self._joined(record, prior, fingerprint, request.request_id)
        reply = service_pb2.JoinGameResponse(seat=seat, seat_token=self.new_token())
        stored = fingerprint + reply.SerializeToString(deterministic=True)
        token_digest = digest(reply.seat_token)
        for _ in range(INTERNAL_RETRIES):
            if record.status in FINAL:
                self._require_status(record, WAITING)
            if record.seat_digests[seat]:
                raise ServiceError(Code.FAILED_PRECONDITION, "SEAT_TAKEN", f"seat {seat} is taken")
            seated = dataclasses.replace(
                record,
                seat_digests=tuple(token_digest if s == seat else d
                                   for s, d in enumerate(record.seat_digests)),
                names=tuple(name if s == seat else n for s, n in enumerate(record.names)),
            )
            change = self._start_change(seated, [SeatJoined(seat, name)], ["join"])
            change.fields = ((f"tok:{seat}", token_digest), (f"name:{seat}", name.encode()))
            change.claim = f"tok:{seat}"
            result, _items, _reply = await self._commit(
                change, actor=None, request_field=request_field, reply=lambda _items: stored)
            if result.outcome is CommitOutcome.OK:
                return reply
            if result.outcome is CommitOutcome.DUPLICATE:  # a retry racing its first attempt
                return self._joined(record, result.prior, fingerprint, request.request_id)
            if result.outcome is CommitOutcome.MISSING:
                raise not_found(record.game_id)
            record = await self._load(record.game_id)  # STALE or TAKEN: look again
        raise ServiceError(Code.UNAVAILABLE, "STORE_UNAVAILABLE",
                           "the game changes too fast to join now; retry")

    def _joined(self, record: GameRecord, prior: bytes, fingerprint: bytes, request_id: str
                ) -> service_pb2.JoinGameResponse:
        """The stored reply of a join retried with its request id."""
        reply = service_pb2.JoinGameResponse.FromString(
            self._replay(prior, fingerprint, request_id, "a join of another seat or name"))
        held = record.seat_digests[reply.seat]  # b"" when read before the first attempt landed
        if held and not hmac.compare_digest(held, digest(reply.seat_token)):
            raise ServiceError(
                Code.FAILED_PRECONDITION, "SEAT_TOKEN_REISSUED",
                f"the token this join got was replaced by the host (ReissueSeatToken); "
                f"seat {reply.seat} has a newer one")
        return reply

    async def start(
        self, request: service_pb2.StartGameRequest, token: str | None
    ) -> service_pb2.StartGameResponse:
        record = await self._load(request.game_id)
        self._require_host(self._identify(record, token), token)
        self._require_status(record, WAITING)
        if not all(record.seat_digests):
            free = [s for s, d in enumerate(record.seat_digests) if not d]
            raise ServiceError(Code.FAILED_PRECONDITION, "SEATS_NOT_FILLED",
                               f"seats {free} are not taken yet")

        def build(r: GameRecord) -> _Change | None:
            if r.status != WAITING:
                return None
            return _Change(r, self._state(r), self._meta(r), ACTIVE, [GameStarted()],
                           _lifecycle_entry("start"))

        record = await self._lifecycle_commit(record.game_id, build) or await self._load(
            record.game_id)
        return service_pb2.StartGameResponse(game=self._summary(record, self._state(record)))

    async def cancel(
        self, request: service_pb2.CancelGameRequest, token: str | None
    ) -> service_pb2.CancelGameResponse:
        record = await self._load(request.game_id)
        self._require_host(self._identify(record, token), token)
        self._require_status(record, WAITING)

        def build(r: GameRecord) -> _Change | None:
            self._require_status(r, WAITING)
            return _Change(r, self._state(r), self._meta(r), CANCELLED, [GameCancelled()],
                           _lifecycle_entry("cancel"))

        record = await self._lifecycle_commit(record.game_id, build) or record
        return service_pb2.CancelGameResponse(game=self._summary(record, self._state(record)))

    async def reissue(
        self, request: service_pb2.ReissueSeatTokenRequest, token: str | None
    ) -> service_pb2.ReissueSeatTokenResponse:
        record = await self._load(request.game_id)
        self._require_host(self._identify(record, token), token)
        if not 0 <= request.seat < record.players:
            raise malformed(f"seat must be 0..{record.players - 1}, got {request.seat}")
        if record.status in FINAL:
            self._require_status(record, WAITING, ACTIVE)
        if not record.seat_digests[request.seat]:
            raise ServiceError(Code.FAILED_PRECONDITION, "SEAT_NOT_TAKEN",
                               f"seat {request.seat} has no token yet; use JoinGame")
        new_token = self.new_token()
        replace = ((f"tok:{request.seat}", digest(new_token)),)
        reissued = SeatTokenReissued(request.seat)
        # the new digest lands in the same commit as its event, so no action can slip in
        # between under the old token at the version the reissue is based on
        done = await self._lifecycle_commit(
            record.game_id,
            lambda r: _Change(r, self._state(r), self._meta(r), r.status, [reissued],
                              _lifecycle_entry("reissue"), fields=replace)
            if r.status not in FINAL else None,
        )
        if done is None:
            self._require_status(await self._load(record.game_id), WAITING, ACTIVE)
        return service_pb2.ReissueSeatTokenResponse(seat=request.seat, seat_token=new_token)

    # ---- reading -----------------------------------------------------------------------

    async def get(
        self, request: service_pb2.GetGameRequest, token: str | None
    ) -> service_pb2.GetGameResponse:
        record, state = await self._fresh(request.game_id)
        caller = self._identify(record, token)
        meta = self._meta(record)
        reply = service_pb2.GetGameResponse(
            game=self._summary(record, state, meta, seat=caller.seat),
            viewer_seat=-1 if caller.seat is None else caller.seat,
        )
        delayed = meta.spectator_delay_events or meta.spectator_delay_seconds
        if caller.seat is not None or not delayed or record.status in FINAL:
            view = get_ruleset(record.variant).view(state, caller.seat)
            reply.board.CopyFrom(wire.view_to_proto(record.variant, view))
        return reply

    async def list(self, request: service_pb2.ListGamesRequest) -> service_pb2.ListGamesResponse:
        if request.page_size < 0:
            raise malformed("page_size must not be negative")
        size = min(request.page_size or DEFAULT_PAGE, self.limits.max_page_size)
        variant = "*" if request.variant == 0 else wire.variant_name(request.variant)
        if request.status not in service_pb2.GameStatus.values():
            raise malformed(f"unknown status {request.status}")
        cursor = request.page_token
        if cursor and not _GAME_ID.match(cursor):
            raise malformed("page_token is not one this service issued")
        ids = await self.store.page(variant, request.status, cursor, size + 1)
        games: list[service_pb2.GameSummary] = []
        # A page is read and summarised a slice at a time, letting other calls run between
        # slices, and ends early (with a page token) once it has taken limits.list_budget_s:
        # one call neither holds the event loop for a whole page nor costs more than that.
        budget = time.perf_counter() + self.limits.list_budget_s
        shown = min(size, len(ids))
        for start in range(0, shown, LIST_SLICE):
            if start:
                if time.perf_counter() > budget:
                    shown = start
                    break
                await asyncio.sleep(0)
            records = await self.store.load_many(ids[start:min(shown, start + LIST_SLICE)])
            games.extend(self._summary(r, self._state(r)) for r in records)
        return service_pb2.ListGamesResponse(
            games=games, next_page_token=ids[shown - 1] if shown < len(ids) else ""
        )

    async def legal_actions(
        self, request: service_pb2.ListLegalActionsRequest, token: str | None
    ) -> service_pb2.ListLegalActionsResponse:
        record = await self._load(request.game_id)
        caller = self._identify(record, token)
        seat = self._acting_seat(
            caller, token, request.seat if request.HasField("seat") else None
        )
        state = self._state(record)
        rules = get_ruleset(record.variant)
        active = record.status == ACTIVE
        return service_pb2.ListLegalActionsResponse(
            version=record.version,
            seat=seat,
            decision=wire.decision_to_proto(rules.decision(state)) if active else None,
            actions=[wire.legal_to_proto(record.variant, a)
                     for a in rules.legal_actions(state, seat)] if active else [],
        )

    # ---- acting ------------------------------------------------------------------------

    async def submit(self, request: service_pb2.SubmitActionRequest, token: str | None) -> bytes:
        """The serialised SubmitActionResponse: the bytes stored with the request id are the
        bytes sent, so a reply is serialised once (and a replayed one not at all)."""
        if request.request_id and not _REQUEST_ID.match(request.request_id):
            raise malformed("request_id must be 1 to 128 printable ASCII characters, no spaces")
        variant, action = wire.action_from_proto(request.action)
        # the decoded action re-encoded: two encodings of one action share a fingerprint, and
        # the log keeps this form, so unknown fields a client sends are never stored
        canonical_action = wire.action_to_proto(variant, action)
        canonical = canonical_action.SerializeToString(deterministic=True)
        fingerprint = hashlib.sha256(canonical).digest()
        try:
            return await self._submit(request, token, variant=variant, action=action,
                                      canonical_action=canonical_action,
                                      fingerprint=fingerprint)
        except _Diverged:
            # the state this process had cached at the expected version was lost by Redis
            # and the game reached that version again through other commits: the commit was
            # refused and the cache dropped, so this try decides on the stored state
            pass
        try:
            return await self._submit(request, token, variant=variant, action=action,
                                      canonical_action=canonical_action,
                                      fingerprint=fingerprint)
        except _Diverged:
            raise _stale(request.expected_version, request.expected_version) from None

    async def _submit(self, request: service_pb2.SubmitActionRequest, token: str | None, *,
                      variant: str, action: Any, canonical_action: game_pb2.Action,
                      fingerprint: bytes) -> bytes:
        requested = request.seat if request.HasField("seat") else None
        game_id, expected = request.game_id, request.expected_version
        record, state = await self._submit_view(game_id, expected)
        caller = self._identify(record, token)
        seat = self._acting_seat(caller, token, requested)
        # request ids are scoped to the seat; the commit script answers a duplicate with the
        # stored reply, so a prior record only needs a separate read when the version moved on
        request_field = f"{seat}:{request.request_id}" if request.request_id else ""
        if variant != record.variant:
            raise ServiceError(
                Code.INVALID_ARGUMENT, Reason.WRONG_VARIANT,
                f"this is a {record.variant} game; the action is for {variant}",
            )
        if record.version != request.expected_version:
            return await self._answer_stale(record, request_field, fingerprint,
                                            request.request_id, request.expected_version)
        rules = get_ruleset(variant)
        try:
            self._require_status(record, ACTIVE)
            new_state, events = rules.apply(
                state if state is not None else self._state(record), seat, action)
        except (IllegalAction, ServiceError):
            # a retry sent at the version the client re-read: the move it repeats is usually
            # no longer legal there (the turn moved on, or that move ended the game), but the
            # reply stored under its request id still answers it
            prior = await self.store.request_record(record.game_id, request_field)
            if prior is not None:
                return self._replay(prior, fingerprint, request.request_id)
            raise
        change = _Change(record, new_state, self._meta(record), record.status, list(events),
                         game_pb2.LogEntry(seat=seat, action=canonical_action))
        # no await since the check above: this is the game's only commit in this process
        done = self.committing[game_id] = asyncio.get_running_loop().create_future()
        try:
            return await self._commit_reply(change, seat, request_field, fingerprint,
                                            request_id=request.request_id,
                                            expected_version=expected)
        finally:
            del self.committing[game_id]
            done.set_result(None)

    async def _submit_view(self, game_id: str, expected: int) -> tuple[GameRecord, Any]:
        """The game as a SubmitAction at `expected` sees it: (record, decoded state or None).

        The cached copy when it is at `expected` (the commit's check of version and commit id
        catches a newer state in Redis, or another state at that version) or past it while
        Redis still holds it (one small read: the submit is stale, answered with the cached
        version as the current one); otherwise a read. While
        this process commits to the game, waits for that commit to land first; on return, no
        commit to the game is in flight here unless the submit is stale anyway."""
        while True:
            while (busy := self.committing.get(game_id)) is not None:
                await asyncio.shield(busy)
            cached = self.cache.get(game_id)
            if cached is not None and cached[0].version == expected:
                return cached
            if cached is not None and cached[0].version > expected:
                # stale, if Redis still holds the cached state; after Redis lost writes (a
                # restore, a failover) that version may exist no more: then read it
                if await self.store.state_id(game_id) == _state_id(cached[0]):
                    return cached[0], None
                self._forget(game_id, cached)
                continue
            record = await self._load(game_id)
            if record.version != expected or game_id not in self.committing:
                return record, None
            # a commit began while this one read the game: wait for it and look again

    async def resign(
        self, request: service_pb2.ResignRequest, token: str | None
    ) -> service_pb2.ResignResponse:
        if request.request_id and not _REQUEST_ID.match(request.request_id):
            raise malformed("request_id must be 1 to 128 printable ASCII characters, no spaces")
        record = await self._load(request.game_id)
        caller = self._identify(record, token)
        seat = self._acting_seat(caller, token, request.seat if request.HasField("seat")
                                 else None)
        fingerprint = hashlib.sha256(b"resign").digest()
        request_field = f"{seat}:{request.request_id}" if request.request_id else ""
        prior = await self.store.request_record(record.game_id, request_field)
        if prior is not None:
            reply = self._replay(prior, fingerprint, request.request_id)
        else:
            for _ in range(INTERNAL_RETRIES):
                self._require_status(record, ACTIVE)
                new_state, events = get_ruleset(record.variant).resign(self._state(record), seat)
                change = _Change(record, new_state, self._meta(record), record.status,
                                 list(events), game_pb2.LogEntry(seat=seat, resign=True))
                try:
                    reply = await self._commit_reply(
                        change, seat, request_field, fingerprint,
                        request_id=request.request_id, expected_version=record.version)
                    break
                except _Diverged:
                    record = await self._load(record.game_id)
                except ServiceError as exc:
                    if exc.reason != "STALE_VERSION":
                        raise
                    record = await self._load(record.game_id)
            else:
                raise ServiceError(Code.UNAVAILABLE, "STORE_UNAVAILABLE",
                                   "the game changes too fast to resign now; retry")
        record = await self._load(record.game_id)
        submitted = service_pb2.SubmitActionResponse.FromString(reply)
        return service_pb2.ResignResponse(
            version=submitted.version, events=submitted.events,
            game=self._summary(record, self._state(record), seat=seat),
        )

    async def _commit_reply(
        self, change: _Change, seat: int, request_field: str, fingerprint: bytes, *,
        request_id: str, expected_version: int,
    ) -> bytes:
        """Commit a seat's own change and build (and store) the reply that seat gets; returns
        it serialised."""
        rules = get_ruleset(change.record.variant)
        reply_message = service_pb2.SubmitActionResponse()

        def build_reply(items: list[tuple[int, int, Event, int]]) -> bytes:
            reply_message.version = change.record.version + 1
            reply_message.events.extend(self._events_for(change.record.variant, items, seat))
            if change.status == ACTIVE:
                reply_message.decision.CopyFrom(
                    wire.decision_to_proto(rules.decision(change.state)))
            outcome = wire.outcome_to_proto(rules.outcome(change.state))
            if outcome is not None:
                reply_message.outcome.CopyFrom(outcome)
            return fingerprint + reply_message.SerializeToString(deterministic=True)

        result, _items, stored = await self._commit(
            change, actor=seat, request_field=request_field, reply=build_reply)
        if result.outcome is CommitOutcome.STALE:
            if result.version == expected_version:
                raise _Diverged
            raise _stale(result.version, expected_version)
        if result.outcome is CommitOutcome.DUPLICATE:
            return self._replay(result.prior, fingerprint, request_id)
        if result.outcome is CommitOutcome.MISSING:
            raise not_found(change.record.game_id)
        return stored[FINGERPRINT:]

    async def _answer_stale(
        self, record: GameRecord, request_field: str, fingerprint: bytes, request_id: str,
        expected_version: int,
    ) -> bytes:
        prior = await self.store.request_record(record.game_id, request_field)
        if prior is not None:
            return self._replay(prior, fingerprint, request_id)
        self.on_conflict()  # lost the race before its commit (seen stale here, not by Redis)
        raise _stale(record.version, expected_version)

    @staticmethod
    def _replay(prior: bytes, fingerprint: bytes, request_id: str,
                other: str = "a different action") -> bytes:
        """The reply stored with a request id (a serialised SubmitActionResponse, or for a
        join a JoinGameResponse), if it was stored for this very request."""
        if not hmac.compare_digest(prior[:FINGERPRINT], fingerprint):
            raise ServiceError(
                Code.INVALID_ARGUMENT, "REQUEST_ID_REUSED",
                f"request_id {request_id!r} was already used for {other}",
            )
        return prior[FINGERPRINT:]

    # ---- clocks, bots, abandonment (driven by the sweeper) ------------------------------

    async def enforce_deadline(self, game_id: str) -> bool:
        """Apply the timeout policy if the game's pending deadline has passed. Exactly once:
        the commit only lands on the version whose deadline it was. True if applied."""
        record = await self.store.load(game_id)
        if record is None or record.status != ACTIVE:
            await self.store.schedule(game_id, 0)
            return False
        meta = self._meta(record)
        now = self.clock_ms()
        if not meta.deadline_ms or meta.deadline_ms > now:
            await self.store.schedule(game_id, meta.deadline_ms)  # resync the index
            return False
        seat = meta.clock_seat
        if meta.bot_seats[seat]:  # the bot took over; make sure one is playing
            self._start_bots(game_id)
            return False
        rules = get_ruleset(record.variant)
        state = self._state(record)
        policy = TimeoutPolicy(meta.clock.on_timeout or TimeoutPolicy.DEFAULT_ACTION)
        events: list[Event] = [DecisionTimedOut(seat, policy)]
        entry = game_pb2.LogEntry(seat=seat, timed_out=True)
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
        change = _Change(record, state, meta, record.status, events, entry)
        result, _items, _ = await self._commit(change, actor=seat)
        if result.outcome is CommitOutcome.OK:
            log.info("timeout_applied", game_id=game_id, seat=seat, policy=policy.name,
                     version=record.version + 1)
            return True
        return False

    def _start_bots(self, game_id: str) -> None:
        running = self.bot_runs.get(game_id)
        if running is None or running.done():
            self.bot_runs[game_id] = asyncio.create_task(self._play_bots(game_id),
                                                         name=f"bots:{game_id}")

    async def _play_bots(self, game_id: str) -> None:
        """Take every decision that belongs to a bot seat, until a human must act."""
        if not await self.store.lease(game_id, self.process_id, 10_000):
            return
        try:
            while True:
                record = await self.store.load(game_id)
                if record is None or record.status != ACTIVE:
                    return
                meta = self._meta(record)
                rules = get_ruleset(record.variant)
                state = self._state(record)
                seats = rules.decision(state).seats
                if not seats or not meta.bot_seats[seats[0]]:
                    return
                seat = seats[0]
                action = rules.bot_action(state, seat, secrets.randbits(64))
                new_state, events = rules.apply(state, seat, action)
                entry = game_pb2.LogEntry(
                    seat=seat, by_bot=True, action=wire.action_to_proto(record.variant, action))
                await self._commit(_Change(record, new_state, meta, record.status,
                                           list(events), entry), actor=seat)
                await asyncio.sleep(0)
        except Exception:  # a bot run must never take the process down
            log.exception("bot_run_failed", game_id=game_id)
        finally:
            await self.store.release(game_id, self.process_id)

    def _retention(self, record: GameRecord) -> int:
        """How long a game ending now is kept: a game that ends before it started (cancelled
        or abandoned while waiting) has no play worth keeping for long."""
        if record.status == WAITING:
            return min(self.limits.unstarted_retention_ms, self.limits.retention_ms)
        return self.limits.retention_ms

    def idle_cutoff(self, status: int) -> int:
        """The last update time (ms) at which a game of `status` counts as idle now."""
        limit = self.limits.abandon_after_ms
        if status == WAITING:
            limit = min(limit, self.limits.unstarted_expire_ms)
        return self.clock_ms() - limit

    async def abandon_if_idle(self, game_id: str) -> bool:
        """Mark a waiting or active game abandoned when nobody acted for too long (a game
        still waiting for players sooner: `unstarted_expire_ms`)."""

        def build(r: GameRecord) -> _Change | None:
            if r.status not in (WAITING, ACTIVE) or r.updated_ms > self.idle_cutoff(r.status):
                return None
            return _Change(r, self._state(r), self._meta(r), ABANDONED, [GameAbandoned()],
                           _lifecycle_entry("abandon"))

        return await self._lifecycle_commit(game_id, build) is not None

    # ---- audit -------------------------------------------------------------------------

    async def export(
        self, request: service_pb2.ExportGameRequest, token: str | None
    ) -> service_pb2.GameExport:
        """One page of the game's export (see GameExport.next_page_token): the log entries of
        a run of versions with their events and chain links, about EXPORT_PAGE_BYTES."""
        record = await self._load(request.game_id)
        # any credential of this game, or an organiser's, may export it; spectators may not
        self._identify(record, token)
        if token is None:
            raise ServiceError(Code.UNAUTHENTICATED, "MISSING_CREDENTIALS",
                               "exports are for the host, the seats and organisers")
        if record.status not in FINAL:
            raise ServiceError(Code.FAILED_PRECONDITION, "GAME_NOT_OVER",
                               "a game is exported once it is over; its seed is secret until then")
        index, after_seq, link = _export_cursor(record.game_id, request.page_token)
        rules = get_ruleset(record.variant)
        page = service_pb2.GameExport(
            game_id=record.game_id,
            variant=wire.variant_enum(record.variant),
            rules_version=rules.rules_version,
            status=record.status,  # type: ignore[arg-type]
            version=record.version,
        )
        if not request.page_token:
            state = self._state(record)
            page.options.CopyFrom(wire.options_to_proto(record.variant, state.options))
            page.seed = state.seed
            page.seat_names.extend(record.names)
            outcome = wire.outcome_to_proto(rules.outcome(state))
            if outcome is not None:
                page.outcome.CopyFrom(outcome)
        events = _ExportEvents(self.store, record.game_id, after_seq)
        size = 0

        def add_events(items: list[game_pb2.Event]) -> None:
            nonlocal size, link
            chain = hash_chain(record.game_id, items, link)
            page.events.extend(items)
            page.chain.extend(chain)
            if chain:
                link = chain[-1]
            size += sum(e.ByteSize() + 40 for e in items)  # an event and its chain link

        if index == 0:
            add_events(await events.through(0))
        more = True
        while size < EXPORT_PAGE_BYTES and len(page.log) < EXPORT_PAGE_ENTRIES:
            stored = await self.store.read_log(
                record.game_id, index, min(EXPORT_READ, EXPORT_PAGE_ENTRIES - len(page.log)))
            if not stored:
                more = False
                break
            for data in stored:
                entry = _canonical_entry(record.variant, game_pb2.LogEntry.FromString(data))
                through = await events.through(entry.version)
                add_events(through)
                page.log.extend(_filled_entries(through, entry.version))
                page.log.append(entry)
                size += entry.ByteSize()
                index += 1
                if size >= EXPORT_PAGE_BYTES:
                    break
        if more and len(page.log) == EXPORT_PAGE_ENTRIES and not await self.store.read_log(
                record.game_id, index, 1):
            more = False  # the log ended exactly at the page's end
        if more:
            page.next_page_token = f"{index}:{events.seq}:{link.hex()}"
        else:
            rest = await events.rest()
            add_events(rest)
            page.log.extend(_filled_entries(rest, record.version + 1))
        return page

    # ---- streaming ---------------------------------------------------------------------

    def _stream_message(self, game_id: str, item: wire.DecodedEvent, viewer: int | None
                        ) -> bytes:
        """One event as a serialised StreamEventsResponse for `viewer` (b"" when hidden).
        Every subscriber with the same view of the event shares one encoding: with a
        thousand spectators an event is redacted and serialised once, not a thousand times."""
        key = (game_id, item.seq, viewer)
        data = self.stream_cache.get(key)
        if data is None:
            triple = (item.seq, item.version, item.event, item.at_ms)
            messages = self._events_for(item.variant, [triple], viewer)
            data = service_pb2.StreamEventsResponse(event=messages[0]).SerializeToString(
                deterministic=True) if messages else b""
            self.stream_cache[key] = data
            while len(self.stream_cache) > STREAM_CACHE:
                self.stream_cache.popitem(last=False)
        return data

    async def stream(
        self, request: service_pb2.StreamEventsRequest, token: str | None
    ) -> AsyncIterator[bytes]:
        record = await self._load(request.game_id)
        caller = self._identify(record, token)
        meta = self._meta(record)
        delay = _Delay(meta) if caller.seat is None and (
            meta.spectator_delay_events or meta.spectator_delay_seconds) else None
        if request.after_seq > record.last_seq:
            raise _rolled_back(record.last_seq, request.after_seq)
        sub = await self.hub.subscribe(record.game_id, self.limits.subscriber_buffer,
                                       record.last_seq)
        sent = read = request.after_seq  # sent to the client; read from the store's backlog
        caught_up = False  # the backlog is read to its end: the subscription takes over
        pending: list[wire.DecodedEvent] = []
        try:
            while True:
                if not caught_up:
                    # registered before this read, so backlog + live covers every event
                    page = await self.store.read_events(record.game_id, read, BACKLOG_PAGE)
                    caught_up = len(page) < BACKLOG_PAGE
                    if page:
                        read = page[-1][0]
                    pending.extend(wire.decode_event(data) for _seq, data in page)
                if delay is not None:
                    release, wait = delay.split(pending, self.clock_ms())
                else:
                    release, wait = pending, None
                for item in release:
                    if item.seq <= sent:
                        continue
                    data = self._stream_message(record.game_id, item, caller.seat)
                    if data:
                        yield data
                    sent = item.seq
                    if (caller.seat is not None and isinstance(item.event, SeatTokenReissued)
                            and item.event.seat == caller.seat):
                        # nothing after the reissue reaches a holder of the replaced token
                        await self._still_seated(record.game_id, caller.seat, token)
                pending = pending[len(release):]
                if not caught_up:
                    continue
                try:
                    if wait is None:
                        batch = await sub.next_batch()
                    else:
                        batch = []
                        with contextlib.suppress(TimeoutError):
                            batch = await asyncio.wait_for(sub.next_batch(), wait)
                except OverflowError:
                    raise ServiceError(
                        Code.RESOURCE_EXHAUSTED, "SUBSCRIBER_TOO_SLOW",
                        f"the stream fell {sub.limit} events behind; resume after seq {sent}",
                        {"last_seq": str(sent)},
                    ) from None
                except FeedRolledBack as exc:
                    raise _rolled_back(exc.last_seq, sent) from None
                floor = pending[-1].seq if pending else sent
                pending.extend(item for item in batch if item.seq > floor)
        finally:
            await self.hub.unsubscribe(sub)

    async def _still_seated(self, game_id: str, seat: int, token: str | None) -> None:
        """Raise CREDENTIALS_REVOKED unless `token` is still `seat`'s token."""
        record = await self.store.load(game_id)
        held = record.seat_digests[seat] if record is not None else b""
        if token is None or not hmac.compare_digest(held or b"\0" * 32, digest(token)):
            raise ServiceError(
                Code.UNAUTHENTICATED, "CREDENTIALS_REVOKED",
                f"the host reissued seat {seat}'s token: this stream's token no longer works",
            )


class _Delay:
    """Holds a spectator's events back: each is released once `events` later ones exist and
    `seconds` have passed since it was committed. The end of the game releases everything."""

    def __init__(self, meta: lifecycle_pb2.GameMeta) -> None:
        self.events = meta.spectator_delay_events
        self.ms = meta.spectator_delay_seconds * 1000
        self.over = False

    def split(self, pending: list[wire.DecodedEvent], now_ms: int
              ) -> tuple[list[wire.DecodedEvent], float | None]:
        """(events to send now, seconds until the next one is due or None to wait for more)."""
        if any(item.event.terminal for item in pending):
            self.over = True
        if self.over:
            return pending, None
        newest = pending[-1].seq if pending else 0
        count = 0
        for item in pending:
            if item.seq + self.events > newest or item.at_ms + self.ms > now_ms:
                break
            count += 1
        release = pending[:count]
        if count < len(pending) and self.ms and pending[count].seq + self.events <= newest:
            return release, max(0.0, (pending[count].at_ms + self.ms - now_ms) / 1000)
        return release, None


class _ExportEvents:
    """A game's stored events read forwards in batches, handed out by version."""

    def __init__(self, store: GameStore, game_id: str, after_seq: int) -> None:
        self.store = store
        self.game_id = game_id
        self.seq = after_seq  # the last event handed out
        self.read = after_seq  # the last event read from the store
        self.buffer: list[game_pb2.Event] = []
        self.done = False

    async def _fill(self) -> None:
        page = await self.store.read_events(self.game_id, self.read, EXPORT_READ)
        self.done = len(page) < EXPORT_READ
        if page:
            self.read = page[-1][0]
        self.buffer.extend(game_pb2.Event.FromString(data) for _seq, data in page)

    async def through(self, version: int) -> list[game_pb2.Event]:
        """The next events whose version is at most `version`."""
        out: list[game_pb2.Event] = []
        while True:
            while self.buffer and self.buffer[0].version <= version:
                out.append(self.buffer.pop(0))
            if self.buffer or self.done:
                break
            await self._fill()
        if out:
            self.seq = out[-1].seq
        return out

    async def rest(self) -> list[game_pb2.Event]:
        return await self.through(2**64 - 1)


def _export_cursor(game_id: str, token: str) -> tuple[int, int, bytes]:
    """(next log index, last seq exported, the chain link after it) from a page token.

    The token carries the chain link so a page is built without rehashing what came before;
    a client that alters it only spoils its own export's chain, which `verify` recomputes."""
    if not token:
        return 0, 0, chain_root(game_id)
    parts = token.split(":")
    try:
        index, seq, link = int(parts[0]), int(parts[1]), bytes.fromhex(parts[2])
    except (ValueError, IndexError):
        raise malformed("page_token is not one this service issued") from None
    if len(parts) != 3 or index < 0 or seq < 0 or len(link) != 32:
        raise malformed("page_token is not one this service issued")
    return index, seq, link


def _canonical_entry(variant: str, entry: game_pb2.LogEntry) -> game_pb2.LogEntry:
    """The entry with its action re-encoded: a log stored before actions were canonicalised
    may hold unknown fields a client sent, which an export does not repeat."""
    if entry.WhichOneof("entry") == "action":
        _variant, action = wire.action_from_proto(entry.action)
        entry.action.CopyFrom(wire.action_to_proto(variant, action))
    return entry


def _lifecycle_entry(steps: str) -> game_pb2.LogEntry:
    """The log entry of a commit the service made without an engine action."""
    return game_pb2.LogEntry(seat=-1, lifecycle=steps)


# what a lifecycle event says a commit without a log entry did (games stored before every
# commit had one): ExportGame fills those versions in from their events
_STEPS = {"seat_joined": "join", "game_started": "start", "seat_token_reissued": "reissue",
          "game_cancelled": "cancel", "game_abandoned": "abandon"}


def _filled_entries(events: list[game_pb2.Event], before: int) -> list[game_pb2.LogEntry]:
    """Entries for the versions (1 <= version < `before`) of `events`, which have none."""
    entries: dict[int, game_pb2.LogEntry] = {}
    for event in events:
        if not 0 < event.version < before:
            continue
        entry = entries.get(event.version)
        if entry is None:
            entry = entries[event.version] = game_pb2.LogEntry(
                version=event.version, at_ms=event.at_ms, seat=-1)
        step = _STEPS.get(event.lifecycle.WhichOneof("kind") or "")
        if step and step not in entry.lifecycle.split(","):
            entry.lifecycle = f"{entry.lifecycle},{step}" if entry.lifecycle else step
    return list(entries.values())


class BrokenCommit(RuntimeError):
    """A change the service built wrongly: a bug, never a client's mistake, so it is not a
    ServiceError (the call ends INTERNAL, logged with its traceback)."""


def _broken_commit(record: GameRecord, what: str) -> BrokenCommit:
    log.error("commit_refused", game_id=record.game_id, version=record.version + 1, why=what)
    return BrokenCommit(f"refused {what} (game {record.game_id}, version {record.version + 1})")


def _state_id(record: GameRecord) -> tuple[int, str]:
    return record.version, record.commit_id


class _Diverged(Exception):
    """The commit found the expected version with another commit id: the state it was
    computed on (cached) was lost by Redis and the game reached that version again."""


def _rolled_back(last_seq: int, seen: int) -> ServiceError:
    """The store lost events up to `seen` (a restore, a lagging replica taking over)."""
    resume = min(last_seq, seen)
    return ServiceError(
        Code.ABORTED, "GAME_ROLLED_BACK",
        f"the game's events after seq {last_seq} were lost by the store (or never existed); "
        f"drop what you have after seq {resume} and resume after it",
        {"last_seq": str(resume)},
    )


def _stale(current: int, expected: int) -> ServiceError:
    return ServiceError(
        Code.ABORTED, "STALE_VERSION",
        f"the game is at version {current}, not {expected}; re-read it and retry",
        {"current_version": str(current)},
    )

