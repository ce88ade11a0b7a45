"""The parser of `risk play` (what it does: match_cli.py): ask the matchmaker for a game and
wait until it is formed.

cli.py builds every parser for every command line, so this imports nothing beyond argparse; the
command itself is imported when it runs.
"""

from __future__ import annotations

import argparse
from typing import Any

from risk_client.lazy_epilog import LazyEpilogParser


async def _play(client: Any, args: argparse.Namespace) -> int:
    from risk_client import match_cli  # noqa: PLC0415 - only `risk play` needs it

    return await match_cli.cmd_play(client, args)


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"table sizes are numbers such as 3,4,5, not {text!r}"
                                         ) from None
    if not sizes:
        raise argparse.ArgumentTypeError("name at least one table size")
    return sizes


def register(sub: argparse._SubParsersAction[LazyEpilogParser], common: LazyEpilogParser,
             variants: list[str]) -> None:
    """Add `risk play` to the `risk` parser."""
    play = sub.add_parser(
        "play", parents=[common], help="ask the matchmaker for a game and wait for it",
        description="Queues a match request (RequestMatch) as the logged-in player and waits "
                    "until the service seats it at a table: then prints the game, your seat "
                    "and who else sits there, and the commands to play. Ctrl-C (or --wait "
                    "running out) cancels the request while it still waits.")
    play.add_argument("--variant", choices=variants, default="classic",
                      help="the variant to be matched in (default: classic)")
    play.add_argument("--sizes", type=_sizes, default=[], metavar="N[,N...]",
                      help="the table sizes you accept, e.g. 3,4,5 (default: the variant's "
                           "usual number of players)")
    play.add_argument("--rated", action="store_true", help="a rated game only")
    play.add_argument("--bots-after", type=int, default=0, metavar="SECONDS",
                      help="let bots fill the table once you have waited this long "
                           "(default: never)")
    play.add_argument("--name", default="", help="your display name in the game")
    play.add_argument("--wait", type=int, default=0, metavar="SECONDS",
                      help="how long the request waits for a table, 10 to 3600 (default: "
                           "the service's, 10 minutes)")
    play.set_defaults(func=_play)
