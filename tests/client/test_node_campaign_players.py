"""The TypeScript client's Legacy campaign bound to players (clients/node: createCampaign's
seatPlayers, startCampaignGame) against a real service process on the session Redis, as
test_node_players.py runs node_players.mjs: `tsc` type-checks and builds the client, then node
runs tests/client/node_campaign_players.mjs."""

from __future__ import annotations

import json
import shutil

from risk_testing.harness import ServiceFactory
from tests.client.test_node_players import HERE, _run


def test_node_client_creates_a_campaign_bound_to_players(make_service: ServiceFactory) -> None:
    """A campaign created with three player ids: its game's seats name them, each lists the
    game as theirs and moves with their own token; another's token on a seat is WRONG_SEAT."""
    node = shutil.which("node")
    assert node, "node is not on PATH: run bash scripts/setup"
    built = _run([node, "node_modules/typescript/bin/tsc", "-p", "."])
    assert built.returncode == 0, built.stdout + built.stderr
    service = make_service(RISK_KEY_PREFIX="node-campaign-players")
    done = _run([node, str(HERE / "node_campaign_players.mjs")],
                RISK_TARGET=f"http://{service.target}")
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}\n{service.logs()[-3000:]}"
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["ok"] and seen["seats"] == [0, 1, 2] and len(seen["played"]) == 6, seen
