"""The parsers of `risk campaign ...` (what they do: campaign_cli.py).

cli.py builds every parser for every command line, so this imports only what the options'
help needs; the list of factions comes from the Legacy rules, which are imported only when
`risk campaign create --help` is shown.
"""

from __future__ import annotations

import argparse

from risk_client.lazy_epilog import LazyEpilogParser

DEMO_GAMES = 3
MAX_GAMES = 15


def _factions_epilog() -> str:
    from risk_client.campaigns import FACTIONS  # noqa: PLC0415 - only for help

    return f"factions (FACTION for --faction): {', '.join(FACTIONS)}"


def register(
    sub: argparse._SubParsersAction[LazyEpilogParser],
    common: LazyEpilogParser,
) -> None:
    """Add `risk campaign ...` to the `risk` parser (its handler: campaign_cli.run_campaign)."""
    campaign = sub.add_parser(
        "campaign", parents=[common], help="Risk Legacy campaigns: create, show, play, decide",
        description="Risk Legacy campaigns: several games in one world that each game changes.",
    )
    verbs = campaign.add_subparsers(dest="campaign_command", required=True, metavar="ACTION")

    create = verbs.add_parser("create", parents=[common], epilog_from=_factions_epilog,
                              help="create a campaign; prints its host and seat tokens")
    create.add_argument("--players", type=int, default=3, help="3 to 5 (default 3)")
    create.add_argument(
        "--faction", action="append", default=[], dest="factions", metavar="FACTION[:POWER]",
        help="a seat's faction and power (repeat, in seat order; default: the box's order "
             "with each first power); factions: listed below",
    )
    create.add_argument("--name", action="append", default=[], dest="names",
                        help="a seat's display name (repeat, in seat order)")
    create.add_argument("--seat-player", action="append", default=[], dest="seat_players",
                        metavar="PLAYER",
                        help="the player a seat belongs to (repeat, in seat order; '' for "
                             "none): they play it in every game with their login")

    show = verbs.add_parser(
        "show", parents=[common],
        help="the campaign: standings, games, world; with your seat token, your choices")
    show.add_argument("campaign", help="the campaign id")

    listing = verbs.add_parser("list", parents=[common], help="list campaigns")
    listing.add_argument("--page-size", type=int, default=0,
                         help="campaigns per request (default: the service's)")

    start = verbs.add_parser("next", parents=[common],
                             help="host: start the campaign's next game")
    start.add_argument("campaign", help="the campaign id")
    start.add_argument("--seed", type=int, help="fixed seed for a reproducible game")
    start.add_argument("--max-turns", type=int, help="turn cap before a ranked draw")

    decide = verbs.add_parser(
        "decide", parents=[common],
        help="take your seat's reward decision (choice N as `show` lists it)")
    decide.add_argument("campaign", help="the campaign id")
    decide.add_argument("choice", type=int, help="the number `risk campaign show` lists")
    decide.add_argument("--name", help="the name of the city or continent the reward creates "
                                       "(default: one the rules give)")
    decide.add_argument("--expected-version", type=int,
                        help="decide on this campaign version instead of the current one")

    demo = verbs.add_parser("demo", parents=[common],
                            help="bots play a whole campaign through the service")
    demo.add_argument("--players", type=int, default=3, help="3 to 5 (default 3)")
    demo.add_argument("--games", type=int, default=DEMO_GAMES,
                      help=f"games to play, 1 to {MAX_GAMES} (default {DEMO_GAMES})")
    demo.add_argument("--seed", type=int, help="seed of the first game (the next ones follow)")
    demo.add_argument("--max-turns", type=int, help="turn cap of each game")
