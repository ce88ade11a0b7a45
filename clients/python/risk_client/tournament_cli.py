"""`risk round`: a tournament round for organisers who pair their players themselves.

It reads the tables off the command line, calls CreateRound once (its request id defaults to
`TOURNAMENT-round-ROUND`, so running the same command again returns the same round and
creates nothing), prints the host token and each game's id, seed commitment and seat tokens,
then follows the tournament's results feed (StreamResults, from the start: the feed is the
tournament's, so a second run sees the whole round again) and prints each fact of the round
as a line, until every game of the round is finished, abandoned or cancelled. The parser is in
tournament_parser.py.
"""

from __future__ import annotations

import argparse

from risk_client.cli import options_from_args
from risk_client.client import RiskClient
from risk_proto.risk.v1 import lifecycle_pb2, tournament_pb2

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
    return f"{head} {kind}"


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
