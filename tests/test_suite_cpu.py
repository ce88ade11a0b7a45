"""risk_testing.suite_cpu: the suite's CPU per test, its children's included, and its report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BUSY = """
import subprocess, sys


def test_a_child_that_spins() -> None:
    subprocess.run([sys.executable, "-c",
                    "import time\\nend = time.process_time() + 0.3\\n"
                    "while time.process_time() < end: pass"], check=True)


def test_nothing_much() -> None:
    assert True
"""


def test_a_childs_cpu_is_counted_at_its_test_and_reported_by_file(tmp_path: Path) -> None:
    (tmp_path / "test_busy.py").write_text(BUSY)
    out = tmp_path / "cpu.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "risk_testing.suite_cpu",
         "-p", "no:cacheprovider", "test_busy.py"],
        cwd=tmp_path, env={**os.environ, "RISK_SUITE_CPU": str(out)}, capture_output=True,
        text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    records = {line["test"].rpartition("::")[2]: line for line in lines}
    assert records["test_a_child_that_spins"]["children"] >= 0.25, records
    assert records["test_nothing_much"]["children"] < 0.1, records
    report = subprocess.run([sys.executable, "-m", "risk_testing.suite_cpu", str(out)],
                            capture_output=True, text=True, timeout=60, check=True).stdout
    assert "2 tests: CPU" in report and "0 service starts" in report, report
    assert report.rstrip().endswith("test_busy.py"), report


def test_without_its_file_the_plugin_refuses_to_run(tmp_path: Path) -> None:
    (tmp_path / "test_busy.py").write_text(BUSY)
    env = {k: v for k, v in os.environ.items() if k != "RISK_SUITE_CPU"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "risk_testing.suite_cpu",
         "-p", "no:cacheprovider", "test_busy.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0 and "RISK_SUITE_CPU" in done.stdout + done.stderr
