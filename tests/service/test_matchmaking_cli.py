"""`risk play` (docs/cli.md, "Players"): three logged-in people ask the matchmaker for a classic
3-table at once, each from their own `risk` process; each process waits, then prints the same
game with its seats and their own seat; one more asks alone with bots allowed after a second
and is seated with two bots."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from risk_testing.harness import ServiceFactory
from tests.client.test_cli_players import RISK, Person, not_words, people

GAME_LINE = re.compile(r"^game ([0-9a-f]+): 3 seats(, 2 of them bots)?; you are seat (\d)$", re.M)


def _play(person: Person, *args: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("RISK_TOKEN", "RISK_TARGET", "RISK_CREDENTIALS")}
    env.update(RISK_TARGET=person.target, XDG_CONFIG_HOME=str(person.home))
    return subprocess.Popen([RISK, "play", "--variant", "classic", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_risk_play_waits_and_prints_the_game(make_service: ServiceFactory, redis_client: object,
                                             tmp_path: Path) -> None:
    """Three `risk play --sizes 3` at once: each prints "waiting for a table", then the one
    game, the three seats (their names, theirs marked) and the commands to play it; a fourth
    with `--bots-after 1` alone gets a 3-table with two bots."""
    service = make_service(RISK_MATCH_INTERVAL_MS="50")
    ann, bob, cy, dee = people(tmp_path, service.target, "ann", "bob", "cy", "dee")
    for person in (ann, bob, cy, dee):
        person.login()
    running = [_play(p, "--sizes", "3", "--name", p.home.name) for p in (ann, bob, cy)]
    outputs = []
    for person, proc in zip((ann, bob, cy), running, strict=True):
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, out + err
        assert not_words(out, person.home) is None, out
        outputs.append(out)
    games = set()
    for person, out in zip((ann, bob, cy), outputs, strict=True):
        assert out.startswith("waiting for a table of 3 (classic, unrated) until "), out
        found = GAME_LINE.search(out)
        assert found and found.group(2) is None, out
        games.add(found.group(1))
        seat = int(found.group(3))
        assert f"  seat {seat}: {person.home.name} (you)" in out, out
        assert f"play: risk legal {found.group(1)}" in out
    assert len(games) == 1
    seated = re.findall(r"^  seat (\d): (\w+)", outputs[0], re.M)
    assert sorted(name for _seat, name in seated) == ["ann", "bob", "cy"]
    assert sorted(seat for seat, _name in seated) == ["0", "1", "2"]
    alone = _play(dee, "--sizes", "3", "--bots-after", "1", "--name", "dee")
    out, err = alone.communicate(timeout=60)
    assert alone.returncode == 0, out + err
    found = GAME_LINE.search(out)
    assert found and found.group(2) == ", 2 of them bots" and found.group(3) == "0", out
    assert out.count("(bot)") == 2 and "  seat 0: dee (you)" in out, out
