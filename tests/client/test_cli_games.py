"""Every variant played from start to end through the `risk` command alone.

Each test runs the installed `risk` console script as a subprocess against a real service
process (and its real Redis): `create`, `join` for every seat, then `legal` and `submit` for
the seat the game names until it is over, `show`, `export` and `verify`. The move is one of the
commands `risk legal` printed, copied as it is, so the printed commands are checked to be ones
the parser takes. Games are kept short (two or three seats, a two-turn cap, the descriptors'
options otherwise), and the policy prefers the action that ends a step (end the turn, pass).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from risk_testing.harness import ServiceProcess
from tests.client.test_text import FORBIDDEN
from tests.serving import module_service

RISK = str(Path(sys.executable).with_name("risk"))
# the verbs that move a game on fastest, in order of preference
QUICK = ("end-turn", "pass-turn", "pass", "stop-attack", "end-attack", "return-dog")
MAX_STEPS = 60
# what `risk show` draws of each variant's board (its descriptor's renderer)
BOARD = {"classic": "North America (+5)", "deep_space": "home stations",
         "strike": "continent cards", "legacy": "red stars"}

# one service for the module: each test plays a game of its own
service = module_service("client-cli-games")


def risk(*args: str, target: str, token: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("RISK_TOKEN", "RISK_TARGET")}
    env["RISK_TARGET"] = target
    if token:
        env["RISK_TOKEN"] = token
    done = subprocess.run([RISK, *args], env=env, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, f"risk {' '.join(args)}: {done.stdout}{done.stderr}"
    return done


def deciding_seat(text: str) -> int | None:
    found = re.search(r"decision: seat (\d+)", text)
    return int(found.group(1)) if found else None


def pick(legal_output: str) -> list[str]:
    """The command to submit from `risk legal`'s list: a step-ending one if offered."""
    commands = re.findall(r"\[(.+)\]$", legal_output, flags=re.MULTILINE)
    assert commands, legal_output
    for verb in QUICK:
        for command in commands:
            if command.split()[0] == verb:
                return shlex.split(command)
    return shlex.split(commands[0])


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("classic", 2, ["--setup", "random-deal", "--auto-place", "--auto-defend"]),
    ("deep_space", 2, []),
    ("strike", 2, []),
    ("legacy", 3, ["--auto-defend"]),
])
def test_a_whole_game_through_the_command_line(
    variant: str, players: int, options: list[str], *, service: ServiceProcess,
    tmp_path: Path,
) -> None:
    target = service.target
    created = risk("create", "--variant", variant, "--players", str(players), "--max-turns",
                   "2", "--seed", "5", *options, target=target).stdout
    game = re.search(r"^game (\S+)$", created, flags=re.MULTILINE)
    host = re.search(r"^host-token (\S+)$", created, flags=re.MULTILINE)
    assert game and host, created
    game_id = game.group(1)
    tokens = [risk("join", game_id, str(seat), target=target).stdout.strip()
              for seat in range(players)]
    shown = risk("show", game_id, target=target).stdout
    assert f"{variant}  active" in shown, shown
    seat = deciding_seat(shown)
    steps = 0
    while seat is not None:
        steps += 1
        assert steps <= MAX_STEPS, "the game did not end"
        legal = risk("legal", game_id, target=target, token=tokens[seat]).stdout
        assert "(an action this client cannot read)" not in legal
        submitted = risk("submit", game_id, *pick(legal), target=target, token=tokens[seat])
        assert submitted.stdout.startswith("ok: version"), submitted.stdout
        # the moves' words (before each [command]) and the event lines are the text table's
        # sentences: no enum name, -1, brace, None or NaN a person would read
        words = [line.split("[")[0] for line in legal.splitlines()[1:]]
        events = [line for line in submitted.stdout.splitlines() if line.startswith("  #")]
        assert [line for line in words + events if FORBIDDEN.search(line)] == []
        if "outcome:" in submitted.stdout:
            break
        seat = deciding_seat(submitted.stdout)
    final = risk("show", game_id, target=target, token=tokens[0]).stdout
    assert f"{variant}  finished" in final and "outcome:" in final, final
    assert "<- to play" not in final and BOARD[variant] in final, final
    path = str(tmp_path / "game.export")
    risk("export", game_id, path, target=target, token=host.group(1))
    verified = risk("verify", path, target=target).stdout
    assert f"verify: OK game {game_id}" in verified, verified
