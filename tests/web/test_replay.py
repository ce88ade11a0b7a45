"""The replay view of a finished game, from its export: step and scrub through the events,
with the classic board folded from them agreeing with the final board GetGame shows."""

from __future__ import annotations

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from tests.web.conftest import Pages
from tests.web.driver import board_of, classic_board, create_game, move_by_grpc, page_tokens

OPTIONS = {"players": "2", "setup": "CLASSIC_SETUP_MODE_RANDOM_DEAL", "auto_place": "true",
           "max_turns": "2"}


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
    assert await page.locator("#log li").count() == events
    assert await board_of(page) == classic_board(final)

    await page.click("#back")
    assert await page.locator("#step").inner_text() == f"{events - 1} / {events}"
    await page.click("#forward")
    assert await board_of(page) == classic_board(final)

    await page.locator("#scrub").fill("0")
    assert await page.locator("#step").inner_text() == f"0 / {events}"
    assert all(cell == (-1, 0) for cell in await board_of(page))
