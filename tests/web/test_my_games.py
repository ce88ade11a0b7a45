"""The player on a phone (390x844, a common phone's CSS viewport): sign in as a player the
service issues, create a correspondence game whose seats are bound to players, see it on "my
games" with whose turn it is and the deadline (the player's own turn highlighted), go on
vacation from the game's page, and take a seat from an invitation link. Every page fits the
phone's width (no sideways scroll) and every tap target is at least 44 px high. Screenshots
go to docs/web/, which docs/web.md shows."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TypedDict

from playwright.async_api import Locator, Page

from risk_proto.risk.v1 import player_games_pb2, players_pb2, service_pb2, service_pb2_grpc
from tests.web.conftest import Pages
from tests.web.driver import eventually, move_by_grpc
from tests.web.shots import shot


class Viewport(TypedDict):
    width: int
    height: int


PHONE: Viewport = {"width": 390, "height": 844}
TAP_PX = 44


async def fits_the_phone(page: Page) -> None:
    """No sideways scroll, and every visible button, link-button and field is a tap target
    of at least 44 px."""
    overflow = await page.evaluate(
        "() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"
    small = await page.evaluate(
        """(least) => [...document.querySelectorAll(
             'header a, main button, main a.button, main input, main select')]
           .filter((e) => e.offsetParent !== null)
           .map((e) => [e.id || e.className || e.tagName, e.getBoundingClientRect().height])
           .filter(([, h]) => h < least)""", TAP_PX)
    assert not small, f"tap targets under {TAP_PX} px: {small}"


async def my_game_card(page: Page, game_id: str) -> Locator:
    """The game's card on "my games", refreshing the list until it is there (the list is an
    index the service updates just after the commit that seats the player)."""
    await page.goto(page.url.split("#")[0] + "#/me")
    await page.wait_for_selector("#refresh")
    card = page.locator(f"#my-games li[data-game='{game_id}']")

    async def listed() -> bool:
        if await card.count():
            return True
        await page.click("#refresh")
        return False
    await eventually(listed, 20, f"game {game_id} on my games")
    return card


async def issued_player(stub: service_pb2_grpc.RiskServiceStub
                        ) -> players_pb2.IssuePlayerTokenResponse:
    reply: players_pb2.IssuePlayerTokenResponse = await stub.IssuePlayerToken(
        players_pb2.IssuePlayerTokenRequest())
    return reply


async def test_player_signs_in_and_sees_a_correspondence_game_on_a_phone(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, tmp_path: Path,
) -> None:
    """Signed in on a phone, a player creates a 2-seat correspondence game bound to themself
    and another player; "my games" lists it with whose turn and the deadline, highlighted
    when the turn is theirs; the game's page sends them on vacation."""
    page = await pages.open("/#/me", **PHONE)
    await page.wait_for_selector("#sign-in")
    await fits_the_phone(page)
    await page.click("#sign-in-new")
    await page.wait_for_selector("#player-id")
    me = await page.locator("#player-id").inner_text()
    assert me.startswith("p-") and await page.locator("#signed-in").inner_text() == me
    other = await issued_player(stub)

    await page.goto(page.url.split("#")[0] + "#/")
    await page.wait_for_selector("#create")
    await page.select_option("#create [name=variant]", "classic")
    await page.fill("#create [name=players]", "2")
    await page.fill("#create [name=seat_players]", f"{me}, {other.player_id}")
    await page.fill("#create [name=turn_length]", "48")
    await page.fill("#create [name=vacation_days]", "3")
    await page.select_option("#create [name=seating]", "none")
    await page.click("#create button[type=submit]")
    await page.wait_for_url("**/#/play/*")
    game_id = page.url.rsplit("/", 1)[1]
    await page.wait_for_selector("#vacation:not([hidden]) #start-vacation")
    await fits_the_phone(page)

    card = await my_game_card(page, game_id)
    text = await card.inner_text()
    assert re.search(r"Deadline .+ \(in (2 days|1 day 23 h)", text), text
    summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    mine = summary.decision.seats[0] == 0
    assert ("Your turn" in text) == mine and ("Waiting for" in text) != mine, text
    assert await card.get_attribute("data-your-turn") == ("yes" if mine else "no")
    assert ("your-turn" in (await card.get_attribute("class") or "")) == mine
    assert "-1" not in text and "GAME_STATUS" not in text, text
    await fits_the_phone(page)
    await page.screenshot(path=shot("my-games-phone.png", tmp_path), full_page=True)

    await card.locator("a.play").click()
    await page.wait_for_url(f"**/#/play/{game_id}")
    await page.wait_for_selector("#start-vacation")
    await page.click("#start-vacation")

    async def away() -> bool:
        return "On vacation until" in await page.locator("#vacation-state").inner_text()
    await eventually(away, 10, "the vacation to show")
    assert "2 days of vacation left" in await page.locator("#vacation-state").inner_text()
    await fits_the_phone(page)


async def test_an_invitation_link_takes_the_seat_on_a_phone(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, tmp_path: Path,
) -> None:
    """A host's open-seat link, opened on a phone: the player signs in, takes the seat with
    one tap, plays it, and the game is on their "my games"."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options={"classic": {"players": 2}}))
    game_id = created.game.game_id
    host = (("authorization", f"Bearer {created.host_token}"),)
    link: player_games_pb2.Invitation = await stub.CreateInvitation(
        player_games_pb2.CreateInvitationRequest(game_id=game_id, seat=1, link=True),
        metadata=host)
    page = await pages.open(f"/#/invite/{link.code}", **PHONE)
    await page.wait_for_selector("#sign-in")
    await page.click("#sign-in-new")
    await page.click("#accept-invitation")
    await page.wait_for_url(f"**/#/play/{game_id}")
    card = await my_game_card(page, game_id)
    assert "1 of 2 seats taken" in await card.inner_text()
    await fits_the_phone(page)
    await page.screenshot(path=shot("invitation-phone.png", tmp_path), full_page=True)


async def test_a_tap_survives_the_list_being_read_again_under_the_finger(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub,
) -> None:
    """"My games" reads its lists again whenever the player's stream has news, and on a tap
    of "Refresh". A read that changed nothing must leave the cards as they are: a card drawn
    anew between a finger's press and its release makes the press and the release land on
    different elements, and the browser then sends no click at all (the tap on "Open" did
    nothing; seen in CI)."""
    page = await pages.open("/#/me", **PHONE)
    await page.click("#sign-in-new")
    await page.wait_for_selector("#player-id")
    me = await page.locator("#player-id").inner_text()
    other = await issued_player(stub)
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options={"classic": {"players": 2}}, seat_players=[me, other.player_id]))
    game_id = created.game.game_id
    card = await my_game_card(page, game_id)
    play = card.locator("a.play")
    box = await play.bounding_box()
    assert box is not None
    await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await page.mouse.down()
    reads = int(await page.locator("main").get_attribute("data-loaded") or 0)
    await page.evaluate("() => document.querySelector('#refresh').click()")

    async def read_again() -> bool:
        return int(await page.locator("main").get_attribute("data-loaded") or 0) > reads
    await eventually(read_again, 10, "the lists to be read again")
    await page.mouse.up()
    await page.wait_for_url(f"**/#/play/{game_id}", timeout=10_000)


async def test_what_a_player_typed_survives_an_event_on_the_game_page(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub,
) -> None:
    """The game's page draws its parts again at every event. A part that would show the same
    keeps its elements: the days a player typed for their vacation are still there after a
    move arrives (here the game's next move, made over gRPC), and the vacation taken is the
    one they typed."""
    page = await pages.open("/#/me", **PHONE)
    await page.click("#sign-in-new")
    await page.wait_for_selector("#player-id")
    me = await page.locator("#player-id").inner_text()
    mine = await page.evaluate("() => JSON.parse(localStorage.getItem('risk.player.v1')).token")
    other = await issued_player(stub)
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options={"classic": {"players": 2}}, seat_players=[me, other.player_id],
        clock={"turn_seconds": 48 * 3600, "vacation_days": 3}))
    game_id = created.game.game_id
    await page.goto(page.url.split("#")[0] + f"#/play/{game_id}")
    await page.wait_for_selector("#vacation:not([hidden]) #start-vacation")
    version = await page.locator("#game-version").inner_text()
    await page.fill("#vacation [name=vacation_days]", "2")
    assert await move_by_grpc(stub, game_id, {0: mine, 1: other.token})

    async def drawn_again() -> bool:
        return await page.locator("#game-version").inner_text() != version
    await eventually(drawn_again, 10, "the page to show the move")
    assert await page.input_value("#vacation [name=vacation_days]") == "2"
    await page.click("#start-vacation")

    async def away() -> bool:
        return "On vacation until" in await page.locator("#vacation-state").inner_text()
    await eventually(away, 10, "the vacation to show")
    assert "1 day of vacation left" in await page.locator("#vacation-state").inner_text()
