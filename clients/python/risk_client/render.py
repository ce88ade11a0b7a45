"""Games, events and actions in words, for the command line's `show`, `legal` and `watch`.

Everything here is pure: protobuf messages in, strings out. The board itself is drawn by the
variant's descriptor's renderer hook (`risk_client/boards/<variant>.py`); this module adds the
header, the decision and the outcome around it. Events and actions of every variant are told in
the sentences of the shared text table (`risk_client.text`, the same table the web app and the
Node client read: docs/text.md), with regions and cards named from the variant's description,
which the rules package builds here without a server. Colour is plain ANSI and optional;
without it the text is stable enough for logs and tests.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from google.protobuf import text_format

from risk_client.seats import Seats
from risk_client.wording import plural
from risk_proto.risk.v1 import common_pb2, game_pb2, service_pb2, variant_pb2
from risk_rules import variants

if TYPE_CHECKING:
    from risk_client.text import Names

# The text table (risk_client.text), the rules' wire and the variants' descriptions are
# imported by the functions that put something into words, not with this module: the
# commands that only need the tables of names below (`risk create`, `risk list`, the player
# commands) do not pay for them, nor for an engine.

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


def card_label(card: int) -> str:
    """"Alaska (infantry)", "wild", or "a hidden card": `risk_client.actions.card_label`."""
    from risk_client.actions import card_label as label  # noqa: PLC0415 - the classic board

    return label(card)


def outcome_words(winner: int, ranking: Sequence[int], reason: str, seats: Seats) -> str:
    """"Seat 2 won by conquest; ranking: seat 2, seat 0 and seat 1" (or "No one won at the
    turn limit; ..."), in the shared text table's words."""
    from risk_client.text import outcome_text as text_outcome  # noqa: PLC0415

    return text_outcome("", winner, ranking, reason, text_names("", seats))


def outcome_text(outcome: common_pb2.Outcome, seats: Seats | None = None) -> str:
    return outcome_words(outcome.winner, outcome.ranking, outcome.reason, seats or Seats())


# ---- events ----------------------------------------------------------------------------------


@cache
def _description(variant: str) -> variant_pb2.VariantDescription | None:
    """The variant's DescribeVariant, built here from the rules package: the CLI names
    regions and cards without asking the server."""
    from risk_rules.descriptions.build import describe as describe_variant  # noqa: PLC0415

    try:
        return describe_variant(variants.descriptor(variant))
    except (KeyError, ValueError):
        return None


def text_names(variant: str, seats: Seats, viewer: int = -1) -> Names:
    """What the text table calls ids in this game: a named seat "seat 2 (ada)", the others
    by number."""
    from risk_client.text import Names  # noqa: PLC0415

    count = max(seats.players, len(seats.names))
    labels = tuple(seats.label(s) if s < len(seats.names) and seats.names[s] else ""
                   for s in range(count))
    return Names.of(_description(variant), labels, seats.players, viewer)


def describe_event(event: game_pb2.Event, seats: Seats | None = None) -> str:
    """One event in words from the shared text table (risk_rules/text, docs/text.md), e.g.
    "Seat 2 attacked Kamchatka, held by seat 1, from Alaska with 3 dice"."""
    from risk_client.text import event_text  # noqa: PLC0415

    case = event.WhichOneof("variant")
    described = variants.by_case(case) if case and case not in ("lifecycle", "extension") \
        else None
    if case != "lifecycle" and described is None:
        raw = text_format.MessageToString(event, as_one_line=True)
        return f"(an event this client cannot read: {raw})"
    variant = described.name if described else ""
    return event_text(event, variant, text_names(variant, seats or Seats()))


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


def describe_action(action: game_pb2.Action, max_count: int = 0,
                    seats: Seats | None = None) -> str:
    """An action of any variant (or a legal family of them, up to `max_count`) in words from
    the shared text table: "Attack Kamchatka from Alaska with 3 dice"."""
    from risk_client.text import action_text  # noqa: PLC0415

    case = action.WhichOneof("variant")
    described = variants.by_case(case) if case and case != "extension" else None
    if described is None:
        return "(an action this client cannot read)"
    return action_text(action, text_names(described.name, seats or Seats()), max_count)


def describe_legal(legal: game_pb2.LegalAction) -> str:
    return describe_action(legal.action, legal.max_count)


# ---- the board -------------------------------------------------------------------------------


def board_text(board: game_pb2.BoardView, seats: Seats, *, colour: bool = False,
               width: int = 100, viewer: int = -1, deciding: Sequence[int] = ()) -> str:
    """A variant's board as its descriptor's renderer draws it; field by field for a variant
    without one (or one this build does not know)."""
    from risk_rules import wire  # noqa: PLC0415

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
    from risk_client.text import phase_text  # noqa: PLC0415

    decision = summary.decision
    if not decision.seats:
        return "no decision pending"
    who = ", ".join(seats.label(s) for s in decision.seats)
    variant = VARIANT_NAMES.get(summary.variant, "")
    return f"decision: {who} ({phase_text(variant, decision.kind)})"


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
