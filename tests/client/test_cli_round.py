"""`risk round`: an organiser who pairs players themselves creates a round from the command
line, hands out the printed tokens, and follows the results feed until the round is over;
`risk list` and `risk show` name a game's tournament and round.

The installed `risk` script runs as a subprocess against a real service process on the real
Redis; the players resign with the tokens `risk round` printed (through `risk resign`), which
ends each game, and `risk round` must see that in the feed and stop by itself.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from risk_testing.harness import ServiceFactory

RISK = str(Path(sys.executable).with_name("risk"))
QUICK = ["--setup", "random-deal", "--auto-place", "--auto-defend", "--max-turns", "6"]
TABLES = ["--table", "alice,bob,bot:greedy", "--table", "carol,dave,bot:planner"]


def env_for(target: str, token: str = "") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("RISK_TOKEN", "RISK_TARGET")}
    env["RISK_TARGET"] = target
    env["XDG_CONFIG_HOME"] = "/nonexistent-risk-login"  # no stored login is read
    if token:
        env["RISK_TOKEN"] = token
    return env


def risk(*args: str, target: str, token: str = "", code: int = 0
         ) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([RISK, *args], env=env_for(target, token), capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == code, f"risk {' '.join(args)}: {done.stdout}{done.stderr}"
    return done


def read_until(proc: subprocess.Popen[str], pattern: str, deadline: float) -> list[str]:
    """Lines of `proc`'s stdout up to and including the first matching `pattern`."""
    assert proc.stdout is not None
    lines: list[str] = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if re.search(pattern, line):
            return lines
    raise AssertionError(f"no line matching {pattern!r} in:\n" + "\n".join(lines))


def test_round_created_followed_to_its_end_and_named_in_lists(
    make_service: ServiceFactory, redis_client: object
) -> None:
    """Tokens printed per player; the feed followed until both games finish, with each
    game's ranking in the players' labels; the same command again returns the same round."""
    target = make_service().target
    proc = subprocess.Popen([RISK, "round", "cup", "1", *TABLES, *QUICK],
                            env=env_for(target), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        head = read_until(proc, r"^results", deadline)
        text = "\n".join(head)
        assert re.search(r"^round 1 of tournament cup: 2 games \(request id cup-round-1\)$",
                         text, flags=re.MULTILINE), text
        games = re.findall(r"^game (\S+)  seed-commitment [0-9a-f]{64}$", text,
                           flags=re.MULTILINE)
        tokens = dict(re.findall(r"^  seat \d (\w+)  token (\S+)$", text, flags=re.MULTILINE))
        assert len(games) == 2 and sorted(tokens) == ["alice", "bob", "carol", "dave"], text
        assert "  seat 2 bot (planner)" in text
        # both players of each table resign: the bot wins
        for name in ("alice", "bob", "carol", "dave"):
            game = games[0] if name in ("alice", "bob") else games[1]
            risk("resign", game, target=target, token=tokens[name])
        rest = read_until(proc, r"^round 1 over: 2 games$", deadline)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    feed = "\n".join(rest)
    for game, bot_name in ((games[0], "bot (greedy)"), (games[1], "bot (planner)")):
        finished = re.search(rf"^#\d+ {game} finished: 1\. (.+?) 2\. .* \((\w+)\)$", feed,
                             flags=re.MULTILINE)
        assert finished and finished.group(1) == bot_name, feed
    assert re.search(rf"^#\d+ {games[0]} created: alice, bob, bot \(greedy\)$", feed,
                     flags=re.MULTILINE), feed
    assert re.search(rf"^#\d+ {games[0]} alice resigned$", feed, flags=re.MULTILINE), feed

    again = risk("round", "cup", "1", *TABLES, *QUICK, target=target).stdout
    assert re.findall(r"^game (\S+)  seed", again, flags=re.MULTILINE) == games
    assert again.rstrip().endswith("round 1 over: 2 games"), again

    listed = risk("list", "--tournament", "cup", "--round", "1", target=target).stdout
    assert sorted(re.findall(r"^(\S+) .* tournament cup round 1$", listed,
                             flags=re.MULTILINE)) == sorted(games), listed
    assert risk("list", "--tournament", "cup", "--round", "2", target=target
                ).stdout.strip() == "(0 games)"
    shown = risk("show", games[0], target=target).stdout
    assert shown.splitlines()[0].endswith("tournament cup round 1"), shown


def test_round_mistakes_exit_2_and_other_tables_are_refused(
    make_service: ServiceFactory, redis_client: object
) -> None:
    """Bad tables are the command line's mistakes; other tables under a used request id are
    the service's REQUEST_ID_REUSED, and nothing is created twice."""
    target = make_service().target
    bad = risk("round", "cup", "1", "--table", "a,b,bot:genius", target=target, code=2)
    assert "bot level 'genius'" in bad.stderr
    uneven = risk("round", "cup", "1", "--table", "a,b,c", "--table", "d,e", target=target,
                  code=2)
    assert "same number of seats" in uneven.stderr
    risk("round", "cup", "1", "--table", "a,b,c", *QUICK, "--no-follow", target=target)
    reused = risk("round", "cup", "1", "--table", "a,c,b", *QUICK, "--no-follow",
                  target=target, code=1)
    assert "REQUEST_ID_REUSED" in reused.stderr
    listed = risk("list", "--tournament", "cup", target=target).stdout
    assert listed.strip().endswith("(1 game)"), listed
