"""The overlay page for streaming software (overlay.html, docs/overlay.md) at 1920x1080: for a
tournament game of each variant, played a while by its seats through gRPC, the page shows the
seats by name with what they hold, the last moves in the text table's words, the last battle's
dice and the event's standings from its results feed, and follows the game live; it resumes
after the service restarts; opened for an event, it follows the event's featured table; a
game of an event the service runs shows the director's standings. Its
screenshots are docs/web/overlay-<variant>.png, rewritten only with RISK_UPDATE_SCREENSHOTS=1
(otherwise the test checks they are there, compares no pixel)."""

from __future__ import annotations

import asyncio
import os
import re
import time
import uuid
from collections.abc import Iterable
from pathlib import Path

import grpc
import pytest
from playwright.async_api import Page

from risk_proto.risk.v1 import (
    classic_pb2,
    events_pb2,
    game_pb2,
    players_pb2,
    service_pb2,
    service_pb2_grpc,
    tournament_pb2,
)
from risk_rules import wire
from risk_rules.engine import REGISTRY, LegalAction, get_ruleset
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import bearer
from tests.service.finished_games import fast_options
from tests.serving import module_service, shared_unless
from tests.web.conftest import ARTIFACTS, Pages
from tests.web.driver import eventually

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "web"
UPDATE = os.environ.get("RISK_UPDATE_SCREENSHOTS") == "1"
PLAYING = ["Ada", "Bea", "Cy", "Dee", "Eve"]
RESIGNING = ["Fay", "Gus", "Hal", "Ivy", "Jo"]
# what no line a person reads may hold: an enum's name, an unset number, a template's brace
UNREADABLE = re.compile(r"\b[A-Z]{2,}_[A-Z_]+\b|(?<![\w-])-1\b|undefined|NaN|null|[{}]")
Stub = service_pb2_grpc.RiskServiceStub
_MASK64 = (1 << 64) - 1
# the tests that restart the service: each has a fresh one of its own
OWN_SERVICE = {"test_overlay_resumes_after_a_restart_and_takes_a_transparent_background"}

# one service with its HTTP port for the module's other tests (each makes games, rounds and
# events of its own, under names no other test uses)
shared_service = module_service("web-overlay", http=True)

http_service = shared_unless(OWN_SERVICE, "shared_service", RISK_KEY_PREFIX="web-overlay-own")


def _fought(events: Iterable[game_pb2.Event]) -> bool:
    """Whether one of the events threw dice in a battle (as any variant names them)."""
    for event in events:
        case = event.WhichOneof("variant")
        if case is None or case == "lifecycle":
            continue
        body = getattr(event, case)
        kind = body.WhichOneof("kind")
        fields = {f.name for f, _ in getattr(body, kind).ListFields()} if kind else set()
        if {"attack_dice", "defence_dice", "attack", "defence", "attacker_roll"} & fields:
            return True
    return False


async def _play(stub: Stub, variant: str, game_id: str, tokens: list[str], moves: int, *,
                until_battle: bool = True) -> bool:
    """Seats decide with the engine's bot, seen through their own tokens, for `moves` moves
    or (with `until_battle`) until two moves after the first battle; True if one was fought."""
    rules = get_ruleset(variant)
    fought, after = False, 0
    for move in range(moves):
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        if not game.decision.seats or game.outcome.ranking:
            break
        token = bearer(tokens[game.decision.seats[0]])
        seen = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id), metadata=token)
        listed = await stub.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=token)
        legal = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
                 for e in listed.actions]
        view = wire.from_message(wire.view_from_proto(seen.board)[1], rules.view_type)
        action = rules.bot_choose(view, legal, (0x9E3779B97F4A7C15 * (move + 1)) & _MASK64)
        try:
            reply = await stub.SubmitAction(service_pb2.SubmitActionRequest(
                game_id=game_id, action=wire.action_to_proto(variant, action),
                expected_version=seen.game.version, request_id=uuid.uuid4().hex),
                metadata=token)
        except grpc.aio.AioRpcError as error:  # a bot seat or a timer moved first
            if error.code() == grpc.StatusCode.ABORTED:
                continue
            raise
        fought = fought or _fought(reply.events)
        after += fought
        if until_battle and after > 2:
            break
    return fought


async def _round(stub: Stub, variant: str) -> tuple[str, list[str], int, bool, str]:
    """A round of two games in `variant`'s own cup: one played until a battle, one whose
    seats all resign but the first (so the event has standings). Returns the played game's
    id, its seat tokens, its number of seats, whether a battle was fought, and the finished
    game's id."""
    options, _seed = fast_options(variant)
    players = getattr(options, options.WhichOneof("variant")).players
    tables = [tournament_pb2.RoundTable(seats=[tournament_pb2.RoundSeat(player=label)
                                               for label in names[:players]])
              for names in (PLAYING, RESIGNING)]
    created = await stub.CreateRound(tournament_pb2.CreateRoundRequest(
        request_id=f"overlay-{variant}", tournament=f"{variant}-cup", round=1,
        options=options, games=tables))
    played, resigning = created.games
    for seat in range(players - 1, 0, -1):
        await stub.Resign(service_pb2.ResignRequest(game_id=resigning.game_id, seat=seat),
                          metadata=bearer(resigning.seat_tokens[seat]))
    tokens = list(played.seat_tokens)
    fought = await _play(stub, variant, played.game_id, tokens, 400)
    return played.game_id, tokens, players, fought, resigning.game_id


async def _readable(page: Page, selector: str) -> list[str]:
    lines = await page.eval_on_selector_all(selector, "els => els.map(e => e.innerText)")
    for line in lines:
        assert not UNREADABLE.search(line), f"unreadable text on the overlay: {line!r}"
    return list(lines)


async def _caught_up(page: Page, stub: Stub, game_id: str) -> None:
    async def shown() -> bool:
        last = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.last_seq
        return await page.get_attribute("#overlay", "data-last-seq") == str(last)
    await eventually(shown, 20, "the overlay to show the game's last event")


@pytest.mark.parametrize("variant", sorted(REGISTRY))
async def test_overlay_shows_a_tournament_game_at_1080p(
    pages: Pages, stub: Stub, variant: str,
) -> None:
    """The overlay of a game of each variant, opened by its id at 1920x1080: every seat by its
    player's name with its holdings, move lines in words (no enum name, -1, brace, undefined),
    the last battle's dice, the cup's standings with the resigning game's winner first; a
    move made after it opened reaches it; nothing logged to the console."""
    game_id, tokens, players, fought, _over = await _round(stub, variant)
    page = await pages.open(f"/app/overlay.html#game={game_id}", width=1920, height=1080)
    await page.wait_for_selector("#players li.player[data-seat='0'] .stats .stat")
    await _caught_up(page, stub, game_id)
    await _readable(page, "#players li.player .name")
    names = await _readable(page, "#players li.player .name .who")
    assert names[:players] == PLAYING[:players]
    stats = await _readable(page, "#players li.player .stats")
    assert all(re.search(r"\d", line) for line in stats[:players])
    moves = await _readable(page, "#moves li")
    assert 1 <= len(moves) <= 6
    await _readable(page, "#bar")
    if fought:
        assert await page.locator("#dice .die.attack").count() >= 1
        assert await page.locator("#dice .die.defence").count() >= 1
        await _readable(page, "#dice")
    await page.wait_for_selector("#standings table tr[data-player]")
    standings = await page.eval_on_selector_all(
        "#standings tr[data-player]", "els => els.map(e => e.dataset.player)")
    # the resigning game's winner has its point (the played game may have ended too)
    assert await page.locator(f"#standings tr[data-player='{RESIGNING[0]}'] td").nth(2) \
        .inner_text() == "1"
    assert set(standings) == set(PLAYING[:players] + RESIGNING[:players])
    assert await page.locator("#standings tr.playing").count() == players
    # the numbers the page draws are the spectator's view (the board's cells)
    reply = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
    assert await page.get_attribute("#overlay", "data-version") == str(reply.game.version)
    assert await page.locator("svg.board .region").count() > 0
    shot = SHOTS / f"overlay-{variant}.png"
    ARTIFACTS.mkdir(exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / shot.name))
    if UPDATE:
        await page.screenshot(path=str(shot))
    assert shot.is_file(), f"{shot} is missing: run with RISK_UPDATE_SCREENSHOTS=1"
    # live: the next moves reach the page without a reload
    await _play(stub, variant, game_id, tokens, 3, until_battle=False)
    await _caught_up(page, stub, game_id)


async def test_overlay_resumes_after_a_restart_and_takes_a_transparent_background(
    pages: Pages, stub: Stub, http_service: ServiceProcess,
) -> None:
    """A classic overlay with `&bg=transparent` (the page's background is clear, its panels
    are not) follows the game across a SIGKILL and restart of the service: moves made after
    the restart reach it, its stream was opened again, and no reconnecting badge is left. A
    finished game's overlay says who won and does not keep reconnecting."""
    game_id, tokens, _players, _fought, over = await _round(stub, "classic")
    page = await pages.open(f"/app/overlay.html#game={game_id}&bg=transparent",
                            width=1920, height=1080)
    await _caught_up(page, stub, game_id)
    background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgba(0, 0, 0, 0)"
    assert await page.evaluate(
        "getComputedStyle(document.querySelector('.side section')).backgroundColor") != \
        "rgba(0, 0, 0, 0)"
    with pages.outage():
        http_service.restart()
        await _play(stub, "classic", game_id, tokens, 4, until_battle=False)
        await _caught_up(page, stub, game_id)
    assert int(await page.get_attribute("#overlay", "data-reconnects") or 0) >= 1
    await eventually(lambda: page.locator("#connection").is_hidden(), 15,
                     "the reconnecting badge to go")

    # a finished game's overlay says how it ended and stays quiet: no reconnecting
    finished = await pages.open(f"/app/overlay.html#game={over}", width=1920, height=1080)
    await _caught_up(finished, stub, over)
    assert (await finished.locator("#turn").inner_text()).startswith("Game over: Fay won")
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        assert await finished.locator("#connection").is_hidden()
        await asyncio.sleep(0.1)
    assert await finished.get_attribute("#overlay", "data-reconnects") is None


async def test_overlay_of_an_event_follows_its_featured_table(pages: Pages, stub: Stub) -> None:
    """`#event=CUP` shows the game StreamGames features for the cup (the one with battles),
    and moves to the other game when the featured one ends (its seats resign), with that
    game's players on screen."""
    options, _seed = fast_options("classic")
    players = options.classic.players
    created = await stub.CreateRound(tournament_pb2.CreateRoundRequest(
        request_id="featured", tournament="feature-cup", round=1, options=options,
        games=[tournament_pb2.RoundTable(seats=[tournament_pb2.RoundSeat(player=label)
                                                for label in names[:players]])
               for names in (PLAYING, RESIGNING)]))
    first, second = created.games
    assert await _play(stub, "classic", first.game_id, list(first.seat_tokens), 400)
    page = await pages.open("/app/overlay.html#event=feature-cup", width=1920, height=1080)
    await page.wait_for_selector(f"#overlay[data-game='{first.game_id}']", timeout=20_000)
    await page.wait_for_selector("#players li.player .stats .stat")
    assert await _readable(page, "#players li.player .name .who") == PLAYING[:players]

    assert await _play(stub, "classic", second.game_id, list(second.seat_tokens), 400)
    for seat in range(players - 1, 0, -1):  # the featured game ends: the other takes the table
        await stub.Resign(service_pb2.ResignRequest(game_id=first.game_id, seat=seat),
                          metadata=bearer(first.seat_tokens[seat]))
    await page.wait_for_selector(f"#overlay[data-game='{second.game_id}']", timeout=20_000)
    await _caught_up(page, stub, second.game_id)
    assert await _readable(page, "#players li.player .name .who") == RESIGNING[:players]
    await _readable(page, "#moves li")


async def test_overlay_of_an_unknown_game_says_so_in_words(pages: Pages) -> None:
    """An overlay whose URL names no game here, or no game at all, says so in a sentence a
    broadcaster can act on (no reason code), and logs nothing to the console."""
    page = await pages.open("/app/overlay.html#game=" + "0" * 32, width=1920, height=1080)
    await page.wait_for_selector("#notice:not([hidden])")
    assert (await page.locator("#notice").inner_text()).startswith("no such game here")
    page = await pages.open("/app/overlay.html", width=1920, height=1080)
    await page.wait_for_selector("#notice:not([hidden])")
    assert (await page.locator("#notice").inner_text()).startswith("choose a game")
    await _readable(page, "#notice")


async def test_overlay_of_an_event_game_shows_the_directors_standings(
    pages: Pages, stub: Stub,
) -> None:
    """A game of an event the service runs (CreateEvent, three players registered, started):
    its overlay shows the event's standings as GetEvent gives them (names, in its order,
    the game's players highlighted), not a table of its own."""
    issued = [await stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest())
              for _ in range(3)]
    organiser = bearer("overlay-organiser")
    await stub.CreateEvent(events_pb2.CreateEventRequest(
        event="overlay-open", format=events_pb2.EVENT_FORMAT_SWISS, rounds=1,
        options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
            players=3, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True,
            max_turns=2))), metadata=organiser)
    for name, entry in zip(PLAYING, issued, strict=False):
        await stub.RegisterEvent(events_pb2.RegisterEventRequest(event="overlay-open",
                                                                 name=name),
                                 metadata=bearer(entry.token))
    await stub.StartEvent(events_pb2.StartEventRequest(event="overlay-open"),
                          metadata=organiser)

    async def seated() -> bool:
        event = await stub.GetEvent(events_pb2.GetEventRequest(event="overlay-open"))
        return bool(event.rounds and event.rounds[0].tables
                    and event.rounds[0].tables[0].game_id)
    await eventually(seated, 30, "the event's first round to be seated")
    event = await stub.GetEvent(events_pb2.GetEventRequest(event="overlay-open"))
    game_id = event.rounds[0].tables[0].game_id
    page = await pages.open(f"/app/overlay.html#game={game_id}", width=1920, height=1080)
    await page.wait_for_selector("#standings[data-source='event'] tr[data-player]")
    shown = await page.eval_on_selector_all(
        "#standings tr[data-player]", "els => els.map(e => e.dataset.player)")
    assert shown == [line.name for line in event.standings]
    assert await page.locator("#standings tr.playing").count() == 3
    await _readable(page, "#standings")
