"""A Deep Space move and the battle it starts: a crew (with its space dog) moves or warps, and if
the destination holds an opponent's recruits the two sides roll one die each until one is gone.
"""

from __future__ import annotations

from risk_rules.engine.deep_space.model import (
    NONE,
    BattleEnded,
    BattleRolled,
    Move,
    Moved,
    Warp,
)
from risk_rules.engine.deep_space.play import DeepSpaceGame


def move(game: DeepSpaceGame, seat: int, action: Move | Warp) -> None:
    origin, destination, count = action.origin, action.destination, action.count
    warp = isinstance(action, Warp)
    dogs = game.dogs[seat][origin] if action.with_dog else 0
    game.recruits[seat][origin] -= count
    game.recruits[seat][destination] += count
    game.dogs[seat][origin] -= dogs
    game.dogs[seat][destination] += dogs
    game.moves_left -= 1
    game.emit(Moved(seat, origin, destination, count, dogs, warp))
    defender = game.occupant(destination, seat)
    if defender != NONE:
        fight(game, seat, defender, destination)


def fight(game: DeepSpaceGame, attacker: int, defender: int, planet: int) -> None:
    """One die each until one side is gone; ties go to the defender (to the attacker under
    Battle Cry). A side's space dog takes its first lost roll."""
    cry, game.battle_cry = game.battle_cry, False
    while game.recruits[attacker][planet] and game.recruits[defender][planet]:
        a_roll, d_roll = game.rng.die(), game.rng.die()
        won = a_roll > d_roll or (cry and a_roll == d_roll)
        loser = defender if won else attacker
        dog = game.dogs[loser][planet] > 0
        if dog:
            game.dogs[loser][planet] -= 1
        else:
            game.recruits[loser][planet] -= 1
            game.supply[loser] += 1
        game.emit(BattleRolled(planet, attacker, defender, a_roll, d_roll, loser, dog))
    winner = attacker if game.recruits[attacker][planet] else defender
    game.emit(BattleEnded(planet, attacker, defender, winner, game.recruits[winner][planet]))
