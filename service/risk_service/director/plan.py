"""What an event's record says comes next, and its standings: pure functions of the record.

The director (director.py) and GetEvent (events.py) both read an event through these, so a
round is planned the same way by whichever process plans it, and the standings anyone reads
are those the director would compute. Players are named by their player ids here; a bot seat
is a `Bot` at its level.
"""

from __future__ import annotations

from fractions import Fraction

from risk_proto.risk.v1 import events_pb2, tournament_pb2
from risk_service.director.pairing import (
    History,
    PairingRules,
    Table,
    advancing,
    final_table,
    knockout_round,
    swiss_round,
)
from risk_service.director.seats import Bot, Seat
from risk_service.director.standings import (
    Standing,
    TableResult,
    final_standings,
    points_text,
    standings,
)

LEVELS = {
    tournament_pb2.BOT_LEVEL_RANDOM: "random",
    tournament_pb2.BOT_LEVEL_GREEDY: "greedy",
    tournament_pb2.BOT_LEVEL_PLANNER: "planner",
}
LEVEL_NUMBERS = {name: number for number, name in LEVELS.items()}
SWISS = events_pb2.EVENT_FORMAT_SWISS
KNOCKOUT = events_pb2.EVENT_FORMAT_KNOCKOUT


def rules_of(event: events_pb2.TournamentEvent) -> PairingRules:
    fill = LEVELS.get(event.settings.fill_bot)
    return PairingRules(table_size=event.table_size, fill_bot=Bot(fill) if fill else None)


def seats_of(table: events_pb2.EventTable) -> Table:
    return tuple(p if p else Bot(LEVELS.get(b, "greedy"))
                 for p, b in zip(table.players, table.bots, strict=True))


def table_message(seats: Table) -> events_pb2.EventTable:
    out = events_pb2.EventTable()
    for seat in seats:
        if isinstance(seat, Bot):
            out.players.append("")
            out.bots.append(LEVEL_NUMBERS[seat.level])
        else:
            out.players.append(seat)
            out.bots.append(tournament_pb2.BOT_LEVEL_UNSPECIFIED)
    return out


def results_of(event: events_pb2.TournamentEvent, *, finals: bool = False
               ) -> list[list[TableResult]]:
    """The rounds over, as finished tables (void tables left out); the final only if asked."""
    out = []
    for round_ in event.rounds:
        if not round_.over or (round_.final and not finals):
            continue
        out.append([TableResult(seats=seats_of(t), ranking=tuple(t.ranking))
                    for t in round_.tables if not t.void])
    return out


def history_of(event: events_pb2.TournamentEvent) -> History:
    return History.of([[seats_of(t) for t in r.tables] for r in event.rounds])


def current_standings(record: events_pb2.EventRecord) -> tuple[Standing, ...]:
    """Every registered player (withdrawn ones too) ranked after the non-final rounds over."""
    event = record.event
    return standings([p.player_id for p in event.players], results_of(event), record.seed)


def next_round(record: events_pb2.EventRecord) -> events_pb2.EventRound | None:
    """The round to seat after the last one over, or None when the event is over. Raises
    pairing.PairingError when the players left cannot be seated."""
    event, settings = record.event, record.event.settings
    rules = rules_of(event)
    number = len(event.rounds) + 1
    seed = record.seed + number
    active = {p.player_id for p in event.players if not p.withdrawn}
    lines = current_standings(record)
    order = [line.player for line in lines if line.player in active]
    history = history_of(event)
    tables: tuple[Table, ...]
    final = False
    if settings.format == SWISS:
        swiss_done = sum(1 for r in event.rounds if not r.final)
        if swiss_done < settings.rounds:
            points = {line.player: line.points for line in lines}
            tables = swiss_round(order, points, history, rules, seed)
        elif settings.final and not any(r.final for r in event.rounds):
            tables = (final_table(order, history, rules, seed),)
            final = True
        else:
            return None
    else:
        if event.rounds and event.rounds[-1].final:
            return None
        if event.rounds:
            last = event.rounds[-1]
            results = [TableResult(seats=seats_of(t), ranking=tuple(t.ranking))
                       for t in last.tables if not t.void]
            going = advancing(results, settings.advance or 1, lambda p: p in active)
        else:
            going = order
        if len(going) <= rules.table_size:
            tables = (final_table(going, history, rules, seed),)
            final = True
        else:
            tables = knockout_round(going, history, rules, seed)
    out = events_pb2.EventRound(number=number, final=final)
    out.tables.extend(table_message(t) for t in tables)
    return out


def standings_lines(record: events_pb2.EventRecord) -> list[events_pb2.EventStanding]:
    """The standings as GetEvent shows them: during the event, after the rounds over; at the
    end, the finalists first in the final's order (Swiss), or, in a knockout, the final's
    order, then who went out later before who went out sooner, each group by the standings."""
    event = record.event
    lines = current_standings(record)
    names = {p.player_id: p.name for p in event.players}
    by_player = {line.player: line for line in lines}
    order = [line.player for line in lines]
    final = next((r for r in event.rounds if r.final and r.over), None)
    if final is not None and final.tables and not final.tables[0].void:
        table = final.tables[0]
        result = TableResult(seats=seats_of(table), ranking=tuple(table.ranking))
        if event.settings.format == SWISS:
            order = list(final_standings(lines, result))
        else:
            reached = {p: 0 for p in order}
            for r in event.rounds:
                for t in r.tables:
                    for p in t.players:
                        if p:
                            reached[p] = r.number
            finalists = [p for p in final_standings(lines, result)
                         if reached.get(p) == final.number]
            rest = sorted((p for p in order if p not in set(finalists)),
                          key=lambda p: (-reached.get(p, 0), order.index(p)))
            order = finalists + rest
    out = []
    for place, player in enumerate(order, start=1):
        line = by_player[player]
        out.append(events_pb2.EventStanding(
            place=place, player_id=player, name=names.get(player, player),
            points=_fraction(line.points), points_value=float(line.points), wins=line.wins,
            opponents_points=_fraction(line.opponents_points),
            progressive=_fraction(line.progressive), played=line.played))
    return out


def _fraction(value: Fraction) -> str:
    return str(value) if value.denominator != 1 else points_text(value)


def seat_label(seat: Seat, names: dict[str, str]) -> str:
    return names.get(seat, seat) if isinstance(seat, str) else f"bot ({seat.level})"
