"""Every benchmark under bench/ starts as its docstring says to run it: `python bench/<name>.py`.

Run that way, the script's own folder is first on sys.path, so a module there named like one of
the standard library's (an `http.py`) stands in for it in every import below, the service's
included; and the scripts import each other and risk_testing's clients. A script that cannot get
past its imports fails here rather than in the middle of a benchmark sitting (bench/all.py).
`--help` parses the script's arguments and stops: nothing is started and nothing measured.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(p.name for p in (ROOT / "bench").glob("*.py")
                 if p.name not in ("all.py", "__init__.py") and not p.name.startswith("_")
                 and "__main__" in p.read_text())


def test_the_benchmarks_are_found() -> None:
    assert {"peers.py", "service.py", "http_port.py", "profile_service.py"} <= set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_benchmark_starts_as_a_script(script: str) -> None:
    done = subprocess.run([sys.executable, f"bench/{script}", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("usage:"), done.stdout[:500]


def test_a_base_named_head_is_this_checkouts_head() -> None:
    """`--base HEAD` (or any name) means the commit it names here: the benchmarks' worktree,
    left at another commit by an earlier run, must not read it as its own HEAD (it did, and a
    change measured against HEAD was measured against that older commit)."""
    name = "test-base-rev"
    path = ROOT / "bench" / ".scratch" / name

    def git(*args: str, cwd: Path = ROOT) -> str:
        return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True,
                              text=True, timeout=60).stdout.strip()

    try:
        moved = subprocess.run(
            [sys.executable, "-c", f"from bench.ab import worktree; worktree('HEAD', {name!r})"],
            cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
        assert moved.returncode == 0, moved.stderr[-3000:]
        # the worktree moves on to a commit of its own, as a run at another --base leaves it
        git("-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "--quiet",
            "--allow-empty", "--no-verify", "-m", "elsewhere", cwd=path)
        assert git("rev-parse", "HEAD", cwd=path) != git("rev-parse", "HEAD")
        moved = subprocess.run(
            [sys.executable, "-c", f"from bench.ab import worktree; worktree('HEAD', {name!r})"],
            cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
        assert moved.returncode == 0, moved.stderr[-3000:]
        assert git("rev-parse", "HEAD", cwd=path) == git("rev-parse", "HEAD")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
                       capture_output=True, timeout=60, check=False)
