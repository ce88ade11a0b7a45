"""What each `risk` subcommand does, once cli.py has parsed its command line.

cli.py holds the parser and imports this module only to run a command, so `risk --help` and a
command line the parser rejects never import the SDK, gRPC or an engine. `run` looks the
command up in `COMMANDS`; a command family in a module of its own (`risk campaign ...`:
campaign_cli.py, imported only when it runs) has one entry in that table and its parsers in
campaign_parser.py.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, datetime
from typing import Any, TextIO

from google.protobuf.message import DecodeError

from risk_client import player_parser
from risk_client.cli import STATUSES, VARIANTS, options_from_args
from risk_client.client import RiskClient
from risk_client.options import variant_options
from risk_proto.risk.v1 import classic_pb2, game_pb2, service_pb2
from risk_rules.engine.core.bots import DEFAULT_LEVEL

# Each command imports what it alone uses, in its function: the words and boards (render.py,
# and with it the variants' engines), the action grammar, the bots, the watcher and the audit
# verifier, so `risk join` pays for none of them and `risk legal` not for the bots, the
# watcher or the verifier.

__all__ = ["CLEAR_SCREEN", "COMMANDS", "FileMistake",  # noqa: F822 - CLEAR_SCREEN: __getattr__
           "export_folder", "read_export", "run"]


def __getattr__(name: str) -> Any:
    """`CLEAR_SCREEN`, watching.py's, without importing the watcher for every command."""
    if name == "CLEAR_SCREEN":
        from risk_client.watching import CLEAR_SCREEN  # noqa: PLC0415

        return CLEAR_SCREEN
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def use_colour(choice: str, stream: TextIO) -> bool:
    if choice != "auto":
        return choice == "always"
    return stream.isatty() and os.environ.get("TERM") != "dumb" and "NO_COLOR" not in os.environ


# ---- commands --------------------------------------------------------------------------------


def _out(text: str = "") -> None:
    print(text, flush=True)


async def cmd_create(client: RiskClient, args: argparse.Namespace) -> int:
    from risk_client import player_cli  # noqa: PLC0415 - the clock's words live there

    clock = player_cli.clock_from_args(args)
    summary, host_token = await client.create_game(
        options_from_args(args), seed=args.seed, seat_names=args.names, clock=clock,
        seat_players=args.seat_players, rated=args.rated,
    )
    seats = len(summary.seats)
    _out(f"game {summary.game_id}")
    _out(f"host-token {host_token}")
    if summary.rated:
        _out("rated: its end updates every seat's player's rating (`risk rating`)")
    if clock is not None:
        _out(player_cli.clock_words(clock))
    bound = [(seat, player) for seat, player in enumerate(args.seat_players) if player]
    for seat, player in bound:
        _out(f"seat {seat} belongs to player {player}: they play it with their login")
    free = seats - len(bound)
    if free:
        _out(f"next: take the {free} free seat{'s' if free != 1 else ''}, each with `risk join "
             f"{summary.game_id} SEAT` (SEAT 0 to {seats - 1}; logged in, the seat is yours, "
             "else it prints that seat's token) or `risk invite`; the game starts when the "
             "last seat is taken, and `risk show` then says whose decision it is")
    else:
        _out("every seat is taken: the game has started; `risk show` says whose decision it is")
    return 0


async def cmd_join(client: RiskClient, args: argparse.Namespace) -> int:
    token = await client.join_game(args.game, args.seat, args.name)
    if not args.logged_in:
        _out(token)
        return 0
    _out(f"seat {args.seat} of game {args.game} is yours (player {args.login.player_id}); "
         f"your login plays it: `risk legal {args.game}`")
    _out(f"seat-token {token}")
    return 0


async def _listed(client: RiskClient, args: argparse.Namespace
                  ) -> AsyncIterator[service_pb2.GameSummary | str]:
    """The games `list` shows: every page, or with --page-size the one page asked for and
    then the token of the next (a str)."""
    variant = VARIANTS[args.variant] if args.variant else 0
    status = STATUSES[args.status] if args.status else 0
    if args.round is not None and not args.tournament:
        raise ValueError("--round needs --tournament")
    where = {"tournament": args.tournament, "tournament_round": args.round}
    if not args.page_size and not args.page_token:
        async for game in client.iter_games(variant, status, **where):
            yield game
        return
    page = await client.list_games(variant, status, args.page_size, args.page_token, **where)
    for game in page.games:
        yield game
    if page.next_page_token:
        yield page.next_page_token


async def cmd_list(client: RiskClient, args: argparse.Namespace) -> int:
    from risk_client.render import (  # noqa: PLC0415
        STATUS_NAMES,
        VARIANT_NAMES,
        plural,
        tournament_words,
    )

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
            f"{game.version:>8}  {updated}{tournament_words(game)}"
        )
        count += 1
    _out(f"({plural(count, 'game')})")
    if more:
        filters = "".join(f" --{name} {getattr(args, name)}"
                          for name in ("variant", "status", "tournament", "round")
                          if getattr(args, name) not in (None, ""))
        _out(f"next page: risk list{filters} --page-size {args.page_size or 50} "
             f"--page-token {more}")
    return 0


async def cmd_show(client: RiskClient, args: argparse.Namespace) -> int:
    import shutil  # noqa: PLC0415

    from risk_client.render import game_text  # noqa: PLC0415

    game = await client.get_game(args.game)
    width = shutil.get_terminal_size((100, 40)).columns
    _out(game_text(game, colour=use_colour(args.color, sys.stdout), width=width))
    return 0


async def cmd_legal(client: RiskClient, args: argparse.Namespace) -> int:
    from risk_client.action_words import command_any  # noqa: PLC0415
    from risk_client.render import Seats, decision_words, describe_legal  # noqa: PLC0415
    from risk_client.text import phase_text  # noqa: PLC0415

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
    # the actions' own case names the variant (its name in the contract)
    variant = legal.actions[0].action.WhichOneof("variant") or ""
    _out(f"version {legal.version}, {phase_text(variant, legal.decision.kind)}; "
         f"submit one with `risk submit {args.game} ACTION`:")
    width = len(str(len(legal.actions)))
    words = [describe_legal(entry) for entry in legal.actions]
    column = min(60, max(len(w) for w in words))
    for number, (entry, text) in enumerate(zip(legal.actions, words, strict=True), start=1):
        command = command_any(entry.action, entry.max_count)
        _out(f"{number:>{width}}. {text:<{column}}   [{command}]")
    return 0


def _trade_bonus(trade: classic_pb2.ClassicAction.TradeCards) -> int:
    """`risk_client.actions.trade_bonus`, imported for a classic trade only (it imports
    classic's engine model, which a game of another variant does not need)."""
    from risk_client.actions import trade_bonus  # noqa: PLC0415

    return trade_bonus(trade)


def _same_cards(a: game_pb2.Action, b: game_pb2.Action) -> bool:
    return (
        a.classic.HasField("trade_cards") and b.classic.HasField("trade_cards")
        and list(a.classic.trade_cards.cards) == list(b.classic.trade_cards.cards)
    )


async def cmd_submit(client: RiskClient, args: argparse.Namespace) -> int:
    from risk_client.action_words import words_for  # noqa: PLC0415
    from risk_client.render import (  # noqa: PLC0415
        VARIANT_NAMES,
        Seats,
        decision_words,
        event_line,
        outcome_text,
    )

    before = await client.get_game(args.game)
    variant = VARIANT_NAMES.get(before.game.variant, "")
    grammar = words_for(variant)
    if grammar is None:
        raise ValueError(f"this client has no action words for variant {variant or '?'}")
    action = grammar.parse(args.action)
    version = args.expected_version
    is_plain_trade = (
        action.classic.HasField("trade_cards") and _trade_bonus(action.classic.trade_cards) < 0
    )
    if version is None or is_plain_trade:
        legal = await client.legal_actions(args.game)
        if version is None:
            version = legal.version
        if is_plain_trade:
            # the +2 bonus must be named when one is due; take the first the rules offer
            offered = [e.action for e in legal.actions if _same_cards(e.action, action)]
            if offered and not any(_trade_bonus(o.classic.trade_cards) < 0 for o in offered):
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
    from risk_client.watching import watch  # noqa: PLC0415

    game = await watch(
        client, args.game, after=args.after, plain=args.plain,
        colour=use_colour(args.color, sys.stdout), target=args.target,
    )
    _print_outcome(game)
    return 0


def _print_outcome(game: service_pb2.GetGameResponse) -> None:
    from risk_client.render import STATUS_NAMES, Seats, outcome_text  # noqa: PLC0415

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
    from risk_client.bots import play_seat  # noqa: PLC0415
    from risk_client.watching import watch  # noqa: PLC0415

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
    # the whole export's fingerprint (one from before format 2: its events' chain's last link)
    fingerprint = export.fingerprint or (export.chain[-1] if export.chain else b"")
    signed = f", signed with key {export.signature.key_id}" if export.HasField("signature") \
        else ""
    _out(f"wrote {path}: {len(export.log)} changes, {len(export.events)} events, "
         f"fingerprint {fingerprint.hex() or '-'}{signed}")
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
    from risk_rules import audit  # noqa: PLC0415

    if args.require_signature and not args.key:
        raise FileMistake("--require-signature needs --key (the keys to check it with)")
    export = read_export(args.file)
    keys = None
    if args.key:  # read before the replay: a wrong --key is said at once
        from risk_client import export_keys  # noqa: PLC0415 - cryptography only for --key

        try:
            keys = export_keys.load_keys(args.key)
        except export_keys.KeyMistake as exc:
            raise FileMistake(str(exc)) from None
    try:
        verified = audit.verify(export)
        signed_by = None if keys is None else export_keys.check_signature(export, keys, args.key)
        if keys is not None and signed_by is None and args.require_signature:
            raise audit.VerificationError("the export is not signed (--require-signature)")
    except audit.VerificationError as exc:
        print(f"verify: REJECTED game {export.game_id}: {exc}", file=sys.stderr)
        return 1
    seed = ("the seed matches the commitment published at creation" if verified.committed
            else "no seed commitment (a game from before commitments)")
    scope = ("of the whole export" if verified.format else
             "of the events only: an export made before whole-export fingerprints")
    _out(f"verify: OK game {export.game_id}: {verified.actions} actions and "
         f"{verified.events} events replay exactly; {seed}; fingerprint "
         f"{verified.head.hex()} ({scope})")
    _out(f"seed commitment: {verified.commitment.hex()}" if verified.commitment
         else "seed commitment: none (a game from before commitments)")
    if not export.HasField("signature"):
        _out("signature: not signed")
    elif keys is None:
        _out(f"signature: not checked (signed with key {export.signature.key_id}; pass --key "
             "to check it)")
    else:
        _out(f"signature: OK (kid {signed_by})")
    return 0


async def cmd_campaign(client: RiskClient, args: argparse.Namespace) -> int:
    # the campaign commands import the Legacy rules; no other command needs them
    from risk_client import campaign_cli  # noqa: PLC0415

    return await campaign_cli.run_campaign(client, args)


async def cmd_round(client: RiskClient, args: argparse.Namespace) -> int:
    from risk_client import tournament_cli  # noqa: PLC0415 - only `risk round` needs it

    return await tournament_cli.run_round(client, args)


async def cmd_tournament(client: RiskClient, args: argparse.Namespace) -> int:
    from risk_client import tournament_cli  # noqa: PLC0415 - only `risk tournament` needs it

    return await tournament_cli.run_tournament(client, args)


async def cmd_player(client: RiskClient, args: argparse.Namespace) -> int:
    from risk_client import player_cli  # noqa: PLC0415 - only the player commands need it

    return await player_cli.run_player(client, args)


COMMANDS = {
    "campaign": cmd_campaign,
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
    "round": cmd_round,
    "tournament": cmd_tournament,
    **dict.fromkeys(player_parser.COMMANDS, cmd_player),
}



async def run(args: argparse.Namespace) -> int:
    command = getattr(args, "func", None) or COMMANDS[args.command]
    async with RiskClient(args.target, args.token) as client:
        result: int = await command(client, args)
        return result
