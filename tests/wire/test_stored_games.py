"""Stored games outlive upgrades: a snapshot written by an earlier release loads and plays on.

`tests/fixtures/classic_snapshot_v0.1.0.bin` was written by release 0.1.0 (snapshot schema 1,
classic rules version 1) in the middle of a 4-player game. It is never rewritten: when the
snapshot schema or the rules change, this test keeps old games playable.
"""

from __future__ import annotations

from pathlib import Path

from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_rules.engine.classic.model import ClassicState, Phase

SNAPSHOT = Path(__file__).parent.parent / "fixtures" / "classic_snapshot_v0.1.0.bin"


def test_release_0_1_0_snapshot_loads_and_plays_to_the_end() -> None:
    """The checked-in mid-game snapshot decodes, keeps its rules version, and plays on."""
    variant, rules_version, state = wire.decode_state(SNAPSHOT.read_bytes())
    assert variant == "classic" and rules_version == 1
    assert isinstance(state, ClassicState) and state.turn == 12
    rules = get_ruleset(variant)
    steps = 0
    while rules.outcome(state) is None and steps < 20_000:
        (seat,) = rules.decision(state).seats
        state, _ = rules.apply(state, seat, rules.bot_action(state, seat, steps))
        steps += 1
    assert state.phase is Phase.FINISHED, "the old game reached an outcome"


def test_snapshot_bytes_are_stable() -> None:
    """Re-encoding the old snapshot gives the same bytes: the schema did not drift silently."""
    data = SNAPSHOT.read_bytes()
    variant, _rules_version, state = wire.decode_state(data)
    assert wire.encode_state(variant, state) == data
