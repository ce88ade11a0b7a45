"""Classic `apply` takes a short path for attacks; it must give exactly what the full rule gives.

Four actions in five are attacks, so `apply` settles an attack whose target holds without the
work area (`battle.quick_attack`). Along bot games in several option sets, every listed attack
and a spread of illegal ones go through `apply` and through the full rule (`battle.attack` on a
`ClassicGame`): same state, same events, or the same reason code.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from risk_rules.engine import IllegalAction, get_ruleset
from risk_rules.engine.classic import battle
from risk_rules.engine.classic.board import TERRITORIES
from risk_rules.engine.classic.model import Attack, ClassicState, Phase
from risk_rules.engine.classic.play import ClassicGame
from risk_rules.engine.core.dice import battle_losses, sort_high
from risk_rules.engine.core.rng import Pcg32

RULES = get_ruleset("classic")


def _full_rule(state: ClassicState, seat: int, action: Attack) -> tuple[Any, ...]:
    """The outcome of the attack through the general path: ("ok", state, events) or the reason."""
    game = ClassicGame(state)
    try:
        battle.attack(game, seat, action)
    except IllegalAction as exc:
        return ("illegal", exc.reason)
    return ("ok", game.freeze(), game.events)


def _applied(state: ClassicState, seat: int, action: Attack) -> tuple[Any, ...]:
    try:
        after, events = RULES.apply(state, seat, action)
    except IllegalAction as exc:
        return ("illegal", exc.reason)
    return ("ok", after, events)


def _candidates(state: ClassicState, seat: int) -> list[Attack]:
    """Every listed attack, and attacks that break each check in turn."""
    listed = [e.action for e in RULES.legal_actions(state, seat) if isinstance(e.action, Attack)]
    mine = [t for t in range(TERRITORIES) if state.owner[t] == seat]
    theirs = [t for t in range(TERRITORIES) if state.owner[t] != seat]
    odd: list[Attack] = [Attack(-1, 0, 1), Attack(TERRITORIES, 0, 1), Attack(mine[0], 99, 1)]
    if theirs:
        odd.append(Attack(theirs[0], mine[0], 1))  # not the seat's territory
        odd.append(Attack(mine[0], theirs[-1], 1))  # most likely not adjacent
    if len(mine) > 1:
        odd.append(Attack(mine[0], mine[1], 1))  # own target
    for a in listed[:3]:
        odd += [dataclasses.replace(a, dice=d) for d in (0, -1, 4, 3)]
    return listed + odd


@pytest.mark.parametrize(("players", "overrides"), [
    (4, {"auto_defend_max_dice": True}),
    (4, {}),
    (2, {"auto_defend_max_dice": True}),
    (2, {}),
    (3, {"auto_defend_max_dice": True, "cards": False}),
    # duplicate play's generator (core.draws) on both paths
    (4, {"auto_defend_max_dice": True, "duplicate_draws": True}),
    (2, {"duplicate_draws": True}),
])
def test_quick_attack_equals_full_rule(players: int, overrides: dict[str, Any]) -> None:
    """Every attack tried along bot games gives the same state and events (or reason) both ways."""
    options = dataclasses.replace(RULES.default_options(players), **overrides)
    compared = 0
    for seed in (1, 2):
        state, _ = RULES.create(options, seed)
        for step in range(1500):
            if RULES.outcome(state) is not None:
                break
            seat = RULES.decision(state).seats[0]
            if state.phase is Phase.ATTACK and step % 3 == 0:
                for action in _candidates(state, seat):
                    want, got = _full_rule(state, seat, action), _applied(state, seat, action)
                    assert got[0] == want[0] and got[1] == want[1], (seed, step, action)
                    if want[0] == "ok":
                        assert got[2] == want[2], (seed, step, action)
                    compared += 1
            state, _ = RULES.apply(state, seat, RULES.bot_action(state, seat, step))
    assert compared > 500


def test_roll_battle_matches_core_dice() -> None:
    """The battle roll (with its inlined loss count) is core.dice's, from the same draws."""
    for seed in range(400):
        for attack in (1, 2, 3):
            for defence in (1, 2):
                ours, theirs = Pcg32.from_seed(seed, 3), Pcg32.from_seed(seed, 3)
                attack_roll = sort_high(theirs.dice(attack))
                defence_roll = sort_high(theirs.dice(defence))
                want = (attack_roll, defence_roll, *battle_losses(attack_roll, defence_roll))
                assert battle.roll_battle(ours, attack, defence) == want
                assert ours.state == theirs.state
