"""`risk campaign ...` as a user runs it: the installed `risk` console script against a real
service process on a free port and a real redis-server.

`demo` plays a bot campaign of three games (the reward decisions between them included), and
`show` then reports the same results the service records; a campaign is also played by hand:
created with chosen factions, its game started by the host, the reward decided by number.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from risk_client import RiskClient
from risk_client.results import Campaign
from risk_testing.harness import ServiceProcess
from tests.client.serving import found, module_service

RISK = Path(sys.executable).with_name("risk")  # the console script pip installed
TIMEOUT_S = 300


service = module_service("campaign-cli")


@pytest.fixture
async def client(service: ServiceProcess) -> AsyncIterator[RiskClient]:
    async with RiskClient(service.target) as c:
        yield c


def risk(service: ServiceProcess, *argv: str, token: str | None = None
         ) -> subprocess.CompletedProcess[str]:
    command = [str(RISK), "--target", service.target, "--color", "never"]
    if token:
        command.append(f"--token={token}")  # one word: a token may begin with "-"
    return subprocess.run([*command, *argv], capture_output=True, text=True,
                          timeout=TIMEOUT_S, check=False)


async def test_demo_plays_a_three_game_campaign_and_show_reports_it(
    service: ServiceProcess, client: RiskClient
) -> None:
    """`risk campaign demo --games 3` plays three games with the rewards between them;
    `risk campaign show` then gives the results the service recorded, game by game."""
    assert RISK.exists(), f"the risk console script is not installed at {RISK}"
    demo = risk(service, "campaign", "demo", "--games", "3", "--seed", "7", "--max-turns", "80")
    assert demo.returncode == 0, demo.stderr
    campaign_id = found(r"^campaign (\w+): 3 bots, 3 games$", demo.stdout).group(1)
    campaign = (await client.get_campaign(campaign_id)).campaign
    assert campaign.games_played == 3 and campaign.phase == "ready"
    assert campaign.game_ids == tuple(f"{campaign_id}.{n}" for n in (1, 2, 3))
    rewards = re.findall(r"^  reward: seat (\d) \(bot \d\) chose to (.+)$", demo.stdout, re.M)
    for game in campaign.history:
        found(rf"^game {re.escape(game.game_id)}: started$", demo.stdout)
        result = "a draw" if game.winner < 0 else rf"won by seat {game.winner} \(bot \d\)"
        found(rf"^game {re.escape(game.game_id)}: {result} \({game.reason}, \d+ changes\)$",
              demo.stdout)
        if game.winner >= 0:  # the winner decides first, then every seat that held on
            after = demo.stdout.split(f"game {game.game_id}: won by", 1)[1]
            first = found(r"^  reward: seat (\d)", after).group(1)
            assert first == str(game.winner)
    assert len(rewards) >= 3 * 2, "every game was followed by its reward decisions"
    world = campaign.message.state.world
    assert world.cities or world.continent_names, "the rewards changed the campaign's world"

    shown = risk(service, "campaign", "show", campaign_id)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == demo.stdout[demo.stdout.index(f"campaign {campaign_id} (version"):]
    found(r"^3 of 15 games played; ready for the next game", shown.stdout)
    for game in campaign.history:
        winner = ("a draw at the turn cap" if game.winner < 0
                  else rf"won by seat {game.winner} \(bot {game.winner}\)")
        found(rf"^  {game.number}\. {re.escape(game.game_id)}: {winner} \({game.reason}, "
              rf"{game.turns} turns\)$", shown.stdout)
        final = await client.get_game(game.game_id)
        assert final.game.outcome.winner == game.winner, "show agrees with the game itself"
    for rank, seat in enumerate(campaign.standings(), start=1):
        found(rf"^  {rank}\. seat {seat.seat} \(bot {seat.seat}\) +{re.escape(seat.faction)} "
              rf"+{re.escape(seat.power)} +{seat.wins} wins?,", shown.stdout)
    for city in world.cities:
        assert city.name in shown.stdout

    unknown = risk(service, "campaign", "show", "0" * 22)
    assert unknown.returncode == 1 and unknown.stdout == ""
    assert unknown.stderr.startswith(
        "error: There is no such campaign (NOT_FOUND/CAMPAIGN_NOT_FOUND: ")
    too_long = risk(service, "campaign", "demo", "--games", "16")
    assert too_long.returncode == 2 and "a campaign has 1 to 15 games" in too_long.stderr

    listed = risk(service, "campaign", "list")
    assert listed.returncode == 0, listed.stderr
    found(rf"^{campaign_id} +ready +3 +3 +{campaign.version} ", listed.stdout)


def _seat_tokens(text: str) -> list[str]:
    return [token for _seat, token in re.findall(r"^seat-token (\d) (\S+)$", text, re.M)]


async def test_a_campaign_played_by_hand(service: ServiceProcess, client: RiskClient) -> None:
    """create with chosen factions, `next` by the host, the game ended by resignations, then
    the winner's reward chosen by number and named; wrong tokens and choices are refused."""
    created = risk(service, "campaign", "create", "--players", "3",
                   "--faction", "khan:card-troop", "--faction", "saharan",
                   "--faction", "Bear:natural_triple", "--name", "ada", "--name", "bo")
    assert created.returncode == 0, created.stderr
    campaign_id = found(r"^campaign (\w+)$", created.stdout).group(1)
    host = found(r"^host-token (\S+)$", created.stdout).group(1)
    tokens = _seat_tokens(created.stdout)
    assert len(tokens) == 3
    seats = (await client.get_campaign(campaign_id)).campaign.seats
    assert [(s.faction, s.power, s.name) for s in seats] == [
        ("Khan Industries", "card troop", "ada"),
        ("Saharan Republic", "maneuver any time", "bo"),
        ("Enclave of the Bear", "natural triple", ""),
    ]

    refused = risk(service, "campaign", "next", campaign_id, token=tokens[0])
    assert refused.returncode == 1
    assert "PERMISSION_DENIED/NOT_HOST" in refused.stderr
    started = risk(service, "campaign", "next", campaign_id, "--seed", "4", token=host)
    assert started.returncode == 0, started.stderr
    game_id = found(r"^game (\S+) started \(game 1 of the campaign\)", started.stdout).group(1)
    busy = risk(service, "campaign", "next", campaign_id, token=host)
    assert busy.returncode == 1 and "GAME_IN_PROGRESS" in busy.stderr
    for seat in (0, 1):  # the campaign token plays the seat in the campaign's game
        resigned = risk(service, "resign", game_id, token=tokens[seat])
        assert resigned.returncode == 0, resigned.stderr

    waiting = risk(service, "campaign", "show", campaign_id, token=tokens[2])
    assert waiting.returncode == 0, waiting.stderr
    found(r"^1 of 15 games played; waiting for reward decisions$", waiting.stdout)
    found(rf"^  1\. {re.escape(game_id)}: won by seat 2 \(resignation, \d+ turns\)$",
          waiting.stdout)
    choices = re.findall(r"^ +(\d+)\. (.+)$", waiting.stdout.split("your choices")[1], re.M)
    # the game ended before anyone held ground: the winner may name or re-mark a continent
    assert {words for _n, words in choices} >= {"name Australia", "Australia's bonus +1"}
    number = next(n for n, words in choices if words == "name Australia")

    not_yours = risk(service, "campaign", "decide", campaign_id, "1", token=tokens[0])
    assert not_yours.returncode == 2
    assert "nothing to decide: it is seat 2's decision; you are seat 0 (ada)" in not_yours.stderr
    tokenless = risk(service, "campaign", "decide", campaign_id, "1")
    assert tokenless.returncode == 2
    assert "with that seat's token (--token or RISK_TOKEN)" in tokenless.stderr
    unlisted = risk(service, "campaign", "decide", campaign_id, str(len(choices) + 1),
                    token=tokens[2])
    assert unlisted.returncode == 2 and "is not listed" in unlisted.stderr
    decided = risk(service, "campaign", "decide", campaign_id, number, "--name", "Adaland",
                   token=tokens[2])
    assert decided.returncode == 0, decided.stderr
    found(r"^ok: name Australia 'Adaland'; campaign at version 3$", decided.stdout)
    campaign: Campaign = (await client.get_campaign(campaign_id)).campaign
    names = campaign.message.state.world.continent_names
    assert [(n.continent, n.name, n.namer) for n in names] == [(5, "Adaland", 2)]
    assert campaign.seats[2].wins == 1
    assert campaign.phase == "ready" and campaign.pending == ()
