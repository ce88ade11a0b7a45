"""The parsers of the player commands (what they do: player_cli.py): `risk login`, `whoami`,
`logout`, `games` (with `--mine`), `feed`, `invite`, `accept`, `decline`, `revoke`,
`invitations`, `vacation`,
and the correspondence-clock options of `risk create`.

cli.py builds every parser for every command line, so this imports nothing beyond argparse.
"""

from __future__ import annotations

import argparse

from risk_client.lazy_epilog import LazyEpilogParser

# the commands this module parses; cli_commands.py sends them to player_cli.py
COMMANDS = ("login", "whoami", "logout", "games", "invite", "accept", "decline", "invitations",
            "vacation", "revoke", "feed")
ON_MISSED = ("remove", "bot")
_GAME_HELP = "the game id (`risk create` prints it)"


def register(
    sub: argparse._SubParsersAction[LazyEpilogParser],
    common: LazyEpilogParser,
    statuses: list[str],
) -> None:
    """Add the player commands to the `risk` parser."""
    login = sub.add_parser(
        "login", parents=[common],
        help="log in as a player: stores a player token that later commands use",
        description="Without --token, asks the service for a player token (IssuePlayerToken: "
                    "a new player, or a fresh token for the player already logged in); with "
                    "--token, stores the token your deployment's identity provider gave you. "
                    "Commands then act as that player when --token and RISK_TOKEN are not "
                    "given.")
    login.add_argument("--new", action="store_true",
                       help="a new player even when one is logged in at this service")
    sub.add_parser("whoami", parents=[common], help="the player logged in, and until when")
    sub.add_parser("logout", parents=[common], help="forget the stored player token")

    games = sub.add_parser("games", parents=[common],
                           help="list games; with --mine, yours with whose turn it is")
    games.add_argument("--mine", action="store_true",
                       help="your games (logged in): waiting, active with whose turn and the "
                            "deadline, finished")
    games.add_argument("--status", choices=statuses, help="only games in this status")

    invite = sub.add_parser("invite", parents=[common],
                            help="host: invite a player to a free seat, or make a link")
    invite.add_argument("game", help=_GAME_HELP)
    invite.add_argument("seat", type=int, help="the free seat")
    invite.add_argument("player", nargs="?", default="",
                        help="the player id invited (`risk whoami` prints one's); omit with "
                             "--link")
    invite.add_argument("--link", action="store_true",
                        help="an open-seat link instead: whoever has its code takes the seat")
    invite.add_argument("--hours", type=float, default=0,
                        help="how long the invitation stays open (default: the service's)")

    for name, text in (("accept", "take the seat an invitation offers you"),
                       ("decline", "turn an invitation down")):
        verb = sub.add_parser(name, parents=[common], help=text)
        verb.add_argument("invitation",
                          help="a link's code, or GAME/INVITATION as `risk invitations` "
                               "prints it")
        if name == "accept":
            verb.add_argument("--name", default="", help="your display name in the game")

    revoke = sub.add_parser("revoke", parents=[common],
                            help="host: withdraw an invitation or link still open")
    revoke.add_argument("invitation",
                        help="GAME/INVITATION as `risk invitations GAME` prints it, or a "
                             "link's code")

    feed = sub.add_parser("feed", parents=[common],
                          help="follow everything that concerns you across your games",
                          description="One line per event of your player stream: a game "
                                      "started, your turn and its deadline, an invitation, a "
                                      "game ended. Resumes by itself after a lost connection, "
                                      "with no event skipped or repeated; Ctrl-C stops.")
    feed.add_argument("--after", type=int, default=0, metavar="SEQ",
                      help="start after this event number (each line begins with its #SEQ)")
    feed.add_argument("--count", type=int, default=0, metavar="N",
                      help="stop after N events (default: follow until Ctrl-C)")

    invitations = sub.add_parser("invitations", parents=[common],
                                 help="your pending invitations; with GAME, its invitations "
                                      "(host)")
    invitations.add_argument("game", nargs="?", default="", help="a game you host")

    vacation = sub.add_parser("vacation", parents=[common],
                              help="stop your clocks in a correspondence game for some days")
    verbs = vacation.add_subparsers(dest="vacation_command", required=True, metavar="ACTION")
    start = verbs.add_parser("start", parents=[common], help="go on vacation")
    start.add_argument("game", help=_GAME_HELP)
    start.add_argument("days", type=int, help="whole days, at least 1")
    end = verbs.add_parser("end", parents=[common], help="come back early")
    end.add_argument("game", help=_GAME_HELP)


def clock_options(create: argparse.ArgumentParser) -> None:
    """`risk create`'s correspondence-clock and player-seat options."""
    turn = create.add_mutually_exclusive_group()
    turn.add_argument("--turn-hours", type=float,
                      help="correspondence: each turn must be taken within this many hours "
                           "(1 to 720)")
    turn.add_argument("--turn-days", type=float,
                      help="correspondence: each turn must be taken within this many days "
                           "(1/24 to 30)")
    create.add_argument("--vacation-days", type=int,
                        help="correspondence: days of vacation each seat may take (0 to 60)")
    create.add_argument("--missed-turns", type=int, metavar="K",
                        help="correspondence: after K turns missed in a row, --on-missed "
                             "(1 to 10)")
    create.add_argument("--on-missed", choices=ON_MISSED,
                        help="with --missed-turns: remove the seat (default) or let a bot "
                             "play it")
    create.add_argument("--seat-player", action="append", default=[], dest="seat_players",
                        metavar="PLAYER",
                        help="the player a seat belongs to (repeat, in seat order; '' for "
                             "none): it is theirs at once")
