"""Resigning by clicking (asked first, then done), and the replay of a finished public game
opened by a spectator who holds no token (issue 38 item 2).

The tests share one service (`http_service`), each with games of its own, found by their ids."""

from __future__ import annotations

from pathlib import Path

from risk_client.text import Names, Renderer
from risk_proto.risk.v1 import service_pb2, service_pb2_grpc, variant_pb2
from risk_testing.rpc import bearer
from tests.service.finished_games import fast_options, finished_game
from tests.serving import module_service
from tests.web.conftest import Pages
from tests.web.driver import board_of, classic_board, drawn_board
from tests.web.shots import shot

# tests/web/conftest.py's `pages` and `stub` take this module-scoped one: one service with its
# HTTP port for the module (Redis is not flushed under it)
http_service = module_service("web-resign-replay", http=True)


async def test_resign_by_clicking_asks_first_then_leaves_the_game(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, tmp_path: Path,
) -> None:
    """Three seats, each on its own page: seat 0 clicks Resign, is asked, keeps playing the
    first time (nothing changes), then resigns; GetGame has seat 0 out and the game goes on,
    the page offers no more Resign; when seat 1 resigns too, seat 2 wins and both its page
    and GetGame say so."""
    options, seed = fast_options("classic")
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=options, seed=seed, issue_seat_tokens=True, seat_names=["Ada", "Bea", "Cy"]))
    game_id = created.game.game_id
    tokens = list(created.seat_tokens)
    assert len(tokens) == 3
    opened = []
    for seat, token in enumerate(tokens):
        page = await pages.open()
        await page.evaluate("([id, held]) => localStorage.setItem('risk.tokens.v1', "
                            "JSON.stringify({[id]: held}))",
                            [game_id, {"seats": {str(seat): token}}])
        await page.goto(page.url.split("#")[0] + f"#/play/{game_id}")
        await page.wait_for_selector("#resign:visible")
        opened.append(page)
    ada = opened[0]
    before = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.version
    await ada.click("#resign")
    assert await ada.locator("#resign-question").inner_text() == \
        "Resign from this game? You leave it for good and cannot come back."
    await ada.screenshot(path=shot("resign-confirm.png", tmp_path))
    await ada.click("#resign-no")
    assert await ada.locator("#resign").is_visible()
    assert (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.version == \
        before

    await ada.click("#resign")
    await ada.click("#resign-yes")
    await ada.wait_for_selector("#resign-box", state="hidden")
    assert await ada.locator("#notice").inner_text() == "You resigned"
    seen = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
    assert seen.game.status == service_pb2.GAME_STATUS_ACTIVE
    assert seen.board.classic.eliminated[0]
    await ada.wait_for_selector("#totals .seat-totals[data-seat='0'].out")

    bea = opened[1]
    await bea.click("#resign")
    await bea.click("#resign-yes")
    cy = opened[2]
    await cy.wait_for_selector("#outcome")
    final = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
    assert final.game.status == service_pb2.GAME_STATUS_FINISHED
    assert final.game.outcome.winner == 2
    assert await cy.locator("#outcome").inner_text() == \
        "Game over: you won as everyone else resigned; ranking: you, Bea and Ada"
    assert await cy.locator("#resign-box").is_hidden()


async def test_a_spectator_replays_a_finished_public_game(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, tmp_path: Path,
) -> None:
    """A finished game of each variant, opened at #/replay/GAME by a page holding no token
    (the lobby offers "replay" to anyone): its events come from the game's stream as a
    spectator saw them, every seq once; the last step's board is GetGame's; a middle step's
    board is GetGame's at that step's version."""
    classic = await finished_game(stub, "classic")
    page = await pages.open("/#/")
    await page.select_option("[name=filter_status]", "GAME_STATUS_FINISHED")
    row = page.locator(f"tr[data-game='{classic.game_id}']")
    await row.locator("a.replay").click()
    await page.wait_for_url(f"**/#/replay/{classic.game_id}")
    final = await stub.GetGame(service_pb2.GetGameRequest(game_id=classic.game_id))
    events = final.game.last_seq
    await page.wait_for_selector(f"#step:text-is('{events} / {events}')")
    assert await page.locator("#main").get_attribute("data-replay-source") == "stream"
    await page.wait_for_selector(f"#main[data-drawn='{events}']")
    seqs = await page.eval_on_selector_all("#log li", "lis => lis.map(l => Number(l.dataset.seq))")
    assert seqs == list(range(1, events + 1))
    assert await board_of(page) == classic_board(final)
    assert pages.posts(page, "ExportGame") == 0
    # the end in the text table's words, as the Python SDK renders it
    described = (await stub.DescribeVariant(
        variant_pb2.DescribeVariantRequest(name="classic"))).variant
    seats = [seat.display_name for seat in final.game.seats]
    ended = {"classic": {"gameEnded": {"winner": final.game.outcome.winner,
                                       "ranking": list(final.game.outcome.ranking),
                                       "reason": final.game.outcome.reason}}}
    assert await page.locator("#outcome").inner_text() == Renderer().event(
        ended, "classic", Names.of(described, seats, len(seats)))
    await page.screenshot(path=shot("replay-spectator.png", tmp_path))

    for variant in ("deep_space", "legacy", "strike"):
        game = await finished_game(stub, variant)
        await page.goto(page.url.split("#")[0] + f"#/replay/{game.game_id}")
        await page.wait_for_selector(f"#step:text-is('{game.last_seq} / {game.last_seq}')")
        middle = game.last_seq // 2
        await page.locator("#scrub").fill(str(middle))
        await page.wait_for_selector(f"#main[data-drawn='{middle}']")
        version = int(await page.locator("#main").get_attribute("data-version") or -1)
        at = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id,
                                                           at_version=version))
        described = (await stub.DescribeVariant(
            variant_pb2.DescribeVariantRequest(name=variant))).variant
        assert await board_of(page) == drawn_board(at.board, described), variant
    # the host's token still reads the export
    assert (await stub.ExportGame(service_pb2.ExportGameRequest(game_id=classic.game_id),
                                  metadata=bearer(classic.host_token))).events


async def test_the_lobby_titles_games_names_seats_and_links_the_hosts_invitations(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, tmp_path: Path,
) -> None:
    """A waiting three-seat classic game with one seat taken by Ada: the lobby's row reads its
    title (the variant, its seats, the first seated name, no id standing for it), its seats by
    name with the open ones, and, in the browser holding its host token, links the host's
    invitation page, which opens; another browser's row has no such link."""
    options, seed = fast_options("classic")
    created = await stub.CreateGame(service_pb2.CreateGameRequest(options=options, seed=seed))
    game_id = created.game.game_id
    seats = len(created.game.seats)
    await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=1, display_name="Ada",
                                                    request_id="lobby-ada"))
    title = (await stub.DescribeVariant(variant_pb2.DescribeVariantRequest(
        name="classic"))).variant.title
    host = await pages.open()
    await host.evaluate("([id, held]) => localStorage.setItem('risk.tokens.v1', "
                        "JSON.stringify({[id]: held}))",
                        [game_id, {"host": created.host_token, "seats": {}}])
    # "/" then "#/": the lobby drawn twice at once lists every game once
    await host.goto(host.url.split("#")[0] + "#/")
    row = host.locator(f"tr[data-game='{game_id}']")
    await row.wait_for()
    assert await row.locator(".game-title").inner_text() == f"{title} for {seats} players · Ada"
    open_seats = [f"open seat {s}" for s in range(seats) if s != 1]
    names = ["open seat 0", "Ada", *open_seats[1:]]
    expected = ", ".join(names[:-1]) + " and " + names[-1] + f" ({seats - 1} open)"
    assert await row.locator(".seat-names").inner_text() == expected
    await host.screenshot(path=shot("lobby-titles.png", tmp_path))
    await row.locator("a.invite").click()
    await host.wait_for_url(f"**/#/host/{game_id}")

    other = await pages.open("/#/")
    row = other.locator(f"tr[data-game='{game_id}']")
    await row.wait_for()
    assert await row.locator("a.invite").count() == 0
    assert await row.locator("button.join").count() == seats - 1
