"""The operations HTTP endpoint: `/metrics` for Prometheus, `/livez` and `/readyz` for probes.

`/metrics` is prometheus_client's own ASGI application (`make_asgi_app`): the exposition, its
content type, the OpenMetrics format for a scraper that asks for it (`Accept`), gzip for one
that accepts it, and `name[]` filters are its, kept by that library. It is hosted here, on the
service's event loop, by a few lines on asyncio streams that read one request (bounded in size
and time) and answer it with `Connection: close`, rather than by prometheus_client's threaded
server: a scrape then runs between two of the service's steps, so gauges read with callbacks
(subscriber counts) never see it halfway through one, and no thread per connection is spent.
`/livez` and `/readyz` answer like the gRPC health service's "" and "risk.v1.RiskService";
they exist for probes that cannot speak gRPC over TLS (Kubernetes' native gRPC probes have no
TLS option).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import Any

from prometheus_client import make_asgi_app

from risk_service.server.metrics import Metrics

HEADER_LIMIT = 16 * 1024
READ_TIMEOUT_S = 5.0
REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
           406: "Not Acceptable", 503: "Service Unavailable"}
TEXT = b"text/plain"

Headers = Sequence[tuple[bytes, bytes]]


def _response(status: int, body: bytes, headers: Headers, *, head: bool) -> bytes:
    lines = [f"HTTP/1.1 {status} {REASONS.get(status, 'Unknown')}".encode()]
    lines += [name + b": " + value for name, value in headers]
    lines += [b"Content-Length: %d" % len(body), b"Cache-Control: no-store",
              b"Connection: close"]
    return b"\r\n".join(lines) + b"\r\n\r\n" + (b"" if head else body)


def _plain(status: int, body: bytes, *, head: bool) -> bytes:
    return _response(status, body, ((b"Content-Type", TEXT),), head=head)


class OpsHttp:
    def __init__(self, metrics: Metrics, ready: Callable[[], bool]) -> None:
        self.metrics = metrics
        self.ready = ready
        self.exposition = make_asgi_app(metrics.registry)
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

    async def answer(self, method: str, target: str, headers: Headers) -> bytes:
        """The whole response to one request."""
        head = method == "HEAD"
        if method not in ("GET", "HEAD"):
            return _plain(405, b"GET only\n", head=False)
        path, _, query = target.partition("?")
        if path == "/metrics":
            return await self._metrics(method, path, query, headers, head=head)
        if path == "/livez":
            return _plain(200, b"ok\n", head=head)
        if path == "/readyz":
            ok = self.ready()
            return _plain(200 if ok else 503, b"ok\n" if ok else b"not ready\n", head=head)
        return _plain(404, b"not found\n", head=head)

    async def _metrics(self, method: str, path: str, query: str, headers: Headers, *,
                       head: bool) -> bytes:
        """prometheus_client's application's answer, through the ASGI interface."""
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": method, "scheme": "http", "path": path,
                 "raw_path": path.encode("latin-1"), "query_string": query.encode("latin-1"),
                 "root_path": "", "headers": list(headers)}
        started: dict[str, Any] = {}
        body: list[bytes] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                started.update(message)
            elif message["type"] == "http.response.body":
                body.append(message.get("body", b""))

        await self.exposition(scope, receive, send)
        return _response(int(started["status"]), b"".join(body), started["headers"],
                         head=head)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            try:
                request = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), READ_TIMEOUT_S)
            except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
                return
            line, *fields = request[:-4].split(b"\r\n")
            parts = line.decode("latin-1").split()
            headers = [(name.strip().lower(), value.strip()) for name, _, value in
                       (field.partition(b":") for field in fields)]
            if len(parts) != 3 or not parts[2].startswith("HTTP/"):
                writer.write(_plain(400, b"bad request\n", head=False))
            else:
                writer.write(await self.answer(parts[0], parts[1], headers))
            await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()
