"""The client stands alone: its distribution and the two it shares with the service, installed
by path into an empty virtualenv, give a working `risk` command and `RiskClient` against a real
service, and that environment has no `risk_service` to import.

The three folders are copied first, so the install reads nothing outside them (no readme or
package root of the repository's) and builds nothing inside the worktree.

What it costs (CPU, the suite's budget): the repository's pip builds the three wheels from the
copies with the venv's setuptools, checked against each pyproject's [build-system] requires
(--check-build-dependencies), rather than installing setuptools into three isolated build
environments (measured: the same wheels, file for file); and the empty virtualenv gets no pip
of its own (`venv --without-pip`): the repository's pip installs into it (`pip --python`),
resolving the dependencies from the wheels' own metadata as before.

Nothing is downloaded: those dependencies come only from .venv/wheelhouse (`--no-index`), the
binary wheels `scripts/setup` fills it with at constraints.txt's pins, and the install keeps to
those pins (`--constraint`); `--isolated` keeps the user's pip settings (an index, more
find-links) out of it. Without that folder, or with one filled for other pins, the test fails
and says to run `bash scripts/setup`.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from risk_testing.harness import ServiceFactory

REPO = Path(__file__).resolve().parents[2]
DISTRIBUTIONS = ("proto/python", "service/rules", "clients/python")  # dependencies first
_JUNK = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "dist")
WHEELHOUSE = REPO / ".venv" / "wheelhouse"  # scripts/setup fills it
CONSTRAINTS = REPO / "constraints.txt"

_SDK_PROBE = """
import asyncio, sys
from risk_client import RiskClient

async def main() -> None:
    async with RiskClient(sys.argv[1]) as client:
        reply = await client.get_game(sys.argv[2])
    print("status", reply.game.status, "version", reply.game.version)

asyncio.run(main())
"""


def _wheelhouse() -> Path:
    """scripts/setup's folder of the dependencies' wheels, filled for the current pins: its
    stamp hashes the three pyproject files and constraints.txt, as setup does."""
    metadata = b"".join((REPO / name / "pyproject.toml").read_bytes() for name in DISTRIBUTIONS)
    stamp = hashlib.sha256(metadata + CONSTRAINTS.read_bytes()).hexdigest()[:16]
    assert (WHEELHOUSE / f".filled-{stamp}").is_file(), (
        f"{WHEELHOUSE} is missing, or was filled for other pins than constraints.txt's and the "
        "pyproject files': run `bash scripts/setup` (it downloads the client's dependencies "
        "there; this test installs offline)")
    return WHEELHOUSE


def _venv(tmp_path: Path) -> Path:
    """An empty virtualenv with the three distributions installed from wheels built from
    copies, their dependencies from the wheelhouse only; its bin/."""
    wheelhouse = _wheelhouse()
    paths = []
    for name in DISTRIBUTIONS:
        copy = tmp_path / "src" / name
        shutil.copytree(REPO / name, copy, ignore=_JUNK)
        paths.append(str(copy))
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)
    pip = [sys.executable, "-m", "pip"]
    wheels = tmp_path / "wheels"
    built = subprocess.run(
        [*pip, "wheel", "-q", "--no-deps", "--no-build-isolation", "--check-build-dependencies",
         "--wheel-dir", str(wheels), *paths],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240, check=False)
    assert built.returncode == 0, built.stderr
    built_wheels = sorted(str(wheel) for wheel in wheels.glob("*.whl"))
    assert len(built_wheels) == len(DISTRIBUTIONS), built_wheels
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=60)
    installed = subprocess.run(
        [*pip, "--python", str(venv / "bin" / "python"), "--isolated", "install", "--no-index",
         "--find-links", str(wheelhouse), "--constraint", str(CONSTRAINTS), *built_wheels],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240, check=False)
    assert installed.returncode == 0, f"{installed.stdout}{installed.stderr}"
    assert f"Looking in links: {wheelhouse}\n" in installed.stdout, installed.stdout
    assert "Downloading" not in installed.stdout, installed.stdout
    return venv / "bin"


def _run(bin_dir: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "RISK_TOKEN")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run([str(bin_dir / args[0]), *args[1:]], env=env, cwd=bin_dir,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, f"{' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout


def test_client_installs_and_plays_without_the_service(
    make_service: ServiceFactory, tmp_path: Path
) -> None:
    """pip builds the client's path (and the shared two) and installs them into an empty
    venv: no risk_service there; its `risk` creates, joins, lists legal moves, submits,
    resigns, exports and verifies a finished game, and its RiskClient reads that game."""
    bin_dir = _venv(tmp_path)
    probe = subprocess.run([str(bin_dir / "python"), "-c", "import risk_service"],
                           cwd=bin_dir, capture_output=True, text=True, check=False)
    assert probe.returncode == 1 and "No module named 'risk_service'" in probe.stderr

    service = make_service()
    target = f"--target={service.target}"
    created = _run(bin_dir, "risk", "create", target, "--players=2", "--seed=4")
    game_id = re.search(r"^game (\S+)$", created, re.MULTILINE)
    assert game_id, created
    game = game_id[1]
    tokens = [_run(bin_dir, "risk", "join", target, game, str(seat)).split()[-1]
              for seat in (0, 1)]

    for _ in range(4):  # the seat to move plays the first command `legal` offers
        for token in tokens:
            legal = _run(bin_dir, "risk", "legal", target, f"--token={token}", game)
            command = re.search(r"\[([^\]]+)\]", legal)
            if command:
                break
        assert command, legal
        words = re.sub(r"(\d+)\.\.\d+", r"\1", command[1]).split()  # a range: its least
        submitted = _run(bin_dir, "risk", "submit", target, f"--token={token}", game, *words)
        assert submitted.startswith("ok: version"), submitted
        # the installed risk-rules carries the text table: the move reads as a sentence
        assert re.search(r"^  #\d+ v\d+ (Seat \d|The neutral) (placed \d+ arm|claimed )",
                         submitted, re.MULTILINE), submitted
    _run(bin_dir, "risk", "resign", target, f"--token={tokens[0]}", game)

    export = tmp_path / "game.export"
    _run(bin_dir, "risk", "export", target, f"--token={tokens[1]}", game, str(export))
    verified = _run(bin_dir, "risk", "verify", str(export))
    assert "verify: OK" in verified and "4 actions" in verified, verified

    read = _run(bin_dir, "python", "-c", _SDK_PROBE, service.target, game)
    assert re.fullmatch(r"status \d+ version \d+\n", read), read
