"""Strike replay: seed plus action list rebuild the game bit for bit, secrets stay redacted.

A game rebuilt from its options, seed and actions alone (never from the recorded events) must
give every event again and a byte-identical snapshot (`wire.encode_state`) after every action,
whoever the deciding seat was (often not the active player: response windows). Replayed events
keep their redaction: a Spy's reveal shows the cards to the spying seat only, and a tactics draw
to the drawer only, also when the log is read back later.
"""

from __future__ import annotations

import playthrough
import pytest
from playthrough import Playthrough, Step, assert_same_game, diverges, first_state, through_the_wire

from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_rules.engine.strike.model import (
    HIDDEN,
    HandRevealed,
    StrikeOptions,
    TacticsDrawn,
)

VARIANT = "strike"
RULES = get_ruleset(VARIANT)


def play(options: StrikeOptions, seed: int) -> Playthrough:
    return playthrough.play(VARIANT, options, seed)


def replay(options: StrikeOptions, seed: int, steps: list[Step]) -> Playthrough:
    return playthrough.replay(VARIANT, options, seed, steps)


CASES = [
    pytest.param(StrikeOptions(players=2), 11, id="2p"),
    pytest.param(StrikeOptions(players=3, auto_pass=True), 12, id="3p-auto-pass"),
    pytest.param(StrikeOptions(players=4), 21, id="4p-golden-seed"),
    pytest.param(StrikeOptions(players=5), 2**64 - 1, id="5p-max-seed"),
    pytest.param(StrikeOptions(players=4, max_turns=9), 0, id="4p-turn-cap"),
]


@pytest.mark.parametrize(("options", "seed"), CASES)
def test_replay_from_seed_and_actions_is_identical(options: StrikeOptions, seed: int) -> None:
    """Seed plus actions rebuild every event and byte-identical snapshots after each action."""
    original = play(options, seed)
    assert_same_game(original, replay(options, seed, original.steps))
    out_of_turn = 0
    for (seat, _), before in zip(original.steps, original.snapshots, strict=False):
        state = wire.decode_state(before)[2]
        assert RULES.decision(state).seats == (seat,)
        out_of_turn += seat != state.current
    assert out_of_turn > 0, "no seat answered out of turn"


def test_replay_from_stored_bytes_is_identical() -> None:
    """A log kept as bytes (first snapshot plus serialised actions) replays to the same game."""
    original = play(StrikeOptions(players=4), 33)
    first = first_state(original)
    assert_same_game(original, replay(first.options, first.seed,
                                      through_the_wire(VARIANT, original.steps)))


def test_different_seed_gives_a_different_game() -> None:
    """Another seed changes the game, and the old action log does not fit it."""
    options = StrikeOptions(players=4)
    a, b = play(options, 101), play(options, 102)
    assert a.events != b.events
    assert diverges(a, 102)


def test_spy_reveal_reaches_only_the_spy_in_a_replayed_log() -> None:
    """Read back through the wire, a reveal shows the cards to the spy alone; draws likewise."""
    original = play(StrikeOptions(players=4), 21)
    rebuilt = replay(original.options, 21, original.steps)
    reveals = [e for events in rebuilt.events for e in events if isinstance(e, HandRevealed)]
    assert reveals, "the golden seed's game has a Spy reveal"
    for reveal in reveals:
        for viewer in (*range(4), None):
            shown = reveal.for_viewer(viewer)
            assert isinstance(shown, HandRevealed)
            data = wire.encode_event(VARIANT, shown, 1, 1)
            decoded = wire.decode_event(data).event
            assert isinstance(decoded, HandRevealed)
            if viewer == reveal.seat:
                assert decoded.cards == reveal.cards
            else:
                assert decoded.cards == (HIDDEN,) * len(reveal.cards)
    for events in rebuilt.events:
        for event in events:
            if isinstance(event, TacticsDrawn):
                for viewer in (*range(4), None):
                    shown = event.for_viewer(viewer)
                    assert isinstance(shown, TacticsDrawn)
                    assert (shown.cards == event.cards) == (viewer == event.seat or not event.cards)
