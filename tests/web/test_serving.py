"""The web app's files as the HTTP port serves them from the installed package: the page at
`/`, its modules under `/app/`, revalidation by ETag, and the API's paths left to the API."""

from __future__ import annotations

import http.client
import json
import subprocess
import urllib.parse
from pathlib import Path

from risk_testing.harness import ServiceProcess


def _get(service: ServiceProcess, path: str, method: str = "GET",
         **headers: str) -> tuple[int, dict[str, str], bytes]:
    url = urllib.parse.urlsplit(service.http_url)
    conn = http.client.HTTPConnection(url.hostname or "", url.port, timeout=10)
    try:
        conn.request(method, path, headers={k.replace("_", "-"): v for k, v in headers.items()})
        reply = conn.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    finally:
        conn.close()


def test_the_app_is_served_at_the_root_of_the_http_port(http_service: ServiceProcess) -> None:
    """`/` is the page, which loads its module from `/app/`; a browser that has them gets
    304 on revalidation; unknown files are 404 and a POST to them 405; a JSON POST to the
    API's path is still the API."""
    status, headers, body = _get(http_service, "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b'src="/app/app.js"' in body
    assert "default-src 'self'" in headers["content-security-policy"]
    status, headers, body = _get(http_service, "/app/app.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    assert b"ListVariants" in body
    status, _, body = _get(http_service, "/app/app.js", if_none_match=headers["etag"])
    assert status == 304 and body == b""
    status, headers, body = _get(http_service, "/app/app.js", "HEAD")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0
    assert _get(http_service, "/app/missing.js")[0] == 404
    assert _get(http_service, "/app/app.js", "POST")[0] == 405
    url = urllib.parse.urlsplit(http_service.http_url)
    conn = http.client.HTTPConnection(url.hostname or "", url.port, timeout=10)
    conn.request("POST", "/risk.v1.RiskService/ListGames", b"{}",
                 {"Content-Type": "application/json"})
    reply = conn.getresponse()
    assert reply.status == 200 and reply.getheader("content-type") == "application/json"
    # no games yet: the API's answer (zero values written), not a file
    assert json.loads(reply.read()) == {"games": [], "nextPageToken": ""}
    conn.close()


def test_the_web_apps_protobuf_bundle_is_built_from_the_current_schemas() -> None:
    """service/risk_service/web/protobuf.js is exactly what clients/node/scripts/bundle-web.sh
    builds from the pinned @bufbuild/protobuf and the current generated schemas."""
    script = Path(__file__).resolve().parents[2] / "clients" / "node" / "scripts" / "bundle-web.sh"
    checked = subprocess.run(["bash", str(script), "--check"], capture_output=True, text=True,
                             timeout=120, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
