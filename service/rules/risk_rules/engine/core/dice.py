"""Dice battles as in classic Risk: pair the highest dice, ties go to the defender."""

from __future__ import annotations

from collections.abc import Sequence


def sort_high(dice: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(dice, reverse=True))


def battle_losses(attack: Sequence[int], defence: Sequence[int]) -> tuple[int, int]:
    """(attacker losses, defender losses) for already-sorted (high to low) dice."""
    attacker_losses = defender_losses = 0
    for a, d in zip(attack, defence, strict=False):
        if a > d:
            defender_losses += 1
        else:
            attacker_losses += 1
    return attacker_losses, defender_losses
