"""Generate the Python code for proto/risk/v1 into service/risk_service/pb (never edit by hand).

    python scripts/gen_protos.py          # regenerate
    python scripts/gen_protos.py --check  # exit 1 if the checked-in code is stale

protoc emits absolute imports (`from risk.v1 import x_pb2`); they are rewritten to live under
`risk_service.pb`, so the contract does not claim a top-level `risk` package.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
OUT = ROOT / "service" / "risk_service" / "pb"
PACKAGE = "risk_service.pb"
_IMPORT = re.compile(r"^from risk\.v1 import ", re.MULTILINE)
_INIT = '"""Generated protobuf code for the risk.v1 contract. Do not edit."""\n'


def generate() -> dict[Path, str]:
    """The generated tree as {relative path: text}."""
    protos = sorted(str(p.relative_to(PROTO_ROOT)) for p in PROTO_ROOT.rglob("*.proto"))
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO_ROOT}",
            f"--python_out={tmp}", f"--pyi_out={tmp}", f"--grpc_python_out={tmp}", *protos,
        ]
        subprocess.run(cmd, check=True)
        files: dict[Path, str] = {}
        for path in sorted(Path(tmp).rglob("*.py*")):
            text = _IMPORT.sub(f"from {PACKAGE}.risk.v1 import ", path.read_text())
            files[path.relative_to(tmp)] = text
    for package in (Path("__init__.py"), Path("risk/__init__.py"), Path("risk/v1/__init__.py")):
        files[package] = _INIT
    files[Path("py.typed")] = ""
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the generated code is stale")
    args = parser.parse_args()
    wanted = generate()
    present = {p.relative_to(OUT): p.read_text() for p in OUT.rglob("*") if p.is_file()
               and "__pycache__" not in p.parts} if OUT.exists() else {}
    if args.check:
        stale = sorted(str(p) for p in set(wanted) | set(present)
                       if wanted.get(p) != present.get(p))
        if stale:
            print("generated protobuf code is stale; run: python scripts/gen_protos.py")
            for name in stale:
                print(f"  {name}")
            return 1
        print("generated protobuf code is fresh")
        return 0
    for rel in set(present) - set(wanted):
        (OUT / rel).unlink()
    for rel, text in wanted.items():
        target = OUT / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    print(f"wrote {len(wanted)} files under {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
