"""A classic Risk board as text, for `risk show` and `risk watch`: the descriptor's renderer.

`board_text(view, ...)` draws the turn and phase (and a pending attack or move-in), one line
per seat (territories, armies, cards; the one deciding marked "to play"), the territories
grouped by continent with owner and armies in as many columns as the terminal fits, and the
card situation with the viewer's own hand. Pure: the `ClassicView` message is decoded with the
wire codec into the engine's view dataclass. Colour is plain ANSI and optional.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import pairwise

from risk_client.actions import cards_label, territory_name
from risk_client.boards import as_view
from risk_client.seats import BOLD, RESET, Seats, paint
from risk_client.wording import dice_words, plural
from risk_proto.risk.v1 import classic_pb2, game_pb2
from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.classic.model import ClassicView, Phase

_NAME_WIDTH = max(len(n) for n in CLASSIC_BOARD.names)
_COLUMN_GAP = "   "


def classic_view(board: game_pb2.BoardView) -> ClassicView | None:
    """The classic view inside a board, or None for another variant."""
    if board.WhichOneof("variant") != "classic":
        return None
    return as_view(board.classic, ClassicView)


def phase_words(phase: Phase) -> str:
    return phase.name.lower().replace("_", " ")


def _continent_block(view: ClassicView, region: int, seats: Seats, colour: bool) -> list[str]:
    reg = CLASSIC_BOARD.regions[region]
    owners = {view.owner[t] for t in reg.members}
    holder = next(iter(owners)) if len(owners) == 1 else -1
    head = f"{reg.name} (+{reg.bonus})"
    if holder >= 0:
        head += f" {seats.tag(holder)}"
    width = _NAME_WIDTH + 8
    lines = [paint(head.ljust(width), BOLD, colour)]
    for t in reg.members:
        owner = view.owner[t]
        mark = f"{seats.tag(owner):>3} {view.armies[t]:>3}"
        name = CLASSIC_BOARD.names[t].ljust(_NAME_WIDTH)
        if colour:
            lines.append(f"{name} {seats.colour(owner)}{mark}{RESET}")
        else:
            lines.append(f"{name} {mark}")
    return lines


def _split(heights: Sequence[int], columns: int) -> list[int]:
    """Cut points splitting blocks (in order) into `columns` runs with the lowest tallest run."""
    best: tuple[int, list[int]] = (sum(heights) + 1, [])

    def walk(start: int, left: int, cuts: list[int], tallest: int) -> None:
        nonlocal best
        if left == 1:
            tallest = max(tallest, sum(heights[start:]))
            if tallest < best[0]:
                best = (tallest, cuts)
            return
        for end in range(start + 1, len(heights) - left + 2):
            walk(end, left - 1, [*cuts, end], max(tallest, sum(heights[start:end])))

    walk(0, min(columns, len(heights)), [], 0)
    return best[1]


def board_lines(view: ClassicView, seats: Seats, *, colour: bool = False, width: int = 100
                ) -> list[str]:
    """Territories grouped by continent (owner and armies), in as many columns as fit."""
    blocks = [
        [*_continent_block(view, r, seats, colour), ""]
        for r in range(len(CLASSIC_BOARD.regions))
    ]
    column_width = _NAME_WIDTH + 8
    columns = max(1, min(3, (width + len(_COLUMN_GAP)) // (column_width + len(_COLUMN_GAP))))
    cuts = [0, *_split([len(b) for b in blocks], columns), len(blocks)]
    stacks = [[line for block in blocks[a:b] for line in block] for a, b in pairwise(cuts)]
    height = max(len(s) for s in stacks)
    blank = " " * column_width
    rows = []
    for i in range(height):
        cells = [s[i] if i < len(s) and s[i] else blank for s in stacks]
        rows.append(_COLUMN_GAP.join(cells).rstrip())
    while rows and not rows[-1]:
        rows.pop()
    return rows


def _count(count: int, word: str, many: str) -> str:
    """"  1 territory  " / " 12 territories": numbers right-aligned, words left-aligned, so
    a column lines up whether its word is singular or plural."""
    return f"{count:>3} {word if count == 1 else many:<{len(many)}}"


def seat_lines(view: ClassicView, seats: Seats, *, colour: bool = False,
               deciding: Collection[int] = ()) -> list[str]:
    """One line per seat (and the neutral): territories, armies, cards, eliminated; the seats
    `deciding` (the summary's decision: none while the game waits for players) marked."""
    owners = list(range(len(view.hand_counts)))
    neutral = len(view.hand_counts)
    if neutral in view.owner or len(view.to_place) > neutral:
        owners.append(neutral)
    lines = []
    for seat in owners:
        held = [t for t, o in enumerate(view.owner) if o == seat]
        armies = sum(view.armies[t] for t in held)
        label = seats.label(seat)
        text = f"{label:<12} {_count(len(held), 'territory', 'territories')}  " \
            f"{_count(armies, 'army', 'armies')}"
        if seat < len(view.hand_counts):
            text += f"  {_count(view.hand_counts[seat], 'card', 'cards')}"
        if seat < len(view.eliminated) and view.eliminated[seat]:
            text += "  eliminated"
        if seat in deciding:
            text += "  <- to play"
        lines.append(paint(text, seats.colour(seat), colour))
    return lines



def situation_lines(view: ClassicView) -> list[str]:
    """The turn and phase, and what the phase is waiting on."""
    turn = f"turn {view.turn}  " if view.turn else ""
    lines = [f"{turn}phase {phase_words(view.phase)}"]
    if view.phase is Phase.DEFEND:
        lines.append(
            f"attack pending: {territory_name(view.attack_to)} from "
            f"{territory_name(view.attack_from)} with {dice_words(view.attack_dice)}"
        )
    elif view.phase is Phase.MOVE_IN:
        lines.append(
            f"{territory_name(view.attack_to)} conquered from "
            f"{territory_name(view.attack_from)}: move in at least "
            f"{plural(view.attack_dice, 'army', 'armies')}"
        )
    if view.phase in (Phase.REINFORCE, Phase.SETUP_PLACE) and view.pending:
        lines.append(f"armies to place this step: {view.pending}")
    return lines


def card_lines(view: ClassicView, seats: Seats, viewer: int) -> list[str]:
    if not view.options.cards:
        return []
    value = f"next set is worth {view.next_trade_value}; " if view.next_trade_value else ""
    lines = [f"cards: {value}{plural(view.trades_done, 'set')} traded, "
             f"{view.deck_count} in the deck"]
    if viewer >= 0:
        hand = cards_label(view.hand) if view.hand else "no cards"
        lines.append(f"your hand as {seats.label(viewer)}: {hand}")
    return lines


def board_text(message: classic_pb2.ClassicView | ClassicView, *, names: Sequence[str] = (),
               colour: bool = False, width: int = 100, viewer: int = -1,
               deciding: Collection[int] = ()) -> str:
    """The renderer hook (`VariantDescriptor.renderer`): the whole classic board as text."""
    view = as_view(message, ClassicView)
    seats = Seats(len(view.hand_counts), tuple(names))
    lines = [*situation_lines(view), ""]
    lines.extend(seat_lines(view, seats, colour=colour, deciding=deciding))
    lines.append("")
    lines.extend(board_lines(view, seats, colour=colour, width=width))
    cards = card_lines(view, seats, viewer)
    return "\n".join([*lines, *([""] if cards else []), *cards])
