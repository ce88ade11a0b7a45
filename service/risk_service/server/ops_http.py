"""The operations HTTP endpoint: `/metrics` for Prometheus, `/livez` and `/readyz` for probes.

A few lines on asyncio streams rather than a web framework or prometheus_client's threaded
server: a scrape runs on the event loop, so gauges read with callbacks (subscriber counts) see
the service's state between two of its steps, never halfway through one. `/livez` and
`/readyz` answer like the gRPC health service's "" and "risk.v1.RiskService"; they exist for
probes that cannot speak gRPC over TLS (Kubernetes' native gRPC probes have no TLS option).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from risk_service.server.metrics import Metrics

HEADER_LIMIT = 16 * 1024
READ_TIMEOUT_S = 5.0
REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
           503: "Service Unavailable"}


def _response(status: int, body: bytes, content_type: str, *, head: bool) -> bytes:
    lines = [
        f"HTTP/1.1 {status} {REASONS[status]}",
        f"Content-Type: {content_type}",
        f"Content-Length: {len(body)}",
        "Cache-Control: no-store",
        "Connection: close",
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (b"" if head else body)


class OpsHttp:
    def __init__(self, metrics: Metrics, ready: Callable[[], bool]) -> None:
        self.metrics = metrics
        self.ready = ready
        self.server: asyncio.Server | None = None

    async def start(self, host: str, port: int) -> int:
        """Listen on host:port; returns the port (useful with 0)."""
        self.server = await asyncio.start_server(self._handle, host, port, limit=HEADER_LIMIT)
        return int(self.server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None

    def answer(self, method: str, path: str) -> bytes:
        head = method == "HEAD"
        if method not in ("GET", "HEAD"):
            return _response(405, b"GET only\n", "text/plain", head=False)
        if path == "/metrics":
            return _response(200, generate_latest(self.metrics.registry), CONTENT_TYPE_LATEST,
                             head=head)
        if path == "/livez":
            return _response(200, b"ok\n", "text/plain", head=head)
        if path == "/readyz":
            ok = self.ready()
            return _response(200 if ok else 503, b"ok\n" if ok else b"not ready\n",
                             "text/plain", head=head)
        return _response(404, b"not found\n", "text/plain", head=head)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            try:
                request = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), READ_TIMEOUT_S)
            except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
                return
            parts = request.split(b"\r\n", 1)[0].decode("latin-1").split()
            if len(parts) != 3 or not parts[2].startswith("HTTP/"):
                writer.write(_response(400, b"bad request\n", "text/plain", head=False))
            else:
                writer.write(self.answer(parts[0], parts[1].split("?", 1)[0]))
            await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()
