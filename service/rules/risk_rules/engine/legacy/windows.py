"""Legacy's response windows: what a closed window leads to (the scar window to the start of the
turn, the missile window to the battle's outcome), and the answers asked in them (a scar card
played, a missile fired, a pass).
"""

from __future__ import annotations

from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.ruleset import Action
from risk_rules.engine.core.windows import is_closed, pass_turn, respond
from risk_rules.engine.legacy import battle, checks
from risk_rules.engine.legacy.model import (
    FireMissile,
    MissileFired,
    Passed,
    PlayScar,
    ScarPlayed,
    Side,
    WindowKind,
)
from risk_rules.engine.legacy.play import LegacyGame
from risk_rules.engine.legacy.world import Scar


def advance(game: LegacyGame) -> None:
    """Close the window once everyone asked has passed, and go on from there."""
    while game.windows and not game.finished and is_closed(game.windows[-1]):
        window = game.windows.pop()
        if window.kind == WindowKind.SCAR:
            game.begin_start()
        else:
            battle.resolve_battle(game)


def play_scar(game: LegacyGame, seat: int, action: Action) -> None:
    assert isinstance(action, PlayScar)
    scar = game.scar_cards[seat]
    if not scar:
        raise IllegalAction(Reason.CARD_NOT_IN_HAND, f"seat {seat} holds no scar card")
    t = checks.territory(action.territory)
    if game.scars[t]:
        raise IllegalAction(Reason.TERRITORY_SCARRED, f"{checks.name_of(t)} already has a scar")
    game.scars[t] = scar
    game.scar_cards[seat] = 0
    game.emit(ScarPlayed(seat, Scar(scar), t))
    game.windows[-1] = respond(game.windows[-1], seat, order=game.scar_order())
    advance(game)


def pass_window(game: LegacyGame, seat: int, action: Action) -> None:
    game.emit(Passed(seat))
    game.windows[-1] = pass_turn(game.windows[-1], seat)
    advance(game)


def fire_missile(game: LegacyGame, seat: int, action: Action) -> None:
    assert isinstance(action, FireMissile)
    if game.missiles[seat] < 1:
        raise IllegalAction(Reason.NO_MISSILES, f"seat {seat} has no missile left")
    if action.side not in (Side.ATTACKER, Side.DEFENDER):
        raise IllegalAction(
            Reason.WRONG_SIDE, f"side {action.side} is neither attacker nor defender"
        )
    hits = game.attack_missiles if action.side == Side.ATTACKER else game.defence_missiles
    if not 0 <= action.die < len(hits):
        raise IllegalAction(Reason.NO_SUCH_DIE, f"no die at index {action.die} on that side")
    if hits[action.die]:
        raise IllegalAction(Reason.DIE_UNMODIFIABLE, "a missile already made that die a 6")
    hits[action.die] = True
    game.missiles[seat] -= 1
    game.emit(MissileFired(seat, Side(action.side), action.die, game.missiles[seat]))
    game.windows[-1] = respond(game.windows[-1], seat, order=battle.missile_order(game))
    advance(game)
