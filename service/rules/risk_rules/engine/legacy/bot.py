"""The built-in Legacy bot: weighted-random over the legal actions, never stalling.

It sees only what its seat may see (its view and its legal actions), so the same policy drives
in-process games and bots playing through the public API. It buys a Red Star whenever it can
(with its cheapest cards), saves its cards for stars rather than trading them, places HQs and
joins where there is room, reinforces its borders, expands cheaply, attacks with the odds on its
side (HQs above all), plays Bunker on its own ground and Ammo Shortage on its enemies', fires a
missile when that turns a lost pair of its own battle, and ends phases with a solid weight.
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, LegalAction
from risk_rules.engine.legacy.model import (
    NOBODY,
    Attack,
    BuyRedStar,
    Defend,
    EndAttack,
    EndTurn,
    Expand,
    FireMissile,
    JoinWar,
    LegacyView,
    Maneuver,
    MoveIn,
    Pass,
    Phase,
    PlaceHq,
    PlaceTroops,
    PlayScar,
    Side,
    TakeCard,
    TradeResources,
    WindowKind,
)
from risk_rules.engine.legacy.world import Scar

SMALL_CONTINENT = 4  # territories: South America and Australia are easy to hold
HAND_KEPT = 4  # cards saved for the next Red Star
RICH_TRADE = 6  # resources worth trading even below a Red Star's cards


def _is_border(view: LegacyView, seat: int, t: int) -> bool:
    return any(view.owner[n] != seat for n in CLASSIC_BOARD.links[t])


def _room(view: LegacyView, t: int) -> int:
    return sum(1 for n in CLASSIC_BOARD.links[t] if view.owner[n] == NOBODY)


def _enemies_near(view: LegacyView, seat: int, t: int) -> int:
    return sum(
        view.troops[n] for n in CLASSIC_BOARD.links[t]
        if view.owner[n] not in (seat, NOBODY)
    )


def _pairs_won(attack: Sequence[int], defence: Sequence[int]) -> int:
    """Pairs the attacker wins minus pairs it loses, on the dice as given (high to low)."""
    score = 0
    for a, d in zip(sorted(attack, reverse=True), sorted(defence, reverse=True), strict=False):
        score += 1 if a > d else -1
    return score


def _missile_gain(view: LegacyView, action: FireMissile) -> int:
    """How many pairs the missile turns for this seat's side (the natural dice, roughly)."""
    me = view.viewer
    defender = view.owner[view.attack_to] if view.attack_to >= 0 else NOBODY
    if me not in (view.current, defender):
        return 0
    attack = [6 if hit else v for v, hit in zip(view.attack_dice, view.attack_missiles,
                                                  strict=True)]
    defence = [6 if hit else v for v, hit in zip(view.defence_dice, view.defence_missiles,
                                                   strict=True)]
    before = _pairs_won(attack, defence)
    if action.side == Side.ATTACKER:
        attack[action.die] = 6
    else:
        defence[action.die] = 6
    after = _pairs_won(attack, defence)
    return after - before if me == view.current else before - after


def _scar_weight(view: LegacyView, t: int) -> int:
    me = view.viewer
    owner = view.owner[t]
    if view.scar_card == Scar.BUNKER:
        if owner != me:
            return 0
        return 6 if t in view.hqs else 2 if _is_border(view, me, t) else 0
    if owner in (me, NOBODY):
        return 0
    near_me = any(view.owner[n] == me for n in CLASSIC_BOARD.links[t])
    return 6 if t in view.hqs else 2 if near_me else 0


def _weight(view: LegacyView, entry: LegalAction, cheapest: int) -> int:
    action = entry.action
    me = view.viewer
    troops = view.troops
    if isinstance(action, BuyRedStar):
        return 1000 if sum(action.values) == cheapest else 0
    if isinstance(action, TradeResources):
        keep = len(view.hand) - len(action.values)
        if keep >= HAND_KEPT:
            return 50
        return 3 if sum(action.values) >= RICH_TRADE else 0
    if isinstance(action, PlaceHq | JoinWar):
        region = CLASSIC_BOARD.regions[CLASSIC_BOARD.region_of[action.territory]]
        small = 4 if len(region.members) <= SMALL_CONTINENT else 0
        return 2 + _room(view, action.territory) + small + \
            (3 if not _enemies_near(view, me, action.territory) else 0)
    if isinstance(action, PlayScar):
        return _scar_weight(view, action.territory)
    if isinstance(action, Pass):
        if view.windows and view.windows[-1].kind == WindowKind.SCAR:
            return 10
        return 12
    if isinstance(action, FireMissile):
        return 10 * max(0, _missile_gain(view, action))
    if isinstance(action, PlaceTroops):
        t = action.territory
        if not _is_border(view, me, t):
            return 1
        return 10 + troops[t] + _enemies_near(view, me, t) + (6 if t in view.hqs else 0)
    if isinstance(action, Expand):
        cost = action.count - 1
        gain = 12 if action.to_territory in view.hqs else 4
        return max(1, gain - 2 * cost) if troops[action.from_territory] > cost + 2 else 0
    if isinstance(action, Attack):
        lead = troops[action.from_territory] - troops[action.to_territory]
        if action.dice < min(3, troops[action.from_territory] - 1) or lead < 1:
            return 0
        hq = action.to_territory in view.hqs
        return (4 * lead + 8) * (3 if hq else 1)
    if isinstance(action, EndAttack):
        return 14
    if isinstance(action, Maneuver):
        src, dst = action.from_territory, action.to_territory
        if _is_border(view, me, src) or not _is_border(view, me, dst):
            return 0
        return 5 + troops[src]
    if isinstance(action, EndTurn):
        return 6 if view.phase is Phase.MANEUVER else 1
    if isinstance(action, TakeCard):
        return 1 + view.card_values[view.sideboard[action.slot]]
    return 1


def _count(entry: LegalAction, rng: Pcg32) -> Action:
    """Pick a count: usually everything allowed, sometimes a random part."""
    if not entry.max_count:
        return entry.action
    options = entry.instances()
    return options[-1] if rng.below(3) else rng.choice(options)


def choose(view: LegacyView, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    """One action from `legal` for the seat whose view `view` is."""
    if not legal:
        raise ValueError(f"seat {view.viewer} has no decision to make")
    if view.phase is Phase.DEFEND and not view.windows:
        return max((e.action for e in legal), key=lambda a: a.dice if isinstance(a, Defend) else 0)
    if view.phase is Phase.MOVE_IN and not view.windows:
        entry = legal[0]
        assert isinstance(entry.action, MoveIn)
        return _count(entry, rng)
    stars = [sum(e.action.values) for e in legal if isinstance(e.action, BuyRedStar)]
    cheapest = min(stars) if stars else 0
    weights = [_weight(view, e, cheapest) for e in legal]
    if sum(weights) == 0:
        weights = [1] * len(legal)
    return _count(legal[rng.weighted(weights)], rng)
