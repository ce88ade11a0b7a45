"""The suite's own guards, run on a small suite of their own: a hung test is stopped by the
timeout, and a process a test leaves running is ended and fails the run, naming that test."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tests.child_processes import running

ROOT = Path(__file__).resolve().parents[1]

LEAKY = '''
import subprocess, sys, threading
from pathlib import Path

import pytest

def test_starts_a_child_and_forgets_it():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    Path(r"{pids}").write_text(str(child.pid))

@pytest.mark.timeout(2)
def test_hangs():
    threading.Event().wait()

def test_fine():
    pass
'''


def test_a_leftover_process_is_ended_and_fails_the_run(tmp_path: Path) -> None:
    """A test that leaves a child running fails the session, which names the process and the
    test, and ends it; a test that hangs fails on the timeout instead of stopping the run."""
    pids = tmp_path / "pids"
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "test_leaky.py").write_text(textwrap.dedent(LEAKY.format(pids=pids)))
    (suite / "pytest.ini").write_text("[pytest]\n")
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.child_processes", "-p", "no:randomly",
         "-p", "no:cacheprovider", "-p", "no:xdist", "--timeout", "60", "--timeout-method",
         "signal", "-q", str(suite)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=120, check=False)
    output = done.stdout + done.stderr
    assert time.monotonic() - started < 60, output
    assert done.returncode == 1, output
    assert "Timeout (>2.0s)" in output and "test_hangs" in output, output
    assert "1 process(es) left running after the tests (ended now)" in output, output
    leaked = int(pids.read_text())
    assert f"pid {leaked}: " in output and "time.sleep(600)" in output
    assert "appeared during test_leaky.py::test_starts_a_child_and_forgets_it" in output
    assert not running(leaked), "the leftover was ended"
