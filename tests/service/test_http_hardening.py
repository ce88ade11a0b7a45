"""The HTTP port under attack (issue 33 items 1-4, issue 32 item 14): connections that never
finish a request, heads too large, pipelined requests nobody reads, WebSocket floods, and
what a client reads of a refusal. Each is driven over a raw socket against a real service
process, as the outside attack was."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import time
from collections.abc import Awaitable, Callable

import grpc
import pytest

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.wsclient import CLOSE, PING, WebSocket, client_frame
from tests.service.test_abuse import rss
from tests.service.test_http import info_of, post_json

SERVICE = "/risk.v1.RiskService/"
STREAM = SERVICE + "StreamEvents"
MB = 1024 * 1024
PING_REQUEST = (b"POST /risk.v1.RiskService/Ping HTTP/1.1\r\nHost: x\r\n"
                b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")


async def _open(service: ServiceProcess, receive_buffer: int = 0
                ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", service.http_port))
    return await asyncio.open_connection(sock=sock)


async def _until_closed(reader: asyncio.StreamReader, bound_s: float) -> bytes:
    """What the server sent before it closed the connection (EOF or reset), which it must do
    within `bound_s`."""
    received = b""
    async with asyncio.timeout(bound_s):
        try:
            while data := await reader.read(65536):
                received += data
        except ConnectionResetError:
            pass
    return received


async def _flood(writer: asyncio.StreamWriter, chunk: bytes, times: int) -> int:
    """Write `chunk` up to `times` times, stopping once the server stops reading (a write
    that does not drain within 2 s); returns how many went."""
    for sent in range(times):
        writer.write(chunk)
        try:
            await asyncio.wait_for(writer.drain(), 2)
        except TimeoutError:
            return sent
        except ConnectionError:
            return sent
    return times


async def _grpc_ping_latency(service: ServiceProcess, during: Awaitable[object]) -> float:
    """The slowest gRPC Ping of a bystander pinging while `during` runs."""
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        await stub.Ping(service_pb2.PingRequest())
        task = asyncio.ensure_future(during)
        slowest = 0.0
        while not task.done():
            started = time.monotonic()
            await stub.Ping(service_pb2.PingRequest(), timeout=10)
            slowest = max(slowest, time.monotonic() - started)
            await asyncio.wait([task], timeout=0.02)
        await task
        return slowest


async def test_connections_that_never_finish_a_request_are_closed(
        make_service: ServiceFactory, redis_client: object) -> None:
    """An idle connection, half-sent headers, a half-sent body, a Connect stream whose body
    never ends and an upgraded WebSocket that never sends its request are each closed within
    RISK_HTTP_REQUEST_TIMEOUT_MS (1 s here), as the gRPC port closes such connections."""
    service = make_service(http=True, RISK_HTTP_REQUEST_TIMEOUT_MS="1000")
    envelope = b'{"gameId":"g"}'
    stream_head = (b"POST /risk.v1.RiskService/StreamEvents HTTP/1.1\r\nHost: x\r\n"
                   b"Content-Type: application/connect+json\r\n"
                   b"Transfer-Encoding: chunked\r\n\r\n")
    chunk = struct.pack(">BI", 0, len(envelope)) + envelope
    stalls = {
        "idle": b"",
        "half-sent headers": b"POST /risk.v1.RiskService/Ping HTTP/1.1\r\nHost: x\r\nConte",
        "half-sent body": PING_REQUEST.replace(b"Length: 2", b"Length: 200")[:-1],
        "never-ending stream body": stream_head + b"%x\r\n" % len(chunk) + chunk + b"\r\n",
    }

    async def stalled(sent: bytes) -> float:
        reader, writer = await _open(service)
        started = time.monotonic()
        writer.write(sent)
        await _until_closed(reader, 8)
        writer.close()
        return time.monotonic() - started

    async def websocket() -> float:
        ws = await WebSocket.connect("127.0.0.1", service.http_port, STREAM)
        started = time.monotonic()
        async with asyncio.timeout(8):
            message = await ws.receive()
        ws.writer.close()
        assert (message.opcode, message.close_code) == (CLOSE, 1008)
        return time.monotonic() - started

    took = await asyncio.gather(*(stalled(sent) for sent in stalls.values()), websocket())
    for what, seconds in zip([*stalls, "upgraded WebSocket"], took, strict=True):
        assert seconds < 4, f"{what}: closed after {seconds:.1f} s"
    assert "http_connection_closed" in service.logs()


async def test_oversized_heads_are_refused_without_stalling_others(
        make_service: ServiceFactory, redis_client: object) -> None:
    """A 4 MB header is refused (400/431, closed) and 1,000 small headers get 431, while a
    bystander's gRPC Pings stay fast; a head within the limits is answered 200."""
    service = make_service(http=True)

    async def send(request: bytes) -> bytes:
        reader, writer = await _open(service)
        writer.write(request)
        try:
            await writer.drain()
        except ConnectionError:
            return b"(reset while sending)"
        finally:
            reply = await _until_closed(reader, 10)
            writer.close()
        return reply

    big = PING_REQUEST.replace(b"Host: x\r\n", b"Host: x\r\nX-Big: " + b"a" * (4 * MB) + b"\r\n")
    many = PING_REQUEST.replace(b"Host: x\r\n", b"Host: x\r\n" + b"".join(
        b"X-H%d: v\r\n" % i for i in range(1000)))
    replies: list[bytes] = []

    async def both() -> None:
        replies.extend(await asyncio.gather(send(big), send(many)))

    slowest = await _grpc_ping_latency(service, both())
    big_reply, many_reply = replies
    assert not big_reply.startswith(b"HTTP/1.1 200"), big_reply[:100]
    assert many_reply.startswith(b"HTTP/1.1 431"), many_reply[:100]
    assert slowest < 3.0, f"a bystander's Ping took {slowest:.2f} s"
    reader, writer = await _open(service)
    writer.write(PING_REQUEST)
    assert (await reader.readline()).startswith(b"HTTP/1.1 200")
    writer.close()


async def test_a_head_growing_past_the_limit_is_answered_431(
        make_service: ServiceFactory, redis_client: object) -> None:
    """A request head sent a line at a time past RISK_HTTP_MAX_HEADER_BYTES (4 KiB here) is
    answered 431 Request Header Fields Too Large and the connection closed, once the limit is
    passed rather than when the head ends."""
    service = make_service(http=True, RISK_HTTP_MAX_HEADER_BYTES="4096")
    reader, writer = await _open(service)
    writer.write(b"POST /risk.v1.RiskService/Ping HTTP/1.1\r\nHost: x\r\n")
    reply = b""
    for i in range(200):  # 200 KiB at most; a line each time the server has read the last
        writer.write(b"X-Filler-%03d: %s\r\n" % (i, b"a" * 1000))
        await writer.drain()
        with contextlib.suppress(TimeoutError):
            reply = await asyncio.wait_for(reader.read(65536), 0.05)
        if reply:
            break
    reply += await _until_closed(reader, 5)
    writer.close()
    assert reply.startswith(b"HTTP/1.1 431"), reply[:100]
    assert i < 30, f"answered after {i + 1} KiB of headers"


async def test_pipelined_requests_nobody_reads_hold_bounded_memory(
        make_service: ServiceFactory, redis_client: object) -> None:
    """100,000 Pings pipelined on one connection whose client reads nothing: the server stops
    reading once its replies are unsent, so its memory grows by a few MB, not by the
    requests' worth (about 420 MB per 200,000 before)."""
    service = make_service(http=True)
    reader, writer = await _open(service, receive_buffer=4096)
    writer.write(PING_REQUEST)
    assert (await reader.readline()).startswith(b"HTTP/1.1 200")
    before = rss(service)
    sent = await _flood(writer, PING_REQUEST * 1000, 100)
    async with grpc.aio.insecure_channel(service.target) as channel:
        await service_pb2_grpc.RiskServiceStub(channel).Ping(service_pb2.PingRequest())
    grown = rss(service) - before
    writer.transport.abort()
    assert grown < 30 * MB, f"{grown / MB:.0f} MB after {sent * 1000} pipelined requests"
    assert sent < 100, "the server read every request without sending a reply"


async def test_a_websocket_ping_flood_whose_pongs_are_never_read_is_held_back(
        make_service: ServiceFactory, redis_client: object) -> None:
    """200,000 pings of 125 bytes from a client that reads none of the pongs: the server stops
    reading while it owes more than its transport's high-water mark, so its memory grows by
    a few MB (about 370 MB before), and a bystander's Pings stay fast."""
    service = make_service(http=True)
    ws = await WebSocket.connect("127.0.0.1", service.http_port, STREAM, receive_buffer=4096)
    before = rss(service)
    sent: list[int] = []

    async def flood() -> None:
        sent.append(await _flood(ws.writer, client_frame(PING, b"p" * 125) * 1000, 200))

    slowest = await _grpc_ping_latency(service, flood())
    grown = rss(service) - before
    ws.writer.transport.abort()
    assert grown < 15 * MB, f"{grown / MB:.0f} MB after {sent[0] * 1000} pings"
    assert sent[0] < 200, "the server read every ping"
    assert slowest < 3.0, f"a bystander's Ping took {slowest:.2f} s"


async def test_endless_empty_fragments_close_the_websocket(
        make_service: ServiceFactory, redis_client: object) -> None:
    """A message of endless empty non-final fragments (nothing toward the size limit) is
    closed with 1009 once it has too many frames, instead of growing for ever."""
    service = make_service(http=True)
    ws = await WebSocket.connect("127.0.0.1", service.http_port, STREAM)
    ws.send_raw(client_frame(0x2, b"", fin=False))
    ws.send_raw(client_frame(0x0, b"", fin=False) * 20_000)
    async with asyncio.timeout(10):
        message = await ws.receive()
    ws.writer.close()
    assert (message.opcode, message.close_code) == (CLOSE, 1009)


async def test_a_close_with_a_reserved_code_or_one_byte_is_a_protocol_error(
        make_service: ServiceFactory, redis_client: object) -> None:
    """A close frame with the reserved code 1005 (or 1006, 1015), an unassigned one, or a
    1-byte payload is answered 1002 (RFC 6455 5.5.1, 7.4); 1000 and an empty close, 1000."""
    service = make_service(http=True)
    cases: list[tuple[bytes, int]] = [
        (struct.pack("!H", 1005), 1002), (struct.pack("!H", 1006), 1002),
        (struct.pack("!H", 1015), 1002), (struct.pack("!H", 999), 1002), (b"\x03", 1002),
        (struct.pack("!H", 1000) + b"bye", 1000), (b"", 1000),
    ]
    for payload, expected in cases:
        ws = await WebSocket.connect("127.0.0.1", service.http_port, STREAM)
        ws.send(payload, CLOSE)
        async with asyncio.timeout(10):
            message = await ws.receive()
        ws.writer.close()
        assert (message.opcode, message.close_code) == (CLOSE, expected), payload


def test_a_json_error_carries_its_reason_readably(make_service: ServiceFactory,
                                                  redis_client: object) -> None:
    """A JSON client reads a refusal's ErrorInfo (reason, domain, metadata) from the detail's
    `debug`, without decoding base64 protobuf."""
    service = make_service(http=True)
    status, error = post_json(service, "GetGame", {"gameId": "no-such-game"})
    assert status == 400, error
    (detail,) = error["details"]
    assert info_of(error).reason == "MALFORMED_REQUEST"  # the base64 form, as before
    assert detail["debug"]["reason"] == "MALFORMED_REQUEST"
    assert detail["debug"]["domain"] == "risk.v1"
    assert detail["debug"]["metadata"]["message"] == error["message"]


async def test_connections_past_the_cap_are_refused(make_service: ServiceFactory,
                                                    redis_client: object) -> None:
    """Past RISK_HTTP_MAX_CONNECTIONS (4 here) a new connection gets 503 and is closed, so
    HTTP clients cannot take the descriptors the gRPC port needs; once one closes, a new one
    is served."""
    service = make_service(http=True, RISK_HTTP_MAX_CONNECTIONS="4")
    held = [await _open(service) for _ in range(4)]
    for _reader, writer in held:  # each really open: answered
        writer.write(PING_REQUEST)
    for reader, _writer in held:
        assert (await reader.readline()).startswith(b"HTTP/1.1 200")
    reader, writer = await _open(service)
    assert (await _until_closed(reader, 5)).startswith(b"HTTP/1.1 503")
    writer.close()
    held[0][1].close()

    async def served() -> bool:
        reader, writer = await _open(service)
        writer.write(PING_REQUEST)
        try:
            return (await reader.readline()).startswith(b"HTTP/1.1 200")
        finally:
            writer.close()

    await _until(served, 5)
    for _reader, writer in held[1:]:
        writer.close()


async def _until(check: Callable[[], Awaitable[bool]], bound_s: float) -> None:
    deadline = time.monotonic() + bound_s
    while not await check():
        assert time.monotonic() < deadline, "not within the bound"
        await asyncio.sleep(0.05)


def test_settings_are_documented() -> None:
    """Every RISK_HTTP_* setting of the port's connections is in docs/configuration.md."""
    from pathlib import Path  # noqa: PLC0415

    docs = (Path(__file__).parents[2] / "docs" / "configuration.md").read_text()
    for name in ("RISK_HTTP_REQUEST_TIMEOUT_MS", "RISK_HTTP_IDLE_TIMEOUT_MS",
                 "RISK_HTTP_MAX_HEADER_BYTES", "RISK_HTTP_MAX_HEADERS",
                 "RISK_HTTP_MAX_CONNECTIONS"):
        assert f"`{name}`" in docs, name


async def _reply(reader: asyncio.StreamReader) -> bytes:
    """One whole HTTP/1.1 response (by its Content-Length, or to its last chunk)."""
    head = await reader.readuntil(b"\r\n\r\n")
    if b"transfer-encoding: chunked" in head.lower():
        return head + await reader.readuntil(b"\r\n0\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.lower().split(b"\r\n")
                  if line.startswith(b"content-length:"))
    return head + await reader.readexactly(length)


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
async def test_calls_on_a_kept_alive_connection_do_not_wait_on_delayed_acks(
        make_service: ServiceFactory, redis_client: object, loop: str) -> None:
    """Calls one after the other on one kept-alive connection are answered in a few ms, not
    the 40 ms of a reply written in two parts that waits for the client's delayed ACK."""
    service = make_service(http=True, RISK_EVENT_LOOP=loop)
    reader, writer = await _open(service)
    took = []
    for _ in range(15):
        started = time.perf_counter()
        writer.write(PING_REQUEST)
        assert (await asyncio.wait_for(_reply(reader), 5)).startswith(b"HTTP/1.1 200")
        took.append(time.perf_counter() - started)
    writer.close()
    assert sorted(took)[len(took) // 2] < 0.03, [round(t * 1e3, 1) for t in took]


GRPC_WEB_PING = (b"POST /risk.v1.RiskService/Ping HTTP/1.1\r\nHost: x\r\n"
                 b"Content-Type: application/grpc-web+proto\r\nX-Grpc-Web: 1\r\n"
                 b"Content-Length: 5\r\n\r\n\x00\x00\x00\x00\x00")


async def test_a_unary_reply_comes_whole_and_a_100_continue_before_it(
        make_service: ServiceFactory, redis_client: object) -> None:
    """A unary reply reaches the client in one piece: a gRPC-Web reply's head, message and
    trailers all come in the first read (they were three writes, the trailers a loop turn
    after the rest, each a segment the client woke for). A request that asks for
    `100 Continue` still gets it before it sends its body, and then its reply."""
    service = make_service(http=True)
    reader, writer = await _open(service)
    try:
        for _ in range(5):
            writer.write(GRPC_WEB_PING)
            first = await asyncio.wait_for(reader.read(65536), 5)
            assert first.startswith(b"HTTP/1.1 200"), first[:100]
            assert b"grpc-status: 0" in first and first.endswith(b"\r\n0\r\n\r\n"), first
        writer.write(PING_REQUEST.replace(b"Content-Length: 2\r\n\r\n{}",
                                          b"Expect: 100-continue\r\nContent-Length: 2\r\n\r\n"))
        interim = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert interim == b"HTTP/1.1 100 Continue\r\n\r\n", interim
        writer.write(b"{}")
        reply = await asyncio.wait_for(_reply(reader), 5)
        assert reply.startswith(b"HTTP/1.1 200") and b"\r\n{}\r\n" in reply, reply
    finally:
        writer.close()
