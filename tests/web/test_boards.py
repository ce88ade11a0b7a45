"""Every variant's play view draws its whole board from DescribeVariant: as many regions as
the variant's map has, each where the map puts it, with the game's pieces on them; a
screenshot of each (and of one on a phone's screen) is kept in tests/web/artifacts/."""

from __future__ import annotations

from playwright.async_api import Page

from risk_proto.risk.v1 import common_pb2, service_pb2_grpc, variant_pb2
from tests.web.conftest import ARTIFACTS, Pages
from tests.web.driver import create_game, eventually


async def test_every_variant_draws_its_whole_board(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub,
) -> None:
    """A game of each served variant, every seat held by the page (so it starts at once):
    the number of drawn regions equals the map's, in the map's order and names, and the page
    offers the seat whose decision it is a move."""
    ARTIFACTS.mkdir(exist_ok=True)
    served = (await stub.ListVariants(variant_pb2.ListVariantsRequest())).variants
    assert {v.name for v in served} >= {"classic", "deep_space", "strike", "legacy"}
    page = await pages.open()
    for variant in served:
        described = (await stub.DescribeVariant(
            variant_pb2.DescribeVariantRequest(name=variant.name))).variant
        await create_game(page, variant.name, "all")
        await page.wait_for_selector("#game-status")
        regions = page.locator("svg.board [data-region]")
        assert await regions.count() == len(described.map.regions), variant.name
        names = await page.eval_on_selector_all("svg.board [data-region]",
                                                "els => els.map(e => e.dataset.name)")
        assert names == [r.name for r in described.map.regions], variant.name
        await page.locator("#choices button.act, svg.board .region.clickable").first.wait_for()
        await page.screenshot(path=str(ARTIFACTS / f"{variant.name}.png"), full_page=True)

    # the lobby lists them all, and filters them by variant and by status
    await page.goto(page.url.split("#")[0] + "#/")
    rows = page.locator("tr[data-game]")
    await rows.nth(len(served) - 1).wait_for()
    assert await rows.count() == len(served)
    for variant in served:
        await page.select_option("[name=filter_variant]", common_pb2.Variant.Name(variant.variant))
        await eventually(lambda title=variant.title: _listed(page, [title]), 10, variant.name)
    await page.select_option("[name=filter_variant]", "")
    await page.select_option("[name=filter_status]", "GAME_STATUS_FINISHED")
    await eventually(lambda: _listed(page, []), 10, "no finished game")
    await page.select_option("[name=filter_status]", "GAME_STATUS_ACTIVE")
    titles = sorted(v.title for v in served)
    await eventually(lambda: _listed(page, titles), 10, "every active game")

    phone = await pages.open(width=390, height=844)
    await create_game(phone, "classic", "all")
    await phone.wait_for_selector("svg.board [data-region]")
    # the page fits the phone's width; the board keeps a size a finger can hit and scrolls
    # sideways in its own box
    assert await phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = await phone.locator(".board-box").bounding_box()
    board = await phone.locator("svg.board").bounding_box()
    assert box is not None and board is not None and box["width"] <= 390 < board["width"]
    await phone.screenshot(path=str(ARTIFACTS / "classic-phone.png"), full_page=True)


async def _listed(page: Page, titles: list[str]) -> bool:
    """The lobby lists exactly games of these variants (by title), in any order."""
    shown = await page.eval_on_selector_all("tr[data-game] td:nth-child(2)",
                                            "tds => tds.map(td => td.textContent)")
    return sorted(shown) == sorted(titles)
