"""The HTTP port of a real service process: plain JSON POSTs, Connect streaming over HTTP/1.1,
gRPC-Web, CORS, and the same answers as the gRPC port (issue 17 item 1).

Requests are made with the standard library's HTTP/1.1 client, as curl or a browser would
make them; replies are read back into the contract's messages to compare with gRPC's.

The tests share one service (`web`), each with games of its own and reading only the log
lines written after it began; those that stop the service or spend its rate limits start
their own.
"""

from __future__ import annotations

import base64
import gzip
import http.client
import json
import struct
import time
import urllib.parse
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import bearer, error_info
from tests.serving import LogMark, module_service

SERVICE = "/risk.v1.RiskService/"
Reply = tuple[int, dict[str, str], bytes]


def _connection(service: ServiceProcess) -> http.client.HTTPConnection:
    url = urllib.parse.urlsplit(service.http_url)
    return http.client.HTTPConnection(url.hostname or "", url.port, timeout=10)


def post(service: ServiceProcess, method: str, body: bytes, content_type: str,
         **headers: str) -> Reply:
    """POST one request on a fresh HTTP/1.1 connection: (status, headers, body)."""
    conn = _connection(service)
    try:
        conn.request("POST", SERVICE + method, body,
                     {"Content-Type": content_type, **{k.replace("_", "-"): v
                                                      for k, v in headers.items()}})
        reply = conn.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    finally:
        conn.close()


def post_json(service: ServiceProcess, method: str, payload: dict[str, Any],
              token: str | None = None) -> tuple[int, dict[str, Any]]:
    """What `curl -H 'Content-Type: application/json' -d '{...}'` sends and reads."""
    extra = {"Authorization": f"Bearer {token}"} if token else {}
    status, _headers, body = post(service, method, json.dumps(payload).encode(),
                                  "application/json", **extra)
    return status, json.loads(body)


def info_of(error: dict[str, Any]) -> error_details_pb2.ErrorInfo:
    """The google.rpc.ErrorInfo in a Connect error's `details` (unpadded base64)."""
    (detail,) = [d for d in error["details"] if d["type"] == "google.rpc.ErrorInfo"]
    return error_details_pb2.ErrorInfo.FromString(
        base64.b64decode(detail["value"] + "=" * (-len(detail["value"]) % 4)))


def envelope(data: bytes, flags: int = 0) -> bytes:
    return struct.pack(">BI", flags, len(data)) + data


def read_envelope(reply: http.client.HTTPResponse) -> tuple[int, bytes]:
    flags, size = struct.unpack(">BI", reply.read(5))
    return flags, reply.read(size)


def parse(message_type: type[Message], payload: dict[str, Any]) -> Any:
    return json_format.ParseDict(payload, message_type())


def _game(service: ServiceProcess, seed: int = 11) -> tuple[str, list[str], int]:
    """A started 2-player classic game made over JSON: (id, seat tokens, seat to act)."""
    status, created = post_json(service, "CreateGame",
                                {"options": {"classic": {"players": 2}}, "seed": str(seed)})
    assert status == 200, created
    game_id = created["game"]["gameId"]
    tokens = []
    for seat in range(2):
        status, joined = post_json(service, "JoinGame", {"gameId": game_id, "seat": seat})
        assert status == 200, joined
        tokens.append(joined["seatToken"])
    status, got = post_json(service, "GetGame", {"gameId": game_id})
    game = parse(service_pb2.GetGameResponse, got).game
    return game_id, tokens, game.decision.seats[0]


def _log_lines(service: ServiceProcess) -> list[dict[str, Any]]:
    return [json.loads(line) for line in service.logs().splitlines() if line.startswith("{")]


def _rpc_lines(mark: LogMark, method: str, count: int) -> list[dict[str, Any]]:
    """The `rpc` lines of `method` after `mark`, once there are `count` of them (a line may be
    written just after its reply was sent)."""
    deadline = time.monotonic() + 5
    while True:
        lines = [line for line in mark.lines()
                 if line.get("event") == "rpc" and line.get("method") == SERVICE + method]
        if len(lines) >= count or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


# a service serving the HTTP port too, with one origin allowed to call it
WEB = {"RISK_HTTP_CORS_ORIGINS": "https://play.example", "RISK_MAX_MESSAGE_BYTES": "4096"}
web = module_service("service-http", http=True, **WEB)


@pytest.fixture
def own_web(make_service: ServiceFactory) -> ServiceProcess:
    """`web`'s settings in a process of the test's own (one it stops)."""
    return make_service(http=True, RISK_KEY_PREFIX="service-http-own", **WEB)


def test_json_posts_create_join_submit_get_and_a_refusal(web: ServiceProcess) -> None:
    """Plain JSON POSTs play a move: create, join both seats, list the legal actions, submit
    one, read the game at its new version; a move by the seat not to act is refused with
    HTTP 400, Connect's failed_precondition and the engine's reason in ErrorInfo; each call
    is one log line naming its method, game, request id and protocol."""
    mark = LogMark(web)
    game_id, tokens, first = _game(web)
    status, legal = post_json(web, "ListLegalActions", {"gameId": game_id}, tokens[first])
    assert status == 200 and legal["actions"], legal
    version = int(legal["version"])
    move = {"gameId": game_id, "action": legal["actions"][0]["action"],
            "expectedVersion": str(version), "requestId": "http-move-1"}

    status, refused = post_json(web, "SubmitAction", move, tokens[1 - first])
    assert status == 400
    assert refused["code"] == "failed_precondition"
    info = info_of(refused)
    assert (info.reason, info.domain) == ("NOT_YOUR_TURN", "risk.v1")
    assert info.metadata["message"] == refused["message"]

    status, submitted = post_json(web, "SubmitAction", move, tokens[first])
    assert status == 200, submitted
    reply = parse(service_pb2.SubmitActionResponse, submitted)
    assert reply.version > version and reply.events
    status, got = post_json(web, "GetGame", {"gameId": game_id})
    assert status == 200
    assert parse(service_pb2.GetGameResponse, got).game.version == reply.version

    lines = _rpc_lines(mark, "SubmitAction", 2)
    assert [(line["code"], line.get("reason")) for line in lines] == [
        ("FAILED_PRECONDITION", "NOT_YOUR_TURN"), ("OK", None)]
    assert all(line["game_id"] == game_id and line["request_id"] == "http-move-1"
               and line["protocol"] == "json" for line in lines)


def test_json_replies_write_zero_values(web: ServiceProcess) -> None:
    """A JSON reader without the schema's defaults still reads seat 0 and version 0: fields
    without presence are written at their default, fields with presence only when set."""
    status, created = post_json(web, "CreateGame",
                                {"options": {"classic": {"players": 2}}, "seed": "5"})
    assert status == 200, created
    game = created["game"]
    assert game["version"] == "0" and game["spectatorDelayEvents"] == 0
    assert [seat["seat"] for seat in game["seats"]] == [0, 1]
    assert game["botSeats"] == [False, False] and "outcome" not in game
    # and it is still protobuf JSON: it reads back to the binary reply's message
    assert parse(service_pb2.CreateGameResponse, created).game.seats[0].seat == 0


def test_connect_stream_over_http1_resumes_after_a_seq(web: ServiceProcess) -> None:
    """StreamEvents over Connect's streaming JSON on HTTP/1.1 starts right after the asked-for
    seq and yields the same events, in the same order, as gRPC's StreamEvents does."""
    game_id, _tokens, _first = _game(web)
    with grpc.insecure_channel(web.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        last = stub.GetGame(service_pb2.GetGameRequest(game_id=game_id)).game.last_seq
        assert last >= 3
        after = last - 2
        over_grpc = stub.StreamEvents(service_pb2.StreamEventsRequest(
            game_id=game_id, after_seq=after))
        expected = [next(over_grpc).event for _ in range(2)]
        over_grpc.cancel()

    conn = _connection(web)
    body = json.dumps({"gameId": game_id, "afterSeq": str(after)}).encode()
    conn.request("POST", SERVICE + "StreamEvents", envelope(body),
                 {"Content-Type": "application/connect+json"})
    reply = conn.getresponse()
    assert reply.status == 200 and reply.version == 11
    assert reply.getheader("Content-Type") == "application/connect+json"
    events = []
    for _ in range(2):
        flags, data = read_envelope(reply)
        assert flags == 0
        events.append(parse(service_pb2.StreamEventsResponse, json.loads(data)).event)
    conn.close()
    assert [e.seq for e in events] == [after + 1, after + 2]
    assert events == expected


@pytest.mark.parametrize("encoding", ["identity", "gzip"])
def test_a_connect_stream_ended_by_an_error_carries_its_readable_detail(
        web: ServiceProcess, encoding: str) -> None:
    """A Connect stream that a refusal ends (StreamEvents of no such game) tells it in its
    end-of-stream message as a unary Connect error does: code, message, and the ErrorInfo
    detail with its type, its base64 value and, readable, its `debug` (reason, domain,
    metadata), also when the stream's messages are gzipped."""
    status, unary = post_json(web, "GetGame", {"gameId": "0" * 22})
    assert status == 404
    body = json.dumps({"gameId": "0" * 22}).encode()
    status, headers, reply = post(web, "StreamEvents", envelope(body),
                                  "application/connect+json",
                                  Connect_Accept_Encoding=encoding)
    assert status == 200 and headers["content-type"] == "application/connect+json"
    flags, size = struct.unpack(">BI", reply[:5])
    assert flags & 0x02  # the end-of-stream message
    data = reply[5:5 + size]
    assert bool(flags & 0x01) == (encoding == "gzip")  # compressed as the client accepts
    if flags & 0x01:
        assert headers.get("connect-content-encoding") == "gzip"
        data = gzip.decompress(data)
    error = json.loads(data)["error"]
    assert error["code"] == unary["code"] == "not_found"
    assert error["message"] == unary["message"]
    (detail,) = error["details"]
    assert detail["type"] == "google.rpc.ErrorInfo"
    assert detail["debug"] == unary["details"][0]["debug"] == {
        "reason": "GAME_NOT_FOUND", "domain": "risk.v1",
        "metadata": {"message": unary["message"]}}
    assert info_of(error).reason == "GAME_NOT_FOUND"


def test_grpc_web_unary_answers_and_refuses_in_its_trailers(web: ServiceProcess) -> None:
    """gRPC-Web (binary): GetGame's reply comes as a message frame then a trailer frame with
    grpc-status 0; an unknown game's status is NOT_FOUND (5) with the same ErrorInfo in
    grpc-status-details-bin as the gRPC port sends."""
    game_id, _tokens, _first = _game(web)
    request = service_pb2.GetGameRequest(game_id=game_id).SerializeToString()
    status, headers, body = post(web, "GetGame", envelope(request), "application/grpc-web+proto",
                                 X_Grpc_Web="1")
    assert status == 200 and headers["content-type"] == "application/grpc-web+proto"
    (flags, size), rest = struct.unpack(">BI", body[:5]), body[5:]
    assert flags == 0
    assert service_pb2.GetGameResponse.FromString(rest[:size]).game.game_id == game_id
    assert rest[size] & 0x80 and b"grpc-status: 0" in rest[size + 5:]

    missing = service_pb2.GetGameRequest(game_id="0" * 22).SerializeToString()
    status, _headers, body = post(web, "GetGame", envelope(missing), "application/grpc-web+proto")
    assert status == 200 and body[0] & 0x80
    trailers = dict(line.split(": ", 1) for line in body[5:].decode().split("\r\n") if line)
    assert trailers["grpc-status"] == "5"
    packed = trailers["grpc-status-details-bin"]
    details = status_pb2.Status.FromString(base64.b64decode(packed + "=" * (-len(packed) % 4)))
    info = error_details_pb2.ErrorInfo()
    assert details.details[0].Unpack(info)

    with grpc.insecure_channel(web.target) as channel, pytest.raises(grpc.RpcError) as over_grpc:
        service_pb2_grpc.RiskServiceStub(channel).GetGame(
            service_pb2.GetGameRequest(game_id="0" * 22))
    assert info == error_info(over_grpc.value)  # type: ignore[arg-type]


def test_cors_preflight_and_headers_for_allowed_origins_only(web: ServiceProcess) -> None:
    """A browser's preflight from the configured origin is answered 204 with the methods and
    headers Connect and gRPC-Web send (Authorization among them); another origin's is 403;
    the allowed origin's real request carries Access-Control-Allow-Origin."""
    conn = _connection(web)
    preflight = {"Origin": "https://play.example", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "content-type,authorization"}
    conn.request("OPTIONS", SERVICE + "CreateGame", headers=preflight)
    reply = conn.getresponse()
    reply.read()
    assert reply.status == 204
    assert reply.getheader("Access-Control-Allow-Origin") == "https://play.example"
    assert "POST" in (reply.getheader("Access-Control-Allow-Methods") or "")
    allowed = (reply.getheader("Access-Control-Allow-Headers") or "").lower()
    assert {"content-type", "authorization", "connect-protocol-version", "x-grpc-web"} <= {
        h.strip() for h in allowed.split(",")}
    conn.request("OPTIONS", SERVICE + "CreateGame",
                 headers={**preflight, "Origin": "https://elsewhere.example"})
    reply = conn.getresponse()
    reply.read()
    assert reply.status == 403 and reply.getheader("Access-Control-Allow-Origin") is None
    conn.close()

    status, headers, _body = post(web, "Ping", b"{}", "application/json",
                                  Origin="https://play.example")
    assert status == 200
    assert headers["access-control-allow-origin"] == "https://play.example"
    assert "grpc-status-details-bin" in headers["access-control-expose-headers"].lower()


def test_the_same_illegal_move_gets_the_same_answer_on_both_ports(web: ServiceProcess) -> None:
    """One illegal move (claiming territory 99, out of phase and off the map) sent over gRPC
    and over JSON is refused the same: FAILED_PRECONDITION / failed_precondition, the same
    reason, message and ErrorInfo; neither changes the game."""
    game_id, tokens, first = _game(web)
    with grpc.insecure_channel(web.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        version = stub.GetGame(service_pb2.GetGameRequest(game_id=game_id)).game.version
        move = {"gameId": game_id, "expectedVersion": str(version),
                "action": {"classic": {"claimTerritory": {"territory": 99}}}}
        with pytest.raises(grpc.RpcError) as over_grpc:
            stub.SubmitAction(parse(service_pb2.SubmitActionRequest, move),
                              metadata=bearer(tokens[first]))
        status, over_http = post_json(web, "SubmitAction", move, tokens[first])
        after = stub.GetGame(service_pb2.GetGameRequest(game_id=game_id)).game.version
    assert over_grpc.value.code() == grpc.StatusCode.FAILED_PRECONDITION  # type: ignore[attr-defined]
    assert (status, over_http["code"]) == (400, "failed_precondition")
    assert info_of(over_http) == error_info(over_grpc.value)  # type: ignore[arg-type]
    assert info_of(over_http).reason in ("WRONG_PHASE", "NO_SUCH_TERRITORY")
    assert over_http["message"] == over_grpc.value.details()  # type: ignore[attr-defined]
    assert after == version


def test_malformed_and_oversized_bodies_get_their_codes(web: ServiceProcess) -> None:
    """Broken JSON and bytes that are not a protobuf message are invalid_argument (HTTP 400)
    with MALFORMED_REQUEST; a body over RISK_MAX_MESSAGE_BYTES is resource_exhausted (HTTP
    429) with TOO_LARGE; a body in a type the port does not speak is HTTP 415. Each is one
    log line."""
    mark = LogMark(web)
    cases = [
        (b'{"gameId": ', "application/json", 400, "invalid_argument", "MALFORMED_REQUEST"),
        (b"\xff\xff\xff", "application/proto", 400, "invalid_argument", "MALFORMED_REQUEST"),
        (json.dumps({"gameId": "x" * 8000}).encode(), "application/json", 429,
         "resource_exhausted", "TOO_LARGE"),
    ]
    for body, content_type, http_status, code, reason in cases:
        status, _headers, reply = post(web, "GetGame", body, content_type)
        error = json.loads(reply)
        assert (status, error["code"], info_of(error).reason) == (http_status, code, reason)
    status, _headers, _reply = post(web, "GetGame", b"gameId=x",
                                    "application/x-www-form-urlencoded")
    assert status == 415
    lines = _rpc_lines(mark, "GetGame", 4)
    assert [(line["code"], line.get("reason")) for line in lines] == [
        ("INVALID_ARGUMENT", "MALFORMED_REQUEST"), ("INVALID_ARGUMENT", "MALFORMED_REQUEST"),
        ("RESOURCE_EXHAUSTED", "TOO_LARGE"), ("INVALID_ARGUMENT", None)]


def test_one_rate_limit_for_both_ports(make_service: ServiceFactory) -> None:
    """A caller's requests spend one bucket whichever port carries them: after a burst over
    gRPC, the next call over HTTP is refused RATE_LIMITED (HTTP 429, resource_exhausted)."""
    service = make_service(http=True, RISK_KEY_PREFIX="service-http-rate-ports",
                           RISK_RATE_LIMIT_PER_S="0.5", RISK_RATE_LIMIT_BURST="3")
    with grpc.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        for _ in range(3):
            stub.Ping(service_pb2.PingRequest())
    status, refused = post_json(service, "Ping", {})
    assert (status, refused["code"]) == (429, "resource_exhausted")
    assert info_of(refused).reason == "RATE_LIMITED"


def test_both_ports_in_the_listening_line_and_shutdown_ends_an_open_stream(
    own_web: ServiceProcess,
) -> None:
    """The listening line names the gRPC and the HTTP port; SIGTERM with a Connect stream
    open over HTTP stops the process cleanly (exit 0) within the grace."""
    (listening,) = [line for line in _log_lines(own_web) if line.get("event") == "listening"]
    assert (listening["port"], listening["http_port"]) == (own_web.port, own_web.http_port)
    game_id, _tokens, _first = _game(own_web)
    conn = _connection(own_web)
    conn.request("POST", SERVICE + "StreamEvents",
                 envelope(json.dumps({"gameId": game_id}).encode()),
                 {"Content-Type": "application/connect+json"})
    reply = conn.getresponse()
    assert read_envelope(reply)[0] == 0
    assert own_web.stop() == 0
    conn.close()
    assert any(line.get("event") == "stopped" for line in _log_lines(own_web))


def test_the_session_is_grpc_only_and_the_http_port_says_so(web: ServiceProcess) -> None:
    """Session over Connect's streaming on the HTTP port ends unimplemented, naming the gRPC
    port and the calls to use instead (docs/api.md, "Sessions")."""
    game_id, _tokens, _first = _game(web)
    opening = json.dumps({"open": {"gameId": game_id}}).encode()
    status, headers, body = post(web, "Session", envelope(opening), "application/connect+json")
    assert status == 200 and headers["content-type"] == "application/connect+json"
    flags, size = struct.unpack(">BI", body[:5])
    assert flags & 0x02  # the end-of-stream message carries the error
    error = json.loads(body[5:5 + size])["error"]
    assert error["code"] == "unimplemented"
    assert "gRPC port" in error["message"]
    assert info_of(error).reason == "METHOD_NOT_AVAILABLE"


def test_header_bytes_that_are_not_utf8_are_no_server_error(web: ServiceProcess) -> None:
    """A header value that is not UTF-8 (a Latin-1 token, a stray byte) gets the answer its
    text would get, never HTTP 500 / unknown: such a token is unauthenticated /
    BAD_CREDENTIALS, an unrelated header is ignored, such a content type is HTTP 415; the
    game is unchanged."""
    mark = LogMark(web)
    game_id, tokens, first = _game(web)
    status, got = post_json(web, "GetGame", {"gameId": game_id}, tokens[first])
    before = parse(service_pb2.GetGameResponse, got)
    move = json.dumps({"gameId": game_id, "action": {"classic": {"claimTerritory": {
        "territory": 0}}}}).encode()
    conn = _connection(web)
    try:
        conn.request("POST", SERVICE + "SubmitAction", move,
                     {"Content-Type": "application/json", "Authorization": b"Bearer \xe9t\xe9"})
        reply = conn.getresponse()
        status, error = reply.status, json.loads(reply.read())
    finally:
        conn.close()
    assert (status, error["code"]) == (401, "unauthenticated"), error
    assert info_of(error).reason == "BAD_CREDENTIALS"

    conn = _connection(web)
    try:
        conn.request("POST", SERVICE + "GetGame", json.dumps({"gameId": game_id}).encode(),
                     {"Content-Type": "application/json", "X-Client": b"caf\xe9"})
        reply = conn.getresponse()
        status, got = reply.status, json.loads(reply.read())
    finally:
        conn.close()
    assert status == 200 and parse(service_pb2.GetGameResponse, got).game.game_id == game_id

    conn = _connection(web)
    try:
        conn.request("POST", SERVICE + "GetGame", json.dumps({"gameId": game_id}).encode(),
                     {"Content-Type": b"application/json\xff"})
        reply = conn.getresponse()
        reply.read()
        assert reply.status == 415
    finally:
        conn.close()
    assert "UnicodeDecodeError" not in mark.text()
    status, got = post_json(web, "GetGame", {"gameId": game_id}, tokens[first])
    assert status == 200 and parse(service_pb2.GetGameResponse, got) == before


def test_a_compressed_flag_without_an_encoding_is_malformed(web: ServiceProcess) -> None:
    """A message whose envelope says compressed on a call that named no compression is the
    client's mistake: gRPC-Web answers grpc-status 3 and Connect's stream invalid_argument,
    both with MALFORMED_REQUEST, not internal."""
    game_id, _tokens, _first = _game(web)
    request = service_pb2.GetGameRequest(game_id=game_id).SerializeToString()
    status, _headers, body = post(web, "GetGame", envelope(request, flags=1),
                                  "application/grpc-web+proto")
    assert status == 200 and body[0] & 0x80
    trailers = dict(line.split(": ", 1) for line in body[5:].decode().split("\r\n") if line)
    assert trailers["grpc-status"] == "3", trailers
    packed = trailers["grpc-status-details-bin"]
    details = status_pb2.Status.FromString(base64.b64decode(packed + "=" * (-len(packed) % 4)))
    info = error_details_pb2.ErrorInfo()
    assert details.details[0].Unpack(info) and info.reason == "MALFORMED_REQUEST"

    stream = service_pb2.StreamEventsRequest(game_id=game_id).SerializeToString()
    status, _headers, body = post(web, "StreamEvents", envelope(stream, flags=1),
                                  "application/connect+proto")
    flags, size = struct.unpack(">BI", body[:5])
    assert status == 200 and flags & 0x02
    error = json.loads(body[5:5 + size])["error"]
    assert error["code"] == "invalid_argument", error
    assert info_of(error).reason == "MALFORMED_REQUEST"


def test_native_grpc_content_types_are_refused_as_unsupported(web: ServiceProcess) -> None:
    """A request in native gRPC's content type (application/grpc, which needs HTTP/2 and
    trailers: the gRPC port's) is HTTP 415 like any type the port does not speak, naming
    the types it does; not grpc-status 2 (unknown) about ASGI trailers."""
    mark = LogMark(web)
    game_id, _tokens, _first = _game(web)
    request = service_pb2.GetGameRequest(game_id=game_id).SerializeToString()
    for content_type in ("application/grpc", "application/grpc+proto", "application/grpc+json"):
        status, headers, _body = post(web, "GetGame", envelope(request), content_type)
        assert status == 415, (content_type, headers)
        assert "grpc-status" not in headers
        assert "application/proto" in headers["accept-post"]
    assert "trailers" not in mark.text()


def test_a_json_body_that_is_not_an_object_is_malformed(web: ServiceProcess) -> None:
    """A JSON request is an object: an array or a string (which the protobuf parser read as
    an empty request, so ListGames answered a page and Ping OK) is invalid_argument /
    MALFORMED_REQUEST like any other JSON that is not the method's message."""
    for method in ("Ping", "ListGames"):
        for body in (b"[]", b'"abc"', b'["gameId"]', b"true"):
            status, _headers, reply = post(web, method, body, "application/json")
            error = json.loads(reply)
            assert (status, error.get("code")) == (400, "invalid_argument"), (method, body, error)
            assert info_of(error).reason == "MALFORMED_REQUEST"
        for body in (b"{}", b' \r\n{"pageSize": 1}', b" " * 100 + b"{}"):
            status, _headers, reply = post(web, method, body, "application/json")
            assert status == 200, (method, body, reply)


def test_a_token_accepted_over_http_gets_its_own_rate_bucket(
        make_service: ServiceFactory) -> None:
    """A seat token the HTTP port accepted is then limited as its own caller, as over gRPC:
    once the address's bucket is spent, the seat's calls over HTTP still pass."""
    service = make_service(http=True, RISK_KEY_PREFIX="service-http-rate-token",
                           RISK_RATE_LIMIT_PER_S="0.01", RISK_RATE_LIMIT_BURST="6")
    status, created = post_json(service, "CreateGame", {
        "options": {"classic": {"players": 2}}, "issueSeatTokens": True})
    assert status == 200, created
    game_id, token = created["game"]["gameId"], created["seatTokens"][0]
    status, got = post_json(service, "GetGame", {"gameId": game_id}, token)  # accepted now
    assert (status, got["viewerSeat"]) == (200, 0)
    refused = None
    for _ in range(10):  # the address's bucket: what is left of its burst of 6
        status, reply = post_json(service, "Ping", {})
        if status != 200:
            refused = reply
            break
    assert refused is not None and info_of(refused).reason == "RATE_LIMITED"
    status, got = post_json(service, "GetGame", {"gameId": game_id}, token)
    assert (status, got.get("viewerSeat")) == (200, 0), got
