"""Deep Space replay: a game rebuilt from its seed and its action list alone is the same game,
bit for bit, and the checked-in golden playthrough still replays exactly.

The service stores a game's options, seed and actions; rebuilding from those alone (never from
the recorded events) must reproduce every event and a byte-identical snapshot
(`wire.encode_state`) after every action, for 2 to 4 players, with resignations and random
movers among the bots. The golden file is only read here: `scripts/golden.py` writes it.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import playthrough
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playthrough import Playthrough, Step, assert_same_game, diverges, first_state, through_the_wire

from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_rules.engine.deep_space.model import DeepSpaceOptions

VARIANT = "deep_space"
RULES = get_ruleset(VARIANT)
ROOT = Path(__file__).resolve().parents[2]
GOLDEN_FILE = ROOT / "tests" / "golden" / "deep_space_3p_seed105.jsonl"


def _load_golden_script() -> ModuleType:
    """scripts/golden.py as a module, for its JSON codec (the script is not a package)."""
    spec = importlib.util.spec_from_file_location("golden_script", ROOT / "scripts" / "golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GOLDEN = _load_golden_script()


def play(options: DeepSpaceOptions, seed: int, *, resign_at: int = -1) -> Playthrough:
    return playthrough.play(VARIANT, options, seed, resign_at=resign_at, max_steps=20_000)


def replay(options: DeepSpaceOptions, seed: int, steps: list[Step]) -> Playthrough:
    return playthrough.replay(VARIANT, options, seed, steps)


CASES = [
    pytest.param(DeepSpaceOptions(players=2), 11, -1, id="2p"),
    pytest.param(DeepSpaceOptions(players=3), 12, -1, id="3p"),
    pytest.param(DeepSpaceOptions(players=4), 13, -1, id="4p"),
    pytest.param(DeepSpaceOptions(players=4), 2**64 - 1, 30, id="4p-max-seed-resignation"),
    pytest.param(DeepSpaceOptions(players=3, max_turns=9), 0, -1, id="3p-turn-cap"),
]


@pytest.mark.parametrize(("options", "seed", "resign_at"), CASES)
def test_replay_from_seed_and_actions_is_identical(
    options: DeepSpaceOptions, seed: int, resign_at: int
) -> None:
    """Seed plus action list rebuild every event and byte-identical snapshots after each step."""
    original = play(options, seed, resign_at=resign_at)
    assert RULES.outcome(wire.decode_state(original.snapshots[-1])[2]) is not None
    assert_same_game(original, replay(options, seed, original.steps))


def test_replay_from_stored_bytes_is_identical() -> None:
    """A log kept as bytes (first snapshot plus serialised actions) replays to the same game."""
    original = play(DeepSpaceOptions(players=4), 17)
    first = first_state(original)
    assert_same_game(original, replay(first.options, first.seed,
                                      through_the_wire(VARIANT, original.steps)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_different_seed_gives_different_playthrough(players: int) -> None:
    """Another seed changes the game: its events differ, and the old action log diverges on it."""
    options = DeepSpaceOptions(players=players, max_turns=40)
    a, b = play(options, 101), play(options, 102)
    assert a.events != b.events and a.snapshots[-1] != b.snapshots[-1]
    assert diverges(a, 102)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=st.builds(DeepSpaceOptions, players=st.integers(2, 4),
                      max_turns=st.sampled_from([3, 20, 200])),
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    resign_at=st.sampled_from([-1, -1, 5, 50]),
)
def test_replay_holds_for_any_seed_and_options(
    options: DeepSpaceOptions, seed: int, resign_at: int
) -> None:
    """For arbitrary seeds and options, a replay of a bot game is byte-identical."""
    original = play(options, seed, resign_at=resign_at)
    assert_same_game(original, replay(options, seed, original.steps))


# ---- the golden playthrough ------------------------------------------------------------------


def _lines() -> list[dict[str, Any]]:
    return [json.loads(text) for text in GOLDEN_FILE.read_text().splitlines()]


def test_golden_playthrough_replays_line_by_line() -> None:
    """tests/golden/deep_space_3p_seed105.jsonl: same events and state hash on every line."""
    lines = _lines()
    header, steps, last = lines[0], lines[1:-1], lines[-1]
    assert header["variant"] == VARIANT and header["rules_version"] == RULES.rules_version
    options = GOLDEN.from_json(header["options"], DeepSpaceOptions)
    state, events = RULES.create(options, header["seed"])
    assert GOLDEN.events_json(events) == header["events"]
    assert GOLDEN.state_sha256(VARIANT, state) == header["state_sha256"]
    for number, step in enumerate(steps, start=2):
        action = GOLDEN.from_json_by_type(step["action"], RULES.action_types)
        assert RULES.bot_action(state, step["seat"], number - 2) == action, f"line {number}"
        state, events = RULES.apply(state, step["seat"], action)
        got = json.loads(json.dumps(GOLDEN.events_json(events)))
        assert got == step["events"], f"line {number}: events differ"
        assert GOLDEN.state_sha256(VARIANT, state) == step["state_sha256"], f"line {number}"
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.reason == "bases"
    assert json.loads(json.dumps(GOLDEN.fields_to_json(outcome))) == last["outcome"]


def test_golden_playthrough_walks_the_main_rules() -> None:
    """The recorded game plays every card kind, a warp, a trade, battles and a base win."""
    kinds = {"SPACE_DOG", "FORCE_FIELD", "METEOR_STRIKE", "HYPERJUMP", "REINFORCEMENTS",
             "GEM_RUSH", "ORE_HAUL", "BATTLE_CRY", "PROSPECTOR", "SABOTAGE"}
    played = {e["kind"] for line in _lines()[1:-1] for e in line["events"]
              if e["type"] == "CardPlayed"}
    types = {line["action"]["type"] for line in _lines()[1:-1]}
    events = {e["type"] for line in _lines()[1:-1] for e in line["events"]}
    assert played == kinds
    assert {"Warp", "TradeCards", "BuildBase", "Mine", "Recruit"} <= types
    assert {"BattleRolled", "BattleEnded", "BaseBuilt", "GameEnded"} <= events
