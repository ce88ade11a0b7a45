"""The README's "Try it" walkthrough, run as written against a real service.

The commands are parsed out of README.md's "Try it" code block; only what the README says to
replace is replaced (GAME, HOST, TOKEN0..TOKEN2 and FILE, taken from the output of the
commands before them, as a reader would), `.venv/bin/risk` is this environment's `risk`, and
the target is the test's service. Every command must succeed, and text the README quotes in a
comment ("decision: seat 1 (claim a territory)") must be in that command's output, so the
walkthrough cannot drift from the program.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from risk_testing.harness import ServiceFactory

README = Path(__file__).resolve().parents[2] / "README.md"
RISK = str(Path(sys.executable).with_name("risk"))


def walkthrough() -> list[tuple[str, str]]:
    """(command, comment) for each line of the "Try it" section's code block."""
    section = README.read_text().split("## Try it", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    lines = []
    for line in block.splitlines():
        command, _, comment = line.partition("#")
        if command.strip():
            lines.append((command.strip(), comment.strip()))
    return lines


def test_the_readme_walkthrough_works_as_written(
    make_service: ServiceFactory, redis_client: object, tmp_path: Path
) -> None:
    target = make_service().target
    env = {k: v for k, v in os.environ.items() if k not in ("RISK_TOKEN", "RISK_TARGET")}
    env["RISK_TARGET"] = target
    env["XDG_DATA_HOME"] = str(tmp_path / "data")  # where a default export goes
    values: dict[str, str] = {}
    steps = walkthrough()
    assert len(steps) >= 8 and steps[0][0].startswith(".venv/bin/risk create")
    for command, comment in steps:
        words = shlex.split(command)
        assert words[0] == ".venv/bin/risk", command
        words = [RISK, *(values.get(w, w) for w in words[1:])]
        done = subprocess.run(words, env=env, capture_output=True, text=True, timeout=120,
                              check=False, cwd=tmp_path)
        assert done.returncode == 0, f"{command}: {done.stdout}{done.stderr}"
        for quoted in re.findall(r'"([^"]+)"', comment):
            assert quoted in done.stdout, f"{command}: {quoted!r} not in {done.stdout}"
        if words[1] == "create":
            values["GAME"] = re.findall(r"^game (\S+)$", done.stdout, re.MULTILINE)[0]
            values["HOST"] = re.findall(r"^host-token (\S+)$", done.stdout, re.MULTILINE)[0]
        elif words[1] == "join":
            values[f"TOKEN{words[3]}"] = done.stdout.strip()
        elif "export" in words:
            values["FILE"] = re.findall(r"^wrote (.+?): ", done.stdout, re.MULTILINE)[0]
    exported = tmp_path / "data" / "risk" / "exports" / f"{values['GAME']}.export"
    assert values["FILE"] == str(exported) and exported.exists()
    assert not list(tmp_path.glob("*.export"))  # nothing lands where the command ran
