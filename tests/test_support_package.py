"""Test tooling stays out of the product: the support package (support/, `risk_testing`) is what
tests and benchmarks drive the service with, and nothing shipped reaches it.

bench/ and the support package import nothing from tests/ (a benchmark runs without the test
suite's fixtures and conftest) and no `_private` name of the product's packages, only their
public API; the product's packages never import the support package, and risk-service does not
require it (deploy/Dockerfile's side is tests/deploy/test_manifests.py).
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PRODUCT = ("risk_service", "risk_rules", "risk_client", "risk_proto")
SUPPORT = "risk_testing"
PRODUCT_SOURCES = {
    "risk_proto": REPO / "proto" / "python" / "risk_proto",
    "risk_rules": REPO / "service" / "rules" / "risk_rules",
    "risk_service": REPO / "service" / "risk_service",
    "risk_client": REPO / "clients" / "python" / "risk_client",
}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _in(module: str, packages: tuple[str, ...]) -> bool:
    return module.split(".", maxsplit=1)[0] in packages


def borrowed(source: str) -> list[str]:
    """What `source` takes that a benchmark or the support package may not: a module of tests/,
    or a private name of the product (imported, in an imported module's path, or read as an
    attribute of a name bound to the product by an import)."""
    found: list[str] = []
    bound: set[str] = set()  # names an import bound to a product module or one of its names
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _in(alias.name, ("tests",)):
                    found.append(f"{node.lineno}: import {alias.name}")
                elif _in(alias.name, PRODUCT):
                    if any(_private(part) for part in alias.name.split(".")):
                        found.append(f"{node.lineno}: import {alias.name}")
                    bound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if _in(node.module, ("tests",)):
                found.append(f"{node.lineno}: from {node.module} import ...")
            elif _in(node.module, PRODUCT):
                for alias in node.names:
                    path = [*node.module.split("."), alias.name]
                    if any(_private(part) for part in path):
                        found.append(f"{node.lineno}: from {node.module} import {alias.name}")
                    bound.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in bound:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def imports_of(source: str) -> set[str]:
    """Every module `source` imports by absolute name."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_the_scan_finds_what_is_borrowed() -> None:
    """The scan itself: a tests/ import and each spelling of a private product name are found,
    public names, dunders and private names of other libraries are not."""
    source = '''
import tests.service.harness
from tests.service.rpc import bearer
from risk_service.operations.replay import _build, build
from risk_service._hidden import thing
from risk_service.__main__ import tune_gc
from risk_service import feed, logs as log_module
import risk_service.store.keys
from risk_testing.harness import ServiceProcess
import grpc

count = feed._XREAD_COUNT
stamp = log_module._UtcStamp()
key = risk_service.store.keys._slot
ours = grpc._channel
self_ok = object()._cache
name = feed.__name__
'''
    assert sorted(item.split(": ", 1)[1] for item in borrowed(source)) == sorted([
        "import tests.service.harness",
        "from tests.service.rpc import ...",
        "from risk_service.operations.replay import _build",
        "from risk_service._hidden import thing",
        "feed._XREAD_COUNT",
        "log_module._UtcStamp",
        "risk_service.store.keys._slot",
    ])


def test_benchmarks_and_the_support_package_borrow_nothing() -> None:
    """bench/*.py and support/risk_testing import nothing from tests/ and no private name of
    risk_service, risk_rules, risk_client or risk_proto."""
    sources = [*sorted((REPO / "bench").glob("*.py")),
               *sorted((REPO / "support" / SUPPORT).rglob("*.py"))]
    assert len(sources) > 20, "the scan found too few files to look at"
    offenders = [f"{path.relative_to(REPO)}:{item}"
                 for path in sources for item in borrowed(path.read_text())]
    assert not offenders, ("tests/ modules or private product names (move the helper to "
                           "support/risk_testing, or use a public function):\n"
                           + "\n".join(offenders))


def test_the_product_never_imports_the_support_package() -> None:
    """No module of the four shipped packages imports risk_testing, and risk-service does not
    require risk-testing: an installed service runs without it."""
    offenders = [f"{path.relative_to(REPO)}: {module}"
                 for root in PRODUCT_SOURCES.values() for path in sorted(root.rglob("*.py"))
                 for module in sorted(imports_of(path.read_text())) if _in(module, (SUPPORT,))]
    assert not offenders, "the product imports the support package:\n" + "\n".join(offenders)
    for folder in (".", "proto/python", "service/rules", "clients/python"):
        project = tomllib.loads((REPO / folder / "pyproject.toml").read_text())["project"]
        assert not [r for r in project.get("dependencies", []) if r.startswith("risk-testing")]
    support = tomllib.loads((REPO / "support" / "pyproject.toml").read_text())["project"]
    assert support["name"] == "risk-testing"
