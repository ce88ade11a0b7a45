"""Strike's response windows: who is asked, auto-pass, what closing a window leads to, and the
chain of tactics cards played in them.

The windows themselves are the engine core's (`core/windows.py`); this module says what each
kind does when it closes (deployment leads to the window after it, which leads to the roll; the
window after a roll to the losses; a Cancel window to its chain's resolution) and how a card
played opens or joins a Cancel window.
"""

from __future__ import annotations

from risk_rules.engine.core.ruleset import Action
from risk_rules.engine.core.windows import (
    ResponseWindow,
    auto_pass,
    is_closed,
    open_window,
    resolve_chain,
    respond,
)
from risk_rules.engine.strike import battle, tactics
from risk_rules.engine.strike.cards import of_tactic
from risk_rules.engine.strike.listings import WINDOW_STEP, card_actions
from risk_rules.engine.strike.model import (
    Passed,
    Phase,
    Tactic,
    TacticPlay,
    TacticPlayed,
    TacticResolved,
    WindowKind,
)
from risk_rules.engine.strike.play import StrikeGame


def cards_for(game: StrikeGame, step: str, seat: int) -> list[Action]:
    """The tactics cards `seat` could play now in the work area (see `listings.card_actions`)."""
    return card_actions(
        step, seat, game.hands[seat], players=game.seats, out=game.out, troops=game.troops,
        sides=game.sides, attack_dice=game.attack_dice, defence_dice=game.defence_dice,
    )


def auto_seats(game: StrikeGame, window: ResponseWindow) -> set[int]:
    """Seats the auto_pass option answers for: those with nothing to play here."""
    if not game.options.auto_pass:
        return set()
    step = WINDOW_STEP[WindowKind(window.kind)]
    auto = set()
    for seat in window.order:
        if step == "deploy":
            if not of_tactic(game.hands[seat], Tactic.TROOPS):
                auto.add(seat)
        elif not cards_for(game, step, seat):
            auto.add(seat)
    return auto


def advance(game: StrikeGame) -> None:
    """Answer for auto-passing seats, and close every window that has closed."""
    while game.windows and not game.finished:
        top, passed = auto_pass(game.windows[-1], auto_seats(game, game.windows[-1]))
        game.windows[-1] = top
        for seat in passed:
            game.emit(Passed(seat, True))
        if not is_closed(top):
            return
        game.windows.pop()
        close(game, top)


def close(game: StrikeGame, window: ResponseWindow) -> None:
    kind = WindowKind(window.kind)
    if kind is WindowKind.DEPLOY:
        game.phase = Phase.AFTER_DEPLOY
        game.windows.append(open_window(WindowKind.AFTER_DEPLOY, game.priority()))
    elif kind is WindowKind.AFTER_DEPLOY:
        battle.roll(game)
    elif kind is WindowKind.AFTER_ROLL:
        battle.settle_roll(game)
    else:
        resolve(game, window)


def play_card(game: StrikeGame, seat: int, play: TacticPlay) -> None:
    """A tactics card goes down: it answers the asked window, and opens a Cancel window."""
    game.hands[seat].remove(play.card_id)
    index = len(game.plays)
    game.plays.append(play)
    game.emit(TacticPlayed(play))
    others = game.priority(exclude={seat})
    if game.windows and game.windows[-1].kind == WindowKind.CANCEL:
        game.windows[-1] = respond(game.windows[-1], seat, index, order=others)
    else:
        if game.windows:  # a response reopens the window it answers
            game.windows[-1] = respond(game.windows[-1], seat)
        game.windows.append(open_window(WindowKind.CANCEL, others, (index,)))
    advance(game)


def resolve(game: StrikeGame, window: ResponseWindow) -> None:
    """A closed Cancel window: its chain resolves last played first, then is discarded."""
    # A departed seat's card takes no effect; its Cancel Order cancels nothing.
    def cancels(index: int) -> bool:
        play = game.plays[index]
        return play.card is Tactic.CANCEL_ORDER and not game.out[play.seat]

    chain = resolve_chain(window.stack, cancels)
    effects: list[TacticPlay] = []
    for index, effective in chain:
        play = game.plays[index]
        takes = effective and not game.out[play.seat]
        game.discard((play.card_id,))
        game.emit(TacticResolved(play.seat, play.card, takes))
        if takes and play.card is not Tactic.CANCEL_ORDER:
            effects.append(play)
    game.plays = []
    for play in effects:
        tactics.effect(game, play)
        if game.finished:
            return
