"""Whose decision it is and the legal actions: the step a game is at (the top window's kind,
else the phase), the tactics cards a seat could play there, and the attacks it could declare.

`card_actions` is shared with the auto-pass option (windows.auto_seats), so a seat is passed
for exactly when it has nothing to list.
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.core.ruleset import Action, Decision, LegalAction
from risk_rules.engine.core.windows import ResponseWindow, deciding
from risk_rules.engine.strike.cards import (
    LINKS,
    continent_of,
    of_tactic,
    tactic_of,
)
from risk_rules.engine.strike.model import (
    Attack,
    Deploy,
    DrawCards,
    Pass,
    PassTurn,
    Phase,
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
    StrikeState,
    Tactic,
    WindowKind,
)
from risk_rules.engine.strike.play import BOMBARD_VALUE, DRAWS_PER_TURN, NO_SIDE

WINDOW_STEP = {
    WindowKind.DEPLOY: "deploy",
    WindowKind.AFTER_DEPLOY: "after_deploy",
    WindowKind.AFTER_ROLL: "after_roll",
    WindowKind.CANCEL: "cancel",
}


def step_of(phase: Phase, windows: Sequence[ResponseWindow]) -> str:
    """The decision kind: the top window's kind, else the phase's name."""
    if windows:
        return WINDOW_STEP[WindowKind(windows[-1].kind)]
    return phase.name.lower()


def card_actions(
    step: str,
    seat: int,
    hand: Sequence[int],
    *,
    players: int,
    out: Sequence[bool],
    troops: Sequence[Sequence[int]],
    sides: Sequence[int],
    attack_dice: Sequence[int],
    defence_dice: Sequence[int],
) -> list[Action]:
    """The tactics cards `seat` could play now (every target and option), without Pass."""
    found: list[Action] = []
    has = {tactic_of(c) for c in hand}
    if step in ("draw", "main", "continue"):
        if Tactic.SPY in has:
            found.extend(PlaySpy(t) for t in range(players) if t != seat and not out[t])
        if Tactic.EXPAND in has:
            found.extend((PlayExpand(True), PlayExpand(False)))
    if step in ("after_deploy", "after_roll") and Tactic.ARTILLERY in has:
        found.extend(PlayArtillery(t) for t in range(players) if t != seat and troops[t])
    if step == "after_deploy" and Tactic.SABOTAGE in has:
        found.append(PlaySabotage())
    if step == "after_roll" and sides[seat] != NO_SIDE:
        if Tactic.RALLY in has:
            found.append(PlayRally())
        if Tactic.BOMBARD in has:
            for side, dice in ((Side.ATTACKER, attack_dice), (Side.DEFENDER, defence_dice)):
                found.extend(
                    PlayBombard(side, i) for i, value in enumerate(dice) if value < BOMBARD_VALUE
                )
    if step == "cancel" and Tactic.CANCEL_ORDER in has:
        found.append(PlayCancelOrder())
    return found


def deploy_sides(seat: int, current: int, defender: int) -> tuple[Side, ...]:
    if seat == current:
        return (Side.ATTACKER,)
    if seat == defender:
        return (Side.DEFENDER,)
    return (Side.ATTACKER, Side.DEFENDER)


def decision(state: StrikeState) -> Decision:
    if state.phase is Phase.FINISHED:
        return Decision((), "finished")
    seat = deciding(state.windows) if state.windows else state.current
    return Decision((seat,), step_of(state.phase, state.windows))


def legal_actions(state: StrikeState, seat: int) -> list[LegalAction]:
    if seat not in decision(state).seats:
        return []
    step = step_of(state.phase, state.windows)
    cards = card_actions(
        step, seat, state.hands[seat], players=state.options.players, out=state.out,
        troops=state.troops, sides=state.sides, attack_dice=state.attack_dice,
        defence_dice=state.defence_dice,
    )
    legal: list[LegalAction] = []
    if step == "draw":
        legal.extend(LegalAction(DrawCards(k)) for k in range(DRAWS_PER_TURN + 1))
    elif step == "main":
        legal.extend(LegalAction(a) for a in attacks(state, seat))
        legal.append(LegalAction(PassTurn()))
    elif step == "continue":
        legal.extend((LegalAction(RollAgain()), LegalAction(StopAttack())))
    elif step == "deploy":
        troops = len(of_tactic(state.hands[seat], Tactic.TROOPS))
        if troops:
            legal.extend(
                LegalAction(Deploy(side, 1), troops)
                for side in deploy_sides(seat, state.current, state.defender)
            )
        legal.append(LegalAction(Pass()))
    else:
        legal.append(LegalAction(Pass()))
    legal.extend(LegalAction(a) for a in cards)
    return legal


def attacks(state: StrikeState, seat: int) -> list[Attack]:
    found = []
    mine = {continent_of(c) for c in state.continents[seat]}
    for defender in range(state.options.players):
        if defender == seat or state.out[defender]:
            continue
        theirs = {continent_of(c) for c in state.continents[defender]}
        for src in sorted(mine):
            for dst in sorted({src, *LINKS[src]} & theirs):
                found.append(Attack(defender, src, dst))
    return found
