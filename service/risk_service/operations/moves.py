"""A seat's own moves: SubmitAction and Resign, with the replies stored under their request ids.

A move is decided on the game as this process last committed it when the client's expected
version is that one (the process cache), else on a read; the commit's version and commit-id
check refuses it if the game moved on meanwhile. Moves to one game in this process run one at a
time: the others wait for the commit in flight, then answer from the cache, so the ones it made
stale never reach Redis.
"""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_rules import wire
from risk_rules.engine import IllegalAction, Reason, get_ruleset
from risk_service.errors import Code, ServiceError, ServiceReason, not_found
from risk_service.operations import identity, records
from risk_service.operations.cache import Cached
from risk_service.operations.commit import INTERNAL_RETRIES, Change, Committer
from risk_service.operations.identity import Caller
from risk_service.operations.records import ACTIVE
from risk_service.operations.request_ids import FINGERPRINT, check_request_id, replay
from risk_service.operations.views import Numbered, events_for, summary
from risk_service.store.game_store import CommitOutcome, GameRecord


class Submitted:
    """A SubmitAction's answer: the serialised SubmitActionResponse, and the seqs of the
    events in it (a session orders them among the seat's stream)."""

    __slots__ = ("_seqs", "reply")

    def __init__(self, reply: bytes, seqs: list[int] | None = None) -> None:
        self.reply = reply
        self._seqs = seqs  # None: not known without reading the reply (a stored one)

    @property
    def seqs(self) -> list[int]:
        if self._seqs is None:
            self._seqs = [event.seq for event in
                          service_pb2.SubmitActionResponse.FromString(self.reply).events]
        return self._seqs


class _Diverged(Exception):
    """The commit found the expected version with another commit id: the state it was
    computed on (cached) was lost by Redis and the game reached that version again."""


def stale(current: int, expected: int) -> ServiceError:
    return ServiceError(
        Code.ABORTED, ServiceReason.STALE_VERSION,
        f"the game is at version {current}, not {expected}; re-read it and retry",
        {"current_version": str(current)},
    )


class Moves:
    def __init__(self, commits: Committer) -> None:
        self.commits = commits
        self.store = commits.store
        self.cache = commits.cache
        self.limits = commits.limits
        # A SubmitAction committing to a game in this process: the others on that game wait
        # for it, then answer from the cache (the ones it made stale never reach Redis). The
        # future they wait on is made by the first of them (None until then): most commits
        # have nobody waiting.
        self.committing: dict[str, asyncio.Future[None] | None] = {}

    async def submit(self, request: service_pb2.SubmitActionRequest, caller: Caller) -> bytes:
        """The serialised SubmitActionResponse: the bytes stored with the request id are the
        bytes sent, so a reply is serialised once (and a replayed one not at all)."""
        submitted = await self.act(
            request.game_id, request.action, expected=request.expected_version,
            request_id=request.request_id,
            requested=request.seat if request.HasField("seat") else None, caller=caller)
        return submitted.reply

    async def act(self, game_id: str, action_message: game_pb2.Action, *, expected: int,
                  request_id: str, requested: int | None, caller: Caller) -> Submitted:
        """A SubmitAction by its fields (a session's actions carry them without a request
        message of their own): its reply, and the seqs of the events the reply holds."""
        check_request_id(request_id)
        variant, action = wire.action_from_proto(action_message)
        # the decoded action re-encoded: two encodings of one action share a fingerprint, and
        # the log keeps this form, so unknown fields a client sends are never stored
        canonical_action = wire.action_to_proto(variant, action)
        canonical = canonical_action.SerializeToString(deterministic=True)
        fingerprint = hashlib.sha256(canonical).digest()
        for again in (False, True):
            try:
                return await self._submit(game_id, expected, request_id=request_id,
                                          requested=requested, caller=caller, variant=variant,
                                          action=action, canonical_action=canonical_action,
                                          fingerprint=fingerprint)
            except _Diverged:
                # the state this process had cached at the expected version was lost by
                # Redis and the game reached that version again through other commits: the
                # commit was refused and the cache dropped, so the second try decides on the
                # stored state
                if again:
                    raise stale(expected, expected) from None
        raise AssertionError("unreachable: the second try returns or raises")

    async def _submit(self, game_id: str, expected: int, *, request_id: str,
                      requested: int | None, caller: Caller, variant: str, action: Any,
                      canonical_action: game_pb2.Action, fingerprint: bytes) -> Submitted:
        """`act` on the game as cached or read. (Called as it is, not through a
        `functools.partial`: a partial's keywords are merged into a new dict on every call.)"""
        record, state = await self._submit_view(game_id, expected)
        seat = identity.acting_seat(identity.identify(record, caller, self.limits),
                                    caller.token, requested)
        # request ids are scoped to the seat; the commit script answers a duplicate with the
        # stored reply, so a prior record only needs a separate read when the version moved on
        request_field = f"{seat}:{request_id}" if request_id else ""
        if variant != record.variant:
            raise ServiceError(
                Code.INVALID_ARGUMENT, Reason.WRONG_VARIANT,
                f"this is a {record.variant} game; the action is for {variant}",
            )
        if record.version != expected:
            return Submitted(await self._answer_stale(record, request_field, fingerprint,
                                                      request_id, expected))
        rules = get_ruleset(variant)
        try:
            records.require_status(record, ACTIVE)
            new_state, events = rules.apply(
                state if state is not None else records.decode_state(record), seat, action)
        except (IllegalAction, ServiceError):
            # a retry sent at the version the client re-read: the move it repeats is usually
            # no longer legal there (the turn moved on, or that move ended the game), but the
            # reply stored under its request id still answers it
            prior = await self.store.request_record(record.game_id, request_field)
            if prior is not None:
                return Submitted(replay(prior, fingerprint, request_id))
            raise
        change = Change(record, new_state, records.decode_meta(record), record.status,
                        list(events), game_pb2.LogEntry(seat=seat, action=canonical_action))
        # no await since the check above: this is the game's only commit in this process
        self.committing[game_id] = None  # a submit that waits for it makes the future
        try:
            return await self._commit_reply(change, seat, request_field, fingerprint,
                                            request_id=request_id, expected_version=expected)
        finally:
            if (done := self.committing.pop(game_id)) is not None:
                done.set_result(None)

    async def _submit_view(self, game_id: str, expected: int) -> tuple[GameRecord, Any]:
        """The game as a SubmitAction at `expected` sees it: (record, decoded state or None).

        The cached copy when it is at `expected` (the commit's check of version and commit id
        catches a newer state in Redis, or another state at that version) or past it while
        Redis still holds it (one small read: the submit is stale, answered with the cached
        version as the current one); otherwise a read. While this process commits to the
        game, waits for that commit to land first; on return, no commit to the game is in
        flight here unless the submit is stale anyway."""
        while True:
            while game_id in self.committing:
                busy = self.committing[game_id]
                if busy is None:
                    busy = self.committing[game_id] = asyncio.get_running_loop().create_future()
                await asyncio.shield(busy)
            cached: Cached | None = self.cache.get(game_id)
            if cached is not None and cached[0].version == expected:
                return cached
            if cached is not None and cached[0].version > expected:
                # stale, if Redis still holds the cached state; after Redis lost writes (a
                # restore, a failover) that version may exist no more: then read it
                if await self.store.state_id(game_id) == records.state_id(cached[0]):
                    return cached[0], None
                self.cache.forget(game_id, cached)
                continue
            record = await self.commits.load(game_id)
            if record.version != expected or game_id not in self.committing:
                return record, None
            # a commit began while this one read the game: wait for it and look again

    async def resign(
        self, request: service_pb2.ResignRequest, caller: Caller
    ) -> service_pb2.ResignResponse:
        check_request_id(request.request_id)
        record = await self.commits.load(request.game_id)
        seat = identity.acting_seat(identity.identify(record, caller, self.limits),
                                    caller.token,
                                    request.seat if request.HasField("seat") else None)
        fingerprint = hashlib.sha256(b"resign").digest()
        request_field = f"{seat}:{request.request_id}" if request.request_id else ""
        prior = await self.store.request_record(record.game_id, request_field)
        if prior is not None:
            reply = replay(prior, fingerprint, request.request_id)
        else:
            for _ in range(INTERNAL_RETRIES):
                records.require_status(record, ACTIVE)
                new_state, events = get_ruleset(record.variant).resign(
                    records.decode_state(record), seat)
                change = Change(record, new_state, records.decode_meta(record), record.status,
                                list(events), game_pb2.LogEntry(seat=seat, resign=True))
                try:
                    reply = (await self._commit_reply(
                        change, seat, request_field, fingerprint,
                        request_id=request.request_id, expected_version=record.version)).reply
                    break
                except _Diverged:
                    record = await self.commits.load(record.game_id)
                except ServiceError as exc:
                    if exc.reason != ServiceReason.STALE_VERSION:
                        raise
                    record = await self.commits.load(record.game_id)
            else:
                raise ServiceError(Code.UNAVAILABLE, ServiceReason.STORE_UNAVAILABLE,
                                   "the game changes too fast to resign now; retry")
        record = await self.commits.load(record.game_id)
        submitted = service_pb2.SubmitActionResponse.FromString(reply)
        return service_pb2.ResignResponse(
            version=submitted.version, events=submitted.events,
            game=summary(record, records.decode_state(record), seat=seat),
        )

    async def _commit_reply(
        self, change: Change, seat: int, request_field: str, fingerprint: bytes, *,
        request_id: str, expected_version: int,
    ) -> Submitted:
        """Commit a seat's own change and build (and store) the reply that seat gets; returns
        it serialised, with its events' seqs."""
        rules = get_ruleset(change.record.variant)
        reply_message = service_pb2.SubmitActionResponse()
        seqs: list[int] = []

        def build_reply(status: int, items: list[Numbered], envelopes: list[game_pb2.Event]
                        ) -> bytes:
            reply_message.version = change.record.version + 1
            shown = events_for(change.record.variant, items, seat, envelopes)
            seqs.extend([event.seq for event in shown])
            reply_message.events.extend(shown)
            if status == ACTIVE:
                reply_message.decision.CopyFrom(
                    wire.decision_to_proto(rules.decision(change.state)))
            outcome = wire.outcome_to_proto(rules.outcome(change.state))
            if outcome is not None:
                reply_message.outcome.CopyFrom(outcome)
            return fingerprint + reply_message.SerializeToString(deterministic=True)

        result, planned = await self.commits.commit(
            change, actor=seat, request_field=request_field, reply=build_reply)
        if result.outcome is CommitOutcome.STALE:
            if result.version == expected_version:
                raise _Diverged
            raise stale(result.version, expected_version)
        if result.outcome is CommitOutcome.DUPLICATE:
            return Submitted(replay(result.prior, fingerprint, request_id))
        if result.outcome is CommitOutcome.MISSING:
            raise not_found(change.record.game_id)
        return Submitted(planned.reply[FINGERPRINT:], seqs)

    async def _answer_stale(
        self, record: GameRecord, request_field: str, fingerprint: bytes, request_id: str,
        expected_version: int,
    ) -> bytes:
        prior = await self.store.request_record(record.game_id, request_field)
        if prior is not None:
            return replay(prior, fingerprint, request_id)
        self.commits.on_conflict()  # lost the race before its commit (seen stale, not by Redis)
        raise stale(record.version, expected_version)
