""""Play now" in the browser (#/match, docs/web.md): a player asks over gRPC for a classic
2-table; another, on a phone, signs in as a new player on the page, picks 2 seats and a name
and taps "Find a game": the page waits, then opens the game both are seated in. Asked again
for a table nobody else wants, the page says it is waiting and "Cancel" takes the request out
of its queue. The page fits the phone and logs no console error."""

from __future__ import annotations

import grpc
import pytest
from playwright.async_api import Page

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import bearer
from tests.service.test_matchmaking import MATCHED, ask, until_status
from tests.service.test_my_games import new_player
from tests.web import conftest as web
from tests.web.driver import eventually
from tests.web.test_my_games import PHONE, fits_the_phone

Pages = web.Pages
# the web tests' fixtures (a browser, a service with its HTTP port on a flushed Redis, pages,
# a stub), which live on the session's event loop (tests/chromium.py), as these tests must
browser, redis_client, http_service = web.browser, web.redis_client, web.http_service
pages, stub = web.pages, web.stub
pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _size_only(page: Page, size: int) -> None:
    for box in await page.locator("#match-sizes input[name=match_size]").all():
        if await box.get_attribute("value") == str(size):
            await box.check()
        else:
            await box.uncheck()


async def test_play_now_seats_the_player_and_opens_the_game(
        pages: Pages, stub: service_pb2_grpc.RiskServiceStub,
        http_service: ServiceProcess) -> None:
    """The phone's player is matched with the gRPC one and lands on the game; then a request
    that waits is cancelled from the page."""
    ann, ann_token = await new_player(stub)
    asked = await stub.RequestMatch(ask(sizes=[2], display_name="ann"),
                                    metadata=bearer(ann_token))
    page = await pages.open("/#/match", **PHONE)
    await page.click("#match-new-player")
    await page.wait_for_selector("#match-form")
    await fits_the_phone(page)
    await _size_only(page, 2)
    await page.fill("input[name=match_name]", "bea")
    await page.click("#match-find")

    async def in_the_game() -> bool:
        return (await page.evaluate("() => location.hash")).startswith("#/play/")
    await eventually(in_the_game, 30, "the page opening the matched game")
    game_id = (await page.evaluate("() => location.hash")).removeprefix("#/play/")
    async with grpc.aio.insecure_channel(http_service.target) as channel:
        ticket = await until_status(service_pb2_grpc.RiskServiceStub(channel), ann_token,
                                    asked.ticket_id, {MATCHED})
    assert ticket.game_id == game_id
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    assert game.status == service_pb2.GAME_STATUS_ACTIVE
    assert [(s.player_id == ann, s.display_name) for s in game.seats] == [
        (True, "ann"), (False, "bea")]
    assert game.seats[1].player_id

    await page.goto(page.url.split("#")[0] + "#/match")
    await page.wait_for_selector("#match-form")
    await _size_only(page, 5)
    await page.click("#match-find")
    await page.wait_for_selector("#match-waiting:not([hidden])")
    assert "waiting" in (await page.text_content("#match-status") or "")
    await fits_the_phone(page)
    await page.click("#match-cancel")
    await page.wait_for_selector("#match-form:not([hidden])")
    assert await page.text_content("#notice") == "Request cancelled."
