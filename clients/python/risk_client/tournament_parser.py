"""The parser of `risk round` (what it does: tournament_cli.py).

cli.py builds every parser for every command line, so this imports only what the options'
help needs.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from risk_client.lazy_epilog import LazyEpilogParser

TIMEOUT_POLICIES = ("default", "pass", "bot", "forfeit")

_ROUND_EPILOG = """\
A table is its seats in seat order, comma-separated: a player's label (what the results
feed and the games show for them) or bot:LEVEL (random, greedy, planner). Every table has
the same number of seats, which is the games' player count. Example:

  risk round cup 1 --table alice,bob,bot:greedy --table carol,dave,erin --max-turns 30

The request id defaults to TOURNAMENT-round-ROUND, so the same command run again (after a
lost reply, or to follow the round again) gets the same round back and creates nothing;
other tables under the same id are refused (REQUEST_ID_REUSED). After printing the tokens
it follows the tournament's results feed until every game of the round is over.
"""


def register(
    sub: argparse._SubParsersAction[LazyEpilogParser],
    common: LazyEpilogParser,
    game_options: Callable[[argparse.ArgumentParser], None],
    variants: list[str],
) -> None:
    """Add `risk round` to the `risk` parser (its handler: tournament_cli.run_round);
    `game_options` adds the options every game takes, as `risk create` has them."""
    round_ = sub.add_parser(
        "round", parents=[common], formatter_class=argparse.RawDescriptionHelpFormatter,
        help="organiser: create a tournament round's games (CreateRound) and follow them",
        description="Create a round of games in one call, print every seat's token, then "
                    "follow the tournament's results feed until the round is over.",
        epilog=_ROUND_EPILOG,
    )
    round_.add_argument("tournament", help="the tournament's label (1-64 of A-Z a-z 0-9 . _ -)")
    round_.add_argument("round", type=int, help="the round's number")
    round_.add_argument("--table", action="append", default=[], dest="tables",
                        metavar="SEAT,SEAT,...", required=True,
                        help="one game's seats in order (repeat per table): a player's "
                             "label or bot:LEVEL")
    round_.add_argument("--variant", choices=variants, default="classic",
                        help="which game (default classic)")
    game_options(round_)
    round_.add_argument("--duplicate", action="store_true",
                        help="every game of the round gets the same dice and decks "
                             "(rotate the seats yourself)")
    round_.add_argument("--decision-seconds", type=int,
                        help="each decision must be taken within this many seconds")
    round_.add_argument("--on-timeout", choices=TIMEOUT_POLICIES,
                        help="with --decision-seconds: what a timed-out seat gets (default: "
                             "the variant's passive action; bot: the bot plays it on; "
                             "forfeit: the seat is out)")
    round_.add_argument("--request-id",
                        help="idempotency key (default TOURNAMENT-round-ROUND)")
    round_.add_argument("--no-follow", action="store_true",
                        help="print the round and return; do not follow the results feed")
