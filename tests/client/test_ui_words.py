"""The web app's page words (issue 38, "ready for translation"): every key the app's scripts
pass to words.js' `ui()` or `panelText()` is in the text table's `words` (a missing one throws on
the page, blanking it), and every page's words render with no brace or placeholder left over.
Keys built at run time (the overlay's `ui.overlay.stat.${key}` and `ui.overlay.tag.${tag}`) are
checked from the table's side: each prefix a script builds has words in the table."""

from __future__ import annotations

import json
import re
from pathlib import Path

from risk_client.text import Renderer

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "service" / "risk_service" / "web"
TABLE = ROOT / "service" / "rules" / "risk_rules" / "text" / "en.json"

CALL = re.compile(r"""\b(?:ui|panelText)\(\s*["']([A-Za-z0-9_.]+)["']""")
BUILT = re.compile(r"""\bui\(\s*`(ui\.[A-Za-z0-9_.]+\.)\$\{""")


def _scripts() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(WEB.glob("*.js"))
            if p.name not in {"text.js", "protobuf.js"}}


def test_every_key_the_pages_use_has_words() -> None:
    words = json.loads(TABLE.read_text(encoding="utf-8"))["words"]
    used = {(name, key) for name, source in _scripts().items() for key in CALL.findall(source)}
    # the pages moved to the table all read it
    pages = {name for name, _ in used}
    assert {"mygames.js", "host.js", "leaderboard.js", "playnow.js", "event.js", "overlay.js",
            "game.js"} <= pages
    missing = sorted(f"{name}: {key}" for name, key in used if key not in words)
    assert not missing, f"keys with no words in en.json: {missing}"
    built = {prefix for source in _scripts().values() for prefix in BUILT.findall(source)}
    assert built, "the overlay builds its stat and tag keys"
    for prefix in built:
        assert any(key.startswith(prefix) for key in words), f"no words start {prefix}"


def test_page_words_render_whole() -> None:
    """Each page word, filled the way the scripts fill it (a number for a plural, a word for a
    select or a plain placeholder), reads as a sentence: no brace, no empty result."""
    words = json.loads(TABLE.read_text(encoding="utf-8"))["words"]
    prefixes = ("ui.me.", "ui.host.", "ui.leaderboard.", "ui.match.", "ui.event.", "ui.overlay.")
    page = {k: v for k, v in words.items() if k.startswith(prefixes)}
    assert len(page) > 150
    renderer = Renderer("en")
    for key, template in page.items():
        values: dict[str, object] = {}
        for name, kind in re.findall(r"\{(\w+)(?:,\s*(plural|select))?", template):
            values.setdefault(name, 2 if kind == "plural" else "word")
        text = renderer.fill(key, values)
        assert text.strip() and "{" not in text and "}" not in text, (key, text)
    # a choice and a count as the pages show them
    assert renderer.fill("ui.host.expiry", {"days": 7}) == "a week"
    assert renderer.fill("ui.host.expiry", {"days": 1}) == "1 day"
    assert renderer.fill("ui.leaderboard.place", {"rank": 22, "ordinal": "two"}) == "22nd"
    assert renderer.fill("ui.me.youHostOpen", {"n": 1}) == "you host it · 1 invitation open"
