"""The web app's automated accessibility audit (issue 38 item 3): axe-core, the npm package
pinned in clients/node's lock file (installed by scripts/setup's `npm ci`; nothing is fetched
here), run in Chromium over every page of the app: the lobby, the create form, the play view of
each variant, the spectator view, a replay, my games, the host's page, an invitation link,
the leaderboard, play now, an event's page and the overlay. The report (rule, impact, how many
elements, per page) is printed in the test's output, and any "serious" or "critical" finding
fails the test. The same pages carry no text a person would read as code: an enum-style name,
-1, undefined, NaN or a brace.

`tour` is shared with test_phone_layout.py, which walks the same pages on a phone."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from risk_proto.risk.v1 import (
    classic_pb2,
    events_pb2,
    game_pb2,
    player_games_pb2,
    players_pb2,
    service_pb2,
    service_pb2_grpc,
)
from tests.service.finished_games import fast_options, finished_game
from tests.web.conftest import Pages

Stub = service_pb2_grpc.RiskServiceStub
ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "clients" / "node" / "node_modules" / "axe-core" / "axe.min.js"
TEXT_TABLE = ROOT / "service" / "rules" / "risk_rules" / "text" / "en.json"
VARIANTS = ("classic", "deep_space", "strike", "legacy")
ORGANISER = [("authorization", "Bearer web-organiser-secret")]
# what no person should read: an enum-style name, -1, undefined, NaN, braces
RAW = re.compile(r"[A-Z]{3,}_[A-Z_]{3,}|(?<![\w-])-1\b|undefined|NaN|[{}]")
# the findings that fail the audit
FAILING = ("serious", "critical")


@dataclass
class Games:
    """What the tour's pages show: a game of every variant with every seat's token, a
    finished classic game, a waiting game with its host token, an invitation link, an event,
    and a signed-in player."""

    playing: dict[str, service_pb2.CreateGameResponse]
    finished: str
    waiting: service_pb2.CreateGameResponse
    link: str
    event: str
    me: players_pb2.IssuePlayerTokenResponse


async def make_games(stub: Stub) -> Games:
    playing = {}
    for variant in VARIANTS:
        options, seed = fast_options(variant)
        playing[variant] = await stub.CreateGame(service_pb2.CreateGameRequest(
            options=options, seed=seed, issue_seat_tokens=True,
            seat_names=["Ada", "Bea", "Cy", "Dee", "Eve"][:_players(options)]))
    finished = (await finished_game(stub, "classic")).game_id
    me = await stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest())
    host_player = await stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest())
    waiting = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(players=3)),
        seat_players=[host_player.player_id], seat_names=["Ada"]))
    host = [("authorization", f"Bearer {waiting.host_token}")]
    link = await stub.CreateInvitation(player_games_pb2.CreateInvitationRequest(
        game_id=waiting.game.game_id, seat=2, link=True), metadata=host)
    await stub.CreateInvitation(player_games_pb2.CreateInvitationRequest(
        game_id=waiting.game.game_id, seat=1, invitee=me.player_id), metadata=host)
    await stub.CreateEvent(events_pb2.CreateEventRequest(
        event="audit-cup", format=events_pb2.EVENT_FORMAT_SWISS, rounds=1,
        options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
            players=3, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True,
            max_turns=2))), metadata=ORGANISER)
    await stub.RegisterEvent(events_pb2.RegisterEventRequest(event="audit-cup", name="Ada"),
                             metadata=[("authorization", f"Bearer {me.token}")])
    return Games(playing, finished, waiting, link.code, "audit-cup", me)


def _players(options: game_pb2.GameOptions) -> int:
    case = options.WhichOneof("variant")
    return int(getattr(options, case or "classic").players)


async def _hold(page: Page, games: Games) -> None:
    """The browser holds every seat of the playing games, the waiting game's host token, and
    the signed-in player (as the lobby and My games leave them)."""
    held = {created.game.game_id: {"host": created.host_token,
                                   "seats": {str(s): t for s, t in
                                             enumerate(created.seat_tokens)}}
            for created in games.playing.values()}
    held[games.waiting.game.game_id] = {"host": games.waiting.host_token, "seats": {}}
    me = {"playerId": games.me.player_id, "token": games.me.token,
          "expiresAtMs": games.me.expires_at_ms}
    await page.evaluate("([tokens, me]) => { localStorage.setItem('risk.tokens.v1', tokens); "
                        "localStorage.setItem('risk.player.v1', me); }",
                        [json.dumps(held), json.dumps(me)])


async def _visit(page: Page, base: str, path: str, ready: str) -> None:
    if path.startswith("/#"):
        # a new route in the same document, as the header's links do
        await page.evaluate("hash => { location.hash = hash; }", path[1:])
    else:
        await page.goto(base + path)
    await page.wait_for_selector(ready, timeout=20_000)


async def tour(pages: Pages, stub: Stub, *, width: int = 1280, height: int = 860
               ) -> AsyncIterator[tuple[str, Page]]:
    """Every page of the web app, drawn and settled, one after another on one browser page:
    yields (the page's name, the page)."""
    games = await make_games(stub)
    page = await pages.open("/", width=width, height=height)
    await _hold(page, games)
    base = pages.base_url
    await page.goto(base + "/#/")
    await page.wait_for_selector("#create")
    await page.wait_for_selector("table.games tbody tr")
    yield "lobby", page
    await page.select_option("#create [name=variant]", "legacy")
    yield "create form (Legacy's options)", page
    for variant, created in games.playing.items():
        game_id = created.game.game_id
        await _visit(page, base, f"/#/play/{game_id}", "#totals .seat-totals")
        await page.wait_for_selector("#choices > *")
        yield f"play {variant}", page
    classic = games.playing["classic"].game.game_id
    await _visit(page, base, f"/#/watch/{classic}", "#totals .seat-totals")
    await page.wait_for_selector("#log li[data-seq]")
    yield "spectator", page
    await _visit(page, base, f"/#/replay/{games.finished}", "#scrub")
    await page.wait_for_selector("main[data-drawn]")
    yield "replay", page
    await _visit(page, base, "/#/me", "#refresh")
    await page.wait_for_selector("#my-games li[data-game], #invitations li")
    yield "my games", page
    await _visit(page, base, f"/#/host/{games.waiting.game.game_id}", "#game-invitations li")
    yield "host", page
    await _visit(page, base, f"/#/invite/{games.link}", "#accept-invitation")
    yield "invitation link", page
    await _visit(page, base, "/#/leaderboard/classic", "#board-summary")
    yield "leaderboard", page
    await _visit(page, base, "/#/match", "#match-find")
    yield "play now", page
    await _visit(page, base, f"/app/event.html#{games.event}", "#registered, #register")
    yield "event", page
    await _visit(page, base, f"/app/overlay.html#game={classic}", "#players li, #players tr")
    yield "overlay", page


async def audit(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is: [{id, impact, nodes: [target, ...],
    help}]."""
    if not await page.evaluate("() => typeof window.axe === 'object'"):
        # evaluated through DevTools, which the page's Content-Security-Policy does not govern
        await page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    found: list[dict[str, Any]] = await page.evaluate("""async () => {
        const result = await axe.run(document, { resultTypes: ["violations"] });
        return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.map((n) => n.target.join(" ")) }));
    }""")
    return found


async def visible_text(page: Page) -> list[str]:
    """Every text node a person sees on the page (not hidden, not inside script or style)."""
    texts: list[str] = await page.evaluate("""() => {
        const out = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const parent = n.parentElement;
          if (!parent || !n.textContent.trim()) continue;
          if (parent.closest("script, style, [hidden]")) continue;
          const box = parent.getBoundingClientRect();
          if (!box.width && !box.height) continue;
          if (getComputedStyle(parent).visibility === "hidden") continue;
          out.push(n.textContent.trim());
        }
        return out;
    }""")
    return texts


async def _reads_the_tables_words(page: Page) -> None:
    """The play view's own words are the text table's (en.json's "ui." words), so a locale
    added to the table translates the page."""
    words = json.loads(TEXT_TABLE.read_text(encoding="utf-8"))["words"]
    headings = await page.eval_on_selector_all(".panel h2", "hs => hs.map(h => h.textContent)")
    for key in ("ui.yourMove", "ui.yourCards", "ui.events"):
        assert words[key] in headings, (key, headings)
    acting = await page.locator("#choices p.muted").first.inner_text()
    assert acting.startswith(words["ui.actingAs"].split("{")[0]), acting
    assert await page.locator("#nav-me").inner_text() == words["ui.nav.myGames"]


async def test_axe_finds_nothing_serious_on_any_page(pages: Pages, stub: Stub,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """axe-core over every page: the report printed, no serious or critical finding, and no
    visible text reading as code."""
    assert AXE.is_file(), f"{AXE} is missing: run bash scripts/setup (npm ci)"
    report: list[str] = []
    failing: list[str] = []
    raw: list[str] = []
    visited = []
    async for name, page in tour(pages, stub):
        visited.append(name)
        found = await audit(page)
        report.append(f"{name}: " + (", ".join(
            f"{v['id']} ({v['impact']}, {len(v['nodes'])})"
            for v in found) or "no finding"))
        failing.extend(f"{name}: {v['id']} ({v['impact']}) {v['help']}: {v['nodes'][:5]}"
                       for v in found if v["impact"] in FAILING)
        raw.extend(f"{name}: {text!r}" for text in await visible_text(page) if RAW.search(text))
        if name == "play classic":
            await _reads_the_tables_words(page)
    version = json.loads((AXE.parent / "package.json").read_text())["version"]
    with capsys.disabled():  # the report is the test's output, passing or not
        print(f"\naxe-core {version} audit of the web app, per page:\n  "
              + "\n  ".join(report))
    assert len(visited) == 11 + len(VARIANTS), visited
    assert not failing, "serious or critical findings:\n" + "\n".join(failing)
    assert not raw, "text that reads as code:\n" + "\n".join(raw)


# every region label whose box (as Chromium lays it out) overlaps another region's label, or
# another region's circle
_OVERLAPS = """() => {
    const regions = [...document.querySelectorAll("svg.board .region")].map((g) => ({
      name: g.dataset.name, label: g.querySelector(".label").getBoundingClientRect(),
      shape: g.querySelector(".shape").getBoundingClientRect() }));
    const meet = (p, q) => p.width && q.width && p.left < q.right && q.left < p.right &&
      p.top < q.bottom && q.top < p.bottom;
    const out = [];
    regions.forEach((a, i) => regions.forEach((b, j) => {
      if (i < j && meet(a.label, b.label)) out.push(`${a.name} / ${b.name}`);
      if (i !== j && meet(a.label, b.shape)) out.push(`${a.name} on ${b.name}`);
    }));
    return out;
}"""


async def test_no_two_region_labels_overlap_on_any_board(pages: Pages, stub: Stub) -> None:
    """Each variant's board, drawn at a desktop's width and on a phone: every region's name
    is clear of every other region's name and of every other region's circle."""
    for variant in VARIANTS:
        options, seed = fast_options(variant)
        created = await stub.CreateGame(service_pb2.CreateGameRequest(
            options=options, seed=seed, issue_seat_tokens=True))
        for width, height in ((1280, 860), (390, 844)):
            page = await pages.open(f"/#/watch/{created.game.game_id}", width=width,
                                    height=height)
            await page.wait_for_selector("svg.board .region[data-owner] .label")
            overlaps = await page.evaluate(_OVERLAPS)
            assert not overlaps, f"{variant} at {width} px: labels overlap: {overlaps}"
            await page.context.close()
