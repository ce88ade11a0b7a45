"""Real service processes for tests and benchmarks: `python -m risk_service` on a free
loopback port.

Each `ServiceProcess` is a separate OS process with its own log file, so tests can run two
replicas on one Redis, SIGKILL one mid-game, and read the JSON log lines it wrote.
`ServiceFactory` is the type of the tests' `make_service` fixture (tests/service/conftest.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from risk_service.redis_server import PORT_ATTEMPTS, free_port
from risk_testing.launcher import ForkedProcess, Launcher

SERVICE_NAME = "risk.v1.RiskService"
# what the service logs when its gRPC or HTTP address is taken (server/app.py, http_port.py)
PORT_TAKEN_LINES = ("cannot listen on 127.0.0.1:", "cannot serve HTTP on 127.0.0.1:")
# set by launching(): service starts fork from it instead of running a new interpreter
_launcher: Launcher | None = None


def _listens(pid: int, port: int) -> bool:
    """Whether process `pid`, or a child of it (RISK_WORKERS), listens on TCP `port`:
    /proc/net/tcp{,6}'s listening sockets on the port, against the processes' descriptors.
    Where /proc cannot tell (not Linux), True: the health check alone decides."""
    if not os.path.exists("/proc/net/tcp"):
        return True
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):  # no tcp6 where IPv6 is off
        try:
            with open(table) as rows:
                next(rows)
                for row in rows:
                    cols = row.split()
                    # local address "IP:PORT" in hex, state 0A is LISTEN, the 10th is the inode
                    if cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:
                        inodes.add(cols[9])
        except FileNotFoundError:
            continue
    pids = [pid]
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:  # the process is gone: the caller sees it exit
        return False
    for task in tasks:
        try:  # (a kernel without CONFIG_PROC_CHILDREN: the process's own sockets only)
            with open(f"/proc/{pid}/task/{task}/children") as children:
                pids.extend(int(child) for child in children.read().split())
        except FileNotFoundError:
            continue
    for owner in pids:
        try:
            descriptors = os.listdir(f"/proc/{owner}/fd")
        except (FileNotFoundError, PermissionError):
            continue
        for fd in descriptors:
            try:
                link = os.readlink(f"/proc/{owner}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:[") and link[8:-1] in inodes:
                return True
    return False


class ServiceExitedError(RuntimeError):
    """The service process ended before it served."""


class ServiceProcess:
    def __init__(self, redis_url: str, log_dir: Path,
                 credentials: grpc.ChannelCredentials | None = None, *, http: bool = False,
                 python: str = sys.executable, **env: str) -> None:
        """`credentials`: how the readiness check connects (a TLS-only service); plaintext
        when None. `http`: also serve the HTTP port (Connect, gRPC-Web, JSON) at `http_url`.
        `python`: the interpreter that runs the service (a benchmark compares two)."""
        self.redis_url = redis_url
        self.credentials = credentials
        self.http = http
        self._draw_ports()
        self.log_path = log_dir / f"service-{self.port}.log"
        self.env = env
        self.python = python
        self.proc: subprocess.Popen[bytes] | ForkedProcess | None = None
        self._ports_final = False  # set once the service has served: clients hold the target

    def _draw_ports(self) -> None:
        self.port = free_port()
        self.target = f"127.0.0.1:{self.port}"
        self.http_port = free_port() if self.http else 0
        self.http_url = f"http://127.0.0.1:{self.http_port}" if self.http else ""

    def start(self, timeout: float = 30.0) -> None:
        """Start and wait until SERVING. A first start that finds a port free_port() picked
        taken since (by another test's child) draws fresh ports, as RedisServer does; later
        starts keep them."""
        for attempt in range(1, PORT_ATTEMPTS + 1):
            offset = self.log_path.stat().st_size if self.log_path.exists() else 0
            try:
                self._start_once(timeout)
            except ServiceExitedError:
                with self.log_path.open("rb") as log:  # this start's lines only
                    log.seek(offset)
                    lines = log.read().decode(errors="replace")
                taken = any(line in lines for line in PORT_TAKEN_LINES)
                if self._ports_final or attempt == PORT_ATTEMPTS or not taken:
                    raise
                self._draw_ports()
                continue
            self._ports_final = True
            return

    def _start_once(self, timeout: float) -> None:
        env = {
            **os.environ,
            "RISK_LISTEN": self.target,
            "REDIS_URL": self.redis_url,
            "RISK_SHUTDOWN_GRACE_S": "1",
            **({"RISK_HTTP_LISTEN": f"127.0.0.1:{self.http_port}"} if self.http else {}),
            **self.env,
        }
        if self._forkable(env):
            assert _launcher is not None
            self.proc = _launcher.spawn(env, self.log_path)
        else:
            with self.log_path.open("ab") as log:
                self.proc = subprocess.Popen([self.python, "-m", "risk_service"], env=env,
                                             stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ServiceExitedError(f"service exited early:\n{self.logs()}")
            # ready only once our own process holds the port: another test's service can
            # listen on a port free_port() also gave us, and would answer the health check
            # while ours fails to bind (seen: a replica's calls served on another Redis)
            if (_listens(self.proc.pid, self.port)
                    and (not self.http or _listens(self.proc.pid, self.http_port))
                    and self._serving()):
                return
            time.sleep(0.05)
        self.kill()  # no test holds a process that never served: it would outlive the test
        raise RuntimeError(f"service did not become healthy:\n{self.logs()}")

    def _forkable(self, env: dict[str, str]) -> bool:
        """Whether the launcher can start this one: this interpreter, and no interpreter
        option in the environment that differs from the launcher's own."""
        return (_launcher is not None and self.python == sys.executable
                and all(env.get(name) == os.environ.get(name)
                        for name in {*env, *os.environ} if name.startswith("PYTHON")))

    def _serving(self) -> bool:
        """Ready: the service's own health status (it follows Redis) is SERVING."""
        channel = (grpc.insecure_channel(self.target) if self.credentials is None
                   else grpc.secure_channel(self.target, self.credentials))
        with channel:
            stub = health_pb2_grpc.HealthStub(channel)
            try:
                reply = stub.Check(health_pb2.HealthCheckRequest(service=SERVICE_NAME),
                                   timeout=0.5)
            except grpc.RpcError:
                return False
        return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> int:
        """SIGTERM and wait: the graceful path."""
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.wait(5)

    def restart(self, *, same_address: bool = True) -> None:
        """Kill and start again. On the same ports by default (clients reconnect to the
        address they had); `same_address=False` draws fresh ones, for a caller that needs no
        old address: a port freed by the kill can be drawn and bound by another test's child
        before this process binds it again (seen once in CI: "address is in use")."""
        self.kill()
        if not same_address:
            self._ports_final = False
            self._draw_ports()  # (its log stays where it was: one file for both lives)
        self.start()

    def logs(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""

    async def wait_serving(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if await asyncio.to_thread(self._serving):
                return
            await asyncio.sleep(0.05)
        raise TimeoutError("service is not serving")



@contextlib.contextmanager
def launching() -> Iterator[None]:
    """Service starts in the block fork from one preloaded process (risk_testing.launcher)
    instead of each importing the service anew. A forked service still running when the
    block ends was left behind by a test: it is killed and the block raises, naming it."""
    global _launcher  # noqa: PLW0603 (the one switch ServiceProcess reads)
    launcher, previous = Launcher(), _launcher
    _launcher = launcher
    try:
        yield
    finally:
        _launcher = previous
        left = launcher.close()
    if left:
        raise AssertionError(f"service process(es) left running after the tests (killed): "
                             f"pids {left}")


# make_service(url=None, credentials=None, *, http=False, **env): a started ServiceProcess
ServiceFactory = Callable[..., ServiceProcess]


@contextlib.contextmanager
def running(*processes: ServiceProcess) -> Iterator[tuple[ServiceProcess, ...]]:
    """Start `processes` in order and stop (SIGTERM) every one started when the block ends,
    however it ends, a start that fails included."""
    started: list[ServiceProcess] = []
    try:
        for process in processes:
            process.start()
            started.append(process)
        yield processes
    finally:
        for process in started:
            process.stop()

