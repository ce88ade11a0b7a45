"""The parsers of `risk rating` and `risk leaderboard` (what they do: rating_cli.py): a player's
rating and history, a variant's leaderboard.

cli.py builds every parser for every command line, so this imports nothing beyond argparse; the
command itself is imported when it runs.
"""

from __future__ import annotations

import argparse
from typing import Any

from risk_client.lazy_epilog import LazyEpilogParser


async def _rating(client: Any, args: argparse.Namespace) -> int:
    from risk_client import rating_cli  # noqa: PLC0415 - only these commands need it

    return await rating_cli.cmd_rating(client, args)


async def _leaderboard(client: Any, args: argparse.Namespace) -> int:
    from risk_client import rating_cli  # noqa: PLC0415 - only these commands need it

    return await rating_cli.cmd_leaderboard(client, args)


def register(sub: argparse._SubParsersAction[LazyEpilogParser], common: LazyEpilogParser,
             variants: list[str]) -> None:
    """Add `risk rating` and `risk leaderboard` to the `risk` parser."""
    rating = sub.add_parser(
        "rating", parents=[common], help="a player's rating and their last rated games",
        description="Shows a player's rating in a variant (GetRating): the displayed rating "
                    "(mu - 3 sigma), mu and sigma, games, place on the leaderboard, whether it "
                    "is still provisional, and the latest rated games with what each did to "
                    "it. No credential needed.")
    rating.add_argument("player", nargs="?", default="",
                        help="the player id (default: the logged-in player)")
    rating.add_argument("--variant", choices=variants, default="classic",
                        help="the variant whose rating to show (default: classic)")
    rating.add_argument("--season", default="", help="a past season by name (default: now)")
    rating.add_argument("--history", type=int, default=10, metavar="N",
                        help="show the latest N rated games (0 to 200; default 10)")
    rating.set_defaults(func=_rating)
    board = sub.add_parser(
        "leaderboard", parents=[common], help="a variant's leaderboard",
        description="Shows a variant's leaderboard (GetLeaderboard), best first: the top N, or "
                    "the places around a player. No credential needed.")
    board.add_argument("--variant", choices=variants, default="classic",
                       help="the variant whose leaderboard to show (default: classic)")
    board.add_argument("--season", default="", help="a past season by name (default: now)")
    board.add_argument("--top", type=int, default=20, metavar="N",
                       help="how many places (1 to 200; default 20)")
    board.add_argument("--around", default="", metavar="PLAYER",
                       help="the places around this player instead of the top ('me': the "
                            "logged-in player)")
    board.add_argument("--bots", action="store_true",
                       help="the bot levels' board instead of the players'")
    board.set_defaults(func=_leaderboard)
