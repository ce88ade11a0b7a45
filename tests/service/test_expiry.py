"""What a flood of creations can leave behind is bounded in time: a game that never starts is
abandoned after RISK_UNSTARTED_EXPIRE_S and then kept only RISK_UNSTARTED_RETENTION_S, and a
campaign nobody plays is deleted after RISK_CAMPAIGN_IDLE_S (while its game is being played it
stays), with its index entries; a complete campaign is kept for the retention."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import grpc
import redis.asyncio

from risk_proto.risk.v1 import legacy_pb2, service_pb2, service_pb2_grpc
from risk_rules.engine.legacy import campaign as rules
from risk_rules.engine.legacy.content import board_of
from risk_rules.variants.legacy import decode_campaign, encode_campaign, reward_to_proto
from risk_service.campaigns import CampaignService
from risk_service.operations import GameService, Limits
from risk_service.operations.identity import Caller
from risk_service.store.game_store import GameStore
from risk_service.store.keys import Keys
from risk_testing.harness import ServiceFactory
from risk_testing.inprocess import in_process_hub, in_process_service
from risk_testing.rpc import bearer, create_request, error_info, rpc_error

QUICK = {"RISK_SWEEP_INTERVAL_MS": "50"}


def _campaign_request() -> service_pb2.CreateCampaignRequest:
    return service_pb2.CreateCampaignRequest(players=3, factions=[
        legacy_pb2.FactionChoice(faction=f, power=p)  # type: ignore[arg-type]  # enum ints
        for f, p in ((1, 1), (2, 3), (4, 7))])


async def _until(check: object, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await check():  # type: ignore[operator]
            return
        await asyncio.sleep(0.05)
    raise AssertionError("not reached in time")


async def test_a_game_that_never_starts_expires_soon(
        make_service: ServiceFactory, redis_client: redis.asyncio.Redis) -> None:
    """A waiting game is abandoned after the unstarted limit (an active game is not, at the
    same age), and then every key of it expires within the unstarted retention, not the
    30-day one."""
    service = make_service(RISK_UNSTARTED_EXPIRE_S="1", RISK_UNSTARTED_RETENTION_S="60",
                           **QUICK)
    keys = Keys()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        waiting = (await stub.CreateGame(create_request())).game.game_id
        active = (await stub.CreateGame(service_pb2.CreateGameRequest(
            options=create_request().options, issue_seat_tokens=True))).game.game_id

        async def abandoned() -> bool:
            game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=waiting))).game
            return bool(game.status == service_pb2.GAME_STATUS_ABANDONED)

        await _until(abandoned)
        await asyncio.sleep(0.3)  # a few more sweeps: the active game of the same age stays
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=active))).game
        assert game.status == service_pb2.GAME_STATUS_ACTIVE
        for key in keys.game_keys(waiting):
            ttl = await redis_client.pttl(key)
            if await redis_client.exists(key):
                assert 0 < ttl <= 60_000, (key, ttl)
        expires = await redis_client.zscore(keys.expiring(), f"classic:{waiting}")
        assert expires is not None and expires <= time.time() * 1000 + 60_000


async def test_an_idle_campaign_is_deleted_with_its_index_entries(
        make_service: ServiceFactory, redis_client: redis.asyncio.Redis) -> None:
    """A campaign with no game is gone after the idle limit (NOT_FOUND, not listed); one whose
    game is being played is kept."""
    service = make_service(RISK_CAMPAIGN_IDLE_S="1", **QUICK)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        idle = (await stub.CreateCampaign(_campaign_request())).campaign.campaign_id
        played = await stub.CreateCampaign(_campaign_request())
        await stub.StartCampaignGame(
            service_pb2.StartCampaignGameRequest(campaign_id=played.campaign.campaign_id),
            metadata=bearer(played.host_token))

        async def gone() -> bool:
            listed = await stub.ListCampaigns(service_pb2.ListCampaignsRequest())
            return idle not in {c.campaign_id for c in listed.campaigns}

        await _until(gone)
        error = await rpc_error(stub.GetCampaign(service_pb2.GetCampaignRequest(
            campaign_id=idle)))
        assert error.code() == grpc.StatusCode.NOT_FOUND
        assert error_info(error).reason == "CAMPAIGN_NOT_FOUND"
        await asyncio.sleep(1.5)  # past the idle limit: its game in progress keeps it
        kept = await stub.GetCampaign(service_pb2.GetCampaignRequest(
            campaign_id=played.campaign.campaign_id))
        assert len(kept.campaign.game_ids) == 1
        assert not await redis_client.exists(Keys().campaign(idle))
        assert await redis_client.zscore(Keys().campaign_expiring(), idle) is None


async def test_a_complete_campaign_is_kept_for_the_retention_then_expires(
        redis_client: redis.asyncio.Redis, redis_url: str) -> None:
    """The decision that completes a campaign schedules its expiry a retention period later,
    not an idle period; once due, the sweeper's check deletes it and its index entries."""
    keys = Keys()
    now = [1_000_000]
    limits = Limits(retention_ms=5_000_000, campaign_idle_ms=60_000)
    games = GameService(GameStore(redis_client, keys),
                        in_process_hub(redis_client, keys, redis_url),
                        clock_ms=lambda: now[0], limits=limits)
    campaigns = CampaignService(games)
    created = await campaigns.create(_campaign_request(), Caller.of(None))
    campaign_id = created.campaign.campaign_id
    assert await redis_client.zscore(keys.campaign_expiring(), campaign_id) == now[0] + 60_000
    # the campaign at its last reward decision: every game played, the winner to choose
    raw = await games.store.load_campaign(campaign_id)
    state = decode_campaign(raw[b"state"])
    board = board_of(state.world)
    last_game = rules.GameRecord(winner=0, reason="stars", turns=12, eliminated=(),
                                 resigned=(), hqs=(-1, -1, -1),
                                 owner=(0,) * len(board.scars))
    state = replace(state, games_played=15, phase=rules.CampaignPhase.REWARDS,
                    pending=(rules.PendingReward(0, rules.RewardKind.WINNER),),
                    history=(last_game,))
    assert await games.store.update_campaign(campaign_id, 0, [("state",
                                                               encode_campaign(state))])
    reward = rules.legal_rewards(state, 0)[0].action
    now[0] += 10
    done = await campaigns.decide(service_pb2.SubmitCampaignDecisionRequest(
        campaign_id=campaign_id, expected_version=1, reward=reward_to_proto(reward)),
        Caller.of(created.seat_tokens[0]))
    assert done.campaign.state.phase == legacy_pb2.LEGACY_CAMPAIGN_PHASE_COMPLETE
    due = await redis_client.zscore(keys.campaign_expiring(), campaign_id)
    assert due == now[0] + 5_000_000
    now[0] = int(due)
    assert await campaigns.expire_if_due(campaign_id)
    assert not await redis_client.exists(keys.campaign(campaign_id))
    assert await redis_client.zscore(keys.campaigns(), campaign_id) is None


async def test_a_campaign_active_since_its_index_entry_is_kept(
        redis_client: redis.asyncio.Redis, redis_url: str) -> None:
    """A campaign written after its expiry entry was set, whose entry was not moved on (the
    process died between the two writes), is due in the index but not by its own last
    activity: the sweeper's check keeps it and moves the entry on, and deletes it only an
    idle period after that activity."""
    keys = Keys()
    now = [1_000_000]
    async with in_process_service(redis_url, lambda: now[0],
                                  limits=Limits(campaign_idle_ms=60_000)) as games:
        await _kept_while_active(games, CampaignService(games), redis_client, keys, now)


async def _kept_while_active(games: GameService, campaigns: CampaignService,
                             redis_client: redis.asyncio.Redis, keys: Keys, now: list[int]
                             ) -> None:
    created = await campaigns.create(_campaign_request(), Caller.of(None))
    campaign_id = created.campaign.campaign_id
    due = await redis_client.zscore(keys.campaign_expiring(), campaign_id)
    assert due == now[0] + 60_000
    now[0] += 30_000  # a write of the campaign then, whose index update was lost
    assert await games.store.update_campaign(campaign_id, 0, [("active", str(now[0]))])
    now[0] = int(due)
    assert not await campaigns.expire_if_due(campaign_id), "deleted 30 s early"
    assert await redis_client.exists(keys.campaign(campaign_id))
    later = await redis_client.zscore(keys.campaign_expiring(), campaign_id)
    assert later == due + 30_000
    now[0] = int(later)
    assert await campaigns.expire_if_due(campaign_id)
    assert not await redis_client.exists(keys.campaign(campaign_id))
