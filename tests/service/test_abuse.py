"""Abuse of the transport: floods of refused requests and connections that never finish."""

from __future__ import annotations

import asyncio
import socket
import time

import grpc

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rawh2 import half_sent_calls
from risk_testing.rpc import create_request

MB = 1024 * 1024


def rss(service: ServiceProcess) -> int:
    assert service.proc is not None
    with open(f"/proc/{service.proc.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


async def test_refused_requests_do_not_hold_memory(make_service: ServiceFactory,
                                                   redis_client: object) -> None:
    """50 refused 4 MB requests, one after another, leave the service's memory about where
    one such request takes it: a refused call keeps neither its request nor gRPC's buffers."""
    service = make_service(RISK_MAX_MESSAGE_BYTES=str(8 * MB))
    request = create_request()
    request.seat_names.append("x" * (4 * MB))  # a seat name over 64 characters: refused
    async with grpc.aio.insecure_channel(
            service.target, options=[("grpc.max_send_message_length", 8 * MB)]) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        for _ in range(3):  # warm up: allocator pools and gRPC's buffers for one such call
            await _refused(stub, request)
        before = rss(service)
        for _ in range(50):
            await _refused(stub, request)
        grown = rss(service) - before
        print(f"RSS +{grown / MB:.1f} MB after 50 refused 4 MB requests")
    # each request costs about 4 MB to receive plus its decoded copy; 50 of them kept would be
    # far over 200 MB
    assert grown < 60 * MB, f"RSS grew {grown / MB:.0f} MB over 50 refused 4 MB requests"


async def _refused(stub: service_pb2_grpc.RiskServiceStub,
                   request: service_pb2.CreateGameRequest) -> None:
    try:
        await stub.CreateGame(request, timeout=30)
    except grpc.aio.AioRpcError as error:
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    else:
        raise AssertionError("a 4 MB seat name was accepted")


def _closed_within(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed `sock` (EOF or reset), None if still open after
    `seconds`; what the server sends before (SETTINGS, PING, GOAWAY) is read and dropped."""
    started = time.monotonic()
    while (left := seconds - (time.monotonic() - started)) > 0:
        sock.settimeout(left)
        try:
            if not sock.recv(65536):
                return time.monotonic() - started
        except TimeoutError:
            return None
        except OSError:
            return time.monotonic() - started
    return None


async def test_half_open_connections_are_closed(make_service: ServiceFactory,
                                                redis_client: object) -> None:
    """A connection that never sends the HTTP/2 preface, and one that opens a call but never
    sends its request (nor answers pings), are closed by the server within their limits;
    a well-behaved client on the same server is served throughout."""
    service = make_service(RISK_HANDSHAKE_TIMEOUT_MS="1000", RISK_KEEPALIVE_TIME_MS="1000",
                           RISK_KEEPALIVE_TIMEOUT_MS="1000")
    host, port = service.target.rsplit(":", 1)
    silent = socket.create_connection((host, int(port)))
    half_sent = socket.create_connection((host, int(port)))
    half_sent.sendall(half_sent_calls(service.target, 3))
    try:
        # limits: 1 s to finish the handshake; 1 s between pings plus 1 s for the answer
        silent_closed, half_closed = await asyncio.gather(
            asyncio.to_thread(_closed_within, silent, 20),
            asyncio.to_thread(_closed_within, half_sent, 20))
    finally:
        silent.close()
        half_sent.close()
    print(f"closed after: silent connection {silent_closed} s, half-sent calls {half_closed} s")
    assert silent_closed is not None, "a connection that sent nothing is still open after 20 s"
    assert half_closed is not None, "a connection with a half-sent call is still open after 20 s"
    async with grpc.aio.insecure_channel(service.target) as channel:
        await service_pb2_grpc.RiskServiceStub(channel).Ping(service_pb2.PingRequest(),
                                                             timeout=5)
