"""The parsers of `risk round` and `risk tournament ...` (what they do: tournament_cli.py).

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


FORMATS = ("swiss", "knockout")


def register_events(
    sub: argparse._SubParsersAction[LazyEpilogParser],
    common: LazyEpilogParser,
    game_options: Callable[[argparse.ArgumentParser], None],
    variants: list[str],
) -> None:
    """Add `risk tournament create|register|withdraw|start|standings|watch` (events the
    service's director runs; handler: tournament_cli.run_tournament)."""
    tournament = sub.add_parser(
        "tournament", parents=[common],
        help="events the service runs: create, register, withdraw, start, standings, watch",
        description="Tournament events: the service seats every round and scores it "
                    "(docs/tournaments.md, \"Events\").")
    verbs = tournament.add_subparsers(dest="tournament_command", required=True,
                                      metavar="ACTION")
    create = verbs.add_parser("create", parents=[common],
                              help="organiser: create an event (its label names it)")
    create.add_argument("event", help="the event's label (1-64 of A-Z a-z 0-9 . _ -)")
    create.add_argument("--format", choices=FORMATS, default="swiss",
                        help="swiss rounds (then a final with --final) or table-winner "
                             "knockout (default swiss)")
    create.add_argument("--rounds", type=int, default=3, help="swiss: rounds (default 3)")
    create.add_argument("--final", action="store_true",
                        help="swiss: end with a final table of the leaders")
    create.add_argument("--advance", type=int, default=1,
                        help="knockout: players of each table who go through (default 1)")
    create.add_argument("--variant", choices=variants, default="classic",
                        help="which game (default classic)")
    game_options(create)  # --players is the table size
    create.add_argument("--fill-bot", choices=("random", "greedy", "planner"),
                        help="seat leftover players with bots at this level (default: at "
                             "smaller tables)")
    create.add_argument("--decision-seconds", type=int,
                        help="each decision must be taken within this many seconds")
    create.add_argument("--on-timeout", choices=TIMEOUT_POLICIES,
                        help="with --decision-seconds: what a timed-out seat gets (bot: the "
                             "bot plays it on; forfeit: the seat is out)")
    create.add_argument("--round-start", action="append", default=[], metavar="ISO_TIME",
                        help="when a round may start (repeat, round 1 first; UTC, e.g. "
                             "2027-01-02T18:00); default: when the previous one ends")
    create.add_argument("--deadline", metavar="ISO_TIME",
                        help="registration closes then (default: at the start)")
    create.add_argument("--allow", action="append", default=[], metavar="PLAYER",
                        help="only these players may register (repeat)")
    create.add_argument("--cap", type=int, default=0, help="at most this many players")
    create.add_argument("--min-rating", type=float,
                        help="only players rated at least this in the variant (the rating "
                             "`risk rating` shows)")
    create.add_argument("--max-rating", type=float, help="only players rated at most this")
    create.add_argument("--duplicate", action="store_true",
                        help="every round duplicate: the same deal, decks and dice at every "
                             "table")
    create.add_argument("--rated", action="store_true",
                        help="at the end, every game of the event updates its players' ratings")
    create.add_argument("--late-entries", action="store_true",
                        help="swiss: registration stays open until the last round is planned")
    register = verbs.add_parser("register", parents=[common],
                                help="register for an event with your player login")
    register.add_argument("event", help="the event's label, as created")
    register.add_argument("--name", default="", help="the name shown at the tables")
    withdraw = verbs.add_parser("withdraw", parents=[common],
                                help="withdraw from an event with your player login")
    withdraw.add_argument("event", help="the event's label, as created")
    start = verbs.add_parser("start", parents=[common],
                             help="organiser: close registration; the director seats round 1")
    start.add_argument("event", help="the event's label, as created")
    standings = verbs.add_parser("standings", parents=[common],
                                 help="the event: status, current round's tables, standings")
    standings.add_argument("event", help="the event's label, as created")
    form = standings.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="the standings as JSON")
    form.add_argument("--csv", action="store_true", help="the standings as CSV")
    watch = verbs.add_parser("watch", parents=[common],
                             help="follow the event's results feed until it is over")
    watch.add_argument("event", help="the event's label, as created")
    watch.add_argument("--after", type=int, default=0, metavar="SEQ",
                       help="start after this fact of the feed (default: from the start)")
