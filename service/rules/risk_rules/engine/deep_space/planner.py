"""The Deep Space planner bot: runs its turn as a build order towards its next base.

Four bases win, each needing 3 of its recruits on a planet and 3 ore. Each decision re-plans
from the seat's view: the next base site is the planet it can fill soonest (recruits already
there, few moves from its crews, no enemy holding it), and the turn goes in the order that pays
most: trade weak cards, mine every planet it may (ore while a base is short of it, else gems),
play the free resource cards, build every base it can, spend its gems on recruits, then use its
moves to bring crews (the home station's, and what a built base no longer needs) one link at a
time towards the site, keeping two recruits on every mining planet. It fights only with the odds
well on its side, and ends the turn when nothing is worth doing. Every action it picks uses up
something finite (moves, gems, cards, mining), so a turn always ends.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import lru_cache

from risk_rules.engine.core.bots import uniform_choice
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, LegalAction
from risk_rules.engine.deep_space import bot
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD as BOARD
from risk_rules.engine.deep_space.cards import card_type
from risk_rules.engine.deep_space.model import (
    BASE_ORE,
    BASE_RECRUITS,
    BuildBase,
    CardKind,
    DeepSpaceView,
    EndTurn,
    Mine,
    Move,
    Phase,
    PlayCard,
    Recruit,
    Resource,
    TradeCards,
    Warp,
)

MINE_KEPT = 2  # recruits a planet needs to be mined
FREE_CARDS = {CardKind.ORE_HAUL: 2500, CardKind.GEM_RUSH: 2400, CardKind.REINFORCEMENTS: 2450}


@lru_cache(maxsize=64)
def _distances(players: int, home: int, goal: int) -> dict[int, int]:
    """Links from each node to `goal`, over the planets in play for `players` (a crew never
    enters a home station), with the seat's own station `home` as a start. The board is fixed,
    so each answer is worked out once."""
    in_play = BOARD.layouts[players].in_play
    far = {goal: 0}
    queue = deque([goal])
    while queue:
        node = queue.popleft()
        for n in BOARD.links[node]:
            if n in far or not in_play[n]:
                continue
            if BOARD.is_station(n) and n != home:
                continue
            far[n] = far[node] + 1
            if not BOARD.is_station(n):
                queue.append(n)
    return far


def _site(seen: bot.Seen) -> int | None:
    """The planet the next base should go on: the one needing the fewest recruits brought,
    counting the links the nearest crew has to cover."""
    view, seat = seen.view, seen.seat
    in_play = BOARD.layouts[view.options.players].in_play
    places = [n for n, count in enumerate(seen.mine) if count > 0]
    best: tuple[int, int] | None = None
    site = None
    for planet in range(BOARD.planets):
        if not in_play[planet] or planet in seen.bases or seen.enemy[planet]:
            continue
        if view.force_fields[planet] not in (-1, seat):
            continue
        far = _distances(view.options.players, seen.home, planet)
        reach = min((far[n] for n in places if n in far), default=None)
        if reach is None:
            continue
        need = max(0, BASE_RECRUITS - seen.mine[planet])
        key = (need + 2 * reach, planet)
        if best is None or key < best:
            best, site = key, planet
    return site


def _spare(seen: bot.Seen, origin: int) -> int:
    """Recruits that may leave `origin`: all at home; on a planet, those beyond the two that
    mine it (all of them on a planet with no base to build and nothing to mine for)."""
    crew = seen.mine[origin]
    if origin == seen.home:
        return crew
    return max(0, crew - MINE_KEPT)


def _move_score(seen: bot.Seen, entry: LegalAction, site: int | None,
                far: dict[int, int]) -> tuple[int, Action | None]:
    action = entry.action
    assert isinstance(action, Move | Warp)
    origin, destination = action.origin, action.destination
    warp = isinstance(action, Warp)
    most = entry.max_count or action.count
    if seen.enemy[destination]:  # a battle: only with a clear edge, and with everything
        strength = most + seen.view.dogs[seen.seat][origin]
        defence = seen.enemy[destination] + seen.enemy_dogs[destination]
        if strength < 2 * defence + 2:
            return 0, None
        return 200 + 10 * (strength - defence), entry.instance(-1)
    if site is None or origin == site:
        return 0, None
    spare = min(_spare(seen, origin), most)
    if spare < action.count:
        return 0, None
    here, there = far.get(origin), far.get(destination)
    if there is None or (here is not None and there >= here):
        return 0, None
    if warp and seen.gems < 2:
        return 0, None
    need = max(0, BASE_RECRUITS - seen.mine[site]) if destination == site else spare
    count = max(action.count, min(spare, max(need, 1) if destination == site else spare))
    return 600 + 10 * count - 5 * there - (50 if warp else 0), \
        entry.instance(count - action.count)


def _card_score(seen: bot.Seen, entry: LegalAction) -> int:
    action = entry.action
    assert isinstance(action, PlayCard)
    kind = card_type(action.card).kind
    if kind in FREE_CARDS:
        return FREE_CARDS[kind]
    if kind is CardKind.PROSPECTOR:
        wanted = Resource.ORE if seen.wants_ore() else Resource.GEM
        return 2300 if action.resource is wanted else 0
    if kind is CardKind.METEOR_STRIKE and action.pay_from == seen.home and seen.mine[seen.home]:
        return 900 + 10 * (entry.max_count or action.count)
    if kind is CardKind.SABOTAGE and action.pay_from == seen.home and seen.mine[seen.home]:
        return 800 if seen.view.ore[action.target] >= 2 else 0
    return 0


def choose(view: DeepSpaceView, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    """One action from `legal` for the seat whose view `view` is."""
    if not legal:
        raise ValueError(f"seat {view.viewer} has no decision to make")
    if view.phase is Phase.DOG:
        return bot.choose(view, legal, rng)
    seen = bot.Seen(view)
    site = _site(seen)
    far = _distances(view.options.players, seen.home, site) if site is not None else {}
    best_score = 0
    best: Action | None = None
    for entry in legal:
        action = entry.action
        score = 0
        pick: Action | None = action
        if isinstance(action, TradeCards):
            weak = all(card_type(c).kind in bot.WEAK for c in action.cards)
            score = 6000 if weak else 0
        elif isinstance(action, Mine):
            score = 5000 if (action.resource is Resource.ORE) == seen.wants_ore() else 4000
        elif isinstance(action, BuildBase):
            score = 3000
        elif isinstance(action, PlayCard):
            score = _card_score(seen, entry)
            pick = entry.instance(-1)
        elif isinstance(action, Recruit):
            keep = 1 if seen.ore >= BASE_ORE else 0  # a gem for a warp to the site
            count = (entry.max_count or action.count) - keep
            score = 2000 if count >= action.count else 0
            pick = entry.instance(count - action.count) if score else None
        elif isinstance(action, Move | Warp):
            score, pick = _move_score(seen, entry, site, far)
        elif isinstance(action, EndTurn):
            score = 1 if action.discard < 0 else 0
        if score > best_score and pick is not None:
            best_score, best = score, pick
    return best if best is not None else uniform_choice(legal, rng)
