"""The stream alone is enough to follow a game: a check for the playthrough tests."""

from __future__ import annotations

from collections.abc import Iterable

from risk_proto.risk.v1 import game_pb2


def assert_every_version_streamed(events: Iterable[game_pb2.Event], version: int) -> None:
    """Every committed version 1..`version` carries at least one event the stream delivered."""
    seen = {event.version for event in events}
    missing = [v for v in range(1, version + 1) if v not in seen]
    assert not missing, f"committed versions the stream never showed: {missing[:10]}"
