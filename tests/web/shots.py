"""Where the browser tests' screenshots go.

docs/web.md shows screenshots in docs/web/. A test run rewrites them only when asked to, with
`RISK_UPDATE_SCREENSHOTS=1`; otherwise each screenshot is still taken (the page is drawn and
captured the same way) but written into the test's own `tmp_path`, so running the tests leaves
the tracked files as they were.
"""

from __future__ import annotations

import os
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs" / "web"
UPDATE = os.environ.get("RISK_UPDATE_SCREENSHOTS") == "1"


def shot(name: str, tmp_path: Path) -> str:
    """The path to write screenshot `name` to: docs/web/<name> when updating, else tmp_path."""
    folder = DOCS if UPDATE else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / name)
