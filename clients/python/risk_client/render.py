"""Games, events and actions in words, for the command line's `show`, `legal` and `watch`.

Everything here is pure: protobuf messages in, strings out. The board itself is drawn by the
variant's descriptor's renderer hook (`risk_client/boards/<variant>.py`); this module adds the
header, the decision and the outcome around it. Events are decoded with the wire codec into the
engine's dataclasses: classic's have their own phrasing here, the other variants' are told
field by field with seats and places named (`generic_words`). Actions of every variant are put
in words by `action_words`. Colour is plain ANSI and optional; without it the text is stable
enough for logs and tests.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime

from google.protobuf import text_format

from risk_client.action_words import describe_any, places_for
from risk_client.actions import card_label, cards_label, territory_name
from risk_client.places import Places
from risk_client.seats import Seats
from risk_client.wording import dice_words, plural
from risk_proto.risk.v1 import common_pb2, game_pb2, lifecycle_pb2, service_pb2
from risk_rules import variants, wire
from risk_rules.engine import Event
from risk_rules.engine.classic.model import (
    HIDDEN,
    ArmiesMoved,
    ArmiesPlaced,
    AttackDeclared,
    AttackEnded,
    BattleResolved,
    CardDrawn,
    CardsTraded,
    DeckShuffled,
    GameEnded,
    OrderRolled,
    PlayerEliminated,
    PlayerResigned,
    TerritoriesDealt,
    TerritoryClaimed,
    TerritoryConquered,
    TurnEnded,
    TurnStarted,
)

__all__ = ["Seats", "card_label", "plural"]  # re-exported: older callers import them here

STATUS_NAMES = {
    service_pb2.GAME_STATUS_UNSPECIFIED: "unknown",
    service_pb2.GAME_STATUS_WAITING: "waiting",
    service_pb2.GAME_STATUS_ACTIVE: "active",
    service_pb2.GAME_STATUS_FINISHED: "finished",
    service_pb2.GAME_STATUS_ABANDONED: "abandoned",
    service_pb2.GAME_STATUS_CANCELLED: "cancelled",
}


def variant_names() -> dict[int, str]:
    """Variant number -> its name as the contract spells it (`deep_space`), from the
    descriptors: every variant this build knows, none listed by hand (and none loaded)."""
    return {common_pb2.VARIANT_UNSPECIFIED: "unknown",
            **{number: name for name, number in variants.numbers().items()}}


VARIANT_NAMES = variant_names()


# ---- seats, cards, counts --------------------------------------------------------------------


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
        variant, value = wire.event_from_proto(event)
    except wire.WireError:
        raw = text_format.MessageToString(event, as_one_line=True)
        return f"(an event this client cannot read: {raw})"
    if variant != "classic":
        return generic_words(value, seats or Seats(), places_for(variant))
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
        return f"{s(e.seat)} trades {cards_label(e.cards)} for " \
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
        return f"{text}, who takes {cards_label(e.cards_taken)}"
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


# fields that hold a seat, in every variant's events
_SEAT_FIELDS = frozenset({"seat", "by", "winner", "defender", "target", "attacker",
                          "previous_owner", "neutral", "dog_seat", "namer", "founder"})


def generic_words(value: object, seats: Seats | None = None,
                  places: Mapping[str, Places] | None = None) -> str:
    """Any engine value in words, for variants without their own phrasing: its name in
    lower-case words and its fields, seats as seats and places by name (`places` maps a field
    name's last word, e.g. "territory" or "continent", to the variant's names)."""
    name = re.sub(r"(?<!^)(?=[A-Z])", " ", type(value).__name__).lower()
    if not dataclasses.is_dataclass(value):
        return name
    parts = []
    for f in dataclasses.fields(value):
        words = _field_words(f.name, getattr(value, f.name), seats or Seats(), places or {})
        # "seat 2", not "seat seat 2": a seat's label already says what it is
        parts.append(words if f.name == "seat" else f"{f.name.replace('_', ' ')} {words}")
    return f"{name}: {', '.join(parts)}" if parts else name


def _field_words(field: str, value: object, seats: Seats, places: Mapping[str, Places]
                 ) -> str:
    if isinstance(value, tuple):
        if value and all(v == HIDDEN for v in value):
            return plural(len(value), "hidden card")  # what a viewer may not see
        return "[" + ", ".join(_field_words(field, v, seats, places) for v in value) + "]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        return value.name.lower().replace("_", " ")
    if dataclasses.is_dataclass(value):
        return "(" + generic_words(value, seats, places) + ")"
    if isinstance(value, int) and field in _SEAT_FIELDS:
        return seats.label(value)
    named = places.get(field.rsplit("_", 1)[-1])
    if isinstance(value, int) and named is not None and value >= 0:
        return named.name(value)
    return str(value)


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
    if kind == "turn_missed":
        m = e.turn_missed
        return f"{s(m.seat)} missed a turn ({_turns(m.missed)} in a row)"
    if kind == "seat_removed":
        r = e.seat_removed
        return f"{s(r.seat)} is out of the game after missing {_turns(r.missed)} in a row"
    if kind == "vacation_started":
        v = e.vacation_started
        until = datetime.fromtimestamp(v.until_ms / 1000, UTC).strftime("%Y-%m-%d %H:%M")
        return (f"{s(v.seat)} is on vacation until {until} UTC "
                f"({_duration(v.vacation_left_ms)} of vacation left)")
    if kind == "vacation_ended":
        back = e.vacation_ended
        return (f"{s(back.seat)} is back from vacation "
                f"({_duration(back.vacation_left_ms)} of vacation left)")
    return f"(a service event this client cannot read: {kind})"


def _turns(n: int) -> str:
    return "1 turn" if n == 1 else f"{n} turns"


def _duration(ms: int) -> str:
    """A span in days and hours ("2 days 3 hours", "5 hours", "under an hour")."""
    hours = ms // 3_600_000
    days, hours = divmod(hours, 24)
    parts = [f"{days} day{'s' if days != 1 else ''}"] if days else []
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    return " ".join(parts) or "under an hour"


def event_line(event: game_pb2.Event, seats: Seats | None = None) -> str:
    """"#12 v3 seat 0 claims Alaska": the event's sequence number, game version and words."""
    return f"#{event.seq} v{event.version} {describe_event(event, seats)}"


def is_game_end(event: game_pb2.Event) -> bool:
    """The last event a game will have: it ended by its rules, was cancelled or abandoned."""
    case = event.WhichOneof("variant")
    if case == "lifecycle":
        return event.lifecycle.WhichOneof("kind") in ("game_cancelled", "game_abandoned")
    if case is None or case == "extension":
        return False
    # every variant of the contract ends its games with its own `game_ended` event
    return bool(getattr(event, case).WhichOneof("kind") == "game_ended")


# ---- actions ---------------------------------------------------------------------------------


def describe_action(action: game_pb2.Action, max_count: int = 0) -> str:
    """An action of any variant (or a legal family of them, up to `max_count`) in words."""
    return describe_any(action, max_count)


def describe_legal(legal: game_pb2.LegalAction) -> str:
    return describe_action(legal.action, legal.max_count)


# ---- the board -------------------------------------------------------------------------------


def board_text(board: game_pb2.BoardView, seats: Seats, *, colour: bool = False,
               width: int = 100, viewer: int = -1, deciding: Sequence[int] = ()) -> str:
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
    return draw(view, names=seats.names, colour=colour, width=width, viewer=viewer,
                deciding=frozenset(deciding))


def game_header(summary: service_pb2.GameSummary) -> str:
    status = STATUS_NAMES.get(summary.status, str(summary.status))
    variant = VARIANT_NAMES.get(summary.variant, str(summary.variant))
    return f"game {summary.game_id}  {variant}  {status}  version {summary.version}  " \
        f"events {summary.last_seq}{tournament_words(summary)}"


def tournament_words(summary: service_pb2.GameSummary) -> str:
    """`  tournament cup round 2` for a game of a round (CreateRound), else nothing."""
    if not summary.tournament:
        return ""
    return f"  tournament {summary.tournament} round {summary.round}"


def decision_words(summary: service_pb2.GameSummary, seats: Seats) -> str:
    decision = summary.decision
    if not decision.seats:
        return "no decision pending"
    who = ", ".join(seats.label(s) for s in decision.seats)
    return f"decision: {who} ({decision.kind.replace('_', ' ')})"


def game_text(game: service_pb2.GetGameResponse, *, colour: bool = False, width: int = 100
              ) -> str:
    """The whole game for `show` and `watch`: header, decision, outcome, then the board as the
    variant's descriptor draws it (its renderer hook) for this viewer."""
    summary = game.game
    seats = Seats.of(summary)
    lines = [game_header(summary)]
    if summary.status == service_pb2.GAME_STATUS_WAITING:
        taken = sum(1 for seat in summary.seats if seat.taken)
        lines.append(f"waiting for players: {taken} of {len(summary.seats)} seats taken")
    else:
        lines.append(decision_words(summary, seats))
    if summary.HasField("outcome"):
        lines.append("outcome: " + outcome_text(summary.outcome, seats))
    if game.board.WhichOneof("variant") is None:
        lines.append("(the board is hidden from spectators while the game is delayed)")
    else:
        lines += ["", board_text(game.board, seats, colour=colour, width=width,
                                 viewer=game.viewer_seat, deciding=summary.decision.seats)]
    return "\n".join(lines)
