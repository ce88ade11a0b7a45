"""The built-in Strike bot: weighted-random over the legal actions, never stalling.

It sees only what its seat may see (its view and its legal actions), so the same policy drives
in-process games and bots playing through the public API. It draws towards the continents it
is close to dominating, attacks where its cards outnumber the defender's, deploys its Troops,
supports the side that is not leading, and plays every kind of tactics card now and then
(Cancel Order mostly against cards that hurt it), so a bot game reaches every rule. Passing
always keeps a solid weight, so no window or turn can stall.
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, LegalAction
from risk_rules.engine.strike.cards import DOMINATION, of_continent, of_tactic
from risk_rules.engine.strike.model import (
    Attack,
    Deploy,
    DrawCards,
    Pass,
    PassTurn,
    PlayArtillery,
    PlayBombard,
    PlayCancelOrder,
    PlayExpand,
    PlayRally,
    PlaySabotage,
    PlaySpy,
    RollAgain,
    Side,
    StopAttack,
    StrikeView,
    Tactic,
    WindowKind,
)

NO_SIDE = 0


def _held(view: StrikeView, seat: int, continent: int) -> int:
    return len(of_continent(view.continents[seat], continent))


def _near_domination(view: StrikeView, seat: int) -> bool:
    return any(
        0 < DOMINATION[c] - _held(view, seat, c) <= 2 and view.coins[c] != seat
        for c in range(len(DOMINATION))
    )


def _my_side(view: StrikeView) -> int:
    return view.sides[view.viewer] if view.viewer >= 0 else NO_SIDE


def _winning(view: StrikeView, side: int) -> bool:
    """Whether `side` wins more pairs than it loses with the dice as they stand."""
    score = 0
    for a, d in zip(view.attack_dice, view.defence_dice, strict=False):
        score += 1 if a > d else -1
    return score > 0 if side == Side.ATTACKER else score < 0


def _leader(view: StrikeView) -> int:
    """The side a neutral bot would rather see lose: the one whose leader has more coins."""
    attacker = view.coins.count(view.current)
    defender = view.coins.count(view.defender)
    if attacker == defender:
        return NO_SIDE
    return Side.ATTACKER if attacker > defender else Side.DEFENDER


def _attack_weight(view: StrikeView, action: Attack) -> int:
    me = view.viewer
    mine = _held(view, me, action.from_continent)
    theirs = _held(view, action.defender, action.to_continent)
    troops = len(of_tactic(view.hand, Tactic.TROOPS))
    edge = min(3, mine + troops) - min(2, theirs)
    weight = 2 + 3 * edge
    if view.coins[action.to_continent] == action.defender:
        weight += 3  # take cards from a coin holder
    if _held(view, me, action.to_continent) + 1 >= DOMINATION[action.to_continent]:
        weight += 4  # one captured card away from a coin
    return max(weight, 1)


def cancel_weight(view: StrikeView) -> int:
    """How much the card on top of the chain hurts this seat (0: it helps)."""
    me = view.viewer
    top = view.plays[view.windows[-1].stack[-1]] if view.plays else None
    if top is None:
        return 0
    side = _my_side(view)
    if top.card is Tactic.CANCEL_ORDER:
        below = view.plays[view.windows[-1].stack[-2]] if len(view.windows[-1].stack) > 1 else None
        return 4 if below is not None and below.seat == me else 1
    if top.card in (Tactic.SPY, Tactic.ARTILLERY):
        return 8 if top.target == me else 1
    if top.card is Tactic.SABOTAGE:
        return 8 if side == Side.ATTACKER else 1
    if top.card in (Tactic.RALLY, Tactic.BOMBARD):
        if side == NO_SIDE:
            return 1
        return 6 if view.sides[top.seat] != side else 0
    return 2  # Expand


def _weight(view: StrikeView, entry: LegalAction, total_attack: int) -> int:
    action = entry.action
    me = view.viewer
    side = _my_side(view)
    if isinstance(action, DrawCards):
        if _near_domination(view, me):
            return (1, 3, 6)[action.continent_cards]
        return (3, 4, 3)[action.continent_cards]
    if isinstance(action, Attack):
        return _attack_weight(view, action)
    if isinstance(action, PassTurn):
        return max(3, total_attack // 3)
    if isinstance(action, PlaySpy):
        return 2
    if isinstance(action, PlayExpand):
        return 3 if action.continent_cards else 1
    if isinstance(action, Deploy):
        if me in (view.current, view.defender):
            return 12
        leader = _leader(view)
        if leader == NO_SIDE:
            return 3
        return 6 if action.side != leader else 1
    if isinstance(action, Pass):
        if view.windows and view.windows[-1].kind == WindowKind.DEPLOY:
            # a supporter stays out more often than not; the battle's own players deploy
            return 8 if me not in (view.current, view.defender) else 2
        return 10
    if isinstance(action, PlaySabotage):
        return 2 if side != Side.ATTACKER else 0
    if isinstance(action, PlayArtillery):
        target_side = view.sides[action.target]
        if side not in (NO_SIDE, target_side):
            return 5
        return 1 if side == NO_SIDE else 0
    if isinstance(action, PlayRally):
        return 6 if not _winning(view, side) else 1
    if isinstance(action, PlayBombard):
        if action.side != side:
            return 0
        return 4 if not _winning(view, side) else 1
    if isinstance(action, PlayCancelOrder):
        return cancel_weight(view)
    if isinstance(action, RollAgain):
        mine = _held(view, view.current, view.from_continent)
        theirs = _held(view, view.defender, view.to_continent)
        return max(1, 3 + 2 * (mine - theirs))
    if isinstance(action, StopAttack):
        return 3
    return 1


def _count(entry: LegalAction, rng: Pcg32) -> Action:
    """Pick a count: usually everything allowed, sometimes a random part."""
    if not entry.max_count:
        return entry.action
    options = entry.instances()
    return options[-1] if rng.below(3) else rng.choice(options)


def choose(view: StrikeView, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    """One action from `legal` for the seat whose view `view` is."""
    if not legal:
        raise ValueError(f"seat {view.viewer} has no decision to make")
    total_attack = sum(
        _attack_weight(view, e.action) for e in legal if isinstance(e.action, Attack)
    )
    weights = [_weight(view, e, total_attack) for e in legal]
    if sum(weights) == 0:
        weights = [1] * len(legal)
    return _count(legal[rng.weighted(weights)], rng)

