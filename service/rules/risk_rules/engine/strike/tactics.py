"""What a tactics card does when it takes effect, after its Cancel window has closed.

The card is paid and its chain resolved (see windows.resolve): each effect here only changes
the game, and Sabotage ends the battle and the turn.
"""

from __future__ import annotations

from risk_rules.engine.core.dice import sort_high
from risk_rules.engine.strike.model import (
    BattleEnded,
    DiceChanged,
    HandRevealed,
    Side,
    Tactic,
    TacticPlay,
    TroopsDiscarded,
    TroopsReturned,
)
from risk_rules.engine.strike.play import BOMBARD_VALUE, StrikeGame

RALLY_BONUS = 2
ARTILLERY_HITS = 2


def effect(game: StrikeGame, play: TacticPlay) -> None:
    seat = play.seat
    if play.card is Tactic.SPY:
        game.emit(HandRevealed(seat, play.target, tuple(sorted(game.hands[play.target]))))
        game.draw_tactics(seat, 1)
    elif play.card is Tactic.EXPAND:
        if play.continent_cards:
            game.draw_continent(seat, 2)
        else:
            game.draw_tactics(seat, 1)
    elif play.card is Tactic.ARTILLERY:
        hit = sorted(game.troops[play.target])[:ARTILLERY_HITS]
        if hit:
            for card in hit:
                game.troops[play.target].remove(card)
            game.discard(hit)
            game.emit(TroopsDiscarded(play.target, tuple(hit), "artillery"))
    elif play.card is Tactic.SABOTAGE:
        for owner in range(game.seats):
            if game.troops[owner]:
                cards = tuple(game.troops[owner])
                game.hands[owner].extend(cards)
                game.troops[owner] = []
                game.emit(TroopsReturned(owner, cards))
        game.emit(BattleEnded(game.current, "sabotage"))
        game.end_turn()
    elif play.card is Tactic.RALLY:
        if game.sides[seat] == Side.ATTACKER:
            game.attack_dice = tuple(d + RALLY_BONUS for d in game.attack_dice)
        elif game.sides[seat] == Side.DEFENDER:
            game.defence_dice = tuple(d + RALLY_BONUS for d in game.defence_dice)
        game.emit(DiceChanged(seat, play.card, game.attack_dice, game.defence_dice))
    elif play.card is Tactic.BOMBARD:
        dice = list(game.attack_dice if play.side == Side.ATTACKER else game.defence_dice)
        if 0 <= play.die < len(dice):
            dice[play.die] = BOMBARD_VALUE
        if play.side == Side.ATTACKER:
            game.attack_dice = sort_high(dice)
        else:
            game.defence_dice = sort_high(dice)
        game.emit(DiceChanged(seat, play.card, game.attack_dice, game.defence_dice))
