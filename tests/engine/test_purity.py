"""The engine is pure: it imports only itself and a short, reviewed list of standard modules.

A stored game must replay bit for bit and the rules must run anywhere, so the engine may not
reach for I/O, clocks, global randomness, logging, the network, Redis, or the protobuf layer.
Every module under risk_rules/engine is imported, and its source is parsed so that imports in
functions and `TYPE_CHECKING` blocks count too; a fresh interpreter then checks that importing
the whole engine loads nothing beyond the allowlist and what those standard modules need.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import risk_rules.engine

ENGINE_PACKAGE = "risk_rules.engine"
ENGINE_DIR = Path(risk_rules.engine.__file__).resolve().parent

# Standard-library modules the engine may import. Each is pure computation; add one only with a
# reason, and never anything that touches the clock, the OS, threads, the network or `random`.
STDLIB_ALLOWLIST = frozenset({
    "__future__",  # postponed annotations
    "abc",  # abstract bases for interfaces
    "collections",  # deque, Counter for board searches and tallies
    "collections.abc",  # Sequence, Mapping, Iterable in signatures
    "dataclasses",  # frozen values: states, actions, events
    "enum",  # IntEnum phases and options, StrEnum reason codes
    "functools",  # caching of pure functions
    # A variant's board and deck may be data files bundled in its package (Deep Space's
    # board.json and deck.json): read once, at import, with importlib.resources and parsed with
    # json. They are the same bytes on every run, so the rules stay pure functions of the state.
    "importlib.resources",  # reads the bundled data files (no other file or OS access)
    "itertools",  # combinations of cards
    "json",  # parses the bundled data files
    "math",  # integer arithmetic helpers
    "operator",  # attrgetter: an action's fields fetched in one call (core.ruleset.is_legal)
    "typing",  # annotations, Protocol, TypeVar, TYPE_CHECKING
})

# Named so that a reviewer sees them refused even if someone widens the allowlist by mistake.
FORBIDDEN = frozenset({
    "grpc", "redis", "structlog", "asyncio", "time", "datetime", "os", "secrets", "random",
    "logging", "google.protobuf", "risk_proto", "risk_rules.wire", "risk_rules.codec",
    "risk_rules.variants", "risk_service",
})


def _module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE_DIR).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((ENGINE_PACKAGE, *parts))


ENGINE_FILES = sorted(ENGINE_DIR.rglob("*.py"))
ENGINE_MODULES = [_module_name(p) for p in ENGINE_FILES]


def _imports(path: Path, *, qualify: bool = False) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import statement anywhere in the file.

    With `qualify`, `from a import b` also yields `a.b`, which catches `from risk_rules import
    wire` as `risk_rules.wire` even though `b` may be a name rather than a module.
    """
    tree = ast.parse(path.read_text(), filename=str(path))
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                name = f"{base}.{node.module}" if node.module else base
                # `from . import x` imports a submodule: name it so it is checked as one.
                if node.module is None:
                    found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
                    continue
            else:
                name = node.module or ""
            found.append((node.lineno, name))
            if qualify:
                found.extend((node.lineno, f"{name}.{alias.name}") for alias in node.names)
        elif isinstance(node, ast.Name) and node.id == "__import__":
            found.append((node.lineno, "__import__"))  # dynamic imports dodge this check
    return found


def _is_engine(name: str) -> bool:
    return name == ENGINE_PACKAGE or name.startswith(ENGINE_PACKAGE + ".")


def _matches(name: str, prefixes: frozenset[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_engine_has_modules() -> None:
    """The walk finds the engine's core and classic packages (so the checks below are not empty)."""
    assert f"{ENGINE_PACKAGE}.core.rng" in ENGINE_MODULES
    assert f"{ENGINE_PACKAGE}.classic.rules" in ENGINE_MODULES


def test_allowlist_is_standard_library_and_disjoint_from_forbidden() -> None:
    """Every allowlisted module is in the standard library and none is a forbidden one."""
    assert {name.split(".")[0] for name in STDLIB_ALLOWLIST} <= sys.stdlib_module_names
    assert not {name for name in STDLIB_ALLOWLIST if _matches(name, FORBIDDEN)}


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_every_engine_module_imports(module: str) -> None:
    """Each engine module imports cleanly on its own."""
    importlib.import_module(module)


@pytest.mark.parametrize("path", ENGINE_FILES, ids=[_module_name(p) for p in ENGINE_FILES])
def test_imports_are_engine_or_allowlisted(path: Path) -> None:
    """Every import statement names an engine module or an allowlisted standard module."""
    bad = [
        f"line {line}: {name}"
        for line, name in _imports(path)
        if not _is_engine(name) and name not in STDLIB_ALLOWLIST
    ]
    assert not bad, f"{_module_name(path)} imports outside the engine's allowlist: {bad}"


def test_no_forbidden_import_anywhere() -> None:
    """No engine file imports grpc, redis, structlog, asyncio, clocks, os, random, logging, pb."""
    hits = [
        f"{_module_name(path)} line {line}: {name}"
        for path in ENGINE_FILES
        for line, name in _imports(path, qualify=True)
        if _matches(name, FORBIDDEN) or name == "__import__"
    ]
    assert not hits, f"forbidden imports in the engine: {hits}"


_PROBE = """
import importlib, json, sys
for name in {allowlist!r}:
    importlib.import_module(name)
# importlib.resources loads its readers (zipfile, struct, ...) on first use, whichever package
# uses it; use it once on the rules' own top-level package so they count as part of it
importlib.import_module("risk_rules")
importlib.resources.files("risk_rules").joinpath("py.typed").read_bytes()
before = set(sys.modules)
for name in {modules!r}:
    importlib.import_module(name)
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_importing_engine_loads_nothing_beyond_the_allowlist() -> None:
    """In a fresh interpreter, importing every engine module loads only engine modules."""
    probe = _PROBE.format(allowlist=sorted(STDLIB_ALLOWLIST), modules=ENGINE_MODULES)
    result = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True
    )
    loaded = json.loads(result.stdout)
    extra = [name for name in loaded if not _is_engine(name) and name != "risk_rules"]
    assert not extra, f"importing the engine also loaded: {extra}"
    assert not [name for name in loaded if _matches(name, FORBIDDEN)]
