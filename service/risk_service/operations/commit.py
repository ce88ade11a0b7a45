"""The one way a change to a game is written, and what follows it: plan, write, effects.

A `Change` is built by an operation (a move, a join, a timeout, a cancellation). `plan` turns
it into a `Plan`, purely (no clock, no Redis, the change left as it was): the clocks settled,
the events numbered and encoded, the reply to store with the request id, every key and value
the write sets, and the effects that follow it (effects.py). `write` is the one atomic script
(`GameStore.commit`), which lands only if the stored version and commit id are still those
the change was built on. After a write that landed, `Effects.run` carries out the plan's
effects in order: the process cache, the secondary bookkeeping (indexes, expiry, deadlines),
the tournament facts' copy and the bots, none of them part of the commit. `Committer.commit`
runs the three steps; service-made changes go through `lifecycle_commit`, which rebuilds
them after a lost race.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import structlog

from risk_proto.risk.v1 import game_pb2, lifecycle_pb2
from risk_rules import variants, wire
from risk_rules.engine import Event, Ruleset, get_ruleset
from risk_rules.lifecycle import GameStarted
from risk_service import clocks, finishing
from risk_service.errors import Code, ServiceError, ServiceReason, not_found
from risk_service.operations import player_facts, records
from risk_service.operations.cache import Cached, GameCache
from risk_service.operations.effects import (
    ApplyRatings,
    CacheState,
    CopyFacts,
    CopyPlayerFacts,
    Effect,
    Effects,
    IndexGame,
    IndexPlayers,
    Notify,
    ScheduleCampaign,
    ScheduleDeadline,
    SetExpiry,
    StartBots,
    lone_cache,
)
from risk_service.operations.limits import Limits
from risk_service.operations.notices import commit_notices, outbox_field, pack
from risk_service.operations.records import ACTIVE, FINAL, FINISHED, WAITING
from risk_service.operations.tournament_facts import commit_facts, fact_fields
from risk_service.operations.views import Numbered
from risk_service.ratings import record as rated_record
from risk_service.store.game_store import CommitOutcome, CommitResult, GameRecord, GameStore

log = structlog.get_logger("games")

INTERNAL_RETRIES = 50  # service-made commits (joins, timeouts) retry a lost race this often
# a write whose caller was cancelled is looked for this often, this far apart, before it is
# taken as never landed (it was sent before the cancel: it lands within milliseconds or not)
LANDED_CHECKS = 20
LANDED_WAIT_S = 0.05
# the campaign record's field of its last activity (ms): a game started or finished, a decision
CAMPAIGN_ACTIVE = "active"

# the reply stored with a commit's request id, built from the status the commit leaves the
# game in, its numbered events and their envelopes as stored (views.events_for)
Reply = Callable[[int, list[Numbered], list[game_pb2.Event]], bytes]


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




class Plan(NamedTuple):
    """A change made ready to write: every value the atomic script sets (the arguments of
    `GameStore.commit`), the reply it stores with the request id, and the effects that follow
    a write that landed, in the order they are carried out. Immutable; a named tuple rather
    than a frozen dataclass because one is made per move, and a frozen dataclass of this many
    fields costs microseconds to build (bench/RESULTS.md, "The commit in three steps")."""

    game_id: str
    expected_version: int
    expected_commit_id: str
    commit_id: str
    version: int
    first_seq: int
    now_ms: int
    status: int
    snapshot: bytes  # b"": the state is the last snapshot's plus the log (a `dec` field added)
    events: list[bytes]  # the serialised envelopes, from `first_seq` on
    meta: bytes
    log_entry: bytes
    request_field: str
    reply: bytes
    retention_ms: int
    fields: tuple[tuple[str, bytes], ...]
    claim: str
    campaign_id: str  # "" unless the commit records the game's result in its campaign
    campaign_fields: Sequence[tuple[str, bytes]]
    items: list[Numbered]  # the events as numbered: (seq, version, event, at_ms)
    effects: tuple[Effect, ...]


def settled_status(change: Change, rules: Ruleset[Any, Any, Any] | None = None) -> int:
    """The status `change` leaves the game in: an active game whose state has an outcome is
    finished. (`rules`: the game's, when the caller has them.)"""
    if change.status != ACTIVE:
        return change.status
    if rules is None:
        rules = get_ruleset(change.record.variant)
    return FINISHED if rules.outcome(change.state) is not None else ACTIVE


def finished_campaign(change: Change, tag: Callable[[str], str]) -> str:
    """The campaign whose record the commit of `change` writes (a campaign game it finishes),
    or "". Only a game the campaign opened counts (its id carries the campaign's hash tag,
    `tag`, so the two share a slot and one commit): options naming a campaign in a
    CreateGame cannot write into someone's campaign."""
    hooks = variants.descriptor(change.record.variant).campaign
    if hooks is None or settled_status(change) != FINISHED:
        return ""
    campaign_id = hooks.campaign_of(change.state)
    return campaign_id if campaign_id == tag(change.record.game_id) else ""


def plan(
    change: Change,
    *,
    actor: int | None,
    now_ms: int,
    commit_id: str,
    limits: Limits,
    request_field: str = "",
    reply: Reply | None = None,
    campaign_id: str = "",
    campaign: Mapping[bytes, bytes] | None = None,
    notify: bool = False,
) -> Plan:
    """The commit of `change` at `now_ms` as `commit_id`: clocks settled (`actor` made the
    decision, None for the service), events numbered, the reply built, what to write and
    what follows. Pure: it reads no clock and no store, and leaves `change` as it was.
    `campaign`: the record of `finished_campaign(change)` as stored, when that is not "".
    `notify`: webhooks are configured; the commit records its notices (operations/notices.py)
    in the game's hash, and a `Notify` effect queues them."""
    record = change.record
    rules = get_ruleset(record.variant)
    status = settled_status(change, rules)
    meta = lifecycle_pb2.GameMeta()
    meta.CopyFrom(change.meta)
    events = list(change.events)
    decision = None
    entry_in = change.entry
    if (actor is not None and entry_in is not None and not entry_in.timed_out
            and not entry_in.by_bot):
        clocks.played(meta, actor)  # a correspondence seat's run of missed turns ends
    timed = clocks.timed(meta)  # the clock's settings: this commit changes none of them
    if status == ACTIVE:
        decision = rules.decision(change.state)
        if timed:
            seats = decision.seats
            turn = rules.turn_seat(change.state) if clocks.correspondence(meta) else -1
            started = clocks.advance(meta, actor, seats[0] if seats else None, now_ms, turn)
            if started is not None:
                events.append(started)
    else:
        clocks.stop(meta)
    if not events:  # a client following the stream would never see this version
        raise _broken_commit(record, "a commit without an event")
    version = record.version + 1
    items = [(record.last_seq + i, version, e, now_ms) for i, e in enumerate(events, start=1)]
    # each event's envelope is made once: stored as it is, and sent as it is to a caller
    # who may see it whole (the reply)
    envelopes = [wire.event_to_proto(record.variant, e, s, v, at) for s, v, e, at in items]
    reply_bytes = reply(status, items, envelopes) if reply is not None else b""
    if change.entry is None:  # every version has its log entry (ExportGame, verify)
        raise _broken_commit(record, "a commit without a log entry")
    log_entry = game_pb2.LogEntry()
    log_entry.CopyFrom(change.entry)
    log_entry.version = version
    log_entry.at_ms = now_ms
    entry = log_entry.SerializeToString(deterministic=True)
    final = status in FINAL
    fields = change.fields
    # a tournament game's facts (started, timed out, resigned, finished) are written with
    # the change that makes them true, so no crash can lose one (tournament_facts.py)
    facts = commit_facts(record, meta, status=status, state=change.state, events=events,
                         entry=log_entry, version=version, now_ms=now_ms) \
        if meta.tournament else []  # (a game outside tournaments makes none)
    if facts:
        fields = (*fields, *fact_fields(meta, facts))
    # webhook notices, likewise written with the change that makes them true
    notices = commit_notices(record, meta, status=status, state=change.state, events=events,
                             entry=log_entry, names=_names(record, fields), version=version,
                             now_ms=now_ms) if notify else []
    if notices:
        fields = (*fields, (outbox_field(version), pack(notices)))
    # the players' facts (their streams, "your turn"), likewise; a change may bring its own
    # (an invitation's acceptance), and every one is copied after the write
    told = player_facts.commit_facts(record, meta, rules=rules, status=status,
                                     state=change.state, names=_names(record, fields),
                                     version=version, now_ms=now_ms) if meta.seat_players else []
    if told:
        fields = (*fields, (player_facts.field(player_facts.commit_key(version)),
                            player_facts.pack(told)))
    # a rated game's result, likewise written by the commit that finishes it, and applied to
    # its seats' ratings after the write, once (risk_service/ratings)
    rated = rated_record.commit_record(
        game_id=record.game_id, variant=record.variant, meta=meta, old_status=record.status,
        status=status, outcome=rules.outcome(change.state), seats=record.players,
        season=limits.rating_season, now_ms=now_ms,
    ) if meta.rated and status == FINISHED else None
    if rated is not None:
        fields = (*fields, (rated_record.FIELD, rated_record.pack(rated)))
    hooks = variants.descriptor(record.variant).campaign
    # (with the time of the campaign's last activity: its expiry is counted from it)
    campaign_fields = ([*hooks.record_game(campaign, change.state),
                        (CAMPAIGN_ACTIVE, str(now_ms).encode())]
                       if campaign and campaign_id and hooks is not None else [])
    if _snapshot_due(record, log_entry, status, version, limits.snapshot_every):
        snapshot = wire.encode_state(record.variant, change.state)
    else:  # the state is the snapshot's plus the log; a list shows this decision
        snapshot = b""
        fields = (*fields, ("dec", wire.decision_to_proto(
            decision if decision is not None else rules.decision(change.state)
        ).SerializeToString(deterministic=True)))
    meta_bytes = meta.SerializeToString(deterministic=True)
    committed = _committed(record, snapshot, entry, meta_bytes, status=status, fields=fields,
                           now=now_ms, events=len(items), commit_id=commit_id)
    effects: list[Effect] = [CacheState(committed, change.state)]
    if status != record.status:
        effects.append(IndexGame(record.game_id, record.variant, record.status, status))
        if final:
            effects.append(SetExpiry(record.game_id, record.variant,
                                     now_ms + limits.retention(record.status)))
    if campaign_fields:
        effects.append(ScheduleCampaign(campaign_id, now_ms + limits.campaign_idle_ms))
    if timed or record.status != status:
        effects.append(ScheduleDeadline(record.game_id, meta.deadline_ms))
    if meta.tournament and meta.facts != records.decode_meta(record).facts:
        effects.append(CopyFacts(record.game_id, meta.tournament))
    if decision is not None and any(meta.bot_seats):
        seats = decision.seats
        if seats and meta.bot_seats[seats[0]]:
            effects.append(StartBots(record.game_id))
    if notices:
        effects.append(Notify(record.game_id, version))
    if meta.seat_players or meta.host_player:
        prefix = player_facts.FIELD_PREFIX
        told_keys = tuple(name[len(prefix):] for name, _value in fields
                          if name.startswith(prefix))
        if told_keys:
            effects.append(CopyPlayerFacts(record.game_id, told_keys))
        effects.append(IndexPlayers(record.game_id, tuple(player_facts.players_of(meta)),
                                    now_ms))
    if rated is not None:
        effects.append(ApplyRatings(record.game_id))
    # positional, in the order of Plan's fields (keywords cost microseconds per move)
    return Plan(
        record.game_id,  # game_id
        record.version,  # expected_version
        record.commit_id,  # expected_commit_id
        commit_id,
        version,
        record.last_seq + 1,  # first_seq
        now_ms,
        status,
        snapshot,
        [envelope.SerializeToString(deterministic=True) for envelope in envelopes],  # events
        meta_bytes,  # meta
        entry,  # log_entry
        request_field,
        reply_bytes,  # reply
        # every commit pushes the game's expiry on: the retention once it is over, else
        # its idle limit and retention (a game no process sweeps still goes in time)
        limits.retention(record.status) if final else limits.live_ttl(status),  # retention_ms
        fields,
        change.claim,  # claim
        campaign_id if campaign_fields else "",  # campaign_id
        campaign_fields,
        items,
        tuple(effects),
    )


def write(store: GameStore, plan: Plan) -> Awaitable[CommitResult]:
    """The plan's one atomic commit: everything or nothing, only on the version and commit id
    the plan was made from. (The store's own coroutine, returned: no await of its own, which
    every move would resume through.)"""
    return store.commit(
        plan.game_id,
        expected_version=plan.expected_version,
        first_seq=plan.first_seq,
        snapshot=plan.snapshot,
        status=plan.status,
        now_ms=plan.now_ms,
        events=plan.events,
        meta=plan.meta,
        log_entry=plan.log_entry,
        request_field=plan.request_field,
        request_value=plan.reply,
        retention_ms=plan.retention_ms,
        fields=plan.fields,
        campaign_id=plan.campaign_id,
        campaign_fields=plan.campaign_fields,
        claim=plan.claim,
        expected_commit_id=plan.expected_commit_id,
        commit_id=plan.commit_id,
    )


def _snapshot_due(record: GameRecord, entry: game_pb2.LogEntry, status: int, version: int,
                  snapshot_every: int) -> bool:
    """Whether the commit of `record`'s next `version` (to `status`, logged as `entry`)
    writes the whole state. Otherwise the state is its snapshot's plus the log entries after
    it, replayed by a cold load, and that must stay cheap and able to stand alone: so a
    snapshot is written every `snapshot_every` versions, for a step the rules do not replay
    (joins, the start, a cancel, an abandonment: the log holds no engine action for it), on
    a change of status (a final state is what export, replay and campaigns read, and a
    status change is rare), and for a game stored before snapshots were spaced out (it
    names no log index where its successors start)."""
    return (record.snapshot_version is None
            or version - record.snapshot_version >= snapshot_every
            or status != record.status
            or entry.WhichOneof("entry") not in ("action", "resign"))


class Committer:
    """Reads games for the operations (through the process cache) and writes their changes:
    plan, write, effects."""

    def __init__(
        self, store: GameStore, cache: GameCache, *, clock_ms: Callable[[], int],
        limits: Limits, new_commit_id: Callable[[], str], on_conflict: Callable[[], None],
        effects: Effects,
    ) -> None:
        self.store = store
        self.cache = cache
        self.clock_ms = clock_ms
        self.limits = limits
        self.new_commit_id = new_commit_id
        self.on_conflict = on_conflict  # a commit lost the version race (metrics)
        self.effects = effects  # carries out what follows a commit that landed

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
    ) -> tuple[CommitResult, Plan]:
        """Plan the change, write it in one atomic commit, and if it landed carry out its
        effects. Returns the write's result and the plan (its reply: the bytes stored with
        the request id, if any)."""
        now = self.clock_ms()
        # the one read a plan needs: the record of a campaign whose game this change ends
        campaign_id = finished_campaign(change, self.store.keys.tag)
        campaign = await self.store.load_campaign(campaign_id) if campaign_id else None
        planned = plan(change, actor=actor, now_ms=now, commit_id=self.new_commit_id(),
                       limits=self.limits, request_field=request_field, reply=reply,
                       campaign_id=campaign_id, campaign=campaign,
                       notify=self.effects.notifier is not None)
        effects = planned.effects
        cached = lone_cache(effects)
        if cached is not None:  # nothing follows the write but the process's cache
            result = await write(self.store, planned)
            if result.outcome is CommitOutcome.OK:
                self.effects.cache_state(cached)
            else:
                self._lost(change, result)
            return result, planned
        await self.effects.before_write(effects)
        landed: bool | None = None  # unknown until the write answers
        try:
            written = await write(self.store, planned)
            landed = written.outcome is CommitOutcome.OK
            if landed:
                await self.effects.run(effects)
        except asyncio.CancelledError:
            # the call was cancelled (its client went, its deadline passed). The store sends a
            # write whose caller was cancelled, so it may land all the same, and what follows
            # it (a deadline, a bot's turn, an index) is owed still: carried out apart, once
            # the write is known to have landed (every effect may run twice without harm)
            if landed is not False:
                finishing.start(self._effects_if_last(planned), "commit_effects")
            raise
        if not landed:
            self._lost(change, written)
        return written, planned

    async def _effects_if_last(self, planned: Plan) -> None:
        """Carry out the effects of a write whose caller was cancelled, if it landed and is
        still the game's last: the game's state is the one it wrote. A write still on its way
        (the game is not yet at its version) is waited for, a little: it was sent before the
        call was cancelled. A later commit (a bot's, another caller's) carries effects of its
        own, which ours must not follow and undo (an older deadline, a list left, an older
        activity time); what it does not redo, the sweepers repair (operations/effects.py)."""
        for _ in range(LANDED_CHECKS):
            stored = await self.store.state_id(planned.game_id)
            if stored is None or stored[0] >= planned.version:
                if stored == (planned.version, planned.commit_id):
                    await self.effects.run(planned.effects)
                return
            await asyncio.sleep(LANDED_WAIT_S)

    def _lost(self, change: Change, result: CommitResult) -> None:
        self.cache.forget_up_to(change.record.game_id, change.record.version)
        if result.outcome is CommitOutcome.STALE:
            self.on_conflict()

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
            result, _plan = await self.commit(change, actor=None)
            if result.outcome is CommitOutcome.OK:
                return await self.store.load(game_id)
            if result.outcome is CommitOutcome.MISSING:
                raise not_found(game_id)
        raise ServiceError(Code.UNAVAILABLE, ServiceReason.STORE_UNAVAILABLE,
                           "the game changes too fast to commit this; retry")


def _names(record: GameRecord, fields: tuple[tuple[str, bytes], ...]) -> tuple[str, ...]:
    """The seats' names as a commit writing `fields` leaves them (a join names its seat)."""
    if not fields:
        return record.names
    replaced = dict(fields)
    return tuple(replaced[f"name:{seat}"].decode() if f"name:{seat}" in replaced else name
                 for seat, name in enumerate(record.names))


def _committed(record: GameRecord, snapshot: bytes, entry: bytes, meta: bytes, *, status: int,
               fields: tuple[tuple[str, bytes], ...], now: int, events: int,
               commit_id: str) -> GameRecord:
    """The record a landed commit of `record`'s next version leaves in Redis, for the process
    cache: with the new snapshot (`snapshot`), or with the old one and `entry` added to its
    tail; `fields`, the game-hash fields it writes."""
    digests, names = record.seat_digests, record.names
    if fields:  # a joined or reissued seat: keep the cache's seats in step
        replaced = dict(fields)
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
    return GameRecord(record.game_id, record.variant, status, version,
                      record.last_seq + events, record.created_ms, now, record.players,
                      base, meta, names, digests, record.host_digest, commit_id,
                      base_version, tail)
