"""No test leaves a process behind: a pytest plugin that finds, kills and reports leftovers.

Tests start real processes (redis-server, service processes, `risk watch`, cluster nodes), and a
test that fails, times out or forgets a `finally` can leave one running after the suite: it holds
ports and CPU and, on a shared machine, outlives the run. After every test this records which
child processes of the pytest process (and their children) appeared during it; when the session
ends, after every fixture has been torn down, whatever is still running is sent SIGTERM, then
SIGKILL, and the last test fails with the list: pid, command line and the test it appeared in.
Only Linux's /proc is read (psutil is not a dependency of the project). A process whose parent
has exited is adopted by init and is out of reach here; the helpers stop what they start.

tests/conftest.py uses it; `-p tests.child_processes` loads it into any other pytest run.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

GRACE_S = 3.0  # how long leftovers get to exit after SIGTERM (and those stopping anyway to end)
_STARTED_IN = pytest.StashKey[dict[int, str]]()  # pid -> the test during which it appeared


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:  # gone
        return found
    for task in tasks:
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def running(pid: int) -> bool:
    """Running, not a zombie waiting to be reaped (that one has exited already)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def command_line(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    return raw.replace(b"\0", b" ").decode(errors="replace").strip() or "?"


def descendants(pid: int | None = None) -> list[int]:
    """The live processes below `pid` (default: this one), parents before their children."""
    out: list[int] = []
    todo = _children(os.getpid() if pid is None else pid)
    while todo:
        child = todo.pop(0)
        if child in out:
            continue
        if running(child):
            out.append(child)
        todo += _children(child)
    return out


def _signal(pids: list[int], signum: int) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):  # exited meanwhile
            os.kill(pid, signum)


def _wait_gone(pids: list[int], timeout: float) -> list[int]:
    deadline = time.monotonic() + timeout
    while True:
        left = [pid for pid in pids if running(pid)]
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.05)


def end_leftovers(pids: list[int]) -> None:
    """SIGTERM, and SIGKILL what has not exited GRACE_S later."""
    _signal(pids, signal.SIGTERM)
    _signal(_wait_gone(pids, GRACE_S), signal.SIGKILL)
    _wait_gone(pids, GRACE_S)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """Note the processes that appeared during this test (its setup, call and teardown)."""
    before = set(descendants())
    try:
        return (yield)
    finally:
        started = item.config.stash.setdefault(_STARTED_IN, {})
        for pid in descendants():
            if pid not in before:
                started.setdefault(pid, item.nodeid)


@pytest.fixture(scope="session", autouse=True)
def no_process_left_behind(request: pytest.FixtureRequest) -> Iterator[None]:
    """Set up before every other fixture, so torn down after them all: what then still runs
    was left behind. It is ended, and reported as this session's last error."""
    yield
    left = descendants()
    if not left:
        return
    left = _wait_gone(left, GRACE_S)  # a stop signalled but not waited for: let it finish
    if not left:
        return
    started = request.config.stash.get(_STARTED_IN, {})
    lines = [f"  pid {pid}: {command_line(pid)} (appeared during {started.get(pid, '?')})"
             for pid in left]
    end_leftovers(left)
    raise AssertionError(f"{len(left)} process(es) left running after the tests (ended now):\n"
                         + "\n".join(lines))
