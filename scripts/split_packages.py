"""Move the shared code out of `risk_service` into the two distributions both sides install, and
rewrite every reference to it (issue 16, item 4). Idempotent: run it again after merging a branch
that still names the old paths, and it moves and rewrites only what that branch added.

    python scripts/split_packages.py   # then: python scripts/gen_protos.py && ruff check --fix .

    risk_service.pb                      -> risk_proto            (proto/python/risk_proto)
    risk_service.{engine,codec,wire,     -> risk_rules.<same>     (service/rules/risk_rules)
                  lifecycle,variants,audit}

`from risk_service import wire, clocks` is split into one import per package; ruff's isort
(`ruff check --fix`) then puts the lines in order. The generated code is not rewritten but
regenerated (gen_protos.py writes it under its new name). A migration, not a tool: delete it once
no open branch names `risk_service.pb` or `risk_service.engine`.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ("engine", "codec", "wire", "lifecycle", "variants", "audit")
MOVES = {  # old path (a folder or a module) -> new path, relative to ROOT
    "service/risk_service/pb": "proto/python/risk_proto",
    **{f"service/risk_service/{m}": f"service/rules/risk_rules/{m}"
       for m in ("engine", "variants")},
    **{f"service/risk_service/{m}.py": f"service/rules/risk_rules/{m}.py"
       for m in ("codec", "wire", "lifecycle", "audit")},
}
SCAN = ("service", "clients/python", "tests", "bench", "scripts", "deploy", "docs", "proto",
        ".ci", "README.md")
SUFFIXES = {".py", ".pyi", ".md", ".toml", ".sh", ".yaml", ".yml", ".proto", ".txt", ".cfg"}
SKIP = ("proto/python/risk_proto/", "scripts/split_packages.py")

_RULES = "|".join(RULES)
SUBSTITUTIONS = [  # applied in order, to every scanned file
    (re.compile(r"service/risk_service/pb\b"), "proto/python/risk_proto"),
    (re.compile(rf"service/risk_service/({_RULES})\b"), r"service/rules/risk_rules/\1"),
    (re.compile(r"(?<![\w/])risk_service/pb\b"), "risk_proto"),
    (re.compile(rf"(?<![\w/])risk_service/({_RULES})\b"), r"risk_rules/\1"),
    (re.compile(r"\brisk_service\.pb\b"), "risk_proto"),
    (re.compile(rf"\brisk_service\.({_RULES})\b"), r"risk_rules.\1"),
]
# `from risk_service import a, b` on one line, or in parentheses over several
_FROM_IMPORT = re.compile(
    r"^(?P<indent>[ \t]*)from risk_service import "
    r"(?:\((?P<group>[^)]*)\)|(?P<line>[^\n(]*?))[ \t]*$", re.MULTILINE)


def _tracked(path: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", "--", path], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return out.split()


def move() -> int:
    """git mv each tracked file under an old path to the same place under its new one."""
    moved = 0
    for old, new in MOVES.items():
        for name in _tracked(old):
            target = ROOT / new / Path(name).relative_to(old) if name != old else ROOT / new
            target.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(["git", "mv", "-k", name, str(target.relative_to(ROOT))], cwd=ROOT,
                           check=True)
            moved += 1
    init = ROOT / "service/rules/risk_rules/__init__.py"
    if not init.exists():
        init.write_text('"""The rules both sides of the wire need: the pure engine, the protobuf '
                        'mapping\n(codec, variants, wire), lifecycle events and the audit '
                        'verifier. No service, no\ntransport: the client installs this '
                        'package to render and verify games without the server.\n"""\n')
        (ROOT / "service/rules/risk_rules/py.typed").write_text("")
        subprocess.run(["git", "add", str(init.relative_to(ROOT)),
                        "service/rules/risk_rules/py.typed"], cwd=ROOT, check=True)
    return moved


def _split_import(match: re.Match[str]) -> str:
    names = match["group"] if match["group"] is not None else match["line"]
    names, hash_, comment = names.partition("#")  # a trailing comment (noqa) stays on line one
    comment = f"  {hash_}{comment}" if hash_ else ""
    items = [n.strip() for n in names.replace("\n", " ").split(",") if n.strip()]
    moved = [n for n in items if n.split(" as ")[0].strip() in RULES]
    pb = [n for n in items if n.split(" as ")[0].strip() == "pb"]
    kept = [n for n in items if n not in moved and n not in pb]
    if not moved and not pb:
        return match[0]
    indent = match["indent"]
    lines = [f"{indent}from risk_rules import {', '.join(moved)}"] if moved else []
    lines += [f"{indent}import risk_proto as {n.split(' as ')[-1].strip()}" for n in pb]
    if kept:
        lines.append(f"{indent}from risk_service import {', '.join(kept)}")
    lines[0] += comment
    return "\n".join(lines)


def rewrite(text: str) -> str:
    text = _FROM_IMPORT.sub(_split_import, text)
    for pattern, replacement in SUBSTITUTIONS:
        text = pattern.sub(replacement, text)
    return text


def _scanned() -> list[Path]:
    files: list[Path] = []
    for top in SCAN:
        for name in _tracked(top):
            path = ROOT / name
            if name.startswith(SKIP) or not path.is_file():
                continue
            if path.suffix in SUFFIXES or path.name.startswith("Dockerfile"):
                files.append(path)
    return files


def main() -> int:
    moved = move()
    changed = 0
    for path in _scanned():
        text = path.read_text()
        new = rewrite(text)
        if new != text:
            path.write_text(new)
            changed += 1
    print(f"moved {moved} files, rewrote {changed}; now run: python scripts/gen_protos.py && "
          f"ruff check --fix . && bash clients/node/scripts/gen-protos.sh")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
