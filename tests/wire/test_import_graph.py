"""risk_rules imports one way: no module, and no part (engine, variants, descriptions, wire,
...), is reached back by what it imports, so any module imports first in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

import risk_rules

ROOT = Path(risk_rules.__file__).parent
PACKAGE = "risk_rules"


def _modules() -> dict[str, Path]:
    """Every module of risk_rules by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = (PACKAGE, *path.relative_to(ROOT).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _imported(name: str, path: Path) -> Iterator[str]:
    """The risk_rules modules `name` imports, wherever in it (functions and TYPE_CHECKING
    blocks included: an import there is still a dependency)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package.split(".")[:len(package.split(".")) - node.level + 1],
                                 *([base] if base else [])])
            # `from pkg import name`: the module pkg.name when there is one, else pkg
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                       for alias in node.names]
        else:
            continue
        yield from (t for t in targets if t in MODULES and t != name)


def _cycle(graph: Mapping[str, set[str]]) -> list[str]:
    """One cycle of `graph` as the path around it, or [] when it has none."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def _part(name: str) -> str:
    """The part of risk_rules a module belongs to: `risk_rules.variants.classic` ->
    `variants`; the engine as one part."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


IMPORTS = {name: set(_imported(name, path)) for name, path in MODULES.items()}


def test_no_module_of_risk_rules_imports_itself_back() -> None:
    """The module import graph of risk_rules has no cycle."""
    assert _cycle(IMPORTS) == []


def test_the_parts_of_risk_rules_depend_one_way() -> None:
    """Between its parts (descriptions, variants, engine, wire, ...) the graph has no cycle."""
    parts: dict[str, set[str]] = {}
    for name, targets in IMPORTS.items():
        parts.setdefault(_part(name), set()).update(
            _part(t) for t in targets if _part(t) != _part(name))
    assert _cycle(parts) == []
    assert "descriptions" not in parts["variants"]  # the descriptor names its hook instead


@pytest.mark.parametrize("first", ["risk_rules.descriptions.build", "risk_rules.variants"])
def test_descriptions_and_variants_import_in_either_order(first: str) -> None:
    """A fresh interpreter imports descriptions and variants in either order and describes."""
    second = ({"risk_rules.descriptions.build", "risk_rules.variants"} - {first}).pop()
    script = (f"import {first}, {second}; from risk_rules import variants; "
              "from risk_rules.descriptions.build import describe; "
              "print(sum(describe(d).HasField('map') for d in variants.DESCRIPTORS.values()))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["4"]  # each built-in variant's hook drew its map
