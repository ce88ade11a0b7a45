"""The web app's files on the HTTP port: `GET /` is the app's page, `GET /app/<file>` its
modules and stylesheet, read from the installed package (risk_service/web, package data), so
the service serves the app wherever it is installed, with no build step and no other server.

It also publishes what a deployment hands it to publish at fixed paths: the export signing
keys' JWKS at `/.well-known/risk-export-keys.json` (docs/exports.md), readable from any origin,
since a verifier of exports is usually someone else's page or tool.

Everything else (the RPC paths, CORS preflights) goes on to the wrapped application
unchanged. The files are read once, at start: they change only with the installed package.
Each reply carries an ETag and `no-cache` (a browser revalidates, so an upgrade is seen at the
next load) and a Content-Security-Policy that allows only this origin's scripts and calls.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

# the ASGI shapes, as server.http_port names them (which imports this module)
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
_PREFIX = "/app/"
# the export signing keys, when the deployment signs exports (risk_service.export_signing)
EXPORT_KEYS_PATH = "/.well-known/risk-export-keys.json"
_POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
           "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")


@dataclass(frozen=True, slots=True)
class StaticFile:
    body: bytes
    content_type: str
    etag: str


def load_files(package: str = "risk_service.web") -> dict[str, StaticFile]:
    """Every file of the app's package by the path it is served at."""
    files: dict[str, StaticFile] = {}
    for entry in resources.files(package).iterdir():
        suffix = "." + entry.name.rpartition(".")[2]
        if not entry.is_file() or suffix not in _TYPES:
            continue
        body = entry.read_bytes()
        etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        path = "/" if entry.name == "index.html" else _PREFIX + entry.name
        files[path] = StaticFile(body, _TYPES[suffix], etag)
    return files


class WebApp:
    """ASGI: the app's files for GET and HEAD on their paths, the wrapped app for the rest."""

    def __init__(self, app: ASGIApp, files: Mapping[str, StaticFile] | None = None, *,
                 published: Mapping[str, bytes] | None = None) -> None:
        self.app = app
        self.files = dict(load_files() if files is None else files)
        # JSON documents at their own paths (the JWKS), public to every origin
        self.published = frozenset(published or ())
        for path, body in (published or {}).items():
            etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
            self.files[path] = StaticFile(body, "application/json", etag)

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        """The wrapped app's own coroutine for a path not the web app's: no frame of this
        layer for every resumption of each API call to pass through."""
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if scope["type"] != "http" or not (path == "/" or path.startswith(_PREFIX)
                                           or path in self.published):
            return self.app(scope, receive, send)
        return self._serve(scope, path, send)

    async def _serve(self, scope: Scope, path: str, send: Send) -> None:
        if scope["method"] not in ("GET", "HEAD"):
            await self._reply(send, 405, b"method not allowed\n", "text/plain",
                              headers=[(b"allow", b"GET, HEAD")])
            return
        found = self.files.get(path)
        if found is None:
            await self._reply(send, 404, b"not found\n", "text/plain")
            return
        headers = [(b"etag", found.etag.encode()), (b"cache-control", b"no-cache"),
                   (b"content-security-policy", _POLICY.encode()),
                   (b"x-content-type-options", b"nosniff"),
                   (b"referrer-policy", b"no-referrer")]
        if path in self.published:
            headers.append((b"access-control-allow-origin", b"*"))
        if dict(scope.get("headers", ())).get(b"if-none-match") == found.etag.encode():
            await self._reply(send, 304, b"", None, headers=headers)
            return
        body = b"" if scope["method"] == "HEAD" else found.body
        await self._reply(send, 200, body, found.content_type, headers=headers,
                          length=len(found.body))

    @staticmethod
    async def _reply(send: Send, status: int, body: bytes, content_type: str | None, *,
                     headers: list[tuple[bytes, bytes]] | None = None,
                     length: int | None = None) -> None:
        head = list(headers or ())
        if content_type is not None:
            head.append((b"content-type", content_type.encode()))
        head.append((b"content-length", str(len(body) if length is None else length).encode()))
        await send({"type": "http.response.start", "status": status, "headers": head})
        await send({"type": "http.response.body", "body": body})

