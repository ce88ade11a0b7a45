"""The Legacy campaign values on the wire: `CampaignState`, the reward actions and the campaign
events match their risk.v1 messages field for field and survive a trip through bytes.

The service keeps a campaign as a serialised `CampaignState` and speaks rewards and campaign
events as `LegacyReward` / `LegacyCampaignEvent`, all through the generic codec (`wire.to_message`
/ `wire.from_message`), so a field that drifts between engine and contract must fail here.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest
from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message

from risk_proto.risk.v1 import legacy_pb2
from risk_rules import wire
from risk_rules.engine import Event, get_ruleset
from risk_rules.engine.legacy import campaign as camp
from risk_rules.engine.legacy.world import World

RULES = get_ruleset("legacy")


def _campaign_after(games: int) -> tuple[camp.CampaignState, list[Event]]:
    """A 4-player campaign after `games` bot games and bot rewards, and the reward events."""
    campaign = camp.new_campaign(4, (2, 3, 4, 5), (4, 6, 8, 10))
    events: list[Event] = []
    for game in range(games):
        state, _ = RULES.create(camp.options_for_next_game(campaign), 40 + game)
        step = 0
        while RULES.outcome(state) is None:
            (seat,) = RULES.decision(state).seats
            state, _ = RULES.apply(state, seat, RULES.bot_action(state, seat, step))
            step += 1
        campaign = camp.record_game(campaign, state)
        while campaign.phase is camp.CampaignPhase.REWARDS:
            (seat,) = camp.campaign_decision(campaign).seats
            reward = camp.campaign_bot_reward(campaign, seat, step)
            campaign, produced = camp.apply_reward(campaign, seat, reward)
            events.extend(produced)
    return campaign, events


def _round_trip(value: Any, message: Message) -> Any:
    data = wire.to_message(value, message).SerializeToString(deterministic=True)
    fresh = type(message)()
    fresh.ParseFromString(data)
    return wire.from_message(fresh, type(value))


def _same_fields(cls: type[Any], descriptor: Descriptor) -> None:
    names = [f.name for f in dataclasses.fields(cls)]
    assert sorted(names) == sorted(descriptor.fields_by_name), cls.__name__
    hints = typing.get_type_hints(cls)
    for name in names:
        repeated = typing.get_origin(hints[name]) is tuple
        assert repeated == descriptor.fields_by_name[name].is_repeated, f"{cls.__name__}.{name}"


def test_campaign_messages_match_the_dataclasses() -> None:
    """CampaignState and its records, every reward and every campaign event, field for field."""
    for cls in (camp.CampaignState, camp.GameRecord, camp.PendingReward, World):
        _same_fields(cls, getattr(legacy_pb2, cls.__name__).DESCRIPTOR)
    rewards = legacy_pb2.LegacyReward.DESCRIPTOR
    assert {f.name for f in rewards.oneofs_by_name["kind"].fields} == {
        wire.snake(cls.__name__) for cls in camp.REWARD_TYPES
    }
    for cls in camp.REWARD_TYPES:
        _same_fields(cls, rewards.fields_by_name[wire.snake(cls.__name__)].message_type)
    events = legacy_pb2.LegacyCampaignEvent.DESCRIPTOR
    assert {f.name for f in events.oneofs_by_name["kind"].fields} == {
        wire.snake(cls.__name__) for cls in camp.CAMPAIGN_EVENT_TYPES
    }
    for cls in camp.CAMPAIGN_EVENT_TYPES:
        _same_fields(cls, events.fields_by_name[wire.snake(cls.__name__)].message_type)


@pytest.mark.parametrize("games", [0, 1, 3])
def test_campaign_state_round_trips_bit_identical(games: int) -> None:
    """A campaign (fresh, after one game, after three) decodes equal and re-encodes the same."""
    campaign, _ = _campaign_after(games)
    decoded = _round_trip(campaign, legacy_pb2.CampaignState())
    assert decoded == campaign
    first = wire.to_message(campaign, legacy_pb2.CampaignState()).SerializeToString(
        deterministic=True)
    again = wire.to_message(decoded, legacy_pb2.CampaignState()).SerializeToString(
        deterministic=True)
    assert first == again
    assert camp.campaign_decision(decoded) == camp.campaign_decision(campaign)


def test_rewards_and_campaign_events_round_trip() -> None:
    """Every reward type (with numbers and a name) and every event the rewards produced."""
    _, events = _campaign_after(3)
    assert {type(e) for e in events} >= {camp.CityFounded, camp.RewardsDone}
    for event in events:
        envelope = legacy_pb2.LegacyCampaignEvent()
        sub = getattr(envelope, wire.snake(type(event).__name__))
        assert _round_trip(event, sub) == event
    for cls in camp.REWARD_TYPES:
        hints = typing.get_type_hints(cls)
        reward = cls(**{name: "Named Land" if hint is str else -1
                        for name, hint in hints.items()})
        envelope = legacy_pb2.LegacyReward()
        sub = getattr(envelope, wire.snake(cls.__name__))
        assert _round_trip(reward, sub) == reward
