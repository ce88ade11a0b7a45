"""Configured limits answer RESOURCE_EXHAUSTED with a reason, and leave other callers alone."""

from __future__ import annotations

import asyncio
import secrets
import time

import grpc
import pytest

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_service.errors import ServiceError
from risk_service.server.limits import RateLimiter
from risk_testing.harness import ServiceFactory
from risk_testing.rpc import bearer, create_request, error_info, rpc_error


def test_token_bucket_refills_at_its_rate() -> None:
    """A bucket admits its burst, refuses the next, and admits again after 1/rate seconds."""
    now = [0.0]
    limiter = RateLimiter(10, 3, clock=lambda: now[0])
    for _ in range(3):
        limiter.admit("a")
    with pytest.raises(ServiceError) as refused:
        limiter.admit("a")
    assert refused.value.reason == "RATE_LIMITED"
    limiter.admit("b")  # another caller has its own bucket
    now[0] += 0.1
    limiter.admit("a")


async def test_rate_limit_per_caller(make_service: ServiceFactory, redis_client: object) -> None:
    """Over the rate a caller gets RESOURCE_EXHAUSTED/RATE_LIMITED; another token is unaffected."""
    service = make_service(RISK_RATE_LIMIT_PER_S="5", RISK_RATE_LIMIT_BURST="5")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        request = create_request()
        request.issue_seat_tokens = True
        created = await stub.CreateGame(request)
        game_id = created.game.game_id
        token = created.seat_tokens[0]
        request = service_pb2.GetGameRequest(game_id=game_id)
        outcomes = []
        for _ in range(12):
            try:
                await stub.GetGame(request, metadata=bearer(token))
                outcomes.append("ok")
            except grpc.aio.AioRpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert error_info(error).reason == "RATE_LIMITED"
                outcomes.append("limited")
        assert outcomes.count("ok") <= 6 and "limited" in outcomes
        other = await stub.GetGame(request, metadata=bearer(created.seat_tokens[1]))
        assert other.viewer_seat == 1
        await asyncio.sleep(0.5)
        assert (await stub.GetGame(request, metadata=bearer(token))).viewer_seat == 0


async def test_streams_per_connection(make_service: ServiceFactory, redis_client: object) -> None:
    """One connection may hold only the configured number of open streams."""
    service = make_service(RISK_MAX_STREAMS_PER_CONNECTION="2")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        created = await stub.CreateGame(create_request())
        request = service_pb2.StreamEventsRequest(game_id=created.game.game_id)
        open_calls = [stub.StreamEvents(request) for _ in range(2)]
        for call in open_calls:
            await asyncio.wait_for(call.read(), 5)
        error = await rpc_error(stub.StreamEvents(request).read())
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert error_info(error).reason == "TOO_MANY_STREAMS"
        open_calls[0].cancel()
        await asyncio.sleep(0.2)
        again = stub.StreamEvents(request)
        assert (await asyncio.wait_for(again.read(), 5)).event.seq == 1
        for call in (*open_calls, again):
            call.cancel()


async def test_invented_tokens_share_their_address_bucket(make_service: ServiceFactory,
                                                          redis_client: object) -> None:
    """A client that sends a new random bearer token with every call is limited as its
    address; a token that proved to be a seat credential keeps its own bucket meanwhile."""
    service = make_service(RISK_RATE_LIMIT_PER_S="5", RISK_RATE_LIMIT_BURST="5")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        request = create_request()
        request.issue_seat_tokens = True
        created = await stub.CreateGame(request)
        game = service_pb2.GetGameRequest(game_id=created.game.game_id)
        seat = bearer(created.seat_tokens[0])
        assert (await stub.GetGame(game, metadata=seat)).viewer_seat == 0  # verified now
        await asyncio.sleep(1.2)  # both buckets full again
        passed = limited = 0
        started = time.monotonic()
        for _ in range(40):
            try:
                await stub.Ping(service_pb2.PingRequest(),
                                metadata=bearer(secrets.token_urlsafe(16)))
                passed += 1
            except grpc.aio.AioRpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert error_info(error).reason == "RATE_LIMITED"
                limited += 1
        # at most the burst (5) and what refilled while the calls went out; not one per token
        allowed = 5 + 5 * (time.monotonic() - started) + 1
        assert passed <= allowed, f"{passed} of 40 calls with invented tokens got through"
        for _ in range(4):  # the seat's own bucket is untouched by that flood
            assert (await stub.GetGame(game, metadata=seat)).viewer_seat == 0
