"""The TypeScript client's matchmaking calls (clients/node) against a real service process on
the session Redis: `tsc` builds the client, then node runs tests/service/node_matchmaking.mjs
(three players matched into one game, a cancel, ALREADY_QUEUED), as test_node_players.py does
for the player calls."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from risk_testing.harness import ServiceFactory

HERE = Path(__file__).resolve().parent
NODE_CLIENT = HERE.parents[1] / "clients" / "node"
TIMEOUT_S = 240


def _run(command: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=NODE_CLIENT, env={**os.environ, **env}, text=True,
                          capture_output=True, timeout=TIMEOUT_S, check=False)


def test_node_client_plays_through_matchmaking(make_service: ServiceFactory) -> None:
    """requestMatch, waitForMatch, getMatchTicket and cancelMatch through the typed client."""
    node = shutil.which("node")
    assert node, "node is not on PATH: run bash scripts/setup"
    built = _run([node, "node_modules/typescript/bin/tsc", "-p", "."])
    assert built.returncode == 0, built.stdout + built.stderr
    service = make_service(RISK_KEY_PREFIX="node-match", RISK_MATCH_INTERVAL_MS="50")
    done = _run([node, str(HERE / "node_matchmaking.mjs")], RISK_TARGET=f"http://{service.target}")
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}\n{service.logs()[-3000:]}"
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["ok"] and seen["refused"] == "ALREADY_QUEUED", seen
