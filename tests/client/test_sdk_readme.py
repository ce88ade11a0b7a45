"""Every Python example in clients/python/README.md and docs/sdk.md runs, as written, against
a real service process on a real redis-server, so the documentation stays true.

Each fenced ```python block is a complete program: it is written to a file and run with the
test's interpreter and `RISK_TARGET` naming the service. It must exit 0, pass ruff, and
every game and campaign it says it played must exist in the service as it says.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from risk_client import RiskClient
from risk_client.results import snapshot
from risk_testing.harness import ServiceProcess
from tests.client.serving import module_service

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = (ROOT / "clients" / "python" / "README.md", ROOT / "docs" / "sdk.md")
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
TIMEOUT_S = 300


def examples() -> list[tuple[str, str]]:
    found = []
    for document in DOCUMENTS:
        for number, match in enumerate(BLOCK.finditer(document.read_text()), start=1):
            found.append((f"{document.relative_to(ROOT)}#{number}", match.group(1)))
    return found


EXAMPLES = examples()


service = module_service("sdk-readme")


def test_every_variant_and_a_campaign_have_an_example() -> None:
    """The README shows each variant's options and the campaign calls in a program."""
    readme = "\n".join(code for name, code in EXAMPLES if name.startswith("clients"))
    for needle in ("classic_options(", "deep_space_pb2.DeepSpaceOptions(",
                   "strike_pb2.StrikeOptions(", "legacy_pb2.LegacyOptions(",
                   "create_campaign(", "start_campaign_game(", "submit_campaign_decision(",
                   "request_id"):
        assert needle in readme, f"no README example uses {needle}"


@pytest.mark.parametrize(("name", "code"), EXAMPLES, ids=[name for name, _ in EXAMPLES])
async def test_example_runs_as_written(
    name: str, code: str, service: ServiceProcess, tmp_path: Path
) -> None:
    """The example exits 0 and the games and campaigns it reports are in the service."""
    program = tmp_path / "example.py"
    program.write_text(code)
    lint = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--config",
         str(ROOT / "pyproject.toml"), str(program)],
        capture_output=True, text=True, check=False)
    assert lint.returncode == 0, f"{name} does not pass ruff:\n{lint.stdout}"
    ran = subprocess.run(
        [sys.executable, str(program)], capture_output=True, text=True, timeout=TIMEOUT_S,
        env={**os.environ, "RISK_TARGET": service.target}, check=False)
    assert ran.returncode == 0, f"{name} failed:\n{ran.stdout}\n{ran.stderr}"
    games = re.findall(r"\bgame (\w{22})\b", ran.stdout)
    campaigns = re.findall(r"\bcampaign (\w{22}) is at version (\d+)", ran.stdout)
    assert games or campaigns, f"{name} printed no game or campaign:\n{ran.stdout}"
    async with RiskClient(service.target) as client:
        for game_id in games:
            game = snapshot(await client.get_game(game_id))
            assert game.version > 0
            if "Outcome(" in ran.stdout:
                assert game.is_over and str(game.outcome) in ran.stdout
        for campaign_id, version in campaigns:
            campaign = (await client.get_campaign(campaign_id)).campaign
            assert campaign.version == int(version)
