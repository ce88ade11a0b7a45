"""A Legacy campaign's stored record: its state as protobuf bytes, and the writes that record
a finished game in it (made inside that game's final commit, on the same hash slot)."""

from __future__ import annotations

from typing import Any

from risk_service import wire
from risk_service.engine.legacy import campaign as rules
from risk_service.pb.risk.v1 import legacy_pb2


def encode_campaign(state: rules.CampaignState) -> bytes:
    message = wire.to_message(state, legacy_pb2.CampaignState())
    return message.SerializeToString(deterministic=True)


def decode_campaign(data: bytes) -> rules.CampaignState:
    state: rules.CampaignState = wire.from_message(
        legacy_pb2.CampaignState.FromString(data), rules.CampaignState)
    return state


def campaign_result(raw: dict[bytes, bytes], final_state: Any) -> list[tuple[str, bytes]]:
    """The campaign-hash writes that record a finished campaign game (in its commit)."""
    state = rules.record_game(decode_campaign(raw[b"state"]), final_state)
    version = int(raw.get(b"version", b"0")) + 1
    return [("state", encode_campaign(state)), ("version", str(version).encode())]
