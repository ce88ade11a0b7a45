"""One service per data directory, and no Redis started for a service that cannot listen.

Before the embedded Redis starts, the process takes an exclusive lock on a file in its data
directory and checks that its gRPC address is free. A second `bash scripts/serve` in the same
checkout therefore stops at once with a message naming the running instance, and never reaches
the step that stops a redis-server left behind by a crashed owner: that step would otherwise
stop the live instance's Redis, and two redis-servers would then append to one AOF.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import socket
from pathlib import Path
from typing import IO

LOCK_NAME = "service.lock"


class InstanceLock:
    """An exclusive `flock` on `<data_dir>/service.lock`, held while the process serves.

    The kernel drops the lock when the process dies however it dies, so a crash never leaves
    a stale lock behind (unlike a pidfile)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / LOCK_NAME
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock or raise RuntimeError naming the process that holds it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            if exc.errno not in (errno.EWOULDBLOCK, errno.EACCES):
                raise RuntimeError(f"cannot lock {self.path}: {exc.strerror or exc}") from None
            raise RuntimeError(
                f"another risk-service (pid {holder}) is already running with data directory "
                f"{self.path.parent}; stop it first, or give this one its own RISK_DATA_DIR "
                "(and RISK_LISTEN)"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
            self._file.close()  # closing drops the flock
            self._file = None


def check_listen(address: str, setting: str = "RISK_LISTEN") -> None:
    """Raise RuntimeError if `address` (host:port), the value of `setting`, cannot be bound
    right now; the message names the setting to change.

    gRPC reports a taken port only after everything else has started; asking first keeps a
    doomed start from touching Redis at all. Port 0 (any free port) always passes."""
    host, _, port_text = address.rpartition(":")
    host = host.strip("[]") or "0.0.0.0"
    try:
        port = int(port_text)
    except ValueError:
        return  # not host:port (e.g. a unix: address): leave it to gRPC
    if port == 0:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise RuntimeError(
                    f"cannot listen on {address}: the address is in use (another risk-service "
                    f"or another program); set {setting} to another address"
                ) from None
            if exc.errno == errno.EADDRNOTAVAIL:
                raise RuntimeError(f"cannot listen on {address}: no such local address") from None
            raise RuntimeError(f"cannot listen on {address}: {exc.strerror or exc}") from None
