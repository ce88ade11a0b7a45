"""The TypeScript client's player calls (clients/node) against the real service on the session
Redis, as test_node_client.py runs the client's own suite: `tsc` type-checks and builds the
client, then node runs tests/client/node_players.mjs against a service process."""

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


def test_node_client_plays_as_players(make_service: ServiceFactory) -> None:
    """Player tokens, a game bound to two players on both their lists with whose turn it is,
    vacation and back, an invitation accepted, the player's stream resumed after a seq, and
    NOT_A_PLAYER for a host token, all through the typed Node client."""
    node = shutil.which("node")
    assert node, "node is not on PATH: run bash scripts/setup"
    built = _run([node, "node_modules/typescript/bin/tsc", "-p", "."])
    assert built.returncode == 0, built.stdout + built.stderr
    service = make_service(RISK_KEY_PREFIX="node-players")
    done = _run([node, str(HERE / "node_players.mjs")], RISK_TARGET=f"http://{service.target}")
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}\n{service.logs()[-3000:]}"
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["ok"] and "invitation" in seen["kinds"], seen
