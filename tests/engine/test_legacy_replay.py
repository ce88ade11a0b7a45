"""Legacy replay: seed plus action list rebuild the game bit for bit, secrets stay redacted.

A game rebuilt from its options, seed and actions alone (never from the recorded events) must
give every event again and a byte-identical snapshot (`wire.encode_state`) after every action,
whoever the deciding seat was (often not the active player: the scar and missile windows, the
defender's dice). Replayed events keep their redaction: a dealt scar card shows its kind to its
holder only, and a knocked-out seat's cards reach only the two seats involved, also when the
log is read back through the wire.
"""

from __future__ import annotations

import playthrough
import pytest
from legacy_states import world_for
from playthrough import Playthrough, Step, assert_same_game, diverges, first_state, through_the_wire

from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_rules.engine.legacy.model import (
    HIDDEN,
    LegacyOptions,
    PlayerKnockedOut,
    ScarCardDealt,
)

VARIANT = "legacy"
RULES = get_ruleset(VARIANT)


def play(options: LegacyOptions, seed: int) -> Playthrough:
    return playthrough.play(VARIANT, options, seed)


def replay(options: LegacyOptions, seed: int, steps: list[Step]) -> Playthrough:
    return playthrough.replay(VARIANT, options, seed, steps)


CASES = [
    pytest.param(LegacyOptions(players=3), 11, id="3p-fresh"),
    pytest.param(LegacyOptions(players=4, world=world_for("veteran", 4)), 24, id="4p-veteran"),
    pytest.param(LegacyOptions(players=5, world=world_for("crowded", 5)), 2**64 - 1,
                 id="5p-crowded-max-seed"),
    pytest.param(LegacyOptions(players=4, max_turns=9, auto_defend_max_dice=True), 0,
                 id="4p-turn-cap"),
]


@pytest.mark.parametrize(("options", "seed"), CASES)
def test_replay_from_seed_and_actions_is_identical(options: LegacyOptions, seed: int) -> None:
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
    original = play(LegacyOptions(players=4, world=world_for("veteran", 4)), 33)
    first = first_state(original)
    assert_same_game(original, replay(first.options, first.seed,
                                      through_the_wire(VARIANT, original.steps)))


def test_different_seed_gives_a_different_game() -> None:
    """Another seed changes the game, and the old action log does not fit it."""
    options = LegacyOptions(players=4)
    a, b = play(options, 101), play(options, 102)
    assert a.events != b.events
    assert diverges(a, 102)


def test_hidden_ids_stay_hidden_in_a_replayed_log() -> None:
    """Read back through the wire, a scar deal shows its kind to its holder only, and a
    knock-out's cards reach only the two seats involved."""
    for seed in range(40, 80):
        original = play(LegacyOptions(players=4), seed)
        if any(isinstance(e, PlayerKnockedOut) and e.cards_taken
               for events in original.events for e in events):
            break
    else:
        pytest.fail("no game in the seed range knocks out a seat holding cards")
    rebuilt = replay(original.options, seed, original.steps)
    for events in rebuilt.events:
        for event in events:
            if not isinstance(event, ScarCardDealt | PlayerKnockedOut):
                continue
            for viewer in (*range(4), None):
                shown = event.for_viewer(viewer)
                assert shown is not None
                decoded = wire.decode_event(wire.encode_event(VARIANT, shown, 1, 1)).event
                if isinstance(event, ScarCardDealt):
                    assert isinstance(decoded, ScarCardDealt)
                    assert decoded.scar == (event.scar if viewer == event.seat else HIDDEN)
                else:
                    assert isinstance(decoded, PlayerKnockedOut)
                    entitled = viewer in (event.seat, event.by)
                    want = event.cards_taken if entitled else (HIDDEN,) * len(event.cards_taken)
                    assert decoded.cards_taken == want
