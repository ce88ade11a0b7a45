"""One source of text (issue 38): every event and action of every variant in sentences, the
same from the Python SDK's renderer and the JavaScript one the web app and the Node client use.

The cases are every event and action of the golden games (tests/golden), told to a spectator
and to a seat as each may see them (others' cards hidden), and one message of every kind the
contract declares (all fields at their defaults: seat 0, region 0, counts 0), so a kind no
golden game reached still has words.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from risk_client.text import Names, Renderer, as_json
from risk_proto.risk.v1 import errors_pb2, game_pb2, lifecycle_pb2
from risk_rules import variants, wire
from risk_rules.descriptions import build
from risk_rules.engine import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.jsonl"))
WEB_TEXT = ROOT / "service" / "risk_service" / "web" / "text.js"
RENDER_JS = Path(__file__).with_name("text_render.mjs")
VARIANTS = ("classic", "deep_space", "strike", "legacy")
# what a person must never read: an enum's name, a -1, JavaScript's or Python's empty values,
# a placeholder left unfilled
FORBIDDEN = re.compile(r"[A-Z]{2,}_[A-Z_]+|(?<!\w)-1(?!\d)|undefined|NaN|None|[{}]")


def _golden_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("golden_script", ROOT / "scripts" / "golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _names(variant: str, players: int, viewer: int) -> Names:
    # seat 1 has a display name, the others are named by number
    seats = tuple("Ada" if seat == 1 else "" for seat in range(players))
    return Names.of(build.describe(variants.descriptor(variant)), seats, players, viewer)


def _every_kind(variant: str, names: Names) -> list[dict[str, Any]]:
    """One message of every event and action kind the contract has for the variant."""
    cases = []
    for envelope, section in ((game_pb2.Event, "events"), (game_pb2.Action, "actions")):
        body = envelope.DESCRIPTOR.fields_by_name[variant].message_type
        assert body is not None
        for kind in body.oneofs_by_name["kind"].fields:
            message = envelope()
            getattr(getattr(message, variant), kind.name).SetInParent()
            cases.append({"variant": variant, "section": section, "kind": kind.json_name,
                          "message": as_json(message), "names": names})
    return cases


def _lifecycle(names: Names) -> list[dict[str, Any]]:
    cases = []
    for kind in lifecycle_pb2.LifecycleEvent.DESCRIPTOR.oneofs_by_name["kind"].fields:
        message = game_pb2.Event()
        getattr(message.lifecycle, kind.name).SetInParent()
        cases.append({"variant": "classic", "section": "lifecycle", "kind": kind.json_name,
                      "message": as_json(message), "names": names})
    return cases


def _golden_cases() -> list[dict[str, Any]]:
    script = _golden_script()
    cases = []
    for path in GOLDEN:
        lines = [json.loads(text) for text in path.read_text().splitlines()]
        variant = lines[0]["variant"]
        rules = get_ruleset(variant)
        players = lines[0]["options"]["players"]
        for viewer in (-1, 1):
            names = _names(variant, players, viewer)
            for step, line in enumerate(lines[:-1]):
                for event in line.get("events", []):
                    # as the viewer may see it: a spectator or seat 1 (others' cards hidden)
                    value = script.from_json_by_type(event, rules.event_types).for_viewer(
                        None if viewer < 0 else viewer)
                    if value is None:
                        continue
                    message = as_json(wire.event_to_proto(variant, value, step + 1, step + 1))
                    cases.append({"variant": variant, "section": "events",
                                  "kind": event["type"], "message": message, "names": names})
                if "action" in line and viewer == 1:
                    value = script.from_json_by_type(line["action"], rules.action_types)
                    message = as_json(wire.action_to_proto(variant, value))
                    cases.append({"variant": variant, "section": "actions",
                                  "kind": line["action"]["type"], "message": message,
                                  "names": names, "maxCount": 0})
    return cases


@pytest.fixture(scope="module")
def cases() -> list[dict[str, Any]]:
    every = []
    for variant in VARIANTS:
        for viewer in (-1, 0):
            every += _every_kind(variant, _names(variant, 4, viewer))
    every += _lifecycle(_names("classic", 3, -1)) + _lifecycle(_names("classic", 3, 0))
    every += _golden_cases()
    # a legal action offered as a range of counts ("Place 1 to 5 armies on Peru")
    place = game_pb2.Action()
    place.classic.place_armies.territory = list(_names("classic", 3, 0).regions).index("Peru")
    place.classic.place_armies.count = 1
    every.append({"variant": "classic", "section": "actions", "kind": "placeArmies",
                  "message": as_json(place), "names": _names("classic", 3, 0), "maxCount": 5})
    return every


def _python(case: dict[str, Any], renderer: Renderer) -> str:
    if case["section"] == "actions":
        return renderer.action(case["message"], case["variant"], case["names"],
                               case.get("maxCount", 0))
    return renderer.event(case["message"], case["variant"], case["names"])


def _javascript(cases: list[dict[str, Any]]) -> list[str]:
    node = shutil.which("node")
    assert node, "node is not on PATH: run bash scripts/setup"
    payload = [{**case, "names": case["names"].as_json()} for case in cases]
    done = subprocess.run([node, str(RENDER_JS), str(WEB_TEXT)], input=json.dumps(payload),
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    rendered: list[str] = json.loads(done.stdout)
    return rendered


def test_every_kind_of_every_variant_has_words() -> None:
    """Every event and action kind the contract declares, and every service event, has a
    sentence of its own in the table (not the words for a message the client cannot read)."""
    renderer = Renderer()
    unknown = {renderer.words["unknownEvent"], renderer.words["unknownAction"]}
    names = _names("classic", 4, -1)
    missing = [f"{case['variant']} {case['section']} {case['kind']}"
               for variant in VARIANTS for case in _every_kind(variant, names) + _lifecycle(names)
               if _python(case, renderer) in unknown]
    assert missing == []


def test_no_text_shows_enum_names_minus_one_or_placeholders(cases: list[dict[str, Any]]) -> None:
    """No sentence, of any golden game's event or action or any kind at its defaults, shows an
    enum-style name, -1, undefined, NaN, None or a brace."""
    renderer = Renderer()
    bad = [(case["variant"], case["kind"], text) for case in cases
           if FORBIDDEN.search(text := _python(case, renderer))]
    assert bad == []


def test_python_and_javascript_renderers_agree_byte_for_byte(
        cases: list[dict[str, Any]]) -> None:
    """The web app's and the Node client's renderer gives every case exactly the Python SDK's
    sentence."""
    renderer = Renderer()
    python = [_python(case, renderer) for case in cases]
    javascript = _javascript(cases)
    assert len(javascript) == len(python)
    differ = [(case["variant"], case["kind"], p, j)
              for case, p, j in zip(cases, python, javascript, strict=True) if p != j]
    assert differ[:5] == [] and len(differ) == 0
    assert "Place 1 to 5 armies on Peru" in python


def test_the_text_bundles_are_built_from_the_current_table() -> None:
    """clients/node/src/text_table.ts and service/risk_service/web/text.js are what
    clients/node/scripts/gen-text.sh makes from the rules package's table today."""
    script = ROOT / "clients" / "node" / "scripts" / "gen-text.sh"
    checked = subprocess.run(["bash", str(script), "--check"], capture_output=True, text=True,
                             timeout=120, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def _enum_fields(message: Any) -> set[Any]:
    """Every enum type a message's fields (and nested messages' fields) hold."""
    found = set()
    for field in message.fields:
        if field.enum_type is not None:
            found.add(field.enum_type)
        elif field.message_type is not None and field.message_type is not message:
            found |= _enum_fields(field.message_type)
    return found


def test_every_enum_value_phase_and_option_has_words() -> None:
    """Every value of an enum an event or action carries, every decision a variant asks for
    (its phases and response windows), every option DescribeVariant lists and each of its
    choices has words of its own in the table, so no client falls back to a lower-cased
    name."""
    renderer = Renderer()
    table = renderer.table
    missing = []
    for variant in VARIANTS:
        own = table["variants"][variant]
        enums = {**table["shared"]["enums"], **own["enums"]}
        for envelope in (game_pb2.Event, game_pb2.Action):
            body = envelope.DESCRIPTOR.fields_by_name[variant].message_type
            assert body is not None
            for enum in _enum_fields(body):
                missing += [f"{variant} enum {v.name}" for v in enum.values if v.name not in enums]
        module = importlib.import_module(f"risk_rules.engine.{variant}.model")
        kinds = {p.name.lower() for p in module.Phase}
        listings = importlib.import_module(f"risk_rules.engine.{variant}.listings")
        kinds |= set(getattr(listings, "WINDOW_STEP", getattr(listings, "WINDOW_KINDS", {}))
                     .values())
        kinds |= {"relocate_dog"} if variant == "deep_space" else set()
        phases = {**table["shared"]["phases"], **own["phases"]}
        missing += [f"{variant} phase {kind}" for kind in sorted(kinds) if kind not in phases]
        described = build.describe(variants.descriptor(variant))
        missing += [f"{variant} option {option.name}" for option in described.options
                    if option.name not in own["options"]]
        missing += [f"{variant} option {option.name} choice {choice.name}"
                    for option in described.options for choice in option.choices
                    if choice.name not in enums]
    policies = lifecycle_pb2.LifecycleEvent.DecisionTimedOut.DESCRIPTOR.fields_by_name[
        "policy"].enum_type
    assert policies is not None
    missing += [f"lifecycle enum {v.name}" for v in policies.values
                if v.name not in table["shared"]["enums"]]
    assert missing == []


def test_every_error_reason_has_a_sentence() -> None:
    """Every reason the service or the rules give for a refusal reads as a sentence for people
    (the web app shows it in place of the reason's name), and one without words falls back to
    the service's message."""
    renderer = Renderer()
    reasons = [*errors_pb2.ServiceReason.keys(), *errors_pb2.RuleReason.keys()]
    missing = [r for r in reasons if renderer.error(r, "MESSAGE") == "MESSAGE"]
    assert missing == []
    assert renderer.error("NOT_YOUR_TURN") == "It is not your turn"
    assert renderer.error("SOMETHING_NEW", "the service's words") == "the service's words"
    assert not any(FORBIDDEN.search(renderer.error(r)) for r in reasons)
