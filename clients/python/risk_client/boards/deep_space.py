"""A Risk Deep Space board as text, for `risk watch` and `risk show`.

`board_text(view)` turns a `DeepSpaceView` message into lines a terminal can show: the turn and
whose decision it is, every planet with its recruits per colour, bases, space dogs and force
fields, the home stations, each seat's gems, ore, supply, bases and (face-up) hand, and the
bank. It is pure: the message is decoded with the service's wire codec into the engine's view
dataclass, and names come from the board and deck data files. Colour is plain ANSI and optional.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from risk_client.boards import as_view
from risk_proto.risk.v1 import deep_space_pb2, game_pb2
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD as BOARD
from risk_rules.engine.deep_space.cards import card_type
from risk_rules.engine.deep_space.model import (
    BASE_ORE,
    WINNING_BASES,
    DeepSpaceView,
    Phase,
)

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
_ANSI = {"red": "\x1b[31m", "blue": "\x1b[34m", "green": "\x1b[32m", "yellow": "\x1b[33m"}
_NAME_WIDTH = max(len(n) for n in BOARD.names)
_CELL_WIDTH = 16  # the recruits column, before the marks
_PHASE_WORDS = {
    Phase.START: "start of the turn (trade, mine or act)",
    Phase.MINING: "mining",
    Phase.MAIN: "actions",
    Phase.DOG: "space dog decision",
    Phase.FINISHED: "game over",
}


def deep_space_view(board: game_pb2.BoardView) -> DeepSpaceView | None:
    """The Deep Space view inside a board, or None for another variant (or a hidden board)."""
    if board.WhichOneof("variant") != "deep_space":
        return None
    return as_view(board.deep_space, DeepSpaceView)


def colour_of(view: DeepSpaceView, seat: int) -> str:
    """A seat's colour: the colour of its home station (red, blue, green, yellow)."""
    return BOARD.colour(view.stations[seat])


def _paint(text: str, colour_name: str, use: bool) -> str:
    return f"{_ANSI.get(colour_name, '')}{text}{RESET}" if use else text


def _seat_label(view: DeepSpaceView, seat: int, names: Sequence[str]) -> str:
    name = names[seat] if seat < len(names) and names[seat] else ""
    label = f"seat {seat} {colour_of(view, seat)}"
    return f"{label} ({name})" if name else label


def _header(view: DeepSpaceView, names: Sequence[str]) -> str:
    goal = WINNING_BASES.get(view.options.players, 4)
    head = f"Deep Space, {view.options.players} players, turn {view.turn}" \
        f"/{view.options.max_turns}, {goal} bases win"
    if view.phase is Phase.FINISHED:
        if view.winner >= 0:
            how = view.end_reason.replace("_", " ")
            return f"{head}: {_seat_label(view, view.winner, names)} won by {how}"
        return f"{head}: a draw ({view.end_reason.replace('_', ' ')})"
    if view.phase is Phase.DOG:
        who = _seat_label(view, view.dog_seat, names)
        return f"{head}: {who} decides where the space dog on " \
            f"{BOARD.names[view.dog_planet]} goes"
    moves = "1 move" if view.moves_left == 1 else f"{view.moves_left} moves"
    cry = ", Battle Cry ready" if view.battle_cry else ""
    return f"{head}: {_seat_label(view, view.current, names)} to play, " \
        f"{_PHASE_WORDS[view.phase]}, {moves} left{cry}"


def _node_line(view: DeepSpaceView, node: int, colour: bool) -> str:
    layout = BOARD.layouts[view.options.players]
    name = BOARD.names[node].ljust(_NAME_WIDTH)
    if not layout.in_play[node]:
        return f"{name}  (covered)" if BOARD.is_planet(node) else f"{name}  (not in play)"
    players = len(view.recruits)
    holders = [(s, view.recruits[s][node]) for s in range(players) if view.recruits[s][node]]
    plain = ", ".join(f"{colour_of(view, s)} {n}" for s, n in holders) or "-"
    painted = ", ".join(
        _paint(f"{colour_of(view, s)} {n}", colour_of(view, s), colour) for s, n in holders
    ) or "-"
    marks = []
    bases = [colour_of(view, s) for s in range(players) if node in view.bases[s]]
    if bases:
        marks.append("base " + "+".join(bases))
    for seat in range(players):
        dogs = view.dogs[seat][node]
        if dogs:
            marks.append(f"dog {colour_of(view, seat)}" + (f" x{dogs}" if dogs > 1 else ""))
    if view.force_fields[node] >= 0:
        marks.append(f"force field {colour_of(view, view.force_fields[node])}")
    if node in BOARD.warp:
        marks.append("warp")
    if not marks:
        return f"{name}  {painted}"
    return f"{name}  {painted}{' ' * max(0, _CELL_WIDTH - len(plain))}  [{'; '.join(marks)}]"


def _seat_line(view: DeepSpaceView, seat: int, names: Sequence[str], colour: bool) -> str:
    label = _seat_label(view, seat, names)
    if view.out[seat]:
        return _paint(f"{label}: resigned (bases stay: {len(view.bases[seat])})",
                      colour_of(view, seat), colour)
    on_board = sum(view.recruits[seat])
    bases = len(view.bases[seat])
    goal = WINNING_BASES.get(view.options.players, 4)
    hand = ", ".join(card_type(c).name for c in view.hands[seat]) or "no cards"
    ready = " (a base's worth)" if view.ore[seat] >= BASE_ORE else ""
    text = f"{label}: gems {view.gems[seat]}, ore {view.ore[seat]}{ready}, " \
        f"recruits {on_board} on the board + {view.supply[seat]} in supply, " \
        f"bases {bases}/{goal}; hand: {hand}"
    if seat == view.current and view.phase not in (Phase.FINISHED, Phase.DOG):
        text += "  <- to play"
    return _paint(text, colour_of(view, seat), colour)


def board_lines(view: DeepSpaceView, *, names: Sequence[str] = (), colour: bool = False
                ) -> list[str]:
    """The whole board, one line per planet, station, seat and the bank."""
    lines = [_paint(_header(view, names), BOLD, colour), "", _paint("planets", BOLD, colour)]
    lines.extend(_node_line(view, node, colour) for node in range(BOARD.planets))
    lines += ["", _paint("home stations", BOLD, colour)]
    lines.extend(_node_line(view, node, colour) for node in range(BOARD.planets, BOARD.size))
    lines += ["", _paint("players", BOLD, colour)]
    lines.extend(_seat_line(view, seat, names, colour) for seat in range(len(view.recruits)))
    discard = ", ".join(card_type(c).name for c in view.discard[-3:])
    lines += [
        "",
        f"bank: gems {view.bank_gems}, ore {view.bank_ore}; draw pile {view.deck_count} cards, "
        f"discard pile {len(view.discard)}" + (f" (top: {discard})" if discard else ""),
    ]
    return lines


def board_text(message: deep_space_pb2.DeepSpaceView | DeepSpaceView, *,
               names: Sequence[str] = (), colour: bool = False, width: int = 100,
               viewer: int = -1, deciding: Collection[int] = ()) -> str:
    """A DeepSpaceView (the protobuf message, or the decoded view) as a block of text: the
    renderer hook (`VariantDescriptor.renderer`); every line fits any width, hands are public
    and the header names who decides, so `width`, `viewer` and `deciding` change nothing."""
    del width, viewer, deciding
    view = as_view(message, DeepSpaceView)
    return "\n".join(board_lines(view, names=names, colour=colour))
