"""A campaign game start that did not finish: its number is claimed in the campaign, and then
its caller went, or its process died, before the game was stored or started.

A start is several writes (claim the number, store the game, start it). One whose caller goes
in between still finishes; one whose process dies in between is finished by the host's next
StartCampaignGame, under the claimed number, instead of a game nobody can start (every seat
is taken from its creation, so no join starts it) answered GAME_IN_PROGRESS for ever.

The start that does not finish runs in this test's process, on the service's own code over the
service's Redis and keys (the fault is injected there: a write that never returns, or that
the process never got past); the recovery is asked of the real service process, over gRPC.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

import grpc
import pytest

from risk_proto.risk.v1 import legacy_pb2, service_pb2, service_pb2_grpc
from risk_service.campaigns import CampaignService
from risk_service.operations import ACTIVE, Caller, GameService
from risk_service.store.keys import Keys
from risk_testing.harness import ServiceProcess
from risk_testing.inprocess import in_process_service
from risk_testing.rpc import bearer, error_info, rpc_error
from tests.serving import module_service

PREFIX = "campaign-cut-short"
service = module_service(PREFIX)
Stub = service_pb2_grpc.RiskServiceStub
WAIT_S = 20.0


class ProcessDied(Exception):
    """Stands for the process's death at the step it is raised from."""


@pytest.fixture
async def local(service: ServiceProcess) -> AsyncIterator[GameService]:
    """The service's operations in this process, on the service's Redis under its keys."""
    async with in_process_service(service.redis_url, lambda: int(time.time() * 1000),
                                  keys=Keys(prefix=PREFIX)) as games:
        yield games


async def _campaign(stub: Stub) -> service_pb2.CreateCampaignResponse:
    return await stub.CreateCampaign(service_pb2.CreateCampaignRequest(
        players=3, factions=[legacy_pb2.FactionChoice(faction=f, power=p)  # type: ignore[arg-type]
                             for f, p in [(1, 1), (2, 3), (4, 7)]]))


def _start(campaign_id: str, seed: int = 5) -> service_pb2.StartCampaignGameRequest:
    return service_pb2.StartCampaignGameRequest(campaign_id=campaign_id, seed=seed)


async def _dies_at(local: GameService, step: str, created: service_pb2.CreateCampaignResponse
                   ) -> None:
    """Run a start in this process that dies at `step` ("create": before the game is stored,
    "start": stored, before it is started)."""
    owner = local.store if step == "create" else local.commits
    method = "create" if step == "create" else "lifecycle_commit"

    async def died(*_args: Any, **_kwargs: Any) -> Any:
        raise ProcessDied(step)

    setattr(owner, method, died)
    with pytest.raises(ProcessDied):
        await CampaignService(local).start_game(
            _start(created.campaign.campaign_id), Caller.of(created.host_token))


async def _game_ids(stub: Stub, campaign_id: str) -> list[str]:
    return list((await stub.GetCampaign(service_pb2.GetCampaignRequest(
        campaign_id=campaign_id))).campaign.game_ids)


@pytest.mark.parametrize("step", ["create", "start"])
async def test_the_next_start_finishes_a_start_whose_process_died(
    stub: Stub, local: GameService, step: str
) -> None:
    """The number is claimed and the game not stored (`create`), or stored but not started
    (`start`): the host's next start returns that game, started, under the same number, and
    its seats play it."""
    created = await _campaign(stub)
    campaign_id = created.campaign.campaign_id
    await _dies_at(local, step, created)
    assert await _game_ids(stub, campaign_id) == [f"{campaign_id}.1"], "the number is claimed"

    started = await stub.StartCampaignGame(_start(campaign_id),
                                           metadata=bearer(created.host_token))
    assert started.game.game_id == f"{campaign_id}.1"
    assert started.game.status == ACTIVE
    assert list(started.campaign.game_ids) == [f"{campaign_id}.1"], "no second number"
    # the game is playable: a seat resigns, which only a started game takes
    resigned = await stub.Resign(service_pb2.ResignRequest(game_id=f"{campaign_id}.1"),
                                 metadata=bearer(created.seat_tokens[0]))
    assert resigned.game.status == ACTIVE and resigned.game.version > started.game.version
    # and the campaign is back to its rule: one game at a time
    again = await rpc_error(stub.StartCampaignGame(_start(campaign_id),
                                                   metadata=bearer(created.host_token)))
    assert error_info(again).reason == "GAME_IN_PROGRESS"


async def test_an_old_claim_without_its_game_is_not_reused(
    stub: Stub, local: GameService, service: ServiceProcess
) -> None:
    """A claimed number whose game is gone and was claimed longer ago than any game is kept
    was a game that ended and expired: the next start takes the next number, so no game id
    ever names two games."""
    created = await _campaign(stub)
    campaign_id = created.campaign.campaign_id
    await _dies_at(local, "create", created)
    long_ago = int(time.time() * 1000) - local.limits.retention(service_pb2.GAME_STATUS_WAITING)
    await local.store.redis.hset(Keys(prefix=PREFIX).campaign(campaign_id), "claimed",
                                 str(long_ago - 1))
    started = await stub.StartCampaignGame(_start(campaign_id),
                                           metadata=bearer(created.host_token))
    assert started.game.game_id == f"{campaign_id}.2"
    assert list(started.campaign.game_ids) == [f"{campaign_id}.1", f"{campaign_id}.2"]


async def test_a_start_whose_caller_goes_midway_still_starts_its_game(
    stub: Stub, local: GameService
) -> None:
    """The caller's call is cancelled (its client went) while the game is being stored: the
    game is stored and started all the same."""
    created = await _campaign(stub)
    campaign_id = created.campaign.campaign_id
    storing, release = asyncio.Event(), asyncio.Event()
    create = local.store.create

    def gated(real: Callable[..., Coroutine[Any, Any, bool]]
              ) -> Callable[..., Coroutine[Any, Any, bool]]:
        async def held(*args: Any, **kwargs: Any) -> bool:
            storing.set()
            await release.wait()
            return await real(*args, **kwargs)
        return held

    local.store.create = gated(create)  # type: ignore[method-assign]
    call = asyncio.create_task(CampaignService(local).start_game(
        _start(campaign_id), Caller.of(created.host_token)))
    async with asyncio.timeout(WAIT_S):
        await storing.wait()
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    release.set()

    async def status() -> int:
        got = await stub.GetGame(service_pb2.GetGameRequest(game_id=f"{campaign_id}.1"))
        return got.game.status

    async with asyncio.timeout(WAIT_S):
        while True:
            try:
                if await status() == ACTIVE:
                    break
            except grpc.aio.AioRpcError as error:  # not stored yet
                assert error_info(error).reason == "GAME_NOT_FOUND", error
            await asyncio.sleep(0.02)
    assert await _game_ids(stub, campaign_id) == [f"{campaign_id}.1"]
