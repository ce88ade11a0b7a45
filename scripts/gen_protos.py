"""Generate the Python code for proto/risk/v1 into proto/python/risk_proto, and docs/errors.md
from errors.proto (never edit either by hand). Beside the protobuf and gRPC code it writes the
HTTP port's Connect code (`*_connect.py`, protoc-gen-connectrpc for google.protobuf messages,
async only: the service's HTTP port, server/http_port.py, mounts its ASGI application).

    python scripts/gen_protos.py          # regenerate
    python scripts/gen_protos.py --check  # exit 1 if the checked-in code or docs are stale

protoc emits absolute imports (`from risk.v1 import x_pb2`); they are rewritten to live under
`risk_proto`, so the contract does not claim a top-level `risk` package. docs/errors.md is
built from a descriptor set with source info: the generated Python keeps no comments.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from google.protobuf import descriptor_pb2
from google.protobuf.unknown_fields import UnknownFieldSet

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
OUT = ROOT / "proto" / "python" / "risk_proto"
PACKAGE = "risk_proto"
# `from risk.v1 import x_pb2`, and the Connect plugin's `from risk.v1.x_pb2 import Message` for
# a message of another file than the service's
_IMPORT = re.compile(r"^from risk\.v1(?= import |\.)", re.MULTILINE)
_INIT = '"""Generated protobuf code for the risk.v1 contract. Do not edit."""\n'
ERRORS_PROTO = "risk/v1/errors.proto"
ERRORS_DOC = ROOT / "docs" / "errors.md"
# installed beside this interpreter by the dev extra (pyproject.toml)
CONNECT_PLUGIN = Path(sys.executable).parent / "protoc-gen-connectrpc"
_ENUM, _VALUE = 5, 2  # FileDescriptorProto.enum_type, EnumDescriptorProto.value


def generate() -> dict[Path, str]:
    """The generated tree as {relative path: text}."""
    protos = sorted(str(p.relative_to(PROTO_ROOT)) for p in PROTO_ROOT.rglob("*.proto"))
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO_ROOT}",
            f"--python_out={tmp}", f"--pyi_out={tmp}", f"--grpc_python_out={tmp}",
            f"--plugin=protoc-gen-connectrpc={CONNECT_PLUGIN}",
            f"--connectrpc_out=protobuf=google,io=async:{tmp}", *protos,
        ]
        subprocess.run(cmd, check=True)
        files: dict[Path, str] = {}
        for path in sorted(Path(tmp).rglob("*.py*")):
            text = _IMPORT.sub(f"from {PACKAGE}.risk.v1", path.read_text())
            files[path.relative_to(tmp)] = text
    for package in (Path("__init__.py"), Path("risk/__init__.py"), Path("risk/v1/__init__.py")):
        files[package] = _INIT
    files[Path("py.typed")] = ""
    return files


def _protoc_descriptor(proto: str) -> descriptor_pb2.FileDescriptorProto:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "set.pb"
        subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO_ROOT}",
                        "--include_source_info", f"--descriptor_set_out={out}", proto], check=True)
        (file,) = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file
    return file


def _comment(text: str) -> str:
    return " ".join(line.strip() for line in text.strip().splitlines())


def errors_doc() -> str:
    """docs/errors.md: every reason of errors.proto with its statuses and meaning."""
    file = _protoc_descriptor(ERRORS_PROTO)
    (status_ext,) = (e.number for e in file.extension if e.name == "status")
    comments = {tuple(loc.path): loc for loc in file.source_code_info.location}
    by_status: dict[str, list[str]] = {}
    sections: list[str] = []
    for e, enum in enumerate(file.enum_type):
        loc = comments[(_ENUM, e)]
        rows = [f"## `risk.v1.{enum.name}`", "", _comment(loc.leading_comments), "",
                "| reason | status | meaning |", "|---|---|---|"]
        values = [(v, value) for v, value in enumerate(enum.value)
                  if value.number != 0]  # the proto3 zero value: never sent
        statuses = {value.name: [f.data.decode() for f in UnknownFieldSet(value.options)
                                 if f.field_number == status_ext] for _, value in values}
        # a status every value of the enum comes with is summarised once, not per value
        shared = set.intersection(*(set(s) for s in statuses.values()))
        for status in sorted(shared):
            by_status.setdefault(status, []).append(f"every `{enum.name}`")
        for v, value in values:
            loc = comments[(_ENUM, e, _VALUE, v)]
            for heading in loc.leading_detached_comments:
                rows.append(f"| **{_comment(heading)}** | | |")
            for status in statuses[value.name]:
                if status not in shared:
                    by_status.setdefault(status, []).append(f"`{value.name}`")
            rows.append(f"| `{value.name}` | {', '.join(f'`{s}`' for s in statuses[value.name])} "
                        f"| {_comment(loc.leading_comments)} |")
        sections.append("\n".join(rows))
    summary = ["| status | reasons |", "|---|---|"]
    summary += [f"| `{status}` | {', '.join(reasons)} |"
                for status, reasons in sorted(by_status.items())]
    return "\n\n".join([
        "# Error reasons",
        f"<!-- generated from proto/{ERRORS_PROTO} by scripts/gen_protos.py: do not edit -->",
        "Every failed call carries a `google.rpc.Status` (trailer `grpc-status-details-bin`) with "
        "one `google.rpc.ErrorInfo`: domain `risk.v1`, a `reason` from the lists below, and "
        "metadata `message` (plus `current_version`, `retry_after_ms` or `last_seq` where a "
        "reason says so). The reason is the name of a value of `risk.v1.ServiceReason` or "
        "`risk.v1.RuleReason` in `proto/risk/v1/errors.proto`, which server reflection serves; "
        "each value's `(risk.v1.status)` option lists the gRPC statuses it comes with. Reasons "
        "are stable: never renamed or reused, new ones may be added. How errors work in general "
        "(and the two answers gRPC gives itself, without an ErrorInfo): `docs/api.md`.",
        "## By status",
        "\n".join(summary),
        *sections,
    ]) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the generated code is stale")
    args = parser.parse_args()
    wanted = generate()
    present = {p.relative_to(OUT): p.read_text() for p in OUT.rglob("*") if p.is_file()
               and "__pycache__" not in p.parts} if OUT.exists() else {}
    doc = errors_doc()
    if args.check:
        stale = sorted(str(p) for p in set(wanted) | set(present)
                       if wanted.get(p) != present.get(p))
        if not ERRORS_DOC.exists() or ERRORS_DOC.read_text() != doc:
            stale.append(str(ERRORS_DOC.relative_to(ROOT)))
        if stale:
            print("generated code or docs are stale; run: python scripts/gen_protos.py")
            for name in stale:
                print(f"  {name}")
            return 1
        print("generated code and docs are fresh")
        return 0
    for rel in set(present) - set(wanted):
        (OUT / rel).unlink()
    for rel, text in wanted.items():
        target = OUT / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    ERRORS_DOC.write_text(doc)
    print(f"wrote {len(wanted)} files under {OUT.relative_to(ROOT)} and "
          f"{ERRORS_DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
