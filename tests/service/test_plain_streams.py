"""Plain HTTP streams (issue 37 item 4): a game's events as newline-delimited JSON and as
Server-Sent Events on the HTTP port of a real service process, read by curl as a person would
(`curl -N`), with the same events, the same spectator delay and the same refusals as the other
transports, keepalives while idle, Last-Event-ID resuming, and a clear answer to a plain JSON
POST to a streaming method.

The tests share one service (`web`), each with games of its own; the one that counts the
caller's open streams against their bound starts its own."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import shutil
import urllib.parse
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

from risk_proto.risk.v1 import (
    classic_pb2,
    game_pb2,
    player_games_pb2,
    players_pb2,
    service_pb2,
    service_pb2_grpc,
    tournament_pb2,
)
from risk_testing.harness import ServiceFactory, ServiceProcess
from tests.serving import module_service
from tests.web.driver import move_by_grpc

pytestmark = pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")

READ_S = 10.0  # the longest a line is waited for


# a service with its HTTP port, keepalives every 300 ms, and pages of https://tv.example
# allowed to read it (the streams per caller at their default bound: the tests share the
# caller's address, and one's streams may still be closing when the next opens its own)
WEB = {"RISK_HTTP_STREAM_HEARTBEAT_MS": "300", "RISK_HTTP_CORS_ORIGINS": "https://tv.example"}
web = module_service("service-plain-streams", http=True, **WEB)


@pytest.fixture
async def stub(web: ServiceProcess) -> AsyncIterator[service_pb2_grpc.RiskServiceStub]:
    async with grpc.aio.insecure_channel(web.target) as channel:
        yield service_pb2_grpc.RiskServiceStub(channel)


@pytest.fixture
def own_web(make_service: ServiceFactory) -> ServiceProcess:
    """`web`'s settings and two streams per caller, in a process of the test's own: no other
    test's streams count against its callers' bound."""
    return make_service(http=True, RISK_KEY_PREFIX="service-plain-streams-own",
                        RISK_MAX_STREAMS_PER_CALLER="2", **WEB)


@pytest.fixture
async def own_stub(own_web: ServiceProcess) -> AsyncIterator[service_pb2_grpc.RiskServiceStub]:
    async with grpc.aio.insecure_channel(own_web.target) as channel:
        yield service_pb2_grpc.RiskServiceStub(channel)  # type: ignore[no-untyped-call]


async def _game(stub: service_pb2_grpc.RiskServiceStub, moves: int = 3,
                **options: Any) -> tuple[str, dict[int, str], int]:
    """A started 2-player classic game after `moves` moves: (id, seat tokens, last seq)."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
            players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True)),
        issue_seat_tokens=True, seed=5, **options))
    game_id = created.game.game_id
    tokens = dict(enumerate(created.seat_tokens))
    for _ in range(moves):
        await move_by_grpc(stub, game_id, tokens)
    return game_id, tokens, await _last_seq(stub, game_id, tokens)


async def _last_seq(stub: service_pb2_grpc.RiskServiceStub, game_id: str,
                    tokens: dict[int, str]) -> int:
    reply = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                               metadata=(("authorization", f"Bearer {tokens[0]}"),))
    return reply.game.last_seq


@contextlib.asynccontextmanager
async def curl(*args: str) -> AsyncIterator[asyncio.subprocess.Process]:
    """`curl -sN ARGS` with its output as a pipe; ended when the block ends."""
    process = await asyncio.create_subprocess_exec(
        "curl", "-sN", "--max-time", "60", *args, stdout=asyncio.subprocess.PIPE)
    try:
        yield process
    finally:
        if process.returncode is None:
            process.terminate()
        await process.wait()


async def line(process: asyncio.subprocess.Process) -> str:
    assert process.stdout is not None
    data = await asyncio.wait_for(process.stdout.readline(), READ_S)
    assert data, "curl's output ended"
    return data.decode()


async def ndjson_until(process: asyncio.subprocess.Process, seq: int
                       ) -> list[service_pb2.StreamEventsResponse]:
    """The NDJSON replies up to the one of event `seq` (keepalive lines skipped)."""
    replies = []
    while not replies or replies[-1].event.seq < seq:
        text = await line(process)
        if text.strip():
            replies.append(json_format.Parse(text, service_pb2.StreamEventsResponse()))
    return replies


async def sse_event(process: asyncio.subprocess.Process) -> tuple[dict[str, str], list[str]]:
    """The next SSE event's fields, and the comments read before it."""
    fields: dict[str, str] = {}
    comments = []
    while True:
        text = (await line(process)).rstrip("\n")
        if not text:
            if fields:
                return fields, comments
            continue
        if text.startswith(":"):
            comments.append(text)
            continue
        name, _, value = text.partition(":")
        fields[name] = value.removeprefix(" ")


async def grpc_events(stub: service_pb2_grpc.RiskServiceStub, game_id: str, last: int,
                      token: str | None = None) -> list[service_pb2.StreamEventsResponse]:
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id),
                             metadata=metadata)
    replies = []
    async for reply in call:
        replies.append(reply)
        if reply.event.seq >= last:
            call.cancel()
            break
    return replies


def request(web: ServiceProcess, method: str, path: str, body: bytes | None = None,
            **headers: str) -> tuple[int, dict[str, str], bytes]:
    """One request read whole (a refusal's): (status, headers, body)."""
    url = urllib.parse.urlsplit(web.http_url)
    conn = http.client.HTTPConnection(url.hostname or "", url.port, timeout=READ_S)
    try:
        conn.request(method, path, body, {k.replace("_", "-"): v for k, v in headers.items()})
        reply = conn.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    finally:
        conn.close()


def reason_of(body: bytes) -> str:
    error = json.loads(body)
    return str(error["details"][0]["debug"]["reason"])


async def test_curl_reads_a_game_as_ndjson_then_live(
        web: ServiceProcess, stub: service_pb2_grpc.RiskServiceStub) -> None:
    """`curl -N .../v1/games/ID/events` prints one JSON line per event: the same events a
    spectator's gRPC stream gets, from seq 1, then a move made after it opened."""
    game_id, tokens, last = await _game(stub)
    async with curl(f"{web.http_url}/v1/games/{game_id}/events") as process:
        replies = await ndjson_until(process, last)
        assert [r.event.seq for r in replies] == list(range(1, last + 1))
        assert replies == await grpc_events(stub, game_id, last)
        await move_by_grpc(stub, game_id, tokens)
        now = await _last_seq(stub, game_id, tokens)
        live = await ndjson_until(process, now)
        assert [r.event.seq for r in live] == list(range(last + 1, now + 1))


async def test_sse_resumes_after_last_event_id_and_keeps_alive(
        web: ServiceProcess, stub: service_pb2_grpc.RiskServiceStub) -> None:
    """With `Accept: text/event-stream` each event is an SSE event whose id is its seq; a
    Last-Event-ID resumes after it, and an idle stream sends keepalive comments."""
    game_id, _tokens, last = await _game(stub)
    assert last > 3
    async with curl("-H", "Accept: text/event-stream", "-H", "Last-Event-ID: 2",
                    f"{web.http_url}/v1/games/{game_id}/events") as process:
        opening, _ = await sse_event(process)
        assert opening == {"retry": "1000"}  # EventSource reconnects a second after a drop
        ids = []
        while not ids or ids[-1] < last:
            fields, _ = await sse_event(process)
            data = json_format.Parse(fields["data"], service_pb2.StreamEventsResponse())
            assert data.event.seq == int(fields["id"])
            ids.append(int(fields["id"]))
        assert ids == list(range(3, last + 1))
        # nothing happens in the game now: keepalives (every 300 ms here) hold the line
        assert process.stdout is not None
        assert (await line(process)).startswith(": keepalive")


async def test_a_plain_stream_keeps_the_spectator_delay_and_a_seat_sees_it_all(
        web: ServiceProcess, stub: service_pb2_grpc.RiskServiceStub) -> None:
    """A game shown 3 events behind: the plain stream without a token stops 3 short of the
    last seq and goes on 3 behind after a move; with a seat's token (Authorization header)
    it reaches the last seq, as on gRPC."""
    game_id, tokens, last = await _game(stub, spectator_delay_events=3)
    url = f"{web.http_url}/v1/games/{game_id}/events"
    async with curl(url) as spectator, \
            curl("-H", f"Authorization: Bearer {tokens[0]}", url) as seat:
        assert (await ndjson_until(spectator, last - 3))[-1].event.seq == last - 3
        assert (await ndjson_until(seat, last))[-1].event.seq == last
        await move_by_grpc(stub, game_id, tokens)
        now = await _last_seq(stub, game_id, tokens)
        # the spectator's next events are the ones the move released, not the move's own
        assert [r.event.seq for r in await ndjson_until(spectator, now - 3)] == list(
            range(last - 2, now - 2))
        assert (await ndjson_until(seat, now))[-1].event.seq == now


async def test_refusals_are_http_statuses_with_the_reason(
        own_web: ServiceProcess, own_stub: service_pb2_grpc.RiskServiceStub) -> None:
    """An unknown game is 404 GAME_NOT_FOUND, a field the request has not 400
    MALFORMED_REQUEST, a bad token 401, and a stream past the per-caller bound 429
    TOO_MANY_STREAMS, each with Connect's error JSON."""
    status, headers, body = request(own_web, "GET", "/v1/games/01" + "0" * 20 + "/events")
    assert (status, headers["content-type"]) == (404, "application/json")
    assert reason_of(body) == "GAME_NOT_FOUND"
    game_id, _tokens, last = await _game(own_stub, moves=0)
    status, _, body = request(own_web, "GET", f"/v1/games/{game_id}/events?colour=red")
    assert (status, reason_of(body)) == (400, "MALFORMED_REQUEST")
    assert "colour" in json.loads(body)["message"]
    status, _, body = request(own_web, "GET", f"/v1/games/{game_id}/events",
                              Authorization="Basic abc")
    assert (status, reason_of(body)) == (401, "BAD_CREDENTIALS")
    url = f"{own_web.http_url}/v1/games/{game_id}/events"
    async with curl(url) as first, curl(url) as second:  # the caller's two streams
        await ndjson_until(first, last)
        await ndjson_until(second, last)
        status, _, body = request(own_web, "GET", f"/v1/games/{game_id}/events")
        assert (status, reason_of(body)) == (429, "TOO_MANY_STREAMS")


async def test_a_plain_json_post_to_a_stream_is_told_how_or_served(
        web: ServiceProcess, stub: service_pb2_grpc.RiskServiceStub) -> None:
    """A JSON POST to StreamResults without asking for a stream form gets 415 and a JSON
    body saying how (connectrpc's was empty); asking `Accept: application/x-ndjson`, the
    same POST to StreamEvents is served as NDJSON."""
    status, headers, body = request(
        web, "POST", "/risk.v1.RiskService/StreamResults", b'{"tournament": "cup"}',
        Content_Type="application/json")
    assert status == 415
    error = json.loads(body)
    assert error["code"] == "invalid_argument"
    assert "Accept: application/x-ndjson" in error["message"]
    assert "GET /v1/tournaments/{tournament}/results" in error["message"]
    assert "text/event-stream" in headers["accept-post"]
    game_id, _tokens, last = await _game(stub, moves=1)
    async with curl("-H", "Content-Type: application/json", "-H",
                    "Accept: application/x-ndjson", "-d", json.dumps({"gameId": game_id}),
                    f"{web.http_url}/risk.v1.RiskService/StreamEvents") as process:
        replies = await ndjson_until(process, last)
        assert [r.event.seq for r in replies] == list(range(1, last + 1))


async def test_a_stream_ended_by_an_error_says_so_in_its_last_line(
        web: ServiceProcess, stub: service_pb2_grpc.RiskServiceStub) -> None:
    """A seat's stream whose token the host reissues ends after the reissue's event: over
    NDJSON with a last line {"error": ...} naming CREDENTIALS_REVOKED, over SSE with an
    `error` event carrying the same JSON; curl's output then ends."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
            players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True)),
        issue_seat_tokens=True, seed=5))
    game_id = created.game.game_id
    last = await _last_seq(stub, game_id, dict(enumerate(created.seat_tokens)))
    url = f"{web.http_url}/v1/games/{game_id}/events"
    auth = f"Authorization: Bearer {created.seat_tokens[1]}"
    async with curl("-H", auth, url) as ndjson, \
            curl("-H", auth, "-H", "Accept: text/event-stream", url) as sse:
        await ndjson_until(ndjson, last)
        while (await sse_event(sse))[0].get("id") != str(last):
            pass
        await stub.ReissueSeatToken(service_pb2.ReissueSeatTokenRequest(
            game_id=game_id, seat=1), metadata=(("authorization",
                                                 f"Bearer {created.host_token}"),))
        text = await line(ndjson)
        while '"error"' not in text:
            text = await line(ndjson)
        assert reason_of(json.dumps(json.loads(text)["error"]).encode()) == (
            "CREDENTIALS_REVOKED")
        assert ndjson.stdout is not None
        assert await asyncio.wait_for(ndjson.stdout.read(), READ_S) == b""  # ended
        fields, _ = await sse_event(sse)
        while fields.get("event") != "error":
            fields, _ = await sse_event(sse)
        assert reason_of(fields["data"].encode()) == "CREDENTIALS_REVOKED"


async def test_the_results_and_player_streams_as_ndjson(
        web: ServiceProcess, stub: service_pb2_grpc.RiskServiceStub) -> None:
    """`/v1/tournaments/{t}/results` gives a round's facts as JSON lines, numbered from 1;
    `/v1/me/events` needs a player token (401 MISSING_CREDENTIALS without one) and with one
    gives the player's facts (their game started)."""
    await stub.CreateRound(tournament_pb2.CreateRoundRequest(
        request_id="r1", tournament="cup", round=1, options=game_pb2.GameOptions(
            classic=classic_pb2.ClassicOptions(players=2)),
        games=[tournament_pb2.RoundTable(seats=[tournament_pb2.RoundSeat(player="a"),
                                                tournament_pb2.RoundSeat(player="b")])]))
    async with curl(f"{web.http_url}/v1/tournaments/cup/results") as process:
        facts = [json_format.Parse(await line(process), tournament_pb2.StreamResultsResponse())
                 for _ in range(2)]
    assert [(f.fact.seq, f.fact.WhichOneof("kind")) for f in facts] == [
        (1, "created"), (2, "started")]
    status, _, body = request(web, "GET", "/v1/me/events")
    assert (status, reason_of(body)) == (401, "MISSING_CREDENTIALS")
    issued = await stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest())
    await stub.CreateGame(service_pb2.CreateGameRequest(
        options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
            players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True)),
        issue_seat_tokens=True, seat_players=[issued.player_id, ""]))
    async with curl("-H", f"Authorization: Bearer {issued.token}",
                    f"{web.http_url}/v1/me/events") as process:
        first = json_format.Parse(await line(process),
                                  player_games_pb2.StreamPlayerEventsResponse())
    assert (first.event.seq, first.event.player_id) == (1, issued.player_id)


async def test_a_page_of_an_allowed_origin_may_read_and_resume_a_stream(
        web: ServiceProcess, stub: service_pb2_grpc.RiskServiceStub) -> None:
    """For an origin in RISK_HTTP_CORS_ORIGINS the preflight allows Authorization and
    Last-Event-ID on a stream's path, and the stream's reply names the origin; another
    origin's page gets no such header."""
    game_id, _tokens, last = await _game(stub, moves=0)
    path = f"/v1/games/{game_id}/events"
    status, headers, _ = request(web, "OPTIONS", path, Origin="https://tv.example",
                                 Access_Control_Request_Method="GET",
                                 Access_Control_Request_Headers="authorization,last-event-id")
    allowed = {h.strip().lower() for h in headers["access-control-allow-headers"].split(",")}
    assert status == 204 and {"authorization", "last-event-id"} <= allowed
    assert "GET" in headers["access-control-allow-methods"]
    async with curl("-i", "-H", "Origin: https://tv.example", "-H",
                    f"Last-Event-ID: {last - 1}", f"{web.http_url}{path}") as process:
        head = []
        while (text := await line(process)).strip():
            head.append(text.strip().lower())
        assert "access-control-allow-origin: https://tv.example" in head
        event = json_format.Parse(await line(process), service_pb2.StreamEventsResponse())
        assert event.event.seq == last
    async with curl("-i", "-H", "Origin: https://elsewhere.example",
                    f"{web.http_url}{path}") as process:
        head = []
        while (text := await line(process)).strip():
            head.append(text.strip().lower())
        assert not any(h.startswith("access-control-allow-origin") for h in head)
