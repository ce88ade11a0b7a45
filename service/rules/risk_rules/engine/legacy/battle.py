"""A Legacy battle: the dice rolled, the missile window opened after them, the dice as compared
(missiles, fortifications, scars and powers), the losses, a conquest (with a knockout's cards
and a Red Star win) and the move-in after it.
"""

from __future__ import annotations

from risk_rules.engine.core.dice import battle_losses, sort_high
from risk_rules.engine.core.windows import open_window, priority_order
from risk_rules.engine.legacy.model import (
    AttacksStopped,
    BattleResolved,
    DiceRolled,
    FortificationWorn,
    Phase,
    PlayerKnockedOut,
    TerritoryConquered,
    TroopsMoved,
    WindowKind,
)
from risk_rules.engine.legacy.play import LegacyGame
from risk_rules.engine.legacy.world import Power, Scar

MAX_ATTACK_DICE = 3
MAX_DEFENCE_DICE = 2
MISSILE_VALUE = 6
LOW_DIE, HIGH_DIE = 1, 6
WEARING_DICE = 3  # an attack with this many troops uses up a fortification mark


def clamp(value: int) -> int:
    return max(LOW_DIE, min(HIGH_DIE, value))


def roll(game: LegacyGame, defence: int) -> None:
    game.defence_count = defence
    game.attack_dice = sort_high(game.rng.dice(game.attack_count))
    game.defence_dice = sort_high(game.rng.dice(defence))
    game.attack_missiles = [False] * len(game.attack_dice)
    game.defence_missiles = [False] * len(game.defence_dice)
    game.emit(DiceRolled(game.attack_dice, game.defence_dice))
    game.phase = Phase.BATTLE
    order = missile_order(game)
    if order:
        # a fresh window with seats to ask stays open: the first of them answers next
        game.windows = [open_window(WindowKind.MISSILE, order)]
    else:
        resolve_battle(game)


def missile_order(game: LegacyGame) -> tuple[int, ...]:
    """Seats asked in the missile window: live seats with a missile, while a die is left
    that no missile has turned; active player, defender, then clockwise."""
    if all(game.attack_missiles) and all(game.defence_missiles):
        return ()
    return priority_order(
        game.current, game.seats, defender=game.defender(),
        exclude={s for s in range(game.seats) if game.out[s] or not game.missiles[s]},
    )


def final_dice(game: LegacyGame) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The dice as compared: a missile's die is an unmodifiable 6; defence modifiers
    (fortification +1 each, Bunker +1 / Ammo Shortage -1 on the highest, Enclave -1 on the
    lower) apply to the others, within 1..6."""
    attacker, defender, target = game.current, game.defender(), game.attack_to
    attack = [
        MISSILE_VALUE if hit else value
        for value, hit in zip(game.attack_dice, game.attack_missiles, strict=True)
    ]
    bonus = [0] * len(game.defence_dice)
    fortified = game.fortifications[target] > 0 or (
        game.has(defender, Power.FORTIFIED_HQ) and game.hqs[defender] == target
    )
    if fortified:
        bonus = [b + 1 for b in bonus]
    if game.scars[target] == Scar.BUNKER:
        bonus[0] += 1
    elif game.scars[target] == Scar.AMMO_SHORTAGE:
        bonus[0] -= 1
    if (
        game.has(attacker, Power.FEROCITY) and game.ferocity_target == target
        and len(bonus) == MAX_DEFENCE_DICE
    ):
        bonus[-1] -= 1
    defence = [
        MISSILE_VALUE if hit else clamp(value + b)
        for value, hit, b in zip(game.defence_dice, game.defence_missiles, bonus, strict=True)
    ]
    return sort_high(attack), sort_high(defence)


def resolve_battle(game: LegacyGame) -> None:
    attacker, defender = game.current, game.defender()
    src, dst = game.attack_from, game.attack_to
    attack, defence = final_dice(game)
    lost_a, lost_d = battle_losses(attack, defence)
    natural = [v for v, hit in zip(game.attack_dice, game.attack_missiles, strict=True)
               if not hit]
    # the rules digest: a natural triple kills every defender, whatever the comparison
    # (the attacker's own losses from the comparison still stand)
    triple = (
        game.has(attacker, Power.NATURAL_TRIPLE) and len(natural) == MAX_ATTACK_DICE
        and len(set(natural)) == 1
    )
    if triple:
        lost_d = game.troops[dst]
    game.troops[src] -= lost_a
    game.troops[dst] -= lost_d
    game.emit(BattleResolved(
        attacker, defender, src, dst, game.attack_dice, game.defence_dice, attack, defence,
        lost_a, lost_d, triple,
    ))
    if game.fortifications[dst] and game.attack_count >= WEARING_DICE:
        game.fortifications[dst] -= 1
        game.emit(FortificationWorn(dst, game.fortifications[dst]))
    sixes = sum(
        1 for v, hit in zip(game.defence_dice, game.defence_missiles, strict=True)
        if v == HIGH_DIE and not hit
    )
    game.windows = []
    if game.troops[dst] > 0:
        if game.has(defender, Power.STEADFAST_SIXES) and sixes >= 2:
            game.protected = tuple(sorted({*game.protected, dst}))
            game.emit(AttacksStopped(dst))
        game.phase = Phase.ATTACK
        game.clear_attack()
        return
    conquer(game, attacker, defender, src, dst)


def conquer(game: LegacyGame, attacker: int, defender: int, src: int, dst: int) -> None:
    game.owner[dst] = attacker
    game.conquered = True
    game.emit(TerritoryConquered(attacker, dst, defender))
    if not game.territories_of(defender):
        taken = tuple(sorted(game.hands[defender]))
        game.hands[attacker].extend(taken)
        game.hands[defender] = []
        game.emit(PlayerKnockedOut(defender, attacker, taken))
    least = least_move_in(game)
    if game.red_stars(attacker) >= game.content.stars_to_win:
        move_in(game, attacker, least)
        game.finish(attacker, "red_stars")
        return
    if least == game.troops[src] - 1:  # no choice: everything that may move moves
        move_in(game, attacker, least)
        return
    game.phase = Phase.MOVE_IN


def least_move_in(game: LegacyGame) -> int:
    """The dice rolled, or fewer if the attacker's losses leave no more to move."""
    return min(game.attack_count, game.troops[game.attack_from] - 1)


def move_in(game: LegacyGame, seat: int, count: int) -> None:
    src, dst = game.attack_from, game.attack_to
    game.troops[src] -= count
    game.troops[dst] += count
    game.emit(TroopsMoved(seat, src, dst, count))
    game.clear_attack()
    game.phase = Phase.ATTACK
