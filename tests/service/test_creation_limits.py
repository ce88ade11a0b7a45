"""Who may create, how fast, and what one ListGames call may cost (issue 15, item 9)."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time

import grpc

from risk_proto.risk.v1 import legacy_pb2, service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceFactory
from risk_testing.rpc import bearer, create_request, error_info, rpc_error

CREATOR = "creator-token-for-tests"


def campaign_request() -> service_pb2.CreateCampaignRequest:
    return service_pb2.CreateCampaignRequest(players=3, factions=[
        legacy_pb2.FactionChoice(faction=f, power=p)  # type: ignore[arg-type]  # enum ints
        for f, p in ((1, 1), (2, 3), (4, 7))])


async def test_creating_needs_a_creator_token_when_configured(
        make_service: ServiceFactory, redis_client: object) -> None:
    """With creator tokens configured, CreateGame and CreateCampaign without a token are
    UNAUTHENTICATED, with another token PERMISSION_DENIED, and with a creator token served."""
    digest = hashlib.sha256(CREATOR.encode()).hexdigest()
    service = make_service(RISK_CREATOR_TOKEN_SHA256=digest)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        for create, request in ((stub.CreateGame, create_request()),
                                (stub.CreateCampaign, campaign_request())):
            error = await rpc_error(create(request))
            assert error.code() == grpc.StatusCode.UNAUTHENTICATED
            assert error_info(error).reason == "MISSING_CREDENTIALS"
            error = await rpc_error(create(request, metadata=bearer("not-a-creator")))
            assert error.code() == grpc.StatusCode.PERMISSION_DENIED
            assert error_info(error).reason == "NOT_CREATOR"
            assert await create(request, metadata=bearer(CREATOR))
        listed = await stub.ListGames(service_pb2.ListGamesRequest())
        assert len(listed.games) == 1  # only the creator's game was stored


async def test_creations_per_address_are_limited(make_service: ServiceFactory,
                                                 redis_client: object) -> None:
    """One address creates at most the burst plus the rate, whatever tokens it sends; other
    calls from it are still served."""
    service = make_service(RISK_CREATE_RATE_PER_S="1", RISK_CREATE_BURST="3")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        created = limited = 0
        started = time.monotonic()
        for i in range(12):
            request = create_request() if i % 2 else campaign_request()
            create = stub.CreateGame if i % 2 else stub.CreateCampaign
            try:
                await create(request, metadata=bearer(secrets.token_urlsafe(8)))
                created += 1
            except grpc.aio.AioRpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                info = error_info(error)
                assert info.reason == "RATE_LIMITED" and "created" in info.metadata["message"]
                limited += 1
        assert created <= 3 + (time.monotonic() - started) + 1, f"{created} of 12 created"
        assert limited
        await stub.ListGames(service_pb2.ListGamesRequest())
        await asyncio.sleep(1.1)
        assert await stub.CreateGame(create_request())


async def test_a_list_page_ends_at_its_budget(make_service: ServiceFactory,
                                              redis_client: object) -> None:
    """A ListGames call past its time budget ends its page early with a page token; paging on
    still lists every game once, newest first."""
    service = make_service(RISK_LIST_BUDGET_MS="0")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        ids = [(await stub.CreateGame(create_request(seed=i))).game.game_id for i in range(60)]
        first = await stub.ListGames(service_pb2.ListGamesRequest(page_size=200))
        assert 0 < len(first.games) < 60 and first.next_page_token
        seen = [g.game_id for g in first.games]
        token = first.next_page_token
        while token:
            page = await stub.ListGames(service_pb2.ListGamesRequest(page_size=200,
                                                                     page_token=token))
            seen += [g.game_id for g in page.games]
            token = page.next_page_token
        assert seen == sorted(ids, reverse=True)
