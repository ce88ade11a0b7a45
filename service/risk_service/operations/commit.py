"""The one way a change to a game is written, and what follows it.

A `Change` is built by an operation (a move, a join, a timeout, a cancellation); `Committer.commit`
settles the clocks, numbers the events and writes the new state, its events, its log entry and
the request's reply in one atomic Redis commit, only if the stored version and commit id are
still those the change was built on. After a commit that landed come the process cache and the
secondary bookkeeping (indexes, expiry, deadlines, bots), which can be rebuilt and are never
part of the commit. Service-made changes go through `lifecycle_commit`, which rebuilds them
after a lost race.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import structlog

from risk_proto.risk.v1 import game_pb2, lifecycle_pb2
from risk_rules import variants, wire
from risk_rules.engine import Event, get_ruleset
from risk_rules.lifecycle import GameStarted
from risk_service import clocks
from risk_service.errors import Code, ServiceError, ServiceReason, not_found
from risk_service.operations import records
from risk_service.operations.cache import Cached, GameCache
from risk_service.operations.limits import Limits
from risk_service.operations.records import ACTIVE, FINAL, FINISHED, WAITING
from risk_service.operations.tournament_facts import commit_facts, fact_fields
from risk_service.operations.views import Numbered
from risk_service.store.game_store import CommitOutcome, CommitResult, GameRecord, GameStore

log = structlog.get_logger("games")

INTERNAL_RETRIES = 50  # service-made commits (joins, timeouts) retry a lost race this often

# the reply stored with a commit's request id, built from its numbered events and their
# envelopes as stored (views.events_for)
Reply = Callable[[list[Numbered], list[game_pb2.Event]], bytes]


@dataclass
class Change:
    """One commit being prepared: what it writes and what it tells the caller."""

    record: GameRecord
    state: Any
    meta: lifecycle_pb2.GameMeta
    status: int
    events: list[Event] = field(default_factory=list)
    entry: game_pb2.LogEntry | None = None
    fields: tuple[tuple[str, bytes], ...] = ()  # extra game-hash fields, written atomically
    claim: str = ""  # a game-hash field that must not exist yet (the seat a join takes)


class BrokenCommit(RuntimeError):
    """A change the service built wrongly: a bug, never a client's mistake, so it is not a
    ServiceError (the call ends INTERNAL, logged with its traceback)."""


def _broken_commit(record: GameRecord, what: str) -> BrokenCommit:
    log.error("commit_refused", game_id=record.game_id, version=record.version + 1, why=what)
    return BrokenCommit(f"refused {what} (game {record.game_id}, version {record.version + 1})")


def lifecycle_entry(steps: str) -> game_pb2.LogEntry:
    """The log entry of a commit the service made without an engine action."""
    return game_pb2.LogEntry(seat=-1, lifecycle=steps)


def lifecycle_change(record: GameRecord, status: int, event: Event, steps: str,
                     fields: tuple[tuple[str, bytes], ...] = ()) -> Change:
    """A service-made change of `record` to `status` with one lifecycle event and no move."""
    return Change(record, records.decode_state(record), records.decode_meta(record), status,
                  [event], lifecycle_entry(steps), fields=fields)


def start_change(record: GameRecord, events: list[Event], steps: list[str]) -> Change:
    """A change to WAITING/ACTIVE bookkeeping that starts the game when it may. `steps` name
    it in the log (a join that takes the last seat logs "join,start")."""
    meta = records.decode_meta(record)
    status = record.status
    if status == WAITING and all(record.seat_digests) and not meta.manual_start:
        status = ACTIVE
        events.append(GameStarted())
        steps = [*steps, "start"]
    return Change(record, records.decode_state(record), meta, status, events,
                  lifecycle_entry(",".join(steps)))


class Committer:
    """Reads games for the operations (through the process cache) and writes their changes."""

    def __init__(
        self, store: GameStore, cache: GameCache, *, clock_ms: Callable[[], int],
        limits: Limits, new_commit_id: Callable[[], str], on_conflict: Callable[[], None],
        on_bot_turn: Callable[[str], None],
        on_facts: Callable[[str, str], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        self.cache = cache
        self.clock_ms = clock_ms
        self.limits = limits
        self.new_commit_id = new_commit_id
        self.on_conflict = on_conflict  # a commit lost the version race (metrics)
        self.on_bot_turn = on_bot_turn  # a commit left a bot seat to decide (game id)
        # a commit recorded tournament facts (game id, label): copy them to the results feed
        self.on_facts = on_facts

    async def load(self, game_id: str) -> GameRecord:
        return await records.load(self.store, game_id)

    async def fresh(self, game_id: str) -> Cached:
        """The game as stored now, with its decoded state. The cached copy serves when Redis
        still holds its state — its version and the id of the commit that wrote it (one small
        read instead of the whole game and a decode); every write to a game, seats taken
        included, is a commit of a new version."""
        cached = self.cache.get(game_id)
        if cached is not None:
            if await self.store.state_id(game_id) == records.state_id(cached[0]):
                return cached
            self.cache.forget(game_id, cached)  # moved on, or Redis lost the cached state
        record = await self.load(game_id)
        state = records.decode_state(record)
        self.cache.keep(record, state)
        return record, state

    async def commit(
        self,
        change: Change,
        *,
        actor: int | None,
        request_field: str = "",
        reply: Reply | None = None,
    ) -> tuple[CommitResult, list[Numbered], bytes]:
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
        # each event's envelope is made once: stored as it is, and sent as it is to a caller
        # who may see it whole (the reply)
        envelopes = [wire.event_to_proto(record.variant, e, s, v, at) for s, v, e, at in items]
        reply_bytes = reply(items, envelopes) if reply is not None else b""
        if change.entry is None:  # every version has its log entry (ExportGame, verify)
            raise _broken_commit(record, "a commit without a log entry")
        change.entry.version = version
        change.entry.at_ms = now
        entry = change.entry.SerializeToString(deterministic=True)
        final = change.status in FINAL
        # a tournament game's facts (started, timed out, resigned, finished) are written with
        # the change that makes them true, so no crash can lose one (tournament_facts.py)
        facts = commit_facts(record, change.meta, status=change.status, state=change.state,
                             events=change.events, entry=change.entry, version=version,
                             now_ms=now)
        if facts:
            change.fields = (*change.fields, *fact_fields(change.meta, facts))
        campaign_id, campaign_fields = "", []
        hooks = variants.descriptor(record.variant).campaign
        if change.status == FINISHED and hooks is not None:  # a game that may have a campaign
            campaign_id = hooks.campaign_of(change.state)
            # Only a game the campaign opened counts (its id carries the campaign's hash tag, so
            # the two share a slot and one commit): options naming a campaign in a CreateGame
            # cannot write into someone's campaign.
            if campaign_id != self.store.keys.tag(record.game_id):
                campaign_id = ""
            raw = await self.store.load_campaign(campaign_id) if campaign_id else {}
            if raw:
                campaign_fields = hooks.record_game(raw, change.state)
        if self._snapshot_due(change, version):
            snapshot = wire.encode_state(record.variant, change.state)
        else:  # the state is the snapshot's plus the log; a list shows this decision
            snapshot = b""
            change.fields = (*change.fields, ("dec", wire.decision_to_proto(
                rules.decision(change.state)).SerializeToString(deterministic=True)))
        meta = change.meta.SerializeToString(deterministic=True)
        commit_id = self.new_commit_id()
        result = await self.store.commit(
            record.game_id,
            expected_version=record.version,
            first_seq=record.last_seq + 1,
            snapshot=snapshot,
            status=change.status,
            now_ms=now,
            events=[envelope.SerializeToString(deterministic=True) for envelope in envelopes],
            meta=meta,
            log_entry=entry,
            request_field=request_field,
            request_value=reply_bytes,
            # every commit pushes the game's expiry on: the retention once it is over, else
            # its idle limit and retention (a game no process sweeps still goes in time)
            retention_ms=(self.limits.retention(record.status) if final
                          else self.limits.live_ttl(change.status)),
            fields=change.fields,
            campaign_id=campaign_id,
            campaign_fields=campaign_fields,
            claim=change.claim,
            expected_commit_id=record.commit_id,
            commit_id=commit_id,
        )
        if result.outcome is CommitOutcome.OK:
            self.cache.keep(_committed(change, snapshot, entry, meta, now=now,
                                       events=len(items), commit_id=commit_id), change.state)
            await self._after_commit(record, change, now, campaign_id if campaign_fields else "")
        else:
            self.cache.forget_up_to(record.game_id, record.version)
            if result.outcome is CommitOutcome.STALE:
                self.on_conflict()
        return result, items, reply_bytes

    def _snapshot_due(self, change: Change, version: int) -> bool:
        """Whether the commit of `change` as `version` writes the whole state. Otherwise
        the state is its snapshot's plus the log entries after it, replayed by a cold load,
        and that must stay cheap and able to stand alone: so a snapshot is written every
        `snapshot_every` versions, for a step the rules do not replay (joins, the start, a
        cancel, an abandonment: the log holds no engine action for it), on a change of
        status (a final state is what export, replay and campaigns read, and a status
        change is rare), and for a game stored before snapshots were spaced out (it names
        no log index where its successors start)."""
        record, entry = change.record, change.entry
        return (record.snapshot_version is None
                or version - record.snapshot_version >= self.limits.snapshot_every
                or change.status != record.status
                or entry is None or entry.WhichOneof("entry") not in ("action", "resign"))

    async def _after_commit(self, record: GameRecord, change: Change, now: int,
                            campaign_id: str = "") -> None:
        """Secondary bookkeeping (rebuildable, never part of the commit): indexes, expiry,
        deadlines, bots. `campaign_id`: the campaign whose game this commit ended."""
        if change.status != record.status:
            await self.store.index(record.game_id, record.variant, record.status, change.status)
            if change.status in FINAL:
                await self.store.retire(record.game_id, record.variant,
                                        now + self.limits.retention(record.status))
        if campaign_id:
            await self.store.schedule_campaign(campaign_id, now + self.limits.campaign_idle_ms)
        if clocks.timed(change.meta) or record.status != change.status:
            await self.store.schedule(record.game_id, change.meta.deadline_ms)
        if change.meta.tournament and self.on_facts is not None and \
                change.meta.facts != records.decode_meta(record).facts:
            await self.on_facts(record.game_id, change.meta.tournament)
        if change.status == ACTIVE and any(change.meta.bot_seats):
            seats = get_ruleset(record.variant).decision(change.state).seats
            if seats and change.meta.bot_seats[seats[0]]:
                self.on_bot_turn(record.game_id)

    async def lifecycle_commit(
        self, game_id: str, build: Callable[[GameRecord], Change | None]
    ) -> GameRecord | None:
        """Commit a service-made change, re-reading and rebuilding it after a lost race.
        `build` returns None when the change no longer applies."""
        for _ in range(INTERNAL_RETRIES):
            record = await self.load(game_id)
            change = build(record)
            if change is None:
                return None
            result, _items, _reply = await self.commit(change, actor=None)
            if result.outcome is CommitOutcome.OK:
                return await self.store.load(game_id)
            if result.outcome is CommitOutcome.MISSING:
                raise not_found(game_id)
        raise ServiceError(Code.UNAVAILABLE, ServiceReason.STORE_UNAVAILABLE,
                           "the game changes too fast to commit this; retry")


def _committed(change: Change, snapshot: bytes, entry: bytes, meta: bytes, *, now: int,
               events: int, commit_id: str) -> GameRecord:
    """The record a landed commit of `change` left in Redis, for the process cache: with
    the new snapshot (`snapshot`), or with the old one and `entry` added to its tail."""
    record = change.record
    digests, names = record.seat_digests, record.names
    if change.fields:  # a joined or reissued seat: keep the cache's seats in step
        replaced = dict(change.fields)
        digests = tuple(replaced.get(f"tok:{seat}", d) for seat, d in enumerate(digests))
        names = tuple(replaced[f"name:{seat}"].decode() if f"name:{seat}" in replaced
                      else n for seat, n in enumerate(names))
    version = record.version + 1
    base_version: int | None
    tail: tuple[bytes, ...]
    if snapshot:
        base, base_version, tail = snapshot, version, ()
    else:
        base, base_version, tail = record.snapshot, record.snapshot_version, (*record.tail, entry)
    return GameRecord(record.game_id, record.variant, change.status, version,
                      record.last_seq + events, record.created_ms, now, record.players,
                      base, meta, names, digests, record.host_digest, commit_id,
                      base_version, tail)
