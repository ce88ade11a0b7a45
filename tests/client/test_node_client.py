"""The TypeScript client (clients/node) against the real service on the session Redis.

The service runs as `python -m risk_service` (risk_testing.harness); the client's own
`node --test` suite (clients/node/test) runs against it after `tsc` has type-checked and built
the client, its examples and its tests. scripts/setup installs Node.js and the client's pinned
packages (`npm ci`), so nothing here is skipped for want of them.

`tsc` is incremental (clients/node/tsconfig.json; its state in dist/tsconfig.tsbuildinfo): it
compares every file of the program by content hash, sources and the dependencies' declarations
alike, re-checks what changed and what depends on it, and reports a file's errors again until
they are fixed; an unchanged tree costs it parsing and binding alone (1.7 s of CPU, not 4).
(Not `tsc -b`: its up-to-date check trusts modified times and skips the dependencies'
declarations.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from risk_testing.harness import ServiceFactory

NODE_CLIENT = Path(__file__).resolve().parents[2] / "clients" / "node"
TIMEOUT_S = 240


def _run(command: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=NODE_CLIENT, env={**os.environ, **env}, text=True,
                          capture_output=True, timeout=TIMEOUT_S, check=False)


def test_node_client_plays_streams_and_reads_reasons(make_service: ServiceFactory) -> None:
    """A whole 2-player Classic game through the TypeScript client, watched by a spectator
    that sees every version; the uint64 seed arrives exactly; errors carry their reasons; a
    variant's description (the board to draw) arrives whole; and a game played through
    sessions on the HTTP port's WebSocket, watched by a WebSocket spectator."""
    node = shutil.which("node")
    assert node, "node is not on PATH: run bash scripts/setup"
    built = _run([node, "node_modules/typescript/bin/tsc", "-p", "."])
    assert built.returncode == 0, built.stdout + built.stderr
    service = make_service(http=True, RISK_KEY_PREFIX="node-client")
    done = _run([node, "--test", "--test-reporter=spec", "dist/test/"],
                RISK_TARGET=f"http://{service.target}", RISK_HTTP_URL=service.http_url)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}\n{service.logs()[-4000:]}"
    assert "pass 7" in done.stdout, done.stdout  # the node suite ran, all of it
    assert '"protocol":"websocket"' in service.logs().replace(": ", ":"), \
        "the service logged no WebSocket call"
