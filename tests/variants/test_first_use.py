"""Variants load on first use: a process that touches one variant imports only its engine.

Each check runs a fresh interpreter, so what the test suite itself imported cannot hide an
import. The `risk` command's start-up depends on this (bench/cli_startup.py measures it).
"""

from __future__ import annotations

import json
import subprocess
import sys

# the engine packages a fresh process imported, printed as JSON after `code` ran
_ENGINES = """
import json, sys
print(json.dumps(sorted({m.split(".")[2] for m in sys.modules
                         if m.startswith("risk_rules.engine.") and m.count(".") >= 3})))
"""


def _engines_after(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code + _ENGINES], capture_output=True,
                          text=True, check=True)
    engines: list[str] = json.loads(done.stdout.splitlines()[-1])
    return engines


def test_names_numbers_and_order_need_no_engine() -> None:
    engines = _engines_after(
        "from risk_rules import variants\n"
        "from risk_rules.engine import REGISTRY\n"
        "assert list(variants.DESCRIPTORS) == ['classic', 'deep_space', 'strike', 'legacy']\n"
        "assert variants.numbers() == {'classic': 1, 'deep_space': 2, 'strike': 3, 'legacy': 4}\n"
        "assert sorted(REGISTRY) == ['classic', 'deep_space', 'legacy', 'strike']\n"
        "assert 'legacy' in REGISTRY and 'chess' not in variants.DESCRIPTORS\n"
    )
    assert engines == ["core"]


def test_one_variant_looked_up_loads_its_engine_alone() -> None:
    engines = _engines_after(
        "from risk_rules import variants\n"
        "described = variants.by_number(3)\n"
        "assert described is variants.descriptor('strike') is variants.by_case('strike')\n"
        "assert described.rules.name == 'strike'\n"
    )
    assert "strike" in engines
    assert "deep_space" not in engines and "legacy" not in engines


def test_by_type_and_walking_the_table_load_every_variant() -> None:
    engines = _engines_after(
        "from risk_rules import variants\n"
        "assert variants.by_type('risk.v1.LegacyAction').name == 'legacy'\n"
        "assert [d.number for d in variants.DESCRIPTORS.values()] == [1, 2, 3, 4]\n"
    )
    assert {"classic", "deep_space", "strike", "legacy"} <= set(engines)


def test_the_risk_parser_imports_no_engine_and_no_grpc() -> None:
    engines = _engines_after(
        "import sys\n"
        "from risk_client.cli import build_parser\n"
        "build_parser().parse_args(['list', '--variant', 'deep_space'])\n"
        "assert 'grpc' not in sys.modules and 'risk_client.client' not in sys.modules\n"
    )
    assert engines == ["core"]
