"""The spectator view: it survives a restart of the service (it reconnects by itself from its
last seq and ends with every event once, in order), and it runs the game's configured
spectator delay behind, as the service applies it."""

from __future__ import annotations

from playwright.async_api import Page

from risk_proto.risk.v1 import classic_pb2, game_pb2, service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceProcess
from tests.web.conftest import Pages
from tests.web.driver import Player, create_game, eventually, logged_seqs, move_by_grpc

OPTIONS = {"players": "2", "setup": "CLASSIC_SETUP_MODE_RANDOM_DEAL", "auto_place": "true"}


async def test_spectator_resumes_after_a_restart_without_gap_or_repeat(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, http_service: ServiceProcess,
) -> None:
    """Moves before, during (none can land) and after a SIGKILL and restart of the service
    reach the watching page exactly once: its log holds seqs 1..last_seq with no gap and no
    repeat, the page counted no repeat or gap from the server either, and it follows live."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
            players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True)),
        issue_seat_tokens=True))
    game_id = created.game.game_id
    tokens = dict(enumerate(created.seat_tokens))
    watcher = await pages.open(f"/#/watch/{game_id}")
    for _ in range(5):
        await move_by_grpc(stub, game_id, tokens)

    async def shown(seq: int) -> bool:
        return await watcher.get_attribute("main", "data-last-seq") == str(seq)

    before = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.last_seq
    await eventually(lambda: shown(before), 15, "the spectator to catch up")
    with pages.outage():
        http_service.restart()  # SIGKILL, then a new process on the same ports
        for _ in range(5):
            await move_by_grpc(stub, game_id, tokens)
        after = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.last_seq
        assert after > before
        await eventually(lambda: shown(after), 20, "the spectator to resume")
    assert int(await watcher.get_attribute("main", "data-reconnects") or 0) >= 1
    assert await watcher.get_attribute("main", "data-feed") == "live"
    assert await logged_seqs(watcher) == list(range(1, after + 1))
    assert await watcher.get_attribute("main", "data-repeats") == "0"
    assert await watcher.get_attribute("main", "data-gaps") == "0"
    # and it still follows the game live
    await move_by_grpc(stub, game_id, tokens)
    last = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.last_seq
    await eventually(lambda: shown(last), 15, "the spectator to follow after the restart")

    async def summary_shows_last() -> bool:  # GetGame again, after the event came
        return await watcher.locator("#game-seq").inner_text() == str(last)
    await eventually(summary_shows_last, 10, "the page's summary to catch up")


async def test_a_spectator_runs_the_configured_delay_behind(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub,
) -> None:
    """A game created with a spectator delay of 5 events: the watching page's log stays 5
    events behind the game while it is played, its board is hidden (GetGame shows spectators
    none), and its status line says by how much it runs behind."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
            players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True)),
        issue_seat_tokens=True, spectator_delay_events=5))
    game_id = created.game.game_id
    tokens = dict(enumerate(created.seat_tokens))
    watcher = await pages.open(f"/#/watch/{game_id}")
    await watcher.wait_for_selector("#game-status")
    for _ in range(6):
        assert await move_by_grpc(stub, game_id, tokens)
    # a seat sees the game as it is (a spectator's GetGame runs behind too)
    seat = (("authorization", f"Bearer {tokens[0]}"),)
    last = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                               metadata=seat)).game.last_seq
    assert last > 5

    async def shown(seq: int) -> bool:
        return await watcher.get_attribute("main", "data-last-seq") == str(seq)

    await eventually(lambda: shown(last - 5), 15, "the spectator to reach the delayed seq")
    assert await logged_seqs(watcher) == list(range(1, last - 5 + 1))
    assert await watcher.get_attribute(".board-box", "data-shown") == "hidden"
    assert "5 events" in await watcher.locator("#status").inner_text()


async def _play(player: Player, moves: int) -> int:
    """Click until the page's game reached `moves` more versions; the version it shows."""
    page = player.page
    start = int(await page.locator("#game-version").inner_text())
    for _ in range(200):
        version = int(await page.locator("#game-version").inner_text())
        if version >= start + moves:
            return version
        await player.step()
    raise AssertionError(f"the page made no {moves} moves")


async def test_a_page_plays_and_a_spectator_follows_over_websockets_across_a_restart(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, http_service: ServiceProcess,
) -> None:
    """A page holding both seats plays by clicking while another watches; the service is
    SIGKILLed and restarted; the page plays on. Every move went over a WebSocket Session
    (no SubmitAction POST), the watcher followed on StreamEvents WebSockets only (a new one
    after the restart), and its log holds every seq once, with no gap and no repeat."""
    page = await pages.open()
    game_id = await create_game(page, "classic", "all", **OPTIONS)
    player = Player(page)
    watcher = await pages.open(f"/#/watch/{game_id}")
    await watcher.wait_for_selector("svg.board [data-region]")

    async def shown(seq: int) -> bool:
        return await watcher.get_attribute("main", "data-last-seq") == str(seq)

    await _play(player, 4)
    before = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.last_seq
    await eventually(lambda: shown(before), 15, "the spectator to catch up")
    with pages.outage():
        http_service.restart()  # SIGKILL, then a new process on the same ports
        await eventually(lambda: _resumed(watcher), 20, "the spectator to reconnect")
    await _play(player, 4)
    after = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.last_seq
    assert after > before
    await eventually(lambda: shown(after), 20, "the spectator to follow after the restart")
    assert await logged_seqs(watcher) == list(range(1, after + 1))
    assert await watcher.get_attribute("main", "data-repeats") == "0"
    assert await watcher.get_attribute("main", "data-gaps") == "0"
    assert pages.sockets(watcher, "StreamEvents") >= 2
    assert pages.posts(watcher, "StreamEvents") == 0
    assert pages.sockets(page, "Session") >= 2  # its session reopened after the restart
    assert pages.posts(page, "SubmitAction") == 0
    assert await page.get_attribute("main", "data-unary-moves") == "0"
    assert int(await page.get_attribute("main", "data-socket-moves") or 0) >= 8


async def _resumed(page: Page) -> bool:
    """The page's feed dropped at least once and is live again."""
    return (int(await page.get_attribute("main", "data-reconnects") or 0) >= 1
            and await page.get_attribute("main", "data-feed") == "live")
