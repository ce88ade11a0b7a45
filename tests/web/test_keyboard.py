"""Keyboard play (issue 38 item 3): a page holding both seats of a classic game plays turns with
the keyboard only — Tab to walk the highlighted regions and the move buttons, arrow keys to
move over the map, Enter or Space to choose — through a reinforcement, an attack and the turn's
end, and GetGame moves on with every move. The test reads the page to decide which key to
press, as a person reads the screen; it never clicks."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path

from playwright.async_api import Page

from risk_proto.risk.v1 import classic_pb2, game_pb2, service_pb2, service_pb2_grpc
from tests.web.conftest import Pages
from tests.web.driver import eventually
from tests.web.shots import shot

Stub = service_pb2_grpc.RiskServiceStub
TAB_LIMIT = 120  # more Tab presses than the page has stops: a stop never reached fails

# what the focused element is, in the test's words: ["region", id] or ["button", kind]
_FOCUSED = """() => {
    const e = document.activeElement;
    if (!e) return ["", ""];
    if (e.dataset && e.dataset.region !== undefined) return ["region", e.dataset.region];
    if (e.tagName === "BUTTON") return ["button", e.dataset.kind || e.id || ""];
    return [e.tagName.toLowerCase(), e.id || ""];
}"""


async def _tab_to(page: Page, kind: str, name: str) -> None:
    """Tab (forwards) until the focus is on the region or button named; fails after more
    presses than the page has stops."""
    for _ in range(TAB_LIMIT):
        if await page.evaluate(_FOCUSED) == [kind, name]:
            return
        await page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached the {kind} {name}")


async def _offered(page: Page) -> tuple[list[str], list[str]]:
    """The move buttons' kinds and the highlighted regions' ids, as the page shows them."""
    kinds: list[str] = await page.eval_on_selector_all(
        "#choices button.act:not([disabled])", "els => els.map(e => e.dataset.kind)")
    regions: list[str] = await page.eval_on_selector_all(
        "svg.board .region.clickable", "els => els.map(e => e.dataset.region)")
    return kinds, regions


def _offers_something(page: Page) -> Callable[[], Awaitable[bool]]:
    async def offers() -> bool:
        kinds, regions = await _offered(page)
        return bool(kinds or regions)
    return offers


async def _version(stub: Stub, game_id: str) -> int:
    return int((await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game.version)


async def test_a_classic_turn_is_played_with_the_keyboard_only(
    pages: Pages, stub: Stub, tmp_path: Path,
) -> None:
    """Reinforce (a region chosen with Enter, the move with Space), attack once (a region,
    its target, the dice), move in if asked, end the attacks and the turn: GetGame's version
    moves on with each move and the log has a battle and the turn's end."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
            players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True,
            max_turns=6)),
        seed=11, issue_seat_tokens=True, seat_names=["Ada", "Bea"]))
    game_id = created.game.game_id
    page = await pages.open("/")
    held = {game_id: {"host": created.host_token,
                      "seats": {str(s): t for s, t in enumerate(created.seat_tokens)}}}
    await page.evaluate("held => localStorage.setItem('risk.tokens.v1', held)", json.dumps(held))
    await page.goto(pages.base_url + f"/#/play/{game_id}")
    await page.wait_for_selector("svg.board .region.clickable")

    # arrow keys move over the map: from a region, ArrowRight reaches one further east
    kinds, regions = await _offered(page)
    await _tab_to(page, "region", regions[0])
    start = await page.evaluate("() => document.activeElement.getBoundingClientRect().x")
    await page.keyboard.press("ArrowRight")
    moved = await page.evaluate(_FOCUSED)
    assert moved[0] == "region" and moved[1] != regions[0], moved
    assert await page.evaluate("() => document.activeElement.getBoundingClientRect().x") > start
    await page.keyboard.press("ArrowLeft")

    done: list[str] = []
    attacked = False
    for _ in range(40):
        if "endTurn" in done:
            break
        before = await _version(stub, game_id)
        # the page shows a new version before its moves (they are asked for after it): wait
        # for what it offers, as a person waits for the buttons
        await eventually(_offers_something(page), 15, "the page to offer a move")
        kinds, regions = await _offered(page)
        if "attack" in kinds and not attacked:
            await _tab_to(page, "button", "attack")
            await page.keyboard.press("Enter")
            attacked = True
            kind = "attack"
        elif any(k in kinds for k in ("moveIn", "placeArmies", "defend", "tradeCards")):
            kind = next(k for k in ("moveIn", "placeArmies", "defend", "tradeCards")
                        if k in kinds)
            await _tab_to(page, "button", kind)
            await page.keyboard.press(" ")
        elif "endAttack" in kinds and not attacked and regions:
            # an attack starts on a highlighted region, then its highlighted target
            await _tab_to(page, "region", regions[0])
            await page.keyboard.press("Enter")
            await page.wait_for_selector("svg.board .region.target")
            _, targets = await _offered(page)
            await _tab_to(page, "region", targets[0])
            await page.keyboard.press("Enter")
            await page.wait_for_selector("#choices button.act[data-kind=attack]")
            await _tab_to(page, "button", "attack")
            await page.screenshot(path=shot("keyboard-attack.png", tmp_path))
            continue
        elif "endAttack" in kinds or "endTurn" in kinds:
            kind = "endAttack" if "endAttack" in kinds else "endTurn"
            await _tab_to(page, "button", kind)
            await page.keyboard.press("Enter")
        elif regions:
            # a region first (a reinforcement, a fortify's source): its moves then show
            await _tab_to(page, "region", regions[0])
            await page.keyboard.press("Enter")
            await page.wait_for_selector("#choices button.act, svg.board .region.target")
            _, targets = await _offered(page)
            if await page.locator("svg.board .region.target").count():
                await _tab_to(page, "region", targets[0])
                await page.keyboard.press("Enter")
            continue
        else:
            raise AssertionError(f"the page offers nothing to press: {kinds}")
        done.append(kind)

        async def moved_on(was: int = before) -> bool:
            return await _version(stub, game_id) > was
        await eventually(moved_on, 15, "GetGame to move on after a key press")
        await page.wait_for_selector(
            f"#game-version:text-is('{await _version(stub, game_id)}')")
    print("keys played:", done)
    assert attacked and {"placeArmies", "endTurn"} <= set(done), done
    log = await page.locator("#log").inner_text()
    assert "attacked" in log, log
    assert "ended the turn" in log, log
