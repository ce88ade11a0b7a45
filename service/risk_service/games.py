"""The game service's operations, independent of gRPC: create, join, read, act, stream.

Each operation loads what it needs from the store, authenticates the caller against the game's
token digests, runs the pure engine, and commits atomically. It returns protobuf responses
because a SubmitAction reply is stored verbatim for idempotent retries. Every failure is a
`ServiceError`, an `IllegalAction` or a `WireError`; `server.status` maps them to gRPC codes.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from risk_service import wire
from risk_service.engine import REGISTRY, IllegalAction, Reason, get_ruleset
from risk_service.errors import Code, ServiceError, malformed, not_found
from risk_service.feed import FeedHub
from risk_service.pb.risk.v1 import game_pb2, service_pb2
from risk_service.store.game_store import CommitOutcome, GameRecord, GameStore

_GAME_ID = re.compile(r"^[0-9a-f]{12,64}$")
_REQUEST_ID = re.compile(r"^[\x21-\x7e]{1,128}$")  # printable ASCII without spaces
MAX_NAME = 64
DEFAULT_PAGE = 50
FINGERPRINT = 32  # bytes of SHA-256 in front of a stored reply


def digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


@dataclass(frozen=True, slots=True)
class Caller:
    seat: int | None  # None: a spectator (or the host, who holds no seat)
    host: bool


@dataclass(frozen=True, slots=True)
class Limits:
    subscriber_buffer: int = 1024
    max_page_size: int = 200


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
    ) -> None:
        self.store = store
        self.hub = hub
        self.clock_ms = clock_ms
        self.limits = limits or Limits()
        self.new_token = new_token
        self.new_seed = new_seed

    # ---- helpers -----------------------------------------------------------------------

    async def _load(self, game_id: str) -> GameRecord:
        if not _GAME_ID.match(game_id):
            raise malformed(f"game_id {game_id[:80]!r} is not a game id")
        record = await self.store.load(game_id)
        if record is None:
            raise not_found(game_id)
        return record

    @staticmethod
    def _identify(record: GameRecord, token: str | None) -> Caller:
        if token is None:
            return Caller(None, False)
        presented = digest(token)
        seat = None
        for index, stored in enumerate(record.seat_digests):
            # compare every digest, so timing does not tell which seat (if any) matched
            if hmac.compare_digest(stored or b"\0" * 32, presented):
                seat = index
        host = hmac.compare_digest(record.host_digest or b"\0" * 32, presented)
        if seat is None and not host:
            raise ServiceError(
                Code.UNAUTHENTICATED, "BAD_CREDENTIALS", "the token is not valid for this game"
            )
        return Caller(seat, host)

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
                "the host token holds no seat; join a seat to act",
            )
        if requested is not None and requested != caller.seat:
            raise ServiceError(
                Code.PERMISSION_DENIED, "WRONG_SEAT",
                f"this token acts for seat {caller.seat}, not seat {requested}",
            )
        return caller.seat

    @staticmethod
    def _state(record: GameRecord) -> Any:
        _variant, _rules_version, state = wire.decode_state(record.snapshot)
        return state

    def _summary(self, record: GameRecord, state: Any) -> service_pb2.GameSummary:
        rules = get_ruleset(record.variant)
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
            decision=wire.decision_to_proto(rules.decision(state)),
            created_at_ms=record.created_ms,
            updated_at_ms=record.updated_ms,
        )
        outcome = wire.outcome_to_proto(rules.outcome(state))
        if outcome is not None:
            summary.outcome.CopyFrom(outcome)
        return summary

    @staticmethod
    def _events_for(variant: str, items: list[tuple[int, int, Any]], viewer: int | None
                    ) -> list[game_pb2.Event]:
        out = []
        for seq, version, event in items:
            seen = event.for_viewer(viewer)
            if seen is not None:
                out.append(wire.event_to_proto(variant, seen, seq, version))
        return out

    # ---- operations --------------------------------------------------------------------

    async def create(
        self, request: service_pb2.CreateGameRequest
    ) -> service_pb2.CreateGameResponse:
        try:
            variant, options = wire.options_from_proto(request.options)
        except wire.VariantNotServed as exc:
            raise ServiceError(Code.UNIMPLEMENTED, "VARIANT_NOT_AVAILABLE", str(exc)) from None
        rules = REGISTRY[variant]
        seed = request.seed if request.HasField("seed") else self.new_seed()
        try:
            state, events = rules.create(options, seed)
        except IllegalAction as exc:
            raise malformed(f"options: {exc.message}") from None
        players = rules.seat_count(state)
        names = list(request.seat_names)
        if len(names) > players or any(len(n) > MAX_NAME for n in names):
            raise malformed(f"at most {players} seat names of at most {MAX_NAME} characters")
        now = self.clock_ms()
        game_id = f"{now:012x}{secrets.token_hex(5)}"
        host_token = self.new_token()
        record = GameRecord(
            game_id=game_id,
            variant=variant,
            status=service_pb2.GAME_STATUS_ACTIVE,
            version=0,
            last_seq=len(events),
            created_ms=now,
            updated_ms=now,
            players=players,
            snapshot=wire.encode_state(variant, state),
            names=tuple(names + [""] * (players - len(names))),
            seat_digests=(b"",) * players,
            host_digest=digest(host_token),
        )
        await self.store.create(
            record,
            [wire.encode_event(variant, e, seq, 0) for seq, e in enumerate(events, start=1)],
        )
        return service_pb2.CreateGameResponse(
            game=self._summary(record, state), host_token=host_token
        )

    async def join(self, request: service_pb2.JoinGameRequest) -> service_pb2.JoinGameResponse:
        record = await self._load(request.game_id)
        if not 0 <= request.seat < record.players:
            raise malformed(f"seat must be 0..{record.players - 1}, got {request.seat}")
        if len(request.display_name) > MAX_NAME:
            raise malformed(f"display_name is longer than {MAX_NAME} characters")
        if record.status != service_pb2.GAME_STATUS_ACTIVE:
            raise ServiceError(Code.FAILED_PRECONDITION, Reason.GAME_OVER, "the game is over")
        token = self.new_token()
        if not await self.store.claim_seat(
            record.game_id, request.seat, digest(token), request.display_name
        ):
            raise ServiceError(
                Code.FAILED_PRECONDITION, "SEAT_TAKEN", f"seat {request.seat} is taken"
            )
        return service_pb2.JoinGameResponse(seat=request.seat, seat_token=token)

    async def get(
        self, request: service_pb2.GetGameRequest, token: str | None
    ) -> service_pb2.GetGameResponse:
        record = await self._load(request.game_id)
        caller = self._identify(record, token)
        state = self._state(record)
        rules = get_ruleset(record.variant)
        view = rules.view(state, caller.seat)
        return service_pb2.GetGameResponse(
            game=self._summary(record, state),
            board=wire.view_to_proto(record.variant, view),
            viewer_seat=-1 if caller.seat is None else caller.seat,
        )

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
        records = await self.store.load_many(ids[:size])
        games = [self._summary(r, self._state(r)) for r in records]
        return service_pb2.ListGamesResponse(
            games=games, next_page_token=ids[size - 1] if len(ids) > size else ""
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
        return service_pb2.ListLegalActionsResponse(
            version=record.version,
            seat=seat,
            decision=wire.decision_to_proto(rules.decision(state)),
            actions=[wire.legal_to_proto(record.variant, a)
                     for a in rules.legal_actions(state, seat)],
        )

    async def submit(
        self, request: service_pb2.SubmitActionRequest, token: str | None
    ) -> service_pb2.SubmitActionResponse:
        if request.request_id and not _REQUEST_ID.match(request.request_id):
            raise malformed("request_id must be 1 to 128 printable ASCII characters, no spaces")
        variant, action = wire.action_from_proto(request.action)
        # fingerprint the decoded action re-encoded, so two encodings of one action match
        canonical = wire.action_to_proto(variant, action).SerializeToString(deterministic=True)
        fingerprint = hashlib.sha256(canonical).digest()
        requested = request.seat if request.HasField("seat") else None
        record = await self._load(request.game_id)
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
            prior = await self.store.request_record(record.game_id, request_field)
            if prior is not None:
                return self._replay(prior, fingerprint, request.request_id)
            raise _stale(record.version, request.expected_version)
        rules = get_ruleset(variant)
        state = self._state(record)
        try:
            new_state, events = rules.apply(state, seat, action)
        except IllegalAction:
            # a retry sent at the version the client re-read: the move it repeats is usually
            # no longer legal (the turn moved on), but its stored reply still answers it
            prior = await self.store.request_record(record.game_id, request_field)
            if prior is not None:
                return self._replay(prior, fingerprint, request.request_id)
            raise
        outcome = rules.outcome(new_state)
        status = service_pb2.GAME_STATUS_FINISHED if outcome else record.status
        version = record.version + 1
        items = [(record.last_seq + i, version, e) for i, e in enumerate(events, start=1)]
        reply = service_pb2.SubmitActionResponse(
            version=version,
            events=self._events_for(variant, items, seat),
            decision=wire.decision_to_proto(rules.decision(new_state)),
        )
        outcome_pb = wire.outcome_to_proto(outcome)
        if outcome_pb is not None:
            reply.outcome.CopyFrom(outcome_pb)
        result = await self.store.commit(
            record.game_id,
            expected_version=record.version,
            first_seq=record.last_seq + 1,
            snapshot=wire.encode_state(variant, new_state),
            status=status,
            now_ms=self.clock_ms(),
            events=[wire.encode_event(variant, e, s, v) for s, v, e in items],
            request_field=request_field,
            request_value=fingerprint + reply.SerializeToString(deterministic=True),
        )
        if result.outcome is CommitOutcome.STALE:
            raise _stale(result.version, request.expected_version)
        if result.outcome is CommitOutcome.DUPLICATE:
            return self._replay(result.prior, fingerprint, request.request_id)
        if result.outcome is CommitOutcome.MISSING:
            raise not_found(record.game_id)
        if status != record.status:
            await self.store.index(record.game_id, variant, record.status, status)
        return reply

    @staticmethod
    def _replay(prior: bytes, fingerprint: bytes, request_id: str
                ) -> service_pb2.SubmitActionResponse:
        if not hmac.compare_digest(prior[:FINGERPRINT], fingerprint):
            raise ServiceError(
                Code.INVALID_ARGUMENT, "REQUEST_ID_REUSED",
                f"request_id {request_id!r} was already used for a different action",
            )
        return service_pb2.SubmitActionResponse.FromString(prior[FINGERPRINT:])

    async def stream(
        self, request: service_pb2.StreamEventsRequest, token: str | None
    ) -> AsyncIterator[service_pb2.StreamEventsResponse]:
        record = await self._load(request.game_id)
        caller = self._identify(record, token)
        viewer = caller.seat
        sub = await self.hub.subscribe(record.game_id, self.limits.subscriber_buffer)
        sent = request.after_seq
        try:
            for seq, data in await self.store.read_events(record.game_id, sent):
                variant, _seq, version, event = wire.decode_event(data)
                for message in self._events_for(variant, [(seq, version, event)], viewer):
                    yield service_pb2.StreamEventsResponse(event=message)
                sent = seq
            while True:
                try:
                    batch = await sub.next_batch()
                except OverflowError:
                    raise ServiceError(
                        Code.RESOURCE_EXHAUSTED, "SUBSCRIBER_TOO_SLOW",
                        f"the stream fell {sub.limit} events behind; resume after seq {sent}",
                        {"last_seq": str(sent)},
                    ) from None
                for item in batch:
                    if item.seq <= sent:
                        continue
                    triple = (item.seq, item.version, item.event)
                    for message in self._events_for(item.variant, [triple], viewer):
                        yield service_pb2.StreamEventsResponse(event=message)
                    sent = item.seq
        finally:
            await self.hub.unsubscribe(sub)


def _stale(current: int, expected: int) -> ServiceError:
    return ServiceError(
        Code.ABORTED, "STALE_VERSION",
        f"the game is at version {current}, not {expected}; re-read it and retry",
        {"current_version": str(current)},
    )

