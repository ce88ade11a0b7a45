"""Strike replay: seed plus action list rebuild the game bit for bit, secrets stay redacted.

A game rebuilt from its options, seed and actions alone (never from the recorded events) must
give every event again and a byte-identical snapshot (`wire.encode_state`) after every action,
whoever the deciding seat was (often not the active player: response windows). Replayed events
keep their redaction: a Spy's reveal shows the cards to the spying seat only, and a tactics draw
to the drawer only, also when the log is read back later.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from risk_proto.risk.v1 import game_pb2
from risk_rules import wire
from risk_rules.engine import Action, Event, IllegalAction, get_ruleset
from risk_rules.engine.strike.model import (
    HIDDEN,
    HandRevealed,
    StrikeOptions,
    TacticsDrawn,
)

VARIANT = "strike"
RULES = get_ruleset(VARIANT)


@dataclass
class Playthrough:
    options: StrikeOptions
    seed: int
    actions: list[tuple[int, Action]]  # (seat, action)
    events: list[list[Event]]  # the creation events first, then one list per action
    snapshots: list[bytes]


def play(options: StrikeOptions, seed: int) -> Playthrough:
    state, events = RULES.create(options, seed)
    record = Playthrough(options, seed, [], [events], [wire.encode_state(VARIANT, state)])
    while RULES.outcome(state) is None:
        (seat,) = RULES.decision(state).seats
        action = RULES.bot_action(state, seat, seed * 100_003 + len(record.actions))
        state, events = RULES.apply(state, seat, action)
        record.actions.append((seat, action))
        record.events.append(events)
        record.snapshots.append(wire.encode_state(VARIANT, state))
    return record


def replay(options: StrikeOptions, seed: int, actions: list[Action]) -> Playthrough:
    """Rebuild from seed and actions only; the deciding seat is asked of the engine each step."""
    state, events = RULES.create(options, seed)
    record = Playthrough(options, seed, [], [events], [wire.encode_state(VARIANT, state)])
    for action in actions:
        seats = RULES.decision(state).seats
        seat = seats[0] if seats else 0
        state, events = RULES.apply(state, seat, action)
        record.actions.append((seat, action))
        record.events.append(events)
        record.snapshots.append(wire.encode_state(VARIANT, state))
    return record


def _assert_same(original: Playthrough, rebuilt: Playthrough) -> None:
    assert rebuilt.actions == original.actions, "the deciding seats differ"
    for step, (want, got) in enumerate(zip(original.events, rebuilt.events, strict=True)):
        assert got == want, f"events differ at step {step} (0 is creation)"
    for step, (want_bytes, got_bytes) in enumerate(
        zip(original.snapshots, rebuilt.snapshots, strict=True)
    ):
        assert got_bytes == want_bytes, f"snapshot bytes differ at step {step}"


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
    rebuilt = replay(options, seed, [action for _, action in original.actions])
    _assert_same(original, rebuilt)
    out_of_turn = 0
    for (seat, _), before in zip(original.actions, original.snapshots, strict=False):
        state = wire.decode_state(before)[2]
        assert RULES.decision(state).seats == (seat,)
        out_of_turn += seat != state.current
    assert out_of_turn > 0, "no seat answered out of turn"


def test_replay_from_stored_bytes_is_identical() -> None:
    """A log kept as bytes (first snapshot plus serialised actions) replays to the same game."""
    original = play(StrikeOptions(players=4), 33)
    _, _, first = wire.decode_state(original.snapshots[0])
    actions = []
    for _, action in original.actions:
        message = game_pb2.Action()
        message.ParseFromString(wire.action_to_proto(VARIANT, action).SerializeToString())
        actions.append(wire.action_from_proto(message)[1])
    _assert_same(original, replay(first.options, first.seed, actions))


def test_different_seed_gives_a_different_game() -> None:
    """Another seed changes the game, and the old action log does not fit it."""
    options = StrikeOptions(players=4)
    a, b = play(options, 101), play(options, 102)
    assert a.events != b.events
    try:
        rebuilt = replay(options, 102, [action for _, action in a.actions])
    except IllegalAction:
        return
    assert rebuilt.events != a.events


def test_spy_reveal_reaches_only_the_spy_in_a_replayed_log() -> None:
    """Read back through the wire, a reveal shows the cards to the spy alone; draws likewise."""
    original = play(StrikeOptions(players=4), 21)
    rebuilt = replay(original.options, 21, [action for _, action in original.actions])
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
