"""The Legacy planner bot: races for Red Stars, picking each turn a headquarters to take (or a
card to earn) and massing its troops for it.

Red Stars win a Legacy game: four of them, counting the HQs a seat controls and the tokens it
buys with 4 cards. So the planner buys a star whenever it can, keeps its cards for stars, and
each turn re-plans from its view: the best of (a chain of territories ending at an enemy HQ, a
single conquest that earns the turn's card, an opponent's last territories) by the exact dice
odds (`core.bots`) times what it brings. Recruits go to that plan's staging territory, unless
one of its own HQs is outnumbered by the enemies next to it; attacks and expansions follow the
plan while their odds hold, empty land next to it is taken when it costs nothing, and the
maneuver brings idle inland troops to the front. Response windows (scars, missiles) and setup
are answered as the greedy bot answers them, without its randomness where a best answer is
plain.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
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
from risk_rules.engine.legacy import bot
from risk_rules.engine.legacy.model import (
    NOBODY,
    Attack,
    BuyRedStar,
    Defend,
    EndAttack,
    EndTurn,
    Expand,
    JoinWar,
    LegacyView,
    Maneuver,
    MoveIn,
    Phase,
    PlaceHq,
    PlaceTroops,
    TakeCard,
    TradeResources,
)

LINKS = CLASSIC_BOARD.links
STAR_VALUE = 12  # an HQ taken: a Red Star for this seat, one fewer for its owner
CARD_VALUE = 3  # the first conquest of a turn earns a card: a quarter of a star
HAND_KEPT = 4  # cards a Red Star costs: kept rather than traded for troops
GOOD_ODDS = 0.6
PLAN_ODDS = 0.35
HQ_REACH = 4  # territories on the way to an enemy HQ worth planning for


def _path(view: LegacyView, seat: int, source: int, goal: int) -> list[int] | None:
    """The fewest-territories way from `source` to `goal` through territories not the seat's
    (empty or an enemy's), `goal` included; None beyond `HQ_REACH`."""
    owner = view.owner
    came: dict[int, int] = {source: -1}
    queue = deque([source])
    while queue:
        t = queue.popleft()
        if t == goal:
            path = []
            while t != source:
                path.append(t)
                t = came[t]
            path.reverse()
            return path if len(path) <= HQ_REACH else None
        for n in LINKS[t]:
            if n not in came and owner[n] != seat:
                came[n] = t
                queue.append(n)
    return None


def _single_value(view: LegacyView, target: int) -> float:
    held_by = view.owner[target]
    value = 1.0
    if not view.conquered:
        value += CARD_VALUE
    left = view.owner.count(held_by)
    if left <= 2:  # knocking a player out brings its cards
        value += (3 - left) * view.hand_counts[held_by]
    return value


def best_plan(view: LegacyView, seat: int, extra: int, sources: Sequence[int]) -> Plan | None:
    owner, troops = view.owner, view.troops
    enemy_hqs = [h for h in view.hqs if owner[h] not in (seat, NOBODY)]
    best: Plan | None = None
    for source in sources:
        attackers = troops[source] - 1 + extra
        if attackers < 1:
            continue
        for hq in enemy_hqs:
            path = _path(view, seat, source, hq)
            if not path:
                continue
            chance = chain_odds(attackers, [troops[t] for t in path])
            score = chance * (STAR_VALUE + len(path) + (0 if view.conquered else CARD_VALUE))
            if best is None or score > best.score:
                best = Plan(source, path, chance, score)
        for target in LINKS[source]:
            if owner[target] in (seat, NOBODY) or target in view.protected:
                continue
            chance = conquest_odds(attackers, troops[target])
            score = chance * _single_value(view, target)
            if best is None or score > best.score:
                best = Plan(source, [target], chance, score)
    return best


def _threat(view: LegacyView, seat: int, t: int) -> int:
    owner, troops = view.owner, view.troops
    return sum(troops[n] for n in LINKS[t] if owner[n] not in (seat, NOBODY))


def _borders(view: LegacyView, seat: int) -> list[int]:
    owner = view.owner
    return [t for t in range(TERRITORIES)
            if owner[t] == seat and any(owner[n] != seat for n in LINKS[t])]


def _recruit(view: LegacyView, seat: int, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    """A star if the cards allow, a trade only of cards beyond the next star's, else every
    recruit on one territory: an outnumbered HQ of its own, or the plan's staging ground."""
    stars = [e.action for e in legal if isinstance(e.action, BuyRedStar)]
    if stars:
        return min(stars, key=lambda a: (sum(a.values), a.values))
    trades = [e.action for e in legal if isinstance(e.action, TradeResources)
              and len(view.hand) - len(e.action.values) >= HAND_KEPT]
    if trades:
        return max(trades, key=lambda a: (sum(a.values), a.values))
    joins = [e.action for e in legal if isinstance(e.action, JoinWar)]
    if joins:
        return min(joins, key=lambda a: (_threat(view, seat, a.territory), a.territory))
    placements = {e.action.territory: e for e in legal if isinstance(e.action, PlaceTroops)}
    if not placements:
        return bot.choose(view, legal, rng)
    most = max(e.max_count for e in placements.values())
    troops = view.troops
    exposed = [h for h in view.hqs if h in placements and
               _threat(view, seat, h) >= troops[h]]
    if exposed:
        target = max(exposed, key=lambda h: (_threat(view, seat, h) - troops[h], -h))
    else:
        plan = best_plan(view, seat, most, [t for t in _borders(view, seat) if t in placements])
        if plan is not None:
            target = plan.source
        else:
            target = max(placements, key=lambda t: (_threat(view, seat, t), -t))
    return placements[target].instance(-1)


def _attack(view: LegacyView, seat: int, legal: Sequence[LegalAction]) -> Action:
    attacks = most_dice(legal, Attack)
    expands: dict[tuple[int, int], LegalAction] = {}
    for entry in legal:
        action = entry.action
        if isinstance(action, Expand):
            expands[(action.from_territory, action.to_territory)] = entry
    troops = view.troops
    sources = sorted({src for src, _ in attacks} | {src for src, _ in expands})
    plan = best_plan(view, seat, 0, sources)
    if plan is not None:
        step = plan.chain[0]
        key = (plan.source, step)
        if key in attacks:
            odds = conquest_odds(troops[plan.source] - 1, troops[step])
            if odds >= GOOD_ODDS or (plan.chance >= PLAN_ODDS and odds >= PLAN_ODDS):
                return attacks[key]
        elif key in expands and plan.chance >= PLAN_ODDS:
            return expands[key].instance(-1)  # on the way to an HQ: everything goes
    # empty land for free (no city to pay for), from a stack that can spare the troops
    for (src, _), entry in sorted(expands.items()):
        action = entry.action
        assert isinstance(action, Expand)
        if action.count == 1 and troops[src] - 1 > _threat(view, seat, src) // 2 + 1:
            return action
    return EndAttack()


def _move_in(view: LegacyView, seat: int, entry: LegalAction) -> Action:
    """As classic's planner moves in, with an HQ left behind guarded twice as hard (an HQ
    left weak is a star handed over), and an HQ taken held as if it faced enemies."""
    assert isinstance(entry.action, MoveIn)
    behind = _threat(view, seat, view.attack_from)
    if view.attack_from in view.hqs:
        behind *= 2
    ahead = _threat(view, seat, view.attack_to) or (view.attack_to in view.hqs)
    return move_in_count(entry, behind, int(ahead))


def _maneuver(view: LegacyView, seat: int, legal: Sequence[LegalAction]) -> Action:
    owner, troops = view.owner, view.troops
    best: tuple[tuple[int, int], LegalAction] | None = None
    for entry in legal:
        action = entry.action
        if not isinstance(action, Maneuver):
            continue
        src, dst = action.from_territory, action.to_territory
        if any(owner[n] != seat for n in LINKS[src]) or src in view.hqs:
            continue  # a border territory or an HQ keeps its troops
        threat = _threat(view, seat, dst) * (2 if dst in view.hqs else 1)
        if not threat:
            continue
        key = (troops[src], threat)
        if best is None or key > best[0]:
            best = (key, entry)
    if best is None:
        return EndTurn()
    return best[1].instance(-1)


def choose(view: LegacyView, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    """One action from `legal` for the seat whose view `view` is."""
    seat = view.viewer
    if not legal:
        raise ValueError(f"seat {seat} has no decision to make")
    if view.windows:
        return bot.choose(view, legal, rng)
    phase = view.phase
    if phase is Phase.ATTACK:
        return _attack(view, seat, legal)
    if phase is Phase.DEFEND:
        return max((e.action for e in legal), key=lambda a: a.dice if isinstance(a, Defend) else 0)
    if phase is Phase.MOVE_IN:
        return _move_in(view, seat, legal[0])
    if phase is Phase.MANEUVER:
        return _maneuver(view, seat, legal)
    if phase in (Phase.START, Phase.RECRUIT):
        return _recruit(view, seat, legal, rng)
    if phase is Phase.DRAW:
        takes = [e.action for e in legal if isinstance(e.action, TakeCard)]
        if takes:
            return max(takes, key=lambda a: (view.card_values[view.sideboard[a.slot]], -a.slot))
    if phase is Phase.SETUP_HQ and any(isinstance(e.action, PlaceHq) for e in legal):
        return bot.choose(view, legal, rng)
    return uniform_choice(legal, rng)
