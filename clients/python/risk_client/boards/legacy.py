"""A Risk Legacy game as text, for `risk show` and `risk watch`: the descriptor's renderer.

The board shows the turn and phase, one line per seat (faction and power, territories and
troops, HQ, Red Stars, missiles, cards, whether it still holds a scar card), then the map by
continent: each territory's owner and troops and what the campaign has marked on it (scar,
city and its population, fortification, an HQ), then the face-up cards and the battle or
window in progress, and the viewer's own hand and scar card. Pure; colour optional.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from risk_client.boards import as_view
from risk_client.seats import BOLD, Seats, paint
from risk_client.wording import plural
from risk_proto.risk.v1 import legacy_pb2
from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.legacy.model import LegacyView, Phase, WindowKind
from risk_rules.engine.legacy.world import Faction, Power, Scar

_NAME_WIDTH = max(len(n) for n in CLASSIC_BOARD.names)


def _words(member: Faction | Power | Scar | Phase) -> str:
    return member.name.replace("_", " ").lower()


def seat_lines(view: LegacyView, seats: Seats, colour: bool, deciding: Collection[int]
               ) -> list[str]:
    lines = []
    factions = view.options.world.factions
    for seat in range(len(view.hqs)):
        held = [t for t, o in enumerate(view.owner) if o == seat]
        troops = sum(view.troops[t] for t in held)
        faction = (f" {_words(factions[seat].faction)} ({_words(factions[seat].power)})"
                   if seat < len(factions) else "")
        hq = CLASSIC_BOARD.names[view.hqs[seat]] if view.hqs[seat] >= 0 else "none"
        text = (f"{seats.label(seat)}{faction}: {plural(len(held), 'territory', 'territories')}"
                f", {plural(troops, 'troop')}, HQ {hq}, red stars {view.red_stars[seat]}, "
                f"{plural(view.missiles[seat], 'missile')}, "
                f"{plural(view.hand_counts[seat], 'card')}"
                + (", a scar card" if view.has_scar_card[seat] else ""))
        if view.out[seat]:
            text += "  out" + (" (eliminated)" if view.eliminated[seat] else "")
        if seat in deciding:
            text += "  <- to play"
        lines.append(paint(text, seats.colour(seat), colour))
    return lines


def _marks(view: LegacyView, territory: int) -> list[str]:
    marks = []
    if view.scars[territory] > 0:
        marks.append("scar " + _words(Scar(view.scars[territory])))
    if view.population[territory]:
        marks.append(f"city pop {view.population[territory]}")
    if view.fortifications[territory]:
        marks.append(f"fortified {view.fortifications[territory]}")
    if territory in view.hqs:
        marks.append(f"HQ s{view.hqs.index(territory)}")
    return marks


def map_lines(view: LegacyView, seats: Seats, colour: bool) -> list[str]:
    lines = []
    for region in CLASSIC_BOARD.regions:
        lines.append(paint(f"{region.name} (+{region.bonus})", BOLD, colour))
        for t in region.members:
            owner = view.owner[t]
            cell = f"{seats.tag(owner):>3} {view.troops[t]:>3}" if owner >= 0 else "  -   -"
            marks = _marks(view, t)
            text = f"  {CLASSIC_BOARD.names[t]:<{_NAME_WIDTH}} {cell}"
            lines.append(text + (f"  [{'; '.join(marks)}]" if marks else ""))
    return lines


def situation_lines(view: LegacyView, seats: Seats) -> list[str]:
    lines = []
    if view.attack_from >= 0 and view.phase in (Phase.DEFEND, Phase.BATTLE, Phase.MOVE_IN):
        lines.append(f"attack: {CLASSIC_BOARD.names[view.attack_from]} -> "
                     f"{CLASSIC_BOARD.names[view.attack_to]} with {view.attack_count} "
                     f"(defence {view.defence_count})")
        if view.attack_dice:
            lines.append(f"  dice: attacker {list(view.attack_dice)} vs defender "
                         f"{list(view.defence_dice)}")
    if view.windows:
        window = view.windows[-1]
        what = "scar cards" if window.kind == WindowKind.SCAR else "missiles"
        asked = ", ".join(seats.label(s) for s in window.order if s not in window.passed)
        lines.append(f"window open: {what}; still asked: {asked or 'nobody'}")
    if view.phase is Phase.RECRUIT and view.pending:
        lines.append(f"troops to place: {view.pending}")
    return lines


def board_text(message: legacy_pb2.LegacyView | LegacyView, *, names: Sequence[str] = (),
               colour: bool = False, width: int = 100, viewer: int = -1,
               deciding: Collection[int] = ()) -> str:
    """The renderer hook (`VariantDescriptor.renderer`): the whole Legacy game as text."""
    del width  # one column: the marks make territory lines too wide to set side by side
    view = as_view(message, LegacyView)
    seats = Seats(len(view.hqs), tuple(names))
    head = f"Legacy, turn {view.turn}/{view.options.max_turns}: {_words(view.phase)}"
    slots = ", ".join(CLASSIC_BOARD.names[c] if 0 <= c < 42 else ("coin" if c >= 0 else "-")
                      for c in view.sideboard)
    lines = [paint(head, BOLD, colour), *situation_lines(view, seats), "",
             *seat_lines(view, seats, colour, deciding), "", *map_lines(view, seats, colour),
             "", f"face-up cards (slots 0-3): {slots}; deck {view.deck_count}, "
             f"coin cards {view.coin_count}"]
    if viewer >= 0:
        hand = ", ".join(str(view.card_values[c]) if c < 42 else "coin" for c in view.hand)
        scar = _words(Scar(view.scar_card)) if view.scar_card > 0 else "none"
        lines.append(f"your hand as {seats.label(viewer)}: values {hand or 'none'}; "
                     f"scar card {scar}")
    return "\n".join(lines)
