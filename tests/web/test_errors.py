"""Errors reach the user as readable messages on the page (an illegal click, a stale version,
a lost connection), never as console errors: the `pages` fixture fails the test on any.

The tests share one service (`shared_service`), each with a game of its own; the one that stops
the service starts its own."""

from __future__ import annotations

from playwright.async_api import Page, Route

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceProcess
from tests.serving import module_service, shared_unless
from tests.web.conftest import Pages
from tests.web.driver import create_game, eventually, move_by_grpc, notice, page_tokens

OPTIONS = {"players": "2", "setup": "CLASSIC_SETUP_MODE_RANDOM_DEAL", "auto_place": "true"}
# the tests that stop the service: each has a fresh one of its own
OWN_SERVICE = {"test_a_lost_connection_is_explained_and_recovered"}

# one service with its HTTP port for the module's other tests
shared_service = module_service("web-errors", http=True)

http_service = shared_unless(OWN_SERVICE, "shared_service", RISK_KEY_PREFIX="web-errors-own")


async def test_an_illegal_click_is_explained(pages: Pages) -> None:
    """Clicking a territory no legal action names (an opponent's, while reinforcing) says so
    in words and submits nothing."""
    page = await pages.open()
    await create_game(page, "classic", "all", **OPTIONS)
    await page.locator("svg.board .region.clickable").first.wait_for()
    version = await page.locator("#game-version").inner_text()
    other = page.locator("svg.board .region:not(.clickable)").first
    name = await other.get_attribute("data-name")
    await other.click()
    assert f"no legal move with {name} now" in await notice(page)
    assert await page.locator("#game-version").inner_text() == version


async def test_a_stale_version_is_explained_and_the_page_catches_up(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub,
) -> None:
    """The game moves on (another client of the same seat) while the page cannot hear it:
    its move is refused as stale, the page says so and shows the game's version again."""
    page = await pages.open()
    held: list[Route] = []

    async def hold(route: Route) -> None:  # the page's event stream never gets an answer
        held.append(route)
    await page.route("**/StreamEvents", hold)
    # its WebSocket neither: the page talks to a stand-in that never answers
    await page.route_web_socket("**/StreamEvents", lambda socket: None)
    game_id = await create_game(page, "classic", "all", **OPTIONS)
    await page.locator("svg.board .region.clickable").first.wait_for()
    seen = await page.locator("#game-version").inner_text()
    assert await move_by_grpc(stub, game_id, await page_tokens(page, game_id))
    await page.locator("svg.board .region.clickable").first.click()
    await page.locator("#choices button.act").first.click()
    await eventually(lambda: _says(page, "The game moved on"), 10, "the stale-version message")
    current = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.version
    assert int(seen) < current
    await eventually(lambda: _shows_version(page, current), 10, "the page to catch up")
    for route in held:
        await route.abort()


async def test_a_lost_connection_is_explained_and_recovered(
    pages: Pages, http_service: ServiceProcess,
) -> None:
    """With the service stopped the page says the connection is lost (and a click says the
    service cannot be reached); once it is back the page says it reconnected and plays on."""
    page = await pages.open()
    await create_game(page, "classic", "all", **OPTIONS)
    await page.locator("svg.board .region.clickable").first.wait_for()
    with pages.outage():
        http_service.stop()
        await eventually(lambda: _says(page, "connection to the service was lost"), 15,
                         "the lost-connection message")
        assert await page.locator("#connection").inner_text() == "reconnecting…"
        await page.locator("svg.board .region.clickable").first.click()
        await page.locator("#choices button.act").first.click()
        await eventually(lambda: _says(page, "cannot reach the service"), 10,
                         "the unreachable message")
        http_service.start()
        await eventually(lambda: _says(page, "reconnected"), 20, "the reconnected message")
    # the refused move is still selected: it goes through now
    version = await page.locator("#game-version").inner_text()
    assert await page.locator("#clear").count() == 1
    await page.locator("#choices button.act").first.click()
    await eventually(lambda: _moved_on(page, version), 10, "a move after the outage")


async def _says(page: Page, text: str) -> bool:
    return text in await notice(page)


async def _shows_version(page: Page, version: int) -> bool:
    return await page.locator("#game-version").inner_text() == str(version)


async def _moved_on(page: Page, before: str) -> bool:
    return await page.locator("#game-version").inner_text() != before
