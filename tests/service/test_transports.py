"""The operations are transport-free: a second transport (the HTTP/Connect port) can serve
them without importing grpc.

Every module of the operations layer (risk_service/operations, and the campaigns and sweeper
that sit beside it) is parsed, so imports inside functions and `TYPE_CHECKING` blocks count,
and a fresh interpreter then checks that importing them all loads no grpc module at all,
directly or through the store, the feed or the wire.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import risk_service.operations

PACKAGE = Path(risk_service.operations.__file__).resolve().parent
SERVICE = PACKAGE.parent
MODULES = [*sorted(PACKAGE.glob("*.py")), SERVICE / "campaigns.py", SERVICE / "sweeper.py"]
TRANSPORTS = ("grpc", "grpc_health", "grpc_reflection", "risk_service.server")


def _module_name(path: Path) -> str:
    parts = path.relative_to(SERVICE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return names


def _transport(name: str) -> bool:
    return any(name == t or name.startswith(f"{t}.") for t in TRANSPORTS) or name.endswith(
        "_pb2_grpc")


def test_the_layer_is_what_this_test_reads() -> None:
    """The scan covers the modules that hold the operations (so it cannot pass by reading
    none): the facade, the commit path, the commands, moves, streams and export."""
    names = {path.stem for path in MODULES}
    assert {"service", "commit", "commands", "moves", "queries", "streams", "timers",
            "export", "identity", "campaigns", "sweeper"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_operations_module_imports_a_transport(path: Path) -> None:
    """No module of the operations layer names grpc, its health or reflection services, the
    generated `*_pb2_grpc` stubs or the gRPC server package, in any import statement."""
    found = [name for name in _imports(path) if _transport(name)]
    assert not found, f"{path.name} imports {found}: transports adapt the operations, not back"


def test_importing_the_operations_loads_no_grpc() -> None:
    """A fresh interpreter that imports every operations module has no grpc module loaded:
    nothing they import reaches for one either."""
    modules = [_module_name(path) for path in MODULES]
    script = ("import importlib, json, sys\n"
              f"for name in {modules!r}: importlib.import_module(name)\n"
              "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    loaded = json.loads(done.stdout)
    assert "risk_service.operations.service" in loaded
    assert not [name for name in loaded if _transport(name)]
