"""`risk round` and `risk tournament ...`: tournaments from the command line.

`risk round` is a tournament round for organisers who pair their players themselves.

It reads the tables off the command line, calls CreateRound once (its request id defaults to
`TOURNAMENT-round-ROUND`, so running the same command again returns the same round and
creates nothing), prints the host token and each game's id, seed commitment and seat tokens,
then follows the tournament's results feed (StreamResults, from the start: the feed is the
tournament's, so a second run sees the whole round again) and prints each fact of the round
as a line, until every game of the round is finished, abandoned or cancelled.

`risk tournament create|register|withdraw|start|standings|watch` are the events the service's
director runs (CreateEvent ... GetEvent): `standings` prints the event, its current round's
tables and the standings, or exports the standings as JSON or CSV; `watch` follows the results
feed (games' facts, each round seated, standings after each round) until the final standings.
The parsers are in tournament_parser.py.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from datetime import UTC, datetime

from risk_client.cli import options_from_args
from risk_client.client import RiskClient
from risk_proto.risk.v1 import events_pb2, lifecycle_pb2, tournament_pb2

LEVELS = {
    "random": tournament_pb2.BOT_LEVEL_RANDOM,
    "greedy": tournament_pb2.BOT_LEVEL_GREEDY,
    "planner": tournament_pb2.BOT_LEVEL_PLANNER,
}
LEVEL_NAMES: dict[int, str] = {number: name for name, number in LEVELS.items()}
POLICIES = {
    "default": lifecycle_pb2.TIMEOUT_POLICY_DEFAULT_ACTION,
    "pass": lifecycle_pb2.TIMEOUT_POLICY_PASS,
    "bot": lifecycle_pb2.TIMEOUT_POLICY_BOT,
    "forfeit": lifecycle_pb2.TIMEOUT_POLICY_FORFEIT,
}
POLICY_NAMES: dict[int, str] = {number: name for name, number in POLICIES.items()}
OVER = ("finished", "abandoned", "cancelled")
STANDINGS_SHOWN = 8  # a feed line names the leaders; `risk tournament standings` has them all


def _out(text: str = "") -> None:
    print(text, flush=True)


def parse_table(text: str) -> tournament_pb2.RoundTable:
    """`alice,bob,bot:greedy` as a RoundTable; ValueError (exit 2) for a bad seat."""
    seats = []
    for word in (w.strip() for w in text.split(",")):
        if not word:
            raise ValueError(f"--table {text!r}: an empty seat")
        if word.startswith("bot:"):
            level = word.removeprefix("bot:")
            if level not in LEVELS:
                raise ValueError(f"--table {text!r}: bot level {level!r} is not one of "
                                 f"{', '.join(LEVELS)}")
            seats.append(tournament_pb2.RoundSeat(bot=LEVELS[level]))
        else:
            seats.append(tournament_pb2.RoundSeat(player=word))
    return tournament_pb2.RoundTable(seats=seats)


def round_request(args: argparse.Namespace) -> tournament_pb2.CreateRoundRequest:
    tables = [parse_table(t) for t in args.tables]
    sizes = {len(t.seats) for t in tables}
    if len(sizes) != 1:
        raise ValueError(f"every --table needs the same number of seats, got {sorted(sizes)}")
    size = sizes.pop()
    if args.players is not None and args.players != size:
        raise ValueError(f"--players {args.players}: the tables have {size} seats")
    args.players = size
    request = tournament_pb2.CreateRoundRequest(
        request_id=args.request_id or f"{args.tournament}-round-{args.round}",
        tournament=args.tournament, round=args.round, options=options_from_args(args),
        games=tables, duplicate=args.duplicate)
    if args.decision_seconds is not None:
        request.clock.decision_seconds = args.decision_seconds
        request.clock.on_timeout = POLICIES[args.on_timeout or "default"]
    elif args.on_timeout is not None:
        raise ValueError("--on-timeout needs --decision-seconds")
    return request


def seat_label(players: list[str], bots: list[int], seat: int) -> str:
    if seat < len(players) and players[seat]:
        return players[seat]
    level = bots[seat] if seat < len(bots) else 0
    return f"bot ({LEVEL_NAMES.get(level, 'greedy')})"


def fact_line(fact: tournament_pb2.TournamentFact,
              seats: dict[str, tuple[list[str], list[int]]]) -> str:
    """One results-feed fact in words: `#7 GAME finished: 1. alice 2. bob ... (conquest)`."""
    kind = fact.WhichOneof("kind") or "?"
    players, bots = seats.get(fact.game_id, ([], []))
    head = f"#{fact.seq} {fact.game_id}"
    if kind == "created":
        names = ", ".join(seat_label(players, bots, s) for s in range(len(players)))
        return f"{head} created: {names}"
    if kind == "seat_timed_out":
        seat = fact.seat_timed_out.seat
        policy = POLICY_NAMES.get(fact.seat_timed_out.policy, "default")
        return f"{head} {seat_label(players, bots, seat)} timed out ({policy})"
    if kind == "seat_resigned":
        return f"{head} {seat_label(players, bots, fact.seat_resigned.seat)} resigned"
    if kind == "finished":
        outcome = fact.finished.outcome
        places = " ".join(f"{place}. {seat_label(players, bots, seat)}"
                          for place, seat in enumerate(outcome.ranking, start=1))
        return f"{head} finished: {places} ({outcome.reason or 'over'})"
    if kind == "round_seated":
        tables = "; ".join(f"{t.game_id} ({', '.join(t.names)})"
                           for t in fact.round_seated.tables)
        what = "final" if fact.round_seated.final else f"round {fact.round}"
        return f"#{fact.seq} {what} seated: {tables}"
    if kind == "standings":
        lines = fact.standings.lines
        shown = ", ".join(f"{line.place}. {line.name} {_points(line.points_value)}"
                          for line in lines[:STANDINGS_SHOWN])
        more = f", ... ({len(lines)} players)" if len(lines) > STANDINGS_SHOWN else ""
        what = ("final standings" if fact.standings.final
                else f"standings after round {fact.round}")
        return f"#{fact.seq} {what}: {shown}{more}"
    return f"{head} {kind}"


def _points(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


async def run_round(client: RiskClient, args: argparse.Namespace) -> int:
    request = round_request(args)
    reply = await client.create_round(request)
    _out(f"round {reply.round} of tournament {reply.tournament}: {len(reply.games)} games "
         f"(request id {request.request_id})")
    _out(f"host-token {reply.host_token}")
    for table, game in zip(request.games, reply.games, strict=True):
        _out(f"game {game.game_id}  seed-commitment {game.seed_commitment.hex()}")
        for seat, (entry, token) in enumerate(zip(table.seats, game.seat_tokens, strict=True)):
            if entry.WhichOneof("occupant") == "player":
                _out(f"  seat {seat} {entry.player}  token {token}")
            else:
                _out(f"  seat {seat} bot ({LEVEL_NAMES.get(entry.bot, 'greedy')})")
    if args.no_follow:
        _out(f"follow it with `risk round {args.tournament} {args.round}` and the same tables")
        return 0
    _out("results (Ctrl-C stops following; the round goes on):")
    games = {game.game_id for game in reply.games}
    over: set[str] = set()
    seats: dict[str, tuple[list[str], list[int]]] = {}
    async for fact in client.stream_results(args.tournament):
        if fact.game_id not in games:
            continue
        kind = fact.WhichOneof("kind")
        if kind == "created":
            seats[fact.game_id] = (list(fact.created.players), list(fact.created.bots))
        _out(fact_line(fact, seats))
        if kind in OVER:
            over.add(fact.game_id)
            if over == games:
                break
    _out(f"round {reply.round} over: {len(games)} games")
    return 0


# ---- risk tournament ... --------------------------------------------------------------------

FORMATS = {"swiss": events_pb2.EVENT_FORMAT_SWISS, "knockout": events_pb2.EVENT_FORMAT_KNOCKOUT}
STATUS_WORDS = {
    events_pb2.EVENT_STATUS_REGISTRATION: "registration",
    events_pb2.EVENT_STATUS_RUNNING: "running",
    events_pb2.EVENT_STATUS_FINISHED: "finished",
}
CSV_FIELDS = ("place", "player_id", "name", "points", "points_value", "wins",
              "opponents_points", "progressive", "played")


def _ms(text: str, option: str) -> int:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{option} {text!r}: an ISO time such as 2027-01-02T18:00") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def event_request(args: argparse.Namespace) -> events_pb2.CreateEventRequest:
    request = events_pb2.CreateEventRequest(
        event=args.event, format=FORMATS[args.format], rounds=args.rounds, final=args.final,
        advance=args.advance, options=options_from_args(args),
        round_starts_ms=[_ms(t, "--round-start") for t in args.round_start],
        registration_deadline_ms=_ms(args.deadline, "--deadline") if args.deadline else 0,
        entry=events_pb2.EventEntry(allow=args.allow, cap=args.cap),
        duplicate=args.duplicate, late_entries=args.late_entries, rated=args.rated)
    if args.fill_bot:
        request.fill_bot = LEVELS[args.fill_bot]
    if args.min_rating is not None:
        request.entry.min_rating = args.min_rating
    if args.max_rating is not None:
        request.entry.max_rating = args.max_rating
    if args.decision_seconds is not None:
        request.clock.decision_seconds = args.decision_seconds
        request.clock.on_timeout = POLICIES[args.on_timeout or "default"]
    elif args.on_timeout is not None:
        raise ValueError("--on-timeout needs --decision-seconds")
    return request


def event_header(event: events_pb2.TournamentEvent) -> str:
    settings = event.settings
    if settings.format == events_pb2.EVENT_FORMAT_SWISS:
        shape = f"swiss, {settings.rounds} rounds" + (" + final" if settings.final else "")
    else:
        shape = f"knockout, first {settings.advance or 1} of each table go through"
    return (f"event {event.event}  {STATUS_WORDS.get(event.status, '?')}  {shape}, tables "
            f"of {event.table_size}  {len(event.players)} players  version {event.version}")


def event_text(event: events_pb2.TournamentEvent) -> str:
    """The event in words: header, the last round's tables, the standings."""
    names = {p.player_id: p.name for p in event.players}
    lines = [event_header(event)]
    if event.rounds:
        current = event.rounds[-1]
        what = "final" if current.final else f"round {current.number}"
        state = "over" if current.over else "seated" if current.seated_at_ms else "planned"
        lines.append(f"{what} ({state}):")
        for table in current.tables:
            seats = [names.get(p, p) if p else f"bot ({LEVEL_NAMES.get(b, 'greedy')})"
                     for p, b in zip(table.players, table.bots, strict=True)]
            result = ""
            if table.void:
                result = "  (no result)"
            elif table.ranking:
                result = "  finished: " + " ".join(
                    f"{n}. {seats[s]}" for n, s in enumerate(table.ranking, start=1))
            lines.append(f"  {table.game_id or '(not created yet)'}  {', '.join(seats)}{result}")
    elif event.status == events_pb2.EVENT_STATUS_REGISTRATION:
        lines.append("registered: " + (", ".join(p.name for p in event.players) or "nobody yet"))
    if event.standings and event.rounds:
        final = event.status == events_pb2.EVENT_STATUS_FINISHED
        lines.append("final standings:" if final else "standings:")
        width = max(len(line.name) for line in event.standings)
        for line in event.standings:
            out = " (withdrawn)" if any(p.player_id == line.player_id and p.withdrawn
                                        for p in event.players) else ""
            lines.append(f"  {line.place:>3}. {line.name:<{width}}  {_points(line.points_value):>6}"
                         f"  wins {line.wins}  played {line.played}{out}")
    return "\n".join(lines)


def standings_json(event: events_pb2.TournamentEvent) -> str:
    return json.dumps({
        "event": event.event, "status": STATUS_WORDS.get(event.status, "?"),
        "final": event.status == events_pb2.EVENT_STATUS_FINISHED,
        "standings": [{name: getattr(line, name) for name in CSV_FIELDS}
                      for line in event.standings],
    }, indent=2)


def standings_csv(event: events_pb2.TournamentEvent) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for line in event.standings:
        writer.writerow([getattr(line, name) for name in CSV_FIELDS])
    return out.getvalue().rstrip("\n")


async def run_tournament(client: RiskClient, args: argparse.Namespace) -> int:
    verb = args.tournament_command
    if verb == "create":
        event = await client.create_event(event_request(args))
        _out(event_header(event))
        _out(f"players register with `risk tournament register {event.event}` (their login); "
             f"start it with `risk tournament start {event.event}` and this same token")
        return 0
    if verb == "register":
        event = await client.register_event(args.event, args.name)
        _out(f"registered for {event.event}: {len(event.players)} players")
        return 0
    if verb == "withdraw":
        event = await client.withdraw_event(args.event)
        _out(f"withdrawn from {event.event}")
        return 0
    if verb == "start":
        event = await client.start_event(args.event)
        _out(f"{event_header(event)}\nthe director seats round 1 now; follow it with "
             f"`risk tournament watch {event.event}`")
        return 0
    if verb == "standings":
        event = await client.get_event(args.event)
        _out(standings_json(event) if args.json else standings_csv(event) if args.csv
             else event_text(event))
        return 0
    # watch: the results feed until the final standings
    seats: dict[str, tuple[list[str], list[int]]] = {}
    async for fact in client.stream_results(args.event, args.after):
        if fact.WhichOneof("kind") == "created":
            seats[fact.game_id] = (list(fact.created.players), list(fact.created.bots))
        _out(fact_line(fact, seats))
        if fact.WhichOneof("kind") == "standings" and fact.standings.final:
            break
    return 0
