"""The built-in classic bot: weighted-random over the legal actions, never stalling.

It sees only what its seat may see (the seat's view and its legal actions), so the same policy
drives in-process bot games and bots playing through the public API. It prefers trades, border
placements, attacks with the odds on its side and moves towards the front, and it ends phases
when nothing looks worth doing, so bot games reach an outcome.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate, compress

from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.classic.listings import attack_listing, fortify_listing, frontier
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
    TradeCards,
)
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, LegalAction


def _is_border(state: ClassicView, seat: int, t: int) -> bool:
    return any(state.owner[n] != seat for n in CLASSIC_BOARD.links[t])


def _weight(state: ClassicView, seat: int, entry: LegalAction) -> int:
    action = entry.action
    owner, armies = state.owner, state.armies
    if isinstance(action, TradeCards):
        return 1000
    if isinstance(action, ClaimTerritory):
        region = CLASSIC_BOARD.regions[CLASSIC_BOARD.region_of[action.territory]]
        mine = sum(1 for t in region.members if owner[t] == seat)
        return 2 + 4 * mine
    if isinstance(action, PlaceArmies):
        t = action.territory
        if not _is_border(state, seat, t):
            return 1
        enemies = sum(armies[n] for n in CLASSIC_BOARD.links[t] if owner[n] != seat)
        return 10 + armies[t] + enemies
    if isinstance(action, Attack):
        lead = armies[action.from_territory] - armies[action.to_territory]
        if action.dice < min(3, armies[action.from_territory] - 1) or lead < 1:
            return 0
        return 4 * lead + 8
    if isinstance(action, EndAttack):
        return 12
    if isinstance(action, Fortify):
        src, dst = action.from_territory, action.to_territory
        if _is_border(state, seat, src) or not _is_border(state, seat, dst):
            return 0
        return 5 + armies[src]
    if isinstance(action, EndTurn):
        return 6
    return 1


def _count(entry: LegalAction, rng: Pcg32) -> Action:
    """Pick a count: usually everything allowed, sometimes a random part."""
    if not entry.max_count:
        return entry.action
    # As `options[-1] if rng.below(3) else rng.choice(options)` over `entry.instances()`, with
    # the same draws, without building every instance of a range that can hold hundreds.
    index = -1 if rng.below(3) else rng.below(entry.size())
    action = entry.action
    if isinstance(action, MoveIn):  # the ranges this bot meets, built without `replace`
        return MoveIn(range(action.count, entry.max_count + 1)[index])
    if isinstance(action, PlaceArmies):
        return PlaceArmies(action.territory, range(action.count, entry.max_count + 1)[index])
    if isinstance(action, Fortify):
        count = range(action.count, entry.max_count + 1)[index]
        return Fortify(action.from_territory, action.to_territory, count)
    return entry.instance(index)


def _positive_weights(
    state: ClassicView, seat: int, legal: Sequence[LegalAction]
) -> tuple[list[int], list[int]]:
    """The indexes of the entries of `legal` whose `_weight` is positive (none is negative), and
    those weights, with the common action types inlined: an attack step weighs some fifty
    listed attacks, nearly all of them zero, so this loop is most of the bot's cost."""
    owner, armies, links = state.owner, state.armies, CLASSIC_BOARD.links
    inland: dict[int, bool] = {}  # territory -> no enemy neighbour, as far as asked
    indexes: list[int] = []
    weights: list[int] = []
    hit = indexes.append
    append = weights.append
    for index, entry in enumerate(legal):
        action = entry.action
        if isinstance(action, Attack):
            have = armies[action.from_territory]
            if action.dice < (have - 1 if have < 4 else 3):  # fewer than min(3, have - 1)
                continue
            lead = have - armies[action.to_territory]
            if lead >= 1:
                hit(index)
                append(4 * lead + 8)
        elif isinstance(action, Fortify):  # weight 0 unless src is inland and dst a border
            src = action.from_territory
            src_inland = inland.get(src)
            if src_inland is None:
                src_inland = inland[src] = not _is_border(state, seat, src)
            if not src_inland:
                continue
            dst = action.to_territory
            dst_inland = inland.get(dst)
            if dst_inland is None:
                dst_inland = inland[dst] = not _is_border(state, seat, dst)
            if not dst_inland:
                hit(index)
                append(5 + armies[src])
        elif isinstance(action, PlaceArmies):
            t = action.territory
            enemies = 0
            exposed = False
            for n in links[t]:
                if owner[n] != seat:
                    exposed = True
                    enemies += armies[n]
            hit(index)
            append(10 + armies[t] + enemies if exposed else 1)
        else:
            weight = _weight(state, seat, entry)
            if weight:
                hit(index)
                append(weight)
    return indexes, weights


def _attack_weights(
    state: ClassicView, seat: int, legal: Sequence[LegalAction]
) -> tuple[list[int], list[int]] | None:
    """`_positive_weights` of the ATTACK phase's own listing (`listings.attack_listing`, which
    `legal` must equal, else None), worked out a target at a time instead of an entry at a time:
    a source with `have` armies lists n = min(3, have - 1) attacks per enemy neighbour, with
    1 to n dice, and only the last of them, with n dice, can weigh anything. The weights come
    as running totals, for `_draw_index`."""
    owner, armies = state.owner, state.armies
    if type(owner) is not tuple or type(armies) is not tuple:  # the memos key on tuples
        return None
    if legal != attack_listing(owner, armies, seat):  # shared entries: compared by identity
        return None
    indexes: list[int] = []
    totals: list[int] = []
    total = 0
    index = -1  # the last entry listed so far
    for src, targets, _ in frontier(owner, seat):
        have = armies[src]
        if have < 2:
            continue
        dice = have - 1 if have < 4 else 3
        for dst in targets:
            index += dice
            lead = have - armies[dst]
            if lead >= 1:  # the weight of `_weight` for an attack with the most dice
                total += 4 * lead + 8
                indexes.append(index)
                totals.append(total)
    indexes.append(index + 1)  # EndAttack closes the listing, weighing 12
    totals.append(total + 12)
    return indexes, totals


def _fortify_weights(
    state: ClassicView, seat: int, legal: Sequence[LegalAction]
) -> tuple[list[int], list[int]] | None:
    """`_positive_weights` of the FORTIFY phase's own listing (`listings.fortify_listing`, which
    `legal` must equal, else None), a source at a time: a move weighs anything only from an
    inland source to a border territory (`_weight`), so a border source's moves are skipped.
    The weights come as running totals, for `_draw_index`."""
    owner, armies = state.owner, state.armies
    if type(owner) is not tuple or type(armies) is not tuple:  # the memos key on tuples
        return None
    listing, moves = fortify_listing(owner, armies, seat, state.options.fortify)
    if legal != listing:  # shared entries: compared by identity
        return None
    links = CLASSIC_BOARD.links
    # the territories with an enemy neighbour: those next to an enemy territory
    border = set().union(*[links[t] for t, held_by in enumerate(owner) if held_by != seat])
    indexes: list[int] = []
    totals: list[int] = []
    total = 0
    index = 0  # the first entry of the source's moves
    for src, targets in moves:
        if src not in border:
            # its moves to border territories, each weighing 5 + armies, picked out without a
            # Python loop per move
            picked = len(indexes)
            to_border = map(border.__contains__, targets)
            indexes.extend(compress(range(index, index + len(targets)), to_border))
            weight = 5 + armies[src]
            end = total + weight * (len(indexes) - picked)
            totals.extend(range(total + weight, end + 1, weight))
            total = end
        index += len(targets)
    indexes.append(index)  # EndTurn closes the listing, weighing 6
    totals.append(total + 6)
    return indexes, totals


def _draw_index(indexes: list[int], totals: list[int], count: int, rng: Pcg32) -> int:
    """The index `rng.weighted(full)` draws for the full weight list `full` of `count` entries
    that is positive at `indexes` only (all 1 when it is 0 everywhere), given the running totals
    of those weights, with the same draws: zero weights never take the pick, so the walk can
    skip them, and `pick < total so far` is `weighted`'s `pick < weight` after subtracting the
    weights before."""
    if not totals:  # every weight is positive: the total is 0 only when there are none
        return rng.below(count)
    pick = rng.below(totals[-1])
    for at, total in enumerate(totals):  # (enumerate: faster than a zip with indexes)
        if pick < total:
            return indexes[at]
    raise AssertionError("unreachable: pick < total")


def choose(state: ClassicView, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    """One action from `legal` for the seat whose view `state` is."""
    seat = state.viewer
    if not legal:
        raise ValueError(f"seat {seat} has no decision to make")
    phase = state.phase
    weighed = None
    if phase is Phase.ATTACK:  # most decisions: first
        weighed = _attack_weights(state, seat, legal)
    elif phase is Phase.DEFEND:
        return max((e.action for e in legal), key=lambda a: a.dice if isinstance(a, Defend) else 0)
    elif phase is Phase.MOVE_IN:
        entry = legal[0]
        assert isinstance(entry.action, MoveIn)
        return _count(entry, rng)
    elif phase is Phase.FORTIFY:
        weighed = _fortify_weights(state, seat, legal)
    if weighed is None:
        indexes, weights = _positive_weights(state, seat, legal)
        weighed = indexes, list(accumulate(weights))
    indexes, totals = weighed
    return _count(legal[_draw_index(indexes, totals, len(legal), rng)], rng)
