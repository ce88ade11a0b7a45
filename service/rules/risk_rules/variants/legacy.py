"""Risk Legacy, described once (see `descriptor.VariantDescriptor`), with its campaign hooks:
the campaign's stored state as protobuf bytes, and what a finished game writes into it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from risk_proto.risk.v1 import common_pb2, legacy_pb2
from risk_rules.codec import from_message, snake, to_message
from risk_rules.engine import get_ruleset
from risk_rules.engine.legacy import campaign as rules
from risk_rules.engine.legacy.model import LegacyOptions
from risk_rules.engine.legacy.world import (
    City,
    CitySize,
    ContinentName,
    Faction,
    FactionChoice,
    Fortification,
    Power,
    Scar,
    ScarMark,
    World,
)
from risk_rules.variants.descriptor import (
    CampaignHooks,
    Defaults,
    Golden,
    LeakProbe,
    Messages,
    VariantDescriptor,
)


def encode_campaign(state: rules.CampaignState) -> bytes:
    message = to_message(state, legacy_pb2.CampaignState())
    return message.SerializeToString(deterministic=True)


def decode_campaign(data: bytes) -> rules.CampaignState:
    state: rules.CampaignState = from_message(
        legacy_pb2.CampaignState.FromString(data), rules.CampaignState)
    return state


def _campaign_of(state: Any) -> str:
    campaign_id: str = state.options.campaign_id
    return campaign_id


def _record_game(raw: Mapping[bytes, bytes], final_state: Any) -> list[tuple[str, bytes]]:
    state = rules.record_game(decode_campaign(raw[b"state"]), final_state)
    version = int(raw.get(b"version", b"0")) + 1
    return [("state", encode_campaign(state)), ("version", str(version).encode())]


# 4 players in a world shaped by earlier games (cities, scars, fortifications, a named
# continent, bonus marks, upgraded cards, signatures and so missiles): scar cards played, a
# missile fired, a fortification worn, a Red Star bought, a seat knocked off the board that
# joins the war again, a card choice and a maneuver; won by Red Stars in 298 actions.
_GOLDEN_OPTIONS = LegacyOptions(
    players=4,
    max_turns=200,
    campaign_id="",
    auto_defend_max_dice=False,
    world=World(
        factions=(
            FactionChoice(Faction.DIE_MECHANIKER, Power.STEADFAST_SIXES),
            FactionChoice(Faction.ENCLAVE_OF_THE_BEAR, Power.NATURAL_TRIPLE),
            FactionChoice(Faction.IMPERIAL_BALKANIA, Power.EXPANSION_CARD),
            FactionChoice(Faction.KHAN_INDUSTRIES, Power.HQ_TROOPS),
        ),
        scars=(ScarMark(10, Scar.BUNKER), ScarMark(33, Scar.AMMO_SHORTAGE)),
        cities=(
            City(2, CitySize.MINOR, "Nuuk", 1), City(15, CitySize.MAJOR, "Londinium", 0),
            City(22, CitySize.MINOR, "Kilima", 3), City(34, CitySize.MAJOR, "Jade Gate", 2),
            City(40, CitySize.MINOR, "Perth", 1),
        ),
        fortifications=(Fortification(15, 10), Fortification(34, 6)),
        continent_names=(ContinentName(5, "Oceania Prime", 1),),
        bonus_marks=(0, 0, 1, 0, -1, 0),
        card_values=tuple((1, 2, 1, 3, 1, 1, 2)[t % 7] for t in range(42)),
        signatures=(1, 0, 2, 0),
        scar_cards_used=(1, 1),
    ),
)

DESCRIPTOR = VariantDescriptor(
    rules=get_ruleset("legacy"),
    messages=Messages.named(legacy_pb2, "Legacy"),
    number=common_pb2.VARIANT_LEGACY,
    case="legacy",
    defaults=Defaults(
        phases=("setup_hq", "scar", "start", "recruit", "attack", "defend", "move_in",
                "maneuver", "draw"),
        # the first game of a campaign (the unplayed world: no missiles yet, one scar card
        # each), the defender choosing its dice as a client would, the 200-turn cap spelled out
        bench_options={"max_turns": 200, "auto_defend_max_dice": False},
        golden=Golden(_GOLDEN_OPTIONS, seed=24, win_reason="red_stars"),
        # a stand-alone game (no campaign): the campaign's world is public, the decks are not
        leaks=LeakProbe(
            seed=0x1E6AC7,
            hidden_hands="deck",
            seat_secrets=("scar_cards",),
            event_secrets={"ScarCardDealt": (("seat",), "scar"),
                           "PlayerKnockedOut": (("seat", "by"), "cards_taken")},
            resign_at=60,
        ),
    ),
    renderer="risk_client.boards.legacy:board_text",
    campaign=CampaignHooks(campaign_of=_campaign_of, record_game=_record_game),
    describe="risk_rules.descriptions.legacy:describe",
)


def reward_to_proto(reward: Any) -> legacy_pb2.LegacyReward:
    """A campaign reward (`risk_rules.engine.legacy.campaign`) as its wire message, for the
    service's offers and the SDK's decisions alike."""
    envelope = legacy_pb2.LegacyReward()
    to_message(reward, getattr(envelope, snake(type(reward).__name__)))
    return envelope
