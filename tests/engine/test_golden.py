"""Golden playthroughs: the recorded bot games under tests/golden replay exactly, line by line.

Each file was written by `scripts/golden.py` (the only writer; these tests only read). Replaying
its actions through today's engine must give the same events and the same snapshot hash after
every action, and the bots must still choose the same actions from the same seed, so any change
in rules, dice, bots or serialisation shows up as the first line that differs. When a change is
intended, regenerate with `python scripts/golden.py` and say why in the commit.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from risk_rules.engine import REGISTRY, Action, Ruleset, get_ruleset

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIR = ROOT / "tests" / "golden"
SCRIPT = ROOT / "scripts" / "golden.py"
GOLDEN_FILES = sorted(GOLDEN_DIR.glob("*.jsonl"))


def _load_script() -> ModuleType:
    """The generator script as a module, for its JSON codec (it is not a package)."""
    spec = importlib.util.spec_from_file_location("golden_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GOLDEN = _load_script()


class Golden:
    """One parsed golden file: header, per-action lines, outcome, with 1-based line numbers."""

    def __init__(self, path: Path) -> None:
        self.path = path
        lines = [json.loads(text) for text in path.read_text().splitlines()]
        assert len(lines) >= 2, f"{path.name}: needs a header and an outcome line"
        self.header: dict[str, Any] = lines[0]
        self.steps: list[dict[str, Any]] = lines[1:-1]
        self.outcome: dict[str, Any] = lines[-1]
        self.variant: str = self.header["variant"]
        self.rules: Ruleset[Any, Any, Any] = get_ruleset(self.variant)
        self.options = GOLDEN.from_json(self.header["options"], self.rules.options_type)
        self.seed: int = self.header["seed"]

    def numbered_steps(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """(line number in the file, recorded step); the header is line 1."""
        for index, step in enumerate(self.steps):
            yield index + 2, step

    def action(self, step: dict[str, Any]) -> Action:
        action: Action = GOLDEN.from_json_by_type(step["action"], self.rules.action_types)
        return action


def _normalise(value: Any) -> Any:
    """What `value` reads back as after a trip through JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def _first_difference(recorded: dict[str, Any], replayed: dict[str, Any]) -> str | None:
    """A description of the first field (and event) where the two lines differ, or None."""
    for key in dict.fromkeys([*recorded, *replayed]):
        want, got = recorded.get(key), replayed.get(key)
        if want == got:
            continue
        if key == "events" and isinstance(want, list) and isinstance(got, list):
            for i in range(max(len(want), len(got))):
                w = want[i] if i < len(want) else "<none>"
                g = got[i] if i < len(got) else "<none>"
                if w != g:
                    return f"event {i}: file has {w}, engine gives {g}"
        return f"{key!r}: file has {want}, engine gives {got}"
    return None


def _fail_at(golden: Golden, line: int, what: str) -> None:
    pytest.fail(
        f"{golden.path.name} line {line} differs at {what}\n"
        "If the change is intended, regenerate with `python scripts/golden.py` and explain why."
    )


@pytest.fixture(params=GOLDEN_FILES, ids=[p.name for p in GOLDEN_FILES])
def golden(request: pytest.FixtureRequest) -> Golden:
    path: Path = request.param
    return Golden(path)


def test_golden_files_exist() -> None:
    """At least one golden playthrough is checked in for the classic variant."""
    assert any(p.name.startswith("classic_") for p in GOLDEN_FILES), GOLDEN_DIR


def test_header_matches_engine(golden: Golden) -> None:
    """The file names a served variant, today's rules version, and a game that ended."""
    assert golden.variant in REGISTRY
    assert golden.header["rules_version"] == golden.rules.rules_version, (
        f"{golden.path.name} was recorded with rules_version {golden.header['rules_version']}; "
        f"the engine is at {golden.rules.rules_version}: keep the old file, add a new one"
    )
    assert golden.header["bot_entropy"] == "action_index"
    assert golden.outcome["outcome"]["reason"] == GOLDEN.GAMES[golden.variant].win_reason
    assert golden.path.stat().st_size < 5_000_000


def test_replay_matches_every_line(golden: Golden) -> None:
    """Replaying the recorded actions gives the recorded events and state hash on every line."""
    rules, variant = golden.rules, golden.variant
    state, events = rules.create(golden.options, golden.seed)
    created = _normalise(
        {"events": GOLDEN.events_json(events), "state_sha256": GOLDEN.state_sha256(variant, state)}
    )
    recorded = {k: golden.header[k] for k in ("events", "state_sha256")}
    if (diff := _first_difference(recorded, created)) is not None:
        _fail_at(golden, 1, diff)
    for line, step in golden.numbered_steps():
        if rules.outcome(state) is not None:
            _fail_at(golden, line, "game over: the engine finished before the file did")
        action = golden.action(step)
        seat = step["seat"]
        if seat not in rules.decision(state).seats:
            _fail_at(golden, line, f"seat: {seat} is not deciding ({rules.decision(state)})")
        state, events = rules.apply(state, seat, action)
        replayed = _normalise(
            {
                "seat": seat,
                "action": GOLDEN.to_json(action),
                "events": GOLDEN.events_json(events),
                "state_sha256": GOLDEN.state_sha256(variant, state),
            }
        )
        if (diff := _first_difference(step, replayed)) is not None:
            _fail_at(golden, line, diff)
    outcome = rules.outcome(state)
    last = len(golden.steps) + 2
    if outcome is None:
        _fail_at(golden, last, "outcome: the file ends but the engine's game goes on")
    got = _normalise({"outcome": GOLDEN.fields_to_json(outcome)})
    if (diff := _first_difference(golden.outcome, got)) is not None:
        _fail_at(golden, last, diff)


def test_bots_regenerate_recorded_actions(golden: Golden) -> None:
    """From the same seed, the bots choose exactly the recorded action at every step."""
    rules = golden.rules
    state, _ = rules.create(golden.options, golden.seed)
    for index, (line, step) in enumerate(golden.numbered_steps()):
        (seat,) = rules.decision(state).seats
        chosen = rules.bot_action(state, seat, index)  # the header's "action_index" entropy
        recorded = golden.action(step)
        if (seat, chosen) != (step["seat"], recorded):
            _fail_at(
                golden, line,
                f"the bot's choice: file has seat {step['seat']} {recorded}, "
                f"bot gives seat {seat} {chosen}",
            )
        state, _ = rules.apply(state, seat, chosen)
    assert rules.outcome(state) is not None


def test_recorded_actions_decode_to_engine_dataclasses(golden: Golden) -> None:
    """Every recorded action decodes to an engine action that encodes back to the same JSON."""
    for line, step in golden.numbered_steps():
        action = golden.action(step)
        assert isinstance(action, golden.rules.action_types), line
        assert _normalise(GOLDEN.to_json(action)) == step["action"], f"line {line}"


def test_script_writes_identical_bytes(tmp_path: Path) -> None:
    """The generator, run into a scratch directory, reproduces every checked-in file byte for
    byte (one per variant it records)."""
    subprocess.run(
        [sys.executable, str(SCRIPT), "--out-dir", str(tmp_path)],
        check=True, capture_output=True, text=True,
    )
    for variant, game in GOLDEN.GAMES.items():
        written = GOLDEN.golden_path(tmp_path, game.seed, variant)
        checked_in = GOLDEN.golden_path(GOLDEN_DIR, game.seed, variant)
        assert written.read_bytes() == checked_in.read_bytes(), (
            f"scripts/golden.py now writes a different {checked_in.name}"
        )


def test_every_recorded_variant_has_its_file() -> None:
    """Each variant the generator records (classic, strike) has its golden file checked in."""
    for variant, game in GOLDEN.GAMES.items():
        assert GOLDEN.golden_path(GOLDEN_DIR, game.seed, variant) in GOLDEN_FILES, variant
