"""`risk`: the command line over the SDK (create, join, list, show, legal, submit, watch, demo).

Every subcommand takes `--target` (env RISK_TARGET) and `--token` (env RISK_TOKEN), before or
after its name. Service errors print as `error: CODE/REASON: message` and exit 1; a command
line the parser or the action grammar rejects, and a file that cannot be read or written,
exit 2 with one line saying what is wrong. Variants are named as the contract spells them
(`deep_space`), taken from the variant descriptors this build has: none is listed here.
A command family in a module of its own (`risk campaign ...`: campaign_cli.py) registers its
parsers and adds its handler to `_COMMANDS` from `build_parser`, one line here.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TextIO

from google.protobuf.message import DecodeError

from risk_client import campaign_cli
from risk_client.action_words import command_any, words_for
from risk_client.actions import trade_bonus
from risk_client.bots import play_seat
from risk_client.client import DEFAULT_TARGET, RiskClient
from risk_client.errors import RiskError
from risk_client.options import (
    FORTIFY_MODES,
    SETUP_MODES,
    TRADE_SCHEDULES,
    classic_options,
    variant_options,
)
from risk_client.render import (
    STATUS_NAMES,
    VARIANT_NAMES,
    Seats,
    decision_words,
    describe_legal,
    event_line,
    game_text,
    outcome_text,
    plural,
)
from risk_client.watching import CLEAR_SCREEN, watch
from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_rules import audit
from risk_rules.engine.core.bots import DEFAULT_LEVEL, LEVELS

__all__ = ["CLEAR_SCREEN", "build_parser", "main", "options_from_args", "resolve_common"]
_VARIANTS = {name: value for value, name in VARIANT_NAMES.items() if value}
# commands that act for a seat: without a token they cannot do anything
_SEAT_COMMANDS = frozenset({"legal", "submit", "resign"})
_DEMO_MAX_TURNS = 60  # a demo ends in minutes; the variants' own caps are in the hundreds
_STATUSES = {name: value for value, name in STATUS_NAMES.items() if value}


# ---- arguments -------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    # The shared options use SUPPRESS so a value given after the subcommand is not overwritten
    # by the main parser's default; `resolve_common` fills in the environment afterwards.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--target", default=argparse.SUPPRESS,
        help=f"service address host:port (env RISK_TARGET, default {DEFAULT_TARGET})",
    )
    common.add_argument(
        "--token", default=argparse.SUPPRESS,
        help="credential: a seat or host token (env RISK_TOKEN; none: spectator)",
    )
    common.add_argument(
        "--color", choices=("auto", "always", "never"), default=argparse.SUPPRESS,
        help="colour the board (default auto: when writing to a terminal)",
    )
    parser = argparse.ArgumentParser(
        prog="risk", parents=[common],
        description="Play and watch games on a risk.v1 game service.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    create = sub.add_parser("create", parents=[common], help="create a game")
    create.add_argument("--variant", choices=sorted(_VARIANTS), default="classic",
                        help="which game (default classic)")
    _game_options(create)
    create.add_argument("--seed", type=int, help="fixed seed for a reproducible game")
    create.add_argument("--name", action="append", default=[], dest="names",
                        help="a seat's display name (repeat, in seat order)")

    join = sub.add_parser("join", parents=[common], help="take a seat; prints its token")
    join.add_argument("game", help=_GAME_HELP)
    join.add_argument("seat", type=int, help="the seat to take, 0 to players-1")
    join.add_argument("--name", default="", help="display name")

    listing = sub.add_parser("list", parents=[common], help="list games, newest first")
    listing.add_argument("--variant", choices=sorted(_VARIANTS), help="only this variant")
    listing.add_argument("--status", choices=sorted(_STATUSES), help="only games in this status")
    listing.add_argument("--page-size", type=int, default=0,
                         help="show one page of at most this many games (default: all)")
    listing.add_argument("--page-token", default="",
                         help="the page after the one that printed this token")

    show = sub.add_parser("show", parents=[common], help="show a game's board")
    show.add_argument("game", help=_GAME_HELP)

    legal = sub.add_parser("legal", parents=[common], help="list your seat's legal actions")
    legal.add_argument("game", help=_GAME_HELP)

    submit = sub.add_parser(
        "submit", parents=[common], help="submit an action for your seat",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_submit_epilog(),
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

    demo = sub.add_parser("demo", parents=[common],
                          help="bots play a game through the service")
    demo.add_argument("--variant", choices=sorted(_VARIANTS), default="classic",
                      help="which game (default classic)")
    demo.add_argument("--players", type=int, default=4, help="bots, one per seat (default 4)")
    demo.add_argument("--seed", type=int, help="fixed seed for a reproducible game")
    demo.add_argument("--watch", action="store_true", help="show the live board meanwhile")
    demo.add_argument("--plain", action="store_true", help="with --watch: one line per event")
    demo.add_argument("--delay", type=float, default=0.0, metavar="SECONDS",
                      help="with --watch: each bot waits this long before it acts, so a "
                           "person can follow (default 0: full speed)")
    demo.add_argument("--max-turns", type=int, default=_DEMO_MAX_TURNS,
                      help=f"turn cap before a ranked draw (default {_DEMO_MAX_TURNS})")
    demo.add_argument("--level", action="append", choices=LEVELS, dest="levels",
                      help="the bots' level (random, greedy or planner; default greedy); "
                           "repeat it to give each seat its own, in seat order")
    campaign_cli.register(sub, common, _COMMANDS)  # `risk campaign ...`: campaign_cli.py
    return parser


_GAME_HELP = "the game id (`risk create` prints it)"


def _submit_epilog() -> str:
    """Every variant's verbs, so `risk submit --help` is the whole grammar."""
    parts = ["actions, as `risk legal` prints them (names in any case, or ids):"]
    for name in sorted(_VARIANTS):
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
    """Fill --target and --token from the environment (then the defaults) when not given."""
    env = os.environ if environ is None else environ
    if getattr(args, "target", None) is None:
        args.target = env.get("RISK_TARGET") or DEFAULT_TARGET
    if getattr(args, "token", None) is None:
        args.token = env.get("RISK_TOKEN") or None
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


def use_colour(choice: str, stream: TextIO) -> bool:
    if choice != "auto":
        return choice == "always"
    return stream.isatty() and os.environ.get("TERM") != "dumb" and "NO_COLOR" not in os.environ


# ---- commands --------------------------------------------------------------------------------


def _out(text: str = "") -> None:
    print(text, flush=True)


async def cmd_create(client: RiskClient, args: argparse.Namespace) -> int:
    summary, host_token = await client.create_game(
        options_from_args(args), seed=args.seed, seat_names=args.names
    )
    seats = len(summary.seats)
    _out(f"game {summary.game_id}")
    _out(f"host-token {host_token}")
    _out(f"next: take all {seats} seats, each with `risk join {summary.game_id} SEAT` "
         f"(SEAT 0 to {seats - 1}; each prints that seat's token); the game starts when the "
         "last seat is taken, and `risk show` then says whose decision it is")
    return 0


async def cmd_join(client: RiskClient, args: argparse.Namespace) -> int:
    _out(await client.join_game(args.game, args.seat, args.name))
    return 0


async def _listed(client: RiskClient, args: argparse.Namespace
                  ) -> AsyncIterator[service_pb2.GameSummary | str]:
    """The games `list` shows: every page, or with --page-size the one page asked for and
    then the token of the next (a str)."""
    variant = _VARIANTS[args.variant] if args.variant else 0
    status = _STATUSES[args.status] if args.status else 0
    if not args.page_size and not args.page_token:
        async for game in client.iter_games(variant, status):
            yield game
        return
    page = await client.list_games(variant, status, args.page_size, args.page_token)
    for game in page.games:
        yield game
    if page.next_page_token:
        yield page.next_page_token


async def cmd_list(client: RiskClient, args: argparse.Namespace) -> int:
    count = 0
    more = ""
    async for game in _listed(client, args):
        if isinstance(game, str):
            more = game
            continue
        if not count:  # the header waits for the first answer, so a failed call prints none
            _out(f"{'GAME':<28} {'VARIANT':<10} {'STATUS':<10} {'SEATS':>5} {'VERSION':>8}  "
                 "UPDATED")
        taken = sum(1 for s in game.seats if s.taken)
        updated = datetime.fromtimestamp(game.updated_at_ms / 1000, UTC).strftime(
            "%Y-%m-%d %H:%M:%S"
        )
        _out(
            f"{game.game_id:<28} {VARIANT_NAMES.get(game.variant, '?'):<10} "
            f"{STATUS_NAMES.get(game.status, '?'):<10} {f'{taken}/{len(game.seats)}':>5} "
            f"{game.version:>8}  {updated}"
        )
        count += 1
    _out(f"({plural(count, 'game')})")
    if more:
        filters = "".join(f" --{name} {getattr(args, name)}" for name in ("variant", "status")
                          if getattr(args, name))
        _out(f"next page: risk list{filters} --page-size {args.page_size or 50} "
             f"--page-token {more}")
    return 0


async def cmd_show(client: RiskClient, args: argparse.Namespace) -> int:
    game = await client.get_game(args.game)
    width = shutil.get_terminal_size((100, 40)).columns
    _out(game_text(game, colour=use_colour(args.color, sys.stdout), width=width))
    return 0


async def cmd_legal(client: RiskClient, args: argparse.Namespace) -> int:
    legal = await client.legal_actions(args.game)
    if not legal.actions:
        game = await client.get_game(args.game)
        seats = Seats.of(game.game)
        if game.game.status == service_pb2.GAME_STATUS_WAITING:
            taken = sum(1 for seat in game.game.seats if seat.taken)
            _out(f"the game has not started: {taken} of {len(game.game.seats)} seats taken; it "
                 f"starts when every seat is (`risk join {args.game} SEAT`)")
            return 0
        _out(f"nothing to do for {seats.label(legal.seat)} now; {decision_words(game.game, seats)}")
        return 0
    _out(f"version {legal.version}, {legal.decision.kind.replace('_', ' ')}; "
         f"submit one with `risk submit {args.game} ACTION`:")
    width = len(str(len(legal.actions)))
    words = [describe_legal(entry) for entry in legal.actions]
    column = min(60, max(len(w) for w in words))
    for number, (entry, text) in enumerate(zip(legal.actions, words, strict=True), start=1):
        command = command_any(entry.action, entry.max_count)
        _out(f"{number:>{width}}. {text:<{column}}   [{command}]")
    return 0


def _same_cards(a: game_pb2.Action, b: game_pb2.Action) -> bool:
    return (
        a.classic.HasField("trade_cards") and b.classic.HasField("trade_cards")
        and list(a.classic.trade_cards.cards) == list(b.classic.trade_cards.cards)
    )


async def cmd_submit(client: RiskClient, args: argparse.Namespace) -> int:
    before = await client.get_game(args.game)
    variant = VARIANT_NAMES.get(before.game.variant, "")
    grammar = words_for(variant)
    if grammar is None:
        raise ValueError(f"this client has no action words for variant {variant or '?'}")
    action = grammar.parse(args.action)
    version = args.expected_version
    is_plain_trade = (
        action.classic.HasField("trade_cards") and trade_bonus(action.classic.trade_cards) < 0
    )
    if version is None or is_plain_trade:
        legal = await client.legal_actions(args.game)
        if version is None:
            version = legal.version
        if is_plain_trade:
            # the +2 bonus must be named when one is due; take the first the rules offer
            offered = [e.action for e in legal.actions if _same_cards(e.action, action)]
            if offered and not any(trade_bonus(o.classic.trade_cards) < 0 for o in offered):
                action = offered[0]
                _out(f"(trading with the +2 bonus: {grammar.command(action)})")
    reply = await client.submit_action(args.game, action, version, args.request_id)
    game = await client.get_game(args.game)
    seats = Seats.of(game.game)
    _out(f"ok: version {reply.version}")
    for event in reply.events:
        _out("  " + event_line(event, seats))
    if reply.HasField("outcome"):
        _out("outcome: " + outcome_text(reply.outcome, seats))
    else:
        _out(decision_words(game.game, seats))
    return 0


async def cmd_watch(client: RiskClient, args: argparse.Namespace) -> int:
    game = await watch(
        client, args.game, after=args.after, plain=args.plain,
        colour=use_colour(args.color, sys.stdout), target=args.target,
    )
    _print_outcome(game)
    return 0


def _print_outcome(game: service_pb2.GetGameResponse) -> None:
    seats = Seats.of(game.game)
    if game.game.HasField("outcome"):
        _out(f"outcome: {outcome_text(game.game.outcome, seats)} "
             f"(game {game.game.game_id} at version {game.game.version})")
    else:
        status = STATUS_NAMES.get(game.game.status, "?")
        _out(f"game {game.game.game_id} is {status} with no outcome")


class _PacedClient(RiskClient):
    """A client that waits `pace` seconds before each action it submits: `demo --delay`, so
    a person watching can follow the bots. Its seat views (`with_token`) pace too."""

    pace = 0.0

    def with_token(self, token: str | None) -> RiskClient:
        view = super().with_token(token)
        view.__class__ = _PacedClient  # the same fields: only the submit below differs
        view.pace = self.pace  # type: ignore[attr-defined]
        return view

    async def submit_action(self, *args: Any, **kwargs: Any) -> service_pb2.SubmitActionResponse:
        await asyncio.sleep(self.pace)
        return await super().submit_action(*args, **kwargs)


async def cmd_demo(client: RiskClient, args: argparse.Namespace) -> int:
    options = variant_options(
        args.variant, players=args.players, max_turns=args.max_turns,
        auto_defend_max_dice=True if args.variant in ("classic", "legacy") else None,
    )
    summary, host_token = await client.create_game(options, seed=args.seed)
    seats = [s.seat for s in summary.seats]
    tokens = [await client.join_game(summary.game_id, seat, f"bot {seat}") for seat in seats]
    _out(f"game {summary.game_id}: {len(seats)} bots playing {args.variant}")
    _out(f"host-token {host_token}")
    for seat, token in zip(seats, tokens, strict=True):
        _out(f"seat {seat} token {token}")
    _out(f"(once over: risk --token {host_token} export {summary.game_id})")
    bots = client.with_token(None)
    if args.delay > 0:
        bots.__class__ = _PacedClient
        bots.pace = args.delay  # type: ignore[attr-defined]
    entropy = args.seed or 0
    levels = args.levels or ()
    try:
        async with asyncio.TaskGroup() as group:
            if args.watch:
                group.create_task(watch(client.with_token(None), summary.game_id,
                                        plain=args.plain, target=args.target,
                                        colour=use_colour(args.color, sys.stdout)))
            for seat, token in zip(seats, tokens, strict=True):
                level = levels[min(seat, len(levels) - 1)] if levels else DEFAULT_LEVEL
                group.create_task(play_seat(bots, summary.game_id, token, entropy + seat,
                                            level=level))
    except ExceptionGroup as failed:
        raise failed.exceptions[0] from failed  # one bot's error says more than the group
    _print_outcome(await client.with_token(host_token).get_game(summary.game_id))
    return 0


async def cmd_start(client: RiskClient, args: argparse.Namespace) -> int:
    reply = await client.start_game(args.game)
    _out(f"game {reply.game_id} started; version {reply.version}")
    return 0


async def cmd_cancel(client: RiskClient, args: argparse.Namespace) -> int:
    reply = await client.cancel_game(args.game)
    _out(f"game {reply.game_id} cancelled")
    return 0


async def cmd_resign(client: RiskClient, args: argparse.Namespace) -> int:
    reply = await client.resign(args.game)
    _out(f"resigned; game at version {reply.version}")
    return 0


async def cmd_reissue(client: RiskClient, args: argparse.Namespace) -> int:
    _out(await client.reissue_seat_token(args.game, args.seat))
    return 0


class FileMistake(Exception):
    """A file the command cannot read or write: said in one line, exit 2."""


def _file_words(error: OSError) -> str:
    return (error.strerror or str(error)).lower()


def export_folder(environ: Mapping[str, str] | None = None) -> str:
    """Where `export` writes without a file named: a data folder of the user's, never the
    directory the command happens to run in (a checkout, usually)."""
    env = os.environ if environ is None else environ
    if env.get("RISK_EXPORT_DIR"):
        return env["RISK_EXPORT_DIR"]
    data = env.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "risk", "exports")


async def cmd_export(client: RiskClient, args: argparse.Namespace) -> int:
    path = args.file
    if not path:
        os.makedirs(export_folder(), exist_ok=True)
        path = os.path.join(export_folder(), f"{args.game}.export")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):  # say so before asking the service for the whole game
        raise FileMistake(f"cannot write {path}: no directory {folder}")
    export = await client.export_game(args.game)
    try:
        with open(path, "wb") as out:
            out.write(export.SerializeToString(deterministic=True))
    except OSError as exc:
        raise FileMistake(f"cannot write {path}: {_file_words(exc)}") from None
    _out(f"wrote {path}: {len(export.log)} changes, {len(export.events)} events, "
         f"fingerprint {export.chain[-1].hex() if export.chain else '-'}")
    return 0


def read_export(path: str) -> service_pb2.GameExport:
    """The GameExport in the file at `path`; a missing, unreadable or foreign file is a
    `FileMistake` naming what is wrong."""
    try:
        with open(path, "rb") as source:
            data = source.read()
    except OSError as exc:
        raise FileMistake(f"cannot read {path}: {_file_words(exc)}") from None
    try:
        export = service_pb2.GameExport.FromString(data)
    except DecodeError:
        export = None
    if export is None or not export.game_id or not export.log:
        raise FileMistake(f"{path} is not a game export (write one with `risk export GAME "
                          "FILE`)")
    return export


async def cmd_verify(client: RiskClient, args: argparse.Namespace) -> int:
    del client  # verification needs no service: the rules replay the export locally
    export = read_export(args.file)
    try:
        verified = audit.verify(export)
    except audit.VerificationError as exc:
        print(f"verify: REJECTED game {export.game_id}: {exc}", file=sys.stderr)
        return 1
    _out(f"verify: OK game {export.game_id}: {verified.actions} actions and "
         f"{verified.events} events replay exactly; fingerprint {verified.head.hex()}")
    return 0


_COMMANDS = {
    "start": cmd_start,
    "cancel": cmd_cancel,
    "resign": cmd_resign,
    "reissue": cmd_reissue,
    "export": cmd_export,
    "verify": cmd_verify,
    "create": cmd_create,
    "join": cmd_join,
    "list": cmd_list,
    "show": cmd_show,
    "legal": cmd_legal,
    "submit": cmd_submit,
    "watch": cmd_watch,
    "demo": cmd_demo,
}



_TOKEN_HINT = "set RISK_TOKEN or pass --token (`risk join GAME SEAT` prints a seat's token)"


async def run(args: argparse.Namespace) -> int:
    command = getattr(args, "func", None) or _COMMANDS[args.command]
    async with RiskClient(args.target, args.token) as client:
        result: int = await command(client, args)
        return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    resolve_common(args)
    if args.command in _SEAT_COMMANDS and not args.token:
        print(f"risk {args.command}: this acts for a seat and needs its token: {_TOKEN_HINT}",
              file=sys.stderr)
        return 2
    try:
        return asyncio.run(run(args))
    except RiskError as exc:
        hint = f"; {_TOKEN_HINT}" if exc.reason == "MISSING_CREDENTIALS" else ""
        print(f"error: {exc}{hint}", file=sys.stderr)
        return 1
    except (ValueError, FileMistake) as exc:
        print(f"risk {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`risk legal G | head`); say nothing more on a closed pipe
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
