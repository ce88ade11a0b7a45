"""`risk`: the command line over the SDK (create, join, list, show, legal, submit, watch, demo).

Every subcommand takes `--target` (env RISK_TARGET) and `--token` (env RISK_TOKEN), before or
after its name. Service errors print as `error: CODE/REASON: message` and exit 1; a command
line the parser or the action grammar rejects, and a file that cannot be read or written,
exit 2 with one line saying what is wrong. Variants are named as the contract spells them
(`deep_space`), taken from the variant descriptors this build has: none is listed here.

This module is the parser only: it imports what the options and their help need (protobuf
enums, the variants' names) and nothing of the SDK, gRPC or the engines, which cli_commands.py
imports once a command is to run, so `risk --help`, a mistyped command line and every
command's start pay only for what they use; of the parsers `build_parser` declares, only the
command's own is built (lazy_epilog.py). A command family in a module of its own (`risk
campaign ...`) registers its parsers from `build_parser` (campaign_parser.py) and its handler
in cli_commands.py's table.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import sys
from collections.abc import Sequence

from risk_client import (
    campaign_parser,
    credentials,
    match_parser,
    player_parser,
    rating_parser,
    tournament_parser,
)
from risk_client.address import DEFAULT_TARGET
from risk_client.lazy_epilog import LazyEpilogParser, LazySubParsersAction
from risk_client.options import (
    FORTIFY_MODES,
    SETUP_MODES,
    TRADE_SCHEDULES,
    classic_options,
    variant_options,
)
from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_rules import variants
from risk_rules.engine.core.bots import LEVELS

__all__ = ["DEMO_MAX_TURNS", "STATUSES", "VARIANTS", "build_parser", "main",
           "options_from_args", "resolve_common"]
# the variants and game statuses by the names the command line takes
VARIANTS = variants.numbers()
STATUSES = {name.removeprefix("GAME_STATUS_").lower(): value
            for name, value in service_pb2.GameStatus.items() if value}
# commands that act for a seat: without a token they cannot do anything
_SEAT_COMMANDS = frozenset({"legal", "submit", "resign"})
DEMO_MAX_TURNS = 60  # a demo ends in minutes; the variants' own caps are in the hundreds


# ---- arguments -------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    # The shared options use SUPPRESS so a value given after the subcommand is not overwritten
    # by the main parser's default; `resolve_common` fills in the environment afterwards.
    common = LazyEpilogParser(add_help=False)
    common.add_argument(
        "--target", default=argparse.SUPPRESS,
        help=f"service address host:port (env RISK_TARGET, default {DEFAULT_TARGET})",
    )
    common.add_argument(
        "--token", default=argparse.SUPPRESS,
        help="credential: a seat, host or player token (env RISK_TOKEN; else the player "
             "`risk login` stored; none: spectator)",
    )
    common.add_argument(
        "--color", choices=("auto", "always", "never"), default=argparse.SUPPRESS,
        help="colour the board (default auto: when writing to a terminal)",
    )
    parser = LazyEpilogParser(
        prog="risk", parents=[common],
        description="Play and watch games on a risk.v1 game service.",
    )
    # each command's parser is built when it is parsed (lazy_epilog.py): one command runs
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                action=LazySubParsersAction)

    create = sub.add_parser("create", parents=[common], help="create a game")
    create.add_argument("--variant", choices=sorted(VARIANTS), default="classic",
                        help="which game (default classic)")
    _game_options(create)
    create.add_argument("--seed", type=int, help="fixed seed for a reproducible game")
    create.add_argument("--name", action="append", default=[], dest="names",
                        help="a seat's display name (repeat, in seat order)")
    create.add_argument("--rated", action="store_true",
                        help="a rated game: its end updates the players' ratings; its seats "
                             "are taken by logged-in players only (docs/ratings.md)")
    player_parser.clock_options(create)

    join = sub.add_parser("join", parents=[common], help="take a seat; prints its token")
    join.add_argument("game", help=_GAME_HELP)
    join.add_argument("seat", type=int, help="the seat to take, 0 to players-1")
    join.add_argument("--name", default="", help="display name")

    listing = sub.add_parser("list", parents=[common], help="list games, newest first")
    listing.add_argument("--variant", choices=sorted(VARIANTS), help="only this variant")
    listing.add_argument("--status", choices=sorted(STATUSES), help="only games in this status")
    listing.add_argument("--page-size", type=int, default=0,
                         help="show one page of at most this many games (default: all)")
    listing.add_argument("--page-token", default="",
                         help="the page after the one that printed this token")
    listing.add_argument("--tournament", default="",
                         help="only the games of this tournament (`risk round`'s label)")
    listing.add_argument("--round", type=int, help="with --tournament: only this round")

    show = sub.add_parser("show", parents=[common], help="show a game's board")
    show.add_argument("game", help=_GAME_HELP)

    legal = sub.add_parser("legal", parents=[common], help="list your seat's legal actions")
    legal.add_argument("game", help=_GAME_HELP)

    submit = sub.add_parser(
        "submit", parents=[common], help="submit an action for your seat",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog_from=_submit_epilog,
    )
    submit.add_argument("game", help=_GAME_HELP)
    submit.add_argument(
        "action", nargs="+",
        help="the action's words as `risk legal` prints them, e.g. attack Alaska Kamchatka 3"
    )
    submit.add_argument("--expected-version", type=int,
                        help="submit against this version instead of the current one")
    submit.add_argument("--request-id", help="idempotency key (default: a fresh uuid4)")

    watch = sub.add_parser("watch", parents=[common], help="follow a game live")
    watch.add_argument("game", help=_GAME_HELP)
    watch.add_argument("--after", type=int, default=0, metavar="SEQ",
                       help="start after this event (default: the whole game)")
    watch.add_argument("--plain", action="store_true",
                       help="one line per event instead of the live board")

    for name, text in (("start", "host: start a game whose seats are all taken"),
                       ("cancel", "host: cancel a game that has not started"),
                       ("resign", "leave the game with your seat")):
        sub.add_parser(name, parents=[common], help=text).add_argument("game", help=_GAME_HELP)
    reissue = sub.add_parser("reissue", parents=[common],
                             help="host: a new token for a seat; prints it")
    reissue.add_argument("game", help=_GAME_HELP)
    reissue.add_argument("seat", type=int, help="the seat whose token is replaced")
    export = sub.add_parser("export", parents=[common],
                            help="write a finished game's audit export to a file")
    export.add_argument("game", help=_GAME_HELP)
    export.add_argument("file", nargs="?",
                        help="where to write the risk.v1.GameExport bytes (default: "
                             "GAME.export in $RISK_EXPORT_DIR, else "
                             "$XDG_DATA_HOME/risk/exports, else ~/.local/share/risk/exports)")
    verify = sub.add_parser("verify", parents=[common],
                            help="replay an audit export through the rules and check it")
    verify.add_argument("file", help="an export written by `risk export`")
    verify.add_argument("--key", metavar="FILE_OR_URL",
                        help="check the export's signature with the deployment's published "
                             "keys: its HTTP port's URL (or the JWKS URL), a saved JWKS file "
                             "or a PEM Ed25519 public key")
    verify.add_argument("--require-signature", action="store_true",
                        help="with --key: reject an export that is not signed")

    demo = sub.add_parser("demo", parents=[common],
                          help="bots play a game through the service")
    demo.add_argument("--variant", choices=sorted(VARIANTS), default="classic",
                      help="which game (default classic)")
    demo.add_argument("--players", type=int, default=4, help="bots, one per seat (default 4)")
    demo.add_argument("--seed", type=int, help="fixed seed for a reproducible game")
    demo.add_argument("--watch", action="store_true", help="show the live board meanwhile")
    demo.add_argument("--plain", action="store_true", help="with --watch: one line per event")
    demo.add_argument("--delay", type=float, default=0.0, metavar="SECONDS",
                      help="with --watch: each bot waits this long before it acts, so a "
                           "person can follow (default 0: full speed)")
    demo.add_argument("--max-turns", type=int, default=DEMO_MAX_TURNS,
                      help=f"turn cap before a ranked draw (default {DEMO_MAX_TURNS})")
    demo.add_argument("--level", action="append", choices=LEVELS, dest="levels",
                      help="the bots' level (random, greedy or planner; default greedy); "
                           "repeat it to give each seat its own, in seat order")
    campaign_parser.register(sub, common)  # `risk campaign ...`: campaign_parser.py
    player_parser.register(sub, common, sorted(STATUSES))  # login, games --mine, ...
    # `risk round`: tournament_parser.py
    tournament_parser.register(sub, common, _game_options, sorted(VARIANTS))
    tournament_parser.register_events(sub, common, _game_options, sorted(VARIANTS))
    match_parser.register(sub, common, sorted(VARIANTS))  # `risk play`: match_parser.py
    # `risk rating`, `risk leaderboard`: rating_parser.py
    rating_parser.register(sub, common, sorted(VARIANTS))
    return parser


_GAME_HELP = "the game id (`risk create` prints it)"


def _submit_epilog() -> str:
    """Every variant's verbs, so `risk submit --help` is the whole grammar."""
    from risk_client.action_words import words_for  # noqa: PLC0415 - only for help

    parts = ["actions, as `risk legal` prints them (names in any case, or ids):"]
    for name in sorted(VARIANTS):
        words = words_for(name)
        if words is not None:
            parts += ["", f"{name}:", words.usage()]
    return "\n".join(parts)


def _game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, help="seats (the variant's range; default 4)")
    parser.add_argument("--auto-defend", action="store_true",
                        help="classic, legacy: defenders roll their most dice without being "
                             "asked")
    parser.add_argument("--setup", choices=sorted(SETUP_MODES),
                        help="classic: claim territories in turn, or deal them at random")
    parser.add_argument("--auto-place", action="store_true",
                        help="with random-deal (or 2 players): spread starting armies at random")
    parser.add_argument("--trade-schedule", choices=sorted(TRADE_SCHEDULES),
                        help="classic: what traded card sets are worth")
    parser.add_argument("--fortify", choices=sorted(FORTIFY_MODES),
                        help="classic: fortify along connected territories or adjacent only")
    parser.add_argument("--no-cards", action="store_true",
                        help="classic: play without territory cards")
    parser.add_argument("--auto-pass", action="store_true",
                        help="strike: pass for a seat with nothing it could play (this tells "
                             "the others so)")
    parser.add_argument("--max-turns", type=int, help="turn cap before a ranked draw")


def resolve_common(args: argparse.Namespace, environ: dict[str, str] | None = None) -> None:
    """Fill --target and --token from the environment, then the stored login (`risk login`),
    then the defaults, when not given. The stored token goes only to the service it is for;
    `args.login` is the stored login (or None), `args.logged_in` says the token is its."""
    env = os.environ if environ is None else environ
    login = credentials.load(env)
    args.login = login
    if getattr(args, "target", None) is None:
        args.target = env.get("RISK_TARGET") or (login.target if login else DEFAULT_TARGET)
    args.logged_in = False
    if getattr(args, "token", None) is None:
        args.token = env.get("RISK_TOKEN") or None
        if args.token is None and login is not None and login.target == args.target:
            args.token = login.token
            args.logged_in = True
    if getattr(args, "color", None) is None:
        args.color = "auto"


_CLASSIC_FLAGS = ("setup", "auto_place", "trade_schedule", "fortify", "no_cards")


def options_from_args(args: argparse.Namespace) -> game_pb2.GameOptions:
    variant = getattr(args, "variant", "classic")
    if variant != "classic":  # the other variants take their defaults but for these
        given = [f"--{f.replace('_', '-')}" for f in _CLASSIC_FLAGS if getattr(args, f, None)]
        if given:
            raise ValueError(f"{', '.join(given)}: classic only, not {variant}")
        return variant_options(variant, players=args.players, max_turns=args.max_turns,
                               auto_defend_max_dice=True if args.auto_defend else None,
                               auto_pass=True if args.auto_pass else None)
    if args.auto_pass:
        raise ValueError("--auto-pass: strike only, not classic")
    return classic_options(
        players=args.players,
        setup=args.setup,
        auto_place=True if args.auto_place else None,
        trade_schedule=args.trade_schedule,
        fortify=args.fortify,
        auto_defend_max_dice=True if args.auto_defend else None,
        cards=False if args.no_cards else None,
        max_turns=args.max_turns,
    )


_TOKEN_HINT = ("set RISK_TOKEN or pass --token (`risk join GAME SEAT` prints a seat's token), "
               "or `risk login` as a player")


def main(argv: Sequence[str] | None = None) -> int:
    # When the process exits, the interpreter's last garbage collections walk every object the
    # imports made (gRPC, protobuf, the engines) and free them one by one: some 30 ms of CPU,
    # a fifth of a short command's, for memory the process is giving back anyway. Frozen
    # (gc.freeze) at exit they are left to the exit; the other atexit handlers, the flush of
    # stdout and stderr and the exit status are as before.
    atexit.register(gc.freeze)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        resolve_common(args)
    except credentials.CredentialsMistake as exc:
        print(f"risk {args.command}: {exc}", file=sys.stderr)
        return 2
    if args.command in _SEAT_COMMANDS and not args.token:
        print(f"risk {args.command}: this acts for a seat and needs its token: {_TOKEN_HINT}",
              file=sys.stderr)
        return 2
    # the SDK, gRPC and the engines, imported only now that a command runs
    import asyncio  # noqa: PLC0415 - gRPC's, so imported with it

    from risk_client.cli_commands import FileMistake, run  # noqa: PLC0415
    from risk_client.errors import RiskError  # noqa: PLC0415

    try:
        return asyncio.run(run(args))
    except RiskError as exc:
        from risk_client.text import error_text  # noqa: PLC0415 - the text table, for errors

        hint = f"; {_TOKEN_HINT}" if exc.reason == "MISSING_CREDENTIALS" else ""
        # the text table's sentence for the reason, then the status and reason for scripts
        said = f"{error_text(exc.reason)} ({exc})" if exc.reason else str(exc)
        print(f"error: {said}{hint}", file=sys.stderr)
        return 1
    except (ValueError, FileMistake, credentials.CredentialsMistake) as exc:
        print(f"risk {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`risk legal G | head`); say nothing more on a closed pipe
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
