"""Service processes forked from one that has already imported the service: the tests' starts
without the import.

Every `python -m risk_service` a test starts spends about 0.4 s of CPU importing grpc, the
protobuf descriptors, redis-py and the service's own modules before it does anything, and the
suite starts about 350 of them (bench/RESULTS.md, "The suite's CPU"). The launcher is one
process per test worker that imports `risk_service.__main__` once, creates nothing (no event
loop, no gRPC core, no thread: checked before it serves), and forks a child for each start. The
child takes the start's environment, working directory and log file, and runs the service's
`__main__` as `python -m risk_service` does (`runpy`, `sys.argv` and all), then exits as that
process would, through the interpreter's own shutdown. It is gunicorn's `--preload` for tests:
the child is the real service in a process of its own, with its own sockets, signals sent to its
own pid, and its exit status reported back.

What a fork cannot give is an interpreter of another path or options read at interpreter start
(`PYTHON*` variables): `ServiceProcess` starts those with `subprocess.Popen` as before.

The standard library has the pieces but not this: `multiprocessing`'s forkserver forks from a
preloaded server too, but runs a Python function in a child it owns, with no log file as the
child's stdout and stderr and no exit status beside a pid for a caller that is not its parent.

The launcher reaps its children itself (they are not the test process's). `ForkedProcess`
stands in for `subprocess.Popen` (pid, poll, wait, send_signal, terminate, kill, returncode)
from the status the launcher sends when the child ends, and counts each child's CPU from its
rusage, which `risk_testing.suite_cpu` adds to the test that reaped it.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import resource
import runpy
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

# imported once, before any fork: the service and the four variants' engines, which a service
# imports on a variant's first use (imported, not registered: each child registers as it would),
# and what a service imports only when configured to: the HTTP port (uvicorn, connectrpc,
# websockets: 0.14 s of CPU at each start that serves it) and webhooks (httpx)
PRELOAD = ("risk_service.__main__", "risk_rules.variants.classic", "risk_rules.variants.legacy",
           "risk_rules.variants.deep_space", "risk_rules.variants.strike",
           "risk_rules.engine.legacy.campaign", "risk_service.server.http_port",
           "risk_service.notify.webhooks", "risk_service.notify.delivery")

# the launchers not yet reaped: the CPU of the services they reaped is not yet in this
# process's RUSAGE_CHILDREN (they are the launcher's children; theirs joins ours when it is)
_live: set[Launcher] = set()


def forked_cpu() -> float:
    """The CPU (user + sys, seconds) of forked services reaped by launchers still running."""
    return sum(launcher.reaped_cpu for launcher in _live)


class ForkedProcess:
    """A service forked by the launcher, as much of `subprocess.Popen` as the harness uses."""

    def __init__(self, connection: socket.socket, launcher: Launcher) -> None:
        """`connection`: the launcher's answer to a fork request, the pid line first."""
        self._connection = connection
        self._buffer = b""
        self._launcher = launcher
        self.returncode: int | None = None
        self.args = [sys.executable, "-m", "risk_service"]
        forked = self._line(30)
        if forked is None:
            raise RuntimeError("the service launcher did not fork within 30 s")
        self.pid = int(forked["pid"])

    def _line(self, timeout: float | None) -> dict[str, Any] | None:
        """The launcher's next line if it comes within `timeout` (0: only if here). One
        buffer for both lines: a child that ends at once can have them arrive together."""
        self._connection.settimeout(timeout)
        try:
            while b"\n" not in self._buffer:
                chunk = self._connection.recv(4096)
                if not chunk:  # the launcher is gone: it cannot have reaped this child
                    raise RuntimeError("the service launcher ended before its child")
                self._buffer += chunk
        except (TimeoutError, BlockingIOError):
            return None
        line, _, self._buffer = self._buffer.partition(b"\n")
        found: dict[str, Any] = json.loads(line)
        return found

    def _read_status(self, timeout: float | None) -> None:
        """Take the launcher's exit line if it comes within `timeout` (0: only if here)."""
        status = self._line(timeout)
        if status is None:
            return
        self.returncode = int(status["returncode"])
        self._launcher.reaped_cpu += float(status["cpu"])
        self._connection.close()
        self._launcher.children.discard(self)

    def poll(self) -> int | None:
        if self.returncode is None:
            self._read_status(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self._read_status(timeout)
            if self.returncode is None:
                raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        # like Popen: nothing is sent to a pid whose process has been reaped (and may be reused)
        if self.poll() is None:
            os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Launcher:
    """The preloaded process, started on first use; `close()` ends it."""

    def __init__(self) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="risk-launcher-")
        self._address = str(Path(self._folder.name) / "socket")
        self._process: subprocess.Popen[bytes] | None = None
        self.children: set[ForkedProcess] = set()
        self.reaped_cpu = 0.0  # the CPU of the children it reaped, from their rusage

    def _started(self) -> None:
        if self._process is not None and self._process.poll() is None:
            return
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if os.path.exists(self._address):
            os.unlink(self._address)
        listener.bind(self._address)
        listener.listen(64)
        with listener:
            # stdin: a pipe this process never writes; its end (this process gone) ends it
            self._process = subprocess.Popen(
                [sys.executable, "-m", "risk_testing.launcher", str(listener.fileno())],
                stdin=subprocess.PIPE, pass_fds=[listener.fileno()])
        _live.add(self)  # (its first fork is answered once it has imported: no probe)

    def spawn(self, env: dict[str, str], log_path: Path) -> ForkedProcess:
        """Fork a service with `env` as its whole environment, stdout and stderr appended to
        `log_path`, in this process's working directory."""
        self._started()
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.settimeout(30)
        connection.connect(self._address)
        request = {"env": env, "log": str(log_path), "cwd": os.getcwd()}
        connection.sendall(json.dumps(request).encode() + b"\n")
        child = ForkedProcess(connection, self)
        self.children.add(child)
        return child

    def close(self) -> list[int]:
        """End the launcher. A forked service still running was left behind by its test: it
        is killed, and its pid returned for the caller to report."""
        left = [child.pid for child in list(self.children) if child.poll() is None]
        for child in list(self.children):
            child.kill()
            child.wait(10)
        if self._process is not None:
            assert self._process.stdin is not None
            self._process.stdin.close()  # its children now all reaped, it ends
            self._process.wait(10)
        _live.discard(self)  # reaped: its children's CPU is now in RUSAGE_CHILDREN
        self._folder.cleanup()
        return left


def _exit_status(status: int, usage: resource.struct_rusage) -> bytes:
    cpu = usage.ru_utime + usage.ru_stime
    return json.dumps({"returncode": os.waitstatus_to_exitcode(status),
                       "cpu": cpu}).encode() + b"\n"


def _serve(listener: socket.socket) -> dict[str, Any]:
    """The launcher's loop: fork a child per request, send its pid, and its exit status when
    it is reaped. Returns only in a child, with its request."""
    for module in PRELOAD:  # what every child skips
        importlib.import_module(module)

    if threading.active_count() != 1:  # a thread would be lost in every child
        raise RuntimeError("importing the service started a thread: forking is not safe")
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda _signum, _frame: None)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    selector.register(wake_read, selectors.EVENT_READ)
    selector.register(sys.stdin.fileno(), selectors.EVENT_READ)
    waiting: dict[int, socket.socket] = {}  # child pid -> the connection its status goes to
    while True:
        for key, _ in selector.select():
            if key.fileobj == sys.stdin.fileno():  # the test process closed it, or is gone
                if not os.read(sys.stdin.fileno(), 4096):
                    for pid in waiting:  # (the caller killed every child it knew first)
                        os.kill(pid, signal.SIGKILL)
                    raise SystemExit(0)
            elif key.fileobj == wake_read:
                os.read(wake_read, 4096)
                while waiting:
                    pid, status, usage = os.wait4(-1, os.WNOHANG)
                    if pid == 0:
                        break
                    connection = waiting.pop(pid)
                    with contextlib.suppress(OSError):  # the test process stopped listening
                        connection.sendall(_exit_status(status, usage))
                    connection.close()
            else:
                connection, _ = listener.accept()
                request = json.loads(connection.makefile("rb").readline())
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:  # the child: drop the launcher's state, become the service
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    selector.close()
                    for held in (listener, connection, *waiting.values()):
                        held.close()
                    os.close(wake_read)
                    os.close(wake_write)
                    return request  # type: ignore[no-any-return]
                waiting[pid] = connection
                connection.sendall(json.dumps({"pid": pid}).encode() + b"\n")


def _become_service(request: dict[str, Any]) -> None:
    """In the child: the start's environment, folder and log file, then `python -m
    risk_service`'s own entry, exiting as that process would."""
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.argv = [""]  # `python -m risk_service` with no arguments (run_module sets [0])
    del sys.modules["risk_service.__main__"]  # run afresh as __main__ (its imports are done)
    runpy.run_module("risk_service", run_name="__main__", alter_sys=True)


def main() -> None:
    listener = socket.socket(fileno=int(sys.argv[1]))
    request = _serve(listener)
    _become_service(request)


if __name__ == "__main__":
    main()
