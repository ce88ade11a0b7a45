"""The HTTP port's other protocols on a real service process: Connect's binary streaming,
gRPC-Web streaming, Connect GET for the reads, and HTTPS on that port with a certificate made
here (issue 17 item 1, the cases tests/service/test_http.py leaves out).

Requests are made with the standard library's HTTP/1.1 client, as a browser would send them;
every answer is compared with what the gRPC port says for the same request.

The tests share one service (`web`), each with a game of its own; the HTTPS test, which
needs other settings, starts its own.
"""

from __future__ import annotations

import http.client
import json
import ssl
import subprocess
import urllib.parse
from pathlib import Path

import grpc
import pytest

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceFactory, ServiceProcess
from tests.service.test_http import (
    SERVICE,
    _connection,
    _game,
    envelope,
    info_of,
    parse,
    post_json,
    read_envelope,
)
from tests.serving import module_service

CONNECT_END_STREAM = 0x02
GRPC_WEB_TRAILERS = 0x80


web = module_service("service-http-protocols", http=True)


def _grpc_events(service: ServiceProcess, game_id: str, after: int, count: int
                 ) -> list[service_pb2.StreamEventsResponse]:
    with grpc.insecure_channel(service.target) as channel:
        call = service_pb2_grpc.RiskServiceStub(channel).StreamEvents(
            service_pb2.StreamEventsRequest(game_id=game_id, after_seq=after))
        replies = [next(call) for _ in range(count)]
        call.cancel()
    return replies


def _stream(service: ServiceProcess, request: service_pb2.StreamEventsRequest,
            content_type: str, count: int) -> list[service_pb2.StreamEventsResponse]:
    """The first `count` messages of StreamEvents over HTTP/1.1 in `content_type` (binary
    framing: Connect's and gRPC-Web's envelopes are alike), then hang up."""
    conn = _connection(service)
    try:
        conn.request("POST", SERVICE + "StreamEvents", envelope(request.SerializeToString()),
                     {"Content-Type": content_type})
        reply = conn.getresponse()
        # errors included: both protocols report them in the stream's last frame
        assert reply.status == 200
        assert reply.getheader("Content-Type") == content_type
        frames = [read_envelope(reply) for _ in range(count)]
    finally:
        conn.close()
    assert [flags for flags, _data in frames] == [0] * count
    return [service_pb2.StreamEventsResponse.FromString(data) for _flags, data in frames]


def _refused_stream(service: ServiceProcess, content_type: str) -> tuple[int, bytes]:
    """The one frame (flags, bytes) a stream of a game that does not exist is answered with."""
    conn = _connection(service)
    try:
        missing = service_pb2.StreamEventsRequest(game_id="0" * 22)
        conn.request("POST", SERVICE + "StreamEvents", envelope(missing.SerializeToString()),
                     {"Content-Type": content_type})
        reply = conn.getresponse()
        assert reply.status == 200
        return read_envelope(reply)
    finally:
        conn.close()


def test_connect_binary_stream_matches_grpc_and_ends_with_an_error(web: ServiceProcess) -> None:
    """StreamEvents over Connect's binary streaming (application/connect+proto, HTTP/1.1):
    every event from after_seq on, the same messages as gRPC's stream; a stream of an unknown
    game ends at once with an end-of-stream frame whose JSON error carries not_found and the
    GAME_NOT_FOUND ErrorInfo."""
    game_id, _tokens, _first = _game(web)
    with grpc.insecure_channel(web.target) as channel:
        last = service_pb2_grpc.RiskServiceStub(channel).GetGame(
            service_pb2.GetGameRequest(game_id=game_id)).game.last_seq
    after = 1
    expected = _grpc_events(web, game_id, after, last - after)

    request = service_pb2.StreamEventsRequest(game_id=game_id, after_seq=after)
    got = _stream(web, request, "application/connect+proto", last - after)
    assert got == expected
    assert [r.event.seq for r in got] == list(range(after + 1, last + 1))

    flags, data = _refused_stream(web, "application/connect+proto")
    assert flags == CONNECT_END_STREAM
    error = json.loads(data)["error"]
    assert error["code"] == "not_found" and info_of(error).reason == "GAME_NOT_FOUND"


def test_grpc_web_stream_matches_grpc_and_ends_with_trailers(web: ServiceProcess) -> None:
    """StreamEvents over gRPC-Web (application/grpc-web+proto): message frames holding the
    same events as gRPC's stream; an unknown game's stream is a lone trailer frame with
    grpc-status 5 (NOT_FOUND)."""
    game_id, _tokens, _first = _game(web)
    expected = _grpc_events(web, game_id, 0, 3)
    request = service_pb2.StreamEventsRequest(game_id=game_id)
    assert _stream(web, request, "application/grpc-web+proto", 3) == expected

    flags, data = _refused_stream(web, "application/grpc-web+proto")
    assert flags & GRPC_WEB_TRAILERS
    trailers = dict(line.split(": ", 1) for line in data.decode().split("\r\n") if line)
    assert trailers["grpc-status"] == "5"


def _get(service: ServiceProcess, method: str, message: dict[str, object],
         token: str | None = None) -> tuple[int, bytes]:
    query = urllib.parse.urlencode({"connect": "v1", "encoding": "json",
                                    "message": json.dumps(message)})
    conn = _connection(service)
    try:
        conn.request("GET", f"{SERVICE}{method}?{query}",
                     headers={"Authorization": f"Bearer {token}"} if token else {})
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


def test_connect_get_for_the_reads_only(web: ServiceProcess) -> None:
    """The reads (NO_SIDE_EFFECTS in service.proto) answer Connect's GET as they answer a
    POST, the seat's token in Authorization included (its hand shows); a call that changes a
    game is not served by GET (HTTP 405) and changes nothing."""
    game_id, tokens, first = _game(web)
    status, posted = post_json(web, "GetGame", {"gameId": game_id}, tokens[first])
    assert status == 200
    status, body = _get(web, "GetGame", {"gameId": game_id}, tokens[first])
    assert status == 200, body
    got = parse(service_pb2.GetGameResponse, json.loads(body))
    assert got == parse(service_pb2.GetGameResponse, posted)
    assert got.viewer_seat == first

    status, body = _get(web, "ListLegalActions", {"gameId": game_id}, tokens[first])
    assert status == 200
    legal = parse(service_pb2.ListLegalActionsResponse, json.loads(body))
    assert legal.actions and legal.seat == first

    move = {"gameId": game_id, "expectedVersion": str(legal.version), "requestId": "get-1",
            "action": json.loads(body)["actions"][0]["action"]}
    status, _body = _get(web, "SubmitAction", move, tokens[first])
    assert status == 405
    status, after = post_json(web, "GetGame", {"gameId": game_id})
    assert parse(service_pb2.GetGameResponse, after).game.version == legal.version


def _self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 signed by its own key (openssl's command line)."""
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", "server.key", "-out", "server.pem", "-days", "1", "-sha256",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        cwd=directory, check=True, capture_output=True, timeout=60)
    return directory / "server.pem", directory / "server.key"


def test_https_on_the_http_port(make_service: ServiceFactory, tmp_path: Path) -> None:
    """With RISK_TLS_CERT_FILE/KEY_FILE the HTTP port speaks HTTPS with the same certificate
    as gRPC: a client trusting that certificate creates and reads a game over JSON; a
    plaintext request to the port gets no HTTP answer; a client that does not trust the
    certificate fails its handshake."""
    cert, key = _self_signed(tmp_path)
    service = make_service(credentials=grpc.ssl_channel_credentials(cert.read_bytes()), http=True,
                           RISK_KEY_PREFIX="service-http-protocols-https",
                           RISK_TLS_CERT_FILE=str(cert), RISK_TLS_KEY_FILE=str(key))
    port = urllib.parse.urlsplit(service.http_url).port
    trusted = ssl.create_default_context(cafile=str(cert))

    conn = http.client.HTTPSConnection("127.0.0.1", port, context=trusted, timeout=10)
    try:
        body = json.dumps({"options": {"classic": {"players": 2}}, "seed": "3"})
        conn.request("POST", SERVICE + "CreateGame", body, {"Content-Type": "application/json"})
        reply = conn.getresponse()
        created = json.loads(reply.read())
        assert reply.status == 200, created
        game_id = created["game"]["gameId"]
        conn.request("POST", SERVICE + "GetGame", json.dumps({"gameId": game_id}),
                     {"Content-Type": "application/json"})
        reply = conn.getresponse()
        assert reply.status == 200
        assert json.loads(reply.read())["game"]["gameId"] == game_id
        assert conn.sock is not None and conn.sock.version() in ("TLSv1.2", "TLSv1.3")
    finally:
        conn.close()

    plain = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        with pytest.raises((http.client.HTTPException, ConnectionError)):
            plain.request("POST", SERVICE + "Ping", b"{}", {"Content-Type": "application/json"})
            plain.getresponse().read()
    finally:
        plain.close()

    untrusting = http.client.HTTPSConnection("127.0.0.1", port, timeout=10,
                                             context=ssl.create_default_context())
    try:
        with pytest.raises(ssl.SSLCertVerificationError):
            untrusting.request("POST", SERVICE + "Ping", b"{}",
                               {"Content-Type": "application/json"})
    finally:
        untrusting.close()
