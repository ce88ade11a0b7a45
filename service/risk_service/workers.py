"""`--workers N` (or RISK_WORKERS=N): N service processes on one address, one supervising parent.

One Python process uses one core; a machine with more serves more with more processes. The
children are ordinary service processes (`python -m risk_service`) told to bind with
SO_REUSEPORT, so the kernel spreads new connections over them; they share nothing but Redis,
which already makes any number of processes one service (commits check versions, clocks fire
under leases, every subscriber reads the stream in Redis). The parent:
- checks the addresses are free before anything starts, and with port 0 picks one port for all;
- without REDIS_URL starts the embedded Redis itself (under the instance lock, instance.py),
  once, and hands its URL to the children: N workers must not start N Redis servers;
- gives worker i the metrics port `RISK_METRICS_PORT + i` (each worker has its own counters);
- restarts a worker that exits on its own (after a short, growing pause), forwards SIGTERM and
  SIGINT to all of them, waits for them to drain, and then stops the embedded Redis.
A worker that dies takes with it the connections the kernel had queued on its socket and not
yet handed over (they are reset); clients reconnect, and the other workers take new ones.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from types import FrameType

import structlog

from risk_service.instance import InstanceLock, check_listen
from risk_service.redis_server import RedisServer
from risk_service.settings import Settings

log = structlog.get_logger("workers")
_RESTART_PAUSE_S = (0.5, 1.0, 2.0, 5.0)  # pauses before restarting a worker that died again


def _reserve(address: str) -> tuple[str, socket.socket | None]:
    """`address` with port 0 replaced by a free port, held (bound with SO_REUSEPORT, not
    listening) until the workers have bound it too; other addresses unchanged."""
    host, _, port = address.rpartition(":")
    if port != "0":
        return address, None
    bare = host.strip("[]") or "0.0.0.0"
    holder = socket.socket(socket.AF_INET6 if ":" in bare else socket.AF_INET)
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    holder.bind((bare, 0))
    return f"{host}:{holder.getsockname()[1]}", holder


class Workers:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.children: list[subprocess.Popen[bytes] | None] = [None] * settings.workers
        self.deaths = [0] * settings.workers
        self.stopping = False

    def _env(self, index: int, listen: str, http_listen: str, redis_url: str) -> dict[str, str]:
        env = {**os.environ, "RISK_WORKERS": "1", "RISK_REUSE_PORT": "true",
               "RISK_LISTEN": listen, "REDIS_URL": redis_url, "RISK_WORKER_INDEX": str(index)}
        if http_listen:
            env["RISK_HTTP_LISTEN"] = http_listen
        if self.settings.metrics_port:
            env["RISK_METRICS_PORT"] = str(self.settings.metrics_port + index)
        return env

    def _spawn(self, index: int, env: dict[str, str]) -> None:
        child = subprocess.Popen([sys.executable, "-m", "risk_service"], env=env)
        self.children[index] = child
        log.info("worker_started", worker=index, pid=child.pid)

    def _signal(self, signum: int, _frame: FrameType | None) -> None:
        self.stopping = True
        for child in self.children:
            if child is not None and child.poll() is None:
                child.send_signal(signum)

    def run(self) -> int:
        settings = self.settings
        check_listen(settings.listen)
        if settings.http_listen:
            check_listen(settings.http_listen, "RISK_HTTP_LISTEN")
        listen, held = _reserve(settings.listen)
        http_listen, http_held = _reserve(settings.http_listen) if settings.http_listen \
            else ("", None)
        lock, embedded = InstanceLock(settings.data_dir), None
        redis_url = settings.redis_url
        if not redis_url:
            lock.acquire()
            embedded = RedisServer(settings.data_dir / "redis",
                                   appendfsync=settings.redis_appendfsync)  # type: ignore[arg-type]
            embedded.start()
            redis_url = embedded.url
        signal.signal(signal.SIGTERM, self._signal)
        signal.signal(signal.SIGINT, self._signal)
        envs = [self._env(i, listen, http_listen, redis_url) for i in range(settings.workers)]
        try:
            for index, env in enumerate(envs):
                self._spawn(index, env)
            log.info("workers", count=settings.workers, address=listen)
            self._supervise(envs, [held, http_held])
        finally:
            for child in self.children:
                if child is not None and child.poll() is None:
                    child.terminate()
            deadline = time.monotonic() + settings.shutdown_grace_s + 10
            for child in self.children:
                if child is not None:
                    try:
                        child.wait(max(0.1, deadline - time.monotonic()))
                    except subprocess.TimeoutExpired:
                        child.kill()
                        child.wait()
            if embedded is not None:
                embedded.stop()
            lock.release()
        log.info("stopped")
        return 0

    def _supervise(self, envs: list[dict[str, str]], held: list[socket.socket | None]) -> None:
        restart_at: dict[int, float] = {}
        while not self.stopping:
            time.sleep(0.2)
            if any(s is not None for s in held) and all(
                    c is not None and c.poll() is None for c in self.children):
                for sock in held:  # the workers have bound the port: nobody else can now
                    if sock is not None:
                        sock.close()
                held = [None] * len(held)
            for index, child in enumerate(self.children):
                if self.stopping or child is None or child.poll() is None:
                    continue
                due = restart_at.get(index)
                if due is None:
                    pause = _RESTART_PAUSE_S[min(self.deaths[index], len(_RESTART_PAUSE_S) - 1)]
                    self.deaths[index] += 1
                    restart_at[index] = time.monotonic() + pause
                    log.warning("worker_exited", worker=index, code=child.returncode,
                                restart_in_s=pause)
                elif time.monotonic() >= due:
                    del restart_at[index]
                    self._spawn(index, envs[index])
