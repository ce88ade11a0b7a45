"""Response windows in the play view: in Strike, an attack opens a window in which the seats
answer out of turn; the page shows the window, acts for the seat asked now and offers that
seat's answers, and an answer moves the game on."""

from __future__ import annotations

import asyncio
import re

from tests.web.conftest import Pages
from tests.web.driver import Player, create_game, eventually


async def test_strike_window_offers_the_asked_seat_its_answers(pages: Pages) -> None:
    """Both seats on one page: play until a window opens; it names the seat asked now, the
    page acts for that seat (not only the seat whose turn it is), and its answer is taken."""
    page = await pages.open()
    await create_game(page, "strike", "all", players="2")
    player = Player(page)
    for _ in range(60):
        if await page.locator("#windows").is_visible():
            break
        if not await player.step():
            await asyncio.sleep(0.1)
    window = await page.locator("#windows").inner_text()
    asked = re.search(r"asked now: (seat \d)", window)
    assert asked, window
    assert f"acting as {asked.group(1)}" in await page.locator("#choices").inner_text()
    kinds = await page.eval_on_selector_all("#choices button.act",
                                            "els => els.map(e => e.dataset.kind)")
    assert kinds, "the asked seat is offered its answers"
    before = await page.locator("#game-version").inner_text()
    await page.locator("#choices button.act").last.click()

    async def answered() -> bool:
        return await page.locator("#game-version").inner_text() != before
    await eventually(answered, 10, "the answer to be taken")
