"""The replay view of a finished game: step and scrub through its events, each step drawn from
the board the service rebuilds for its version (GetGame at_version), for every variant."""

from __future__ import annotations

from playwright.async_api import Page

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc, variant_pb2
from risk_rules.engine import REGISTRY
from risk_testing.rpc import bearer
from tests.client.test_text import FORBIDDEN
from tests.service.finished_games import finished_game
from tests.web.conftest import Pages
from tests.web.driver import (
    board_of,
    classic_board,
    create_game,
    drawn_board,
    move_by_grpc,
    page_tokens,
)

OPTIONS = {"players": "2", "setup": "CLASSIC_SETUP_MODE_RANDOM_DEAL", "auto_place": "true",
           "max_turns": "2"}


async def _drawn(page: Page, step: int) -> None:
    """Wait until the page has drawn `step`'s board (its fetch is asynchronous)."""
    await page.wait_for_selector(f"#main[data-drawn='{step}']")


async def test_replay_steps_and_scrubs_a_finished_game(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub,
) -> None:
    """The host's page replays the game it created once it is over: the last step's board is
    GetGame's, the first is empty, one step back and forth moves one event."""
    page = await pages.open()
    game_id = await create_game(page, "classic", "all", **OPTIONS)
    tokens = await page_tokens(page, game_id)
    for _ in range(300):
        if not await move_by_grpc(stub, game_id, tokens):
            break
    final = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
    assert final.game.status == service_pb2.GAME_STATUS_FINISHED
    await page.goto(page.url.split("#")[0] + f"#/replay/{game_id}")
    events = final.game.last_seq
    await page.wait_for_selector(f"#step:text-is('{events} / {events}')")
    await _drawn(page, events)
    assert await page.locator("#log li").count() == events
    assert await board_of(page) == classic_board(final)
    # an event of seat 0 names its seat (JSON used to leave a zero out), in the text table's words
    export = await stub.ExportGame(service_pb2.ExportGameRequest(game_id=game_id),
                                   metadata=bearer(tokens[0]))
    ended = next(e for e in export.events
                 if e.classic.WhichOneof("kind") == "turn_ended" and e.classic.turn_ended.seat == 0)
    seat_name = export.seat_names[0] if export.seat_names and export.seat_names[0] else "Seat 0"
    assert await page.locator(f"#log li[data-seq='{ended.seq}']").inner_text() == \
        f"{seat_name} ended the turn"

    await page.click("#back")
    assert await page.locator("#step").inner_text() == f"{events - 1} / {events}"
    await _drawn(page, events - 1)
    await page.click("#forward")
    await _drawn(page, events)
    assert await board_of(page) == classic_board(final)

    await page.locator("#scrub").fill("0")
    assert await page.locator("#step").inner_text() == f"0 / {events}"
    await _drawn(page, 0)
    assert all(cell == (-1, 0) for cell in await board_of(page))


async def test_every_variant_replays_the_services_board_at_a_middle_step(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub,
) -> None:
    """A finished bot game of each variant, replayed by a page holding its host token: at the
    middle step the page draws exactly the board GetGame gives at that step's version, and at
    the last step the game's final board."""
    page = await pages.open()
    for variant in sorted(REGISTRY):
        game = await finished_game(stub, variant)
        described = (await stub.DescribeVariant(
            variant_pb2.DescribeVariantRequest(name=variant))).variant
        export = await stub.ExportGame(service_pb2.ExportGameRequest(game_id=game.game_id),
                                       metadata=bearer(game.host_token))
        assert not export.next_page_token, "a bigger game than one export page"
        await page.evaluate(
            "([id, host]) => { const all = JSON.parse(localStorage.getItem('risk.tokens.v1')"
            " || '{}'); all[id] = { host }; localStorage.setItem('risk.tokens.v1',"
            " JSON.stringify(all)); }", [game.game_id, game.host_token])
        await page.goto(page.url.split("#")[0] + f"#/replay/{game.game_id}")
        events = game.last_seq
        await _drawn(page, events)
        final = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))
        assert await board_of(page) == drawn_board(final.board, described), variant
        # every event of the game in the log reads as a sentence of the text table
        logged = await page.locator("#log li").all_inner_texts()
        assert len(logged) == events, variant
        assert [line for line in logged if FORBIDDEN.search(line)] == [], variant

        middle = events // 2
        version = export.events[middle - 1].version
        await page.locator("#scrub").fill(str(middle))
        await _drawn(page, middle)
        assert await page.get_attribute("#main", "data-version") == str(version)
        at = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id,
                                                           at_version=version))
        expected = drawn_board(at.board, described)
        # the board changed since the middle, so drawing the final board would fail here
        assert expected != drawn_board(final.board, described), variant
        assert await board_of(page) == expected, f"{variant} at step {middle}"
