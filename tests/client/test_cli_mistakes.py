"""The command line's answers to user mistakes and its small promises (issue 18, items 6-9).

File mistakes (a missing or foreign file to verify, an export into a missing folder) are one
line and exit 2, never a traceback; a command that acts for a seat says how to give a token;
variants are spelt one way everywhere (the contract's `deep_space`); every option has help;
`list --page-size` shows one page and how to get the next; a waiting game marks nobody "to
play"; seat columns line up in singular and plural.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from risk_client import RiskClient
from risk_client.boards.classic import board_text
from risk_client.cli import build_parser, options_from_args
from risk_client.cli_commands import export_folder
from risk_client.options import classic_options
from risk_client.render import VARIANT_NAMES, game_text
from risk_proto.risk.v1 import service_pb2
from risk_rules import variants, wire
from risk_rules.engine import get_ruleset
from risk_service.redis_server import free_port
from risk_testing.harness import ServiceFactory

RISK = str(Path(sys.executable).with_name("risk"))


def risk(*args: str, target: str | None = None, cwd: Path | None = None
         ) -> subprocess.CompletedProcess[str]:
    """The `risk` command against `target`; by default an address where nothing listens."""
    env = {k: v for k, v in os.environ.items() if k not in ("RISK_TOKEN", "RISK_TARGET")}
    env["RISK_TARGET"] = target or f"127.0.0.1:{free_port()}"
    return subprocess.run([RISK, *args], env=env, capture_output=True, text=True, timeout=90,
                          check=False, cwd=cwd)


def test_file_mistakes_are_one_line_and_exit_2(tmp_path: Path) -> None:
    missing = risk("verify", str(tmp_path / "nothing.export"))
    garbage_path = tmp_path / "garbage.export"
    garbage_path.write_bytes(b"\x00\xffnot an export at all\x13\x37")
    garbage = risk("verify", str(garbage_path))
    folder = risk("--token", "t", "export", "g-1", str(tmp_path / "no" / "such" / "x.export"))
    for done, words in ((missing, "cannot read"), (garbage, "is not a game export"),
                        (folder, "no directory")):
        assert done.returncode == 2, done.stderr
        assert words in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "no such file or directory" in missing.stderr


def test_a_seat_command_without_a_token_says_how_to_give_one() -> None:
    done = risk("legal", "g-1")
    assert done.returncode == 2
    assert "RISK_TOKEN" in done.stderr and "--token" in done.stderr


def test_one_variant_spelling_everywhere() -> None:
    names = sorted(variants.DESCRIPTORS)
    assert "deep_space" in names and sorted(VARIANT_NAMES.values()) == sorted(["unknown", *names])
    parser = build_parser()
    for command in ("create", "list", "demo"):
        args = parser.parse_args([command, "--variant", "deep_space"])
        assert args.variant == "deep_space"
    done = risk("list", "--variant", "deep-space")
    assert done.returncode == 2 and "invalid choice" in done.stderr and "deep_space" in done.stderr


def _actions(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.Action]]:
    found = []
    for action in parser._actions:  # argparse keeps its options here and nowhere public
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += [(f"{name} {dest}", a) for dest, a in _actions(sub)]
        elif not isinstance(action, argparse._HelpAction):
            found.append((action.dest, action))
    return found


def test_every_option_and_argument_has_help() -> None:
    missing = [name for name, action in _actions(build_parser()) if not action.help]
    assert not missing


def test_export_default_is_a_data_folder_not_the_working_directory() -> None:
    assert export_folder({"RISK_EXPORT_DIR": "/x"}) == "/x"
    assert export_folder({"XDG_DATA_HOME": "/d"}) == "/d/risk/exports"
    assert export_folder({}).endswith(os.path.join(".local", "share", "risk", "exports"))


async def test_list_page_size_shows_one_page_then_the_next(
    make_service: ServiceFactory, redis_client: object
) -> None:
    target = make_service().target
    async with RiskClient(target) as client:
        for _ in range(3):
            await client.create_game(classic_options(players=2))
    first = risk("list", "--page-size", "2", target=target)
    assert first.returncode == 0, first.stderr
    rows = [line for line in first.stdout.splitlines() if " classic " in line]
    assert len(rows) == 2 and "(2 games)" in first.stdout
    more = re.search(r"--page-token (\S+)", first.stdout)
    assert more, first.stdout
    second = risk("list", "--page-size", "2", "--page-token", more.group(1), target=target)
    rest = [line for line in second.stdout.splitlines() if " classic " in line]
    assert len(rest) == 1 and not set(rest) & set(rows)


def test_a_waiting_game_marks_nobody_to_play_and_columns_line_up() -> None:
    rules = get_ruleset("classic")
    state, _ = rules.create(rules.default_options(3), 5)
    game = service_pb2.GetGameResponse(board=wire.view_to_proto("classic", rules.view(state, 0)))
    game.game.status = service_pb2.GAME_STATUS_WAITING
    game.game.seats.extend(service_pb2.Seat(seat=i, taken=i == 0) for i in range(3))
    text = game_text(game)
    assert "<- to play" not in text and "waiting for players: 1 of 3 seats taken" in text
    for _ in range(90):  # claims: seats hold different numbers of territories, some just 1
        seat = rules.decision(state).seats[0]
        state, _ = rules.apply(state, seat, rules.bot_action(state, seat, 1))
        lines = [line for line in board_text(rules.view(state, 0)).splitlines()
                 if line.startswith("seat ")]
        assert len({line.index("arm") for line in lines}) == 1, lines


async def test_legal_on_a_game_still_waiting_says_why(
    make_service: ServiceFactory, redis_client: object
) -> None:
    target = make_service().target
    async with RiskClient(target) as client:
        summary, _host = await client.create_game(classic_options(players=3))
        token = await client.join_game(summary.game_id, 0)
    done = risk("--token", token, "legal", summary.game_id, target=target)
    assert done.returncode == 0, done.stderr
    assert "has not started: 1 of 3 seats taken" in done.stdout
    assert f"risk join {summary.game_id} SEAT" in done.stdout


def test_create_flags_map_onto_each_variants_options() -> None:
    """Flags a variant has become its options; a flag it lacks is refused, naming it."""
    parser = build_parser()

    def options(*argv: str) -> object:
        return options_from_args(parser.parse_args(["create", *argv]))

    strike = options("--variant", "strike", "--auto-pass", "--players", "3", "--max-turns", "9")
    assert str(strike).split() == ["strike", "{", "players:", "3", "max_turns:", "9",
                                   "auto_pass:", "true", "}"]
    assert "auto_defend_max_dice: true" in str(options("--variant", "legacy", "--auto-defend"))
    for argv, words in ((["--variant", "deep_space", "--auto-defend"], "auto_defend_max_dice"),
                        (["--auto-pass"], "strike only"),
                        (["--variant", "strike", "--no-cards"], "classic only")):
        with pytest.raises(ValueError, match=words):
            options(*argv)


def test_demo_delay_paces_the_bots_and_prints_tokens(
    make_service: ServiceFactory, redis_client: object, tmp_path: Path
) -> None:
    """`demo --delay S` makes each bot wait S seconds before every action it submits (so a
    person watching can follow): the game takes at least actions x S, the actions counted by
    verifying the game's export. It prints the tokens."""
    target = make_service().target
    started = time.monotonic()
    done = risk("demo", "--variant", "deep_space", "--players", "2", "--max-turns", "2",
                "--seed", "4", "--delay", "0.5", target=target)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    game = re.search(r"^game (\S+):", done.stdout, re.MULTILINE)
    host = re.search(r"^host-token (\S+)$", done.stdout, re.MULTILINE)
    assert game and host, done.stdout
    export = tmp_path / "demo.export"
    assert risk("--token", host.group(1), "export", game.group(1), str(export),
                target=target).returncode == 0
    verified = risk("verify", str(export), target=target)
    actions = re.search(r": (\d+) actions", verified.stdout)
    assert actions, verified.stdout + verified.stderr
    assert int(actions.group(1)) >= 2 and elapsed >= 0.5 * int(actions.group(1))
    assert re.search(r"^seat 1 token \S+$", done.stdout, re.MULTILINE)
    assert re.search(r"^host-token \S+$", done.stdout, re.MULTILINE)
