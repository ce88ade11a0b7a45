"""What the fuzzer found, pinned down: client input once answered UNKNOWN, INTERNAL, UNAVAILABLE."""

from __future__ import annotations

import asyncio
import json
import time

import grpc
import pytest

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_service.server.status import classify
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import create_request, error_info, rpc_error
from tests.serving import LogMark, module_service

DOCUMENTED = {"OK", "INVALID_ARGUMENT", "FAILED_PRECONDITION", "ABORTED", "NOT_FOUND",
              "PERMISSION_DENIED", "UNAUTHENTICATED", "RESOURCE_EXHAUSTED", "UNIMPLEMENTED"}
NOT_A_MESSAGE = b"\xff\xff\xff\xff"  # a field tag whose varint never ends: no parser accepts it

# one service for the module: no test stops it, counts from zero or needs an empty Redis
service = module_service("fuzz-findings")


@pytest.fixture
async def channel(service: ServiceProcess) -> grpc.aio.Channel:
    async with grpc.aio.insecure_channel(service.target) as ch:
        yield ch


@pytest.mark.parametrize("method", ["SubmitAction", "GetGame", "StreamEvents", "Ping"])
async def test_bytes_that_are_no_message_are_invalid_argument(
    channel: grpc.aio.Channel, service: ServiceProcess, method: str
) -> None:
    """Unparseable request bytes get INVALID_ARGUMENT/MALFORMED_REQUEST and a log line."""
    mark = LogMark(service)
    target = f"/risk.v1.RiskService/{method}"
    call = (channel.unary_stream(target) if method == "StreamEvents"
            else channel.unary_unary(target))(NOT_A_MESSAGE)
    with pytest.raises(grpc.aio.AioRpcError) as raised:
        await (call.read() if method == "StreamEvents" else call)
    error = raised.value
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    assert error_info(error).reason == "MALFORMED_REQUEST"

    def logged() -> bool:
        text = mark.text()
        lines = [json.loads(line) for line in text[:text.rfind("\n") + 1].splitlines()
                 if line.startswith("{")]  # (whole lines: the service may be writing one)
        return {"method": target, "code": "INVALID_ARGUMENT"} in [
            {k: line.get(k) for k in ("method", "code")} for line in lines]

    # the service goes on (the module's other tests share it): its line is flushed as it is
    # written (risk_service.logs), soon after the answer, so the log is read until it is there
    deadline = time.monotonic() + 10
    while not logged() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert logged(), mark.text()


async def test_resuming_after_the_largest_seq_is_told_where_the_stream_ends(
    channel: grpc.aio.Channel,
) -> None:
    """StreamEvents(after_seq=2**64-1) (Redis cannot range past its largest id) ends ABORTED /
    GAME_ROLLED_BACK with the game's last seq: a seq past the end no longer exists, or never
    did, and the client resumes from the one named."""
    stub = service_pb2_grpc.RiskServiceStub(channel)  # type: ignore[no-untyped-call]
    created = await stub.CreateGame(create_request())
    for after_seq in (2**64 - 1, 2**64 - 2):
        call = stub.StreamEvents(service_pb2.StreamEventsRequest(
            game_id=created.game.game_id, after_seq=after_seq))
        error = await rpc_error(call.read())
        assert error.code() == grpc.StatusCode.ABORTED
        info = error_info(error)
        assert (info.reason, info.metadata["last_seq"]) == (
            "GAME_ROLLED_BACK", str(created.game.last_seq))


async def test_every_method_of_the_contract_answers_a_documented_code(
    channel: grpc.aio.Channel,
) -> None:
    """An empty request to each RiskService method: never UNKNOWN/INTERNAL, served or not."""
    service = service_pb2.DESCRIPTOR.services_by_name["RiskService"]
    answered = {}
    for method in service.methods:
        target = f"/{service.full_name}/{method.name}"
        try:
            if method.server_streaming:
                call = channel.unary_stream(target)(b"")
                await asyncio.wait_for(call.read(), 2)
                call.cancel()
            else:
                await channel.unary_unary(target)(b"", timeout=5)
            answered[method.name] = "OK"
        except grpc.aio.AioRpcError as error:
            answered[method.name] = error.code().name
    assert not {m: c for m, c in answered.items() if c not in DOCUMENTED}, answered


def test_a_method_still_generated_default_is_unimplemented() -> None:
    """The generated servicer default (NotImplementedError) maps to UNIMPLEMENTED, not INTERNAL."""
    error = classify(NotImplementedError("Method not implemented!"))
    assert error is not None and error.code.value == "UNIMPLEMENTED"
    assert error.reason == "METHOD_NOT_AVAILABLE"
