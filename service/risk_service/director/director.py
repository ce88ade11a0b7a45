"""The tournament director: every service process runs one, and for each running event the
one holding the event's lease seats its rounds, collects their results and ends it.

A pass over an event (`step`) does one thing, each safe to repeat after a crash at any point:

1. The last round is planned but not seated: create its games with CreateRound under the
   request id `event-round-N`, then record their ids. The round's plan, stored by CreateRound
   under that request id on the tournament's slot in one HSETNX before any game exists, is
   the round-seated marker: a director that died after it, or before recording the games, is
   followed by another that sends the very same request (the tables are read from the record,
   not paired again) and gets the same games back; none is created twice.
2. The last round is seated: read the tournament's results feed; once every game of the round
   has its `finished` (or `abandoned`, `cancelled`) fact, record the rankings and the round
   over.
3. No round is open: plan the next one (plan.next_round, pure, from the record) and record it
   (once its scheduled start, if any, has come), or record the event finished with its
   standings.

Every record write is a compare-and-set on the record's version, and the lease (renewed each
pass, lapsing after `lease_ms`) keeps two live processes from working one event at once; a
process killed mid-pass leaves the event to whichever takes the lease next.

What the record says is published in the tournament's results feed (`publish`): for each round
a `round_seated` fact once it is seated and a `standings` fact once it is over, then the final
`standings` once the event is; fact n of that list is copied by the feed's own script only when
n - 1 are there (under the pseudo game `~event`), so a pass repeated after a crash adds none
twice, and every pass first publishes what the record already says.

While no event runs, the passes are spaced out: the pause doubles up to pacing.IDLE_PAUSE_MAX_S (or
`interval_ms` when that is longer), so an idle process reads the running list every few seconds
rather than every second; an event started through this process wakes its director at once
(EventStore.started), and that process takes the event's lease.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import structlog

from risk_proto.risk.v1 import events_pb2, ratings_pb2, tournament_pb2
from risk_rules import wire
from risk_service.director import plan
from risk_service.director.event_store import EventStore
from risk_service.director.pairing import PairingError
from risk_service.operations.limits import Limits
from risk_service.operations.rounds import Rounds
from risk_service.pacing import pause
from risk_service.ratings import record as rated_record
from risk_service.ratings.service import Ratings
from risk_service.ratings.store import BOT_PREFIX
from risk_service.store.tournament_store import TournamentStore
from risk_service.store.unreachable import store_unavailable

log = structlog.get_logger("director")
EVENT_FACTS = "~event"  # the feed's count of an event's own facts (no game id has a "~")
Fact = tournament_pb2.TournamentFact
FEED_PAGE = 1000
OVER = ("finished", "abandoned", "cancelled")


@dataclass(frozen=True, slots=True)
class DirectorSettings:
    interval_ms: int = 1000
    lease_ms: int = 10_000


class Director:
    def __init__(self, store: EventStore, tournaments: TournamentStore, rounds: Rounds,
                 limits: Limits, *, clock_ms: Callable[[], int], process_id: str,
                 settings: DirectorSettings | None = None,
                 ratings: Ratings | None = None) -> None:
        self.store = store
        self.tournaments = tournaments
        self.rounds = rounds
        self.limits = limits
        self.clock_ms = clock_ms
        self.process_id = process_id
        self.settings = settings or DirectorSettings()
        self.ratings = ratings  # a rated event's games are rated at its end
        self.running = 0  # how many events the last pass found running

    async def run(self) -> None:
        """A pass over the running events every `interval_ms` until cancelled; a Redis outage
        waits for the next pass. While none runs, the passes are spaced out (docstring)."""
        idle = 0  # passes in a row that found no running event
        while True:
            try:
                await self.pass_once()
                idle = 0 if self.running else idle + 1
            except Exception as exc:
                if not store_unavailable(exc):
                    raise
                log.warning("director_deferred", error=str(exc))
            await self._pause(idle)

    async def _pause(self, idle: int) -> None:
        await pause(self.settings.interval_ms / 1000, idle, self.store.started)

    async def pass_once(self) -> int:
        """One step of every running event this process holds the lease of; how many."""
        stepped = 0
        labels = await self.store.running()
        self.running = len(labels)
        for label in labels:
            if not await self.store.lease(label, self.process_id, self.settings.lease_ms):
                continue
            try:
                await self.step(label)
            except PairingError as exc:
                log.warning("event_cannot_be_seated", event_label=label, error=str(exc))
            except Exception as exc:
                if store_unavailable(exc):
                    raise
                # one event's fault (a refused CreateRound, a bug) stops neither the process
                # nor the other events; the next pass tries again
                log.exception("event_step_failed", event_label=label)
            stepped += 1
        return stepped

    async def step(self, label: str) -> None:
        loaded = await self.store.load(label)
        if loaded is None:
            await self.store.mark_done(label)
            return
        version, record = loaded
        event = record.event
        await self.publish(label, record)
        if event.status != events_pb2.EVENT_STATUS_RUNNING:
            await self.store.mark_done(label)
            await self.store.release(label, self.process_id)
            return
        now = self.clock_ms()
        if event.rounds and not event.rounds[-1].over:
            current = event.rounds[-1]
            if not current.seated_at_ms:
                await self._seat(label, version, record, current)
            else:
                await self._collect(label, version, record, current)
            return
        upcoming = plan.next_round(record)
        if upcoming is None:
            if event.settings.rated:
                await self._rate(record, now)  # before the end is written: repeated if cut
            event.status = events_pb2.EVENT_STATUS_FINISHED
            event.finished_at_ms = now
            del event.standings[:]
            event.standings.extend(plan.standings_lines(record))
            if await self._write(label, version, record):
                await self.publish(label, record)
                await self.store.mark_done(label)
                await self.store.release(label, self.process_id)
                log.info("event_finished", event_label=label, rounds=len(event.rounds))
            return
        starts = event.settings.round_starts_ms
        if upcoming.number <= len(starts) and now < starts[upcoming.number - 1]:
            return
        event.rounds.append(upcoming)
        if await self._write(label, version, record):
            log.info("round_planned", event_label=label, round=upcoming.number,
                     tables=len(upcoming.tables), final=upcoming.final)
            await self._seat(label, version + 1, record, event.rounds[-1])

    async def _seat(self, label: str, version: int, record: events_pb2.EventRecord,
                    current: events_pb2.EventRound) -> None:
        """Create the round's games and record them. A CreateRound seats one table size (its
        options' player count), so a round with smaller tables for its leftovers is one
        CreateRound per size: `event-round-N` for full tables, `event-round-N-K` for tables
        of K, each with the options' player count set to its size."""
        event = record.event
        names = {p.player_id: p.name for p in event.players}
        sizes = sorted({len(t.players) for t in current.tables}, reverse=True)
        for size in sizes:
            request = tournament_pb2.CreateRoundRequest(
                request_id=(f"event-round-{current.number}" if size == event.table_size
                            else f"event-round-{current.number}-{size}"),
                tournament=label, round=current.number, options=event.settings.options,
                clock=event.settings.clock, duplicate=event.settings.duplicate)
            variant = request.options.WhichOneof("variant")
            if variant is not None and size != event.table_size:
                getattr(request.options, variant).players = size
            tables = [t for t in current.tables if len(t.players) == size]
            for table in tables:
                seats = request.games.add().seats
                for player, bot in zip(table.players, table.bots, strict=True):
                    if player:
                        seats.add(player=names.get(player, player)[:64], player_id=player)
                    else:
                        seats.add(bot=bot or tournament_pb2.BOT_LEVEL_GREEDY)
            reply = await self.rounds.create_as(request, record.director_token)
            for table, game in zip(tables, reply.games, strict=True):
                table.game_id = game.game_id
        current.seated_at_ms = self.clock_ms()
        if await self._write(label, version, record):
            log.info("round_seated", event_label=label, round=current.number,
                     games=[t.game_id for t in current.tables])

    async def _collect(self, label: str, version: int, record: events_pb2.EventRecord,
                       current: events_pb2.EventRound) -> None:
        """Record the round's results once every game of it is over."""
        wanted = {t.game_id for t in current.tables}
        over: dict[str, tournament_pb2.TournamentFact] = {}
        after = 0
        while True:
            page = await self.tournaments.read_feed(label, after, FEED_PAGE)
            for seq, raw in page:
                after = seq
                fact = tournament_pb2.TournamentFact.FromString(raw)
                if fact.game_id in wanted and fact.WhichOneof("kind") in OVER:
                    over.setdefault(fact.game_id, fact)
            if len(page) < FEED_PAGE:
                break
        if set(over) != wanted:
            return
        for table in current.tables:
            fact = over[table.game_id]
            if fact.WhichOneof("kind") == "finished":
                del table.ranking[:]
                table.ranking.extend(fact.finished.outcome.ranking)
            else:
                table.void = True
        current.over = True
        if await self._write(label, version, record):
            log.info("round_over", event_label=label, round=current.number)

    async def _rate(self, record: events_pb2.EventRecord, now: int) -> int:
        """Rate the event's finished games, round by round: each game gets the rated result
        its ending commit would have written had it been created rated (ratings/record.py:
        players by id, bots as `bot:<level>`, places from the finishing order), written once
        into the game's hash, then applied by the ratings' own `apply`, once per player and
        game however often this runs; how many ratings changed."""
        if self.ratings is None:
            return 0
        variant, _options = wire.options_from_proto(record.event.settings.options)
        season = self.ratings.store.season
        changed = 0
        for round_ in record.event.rounds:
            for table in round_.tables:
                if table.void or not table.game_id or not table.ranking:
                    continue
                ids = [p or f"{BOT_PREFIX}{plan.LEVELS.get(b, 'greedy')}"
                       for p, b in zip(table.players, table.bots, strict=True)]
                if all(i.startswith(BOT_PREFIX) for i in ids):
                    continue
                places = rated_record.ranks(list(table.ranking), len(ids))
                rated = ratings_pb2.RatedGame(
                    game_id=table.game_id, variant=variant, season=season, ended_ms=now,
                    seats=[ratings_pb2.RatedGame.Seat(player_id=p, seat=s, rank=places[s])
                           for s, p in enumerate(ids)])
                key = self.ratings.keys.game(table.game_id)
                if not await self.store.redis.exists(key):
                    continue  # expired with its retention: nothing left to rate
                await self.store.redis.hsetnx(key, rated_record.FIELD, rated_record.pack(rated))
                changed += await self.ratings.apply(table.game_id)
        return changed

    async def publish(self, label: str, record: events_pb2.EventRecord) -> int:
        """Copy into the results feed the event's facts the record implies and the feed lacks;
        how many were copied."""
        facts = event_facts(record, self.clock_ms())
        have = await self.tournaments.copied(label, EVENT_FACTS)
        copied = 0
        for n, fact in enumerate(facts[have:], start=have + 1):
            data = fact.SerializeToString(deterministic=True)
            if await self.tournaments.copy(label, EVENT_FACTS, n, data, final=False,
                                           keep_ms=self.limits.retention_ms):
                copied += 1
        return copied

    async def _write(self, label: str, version: int, record: events_pb2.EventRecord) -> bool:
        done = await self.store.swap(label, version, record, self.limits.retention_ms)
        if not done:  # a registration, a withdrawal or another director: the next pass
            log.info("event_changed_meanwhile", event_label=label)
        return done


def event_facts(record: events_pb2.EventRecord, now_ms: int) -> list[Fact]:
    """The feed's facts of the event so far, in order: per round, seated then its standings;
    then the final standings. A function of the record (but `at_ms`), so every process lists
    the same facts in the same order."""
    event = record.event
    names = {p.player_id: p.name for p in event.players}
    out: list[Fact] = []
    for index, round_ in enumerate(event.rounds):
        if not round_.seated_at_ms:
            break
        seated = Fact(round=round_.number, at_ms=round_.seated_at_ms)
        seated.round_seated.final = round_.final
        for table in round_.tables:
            seated.round_seated.tables.add(
                game_id=table.game_id, players=table.players, bots=table.bots,
                names=[names.get(p, p) if p else
                       f"bot ({plan.LEVELS.get(b, 'greedy')})"
                       for p, b in zip(table.players, table.bots, strict=True)])
        out.append(seated)
        if not round_.over:
            break
        upto = events_pb2.EventRecord()
        upto.CopyFrom(record)
        del upto.event.rounds[index + 1:]
        out.append(_standings_fact(upto, round_.number, now_ms, final=False))
    if event.status == events_pb2.EVENT_STATUS_FINISHED:
        last = event.rounds[-1].number if event.rounds else 0
        out.append(_standings_fact(record, last, event.finished_at_ms or now_ms, final=True))
    return out


def _standings_fact(record: events_pb2.EventRecord, round_number: int, at_ms: int, *,
                    final: bool) -> Fact:
    fact = Fact(round=round_number, at_ms=at_ms)
    fact.standings.final = final
    for line in plan.standings_lines(record):
        fact.standings.lines.add(place=line.place, player_id=line.player_id, name=line.name,
                                 points=line.points, points_value=line.points_value,
                                 wins=line.wins, played=line.played)
    return fact
