"""Abuse of the transport: floods of refused requests and connections that never finish."""

from __future__ import annotations

import grpc

from risk_service.pb.risk.v1 import service_pb2, service_pb2_grpc
from tests.service.conftest import ServiceFactory
from tests.service.harness import ServiceProcess
from tests.service.rpc import create_request

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
