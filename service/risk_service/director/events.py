"""The event calls: CreateEvent, RegisterEvent, WithdrawEvent, StartEvent, GetEvent.

An event is created by an organiser (its credential's digest is kept: only it starts the
event), under a tournament label that its director then owns: the event's rounds are
CreateRound rounds created with a secret token of the event's own (`director_token`, never
sent), so no other credential adds rounds to the label. Players register and withdraw with
their player credential (docs/players.md), until the registration deadline or the start;
after the start a withdrawal keeps the player's results and seats them in no later round.
Every change is a compare-and-set of the event's record (event_store.py), retried on a lost
race. The rounds themselves are the director's (director.py).
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import secrets
from collections.abc import Callable

from risk_proto.risk.v1 import events_pb2
from risk_rules import wire
from risk_rules.engine import REGISTRY, IllegalAction
from risk_service.director import plan
from risk_service.director.event_store import EventStore
from risk_service.director.pairing import (
    MAX_TABLE,
    MIN_TABLE,
    PairingError,
    knockout_sizes,
    layout,
)
from risk_service.errors import Code, ServiceError, ServiceReason, malformed
from risk_service.finishing import to_the_end
from risk_service.operations import identity
from risk_service.operations.commands import MAX_NAME, check_turns
from risk_service.operations.identity import Caller, digest
from risk_service.operations.limits import Limits
from risk_service.operations.results import check_label
from risk_service.ratings.store import RatingStore, current_ratings
from risk_service.store.tournament_store import TournamentStore

MAX_ROUNDS = 16
RACE_RETRIES = 20
_ANONYMOUS = b"-"


def unknown_event(label: str) -> ServiceError:
    return ServiceError(Code.NOT_FOUND, ServiceReason.TOURNAMENT_NOT_FOUND,
                        f"no event {label!r}")


def closed(message: str) -> ServiceError:
    return ServiceError(Code.FAILED_PRECONDITION, ServiceReason.EVENT_CLOSED, message)


class Events:
    def __init__(self, store: EventStore, tournaments: TournamentStore, limits: Limits, *,
                 clock_ms: Callable[[], int], ratings: RatingStore | None = None) -> None:
        self.store = store
        self.ratings = ratings  # for entry conditions by rating (None: none can be checked)
        self.tournaments = tournaments
        self.limits = limits
        self.clock_ms = clock_ms

    # ---- the calls ---------------------------------------------------------------------

    async def create(self, request: events_pb2.CreateEventRequest, caller: Caller
                     ) -> events_pb2.TournamentEvent:
        identity.require_creator(self.limits.creator_digests, caller.token)
        table_size = self._check(request)
        label = request.event
        organiser = caller.digest or _ANONYMOUS
        fingerprint = hashlib.sha256(request.SerializeToString(deterministic=True)).digest()
        record = events_pb2.EventRecord(
            organiser_digest=organiser, director_token=secrets.token_urlsafe(32),
            seed=secrets.randbits(63), request_fingerprint=fingerprint)
        record.event.event = label
        record.event.settings.CopyFrom(request)
        record.event.status = events_pb2.EVENT_STATUS_REGISTRATION
        record.event.created_at_ms = self.clock_ms()
        record.event.table_size = table_size
        created = await self.store.swap(label, 0, record, self.limits.retention_ms)
        loaded = await self.store.load(label)
        if loaded is None:  # expired at once: not under any sane retention
            raise unknown_event(label)
        stored = loaded[1]
        if not created and (stored.request_fingerprint != fingerprint
                            or not hmac.compare_digest(stored.organiser_digest, organiser)):
            raise ServiceError(Code.INVALID_ARGUMENT, ServiceReason.REQUEST_ID_REUSED,
                               f"event {label!r} exists, created by another request")
        # the label's rounds are the director's: its token owns the tournament
        owner = digest(stored.director_token)
        held = await self.tournaments.claim_owner(label, owner, self.limits.retention_ms)
        if not hmac.compare_digest(held, owner):
            if created:
                await self.store.delete(label)
            raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.NOT_TOURNAMENT_OWNER,
                               f"tournament {label!r} has rounds created by another "
                               "credential; an event needs a label of its own")
        return self._shown(stored)

    async def register(self, request: events_pb2.RegisterEventRequest, caller: Caller
                       ) -> events_pb2.TournamentEvent:
        player = self._player(caller, "RegisterEvent")
        name = request.name or player
        if len(name) > MAX_NAME:
            raise malformed(f"name: at most {MAX_NAME} characters")
        await self._check_rating(request.event, player)

        def change(record: events_pb2.EventRecord, now: int) -> bool:
            event = record.event
            for entry in event.players:
                if entry.player_id == player:
                    if event.status != events_pb2.EVENT_STATUS_REGISTRATION:
                        return False  # registered already: the same answer (late or not)
                    if entry.name == name:
                        return False
                    self._open_for_entries(record, now)
                    entry.name = name
                    return True
            self._open_for_entries(record, now)
            entry_rules = event.settings.entry
            if entry_rules.allow and player not in entry_rules.allow:
                raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.NOT_ELIGIBLE,
                                   f"event {event.event!r} takes only the players on its "
                                   "allow-list")
            if entry_rules.cap and len(event.players) >= entry_rules.cap:
                raise ServiceError(Code.RESOURCE_EXHAUSTED, ServiceReason.EVENT_FULL,
                                   f"event {event.event!r} is full ({entry_rules.cap} "
                                   "players)", {"limit": str(entry_rules.cap)})
            event.players.add(player_id=player, name=name)
            return True

        return self._shown(await self._update(request.event, change))

    async def withdraw(self, request: events_pb2.WithdrawEventRequest, caller: Caller
                       ) -> events_pb2.TournamentEvent:
        player = self._player(caller, "WithdrawEvent")

        def change(record: events_pb2.EventRecord, now: int) -> bool:
            event = record.event
            index = next((i for i, p in enumerate(event.players) if p.player_id == player),
                         None)
            if index is None:
                return False
            if event.status == events_pb2.EVENT_STATUS_REGISTRATION:
                self._open_for_entries(record, now)
                del event.players[index]
                return True
            if event.status == events_pb2.EVENT_STATUS_FINISHED:
                raise closed(f"event {event.event!r} is over")
            if event.players[index].withdrawn:
                return False
            event.players[index].withdrawn = True  # ranked still; seated no more
            return True

        return self._shown(await self._update(request.event, change))

    async def start(self, request: events_pb2.StartEventRequest, caller: Caller
                    ) -> events_pb2.TournamentEvent:
        organiser = caller.digest or _ANONYMOUS
        running = False  # the event was found running already

        def change(record: events_pb2.EventRecord, now: int) -> bool:
            nonlocal running
            if not hmac.compare_digest(record.organiser_digest, organiser):
                raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.NOT_TOURNAMENT_OWNER,
                                   "only the credential that created the event starts it")
            event = record.event
            if event.status != events_pb2.EVENT_STATUS_REGISTRATION:
                running = event.status == events_pb2.EVENT_STATUS_RUNNING
                raise closed(f"event {event.event!r} has started already")
            try:
                rules = plan.rules_of(event)
                layout(len(event.players), rules)
                if event.settings.format == events_pb2.EVENT_FORMAT_KNOCKOUT:
                    sizes = knockout_sizes(len(event.players), rules,
                                           event.settings.advance or 1)
                    if sizes[-1] < rules.min_table and rules.fill_bot is None:
                        raise PairingError(
                            f"the knockout would end with a final of {sizes[-1]} "
                            f"(rounds of {', '.join(map(str, sizes))}); fill with bots or "
                            "seat more players")
            except PairingError as exc:
                raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.SEATS_NOT_FILLED,
                                   f"{len(event.players)} players: {exc}") from None
            event.status = events_pb2.EVENT_STATUS_RUNNING
            event.started_at_ms = now
            return True

        async def start_and_list() -> events_pb2.EventRecord:
            try:
                record = await self._update(request.event, change)
            except ServiceError:
                if running:  # a start that stopped before the list (its process died): the
                    await self.store.mark_running(request.event)  # organiser's resend lists it
                raise
            await self.store.mark_running(request.event)  # the directors' list: after the write
            return record

        # the write and the list together, whatever becomes of the call: a running event no
        # director lists would never seat its first round
        return self._shown(await to_the_end(start_and_list(), "start_event"))

    async def get(self, request: events_pb2.GetEventRequest, _caller: Caller
                  ) -> events_pb2.TournamentEvent:
        check_label(request.event)
        loaded = await self.store.load(request.event)
        if loaded is None:
            raise unknown_event(request.event)
        return self._shown(loaded[1])

    # ---- shared ------------------------------------------------------------------------

    async def _update(self, label: str,
                      change: Callable[[events_pb2.EventRecord, int], bool]
                      ) -> events_pb2.EventRecord:
        """Apply `change` to the stored record (it says whether it changed anything) and
        write it back if it did, again on a lost race; the record as stored after."""
        check_label(label)
        for _ in range(RACE_RETRIES):
            loaded = await self.store.load(label)
            if loaded is None:
                raise unknown_event(label)
            version, record = loaded
            if not change(record, self.clock_ms()):
                return record
            if await self.store.swap(label, version, record, self.limits.retention_ms):
                return record
        raise ServiceError(Code.ABORTED, ServiceReason.STALE_VERSION,
                           f"event {label!r} kept changing; try again")

    async def _check_rating(self, label: str, player: str) -> None:
        """Refuse a player whose rating in the event's variant is outside its range."""
        loaded = await self.store.load(label)
        if loaded is None:
            return  # _update says NOT_FOUND
        entry = loaded[1].event.settings.entry
        if not entry.HasField("min_rating") and not entry.HasField("max_rating"):
            return
        if self.ratings is None:
            raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.EVENT_CLOSED,
                               "this service keeps no ratings to check the event's range")
        variant, _options = wire.options_from_proto(loaded[1].event.settings.options)
        rating = (await current_ratings(self.ratings, variant, [player]))[player].display
        low = entry.min_rating if entry.HasField("min_rating") else float("-inf")
        high = entry.max_rating if entry.HasField("max_rating") else float("inf")
        if not low <= rating <= high:
            raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.NOT_ELIGIBLE,
                               f"event {label!r} takes players rated {low:g} to {high:g} in "
                               f"{variant}; yours is {rating:.1f}")

    @staticmethod
    def _open_for_entries(record: events_pb2.EventRecord, now: int) -> None:
        event = record.event
        settings = event.settings
        late = (event.status == events_pb2.EVENT_STATUS_RUNNING and settings.late_entries
                and sum(1 for r in event.rounds if not r.final) < settings.rounds)
        if event.status != events_pb2.EVENT_STATUS_REGISTRATION and not late:
            raise closed(f"event {event.event!r} has started: registration is closed")
        if late:
            return  # the deadline is the start's; late entries run to the last Swiss round
        deadline = event.settings.registration_deadline_ms
        if deadline and now >= deadline:
            raise closed(f"event {event.event!r}: registration closed at its deadline")

    @staticmethod
    def _player(caller: Caller, call: str) -> str:
        if caller.player is None:
            raise ServiceError(Code.UNAUTHENTICATED, ServiceReason.MISSING_CREDENTIALS,
                               f"{call} needs a player token (IssuePlayerToken, "
                               "docs/players.md)")
        return caller.player

    @staticmethod
    def _shown(record: events_pb2.EventRecord) -> events_pb2.TournamentEvent:
        """The event as anyone may see it, with its standings now."""
        shown = events_pb2.TournamentEvent()
        shown.CopyFrom(record.event)
        del shown.standings[:]
        shown.standings.extend(plan.standings_lines(record))
        return shown

    def _check(self, request: events_pb2.CreateEventRequest) -> int:
        """The table size, once the request is known to be well formed."""
        check_label(request.event)
        if request.format not in (events_pb2.EVENT_FORMAT_SWISS,
                                  events_pb2.EVENT_FORMAT_KNOCKOUT):
            raise malformed("format: EVENT_FORMAT_SWISS or EVENT_FORMAT_KNOCKOUT")
        try:
            variant, options = wire.options_from_proto(request.options)
        except wire.VariantNotServed as exc:
            raise ServiceError(Code.UNIMPLEMENTED, ServiceReason.VARIANT_NOT_AVAILABLE,
                               str(exc)) from None
        check_turns(options, self.limits.max_turns)
        rules = REGISTRY[variant]
        try:
            seats = rules.seat_count(rules.create(options, 0)[0])
        except IllegalAction as exc:
            raise malformed(f"options: {exc.message}") from None
        if not MIN_TABLE <= seats <= MAX_TABLE:
            raise malformed(f"the options' players are the table size: {MIN_TABLE} to "
                            f"{MAX_TABLE}, not {seats}")
        if request.format == events_pb2.EVENT_FORMAT_SWISS:
            if not 1 <= request.rounds <= MAX_ROUNDS:
                raise malformed(f"rounds: 1 to {MAX_ROUNDS} for a Swiss event")
        elif not 0 <= request.advance < MIN_TABLE:
            raise malformed(f"advance: 1 to {MIN_TABLE - 1} (0: 1)")
        if request.duplicate and not any(f.name == "duplicate_draws"
                                         for f in dataclasses.fields(options)):
            raise malformed(f"duplicate rounds are not available for {variant} yet")
        if request.late_entries and request.format != events_pb2.EVENT_FORMAT_SWISS:
            raise malformed("late_entries: Swiss events only (a knockout seats whoever is in "
                            "at the start)")
        if request.fill_bot and request.fill_bot not in plan.LEVELS:
            raise malformed(f"fill_bot: unknown bot level {request.fill_bot}")
        if any(b <= a for a, b in zip(request.round_starts_ms, request.round_starts_ms[1:],
                                      strict=False)):
            raise malformed("round_starts_ms: in increasing order")
        if (request.entry.HasField("min_rating") and request.entry.HasField("max_rating")
                and request.entry.min_rating > request.entry.max_rating):
            raise malformed("entry: min_rating above max_rating")
        for player in request.entry.allow:
            if not 0 < len(player) <= 128:
                raise malformed("entry.allow: player ids of 1 to 128 characters")
        return seats
