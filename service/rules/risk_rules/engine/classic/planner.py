"""The classic planner bot: picks what to take this turn, masses its armies there, and attacks
only while its estimated odds hold.

Each decision re-plans from the seat's view (nothing is remembered between decisions, so the
same plan comes back while the board allows it). A plan is a staging territory and a chain of
enemy territories to take from it: either the rest of a continent the chain reaches (scored by
the continent's bonus, or by the bonus an enemy loses when its continent breaks) or a single
neighbour (a card for the first conquest of the turn, an opponent's last territories for its
cards). Each plan's chance comes from the exact dice odds (`core.bots.chain_odds`) with the
armies the staging territory would have. Reinforcements all go to the best plan's staging
territory, attacks follow the plan while each battle's odds stay good, a conquest moves in
what the front needs, and the turn ends by moving idle inland armies to the most threatened
border.
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.classic.model import (
    Attack,
    ClaimTerritory,
    ClassicView,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    MoveIn,
    Phase,
    PlaceArmies,
    PlaceNeutral,
    TradeCards,
)
from risk_rules.engine.core.bots import (
    Plan,
    chain_odds,
    conquest_odds,
    most_dice,
    move_in_count,
    uniform_choice,
)
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, LegalAction

LINKS = CLASSIC_BOARD.links
REGIONS = CLASSIC_BOARD.regions
REGION_OF = CLASSIC_BOARD.region_of

CONTINENT_WEIGHT = 3  # a held continent's bonus, paid every turn, against one territory now
CARD_VALUE = 2  # the first conquest of a turn earns a card
GOOD_ODDS = 0.6  # an attack is made only when the chance of taking the target is at least this
PLAN_ODDS = 0.35  # ... or when it continues a plan at least this likely to come off


def _chain(view: ClassicView, seat: int, source: int, region: int) -> list[int]:
    """The enemy territories of `region` reachable from `source` through enemy territories of
    that region, nearest first (a breadth-first walk, weakest neighbour first)."""
    owner, armies = view.owner, view.armies
    seen = {source}
    frontier = [source]
    chain: list[int] = []
    while frontier:
        step: list[int] = []
        for t in frontier:
            for n in LINKS[t]:
                if n not in seen and owner[n] != seat and REGION_OF[n] == region:
                    seen.add(n)
                    step.append(n)
        step.sort(key=lambda n: armies[n])
        chain += step
        frontier = step
    return chain


def _region_value(view: ClassicView, seat: int, region: int, chain: list[int]) -> float:
    """What taking `chain` (enemy territories of `region`) is worth, in armies-ish."""
    owner = view.owner
    members = REGIONS[region].members
    bonus = REGIONS[region].bonus
    value = float(len(chain))
    if all(owner[t] == seat or t in chain for t in members):
        value += CONTINENT_WEIGHT * bonus  # the chain completes the continent
    holders = {owner[t] for t in members}
    if len(holders) == 1 and seat not in holders:
        value += bonus  # it breaks an enemy's continent
    return value


def _single_value(view: ClassicView, seat: int, target: int) -> float:
    owner = view.owner
    value = 1.0
    if not view.conquered:
        value += CARD_VALUE
    held_by = owner[target]
    if 0 <= held_by < view.options.players:
        left = owner.count(held_by)
        if left <= 2:  # an elimination brings its cards
            value += (3 - left) * (1 + view.hand_counts[held_by])
    region = REGION_OF[target]
    if all(owner[t] == held_by for t in REGIONS[region].members):
        value += REGIONS[region].bonus  # breaks its continent
    return value


def best_plan(view: ClassicView, seat: int, extra: int, sources: Sequence[int]) -> Plan | None:
    """The best plan from one of `sources`, with `extra` armies placed on its staging
    territory first."""
    owner, armies = view.owner, view.armies
    best: Plan | None = None
    for source in sources:
        attackers = armies[source] - 1 + extra
        if attackers < 1:
            continue
        regions = {REGION_OF[n] for n in LINKS[source] if owner[n] != seat}
        for region in regions:
            chain = _chain(view, seat, source, region)
            if not chain:
                continue
            chance = chain_odds(attackers, [armies[t] for t in chain])
            score = chance * _region_value(view, seat, region, chain)
            if best is None or score > best.score:
                best = Plan(source, chain, chance, score)
        for target in LINKS[source]:
            if owner[target] == seat:
                continue
            chance = conquest_odds(attackers, armies[target])
            score = chance * _single_value(view, seat, target)
            if best is None or score > best.score:
                best = Plan(source, [target], chance, score)
    return best


def _borders(view: ClassicView, seat: int) -> list[int]:
    owner = view.owner
    return [t for t in range(TERRITORIES)
            if owner[t] == seat and any(owner[n] != seat for n in LINKS[t])]


def _threat(view: ClassicView, seat: int, t: int) -> int:
    """Enemy armies next to `t` (the neutral's count too: it never attacks, but it blocks)."""
    owner, armies = view.owner, view.armies
    return sum(armies[n] for n in LINKS[t] if owner[n] != seat and owner[n] < view.options.players)


def _place(view: ClassicView, seat: int, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    placements = [e for e in legal if isinstance(e.action, PlaceArmies)]
    if not placements:
        return uniform_choice(legal, rng)
    by_territory = {e.action.territory: e for e in placements if isinstance(e.action, PlaceArmies)}
    most = max(e.max_count or 1 for e in placements)
    borders = [t for t in _borders(view, seat) if t in by_territory]
    plan = best_plan(view, seat, most if view.phase is Phase.REINFORCE else
                     view.to_place[seat], borders)
    if plan is None:  # nothing to attack from: shore up the most threatened territory
        target = max(by_territory, key=lambda t: (_threat(view, seat, t), -t))
    else:
        target = plan.source
    entry = by_territory[target]
    return entry.instance(-1)


def _trade(view: ClassicView, seat: int, legal: Sequence[LegalAction]) -> Action | None:
    """A trade, whenever one is allowed (the schedule grows with every set traded, so a set
    held is worth less than one traded now), with its +2 on a border territory if it can."""
    trades = [e.action for e in legal if isinstance(e.action, TradeCards)]
    if not trades:
        return None
    borders = set(_borders(view, seat))

    def merit(trade: TradeCards) -> tuple[int, int]:
        bonus = trade.bonus_territory
        return (bonus in borders) * 2 + (bonus >= 0), -bonus

    return max(trades, key=merit)


def _attack(view: ClassicView, seat: int, legal: Sequence[LegalAction]) -> Action:
    attacks = most_dice(legal, Attack)
    sources = sorted({src for src, _ in attacks})
    plan = best_plan(view, seat, 0, sources)
    if plan is not None:
        armies = view.armies
        first = next((t for t in plan.chain if (plan.source, t) in attacks), None)
        if first is not None:
            odds = conquest_odds(armies[plan.source] - 1, armies[first])
            if odds >= GOOD_ODDS or (plan.chance >= PLAN_ODDS and odds >= PLAN_ODDS):
                return attacks[(plan.source, first)]
    return EndAttack()


def _move_in(view: ClassicView, seat: int, entry: LegalAction) -> Action:
    """Everything forward unless the territory left behind still faces enemies; then what
    the front beyond needs, keeping some behind against the threat there."""
    assert isinstance(entry.action, MoveIn)
    behind = _threat(view, seat, view.attack_from)
    return move_in_count(entry, behind, _threat(view, seat, view.attack_to))


def _fortify(view: ClassicView, seat: int, legal: Sequence[LegalAction]) -> Action:
    """The largest idle inland stack to the border territory it can reach that faces the
    most enemy armies; else the turn ends."""
    owner, armies = view.owner, view.armies
    best: tuple[tuple[int, int], LegalAction] | None = None
    for entry in legal:
        action = entry.action
        if not isinstance(action, Fortify):
            continue
        src, dst = action.from_territory, action.to_territory
        if any(owner[n] != seat for n in LINKS[src]):
            continue  # a border territory keeps its armies
        threat = _threat(view, seat, dst)
        if not threat and not any(owner[n] != seat for n in LINKS[dst]):
            continue
        key = (armies[src], threat)
        if best is None or key > best[0]:
            best = (key, entry)
    if best is None:
        return EndTurn()
    return best[1].instance(-1)


def _claim(view: ClassicView, seat: int, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    """The territory of the continent it is likeliest to hold: few territories, many of them
    its own already, few of them an enemy's."""
    owner = view.owner
    best: tuple[float, int] | None = None
    choice: Action | None = None
    for entry in legal:
        action = entry.action
        if not isinstance(action, ClaimTerritory):
            continue
        t = action.territory
        region = REGIONS[REGION_OF[t]]
        mine = sum(owner[m] == seat for m in region.members)
        theirs = sum(owner[m] >= 0 and owner[m] != seat for m in region.members)
        score = (3 * mine - 2 * theirs) / len(region.members) + region.bonus / len(region.members)
        score += 0.1 * sum(owner[n] == seat for n in LINKS[t])
        key = (score, rng.below(1 << 16))
        if best is None or key > best:
            best, choice = key, action
    return choice if choice is not None else uniform_choice(legal, rng)


def _neutral(view: ClassicView, seat: int, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    """A neutral army where it stands most in the opponent's way and least in its own."""
    owner = view.owner
    best: tuple[int, int] | None = None
    choice: Action | None = None
    for entry in legal:
        action = entry.action
        if not isinstance(action, PlaceNeutral):
            continue
        t = action.territory
        theirs = sum(0 <= owner[n] < view.options.players and owner[n] != seat for n in LINKS[t])
        mine = sum(owner[n] == seat for n in LINKS[t])
        key = (theirs - mine, rng.below(1 << 16))
        if best is None or key > best:
            best, choice = key, action
    return choice if choice is not None else uniform_choice(legal, rng)


def choose(view: ClassicView, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    """One action from `legal` for the seat whose view `view` is."""
    seat = view.viewer
    if not legal:
        raise ValueError(f"seat {seat} has no decision to make")
    phase = view.phase
    if phase is Phase.ATTACK:
        return _attack(view, seat, legal)
    if phase is Phase.DEFEND:
        return max((e.action for e in legal), key=lambda a: a.dice if isinstance(a, Defend) else 0)
    if phase is Phase.MOVE_IN:
        return _move_in(view, seat, legal[0])
    if phase is Phase.FORTIFY:
        return _fortify(view, seat, legal)
    if phase is Phase.CLAIM:
        return _claim(view, seat, legal, rng)
    if phase is Phase.SETUP_NEUTRAL:
        return _neutral(view, seat, legal, rng)
    if phase in (Phase.REINFORCE, Phase.SETUP_PLACE):
        trade = _trade(view, seat, legal)
        if trade is not None:
            return trade
        return _place(view, seat, legal, rng)
    return uniform_choice(legal, rng)
