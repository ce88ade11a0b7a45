"""A redis-server for tests and benchmarks: the service's embedded Redis plus fault injection.

It is the product's `risk_service.redis_server.RedisServer` (the same start, readiness probe,
port redraw and stop), extended with what only tests and benchmarks do to a Redis: SIGKILL it
and start it again on the same port and data directory so it replays its AOF (`kill`,
`restart`), give it a port of the caller's, a Redis Cluster bus port (`bus_port`, for
`risk_testing.cluster`), any further arguments (replicas, cluster mode, bad directives) or the
AOF off.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from risk_service import redis_server as embedded
from risk_service.redis_server import AppendFsync, free_port


class RedisServer(embedded.RedisServer):
    """One `redis-server` child on 127.0.0.1 with its data (AOF, log) under `data_dir`.

    `port` 0 draws a free one; `bus_port` adds a Redis Cluster bus port (`--cluster-port`; 0
    draws a free one). Ports drawn here may be drawn again at the first start, as the embedded
    Redis's are; ports the caller gave are never changed.
    """

    def __init__(
        self,
        data_dir: Path,
        port: int = 0,
        *,
        appendonly: bool = True,
        appendfsync: AppendFsync = "always",
        extra_args: Sequence[str] = (),
        bus_port: int | None = None,
    ) -> None:
        super().__init__(data_dir, appendfsync=appendfsync)
        if port:
            self.port = port
        self.bus_port = None if bus_port is None else bus_port or free_port()
        self._redraw = (not port, bus_port == 0)  # which ports draw_ports may change
        self.appendonly = appendonly
        self.extra_args = tuple(extra_args)

    def command_line(self) -> list[str]:
        line = super().command_line()
        line[line.index("--appendonly") + 1] = "yes" if self.appendonly else "no"
        if self.bus_port is not None:
            line += ["--cluster-port", str(self.bus_port)]
        return [*line, *self.extra_args]

    def draw_ports(self) -> bool:
        port, bus = self._redraw
        if port:
            self.port = free_port()
        if bus:
            self.bus_port = free_port()
        return port or bus

    def kill(self) -> None:
        """SIGKILL the child and reap it: a crash. Data on disk stays, and a supervisor
        (`risk_service.redis_server.supervise`) sees an exit it did not ask for."""
        process = self.process
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()

    def restart(self, timeout: float = 10.0) -> None:
        """Start again on the same port and data dir, so Redis replays its AOF."""
        if self.is_running():
            self.stop(timeout)
        self.start(timeout)
