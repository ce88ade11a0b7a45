"""A Risk Legacy campaign whose seats belong to players, through the `risk` command alone: each
person logs in (their own configuration folder, as in test_cli_players.py), the host creates
the campaign with `--seat-player` per seat and starts its games with her login, and everyone
plays and decides with their login, no seat token given; `risk games --mine` lists the
campaign's game for each of them."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from risk_client import RiskClient
from risk_testing.harness import ServiceFactory
from tests.client.test_cli_players import RISK, Person, people


def words(person: Person, *args: str) -> str:
    """What `risk` prints for `person`: their Person.run, without its check for "-1" (a
    campaign's rewards are a continent's bonus +1 and -1)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("RISK_TOKEN", "RISK_TARGET", "RISK_CREDENTIALS")}
    env.update(RISK_TARGET=person.target, XDG_CONFIG_HOME=str(person.home))
    done = subprocess.run([RISK, *args], env=env, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, f"risk {' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout


async def test_a_campaign_of_logged_in_players_through_the_command_line(
    make_service: ServiceFactory, redis_client: object, tmp_path: Path,
) -> None:
    """`risk campaign create --seat-player` binds the seats (said in words, shown by the SDK's
    Campaign); the host's login starts the game (another login is NOT_HOST), two players
    resign with their logins, the winner's reward is decided with the winner's login (another
    login is told whose decision it is), and each lists the game as theirs."""
    target = make_service().target
    ada, bob, cy = people(tmp_path, target, "ada", "bob", "cy")
    ids = [ada.login(), bob.login(), cy.login()]
    created = ada.run("campaign", "create", "--players", "3", "--name", "ada", "--name", "bob",
                      "--name", "cy", *(w for i in ids for w in ("--seat-player", i))).stdout
    campaign_id = re.search(r"^campaign (\w+)$", created, re.M)
    assert campaign_id, created
    campaign = campaign_id.group(1)
    for seat, player in enumerate(ids):
        assert (f"seat {seat} belongs to player {player}: they play it in every game with "
                "their login") in created, created
    async with RiskClient(target) as client:
        seats = (await client.get_campaign(campaign)).campaign.seats
    assert [s.player_id for s in seats] == ids

    assert "NOT_HOST" in bob.run("campaign", "next", campaign, ok=False).stderr
    started = ada.run("campaign", "next", campaign, "--seed", "4").stdout
    game = re.search(r"^game (\S+) started \(game 1 of the campaign\)", started, re.M)
    assert game, started
    game_id = game.group(1)
    for person in (ada, bob):  # their logins act for their seats of the campaign's game
        person.run("resign", game_id)

    shown = words(cy, "campaign", "show", campaign)
    assert re.search(rf"^  1\. {re.escape(game_id)}: won by seat 2 \(cy\) \(resignation, \d+ "
                     r"turns\)$", shown, re.M), shown
    not_yours = ada.run("campaign", "decide", campaign, "1", ok=False).stderr
    assert "nothing to decide: it is seat 2 (cy)'s decision; you are seat 0 (ada)" in not_yours
    decided = cy.run("campaign", "decide", campaign, "1").stdout
    assert re.search(r"^ok: .+; campaign at version 3$", decided, re.M), decided
    for seat, person in enumerate((ada, bob, cy)):
        mine = person.run("games", "--mine").stdout
        assert re.search(rf"^{re.escape(game_id)} +legacy +finished", mine, re.M), mine
        assert f"you are seat {seat}" in mine, mine
