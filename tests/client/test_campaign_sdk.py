"""`RiskClient`'s campaign calls against a real service process on a real redis-server: the
typed results a program reads, the bot campaign runner, and the service's refusals surfacing
as the SDK's typed errors with their reasons."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from risk_client import (
    IllegalMove,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    RiskClient,
    StaleVersion,
    Unauthenticated,
)
from risk_client.campaigns import CampaignProgress, default_factions, play_campaign
from risk_client.results import CampaignDecisionTaken, CreatedCampaign, snapshot
from risk_proto.risk.v1 import legacy_pb2, service_pb2
from risk_rules.engine.classic.model import ClassicView
from risk_rules.engine.legacy.model import LegacyView
from risk_testing.harness import ServiceProcess
from tests.client.serving import finished_events, module_service

service = module_service("campaign-sdk")


@pytest.fixture
async def client(service: ServiceProcess) -> AsyncIterator[RiskClient]:
    async with RiskClient(service.target) as c:
        yield c


async def _won_by_resignations(client: RiskClient) -> tuple[CreatedCampaign, str]:
    """A campaign whose first game seat 2 won when seats 0 and 1 resigned at once."""
    created = await client.create_campaign(default_factions(3), ["ann", "bob", "cy"])
    host = client.with_token(created.host_token)
    game = (await host.start_campaign_game(created.campaign.campaign_id, seed=1)).game
    for seat in (0, 1):
        await client.with_token(created.seat_tokens[seat]).resign(game.game_id)
    return created, game.game_id


async def test_campaign_errors_are_typed_with_reasons(client: RiskClient) -> None:
    """Unknown and malformed ids, bad factions, wrong tokens, a seat starting a game, a start
    while rewards are pending, another seat's decision and a stale version: each is the
    SDK's error class for its status, with the service's reason."""
    with pytest.raises(NotFound) as unknown:
        await client.get_campaign("0" * 22)
    assert unknown.value.reason == "CAMPAIGN_NOT_FOUND"
    with pytest.raises(InvalidArgument):
        await client.get_campaign("not a campaign!")
    with pytest.raises(InvalidArgument):
        await client.create_campaign([(1, 1), (1, 2), (2, 3)])  # a faction twice

    created, game_id = await _won_by_resignations(client)
    campaign_id = created.campaign.campaign_id
    other = await client.create_campaign(default_factions(3))
    with pytest.raises(Unauthenticated) as foreign:
        await client.with_token(other.seat_tokens[0]).get_campaign(campaign_id)
    assert foreign.value.reason == "BAD_CREDENTIALS"
    with pytest.raises(Unauthenticated):
        await client.with_token(other.host_token).start_campaign_game(campaign_id)
    with pytest.raises(PermissionDenied) as seat_start:
        await client.with_token(created.seat_tokens[2]).start_campaign_game(campaign_id)
    assert seat_start.value.reason == "NOT_HOST"
    with pytest.raises(IllegalMove) as not_ready:
        await client.with_token(created.host_token).start_campaign_game(campaign_id)
    assert not_ready.value.reason == "CAMPAIGN_NOT_READY"

    winner = client.with_token(created.seat_tokens[2])
    mine = await winner.get_campaign(campaign_id)
    assert mine.viewer_seat == 2 and mine.legal_rewards
    assert mine.campaign.next_decision is not None
    assert (mine.campaign.next_decision.seat, mine.campaign.next_decision.kind) == (2, "winner")
    loser = client.with_token(created.seat_tokens[0])
    assert (await loser.get_campaign(campaign_id)).legal_rewards == ()
    with pytest.raises(IllegalMove) as not_yours:
        await loser.submit_campaign_decision(
            campaign_id, mine.legal_rewards[0], mine.campaign.version)
    assert not_yours.value.reason == "NOT_YOUR_TURN"
    version = mine.campaign.version
    with pytest.raises(StaleVersion) as stale:
        await winner.submit_campaign_decision(campaign_id, mine.legal_rewards[0], version + 1)
    assert stale.value.reason == "STALE_VERSION"
    assert stale.value.current_version == version

    taken = await winner.submit_campaign_decision(campaign_id, mine.legal_rewards[0], version)
    assert taken.campaign.version == version + 1 and not taken.recovered
    assert taken.events[0].WhichOneof("kind") == "continent_named"
    with pytest.raises(StaleVersion):  # the same decision again never lands twice
        await winner.submit_campaign_decision(campaign_id, mine.legal_rewards[0], version)
    after = (await client.get_campaign(campaign_id)).campaign
    assert after.version == version + 1 and len(after.message.state.world.continent_names) == 1
    assert after.history[0].game_id == game_id and after.history[0].winner == 2


async def test_bot_campaign_typed_results(client: RiskClient) -> None:
    """`play_campaign` plays two games and their rewards; the typed results agree with the
    games themselves: outcomes, standings, decoded Legacy boards and events."""
    created = await client.create_campaign(default_factions(4), ["a", "b", "c", "d"])
    assert created.campaign.phase == "ready" and len(created.seat_tokens) == 4
    started: list[str] = []
    decisions: list[int] = []

    async def on_start(game: service_pb2.GameSummary) -> None:
        started.append(game.game_id)

    async def on_decision(seat: int, reward: legacy_pb2.LegacyReward,
                          taken: CampaignDecisionTaken) -> None:
        assert taken.campaign.version > 0 and reward.WhichOneof("kind")
        decisions.append(seat)

    final = await play_campaign(
        client, created, 2, seed=20, max_turns=60, entropy=3,
        progress=CampaignProgress(on_game_started=on_start, on_decision=on_decision))
    assert final.games_played == 2 and final.phase == "ready" and final.pending == ()
    assert list(final.game_ids) == started
    assert len(decisions) >= 2
    wins = [0] * 4
    for record in final.history:
        game = snapshot(await client.get_game(record.game_id))
        assert game.variant == "legacy" and game.status == "finished" and game.is_over
        assert game.outcome is not None and game.outcome.winner == record.winner
        assert game.outcome.reason == record.reason
        board = game.view_as(LegacyView)
        assert len(board.owner) == 42 and board.viewer == -1
        with pytest.raises(TypeError):
            game.view_as(ClassicView)
        if record.winner >= 0:
            wins[record.winner] += 1
        decoded = await finished_events(client, game)
        assert [e.seq for e in decoded] == list(range(1, game.last_seq + 1))
        assert decoded[-1].kind == "game_ended"
        assert {e.variant for e in decoded} <= {"legacy", "lifecycle"}
    assert [seat.wins for seat in final.seats] == wins
    assert [s.seat for s in final.standings()] == sorted(
        range(4), key=lambda s: (-wins[s], final.seats[s].eliminations, s))

    seen = [c.campaign_id async for c in client.iter_campaigns(page_size=1)]
    assert created.campaign.campaign_id in seen and len(seen) == len(set(seen))


async def test_play_campaign_takes_up_a_half_played_game(client: RiskClient) -> None:
    """A campaign whose game the host started by hand is played on from there: the bots
    finish that game and its rewards rather than failing on GAME_IN_PROGRESS."""
    created = await client.create_campaign(default_factions(3))
    campaign_id = created.campaign.campaign_id
    started = await client.with_token(created.host_token).start_campaign_game(
        campaign_id, seed=4, max_turns=30)
    assert (await client.get_campaign(campaign_id)).campaign.running_game == started.game.game_id
    final = await play_campaign(client, created, 1)
    assert final.game_ids == (started.game.game_id,) and final.running_game is None
    assert final.games_played == 1 and final.phase == "ready"
