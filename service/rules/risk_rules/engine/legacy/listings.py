"""Whose decision it is and the legal actions: the step a game is at (the open window's kind,
else the phase), and per step the actions a seat may take (scars, missiles, HQs, Red Stars,
joining, trades and placements, expansions and attacks, defence, move-in, maneuvers, cards).
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.core.ruleset import Decision, LegalAction
from risk_rules.engine.core.windows import ResponseWindow, deciding
from risk_rules.engine.legacy.battle import MAX_ATTACK_DICE, MAX_DEFENCE_DICE
from risk_rules.engine.legacy.cards import star_payments, trade_payments, value_counts
from risk_rules.engine.legacy.content import WorldBoard, board_of
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
    LegacyState,
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
from risk_rules.engine.legacy.reckoning import (
    expansion_cost,
    maneuvers,
    recruitment,
    start_territories,
)
from risk_rules.engine.legacy.world import Power

WINDOW_KINDS = {WindowKind.SCAR: "scar", WindowKind.MISSILE: "missile"}


def step_of(phase: Phase, windows: Sequence[ResponseWindow]) -> str:
    """The decision kind: the open window's, else the phase's name."""
    if windows:
        return WINDOW_KINDS[WindowKind(windows[-1].kind)]
    return phase.name.lower()


def decision(state: LegacyState) -> Decision:
    if state.phase is Phase.FINISHED:
        return Decision((), "finished")
    if state.windows:
        seat = deciding(state.windows)
    elif state.phase is Phase.DEFEND:
        seat = state.owner[state.attack_to]
    else:
        seat = state.current
    return Decision((seat,), step_of(state.phase, state.windows))


def legal_actions(state: LegacyState, seat: int) -> list[LegalAction]:
    if seat not in decision(state).seats:
        return []
    board = board_of(state.options.world)
    step = step_of(state.phase, state.windows)
    owner, troops = state.owner, state.troops
    if step == "scar":
        legal = [LegalAction(Pass())]
        if state.scar_cards[seat]:
            legal.extend(
                LegalAction(PlayScar(t)) for t in range(TERRITORIES) if not state.scars[t]
            )
        return legal
    if step == "missile":
        legal = [LegalAction(Pass())]
        if state.missiles[seat]:
            for side, hits in ((Side.ATTACKER, state.attack_missiles),
                               (Side.DEFENDER, state.defence_missiles)):
                legal.extend(
                    LegalAction(FireMissile(side, i)) for i, hit in enumerate(hits) if not hit
                )
        return legal
    phase = state.phase
    if phase is Phase.SETUP_HQ:
        spots = start_territories(
            board, seat, owner=owner, hqs=state.hqs, scars=state.scars,
            forts=state.fortifications, hq=True,
        )
        return [LegalAction(PlaceHq(t)) for t in spots]
    if phase is Phase.START:
        counts = value_counts(board, state.hands[seat])
        legal = [
            LegalAction(BuyRedStar(p))
            for p in star_payments(counts, board.content.star_cost)
        ]
        if seat not in owner:
            spots = start_territories(
                board, seat, owner=owner, hqs=state.hqs, scars=state.scars,
                forts=state.fortifications, hq=False,
            )
            legal.extend(LegalAction(JoinWar(t)) for t in spots)
            if not spots:
                legal.append(LegalAction(EndTurn()))
            return legal
        due = recruitment(board, owner, state.hqs, state.options.world.factions[seat].power,
                          seat)
        return legal + recruits(state, seat, board, due.base + due.continent_bonus)
    if phase is Phase.RECRUIT:
        return recruits(state, seat, board, state.pending)
    if phase is Phase.ATTACK:
        legal = []
        for src in range(TERRITORIES):
            if owner[src] != seat or troops[src] < 2:
                continue
            for dst in CLASSIC_BOARD.links[src]:
                if owner[dst] == NOBODY:
                    cost = expansion_cost(board, state.fortifications, dst)
                    if cost + 1 <= troops[src] - 1:
                        legal.append(LegalAction(Expand(src, dst, cost + 1), troops[src] - 1))
                elif owner[dst] != seat and dst not in state.protected:
                    top = min(MAX_ATTACK_DICE, troops[src] - 1)
                    legal.extend(LegalAction(Attack(src, dst, d)) for d in range(1, top + 1))
        power = state.options.world.factions[seat].power
        if power is Power.MANEUVER_ANY_TIME and not state.maneuvered:
            legal.extend(maneuver_entries(state, seat))
        legal.append(LegalAction(EndAttack()))
        return legal
    if phase is Phase.DEFEND:
        top = min(MAX_DEFENCE_DICE, troops[state.attack_to])
        return [LegalAction(Defend(d)) for d in range(1, top + 1)]
    if phase is Phase.MOVE_IN:
        least = min(state.attack_count, troops[state.attack_from] - 1)
        return [LegalAction(MoveIn(least), troops[state.attack_from] - 1)]
    if phase is Phase.MANEUVER:
        return [*maneuver_entries(state, seat), LegalAction(EndTurn())]
    if phase is Phase.DRAW:
        return [
            LegalAction(TakeCard(slot)) for slot, card in enumerate(state.sideboard)
            if card >= 0 and owner[card] == seat
        ]
    return []


def recruits(
    state: LegacyState, seat: int, board: WorldBoard, pending: int
) -> list[LegalAction]:
    """Trades and placements with `pending` recruits (in START, those yet to be told)."""
    legal: list[LegalAction] = []
    if not state.traded:
        counts = value_counts(board, state.hands[seat])
        legal.extend(LegalAction(TradeResources(p)) for p in trade_payments(counts))
    legal.extend(
        LegalAction(PlaceTroops(t, 1), pending)
        for t in range(TERRITORIES) if state.owner[t] == seat
    )
    return legal


def maneuver_entries(state: LegacyState, seat: int) -> list[LegalAction]:
    power = state.options.world.factions[seat].power
    found = maneuvers(state.owner, state.troops, seat, power)
    return [
        LegalAction(Maneuver(src, dst, 1), state.troops[src] - 1)
        for src, targets in found.items() for dst in targets
    ]
