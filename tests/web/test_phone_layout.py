"""The web app on a phone (issue 38 item 3): every page the accessibility audit visits, drawn at
390x844 CSS pixels (a common phone's viewport), scrolls no way but down, and every tap target
is at least 44 px each way (WCAG 2.5.5's target size; Apple's guideline): buttons, fields,
link-buttons, the header's links and the board's regions. A link inside a sentence is exempt,
as WCAG exempts inline targets. The overlay is left out: it is a 1920x1080 browser source for
streaming software, not a page a person opens on a phone."""

from __future__ import annotations

from pathlib import Path

from tests.web.conftest import Pages
from tests.web.shots import shot
from tests.web.test_accessibility import Stub, tour

PHONE = {"width": 390, "height": 844}
TAP_PX = 44

# [what, width, height] of every visible tap target smaller than `least` px either way
_SMALL = """(least) => {
    const targets = [...document.querySelectorAll(
      "header a, button, a.button, input, select, textarea, svg.board .region .shape")];
    return targets.filter((e) => {
      const style = getComputedStyle(e);
      if (style.visibility === "hidden" || style.display === "none") return false;
      if (e.closest("[hidden]")) return false;
      const box = e.getBoundingClientRect();
      if (!box.width && !box.height) return false;
      return box.width < least - 0.5 || box.height < least - 0.5;
    }).map((e) => {
      const box = e.getBoundingClientRect();
      const name = e.closest("[data-region]")?.dataset.name || e.id || e.name ||
        e.textContent.trim().slice(0, 30) || e.className || e.tagName;
      return [`${e.tagName.toLowerCase()} ${name}`, Math.round(box.width),
        Math.round(box.height)];
    });
}"""


async def test_every_page_fits_a_phone(pages: Pages, stub: Stub, tmp_path: Path) -> None:
    """Each page at 390x844: no sideways scroll, and no tap target under 44 px."""
    problems: list[str] = []
    seen = []
    async for name, page in tour(pages, stub, **PHONE):
        if name == "overlay":
            continue
        seen.append(name)
        overflow = await page.evaluate(
            "() => document.documentElement.scrollWidth - window.innerWidth")
        if overflow > 0:
            problems.append(f"{name}: scrolls sideways by {overflow} px")
        small = await page.evaluate(_SMALL, TAP_PX)
        problems.extend(f"{name}: {what} is {w}x{h} px" for what, w, h in small)
        if name == "play classic":
            await page.screenshot(path=shot("phone-play-classic.png", tmp_path))
    assert len(seen) == 14, seen
    assert not problems, "on a 390x844 phone:\n" + "\n".join(problems)
