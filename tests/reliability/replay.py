"""Rebuild a game from its audit export through the engine, and compare with what Redis holds.

`replayed_state(export)` applies every logged action and resignation to the game created from
the export's options and seed; `assert_store_equals_replay` checks the export with
`risk_rules.audit.verify` (every event, the hash chain and the outcome) and that the snapshot
stored in Redis is byte for byte the replayed state's.
"""

from __future__ import annotations

from typing import Any

import redis.asyncio

from risk_proto.risk.v1 import service_pb2
from risk_rules import wire
from risk_rules.audit import verify
from risk_rules.engine import REGISTRY
from tests.stored_state import astate_now


def replayed_state(export: service_pb2.GameExport) -> Any:
    rules = REGISTRY[wire.variant_name(export.variant)]
    _variant, options = wire.options_from_proto(export.options)
    state, _events = rules.create(options, export.seed)
    for entry in export.log:
        which = entry.WhichOneof("entry")
        if which == "action":
            state, _ = rules.apply(state, entry.seat, wire.action_from_proto(entry.action)[1])
        elif which == "resign":
            state, _ = rules.resign(state, entry.seat)
    return state


def applied_actions(export: service_pb2.GameExport) -> list[tuple[int, int, bytes]]:
    """(version, seat, canonical action bytes) of every logged action, in log order."""
    out = []
    for entry in export.log:
        if entry.WhichOneof("entry") == "action":
            variant, action = wire.action_from_proto(entry.action)
            canonical = wire.action_to_proto(variant, action).SerializeToString(deterministic=True)
            out.append((entry.version, entry.seat, canonical))
    return out


def check_export(export: service_pb2.GameExport, snapshot: bytes) -> int:
    """Verify the export and that `snapshot` equals its replay; returns the actions replayed."""
    verified = verify(export)
    variant = wire.variant_name(export.variant)
    assert wire.encode_state(variant, replayed_state(export)) == snapshot, (
        f"{export.game_id}: the stored state is not the replay of its log")
    versions = [entry.version for entry in export.log]
    assert versions == sorted(versions) and len(set(versions)) == len(versions), versions
    return verified.actions


async def stored_snapshot(client: redis.asyncio.Redis, game_id: str) -> bytes:
    """The encoded state the game is at in Redis (its snapshot and the log after it)."""
    return (await astate_now(client, game_id))[1]
