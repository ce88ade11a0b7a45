"""Games, events and actions in words, for the command line's `show`, `legal` and `watch`.

Everything here is pure: protobuf messages in, strings out. Events and views are decoded with
the service's wire codec into the engine's classic dataclasses, so a new field in the contract
needs no change here until it is worth showing. Colour is plain ANSI and optional; without it
the text is stable enough for logs and tests.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import pairwise

from google.protobuf import text_format

from risk_client.actions import territory_name, trade_bonus
from risk_proto.risk.v1 import common_pb2, game_pb2, lifecycle_pb2, service_pb2
from risk_rules import variants, wire
from risk_rules.engine import Event
from risk_rules.engine.classic.board import (
    CLASSIC_BOARD,
    SYMBOL_NAMES,
    card_symbol,
    card_territory,
)
from risk_rules.engine.classic.model import (
    HIDDEN,
    ArmiesMoved,
    ArmiesPlaced,
    AttackDeclared,
    AttackEnded,
    BattleResolved,
    CardDrawn,
    CardsTraded,
    ClassicView,
    DeckShuffled,
    GameEnded,
    OrderRolled,
    Phase,
    PlayerEliminated,
    PlayerResigned,
    TerritoriesDealt,
    TerritoryClaimed,
    TerritoryConquered,
    TurnEnded,
    TurnStarted,
)

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
_SEAT_COLOURS = ("\x1b[31m", "\x1b[34m", "\x1b[32m", "\x1b[33m", "\x1b[35m", "\x1b[36m")
_NEUTRAL_COLOUR = "\x1b[90m"
_NAME_WIDTH = max(len(n) for n in CLASSIC_BOARD.names)
_COLUMN_GAP = "   "

STATUS_NAMES = {
    service_pb2.GAME_STATUS_UNSPECIFIED: "unknown",
    service_pb2.GAME_STATUS_WAITING: "waiting",
    service_pb2.GAME_STATUS_ACTIVE: "active",
    service_pb2.GAME_STATUS_FINISHED: "finished",
    service_pb2.GAME_STATUS_ABANDONED: "abandoned",
    service_pb2.GAME_STATUS_CANCELLED: "cancelled",
}
VARIANT_NAMES = {
    common_pb2.VARIANT_UNSPECIFIED: "unknown",
    common_pb2.VARIANT_CLASSIC: "classic",
    common_pb2.VARIANT_DEEP_SPACE: "deep-space",
    common_pb2.VARIANT_STRIKE: "strike",
    common_pb2.VARIANT_LEGACY: "legacy",
}


# ---- seats, cards, counts --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seats:
    """How to name seats: `players` tells the neutral apart (owner id `players`: the third
    party of a two-player game, and whoever resigned), `names` are display names by seat. The
    defaults name every seat by number."""

    players: int = 0
    names: tuple[str, ...] = ()

    @classmethod
    def of(cls, summary: service_pb2.GameSummary) -> Seats:
        return cls(len(summary.seats), tuple(s.display_name for s in summary.seats))

    def is_neutral(self, seat: int) -> bool:
        return self.players > 0 and seat == self.players

    def label(self, seat: int) -> str:
        if self.is_neutral(seat):
            return "neutral"
        if seat < 0:
            return "nobody"
        name = self.names[seat] if seat < len(self.names) else ""
        return f"seat {seat} ({name})" if name else f"seat {seat}"

    def tag(self, seat: int) -> str:
        """A short owner mark for the board: s0..s5, N for the neutral, -- for unclaimed."""
        if self.is_neutral(seat):
            return "N"
        return f"s{seat}" if seat >= 0 else "--"

    def colour(self, seat: int) -> str:
        if self.is_neutral(seat):
            return _NEUTRAL_COLOUR
        return _SEAT_COLOURS[seat % len(_SEAT_COLOURS)] if seat >= 0 else DIM


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


def dice_words(count: int) -> str:
    return plural(count, "die", "dice")


def card_label(card: int) -> str:
    """"Alaska (infantry)", "wild", or "a hidden card" for a card the viewer may not see."""
    if card == HIDDEN:
        return "a hidden card"
    t = card_territory(card)
    symbol = SYMBOL_NAMES[card_symbol(card)]
    return symbol if t is None else f"{territory_name(t)} ({symbol})"


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(card_label(c) for c in cards)


def _seat_list(seats: Seats, ranking: Sequence[int]) -> str:
    return ", ".join(seats.label(s) for s in ranking)


def outcome_words(winner: int, ranking: Sequence[int], reason: str, seats: Seats) -> str:
    """"seat 2 wins by conquest; ranking: seat 2, seat 0, seat 1" (or a draw)."""
    how = reason.replace("_", " ") or "unknown reason"
    head = f"{seats.label(winner)} wins by {how}" if winner >= 0 else f"draw ({how})"
    return f"{head}; ranking: {_seat_list(seats, ranking)}" if ranking else head


def outcome_text(outcome: common_pb2.Outcome, seats: Seats | None = None) -> str:
    return outcome_words(outcome.winner, outcome.ranking, outcome.reason, seats or Seats())


# ---- events ----------------------------------------------------------------------------------


def describe_event(event: game_pb2.Event, seats: Seats | None = None) -> str:
    """One event in words, e.g. "seat 2 attacks Kamchatka from Alaska with 3 dice"."""
    if event.WhichOneof("variant") == "lifecycle":
        return describe_lifecycle(event.lifecycle, seats or Seats())
    try:
        _variant, value = wire.event_from_proto(event)
    except wire.WireError:
        raw = text_format.MessageToString(event, as_one_line=True)
        return f"(an event this client cannot read: {raw})"
    return describe_engine_event(value, seats or Seats())


def describe_engine_event(e: Event, seats: Seats) -> str:
    s = seats.label
    if isinstance(e, OrderRolled):
        rolls = ", ".join(f"{s(x)} rolls {r}" for x, r in zip(e.seats, e.rolls, strict=False))
        result = f"{s(e.winner)} wins" if e.winner >= 0 else "tie, the high rollers roll again"
        purpose = "who places first" if e.purpose == "setup" else "who plays first"
        if e.purpose not in ("setup", "first_turn"):
            purpose = e.purpose.replace("_", " ")
        return f"roll-off for {purpose}: {rolls} -> {result}"
    if isinstance(e, DeckShuffled):
        return f"the deck is shuffled ({plural(e.cards, 'card')})"
    if isinstance(e, TerritoriesDealt):
        counts = Counter(e.owner)
        held = ", ".join(
            f"{s(owner)} {counts[owner]}" for owner in sorted(counts) if owner >= 0
        )
        return f"territories dealt: {held}"
    if isinstance(e, TerritoryClaimed):
        return f"{s(e.seat)} claims {territory_name(e.territory)}"
    if isinstance(e, ArmiesPlaced):
        return f"{s(e.seat)} places {plural(e.count, 'army', 'armies')} on " \
            f"{territory_name(e.territory)}"
    if isinstance(e, TurnStarted):
        bonus = f" ({e.continent_bonus} from continents)" if e.continent_bonus else ""
        return f"turn {e.turn}: {s(e.seat)} starts with " \
            f"{plural(e.reinforcements, 'reinforcement')}{bonus}"
    if isinstance(e, CardsTraded):
        bonus = (
            f", +2 on {territory_name(e.bonus_territory)}" if e.bonus_territory >= 0 else ""
        )
        return f"{s(e.seat)} trades {_cards(e.cards)} for " \
            f"{plural(e.armies, 'army', 'armies')} (set #{e.trade_number}){bonus}"
    if isinstance(e, AttackDeclared):
        return f"{s(e.seat)} attacks {territory_name(e.to_territory)} from " \
            f"{territory_name(e.from_territory)} with {dice_words(e.dice)}"
    if isinstance(e, BattleResolved):
        attack = ",".join(str(d) for d in e.attack_dice)
        defence = ",".join(str(d) for d in e.defence_dice)
        return f"battle: attacker [{attack}] vs defender [{defence}] -> attacker loses " \
            f"{e.attacker_losses}, defender loses {e.defender_losses}"
    if isinstance(e, TerritoryConquered):
        return f"{s(e.seat)} conquers {territory_name(e.territory)} from {s(e.previous_owner)}"
    if isinstance(e, ArmiesMoved):
        return f"{s(e.seat)} moves {plural(e.count, 'army', 'armies')} from " \
            f"{territory_name(e.from_territory)} to {territory_name(e.to_territory)}"
    if isinstance(e, PlayerEliminated):
        text = f"{s(e.seat)} is eliminated by {s(e.by)}"
        if not e.cards_taken:
            return text
        if all(c == HIDDEN for c in e.cards_taken):
            return f"{text}, who takes {plural(len(e.cards_taken), 'card')}"
        return f"{text}, who takes {_cards(e.cards_taken)}"
    if isinstance(e, PlayerResigned):
        return f"{s(e.seat)} resigns; its territories turn {s(e.neutral)}"
    if isinstance(e, AttackEnded):
        return f"{s(e.seat)} stops attacking"
    if isinstance(e, CardDrawn):
        what = "a card" if e.card == HIDDEN else card_label(e.card)
        return f"{s(e.seat)} draws {what}"
    if isinstance(e, TurnEnded):
        return f"{s(e.seat)} ends the turn"
    if isinstance(e, GameEnded):
        return f"game over: {outcome_words(e.winner, e.ranking, e.reason, seats)}"
    return generic_words(e)


def generic_words(value: object) -> str:
    """Any engine value in words, for variants without their own phrasing: its name in
    lower-case words and its fields (seats shown as such)."""
    name = re.sub(r"(?<!^)(?=[A-Z])", " ", type(value).__name__).lower()
    if not dataclasses.is_dataclass(value):
        return name
    parts = [f"{f.name.replace('_', ' ')} {getattr(value, f.name)}"
             for f in dataclasses.fields(value)]
    return f"{name}: {', '.join(parts)}" if parts else name


_POLICY_WORDS = {
    lifecycle_pb2.TIMEOUT_POLICY_UNSPECIFIED: "default action",
    lifecycle_pb2.TIMEOUT_POLICY_DEFAULT_ACTION: "default action",
    lifecycle_pb2.TIMEOUT_POLICY_PASS: "pass",
    lifecycle_pb2.TIMEOUT_POLICY_BOT: "the bot takes over",
    lifecycle_pb2.TIMEOUT_POLICY_FORFEIT: "forfeit",
}


def describe_lifecycle(e: lifecycle_pb2.LifecycleEvent, seats: Seats) -> str:
    """The service's own events (start, joins, clocks, cancel, ...) in words."""
    s = seats.label
    kind = e.WhichOneof("kind")
    if kind == "game_started":
        return "the game starts"
    if kind == "seat_joined":
        name = e.seat_joined.display_name
        return f"seat {e.seat_joined.seat} joins" + (f" as {name}" if name else "")
    if kind == "seat_token_reissued":
        return f"{s(e.seat_token_reissued.seat)} gets a new token"
    if kind == "game_cancelled":
        return "the game is cancelled"
    if kind == "game_abandoned":
        return "the game is abandoned: nobody acted in time"
    if kind == "decision_timed_out":
        t = e.decision_timed_out
        return f"{s(t.seat)} ran out of time ({_POLICY_WORDS.get(t.policy, 'unknown policy')})"
    if kind == "seat_handed_to_bot":
        return f"the built-in bot plays {s(e.seat_handed_to_bot.seat)} from now on"
    if kind == "clock_started":
        c = e.clock_started
        deadline = datetime.fromtimestamp(c.deadline_ms / 1000, UTC).strftime("%H:%M:%S")
        bank = f", {c.bank_ms / 1000:.0f}s in the bank" if c.bank_ms else ""
        return f"{s(c.seat)} must decide by {deadline} UTC{bank}"
    return f"(a service event this client cannot read: {kind})"


def event_line(event: game_pb2.Event, seats: Seats | None = None) -> str:
    """"#12 v3 seat 0 claims Alaska": the event's sequence number, game version and words."""
    return f"#{event.seq} v{event.version} {describe_event(event, seats)}"


def is_game_end(event: game_pb2.Event) -> bool:
    """The last event a game will have: it ended by its rules, was cancelled or abandoned."""
    case = event.WhichOneof("variant")
    if case == "lifecycle":
        return event.lifecycle.WhichOneof("kind") in ("game_cancelled", "game_abandoned")
    return case == "classic" and event.classic.HasField("game_ended")


# ---- actions ---------------------------------------------------------------------------------


def _count_words(low: int, high: int, word: str, many: str) -> str:
    if high and high != low:
        return f"{low} to {high} {many}"
    return plural(low, word, many)


def describe_action(action: game_pb2.Action, max_count: int = 0) -> str:
    """An action (or a legal family of them, up to `max_count`) in words."""
    if action.WhichOneof("variant") != "classic":
        return "(an action this client cannot read)"
    c = action.classic
    kind = c.WhichOneof("kind")
    if kind == "claim_territory":
        return f"claim {territory_name(c.claim_territory.territory)}"
    if kind == "place_armies":
        p = c.place_armies
        armies = _count_words(p.count, max_count, "army", "armies")
        return f"place {armies} on {territory_name(p.territory)}"
    if kind == "place_neutral":
        return f"place a neutral army on {territory_name(c.place_neutral.territory)}"
    if kind == "trade_cards":
        t = c.trade_cards
        bonus_territory = trade_bonus(t)
        bonus = (
            f" (+2 armies on {territory_name(bonus_territory)})" if bonus_territory >= 0 else ""
        )
        return f"trade {_cards(t.cards)}{bonus}"
    if kind == "attack":
        a = c.attack
        return f"attack {territory_name(a.to_territory)} from " \
            f"{territory_name(a.from_territory)} with {dice_words(a.dice)}"
    if kind == "defend":
        return f"defend with {dice_words(c.defend.dice)}"
    if kind == "move_in":
        armies = _count_words(c.move_in.count, max_count, "army", "armies")
        return f"move {armies} into the conquered territory"
    if kind == "end_attack":
        return "stop attacking"
    if kind == "fortify":
        f = c.fortify
        armies = _count_words(f.count, max_count, "army", "armies")
        return f"fortify: move {armies} from {territory_name(f.from_territory)} to " \
            f"{territory_name(f.to_territory)}"
    if kind == "end_turn":
        return "end the turn"
    return f"({kind})"


def describe_legal(legal: game_pb2.LegalAction) -> str:
    return describe_action(legal.action, legal.max_count)


# ---- the board -------------------------------------------------------------------------------


def classic_view(board: game_pb2.BoardView) -> ClassicView | None:
    """The classic view inside a board, or None for another variant."""
    if board.WhichOneof("variant") != "classic":
        return None
    view: ClassicView = wire.from_message(board.classic, ClassicView)
    return view


def phase_words(phase: Phase) -> str:
    return phase.name.lower().replace("_", " ")


def _paint(text: str, colour: str, use: bool) -> str:
    return f"{colour}{text}{RESET}" if use else text


def _continent_block(view: ClassicView, region: int, seats: Seats, colour: bool) -> list[str]:
    reg = CLASSIC_BOARD.regions[region]
    owners = {view.owner[t] for t in reg.members}
    holder = next(iter(owners)) if len(owners) == 1 else -1
    head = f"{reg.name} (+{reg.bonus})"
    if holder >= 0:
        head += f" {seats.tag(holder)}"
    width = _NAME_WIDTH + 8
    lines = [_paint(head.ljust(width), BOLD, colour)]
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


def seat_lines(view: ClassicView, seats: Seats, *, colour: bool = False) -> list[str]:
    """One line per seat (and the neutral): territories, armies, cards, eliminated."""
    owners = list(range(len(view.hand_counts)))
    neutral = len(view.hand_counts)
    if neutral in view.owner or len(view.to_place) > neutral:
        owners.append(neutral)
    lines = []
    for seat in owners:
        held = [t for t, o in enumerate(view.owner) if o == seat]
        armies = sum(view.armies[t] for t in held)
        label = seats.label(seat)
        text = f"{label:<12} {plural(len(held), 'territory', 'territories'):>15}  " \
            f"{plural(armies, 'army', 'armies'):>11}"
        if seat < len(view.hand_counts):
            text += f"  {plural(view.hand_counts[seat], 'card'):>8}"
        if seat < len(view.eliminated) and view.eliminated[seat]:
            text += "  eliminated"
        if seat == view.current and view.phase is not Phase.FINISHED:
            text += "  <- to play"
        lines.append(_paint(text, seats.colour(seat), colour))
    return lines


def board_text(board: game_pb2.BoardView, seats: Seats, *, colour: bool = False) -> str:
    """A variant's board as its descriptor's renderer draws it; field by field for a variant
    without one (or one this build does not know)."""
    try:
        variant, view = wire.view_from_proto(board)
    except wire.WireError:
        which = board.WhichOneof("variant")
        return text_format.MessageToString(getattr(board, which)) if which else ""
    renderer = variants.descriptor(variant).renderer
    if not renderer:
        return text_format.MessageToString(view)
    module, _, name = renderer.partition(":")
    draw: Callable[..., str] = getattr(importlib.import_module(module), name)
    return draw(view, names=seats.names, colour=colour)


def game_header(summary: service_pb2.GameSummary) -> str:
    status = STATUS_NAMES.get(summary.status, str(summary.status))
    variant = VARIANT_NAMES.get(summary.variant, str(summary.variant))
    return f"game {summary.game_id}  {variant}  {status}  version {summary.version}  " \
        f"events {summary.last_seq}"


def decision_words(summary: service_pb2.GameSummary, seats: Seats) -> str:
    decision = summary.decision
    if not decision.seats:
        return "no decision pending"
    who = ", ".join(seats.label(s) for s in decision.seats)
    return f"decision: {who} ({decision.kind.replace('_', ' ')})"


def game_text(game: service_pb2.GetGameResponse, *, colour: bool = False, width: int = 100
              ) -> str:
    """The whole game for `show`: header, phase and decision, seats, the board, the hand."""
    summary = game.game
    seats = Seats.of(summary)
    lines = [game_header(summary)]
    outcome = (
        "outcome: " + outcome_text(summary.outcome, seats) if summary.HasField("outcome") else ""
    )
    view = classic_view(game.board)
    if view is None:
        lines.append(decision_words(summary, seats))
        if outcome:
            lines.append(outcome)
        which = game.board.WhichOneof("variant")
        if which is None:
            lines.append("(the board is hidden from spectators while the game is delayed)")
        else:
            lines.append(board_text(game.board, seats, colour=colour))
        return "\n".join(lines)
    turn = f"turn {view.turn}  " if view.turn else ""
    lines.append(f"{turn}phase {phase_words(view.phase)}  {decision_words(summary, seats)}")
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
    if outcome:
        lines.append(outcome)
    lines.append("")
    lines.extend(seat_lines(view, seats, colour=colour))
    lines.append("")
    lines.extend(board_lines(view, seats, colour=colour, width=width))
    if view.options.cards:
        lines.append("")
        value = f"next set is worth {view.next_trade_value}; " if view.next_trade_value else ""
        lines.append(
            f"cards: {value}{plural(view.trades_done, 'set')} traded, "
            f"{view.deck_count} in the deck"
        )
        if game.viewer_seat >= 0:
            hand = _cards(view.hand) if view.hand else "no cards"
            lines.append(f"your hand as {seats.label(game.viewer_seat)}: {hand}")
    return "\n".join(lines)
