"""The host side of players in the browser (issue 34, the web app), by clicking and typing only:
player A signs in (on a phone, in a time zone of their own), creates a three-seat
correspondence game whose first seat is theirs, invites player B by id and makes an open-seat
link on the host's page (#/host/GAME); B, on a phone, sees the invitation on "my games" and
accepts it; A invites player D to the last seat as well and withdraws that invitation, and it
leaves D's "my games" by itself (the page follows D's stream); player C, on a phone, opens the
link and takes the last seat; the game starts, and A's "my games" shows whose turn it is and
the deadline in A's own time zone. The service is read over gRPC only to check what the pages
show. Every page's console stays free of errors (the `pages` fixture), and the phone's pages
never scroll sideways (and their tap targets are at least 44 px). Screenshots go to docs/web/,
which docs/web.md shows."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from playwright.async_api import Locator, Page

from risk_proto.risk.v1 import (
    lifecycle_pb2,
    player_games_pb2,
    service_pb2,
    service_pb2_grpc,
    variant_pb2,
)
from tests.web.conftest import Pages
from tests.web.driver import eventually
from tests.web.shots import shot
from tests.web.test_my_games import PHONE, fits_the_phone, my_game_card

# a zone whose offset is not whole hours: a deadline shown in UTC (or rounded) cannot pass
ZONE = "Asia/Kathmandu"
DAY_S = 86400


async def sign_in(page: Page) -> str:
    """Sign in as a new player where the page asks; the player id its header shows."""
    await page.wait_for_selector("#sign-in-new")
    await page.click("#sign-in-new")
    await page.wait_for_selector("#signed-in:not([hidden])")
    return await page.locator("#signed-in").inner_text()


async def shown(page: Page, invitee: str) -> bool:
    return bool(await host_card(page, invitee))


async def host_card(page: Page, invitee: str) -> str:
    """The invitation id of the host page's card naming `invitee` ("" for the link)."""
    cards = page.locator("#game-invitations li[data-invitation]")
    for n in range(await cards.count()):
        card = cards.nth(n)
        text = await card.inner_text()
        if (invitee and invitee in text) or (not invitee and "anyone with the link" in text):
            return await card.get_attribute("data-invitation") or ""
    return ""


async def test_a_host_invites_by_id_and_by_link_and_the_game_starts(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, tmp_path: Path,
) -> None:
    host = await pages.open("/#/me", **PHONE, timezone_id=ZONE, locale="en-GB")
    ada = await sign_in(host)
    guest = await pages.open("/#/me", **PHONE)
    bea = await sign_in(guest)
    other = await pages.open("/#/me")
    dan = await sign_in(other)

    # A creates the game: three seats, seat 0 theirs, a turn of 2 days, 3 days of vacation,
    # the bot after 2 missed turns
    await host.goto(host.url.split("#")[0] + "#/")
    await host.wait_for_selector("#create")
    await host.select_option("#create [name=variant]", "classic")
    await host.fill("#create [name=players]", "3")
    await host.fill("#create [name=display_name]", "Ada")
    await host.fill("#create [name=turn_length]", "2")
    await host.select_option("#create [name=turn_unit]", label="days")
    await host.fill("#create [name=vacation_days]", "3")
    await host.fill("#create [name=missed_turns_limit]", "2")
    policies = await host.locator("#create [name=on_missed_turns] option").all_inner_texts()
    assert policies and not any("MISSED_TURN" in p or "_" in p for p in policies), policies
    (bot,) = [p for p in policies if "bot" in p]
    await host.select_option("#create [name=on_missed_turns]", label=bot)
    await host.select_option("#create [name=seating]", "one")
    await fits_the_phone(host)
    await host.click("#create button[type=submit]")
    await host.wait_for_url("**/#/host/*")
    game_id = host.url.rsplit("/", 1)[1]
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    assert (game.clock.turn_seconds, game.clock.vacation_days, game.clock.missed_turns_limit,
            game.clock.on_missed_turns) == (2 * DAY_S, 3, 2, lifecycle_pb2.MISSED_TURN_POLICY_BOT)
    assert [(s.taken, s.player_id) for s in game.seats] == [(True, ada), (False, ""), (False, "")]
    assert game.seats[0].display_name == "Ada"
    await host.wait_for_selector("#host-seats li[data-seat='0'][data-taken=yes]")

    # B by id to seat 1; a link to seat 2
    await host.fill("#invite-player [name=invitee]", bea)
    await host.select_option("#invite-player [name=seat]", "1")
    await host.click("#invite-player button[type=submit]")
    await eventually(lambda: shown(host, bea), 10, "B's invitation on the host's page")
    await host.select_option("#make-link [name=seat]", "2")
    await host.click("#make-link button[type=submit]")
    await host.wait_for_selector("#invitation-link")
    link = await host.input_value("#invitation-link")
    assert re.fullmatch(re.escape(pages.base_url) + r"/#/invite/" + game_id + r"-[0-9a-f-]+", link)
    await eventually(lambda: shown(host, ""), 10, "the link on the host's page")
    await host.click("#copy-link")  # copied, or selected for the person to copy: either way said
    await eventually(lambda: host.locator("#notice").is_visible(), 5, "the copy's notice")
    await fits_the_phone(host)
    await host.screenshot(path=shot("host-invitations-phone.png", tmp_path), full_page=True)

    # B, on a phone: the invitation in words on "my games", accepted with a name
    invitation = guest.locator(f"#invitations li[data-game='{game_id}']")

    async def invited() -> bool:
        if await invitation.count():
            return True
        await guest.click("#refresh")
        return False
    await eventually(invited, 15, "B's invitation on B's my games")
    words = await invitation.inner_text()
    title = next(v.title for v in (await stub.ListVariants(variant_pb2.ListVariantsRequest())
                                   ).variants if v.name == "classic")
    assert f"Ada invites you to seat 1 of a {title} game" in words, words
    assert "1 of 3 seats taken" in words and game_id not in words, words
    await fits_the_phone(guest)
    await guest.screenshot(path=shot("my-games-invitation-phone.png", tmp_path), full_page=True)
    await invitation.locator("[name=display_name]").fill("Bea")
    await invitation.locator("button.accept").click()
    await guest.wait_for_url(f"**/#/play/{game_id}")
    # the host's page follows the game: seat 1 is Bea's, the invitation accepted
    await host.wait_for_selector("#host-seats li[data-seat='1'][data-taken=yes]", timeout=15000)
    bea_id = await host_card(host, bea)
    bea_card = host.locator(f"#game-invitations li[data-invitation='{bea_id}']")
    await eventually(lambda: _has(bea_card, "accepted by Bea"), 10, "accepted by Bea")

    # D to the same seat as the link, then withdrawn: it leaves D's page without a click
    await host.fill("#invite-player [name=invitee]", dan)
    await host.select_option("#invite-player [name=seat]", "2")
    await host.click("#invite-player button[type=submit]")
    await eventually(lambda: shown(host, dan), 10, "D's invitation on the host's page")
    offered = other.locator(f"#invitations li[data-game='{game_id}']")
    async def offered_to_dan() -> bool:
        return bool(await offered.count())
    await eventually(offered_to_dan, 15, "D's invitation on D's my games (followed live)")
    dan_id = await host_card(host, dan)
    dan_card = host.locator(f"#game-invitations li[data-invitation='{dan_id}']")
    await dan_card.locator("button.revoke").click()
    await eventually(lambda: _has(dan_card, "withdrawn"), 10, "withdrawn on the host's page")
    assert not await dan_card.locator("button.revoke").count()

    async def gone() -> bool:
        return not await offered.count()
    await eventually(gone, 15, "the withdrawn invitation to leave D's my games")
    assert await other.locator("#invitations-box").is_hidden()

    # C, on a phone, opens the link: signs in, takes the last seat with a name
    third = await pages.open(link.removeprefix(pages.base_url), **PHONE)
    cy = await sign_in(third)
    await third.wait_for_selector("#accept-invitation")
    assert f"{title} game · 2 of 3 seats taken" in await third.locator("#invited-game").inner_text()
    await fits_the_phone(third)
    await third.fill("main [name=display_name]", "Cy")
    await third.click("#accept-invitation")
    await third.wait_for_url(f"**/#/play/{game_id}")

    # the game starts; the host's page says so and offers no more invitations
    await host.wait_for_selector("#host-started:not([hidden])", timeout=15000)
    assert await host.locator("#host-forms").is_hidden()
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    assert game.status == service_pb2.GAME_STATUS_ACTIVE
    assert [(s.player_id, s.display_name) for s in game.seats] == [
        (ada, "Ada"), (bea, "Bea"), (cy, "Cy")]
    listed = await stub.ListInvitations(
        player_games_pb2.ListInvitationsRequest(game_id=game_id),
        metadata=(("authorization", f"Bearer {await _token(host)}"),))
    states = {i.invitee or "link": i.state for i in listed.invitations}
    assert states == {bea: player_games_pb2.INVITATION_STATE_ACCEPTED,
                      "link": player_games_pb2.INVITATION_STATE_ACCEPTED,
                      dan: player_games_pb2.INVITATION_STATE_REVOKED}, states

    # A's my games: whose turn, and the deadline in A's time zone
    card = await my_game_card(host, game_id)

    async def active() -> bool:
        if await card.get_attribute("data-status") == "active":
            return True
        await host.click("#refresh")
        return False
    await eventually(active, 15, "the game active on A's my games")
    card = host.locator(f"#my-games li[data-game='{game_id}']")
    text = await card.inner_text()
    summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    deciding = [summary.seats[s].display_name for s in summary.decision.seats]
    if 0 in summary.decision.seats:
        assert "Your turn" in text and await card.get_attribute("data-your-turn") == "yes", text
    else:
        assert f"Waiting for {', '.join(deciding)}" in text, text
    assert summary.deadline_ms, "a correspondence turn has a deadline"
    local = datetime.fromtimestamp(summary.deadline_ms / 1000, UTC).astimezone(ZoneInfo(ZONE))
    assert f"Deadline {local:%a} {local.day} {local:%b}, {local:%H:%M}" in text, (text, local)
    assert "GAME_STATUS" not in text and "-1" not in text, text

    # B's my games on the phone: the started game, nothing scrolls sideways
    await my_game_card(guest, game_id)
    await fits_the_phone(guest)


async def _has(locator: Locator, words: str) -> bool:
    return words in await locator.inner_text()


async def _token(page: Page) -> str:
    token: str = await page.evaluate(
        "() => JSON.parse(localStorage.getItem('risk.player.v1')).token")
    return token



async def test_the_forms_say_what_is_wrong_and_send_nothing_wrong(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub,
) -> None:
    """A turn deadline out of range, or vacation without a turn deadline, is said on the page
    and no game is created; inviting a player who holds a seat already is the service's
    refusal in words, and the host's page still lists nothing new."""
    page = await pages.open("/#/me")
    me = await sign_in(page)
    await page.goto(page.url.split("#")[0] + "#/")
    await page.wait_for_selector("#create")
    await page.fill("#create [name=players]", "2")
    await page.fill("#create [name=turn_length]", "31")
    await page.select_option("#create [name=turn_unit]", label="days")
    await page.click("#create button[type=submit]")
    await eventually(lambda: _said(page, "the turn deadline is 1 hour to 30 days"), 5,
                     "the range on the notice line")
    await page.fill("#create [name=turn_length]", "")
    await page.fill("#create [name=vacation_days]", "2")
    await page.click("#create button[type=submit]")
    await eventually(lambda: _said(page, "need a turn deadline"), 5, "vacation needs a turn")
    assert pages.posts(page, "CreateGame") == 0
    listed = await stub.ListGames(service_pb2.ListGamesRequest())
    assert not listed.games

    await page.fill("#create [name=vacation_days]", "")
    await page.click("#create button[type=submit]")
    await page.wait_for_url("**/#/host/*")
    game_id = page.url.rsplit("/", 1)[1]
    await page.wait_for_selector("#invite-player")
    await page.fill("#invite-player [name=invitee]", me)
    await page.click("#invite-player button[type=submit]")
    await eventually(lambda: _said(page, "holds a seat of this game already"), 5,
                     "the refusal in words")
    assert await page.input_value("#invite-player [name=invitee]") == me  # kept to correct
    listed_invitations = await stub.ListInvitations(
        player_games_pb2.ListInvitationsRequest(game_id=game_id),
        metadata=(("authorization", f"Bearer {await _token(page)}"),))
    assert not listed_invitations.invitations
    assert await page.locator("#game-invitations li[data-invitation]").count() == 0


async def _said(page: Page, words: str) -> bool:
    box = page.locator("#notice")
    return await box.is_visible() and words in await box.inner_text()
