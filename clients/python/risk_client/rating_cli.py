"""`risk rating` and `risk leaderboard` (docs/ratings.md, docs/cli.md): a player's rating with
its latest rated games, and a variant's leaderboard, as lines of text."""

from __future__ import annotations

import argparse

from risk_client.client import RiskClient
from risk_client.player_cli import when
from risk_proto.risk.v1 import ratings_pb2
from risk_rules import variants


def _out(text: str = "") -> None:
    print(text, flush=True)


def _me(args: argparse.Namespace, given: str, what: str) -> str:
    if given and given != "me":
        return given
    if getattr(args, "logged_in", False):
        return str(args.login.player_id)
    raise ValueError(f"{what} needs a player id (or `risk login` first to mean yourself)")


def rating_line(rating: ratings_pb2.Rating, *, place: bool = True) -> str:
    """A rating in one line: "12.3 (mu 27.10, sigma 4.93), 14 games, #3"."""
    place_text = f", #{rating.rank}" if rating.rank and place else ""
    provisional = ", provisional" if rating.provisional else ""
    return (f"{rating.rating:.1f} (mu {rating.mu:.2f}, sigma {rating.sigma:.2f}), "
            f"{rating.games} game{'s' if rating.games != 1 else ''}{place_text}{provisional}")


def change_line(change: ratings_pb2.RatingChange) -> str:
    """One rated game: "game G: 1st of 4, 0.0 -> 5.2 (+5.2), 2026-12-05 22:00 UTC (...)"."""
    delta = change.rating_after - change.rating_before
    return (f"game {change.game_id}: {_place(change.rank)} of {change.seats}, "
            f"{change.rating_before:.1f} -> {change.rating_after:.1f} ({delta:+.1f}), "
            f"{when(change.at_ms)}")


def _place(rank: int) -> str:
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


async def cmd_rating(client: RiskClient, args: argparse.Namespace) -> int:
    player = _me(args, args.player, "risk rating")
    if not 0 <= args.history <= 200:
        raise ValueError("--history is 0 to 200")
    reply = await client.get_rating(player, variants.numbers()[args.variant],
                                    season=args.season, page_size=args.history or 1)
    rating = reply.rating
    _out(f"player {player}, {args.variant}, season {rating.season}: {rating_line(rating)}")
    if not rating.games:
        _out("no rated games yet")
    for change in list(reply.history)[:args.history]:
        _out(f"  {change_line(change)}")
    return 0


async def cmd_leaderboard(client: RiskClient, args: argparse.Namespace) -> int:
    if not 1 <= args.top <= 200:
        raise ValueError("--top is 1 to 200")
    around = _me(args, args.around, "--around") if args.around else ""
    board = await client.get_leaderboard(variants.numbers()[args.variant], season=args.season,
                                         page_size=args.top, around_player=around,
                                         bots=args.bots)
    kind = "bot levels" if args.bots else "players"
    _out(f"{args.variant} leaderboard ({kind}), season {board.season}: {board.total} rated")
    width = len(str(board.entries[-1].rank)) if board.entries else 1
    for entry in board.entries:
        mark = "  <-" if around and entry.rating.player_id == around else ""
        _out(f"{entry.rank:>{width}}. {entry.rating.player_id}  "
             f"{rating_line(entry.rating, place=False)}{mark}".rstrip())
    if not board.entries:
        _out("nobody is rated yet")
    return 0
