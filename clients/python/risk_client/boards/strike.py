"""A Risk Strike game as text, for `risk show` and `risk watch`: the descriptor's renderer.

Strike has no map: each seat holds continent cards face up and tactics cards in a hidden hand.
The board shows the turn and phase, one line per seat (continent cards per continent, the
domination coins it holds, its hand size, and the viewer's own tactics cards), the coins still
in the bank, the battle in progress (who attacks whom, from and to which continent, the Troops
deployed on each side, the last dice) and the response window open now (what it answers, who
is asked, who passed, the cards waiting in a Cancel Order chain). Pure; colour optional.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from risk_client.boards import as_view
from risk_client.seats import BOLD, Seats, paint
from risk_client.wording import plural
from risk_proto.risk.v1 import strike_pb2
from risk_rules.engine.strike.cards import (
    CONTINENT_NAMES,
    DOMINATION,
    continent_of,
    tactic_of,
)
from risk_rules.engine.strike.model import Phase, StrikeView, WindowKind

_PHASES = {
    Phase.DRAW: "draw 2 cards",
    Phase.MAIN: "attack or pass",
    Phase.DEPLOY: "deploy Troops",
    Phase.AFTER_DEPLOY: "after the deploy (Artillery, Sabotage)",
    Phase.AFTER_ROLL: "after the roll (Rally, Bombard, Artillery)",
    Phase.CONTINUE: "roll again or stop",
    Phase.FINISHED: "game over",
}
_WINDOWS = {WindowKind.DEPLOY: "deploy", WindowKind.AFTER_DEPLOY: "after the deploy",
            WindowKind.AFTER_ROLL: "after the roll", WindowKind.CANCEL: "Cancel Order"}


def tactic_name(card: int) -> str:
    return tactic_of(card).name.replace("_", " ").title() if card >= 0 else "hidden"


def _held(cards: Sequence[int]) -> str:
    counts = Counter(continent_of(c) for c in cards)
    return ", ".join(f"{CONTINENT_NAMES[c]} {counts[c]}/{DOMINATION[c]}"
                     for c in sorted(counts)) or "none"


def seat_lines(view: StrikeView, seats: Seats, colour: bool, deciding: Collection[int]
               ) -> list[str]:
    lines = []
    for seat, cards in enumerate(view.continents):
        coins = [CONTINENT_NAMES[c] for c, holder in enumerate(view.coins) if holder == seat]
        text = (f"{seats.label(seat)}: continent cards {_held(cards)}; "
                f"coins {', '.join(coins) or 'none'}; "
                f"{plural(view.hand_counts[seat], 'tactics card')} in hand")
        if view.out[seat]:
            text += "  out"
        if seat in deciding:
            text += "  <- to play"
        lines.append(paint(text, seats.colour(seat), colour))
    return lines


def battle_lines(view: StrikeView, seats: Seats) -> list[str]:
    if view.defender < 0:
        return []
    lines = [f"battle: {seats.label(view.current)} attacks {seats.label(view.defender)} from "
             f"{CONTINENT_NAMES[view.from_continent]} into {CONTINENT_NAMES[view.to_continent]}"]
    sides = []
    for side, word in ((1, "attacker"), (2, "defender")):
        troops = sum(len(view.troops[s]) for s, at in enumerate(view.sides) if at == side)
        helpers = [seats.label(s) for s, at in enumerate(view.sides)
                   if at == side and s not in (view.current, view.defender)]
        helped = f" (with {', '.join(helpers)})" if helpers else ""
        sides.append(f"{word} {plural(troops, 'Troops card')}{helped}")
    lines.append("  " + "; ".join(sides))
    if view.rolls:
        lines.append(f"  roll {view.rolls}: attacker {list(view.attack_dice)} vs defender "
                     f"{list(view.defence_dice)}")
    return lines


def window_lines(view: StrikeView, seats: Seats) -> list[str]:
    if not view.windows:
        return []
    window = view.windows[-1]
    asked = ", ".join(seats.label(s) for s in window.order if s not in window.passed)
    passed = ", ".join(seats.label(s) for s in window.passed) or "nobody"
    lines = [f"window open: {_WINDOWS.get(WindowKind(window.kind), str(window.kind))}; "
             f"still asked: {asked or 'nobody'}; passed: {passed}"]
    for play in view.plays:
        lines.append(f"  waiting to resolve: {tactic_name(play.card_id)} by "
                     f"{seats.label(play.seat)}")
    return lines


def board_text(message: strike_pb2.StrikeView | StrikeView, *, names: Sequence[str] = (),
               colour: bool = False, width: int = 100, viewer: int = -1,
               deciding: Collection[int] = ()) -> str:
    """The renderer hook (`VariantDescriptor.renderer`): the whole Strike game as text."""
    del width  # every line is one fact; none is laid out in columns
    view = as_view(message, StrikeView)
    seats = Seats(len(view.continents), tuple(names))
    head = (f"Strike, turn {view.turn}/{view.options.max_turns}: "
            f"{_PHASES.get(view.phase, view.phase.name.lower())}")
    bank = [CONTINENT_NAMES[c] for c, holder in enumerate(view.coins) if holder < 0]
    lines = [paint(head, BOLD, colour), "", *seat_lines(view, seats, colour, deciding), "",
             f"coins in the bank: {', '.join(bank) or 'none'}; decks: "
             f"{view.continent_deck_count} continent, {view.tactics_deck_count} tactics; "
             f"surrender pile {len(view.surrender)}"]
    fight = [*battle_lines(view, seats), *window_lines(view, seats)]
    if fight:
        lines += ["", *fight]
    if viewer >= 0:
        hand = ", ".join(f"{tactic_name(c)} ({c})" for c in view.hand) or "no tactics cards"
        lines += ["", f"your hand as {seats.label(viewer)}: {hand}"]
    return "\n".join(lines)
