"""Where the test suite's CPU goes: a pytest plugin and its report.

The suite is CPU-bound on two cores (bench/RESULTS.md, "The suite's wall time"), and most of
its CPU is in the processes tests start (services, `risk` commands, Chromium, Node), which a
profiler of the pytest process does not see. This plugin records, for every test, the CPU of
the worker itself and of the child processes it reaped while the test ran (setup, call and
teardown, so a module fixture's process is counted at the test that ends the module), and
every service start (`ServiceProcess`), as JSON lines in the file `RISK_SUITE_CPU` names:

    RISK_SUITE_CPU=/tmp/cpu.jsonl bash scripts/test -p risk_testing.suite_cpu
    python -m risk_testing.suite_cpu /tmp/cpu.jsonl

A child counts once it is reaped (a process a session fixture keeps, such as a worker's
Chromium, at the session's end), and a grandchild only if its parent reaped it.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from risk_testing import harness, launcher

ENV = "RISK_SUITE_CPU"


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    # services forked by the launcher are its children: their CPU comes from its reports
    return (own.ru_utime + own.ru_stime,
            children.ru_utime + children.ru_stime + launcher.forked_cpu())


def _write(record: dict[str, Any]) -> None:
    with open(os.environ[ENV], "a") as out:  # one line per write: workers append safely
        out.write(json.dumps(record) + "\n")


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get(ENV):
        raise pytest.UsageError(f"-p risk_testing.suite_cpu needs {ENV}=<file to write>")
    start_once = harness.ServiceProcess._start_once

    def counted(self: harness.ServiceProcess, timeout: float) -> None:
        _write({"start": os.environ.get("PYTEST_CURRENT_TEST", "")})
        start_once(self, timeout)

    harness.ServiceProcess._start_once = counted  # type: ignore[method-assign]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None
                            ) -> Generator[None, None, None]:
    own, children, wall = *_cpu(), time.monotonic()
    yield
    own_after, children_after = _cpu()
    _write({"test": item.nodeid, "self": own_after - own,
            "children": children_after - children, "wall": time.monotonic() - wall})


def report(path: Path, top: int) -> str:
    """CPU by directory and by file, and service starts by file."""
    files: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    starts: collections.Counter[str] = collections.Counter()
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if "start" in record:
            starts[record["start"].partition("::")[0]] += 1
            continue
        row = files[record["test"].partition("::")[0]]
        row[0] += record["self"]
        row[1] += record["children"]
        row[2] += record["wall"]
        row[3] += 1
    own = sum(row[0] for row in files.values())
    children = sum(row[1] for row in files.values())
    folders: dict[str, float] = collections.defaultdict(float)
    for name, row in files.items():
        folders[name.split("/")[1] if name.count("/") > 1 else name] += row[0] + row[1]
    lines = [f"{sum(int(row[3]) for row in files.values())} tests: CPU {own + children:.0f} s "
             f"(the workers {own:.0f} s, their children {children:.0f} s); "
             f"{sum(starts.values())} service starts",
             "by directory: " + ", ".join(f"{name} {cpu:.0f} s"
                                          for name, cpu in sorted(folders.items(),
                                                                  key=lambda f: -f[1])),
             f"{'CPU s':>7} {'self':>6} {'children':>8} {'wall s':>7} {'tests':>5} "
             f"{'starts':>6}  file"]
    for name, row in sorted(files.items(), key=lambda item: -(item[1][0] + item[1][1]))[:top]:
        lines.append(f"{row[0] + row[1]:7.1f} {row[0]:6.1f} {row[1]:8.1f} {row[2]:7.1f} "
                     f"{int(row[3]):5d} {starts[name]:6d}  {name}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help=f"the file {ENV} named")
    parser.add_argument("--top", type=int, default=30, help="files listed (most CPU first)")
    args = parser.parse_args()
    print(report(args.path, args.top))


if __name__ == "__main__":
    main()
