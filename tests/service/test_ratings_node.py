"""The TypeScript client's rating calls (clients/node) against the real service on the session
Redis, as test_node_players.py runs its player calls: `tsc` builds the client, then node runs
tests/service/node_ratings.mjs against a service process."""

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


def test_node_client_reads_ratings_and_the_leaderboard(
        make_service: ServiceFactory, redis_client: object) -> None:
    """A rated game made with createGame({ rated: true }) and finished by resignations:
    getRating shows the winner's game and place, getLeaderboard the three in order and around
    a player, NOT_RATED around someone not on the board, all through the typed Node client."""
    node = shutil.which("node")
    assert node, "node is not on PATH: run bash scripts/setup"
    built = _run([node, "node_modules/typescript/bin/tsc", "-p", "."])
    assert built.returncode == 0, built.stdout + built.stderr
    service = make_service()
    done = _run([node, str(HERE / "node_ratings.mjs")], RISK_TARGET=f"http://{service.target}")
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}\n{service.logs()[-3000:]}"
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["ok"] and seen["total"] == 3, seen
