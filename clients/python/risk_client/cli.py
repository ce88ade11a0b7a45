"""`risk`: the command line over the SDK (create, join, list, show, legal, submit, watch, demo).

Every subcommand takes `--target` (env RISK_TARGET) and `--token` (env RISK_TOKEN), before or
after its name. Service errors print as `error: CODE/REASON: message` and exit 1; a command
line the parser or the action grammar rejects exits 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import sys
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TextIO

from risk_client.actions import USAGE, action_command, parse_action, trade_bonus
from risk_client.bots import is_over, play_game
from risk_client.client import DEFAULT_TARGET, RiskClient
from risk_client.errors import RiskError, Unavailable
from risk_client.options import FORTIFY_MODES, SETUP_MODES, TRADE_SCHEDULES, classic_options
from risk_client.render import (
    STATUS_NAMES,
    VARIANT_NAMES,
    Seats,
    decision_words,
    describe_legal,
    event_line,
    game_text,
    is_game_end,
    outcome_text,
    plural,
)
from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_rules import audit

CLEAR_SCREEN = "\x1b[H\x1b[2J"
LOG_LINES_MIN = 5
FRAME_SECONDS = 0.05
IDLE_REDRAW_SECONDS = 5.0
_VARIANTS = {name: value for value, name in VARIANT_NAMES.items() if value}
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
    create.add_argument("--variant", choices=("classic", "deep_space", "strike"),
                        default="classic", help="which game (default classic)")
    _game_options(create)
    create.add_argument("--seed", type=int, help="fixed seed for a reproducible game")
    create.add_argument("--name", action="append", default=[], dest="names",
                        help="a seat's display name (repeat, in seat order)")

    join = sub.add_parser("join", parents=[common], help="take a seat; prints its token")
    join.add_argument("game")
    join.add_argument("seat", type=int)
    join.add_argument("--name", default="", help="display name")

    listing = sub.add_parser("list", parents=[common], help="list games, newest first")
    listing.add_argument("--variant", choices=sorted(_VARIANTS))
    listing.add_argument("--status", choices=sorted(_STATUSES))
    listing.add_argument("--page-size", type=int, default=0)

    show = sub.add_parser("show", parents=[common], help="show a game's board")
    show.add_argument("game")

    legal = sub.add_parser("legal", parents=[common], help="list your seat's legal actions")
    legal.add_argument("game")

    submit = sub.add_parser(
        "submit", parents=[common], help="submit an action for your seat",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="actions (territory names in any case, or ids 0..41):\n" + USAGE,
    )
    submit.add_argument("game")
    submit.add_argument(
        "action", nargs="+", help="the action's words, e.g. attack Alaska Kamchatka 3"
    )
    submit.add_argument("--expected-version", type=int,
                        help="submit against this version instead of the current one")
    submit.add_argument("--request-id", help="idempotency key (default: a fresh uuid4)")

    watch = sub.add_parser("watch", parents=[common], help="follow a game live")
    watch.add_argument("game")
    watch.add_argument("--after", type=int, default=0, metavar="SEQ",
                       help="start after this event (default: the whole game)")
    watch.add_argument("--plain", action="store_true",
                       help="one line per event instead of the live board")

    for name, text in (("start", "host: start a game whose seats are all taken"),
                       ("cancel", "host: cancel a game that has not started"),
                       ("resign", "leave the game with your seat")):
        sub.add_parser(name, parents=[common], help=text).add_argument("game")
    reissue = sub.add_parser("reissue", parents=[common],
                             help="host: a new token for a seat; prints it")
    reissue.add_argument("game")
    reissue.add_argument("seat", type=int)
    export = sub.add_parser("export", parents=[common],
                            help="write a finished game's audit export to a file")
    export.add_argument("game")
    export.add_argument("file", help="where to write the risk.v1.GameExport bytes")
    verify = sub.add_parser("verify", parents=[common],
                            help="replay an audit export through the rules and check it")
    verify.add_argument("file")

    demo = sub.add_parser("demo", parents=[common],
                          help="bots play a classic game through the service")
    demo.add_argument("--players", type=int, default=4)
    demo.add_argument("--seed", type=int)
    demo.add_argument("--watch", action="store_true", help="show the live board meanwhile")
    demo.add_argument("--plain", action="store_true", help="with --watch: one line per event")
    demo.add_argument("--max-turns", type=int)
    return parser


def _game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, help="2 to 6 (default 4)")
    parser.add_argument("--auto-defend", action="store_true",
                        help="defenders roll their most dice without being asked")
    parser.add_argument("--setup", choices=sorted(SETUP_MODES))
    parser.add_argument("--auto-place", action="store_true",
                        help="with random-deal (or 2 players): spread starting armies at random")
    parser.add_argument("--trade-schedule", choices=sorted(TRADE_SCHEDULES))
    parser.add_argument("--fortify", choices=sorted(FORTIFY_MODES))
    parser.add_argument("--no-cards", action="store_true", help="play without territory cards")
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


def options_from_args(args: argparse.Namespace) -> game_pb2.GameOptions:
    variant = getattr(args, "variant", "classic")
    if variant != "classic":  # the other variants take their defaults but for these two
        options = game_pb2.GameOptions()
        chosen = getattr(options, variant)
        chosen.SetInParent()
        if args.players is not None:
            chosen.players = args.players
        if args.max_turns is not None:
            chosen.max_turns = args.max_turns
        return options
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
    _out(f"game {summary.game_id}")
    _out(f"host-token {host_token}")
    return 0


async def cmd_join(client: RiskClient, args: argparse.Namespace) -> int:
    _out(await client.join_game(args.game, args.seat, args.name))
    return 0


async def cmd_list(client: RiskClient, args: argparse.Namespace) -> int:
    variant = _VARIANTS[args.variant] if args.variant else 0
    status = _STATUSES[args.status] if args.status else 0
    count = 0
    async for game in client.iter_games(variant, status, args.page_size):
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
        _out(f"nothing to do for {seats.label(legal.seat)} now; {decision_words(game.game, seats)}")
        return 0
    _out(f"version {legal.version}, {legal.decision.kind.replace('_', ' ')}:")
    width = len(str(len(legal.actions)))
    words = [describe_legal(entry) for entry in legal.actions]
    column = max(len(w) for w in words)
    for number, (entry, text) in enumerate(zip(legal.actions, words, strict=True), start=1):
        command = action_command(entry.action, entry.max_count)
        _out(f"{number:>{width}}. {text:<{column}}   [{command}]")
    return 0


def _same_cards(a: game_pb2.Action, b: game_pb2.Action) -> bool:
    return (
        a.classic.HasField("trade_cards") and b.classic.HasField("trade_cards")
        and list(a.classic.trade_cards.cards) == list(b.classic.trade_cards.cards)
    )


async def cmd_submit(client: RiskClient, args: argparse.Namespace) -> int:
    action = parse_action(args.action)
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
                _out(f"(trading with the +2 bonus: {action_command(action)})")
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


async def watch(
    client: RiskClient, game_id: str, *, after: int = 0, plain: bool = False,
    colour: bool = False,
) -> service_pb2.GetGameResponse:
    """Follow a game until it ends: the live board, or one line per event; returns the end."""
    game = await _read(client, game_id)
    seats = Seats.of(game.game)
    if is_over(game) and after >= game.game.last_seq:
        return game
    if plain:
        async for event in client.stream_events(
            game_id, after_seq=after, on_reconnect=_report_reconnect
        ):
            _out(event_line(event, seats))
            if is_game_end(event):
                break
        return await _read(client, game_id)
    return await _watch_live(client, game, after, seats, colour)


async def _read(client: RiskClient, game_id: str) -> service_pb2.GetGameResponse:
    """GetGame, waiting out an outage as long as the event stream would."""
    for attempt in range(1, client.backoff.attempts + 1):
        try:
            return await client.get_game(game_id)
        except Unavailable:
            if attempt == client.backoff.attempts:
                raise
            await asyncio.sleep(client.backoff.delay(attempt))
    raise AssertionError("unreachable")


def _reconnect_words(error: RiskError, attempt: int) -> str:
    return f"(stream lost: {error}; reconnecting, attempt {attempt})"


def _report_reconnect(error: RiskError, attempt: int) -> None:
    print(_reconnect_words(error, attempt), file=sys.stderr, flush=True)


@dataclass(frozen=True, slots=True)
class _Notice:
    """A line for the live view's log that is not an event."""

    text: str


async def _watch_live(
    client: RiskClient, game: service_pb2.GetGameResponse, after: int, seats: Seats,
    colour: bool,
) -> service_pb2.GetGameResponse:
    game_id = game.game.game_id
    queue: asyncio.Queue[game_pb2.Event | _Notice | Exception | None] = asyncio.Queue()

    def reconnecting(error: RiskError, attempt: int) -> None:
        queue.put_nowait(_Notice(_reconnect_words(error, attempt)))

    async def pump() -> None:
        try:
            async for event in client.stream_events(
                game_id, after_seq=after, on_reconnect=reconnecting
            ):
                queue.put_nowait(event)
                if is_game_end(event):
                    break
        except Exception as exc:  # handed to the drawing loop, which re-raises it
            queue.put_nowait(exc)
        finally:
            queue.put_nowait(None)

    log: deque[str] = deque(maxlen=200)
    pump_task = asyncio.create_task(pump())
    try:
        _draw(game, log, colour)
        done = False
        while not done:
            try:
                batch = [await asyncio.wait_for(queue.get(), IDLE_REDRAW_SECONDS)]
            except TimeoutError:
                batch = []  # a quiet game: refresh the board anyway
            while not queue.empty():
                batch.append(queue.get_nowait())
            for item in batch:
                if item is None:
                    done = True
                elif isinstance(item, Exception):
                    raise item
                elif isinstance(item, _Notice):
                    log.append(item.text)
                else:
                    log.append(event_line(item, seats))
            # the view is re-read once per batch, so a burst of events costs one read; frames
            # are spaced so a fast game batches more instead of redrawing for every event
            game = await _read(client, game_id)
            _draw(game, log, colour)
            if not done:
                await asyncio.sleep(FRAME_SECONDS)
    finally:
        pump_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pump_task
    return game


def _draw(game: service_pb2.GetGameResponse, log: deque[str], colour: bool) -> None:
    size = shutil.get_terminal_size((100, 40))
    board = game_text(game, colour=colour, width=size.columns).splitlines()
    room = max(LOG_LINES_MIN, size.lines - len(board) - 3)
    lines = [*board, "", "latest events:", *list(log)[-room:]]
    sys.stdout.write(CLEAR_SCREEN + "\n".join(lines) + "\n")
    sys.stdout.flush()


async def cmd_watch(client: RiskClient, args: argparse.Namespace) -> int:
    game = await watch(
        client, args.game, after=args.after, plain=args.plain,
        colour=use_colour(args.color, sys.stdout),
    )
    _print_outcome(game)
    return 0


def _print_outcome(game: service_pb2.GetGameResponse) -> None:
    seats = Seats.of(game.game)
    if game.game.HasField("outcome"):
        _out(f"outcome: {outcome_text(game.game.outcome, seats)} "
             f"(game {game.game.game_id}, {game.game.version} actions)")
    else:
        status = STATUS_NAMES.get(game.game.status, "?")
        _out(f"game {game.game.game_id} is {status} with no outcome")


async def cmd_demo(client: RiskClient, args: argparse.Namespace) -> int:
    options = classic_options(
        players=args.players, auto_defend_max_dice=True, max_turns=args.max_turns
    )
    watcher: list[asyncio.Task[service_pb2.GetGameResponse]] = []
    colour = use_colour(args.color, sys.stdout)

    async def started(summary: service_pb2.GameSummary) -> None:
        _out(f"game {summary.game_id}: {args.players} bots playing")
        if args.watch:
            spectator = client.with_token(None)
            watcher.append(asyncio.create_task(
                watch(spectator, summary.game_id, plain=args.plain, colour=colour)
            ))

    seed = args.seed
    final = await play_game(client, options, seed, args.players, entropy=seed or 0,
                            on_created=started)
    for task in watcher:
        await task
    _print_outcome(final)
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


async def cmd_export(client: RiskClient, args: argparse.Namespace) -> int:
    export = await client.export_game(args.game)
    with open(args.file, "wb") as out:
        out.write(export.SerializeToString(deterministic=True))
    _out(f"wrote {args.file}: {len(export.log)} changes, {len(export.events)} events, "
         f"fingerprint {export.chain[-1].hex() if export.chain else '-'}")
    return 0


async def cmd_verify(client: RiskClient, args: argparse.Namespace) -> int:
    del client  # verification needs no service: the rules replay the export locally
    with open(args.file, "rb") as source:
        export = service_pb2.GameExport.FromString(source.read())
    try:
        verified = audit.verify(export)
    except audit.VerificationError as exc:
        print(f"verify: REJECTED game {export.game_id}: {exc}", file=sys.stderr)
        return 1
    seed = ("the seed matches the commitment published at creation" if verified.committed
            else "no seed commitment (a game from before commitments)")
    _out(f"verify: OK game {export.game_id}: {verified.actions} actions and "
         f"{verified.events} events replay exactly; {seed}; fingerprint "
         f"{verified.head.hex()}")
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


async def run(args: argparse.Namespace) -> int:
    async with RiskClient(args.target, args.token) as client:
        return await _COMMANDS[args.command](client, args)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    resolve_common(args)
    try:
        return asyncio.run(run(args))
    except RiskError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"risk {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`risk legal G | head`); say nothing more on a closed pipe
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
