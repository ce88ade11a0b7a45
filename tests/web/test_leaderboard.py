"""The leaderboard in the browser (#/leaderboard, docs/ratings.md), on a phone: three players
finish a rated game (made and resigned over gRPC); the winner signs in on the page with their
player token and opens the leaderboard: the players in the game's order, the winner's row
marked, their own rating with the game in its history, "Around me" keeping their row; the
page fits the phone (no sideways scroll, 44 px tap targets) and logs no console error."""

from __future__ import annotations

from playwright.async_api import Page

from risk_proto.risk.v1 import (
    classic_pb2,
    common_pb2,
    game_pb2,
    players_pb2,
    ratings_pb2,
    service_pb2,
    service_pb2_grpc,
)
from tests.web.conftest import Pages
from tests.web.driver import eventually
from tests.web.test_my_games import PHONE, fits_the_phone


async def rated_game(stub: service_pb2_grpc.RiskServiceStub) -> tuple[list[str], str, str]:
    """Three players' rated game, seat 0 the winner: (ids, the winner's token, the game)."""
    issued = [await stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest())
              for _ in range(3)]
    ids = [i.player_id for i in issued]
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(players=3)),
        seed=3, rated=True, seat_players=ids),
        metadata=[("authorization", f"Bearer {issued[0].token}")])
    game_id = created.game.game_id
    for loser in (2, 1):
        await stub.Resign(service_pb2.ResignRequest(game_id=game_id),
                          metadata=[("authorization", f"Bearer {issued[loser].token}")])

    async def rated() -> bool:
        reply = await stub.GetRating(ratings_pb2.GetRatingRequest(
            player_id=ids[2], variant=common_pb2.VARIANT_CLASSIC))
        return reply.rating.games == 1
    await eventually(rated, 20, "the game's ratings")
    return ids, issued[0].token, game_id


async def rows(page: Page) -> list[str]:
    return [await r.get_attribute("data-player") or ""
            for r in await page.locator("#board-rows tr").all()]


async def test_the_leaderboard_shows_the_board_and_the_players_own_rating(
        pages: Pages, stub: service_pb2_grpc.RiskServiceStub) -> None:
    """The board in order with the winner marked, their rating and the game in its history."""
    ids, token, game_id = await rated_game(stub)
    page = await pages.open("/#/me", width=PHONE["width"], height=PHONE["height"])
    await page.wait_for_selector("#paste-token")
    await page.fill("#paste-token input[name=player_token]", token)
    await page.click("#paste-token button")
    await page.wait_for_selector("#signed-in:not([hidden])")
    await page.click("#nav-leaderboard")
    await page.wait_for_selector("#board-rows tr")
    assert await rows(page) == ids
    assert "3 rated players, season 1" in await page.locator("#board-summary").inner_text()
    marked = page.locator("#board-rows tr.mine")
    assert await marked.get_attribute("data-player") == ids[0]
    assert "(you)" in await marked.inner_text()
    await page.wait_for_selector("#my-rating")
    mine = await page.locator("#my-rating").inner_text()
    assert "1 game" in mine and "1st on the board" in mine and "provisional" in mine
    assert f"1st of 3 in {game_id}" in mine
    await page.click("#board-around")

    async def around() -> bool:
        return ids[0] in await rows(page)
    await eventually(around, 10, "the page around the player")
    await fits_the_phone(page)
