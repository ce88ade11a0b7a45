"""The embedded Redis: start, stop and supervise a local ``redis-server`` child process.

The service uses this when no ``REDIS_URL`` is configured (``scripts/serve``): it runs its own
Redis on 127.0.0.1 with the append-only file on and ``appendfsync always``, so every write Redis
acknowledged is on disk before the client hears back and a crash of either process loses no
accepted action; ``supervise`` starts it again when it dies. The child is launched from
command-line arguments alone, is bound to loopback, and is taken down with its parent: by
``atexit`` on a normal exit and by the Linux parent-death signal when the parent is killed.
Only what the service itself does lives here; the tests' and benchmarks' Redis (fault
injection: SIGKILL and restart, a cluster bus port, extra arguments, AOF off) extends
``RedisServer`` in the support package, ``risk_testing.redis_server``, which the service never
imports.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextlib
import enum
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Literal

import redis
import structlog
from redis.backoff import NoBackoff
from redis.retry import Retry

AppendFsync = Literal["always", "everysec", "no"]

HOST = "127.0.0.1"
LOG_FILE_NAME = "redis.log"
MISSING_BINARY_MESSAGE = (
    "redis-server was not found on PATH. Install it (Debian/Ubuntu: "
    "`apt-get install -y redis-server`) or set REDIS_URL to use an existing Redis."
)

_APPENDFSYNC_POLICIES: frozenset[str] = frozenset({"always", "everysec", "no"})
_LOG_TAIL_LINES = 20
_PROBE_INTERVAL_SECONDS = 0.02
_TERM_RESEND_SECONDS = 0.5  # how often stop() repeats a SIGTERM Redis has not acted on


class RedisServerError(RuntimeError):
    """The redis-server child could not be found, started, or reached."""


_PORT_FLOOR = 20000  # free_port() draws from [_PORT_FLOOR, the ephemeral range's start)
PORT_ATTEMPTS = 5  # starts on ports free_port() chose, before a taken one is an error
PORT_TAKEN_LOG = "Address already in use"  # what redis-server logs when it cannot bind
_recent_ports: collections.deque[int] = collections.deque(maxlen=512)


def _ephemeral_start() -> int:
    """The first port of the kernel's ephemeral range (Linux: 32768 unless configured)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago, for a child that binds it later.

    It is drawn at random from below the kernel's ephemeral range: there the kernel hands out
    ports to nobody, neither to outgoing connections nor to another program's bind to port 0,
    which are what took such a port between this check and the child's own bind (CI saw
    "Address already in use" from a cluster node). Two callers can still draw the same one;
    RedisServer, which binds it last, draws again then. A port handed out lately by this
    process is not handed out again. Where the range leaves no room, the kernel chooses.
    """
    ceiling = _ephemeral_start()
    for _ in range(100 if ceiling - _PORT_FLOOR >= 1000 else 0):
        port = random.randrange(_PORT_FLOOR, ceiling)
        if port in _recent_ports:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind((HOST, port))
            except OSError:  # in use, or in TIME_WAIT for somebody
                continue
        _recent_ports.append(port)
        return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        chosen: int = probe.getsockname()[1]
        _recent_ports.append(chosen)
        return chosen


class PortTakenError(RedisServerError):
    """The child exited because a port it was given was bound by somebody else."""


class _Answer(enum.Enum):
    """What one readiness probe found (RedisServer._probe)."""

    READY = "ready"
    WAIT = "wait"
    RESPAWN = "respawn"  # a port was taken and fresh ones drawn: start the child again


_READY, _WAIT, _RESPAWN = _Answer.READY, _Answer.WAIT, _Answer.RESPAWN


def _parent_death_prefix() -> list[str]:
    """`setpriv --pdeathsig TERM --`, so Linux SIGTERMs the child when its parent dies.

    A Python preexec_fn would do the same, but it makes the forked child run gRPC's fork
    handlers, which crash it now and then. The kernel signals on the death of the *thread* that
    forked, so it is only used from the main thread; other children rely on the pidfile sweep
    (`_stop_leftover`) and the atexit hook. SIGTERM, not SIGKILL: Redis flushes its AOF.
    """
    setpriv = shutil.which("setpriv")
    if sys.platform != "linux" or setpriv is None or \
            threading.current_thread() is not threading.main_thread():
        return []
    return [setpriv, "--pdeathsig", "TERM", "--"]


def _stop_leftover(pidfile: Path, timeout: float = 10.0) -> None:
    """Stop a redis-server that an earlier, crashed owner left running on this data dir, so two
    servers never append to one AOF."""
    try:
        pid = int(pidfile.read_text().strip())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return
    if b"redis-server" not in cmdline:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and Path(f"/proc/{pid}").exists():
            time.sleep(0.05)
        if Path(f"/proc/{pid}").exists():
            os.kill(pid, signal.SIGKILL)


class RedisServer:
    """One ``redis-server`` child on 127.0.0.1 with its data (AOF, log) under ``data_dir``.

    The port is drawn at construction, so ``url`` is valid before the first start and stays
    the same across restarts. The first start may replace it: when the child finds it taken,
    which no check made in advance can rule out, it draws a fresh one (``draw_ports``) and
    starts again (``PORT_ATTEMPTS`` tries in all). Once the child has answered, its ports are
    final. A subclass adds arguments through ``command_line`` and ports through ``draw_ports``.
    """

    def __init__(self, data_dir: Path, *, appendfsync: AppendFsync = "always") -> None:
        if appendfsync not in _APPENDFSYNC_POLICIES:
            raise ValueError(f"appendfsync must be one of {sorted(_APPENDFSYNC_POLICIES)}")
        self.data_dir = data_dir.resolve()
        self.port = free_port()
        self._ports_final = False  # set once the child has answered: clients hold its URL
        self._draws = 0  # fresh ports drawn so far
        self._log_start = 0  # where this start's lines begin in the (appended) log
        self.appendfsync = appendfsync
        self._process: subprocess.Popen[bytes] | None = None
        # True from start() until stop(): an exit in between is a crash the supervisor repairs.
        self._wanted_running = False

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    @property
    def log_path(self) -> Path:
        return self.data_dir / LOG_FILE_NAME

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The child of the last start (running or not), None before the first."""
        return self._process

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs, else None."""
        return self._process.pid if self.is_running() and self._process is not None else None

    def is_running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def exited_unexpectedly(self) -> bool:
        """True when the server was started and its process is gone without a stop()."""
        return self._wanted_running and not self.is_running()

    def command_line(self) -> list[str]:
        """The argv the child is launched with, minus the binary."""
        return [
            "--port", str(self.port),
            "--bind", HOST,
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--save", "",
            "--daemonize", "no",
            "--logfile", str(self.log_path),
            "--pidfile", str(self.data_dir / "redis.pid"),
            "--protected-mode", "yes",
        ]  # fmt: skip

    def draw_ports(self) -> bool:
        """Draw fresh ports after the child found one taken at its first start; False when
        none may change. Never called once the child has answered."""
        self.port = free_port()
        return True

    # -- lifecycle, blocking ----------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> None:
        """Launch the child and block until it answers PING (and INFO says it is ours)."""
        self._spawn()
        deadline = time.monotonic() + timeout
        while (answer := self._probe()) is not _READY:
            deadline = self._after_probe(answer, deadline, timeout)
            time.sleep(_PROBE_INTERVAL_SECONDS)

    def stop(self, timeout: float = 10.0) -> None:
        """Shut down gracefully (SIGTERM: Redis flushes the AOF), SIGKILL after ``timeout``."""
        self._wanted_running = False
        atexit.unregister(self._terminate_at_exit)
        self._terminate(timeout)

    # -- lifecycle, for asyncio callers -----------------------------------------------------

    async def start_async(self, timeout: float = 10.0) -> None:
        """start() without blocking the event loop while Redis loads.

        The fork happens on the calling thread (normally the main thread, which keeps the
        parent-death signal meaningful); only the readiness probes go to worker threads.
        """
        self._spawn()
        deadline = time.monotonic() + timeout
        while (answer := await asyncio.to_thread(self._probe)) is not _READY:
            deadline = self._after_probe(answer, deadline, timeout)
            await asyncio.sleep(_PROBE_INTERVAL_SECONDS)

    async def stop_async(self, timeout: float = 10.0) -> None:
        """stop() with the wait for the child's exit moved off the event loop."""
        await asyncio.to_thread(self.stop, timeout)

    async def restart_async(self, timeout: float = 10.0) -> None:
        """Start again on the same port and data dir, so Redis replays its AOF, without
        blocking the event loop (the supervisor's repair)."""
        if self.is_running():
            await self.stop_async(timeout)
        await self.start_async(timeout)

    # -- internals --------------------------------------------------------------------------

    def _spawn(self) -> None:
        if self.is_running():
            raise RedisServerError(f"redis-server on port {self.port} is already running")
        binary = shutil.which("redis-server")
        if binary is None:
            raise RedisServerError(MISSING_BINARY_MESSAGE)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        _stop_leftover(self.data_dir / "redis.pid")
        self._log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        # stdout/stderr go to the log too: errors in the arguments are printed before Redis
        # opens its logfile, and they are exactly what the startup error needs to show.
        with self.log_path.open("ab") as log_file:
            self._process = subprocess.Popen(
                [*_parent_death_prefix(), binary, *self.command_line()],
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                # Own process group: Ctrl-C in a terminal reaches only the parent, which then
                # stops Redis in order instead of racing a supervisor that would restart it.
                process_group=0,
            )
        self._wanted_running = True
        atexit.unregister(self._terminate_at_exit)
        atexit.register(self._terminate_at_exit)

    def _probe(self) -> _Answer:
        """One readiness check: _READY once our child answers, _WAIT before. A child that
        exited raises, but for one that found a port taken which may still change: fresh
        ports are drawn, and the answer is _RESPAWN."""
        process = self._process
        if process is None or process.poll() is not None:
            code = None if process is None else process.returncode
            taken = PORT_TAKEN_LOG in self._this_start_log()
            if taken and self._draw_again():
                return _RESPAWN
            raise (PortTakenError if taken else RedisServerError)(
                f"redis-server on port {self.port} exited during startup (code {code}); "
                f"log {self.log_path}:\n{self._log_tail()}"
            )
        try:
            # No client-side retries: the library's default backoff would turn one refused
            # probe into seconds; this loop is the retry.
            with redis.Redis(
                host=HOST,
                port=self.port,
                socket_timeout=0.5,
                socket_connect_timeout=0.5,
                retry=Retry(NoBackoff(), 0),
            ) as client:
                client.ping()
                info = client.info("server")
        except redis.RedisError:  # refused, or still loading the AOF
            return _WAIT
        # Guards against a port race: never hand out the URL of somebody else's Redis.
        if info.get("process_id") != process.pid:
            raise RedisServerError(
                f"port {self.port} is answered by another Redis (pid {info.get('process_id')})"
            )
        self._ports_final = True  # it answered
        return _READY

    def _after_probe(self, answer: _Answer, deadline: float, timeout: float) -> float:
        """The deadline for the next probe after `answer` (not _READY): a fresh start, on the
        caller's thread, after _RESPAWN; the same one, or the end of the wait, after _WAIT."""
        if answer is _RESPAWN:
            self._spawn()
            return time.monotonic() + timeout
        if time.monotonic() > deadline:
            self._raise_not_ready(timeout)
        return deadline

    def _draw_again(self) -> bool:
        """After a taken port: True with fresh ports where they may still change."""
        if self._ports_final or self._draws >= PORT_ATTEMPTS - 1:
            return False
        taken = self.port
        if not self.draw_ports():
            return False
        self._draws += 1
        structlog.get_logger().warning("redis_server_port_taken", port=taken,
                                       draws=self._draws)
        return True

    def _this_start_log(self) -> str:
        try:
            with self.log_path.open("rb") as log:
                log.seek(self._log_start)
                return log.read().decode(errors="replace")
        except OSError:
            return ""

    def _raise_not_ready(self, timeout: float) -> None:
        self._terminate(timeout=2.0)
        raise RedisServerError(
            f"redis-server on port {self.port} did not answer PING within {timeout}s; "
            f"log {self.log_path}:\n{self._log_tail()}"
        )

    def _terminate(self, timeout: float) -> None:
        """SIGTERM, repeated until Redis exits; SIGKILL after `timeout`. Redis refuses a
        shutdown while it writes its first AOF (after a start, or a replica's first copy of
        its master: "Writing initial AOF, can't exit") and then runs on; only a later SIGTERM
        stops it cleanly, where waiting once would end in SIGKILL `timeout` later."""
        process = self._process
        if process is None or process.poll() is not None:
            return
        deadline = time.monotonic() + timeout
        while True:
            process.terminate()
            try:
                process.wait(min(_TERM_RESEND_SECONDS, max(0.0, deadline - time.monotonic())))
                return
            except subprocess.TimeoutExpired:
                if time.monotonic() >= deadline:
                    break
        process.kill()
        process.wait()

    def _terminate_at_exit(self) -> None:
        # Kept apart from stop(): unregistering a callback while atexit runs it is not safe.
        self._terminate(timeout=5.0)

    def _log_tail(self) -> str:
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError as error:
            return f"(no log: {error})"
        return "\n".join(lines[-_LOG_TAIL_LINES:])


async def supervise(
    server: RedisServer,
    stop_event: asyncio.Event,
    *,
    poll_interval: float = 0.5,
    max_backoff: float = 30.0,
) -> None:
    """Restart ``server`` whenever it dies without stop(), until ``stop_event`` is set.

    Stopping the server itself is left to its owner, after this returns.
    """
    log = structlog.get_logger()
    delay = poll_interval
    while not stop_event.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop_event.wait(), timeout=delay)
        if stop_event.is_set() or not server.exited_unexpectedly():
            delay = poll_interval
            continue
        log.warning("redis_server_died", url=server.url, log_path=str(server.log_path))
        try:
            await server.restart_async()
        except RedisServerError as error:
            delay = min(delay * 2, max_backoff)
            log.error(
                "redis_server_restart_failed", url=server.url, error=str(error), retry_in=delay
            )
            continue
        delay = poll_interval
        log.info("redis_server_restarted", url=server.url, pid=server.pid)
