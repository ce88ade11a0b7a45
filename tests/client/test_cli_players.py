"""Players through the `risk` command alone: log in, create a correspondence game, join it as
the logged-in player, go on vacation and come back, list "my games", invite and accept.

Each test runs the installed `risk` console script as a subprocess against a real service
process (and its real Redis), as test_cli_games.py does. Every person has a configuration
folder of their own (XDG_CONFIG_HOME under the test's tmp_path), where `risk login` stores
their player token; everything printed is checked to be words (issue 38's rule: no enum names,
no -1, no braces).
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from risk_testing.harness import ServiceFactory

RISK = str(Path(sys.executable).with_name("risk"))
# what issue 38 keeps out of what a person reads
# the -1 sentinel standing alone, not inside a token, an id or a path (`h5-1-F`, `p-1a0d`)
NOT_WORDS = re.compile(
    r"GAME_STATUS_|INVITATION_STATE_|MISSED_TURN_POLICY_|VARIANT_|[{}]|(?<![\w.-])-1(?![\w-]|\.\d)")


def not_words(out: str, home: Path, pattern: re.Pattern[str] = NOT_WORDS) -> str | None:
    """What in `out` is not words (an enum name, a brace, the -1 sentinel), the paths under
    `home` left out: a file's path is the user's own (pytest's temporary folders are named
    pytest-1, pytest-2, ...)."""
    found = pattern.search(out.replace(str(home), "~"))
    return None if found is None else found.group()


@dataclass
class Person:
    """Someone at a terminal: their own configuration folder, the service's address."""

    home: Path
    target: str

    def run(self, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items()
               if k not in ("RISK_TOKEN", "RISK_TARGET", "RISK_CREDENTIALS")}
        env.update(RISK_TARGET=self.target, XDG_CONFIG_HOME=str(self.home))
        done = subprocess.run([RISK, *args], env=env, capture_output=True, text=True,
                              timeout=60, check=False)
        assert (done.returncode == 0) == ok, \
            f"risk {' '.join(args)} -> {done.returncode}: {done.stdout}{done.stderr}"
        assert not_words(done.stdout, self.home) is None, f"not words: {done.stdout}"
        return done

    def login(self) -> str:
        out = self.run("login").stdout
        found = re.search(r"^logged in as player (p-[0-9a-f]+) at ", out, re.M)
        assert found, out
        return found.group(1)

    @property
    def credentials(self) -> Path:
        return self.home / "risk" / "credentials"


def people(tmp_path: Path, target: str, *names: str) -> list[Person]:
    return [Person(tmp_path / name, target) for name in names]


def game_of(created: str) -> str:
    found = re.search(r"^game (\S+)$", created, re.M)
    assert found, created
    return found.group(1)


def test_login_join_and_vacation_through_the_command_line(
    make_service: ServiceFactory, redis_client: object, tmp_path: Path,
) -> None:
    """`risk login` stores a player token (mode 0600) that `whoami`, `join` and `vacation`
    use; a second login renews the same player; a correspondence game's clock is created from
    the options and said in words; `logout` forgets the player."""
    target = make_service().target
    ada, bob = people(tmp_path, target, "ada", "bob")
    ada.run("whoami", ok=False)
    ada_id = ada.login()
    assert stat.S_IMODE(ada.credentials.stat().st_mode) == 0o600
    assert f"player {ada_id} at {target}" in ada.run("whoami").stdout
    assert ada.login() == ada_id, "a second login renews the same player"
    bob_id = bob.login()
    assert bob_id != ada_id

    created = ada.run("create", "--players", "2", "--turn-days", "2", "--vacation-days", "5",
                      "--missed-turns", "3", "--on-missed", "bot", "--setup", "random-deal",
                      "--auto-place").stdout
    assert ("clock: a turn within 2 days; 5 vacation days per seat; after 3 turns missed in "
            "a row a bot plays the seat") in created, created
    game = game_of(created)
    joined = ada.run("join", game, "0", "--name", "ada").stdout
    assert f"seat 0 of game {game} is yours (player {ada_id})" in joined, joined
    bob.run("join", game, "1", "--name", "bob")
    shown = ada.run("show", game).stdout
    assert "classic  active" in shown, shown

    away = ada.run("vacation", "start", game, "2").stdout
    assert re.search(rf"on vacation in game {game} until \d{{4}}-\d\d-\d\d \d\d:\d\d UTC "
                     r"\(in 1 day 23 h\): your clocks are stopped; 3 days of vacation left",
                     away), away
    refused = ada.run("vacation", "start", game, "1", ok=False)
    assert "ALREADY_ON_VACATION" in refused.stderr, refused.stderr
    back = ada.run("vacation", "end", game).stdout
    assert re.search(rf"back from vacation in game {game}; 4 days 2\d h of vacation left", back) \
        or re.search(rf"back from vacation in game {game}; 5 days of vacation left", back), back

    assert "logged out" in ada.run("logout").stdout
    assert not ada.credentials.exists()
    assert "not logged in" in ada.run("whoami", ok=False).stdout


def test_my_games_and_invitations_through_the_command_line(
    make_service: ServiceFactory, redis_client: object, tmp_path: Path,
) -> None:
    """`risk games --mine` shows each player their games with whose turn it is and the
    deadline; `risk invite` (by player id, and an open-seat link) and `risk accept` seat the
    invited player, whose list then holds the game."""
    target = make_service().target
    ada, bob, cy = people(tmp_path, target, "ada", "bob", "cy")
    ada_id, bob_id, _cy_id = ada.login(), bob.login(), cy.login()
    assert "no games yet" in ada.run("games", "--mine").stdout

    bound = game_of(ada.run("create", "--players", "2", "--turn-hours", "24", "--name", "ada",
                            "--name", "bob", "--seat-player", ada_id, "--seat-player",
                            bob_id).stdout)
    listed = {who.home.name: who.run("games", "--mine").stdout for who in (ada, bob)}
    turn = next(name for name, out in listed.items() if "YOUR TURN" in out)
    waiting = "bob" if turn == "ada" else "ada"
    deadline = r"deadline \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 23 h 5\d min\)"
    assert re.search(rf"^{bound} +classic +active +YOUR TURN, {deadline}; you are seat "
                     rf"{0 if turn == 'ada' else 1} \({turn}\)$", listed[turn], re.M), listed
    assert re.search(rf"^{bound} +classic +active +waiting for seat \d \({turn}\), {deadline}",
                     listed[waiting], re.M), listed
    assert "your turn in 1)" in listed[turn] and "your turn in 0)" in listed[waiting]

    invited = game_of(ada.run("create", "--players", "2").stdout)
    ada.run("join", invited, "0")
    sent = ada.run("invite", invited, "1", bob_id, "--hours", "2").stdout
    assert f"invited {bob_id} to seat 1 of game {invited}" in sent, sent
    pending = bob.run("invitations").stdout
    found = re.search(rf"^({invited}/\S+)  classic seat 1, for {bob_id} from {ada_id}: open "
                      r"until \S+ \S+ UTC \(in 1 h 5\d min\)$", pending, re.M)
    assert found, pending
    accepted = bob.run("accept", found.group(1), "--name", "bob").stdout
    assert f"seat 1 of game {invited} is yours (player {bob_id})" in accepted, accepted
    assert "(0 invitations for you)" in bob.run("invitations").stdout
    mine = bob.run("games", "--mine", "--status", "active").stdout
    assert bound in mine and invited in mine, mine

    linked = game_of(ada.run("create", "--players", "2").stdout)
    ada.run("join", linked, "0")
    made = ada.run("invite", linked, "1", "--link").stdout
    code = re.search(rf"^({re.escape(linked)}-\S+)$", made, re.M)
    assert code, made
    assert f"seat 1 of game {linked} is yours" in cy.run("accept", code.group(1)).stdout
    again = bob.run("accept", code.group(1), ok=False).stderr
    assert "INVITATION_CLOSED" in again, again


def test_feed_follows_the_players_events_and_revoke_withdraws_an_invitation(
    make_service: ServiceFactory, redis_client: object, tmp_path: Path,
) -> None:
    """`risk feed` prints one line in words per event of the player's stream (the game
    started, their turn with its deadline, an invitation) and `--after` resumes past the last
    line seen; `risk revoke` withdraws an invitation, which then can no longer be accepted."""
    target = make_service().target
    ada, bob = people(tmp_path, target, "ada", "bob")
    ada_id, bob_id = ada.login(), bob.login()
    game = game_of(ada.run("create", "--players", "2", "--turn-hours", "24", "--name", "ada",
                           "--name", "bob", "--seat-player", ada_id, "--seat-player",
                           bob_id).stdout)
    other = game_of(ada.run("create", "--players", "2").stdout)
    ada.run("join", other, "0")
    sent = ada.run("invite", other, "1", bob_id).stdout
    ref = re.search(rf"risk accept ({re.escape(other)}/\S+)`", sent)
    assert ref, sent

    bobs_turn = "YOUR TURN" in bob.run("games", "--mine").stdout
    fed = bob.run("feed", "--count", "1").stdout
    lines = re.findall(r"^#(\d+) \S+ \S+ UTC  (.*)$", fed, re.M)
    assert lines == [("1", f"game {game} (classic) started; you are seat 1 (bob)")], fed
    assert f"following player {bob_id}'s events" in fed, fed
    rest = bob.run("feed", "--after", "1", "--count", "2" if bobs_turn else "1").stdout
    later = re.findall(r"^#(\d+) \S+ \S+ UTC  (.*)$", rest, re.M)
    assert [seq for seq, _ in later] == (["2", "3"] if bobs_turn else ["2"]), rest
    texts = [text for _, text in later]
    if not bobs_turn:
        texts += ada.run("feed", "--count", "2").stdout.splitlines()
    turns = [text for text in texts if "YOUR TURN" in text]
    assert len(turns) == 1, texts
    assert re.search(rf"YOUR TURN in game {game} \(classic\) as seat \d \((ada|bob)\), "
                     r"deadline \S+ \S+ UTC \(in 23 h 5\d min\)$", turns[0]), turns
    assert any(text.startswith(f"invitation: {ref.group(1)}  classic seat 1, for {bob_id} "
                               f"from {ada_id}: open until") for text in texts), texts

    revoked = ada.run("revoke", ref.group(1)).stdout
    assert f"revoked: {ref.group(1)}  classic seat 1, for {bob_id} from {ada_id}: revoked" \
        in revoked, revoked
    refused = bob.run("accept", ref.group(1), ok=False).stderr
    assert "INVITATION_CLOSED" in refused, refused
    assert "(0 invitations for you)" in bob.run("invitations").stdout
