"""Replay: a game rebuilt from its seed and its action list alone is the same game, bit for bit.

The service stores a game's options, seed and actions; these tests check that rebuilding from
those alone (never from the recorded events) reproduces every event and a byte-identical
snapshot after every action, for 2 to 6 players and a spread of options, and that the seed
really matters: another seed gives another game.
"""

from __future__ import annotations

import dataclasses

import playthrough
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playthrough import Playthrough, Step, assert_same_game, diverges, first_state, through_the_wire

from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_rules.engine.classic.model import (
    ClassicOptions,
    FortifyMode,
    SetupMode,
    TradeSchedule,
)

VARIANT = "classic"
RULES = get_ruleset(VARIANT)


def play(options: ClassicOptions, seed: int, max_actions: int = 100_000) -> Playthrough:
    return playthrough.play(VARIANT, options, seed, max_steps=max_actions)


def replay(options: ClassicOptions, seed: int, steps: list[Step]) -> Playthrough:
    return playthrough.replay(VARIANT, options, seed, steps)


CASES = [
    pytest.param(ClassicOptions(players=2), 11, id="2p-manual-setup"),
    pytest.param(ClassicOptions(players=2, auto_place=True, auto_defend_max_dice=True,
                                fortify=FortifyMode.ADJACENT), 12, id="2p-auto-place"),
    pytest.param(ClassicOptions(players=3, setup=SetupMode.RANDOM_DEAL, auto_place=True,
                                trade_schedule=TradeSchedule.HASBRO_1993), 13, id="3p-deal"),
    pytest.param(ClassicOptions(players=4), 16, id="4p-claim"),
    pytest.param(ClassicOptions(players=4, auto_defend_max_dice=True), 2**64 - 1, id="4p-max-seed"),
    pytest.param(ClassicOptions(players=5, setup=SetupMode.RANDOM_DEAL,
                                trade_schedule=TradeSchedule.FIXED), 15, id="5p-fixed-trades"),
    pytest.param(ClassicOptions(players=6, cards=False, auto_defend_max_dice=True,
                                max_turns=60), 0, id="6p-no-cards-turn-cap"),
]


@pytest.mark.parametrize(("options", "seed"), CASES)
def test_replay_from_seed_and_actions_is_identical(options: ClassicOptions, seed: int) -> None:
    """Seed plus action list rebuild every event and byte-identical snapshots after each action."""
    original = play(options, seed)
    assert RULES.outcome(wire.decode_state(original.snapshots[-1])[2]) is not None
    assert_same_game(original, replay(options, seed, original.steps))


def test_replay_from_stored_bytes_is_identical() -> None:
    """A log kept as bytes (first snapshot plus serialised actions) replays to the same game."""
    original = play(ClassicOptions(players=4, setup=SetupMode.RANDOM_DEAL), 17)
    first = first_state(original)
    assert_same_game(original, replay(first.options, first.seed,
                                      through_the_wire(VARIANT, original.steps)))


def test_replaying_twice_gives_the_same_final_bytes() -> None:
    """Two independent rebuilds of one log agree with each other, not just with the original."""
    original = play(ClassicOptions(players=3), 31, max_actions=600)
    first = replay(original.options, original.seed, original.steps)
    second = replay(original.options, original.seed, original.steps)
    assert first.snapshots[-1] == second.snapshots[-1] == original.snapshots[-1]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_different_seed_gives_different_playthrough(players: int) -> None:
    """Another seed changes the game: its events differ, and the old action log diverges on it."""
    options = ClassicOptions(players=players, max_turns=40)
    a, b = play(options, 101), play(options, 102)
    assert a.events != b.events
    assert a.snapshots[-1] != b.snapshots[-1]
    assert diverges(a, 102)


def test_same_seed_different_options_differ() -> None:
    """The options are part of what a replay needs: the same seed with other options differs."""
    base = ClassicOptions(players=4, max_turns=30)
    other = dataclasses.replace(base, setup=SetupMode.RANDOM_DEAL, auto_place=True)
    assert play(base, 5).events != play(other, 5).events


ANY_OPTIONS = st.builds(
    ClassicOptions,
    players=st.integers(min_value=2, max_value=6),
    setup=st.sampled_from(SetupMode),
    auto_place=st.booleans(),
    trade_schedule=st.sampled_from(TradeSchedule),
    fortify=st.sampled_from(FortifyMode),
    auto_defend_max_dice=st.booleans(),
    cards=st.booleans(),
    max_turns=st.just(25),  # short games: many option mixes in little time
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=ANY_OPTIONS, seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_replay_holds_for_any_seed_and_options(options: ClassicOptions, seed: int) -> None:
    """For arbitrary seeds and options, a replay of a (shortened) bot game is byte-identical."""
    original = play(options, seed, max_actions=1500)
    assert_same_game(original, replay(options, seed, original.steps))
