"""Risk Legacy campaigns through the public RPCs: a bot-played campaign of two games with a
live subscriber, the reward decisions between them, and the campaign's errors."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
import pytest

from risk_service import wire
from risk_service.engine import LegalAction, get_ruleset
from risk_service.engine.legacy.model import LegacyView
from risk_service.pb.risk.v1 import legacy_pb2, service_pb2, service_pb2_grpc
from tests.service.conftest import ServiceFactory
from tests.service.rpc import bearer, error_info, rpc_error

Stub = service_pb2_grpc.RiskServiceStub
CHOICES = [(1, 1), (2, 3), (4, 7)]  # (faction, power): Mechaniker, Bear, Khan


@pytest.fixture
async def stub(make_service: ServiceFactory, redis_client: object) -> AsyncIterator[Stub]:
    service = make_service()
    async with grpc.aio.insecure_channel(service.target) as channel:
        yield Stub(channel)


async def _create(stub: Stub) -> service_pb2.CreateCampaignResponse:
    return await stub.CreateCampaign(service_pb2.CreateCampaignRequest(
        players=3, seat_names=["ann", "bob", "cy"],
        factions=[legacy_pb2.FactionChoice(faction=f, power=p) for f, p in CHOICES]))  # type: ignore[arg-type]


async def _play(stub: Stub, game_id: str, tokens: list[str], entropy: int) -> int:
    """Bots play the game through the service until it ends; returns the actions taken."""
    rules = get_ruleset("legacy")
    steps = 0
    while True:
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        if game.HasField("outcome"):
            return steps
        seat = game.decision.seats[0]
        auth = bearer(tokens[seat])
        board = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                    metadata=auth)).board
        legal = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(
            game_id=game_id), metadata=auth)
        view = wire.from_message(board.legacy, LegacyView)
        choices = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
                   for e in legal.actions]
        action = rules.bot_choose(view, choices, entropy + steps)
        await stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game_id, action=wire.action_to_proto("legacy", action),
            expected_version=legal.version), metadata=auth)
        steps += 1
        assert steps < 5000, "the bots did not finish the game"


async def _take_rewards(stub: Stub, campaign_id: str, tokens: list[str]) -> int:
    """Every pending reward decision, each seat taking its first offered reward."""
    taken = 0
    while True:
        summary = (await stub.GetCampaign(service_pb2.GetCampaignRequest(
            campaign_id=campaign_id))).campaign
        if not summary.decision.seats:
            return taken
        seat = summary.decision.seats[0]
        mine = await stub.GetCampaign(service_pb2.GetCampaignRequest(campaign_id=campaign_id),
                                      metadata=bearer(tokens[seat]))
        assert mine.viewer_seat == seat and mine.legal_rewards
        await stub.SubmitCampaignDecision(service_pb2.SubmitCampaignDecisionRequest(
            campaign_id=campaign_id, reward=mine.legal_rewards[0],
            expected_version=mine.campaign.version), metadata=bearer(tokens[seat]))
        taken += 1


async def test_bot_campaign_of_two_games_with_a_live_subscriber(stub: Stub) -> None:
    """Two campaign games played by bots; rewards between them change the world the second
    game starts from; a spectator streams the second game live to its end."""
    created = await _create(stub)
    campaign_id, host = created.campaign.campaign_id, created.host_token
    tokens = list(created.seat_tokens)
    first = await stub.StartCampaignGame(service_pb2.StartCampaignGameRequest(
        campaign_id=campaign_id, seed=11, max_turns=40), metadata=bearer(host))
    assert first.game.game_id == f"{campaign_id}.1"
    assert first.game.status == service_pb2.GAME_STATUS_ACTIVE
    busy = await rpc_error(stub.StartCampaignGame(service_pb2.StartCampaignGameRequest(
        campaign_id=campaign_id), metadata=bearer(host)))
    assert error_info(busy).reason == "GAME_IN_PROGRESS"
    await _play(stub, first.game.game_id, tokens, 1)
    after_one = (await stub.GetCampaign(service_pb2.GetCampaignRequest(
        campaign_id=campaign_id))).campaign
    assert after_one.state.games_played == 1 and len(after_one.state.history) == 1
    world_before = after_one.state.world.SerializeToString(deterministic=True)
    rewards = await _take_rewards(stub, campaign_id, tokens)

    second = await stub.StartCampaignGame(service_pb2.StartCampaignGameRequest(
        campaign_id=campaign_id, seed=12, max_turns=40), metadata=bearer(host))
    game_id = second.game.game_id
    assert game_id == f"{campaign_id}.2"
    if rewards:
        state = (await stub.GetCampaign(service_pb2.GetCampaignRequest(
            campaign_id=campaign_id))).campaign.state
        assert state.world.SerializeToString(deterministic=True) != world_before
    spectator = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id))
    seen: list[int] = []
    ended = asyncio.Event()

    async def watch() -> None:
        async for message in spectator:
            seen.append(message.event.seq)
            if message.event.legacy.WhichOneof("kind") == "game_ended":
                ended.set()

    watcher = asyncio.create_task(watch())
    await _play(stub, game_id, tokens, 2)
    await asyncio.wait_for(ended.wait(), 10)
    watcher.cancel()
    last = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.last_seq
    assert seen == list(range(1, last + 1)), "the subscriber saw every event once, in order"
    await _take_rewards(stub, campaign_id, tokens)
    final = (await stub.GetCampaign(service_pb2.GetCampaignRequest(
        campaign_id=campaign_id))).campaign
    assert final.state.games_played == 2 and list(final.game_ids) == [
        f"{campaign_id}.1", f"{campaign_id}.2"]
    listed = await stub.ListCampaigns(service_pb2.ListCampaignsRequest())
    assert campaign_id in [c.campaign_id for c in listed.campaigns]


async def test_campaign_errors(stub: Stub) -> None:
    """Bad factions, unknown campaigns, seats starting games and wrong versions are refused."""
    bad = await rpc_error(stub.CreateCampaign(service_pb2.CreateCampaignRequest(
        players=3, factions=[legacy_pb2.FactionChoice(faction=1, power=3)] * 3)))  # type: ignore[arg-type]
    assert bad.code() == grpc.StatusCode.INVALID_ARGUMENT
    missing = await rpc_error(stub.GetCampaign(service_pb2.GetCampaignRequest(
        campaign_id="0" * 22)))
    assert missing.code() == grpc.StatusCode.NOT_FOUND
    created = await _create(stub)
    campaign_id = created.campaign.campaign_id
    seat_start = await rpc_error(stub.StartCampaignGame(service_pb2.StartCampaignGameRequest(
        campaign_id=campaign_id), metadata=bearer(created.seat_tokens[0])))
    assert seat_start.code() == grpc.StatusCode.PERMISSION_DENIED
    no_reward = await rpc_error(stub.SubmitCampaignDecision(
        service_pb2.SubmitCampaignDecisionRequest(
            campaign_id=campaign_id, expected_version=0,
            reward=legacy_pb2.LegacyReward(decline_reward={})),
        metadata=bearer(created.seat_tokens[0])))
    assert no_reward.code() == grpc.StatusCode.FAILED_PRECONDITION
