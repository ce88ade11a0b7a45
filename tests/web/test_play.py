"""Two browser pages, each holding a seat, play a two-player classic game to its end by
clicking what the page offers, while a third page spectates; at the end the spectator's page
and GetGame agree (issue 17 item 3)."""

from __future__ import annotations

import asyncio

from risk_client.text import Names, Renderer
from risk_proto.risk.v1 import service_pb2, service_pb2_grpc, variant_pb2
from tests.client.test_text import FORBIDDEN
from tests.web.conftest import ARTIFACTS, Pages
from tests.web.driver import Player, board_of, classic_board, create_game, eventually, logged_seqs

# Short enough for a test, long enough to see every phase: two players (and the neutral)
# with the territories dealt and the starting armies spread at random, and the turn cap at 4
# (two turns each: reinforce, attack, defend, move in, end), after which the game ends as a
# ranked draw unless someone has won by then.
OPTIONS = {"players": "2", "setup": "CLASSIC_SETUP_MODE_RANDOM_DEAL", "auto_place": "true",
           "max_turns": "4"}


async def test_two_pages_play_classic_to_the_end_while_a_third_watches(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub,
) -> None:
    """Seat 0 creates and sits from the lobby, seat 1 takes the other seat from the game
    list, both click legal moves until the game is over, each move on the seat's WebSocket
    Session (no SubmitAction POST); the spectator page follows StreamEvents on a WebSocket
    and ends on the same version, last seq, status and board as GetGame."""
    first = await pages.open()
    game_id = await create_game(first, "classic", "one", **OPTIONS)
    second = await pages.open()
    await second.wait_for_selector(f"tr[data-game='{game_id}'] button.join")
    await second.click(f"tr[data-game='{game_id}'] button.join")
    await second.wait_for_url(f"**/#/play/{game_id}")
    watcher = await pages.open(f"/#/watch/{game_id}")
    await watcher.wait_for_selector("svg.board [data-region]")
    await first.reload()  # the game started with the second seat; either way the page follows

    players = [Player(first), Player(second)]
    offered = "#choices button.act, svg.board .region.clickable"
    labels: set[str] = set()  # every move button's words seen on either page
    for _ in range(400):
        status = await first.locator("#game-status").inner_text()
        if status == "finished":
            break
        moved = False
        for player in players:
            if await player.page.locator(offered).count():
                labels.update(await player.page.locator("#choices button.act").all_inner_texts())
                moved = await player.step() or moved
        if not moved:
            await asyncio.sleep(0.1)
    reply = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
    assert reply.game.status == service_pb2.GAME_STATUS_FINISHED
    assert sum(p.clicks for p in players) >= 10

    async def caught_up() -> bool:
        return (await watcher.locator("#game-status").inner_text() == "finished" and
                await watcher.get_attribute("main", "data-last-seq") == str(reply.game.last_seq))
    await eventually(caught_up, 15, "the spectator to reach the end")
    assert await watcher.locator("#game-version").inner_text() == str(reply.game.version)
    assert await watcher.locator("#game-seq").inner_text() == str(reply.game.last_seq)
    assert await board_of(watcher) == classic_board(reply)
    assert await logged_seqs(watcher) == list(range(1, reply.game.last_seq + 1))
    # the outcome, every logged event and every move button in words from the text table:
    # the spectator's outcome reads as the Python SDK renders the game's end
    described = (await stub.DescribeVariant(
        variant_pb2.DescribeVariantRequest(name="classic"))).variant
    # as the page names seats: the lobby's default name "seat N" is the table's own words
    seats = ["" if seat.display_name == f"seat {i}" else seat.display_name
             for i, seat in enumerate(reply.game.seats)]
    ended = {"classic": {"gameEnded": {"winner": reply.game.outcome.winner,
                                       "ranking": list(reply.game.outcome.ranking),
                                       "reason": reply.game.outcome.reason}}}
    assert await watcher.locator("#outcome").inner_text() == Renderer().event(
        ended, "classic", Names.of(described, seats, len(seats)))
    logged = await watcher.locator("#log li").all_inner_texts()
    assert [line for line in [*logged, *labels] if FORBIDDEN.search(line)] == []
    assert any(line.startswith("Attack ") for line in labels), sorted(labels)
    for player in players:
        assert await player.page.locator("#game-status").inner_text() == "finished"
        assert not await player.page.locator("#choices button.act").count()
        assert pages.sockets(player.page, "Session") >= 1
        assert pages.posts(player.page, "SubmitAction") == 0
        assert int(await player.page.get_attribute("main", "data-socket-moves") or 0) > 0
        assert await player.page.get_attribute("main", "data-unary-moves") == "0"
    assert pages.sockets(watcher, "StreamEvents") >= 1
    assert pages.posts(watcher, "StreamEvents") == 0
    ARTIFACTS.mkdir(exist_ok=True)
    await watcher.screenshot(path=str(ARTIFACTS / "classic-end-spectator.png"), full_page=True)
    await first.screenshot(path=str(ARTIFACTS / "classic-end-seat0.png"), full_page=True)
