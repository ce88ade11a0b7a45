"""The play view's panels of what the rules let a player know (issue 38 item 2), per variant:
per-player totals and each variant's own figures against GetGame's view, the dice of a battle
as faces (then in the log), the clock counting down, and the your-turn title."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from playwright.async_api import Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from risk_proto.risk.v1 import game_pb2, lifecycle_pb2, service_pb2, service_pb2_grpc
from risk_rules import wire
from risk_rules.engine import REGISTRY, LegalAction, get_ruleset
from risk_testing.rpc import bearer
from tests.service.finished_games import fast_options
from tests.serving import module_service
from tests.web.conftest import Pages
from tests.web.driver import eventually
from tests.web.shots import shot
from tests.web.test_my_games import PHONE, fits_the_phone

_MASK64 = (1 << 64) - 1
# what no person should read: an enum-style name, -1, undefined, NaN, braces
_RAW = re.compile(r"[A-Z]{3,}_[A-Z_]{3,}|(?<![\w-])-1\b|undefined|NaN|[{}]")
Stub = service_pb2_grpc.RiskServiceStub

# one service with its HTTP port for the whole module, in place of tests/web/conftest.py's
# fresh one a test (its `pages` and `stub` take this one): every test makes games of its own
http_service = module_service("web-variant-panels", http=True)


async def _created(stub: Stub, variant: str, clock: lifecycle_pb2.ClockOptions | None = None
                   ) -> service_pb2.CreateGameResponse:
    options, seed = fast_options(variant)
    created: service_pb2.CreateGameResponse = await stub.CreateGame(
        service_pb2.CreateGameRequest(options=options, seed=seed, issue_seat_tokens=True,
                                      clock=clock))
    return created


async def _bot_moves(stub: Stub, game_id: str, tokens: list[str], moves: int, *,
                     seed: int = 7, stop: str = "") -> list[game_pb2.Event]:
    """Up to `moves` decisions played by the engine's bot over gRPC (the seat asked first);
    stops early after an event of kind `stop`. Returns the events of the moves made."""
    variant = ""
    events: list[game_pb2.Event] = []
    for move in range(moves):
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        if not game.decision.seats:
            break
        token = bearer(tokens[game.decision.seats[0]])
        seen = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id), metadata=token)
        variant = seen.board.WhichOneof("variant") or variant
        rules = get_ruleset(variant)
        listed = await stub.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=token)
        legal = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
                 for e in listed.actions]
        view = wire.from_message(wire.view_from_proto(seen.board)[1], rules.view_type)
        action = rules.bot_choose(view, legal, (seed * 0x9E3779B97F4A7C15 + move) & _MASK64)
        reply = await stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game_id, action=wire.action_to_proto(variant, action),
            expected_version=seen.game.version, request_id=f"panels-{seen.game.version}"),
            metadata=token)
        events.extend(reply.events)
        if stop and any(getattr(e, variant).WhichOneof("kind") == stop for e in reply.events
                        if e.WhichOneof("variant") == variant):
            break
    return events


async def _hold(page: Page, game_id: str, host: str, seats: dict[int, str]) -> None:
    """The browser's storage holds these tokens for the game (as the lobby leaves them)."""
    await page.evaluate("([id, held]) => localStorage.setItem('risk.tokens.v1', "
                        "JSON.stringify({[id]: held}))",
                        [game_id, {"host": host, "seats": {str(s): t for s, t in seats.items()}}])


async def _shown(page: Page, version: int) -> None:
    await page.wait_for_selector(f"#game-version:text-is('{version}')")
    await page.wait_for_selector("#totals .seat-totals")


async def _says(page: Page, selector: str, text: str) -> bool:
    return await page.locator(selector).inner_text() == text


async def _cells(page: Page) -> dict[tuple[int, str], str]:
    pairs = await page.eval_on_selector_all(
        "#totals dd[data-key]", "tds => tds.map(td => [Number(td.dataset.seat), td.dataset.key, "
        "td.textContent])")
    return {(seat, key): text for seat, key, text in pairs}


async def _cells_until(page: Page, expected: dict[tuple[int, str], str]
                       ) -> dict[tuple[int, str], str]:
    """The panel figures once they are `expected`, or as they are after 10 s."""
    deadline = time.monotonic() + 10
    while (figures := await _cells(page)) != expected and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return figures


def _expected(variant: str, board: game_pb2.BoardView, seats: int) -> dict[tuple[int, str], str]:
    """Each panel figure as a person would count it on GetGame's view."""
    v = getattr(board, variant)
    out: dict[tuple[int, str], str] = {}
    for s in range(seats):
        if variant == "classic":
            figures = {"territories": sum(o == s for o in v.owner),
                       "armies": sum(a for o, a in zip(v.owner, v.armies, strict=True) if o == s),
                       "cards": v.hand_counts[s], "toPlace": v.to_place[s]}
        elif variant == "legacy":
            figures = {"territories": sum(o == s for o in v.owner),
                       "armies": sum(a for o, a in zip(v.owner, v.troops, strict=True) if o == s),
                       "cards": v.hand_counts[s], "redStars": v.red_stars[s],
                       "missiles": v.missiles[s], "hqs": sum(v.owner[t] == s for t in v.hqs)}
        elif variant == "deep_space":
            recruits = list(v.recruits[s].values)
            figures = {"territories": sum(n > 0 for n in recruits), "armies": sum(recruits),
                       "cards": len(v.hands[s].values), "supply": v.supply[s],
                       "bases": len(v.bases[s].values), "gems": v.gems[s], "ore": v.ore[s]}
        else:
            figures = {"territories": len(v.continents[s].values),
                       "coins": sum(c == s for c in v.coins), "cards": v.hand_counts[s]}
        out.update({(s, key): str(value) for key, value in figures.items()})
    return out


async def test_every_variants_panels_show_getgames_figures(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, tmp_path: Path,
) -> None:
    """A game of each variant some way in, its page holding every seat: each player's totals
    (regions, armies or pieces, cards) and the variant's own figures (Deep Space's gems, ore,
    supply, bases; Legacy's red stars, missiles, headquarters, factions; Strike's coins and hand
    sizes) are GetGame's, in words with no enum name, -1, undefined, NaN or brace; the tab's
    title says it is the page's turn; screenshots in docs/web/."""
    page = await pages.open()
    for variant in sorted(REGISTRY):
        created = await _created(stub, variant)
        game_id = created.game.game_id
        tokens = list(created.seat_tokens)
        played = await _bot_moves(stub, game_id, tokens, 24)
        await _hold(page, game_id, created.host_token, dict(enumerate(tokens)))
        await page.goto(page.url.split("#")[0] + f"#/play/{game_id}")
        seen = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                  metadata=bearer(tokens[0]))
        await _shown(page, seen.game.version)
        seats = len(seen.game.seats)
        # the previous variant's game may have stopped at the same version: its panels can
        # still be on the page when `_shown` passes, until this game's view is drawn
        expected = _expected(variant, seen.board, seats)
        figures = await _cells_until(page, expected)
        assert figures == expected, variant
        assert await page.locator("#totals .seat-totals").count() == seats
        text = (await page.locator("#panels").inner_text() +
                await page.locator("#clock").inner_text())
        assert not _RAW.search(text), (variant, text)
        if variant == "legacy":
            factions = await page.eval_on_selector_all(
                "#totals [data-key=faction]", "tds => tds.map(td => td.textContent)")
            assert factions[:3] == ["Die Mechaniker", "Enclave of the Bear", "Imperial Balkania"]
        if variant == "deep_space":
            v = seen.board.deep_space
            assert await page.locator("#variant-panel [data-key=bank]").inner_text() == \
                f"Bank: {v.bank_gems} gem{'s' if v.bank_gems != 1 else ''} and {v.bank_ore} ore"
        if variant in ("classic", "legacy"):
            pending = getattr(seen.board, variant).pending
            placing = page.locator("#placing")
            assert await placing.is_visible() == (pending > 0)
            if pending:
                assert str(pending) in await placing.inner_text()
        started = [e.classic.turn_started for e in played
                   if variant == "classic" and e.classic.WhichOneof("kind") == "turn_started"]
        assert started or variant != "classic"
        if started:
            n = started[-1].reinforcements
            said = (f"Seat {started[-1].seat} received {n} arm{'y' if n == 1 else 'ies'} this "
                    f"turn ({started[-1].continent_bonus} from continents)")
            # the line is the event stream's (the turn's start), which may land after the
            # panels GetGame drew (it did under a loaded suite): waited for, as they are
            await eventually(lambda said=said: _says(page, "#reinforcements", said),
                             timeout=10, what=f"#reinforcements to say {said!r}")
        if seen.game.decision.seats and not seen.game.HasField("outcome"):
            assert (await page.title()).startswith("Your turn · ")
        await page.screenshot(path=shot(f"panels-{variant}.png", tmp_path), full_page=True)


# per variant: the event that carries a battle's dice, and its attacker's and defender's dice
_DICE: dict[str, tuple[str, Callable[[Any], tuple[list[int], list[int]]]]] = {
    "classic": ("battle_resolved", lambda e: (list(e.attack_dice), list(e.defence_dice))),
    "legacy": ("battle_resolved", lambda e: (list(e.attack_final or e.attack_dice),
                                             list(e.defence_final or e.defence_dice))),
    "strike": ("dice_rolled", lambda e: (list(e.attack), list(e.defence))),
    "deep_space": ("battle_rolled", lambda e: ([e.attacker_roll], [e.defender_roll])),
}


async def test_a_battles_dice_are_shown_as_faces_then_logged(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, tmp_path: Path,
) -> None:
    """A spectator's page follows a game of each variant live until a battle's dice are
    thrown: its dice panel shows them as faces with the event's values (after Legacy's
    missiles), with words for a screen reader, and the log has the event; a Strike battle
    still open shows its battle panel."""
    for variant in sorted(_DICE):
        kind, dice_of = _DICE[variant]
        created = await _created(stub, variant)
        game_id = created.game.game_id
        page = await pages.open(f"/#/watch/{game_id}")
        await page.wait_for_selector("#dice-none")
        events = await _bot_moves(stub, game_id, list(created.seat_tokens), 600, stop=kind)
        battle = next(e for e in reversed(events)
                      if e.WhichOneof("variant") == variant
                      and getattr(e, variant).WhichOneof("kind") == kind)
        attack, defence = dice_of(getattr(getattr(battle, variant), kind))
        await page.wait_for_selector(f"#dice[data-seq='{battle.seq}']")
        shown_attack = await page.eval_on_selector_all(
            "#dice-attack .die", "ds => ds.map(d => Number(d.dataset.value))")
        shown_defence = await page.eval_on_selector_all(
            "#dice-defence .die", "ds => ds.map(d => Number(d.dataset.value))")
        assert (shown_attack, shown_defence) == (attack, defence), variant
        faces = await page.locator("#dice-attack .die").all_inner_texts()
        assert faces == ["⚀⚁⚂⚃⚄⚅"[d - 1] if 1 <= d <= 6 else str(d) for d in attack]
        label = await page.locator("#dice-attack .die").first.get_attribute("aria-label")
        assert label == f"a die showing {attack[0]}"
        assert await page.locator(f"#log li[data-seq='{battle.seq}']").count() == 1
        if variant == "strike":
            seen = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
            await page.wait_for_selector(f"#game-version:text-is('{seen.game.version}')")
            fighting = any(side > 0 for side in seen.board.strike.sides)
            assert await page.locator("#battle").is_visible() == fighting
            if fighting:
                rolls = seen.board.strike.rolls
                assert await page.locator("#battle [data-key=rolls]").inner_text() == (
                    "No roll yet" if rolls == 0 else
                    f"{rolls} roll{'s' if rolls != 1 else ''} so far")
                sides = await page.eval_on_selector_all(
                    "#battle li[data-seat]", "ls => ls.map(l => [Number(l.dataset.seat), "
                    "Number(l.dataset.troops)])")
                assert sides == [[s, len(seen.board.strike.troops[s].values)]
                                 for s, side in enumerate(seen.board.strike.sides) if side > 0]
        await page.screenshot(path=shot(f"dice-{variant}.png", tmp_path))
        await page.close()


async def test_your_turn_title_and_the_decision_clock(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, tmp_path: Path,
) -> None:
    """Three pages, one seat each, of a timed classic game: only the page whose seat is asked
    reads "Your turn" in its tab's title, and the titles follow the turn; the decision clock
    counts down in words; a page whose person allowed notifications says so and, in the
    background when its seat's turn comes, shows one; a page not asked yet offers the
    button."""
    clock = lifecycle_pb2.ClockOptions(decision_seconds=600)
    created = await _created(stub, "classic", clock=clock)
    game_id = created.game.game_id
    tokens = list(created.seat_tokens)
    assert len(tokens) == 3
    opened = [await pages.open() for _ in tokens]
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    asked = game.decision.seats[0]
    # the next seat's person allowed notifications; the one after has not been asked
    waiting, unasked = opened[(asked + 1) % 3], opened[(asked + 2) % 3]
    await waiting.context.grant_permissions(["notifications"])
    for seat, page in enumerate(opened):
        await _hold(page, game_id, "", {seat: tokens[seat]})
        await page.goto(page.url.split("#")[0] + f"#/play/{game_id}")
    for page in opened:
        await _shown(page, game.version)

    async def titles() -> list[bool]:
        return [(await p.title()).startswith("Your turn") for p in opened]

    await eventually(lambda: _is(titles(), [s == asked for s in range(3)]),
                     what="your-turn titles")
    page = opened[asked]
    left = int(await page.locator("#deadline").get_attribute("data-left-ms") or 0)
    assert 0 < left <= 600_000
    assert re.fullmatch(r"You must decide within \d+ minutes?( \d+ seconds?)?",
                        await page.locator("#deadline").inner_text())
    await eventually(lambda: _less(page, left), what="the clock to count down")
    assert re.match(r".+ must decide within ", await waiting.locator("#deadline").inner_text())
    assert await waiting.locator("#alerts").get_attribute("data-permission") == "granted"
    assert await waiting.locator("#alerts-state").inner_text() == \
        "This browser tells you when it is your turn"
    assert await unasked.locator("#alerts-ask").is_visible()

    # the waiting page's tab goes to the background (its person looks elsewhere; the page
    # reads document.hidden): when its seat's turn comes, a notification says so
    await waiting.evaluate("Object.defineProperty(document, 'hidden', { get: () => true })")
    while game.decision.seats and game.decision.seats[0] == asked:
        await _bot_moves(stub, game_id, tokens, 1)
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    now = game.decision.seats[0]
    assert now == (asked + 1) % 3
    await eventually(lambda: _is(titles(), [s == now for s in range(3)]),
                     what="the titles to follow the turn")
    await waiting.wait_for_selector("#alerts[data-notified='1']")
    assert await unasked.locator("#alerts").get_attribute("data-notified") is None
    await page.screenshot(path=shot("your-turn-classic.png", tmp_path))


async def test_a_correspondence_turns_deadline_counts_down_in_local_time(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, tmp_path: Path,
) -> None:
    """A correspondence game (a day a turn): the asked seat's page says when its turn is due,
    in the browser's time zone, and how long is left, in words."""
    clock = lifecycle_pb2.ClockOptions(turn_seconds=86400)
    created = await _created(stub, "classic", clock=clock)
    game_id = created.game.game_id
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    asked = game.decision.seats[0]
    page = await pages.open(timezone_id="Asia/Kathmandu")
    await _hold(page, game_id, "", {asked: created.seat_tokens[asked]})
    await page.goto(page.url.split("#")[0] + f"#/play/{game_id}")
    await _shown(page, game.version)
    text = await page.locator("#deadline").inner_text()
    assert re.fullmatch(r"Your turn is due by .+: (23 hours \d+ minutes?|1 day) left", text), text
    due = await page.evaluate(
        "ms => new Date(ms).toLocaleString(undefined, { weekday: 'short', day: 'numeric', "
        "month: 'short', hour: '2-digit', minute: '2-digit' })", game.deadline_ms)
    assert text.startswith(f"Your turn is due by {due}: "), text
    # Kathmandu is UTC+5:45: the time shown is the local one, not UTC's, on the locale's
    # clock (24-hour "13:58", or 12-hour "01:58 PM" as the distribution's Chromium formats)
    utc = time.gmtime(game.deadline_ms / 1000)
    hour, minute = divmod((utc.tm_hour * 60 + utc.tm_min + 345) % (24 * 60), 60)
    forms = (f"{hour:02d}:{minute:02d}",
             f"{(hour - 1) % 12 + 1:02d}:{minute:02d} {'AM' if hour < 12 else 'PM'}")
    assert any(form in due for form in forms), (forms, due)
    await page.screenshot(path=shot("deadline-correspondence.png", tmp_path))


async def _is(values: Awaitable[list[bool]], expected: list[bool]) -> bool:
    return await values == expected


async def _less(page: Page, than: int) -> bool:
    left = await page.locator("#deadline").get_attribute("data-left-ms")
    return left is not None and int(left) < than


# the moves that bring a game to its end soonest, taken first when offered (by name: an ending
# of a step, a pass, a stop)
_ENDING = re.compile(r"^(end|pass|stop|done|skip|decline|noMore|finish)", re.IGNORECASE)


async def _click_once(page: Page, hurry: bool) -> bool:
    """One click on the page as a person would: a highlighted target, else (in a hurry) a move
    that ends a step, else the first highlighted region, else the first move offered."""
    before = await page.locator("#game-version").inner_text()
    targets = page.locator("svg.board .region.target")
    regions = page.locator("svg.board .region.clickable")
    kinds = await page.eval_on_selector_all("#choices button.act:not([disabled])",
                                            "els => els.map(e => e.dataset.kind)")
    buttons = page.locator("#choices button.act:not([disabled])")
    ending = [i for i, kind in enumerate(kinds) if _ENDING.match(kind)]
    other = [i for i, kind in enumerate(kinds) if not _ENDING.match(kind)]
    if await targets.count():
        target, submits = targets.first, False
    elif hurry and ending:
        target, submits = buttons.nth(ending[0]), True
    elif other:
        target, submits = buttons.nth(other[0]), True
    elif await regions.count():
        target, submits = regions.first, False
    elif kinds:
        target, submits = buttons.first, True
    else:
        return False
    try:
        await target.click(timeout=3000)
    except PlaywrightTimeout:  # redrawn under the pointer: look again
        return False
    if submits:
        async def moved() -> bool:
            return await page.locator("#game-version").inner_text() != before or \
                not await page.locator("#notice").is_hidden()
        await eventually(moved, 10, "the page to take the click")
    return True


async def test_every_variant_is_played_to_its_end_by_clicking(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, tmp_path: Path,
) -> None:
    """Deep Space, Legacy and Strike (classic: test_play), three seats on one page
    (pass-and-play, every seat's token in the browser), played from the start to the end by
    clicking only, with a turn limit of 6 (two rounds) so each ends within a minute: the page
    ends on GetGame's outcome, the panels agree with GetGame's final view, and no logged event,
    panel or status line reads an enum-style name, -1, undefined, NaN or a brace."""
    for variant in ("deep_space", "legacy", "strike"):
        options, seed = fast_options(variant)
        getattr(options, variant).max_turns = 6
        created = await stub.CreateGame(service_pb2.CreateGameRequest(
            options=options, seed=seed, issue_seat_tokens=True))
        game_id = created.game.game_id
        page = await pages.open()
        await _hold(page, game_id, created.host_token, dict(enumerate(created.seat_tokens)))
        await page.goto(page.url.split("#")[0] + f"#/play/{game_id}")
        await page.wait_for_selector("#totals .seat-totals")
        clicks = 0
        deadline = time.monotonic() + 240
        while not await page.locator("#outcome").count():
            assert time.monotonic() < deadline, f"{variant}: no end after {clicks} clicks"
            if await _click_once(page, hurry=clicks % 4 == 3):
                clicks += 1
            else:
                await asyncio.sleep(0.1)
        final = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                   metadata=bearer(created.seat_tokens[0]))
        assert final.game.status == service_pb2.GAME_STATUS_FINISHED, variant
        await _shown(page, final.game.version)
        assert await _cells(page) == _expected(variant, final.board, len(final.game.seats))
        assert await page.locator("#resign-box").is_hidden()
        for box in ("#log", "#panels", "#dice", "#status"):
            text = await page.locator(box).inner_text()
            assert not _RAW.search(text), (variant, box, _RAW.search(text))
        assert await page.locator("#log li").count() == final.game.last_seq
        await page.screenshot(path=shot(f"clicked-to-the-end-{variant}.png", tmp_path))
        await page.close()


async def test_the_panels_fit_a_phone(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, tmp_path: Path,
) -> None:
    """On a 390x844 phone, a Legacy game some way in (the most figures of any variant): the
    page does not scroll sideways and every button and field, Resign and its confirmation
    included, is a tap target of at least 44 px."""
    created = await _created(stub, "legacy")
    game_id = created.game.game_id
    await _bot_moves(stub, game_id, list(created.seat_tokens), 24)
    page = await pages.open(width=PHONE["width"], height=PHONE["height"])
    await _hold(page, game_id, "", {0: created.seat_tokens[0]})
    await page.goto(page.url.split("#")[0] + f"#/play/{game_id}")
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    await _shown(page, game.version)
    await page.click("#resign")
    await fits_the_phone(page)
    await page.click("#resign-no")
    await page.locator("#panels").screenshot(path=shot("panels-legacy-phone.png", tmp_path))
