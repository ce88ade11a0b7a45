"""What a person does on the web app's pages, as the browser tests do it: fill the lobby's
form, click territories and buttons, read what the page shows (the board's regions carry
data-region, data-owner and data-count; the log's entries data-seq)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from playwright.async_api import Locator, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc, variant_pb2

# buttons taken before anything else when offered: answers the game waits for
_ANSWERS = ("defend", "moveIn", "tradeCards", "claimTerritory", "placeNeutral", "placeArmies")


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float = 20.0,
                     what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await check():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def create_game(page: Page, variant: str, seating: str, **options: str) -> str:
    """Create a game from the lobby's form; returns its id (the page moves to its view when
    it holds a seat)."""
    await page.goto(page.url.split("#")[0] + "#/")
    await page.wait_for_selector("#create")
    await page.select_option("#create [name=variant]", variant)
    for name, value in options.items():
        field = page.locator(f"#create [name={name}]")
        if await field.evaluate("e => e.tagName") == "SELECT":
            await field.select_option(value)
        else:
            await field.fill(value)
    await page.select_option("#create [name=seating]", seating)
    await page.click("#create button[type=submit]")
    await page.wait_for_url("**/#/play/*")
    return page.url.rsplit("/", 1)[1]


async def notice(page: Page) -> str:
    box = page.locator("#notice")
    return "" if await box.is_hidden() else await box.inner_text()


@dataclass
class Player:
    """Plays a seat through its page: answers first, a few attacks a turn, then ends."""

    page: Page
    attacks_left: int = 2
    clicks: int = 0

    async def step(self) -> bool:
        """One click, if the page offers one; False when it is not this page's move."""
        page = self.page
        targets = page.locator("svg.board .region.target")
        if await targets.count():
            return await self._click(targets.first)
        buttons = page.locator("#choices button.act:not([disabled])")
        # read at once: the page redraws its choices whenever the game moves
        kinds = await page.eval_on_selector_all(
            "#choices button.act:not([disabled])", "els => els.map(e => e.dataset.kind)")
        clickable = page.locator("svg.board .region.clickable")
        if "attack" in kinds:
            self.attacks_left -= 1
            return await self._click(buttons.nth(len(kinds) - 1 - kinds[::-1].index("attack")))
        for kind in _ANSWERS:
            if kind in kinds:
                # the most dice (the last button) for a defence, the first of anything else
                index = len(kinds) - 1 - kinds[::-1].index(kind) if kind == "defend" \
                    else kinds.index(kind)
                return await self._click(buttons.nth(index))
        if "endAttack" in kinds and self.attacks_left > 0 and await clickable.count():
            return await self._click(clickable.first)
        for kind in ("endAttack", "endTurn"):
            if kind in kinds:
                self.attacks_left = 2 if kind == "endTurn" else self.attacks_left
                return await self._click(buttons.nth(kinds.index(kind)))
        if await clickable.count():
            return await self._click(clickable.first)
        if kinds:
            return await self._click(buttons.first)
        return False

    async def _click(self, target: Locator) -> bool:
        before = await self.page.locator("#game-version").inner_text()
        region = await target.get_attribute("data-region") is not None
        try:
            await target.click(timeout=3000)
        except PlaywrightTimeout:  # redrawn under the pointer: look again
            return False
        self.clicks += 1
        # a region selects (no submit); a button submits: wait for the page to show the next
        # version, or an answer in words
        if not region:
            await eventually(lambda: self._moved(before), 10, "the page to take the click")
        return True

    async def _moved(self, before: str) -> bool:
        if await self.page.locator("#game-version").inner_text() != before:
            return True
        return bool(await notice(self.page))


async def board_of(page: Page) -> list[tuple[int, int]]:
    """(owner, count) per region as the page draws them, by region id."""
    cells = await page.eval_on_selector_all(
        "svg.board [data-region]",
        "els => els.map(e => [Number(e.dataset.region), Number(e.dataset.owner),"
        " Number(e.dataset.count)])")
    return [(owner, count) for _, owner, count in sorted(cells)]


async def logged_seqs(page: Page) -> list[int]:
    seqs = await page.eval_on_selector_all("#log li[data-seq]",
                                           "els => els.map(e => Number(e.dataset.seq))")
    return sorted(seqs)


def classic_board(reply: service_pb2.GetGameResponse) -> list[tuple[int, int]]:
    view = reply.board.classic
    return list(zip(view.owner, view.armies, strict=True))


def drawn_board(board: game_pb2.BoardView, described: variant_pb2.VariantDescription
                ) -> list[tuple[int, int]]:
    """(owner, count) per region as the web app should draw `board`, written here from the
    rules of each variant's board (docs/web.md), not taken from the page's code: classic and
    legacy, a territory's owner and armies; deep space, the seat with the most recruits on a
    planet (the first such seat on a tie); strike, per continent the holder of its coin, else
    the seat holding most of its cards, and how many of its cards are held."""
    size = len(described.map.regions)
    out = [(-1, 0)] * size
    case = board.WhichOneof("variant")
    if case == "classic":
        return list(zip(board.classic.owner, board.classic.armies, strict=True))
    if case == "legacy":
        return list(zip(board.legacy.owner, board.legacy.troops, strict=True))
    if case == "deep_space":
        for seat, per_planet in enumerate(board.deep_space.recruits):
            for planet, count in enumerate(per_planet.values):
                if planet < size and count > out[planet][1]:
                    out[planet] = (seat, count)
        return out
    if case == "strike":
        (deck,) = [d for d in described.decks if d.name == "continent"]
        continent_of = {card.id: card.region for card in deck.cards}
        held: list[dict[int, int]] = [{} for _ in range(size)]
        for seat, cards in enumerate(board.strike.continents):
            for card in cards.values:
                continent = continent_of.get(card, -1)
                if 0 <= continent < size:
                    held[continent][seat] = held[continent].get(seat, 0) + 1
        for continent, by_seat in enumerate(held):
            coin = board.strike.coins[continent] if continent < len(board.strike.coins) else -1
            most = max(by_seat.items(), key=lambda item: (item[1], -item[0]), default=None)
            owner = coin if coin >= 0 else most[0] if most else -1
            out[continent] = (owner, sum(by_seat.values()))
        return out
    raise AssertionError(f"no drawing rule for a {case} board")


async def page_tokens(page: Page, game_id: str) -> dict[int, str]:
    """The seat tokens the page keeps in the browser's storage for a game."""
    held = await page.evaluate(
        "id => (JSON.parse(localStorage.getItem('risk.tokens.v1') || '{}')[id] || {}).seats",
        game_id)
    return {int(seat): token for seat, token in (held or {}).items()}


def _metadata(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


_ENDINGS = ("end_attack", "end_turn")


async def move_by_grpc(stub: service_pb2_grpc.RiskServiceStub, game_id: str,
                       tokens: dict[int, str]) -> bool:
    """One classic move for the seat whose decision it is, over gRPC (not through a page):
    the turn's end where it may end, else the first legal action with its largest count.
    False once the game is over."""
    # as a seat: a spectator's view of a game with a spectator delay runs behind
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                               metadata=_metadata(tokens[min(tokens)]))).game
    if game.status != service_pb2.GAME_STATUS_ACTIVE or not game.decision.seats:
        return False
    seat = game.decision.seats[0]
    legal = await stub.ListLegalActions(
        service_pb2.ListLegalActionsRequest(game_id=game_id, seat=seat),
        metadata=_metadata(tokens[seat]))
    actions = list(legal.actions)
    choice = next((a for a in actions if a.action.classic.WhichOneof("kind") in _ENDINGS),
                  actions[0])
    action = game_pb2.Action()
    action.CopyFrom(choice.action)
    if choice.max_count:
        kind = action.classic.WhichOneof("kind")
        getattr(action.classic, kind).count = choice.max_count  # type: ignore[arg-type]
    await stub.SubmitAction(service_pb2.SubmitActionRequest(
        game_id=game_id, action=action, expected_version=legal.version, seat=seat,
        request_id=f"test-{legal.version}"), metadata=_metadata(tokens[seat]))
    return True
