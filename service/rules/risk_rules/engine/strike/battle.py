"""A Strike battle: the sides and their strength, the dice, the losses, and its end.

An attack's battle runs in rounds: `roll` throws the dice and opens the window after the roll;
when that window closes, `settle_roll` takes the losses (Troops cards first, then continent
cards, which pass to the attacker and may bring a coin) and the battle goes on or ends.
"""

from __future__ import annotations

from risk_rules.engine.core.dice import sort_high
from risk_rules.engine.core.draws import DrawStreams
from risk_rules.engine.core.windows import open_window
from risk_rules.engine.strike.cards import of_continent
from risk_rules.engine.strike.model import (
    NOBODY,
    BattleEnded,
    BattleResolved,
    ContinentCardLost,
    DiceRolled,
    Phase,
    Side,
    TroopsDiscarded,
    WindowKind,
)
from risk_rules.engine.strike.play import StrikeGame

MAX_ATTACK_DICE = 3
MAX_DEFENCE_DICE = 2


def side_seats(game: StrikeGame, side: int) -> list[int]:
    """The seats on a side: its leader first, then supporters clockwise from the attacker."""
    leader = game.current if side == Side.ATTACKER else game.defender
    supporters = [
        (game.current + step) % game.seats for step in range(1, game.seats)
    ]
    others = (game.current, game.defender)
    return [leader, *(s for s in supporters if s not in others and game.sides[s] == side)]


def side_strength(game: StrikeGame, side: int) -> int:
    if side == Side.ATTACKER:
        cards = len(of_continent(game.continents[game.current], game.from_continent))
    else:
        cards = len(of_continent(game.continents[game.defender], game.to_continent))
    return cards + sum(len(game.troops[s]) for s in side_seats(game, side))


def roll(game: StrikeGame) -> None:
    attack = min(MAX_ATTACK_DICE, side_strength(game, Side.ATTACKER))
    defence = min(MAX_DEFENCE_DICE, side_strength(game, Side.DEFENDER))
    if type(game.rng) is DrawStreams:  # duplicate play: a fixed throw, each side's first dice
        thrown = game.rng.battle(attack, defence, attack_slots=MAX_ATTACK_DICE,
                                 defence_slots=MAX_DEFENCE_DICE)
        game.attack_dice, game.defence_dice = sort_high(thrown[:attack]), sort_high(
            thrown[attack:])
    else:
        game.attack_dice = sort_high(game.rng.dice(attack))
        game.defence_dice = sort_high(game.rng.dice(defence))
    game.rolls += 1
    game.emit(DiceRolled(game.attack_dice, game.defence_dice))
    game.phase = Phase.AFTER_ROLL
    game.windows.append(open_window(WindowKind.AFTER_ROLL, game.priority()))


def lose_one(game: StrikeGame, side: int) -> None:
    """One loss: an active Troops card of the side (its leader's own first), else a
    continent card in play (to the attacker, or to the surrender pile)."""
    for seat in side_seats(game, side):
        if game.troops[seat]:
            card = min(game.troops[seat])
            game.troops[seat].remove(card)
            game.discard((card,))
            game.emit(TroopsDiscarded(seat, (card,), "loss"))
            return
    if side == Side.DEFENDER:
        held = of_continent(game.continents[game.defender], game.to_continent)
        if held:
            card = min(held)
            game.continents[game.defender].remove(card)
            game.continents[game.current].append(card)
            game.emit(ContinentCardLost(game.defender, card, game.current))
            game.gained(game.current, game.to_continent)
    else:
        held = of_continent(game.continents[game.current], game.from_continent)
        if held:
            card = min(held)
            game.continents[game.current].remove(card)
            game.surrender = (*game.surrender, card)
            game.emit(ContinentCardLost(game.current, card, NOBODY))


def settle_roll(game: StrikeGame) -> None:
    attacker_losses = defender_losses = 0
    for a, d in zip(game.attack_dice, game.defence_dice, strict=False):
        if a > d:
            defender_losses += 1
        else:
            attacker_losses += 1
    game.emit(BattleResolved(
        game.attack_dice, game.defence_dice, attacker_losses, defender_losses
    ))
    for a, d in zip(game.attack_dice, game.defence_dice, strict=False):
        lose_one(game, Side.DEFENDER if a > d else Side.ATTACKER)
        if game.finished:
            return
    if battle_can_go_on(game):
        game.phase = Phase.CONTINUE
    else:
        end_battle(game, "exhausted")


def battle_can_go_on(game: StrikeGame) -> bool:
    return bool(
        of_continent(game.continents[game.current], game.from_continent)
        and of_continent(game.continents[game.defender], game.to_continent)
    )


def end_battle(game: StrikeGame, reason: str) -> None:
    """The battle is over: remaining active Troops are discarded, and the turn ends."""
    for seat in range(game.seats):
        if game.troops[seat]:
            cards = tuple(game.troops[seat])
            game.discard(cards)
            game.troops[seat] = []
            game.emit(TroopsDiscarded(seat, cards, "battle_end"))
    game.emit(BattleEnded(game.current, reason))
    game.end_turn()
