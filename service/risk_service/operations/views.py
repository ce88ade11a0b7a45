"""What a caller is shown of a game: its summary, and its events as that caller may see them.

Redaction happens here and in the engine's views only: a spectator of a game with a spectator
delay learns nothing of its progress from a summary that a delayed stream would not tell it,
and a caller without a seat in a game of a duplicate round still in play (`DRAWS_WITHHELD`)
sees its events without what the draws gave, since the round's other games get the same
draws later (docs/tournaments.md, "What stays hidden during a duplicate round").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from risk_proto.risk.v1 import common_pb2, game_pb2, lifecycle_pb2, service_pb2
from risk_rules import variants, wire
from risk_rules.engine import Event, get_ruleset
from risk_service.operations.records import ACTIVE, FINAL, decode_meta
from risk_service.store.game_store import GameRecord

# an event numbered by its commit: (seq, version, event, committed at ms)
Numbered = tuple[int, int, Event, int]

# The viewer (in `events_for` and the stream caches' keys) that is a caller without a seat in
# a game of a duplicate round still in play: a spectator's view of each event, less its draws.
# No seat is negative, so it is no seat's number.
DRAWS_WITHHELD = -1
HIDDEN_DRAW = -1  # what a withheld die, card or territory of a card reads as


def viewer_of(seat: int | None, draws_secret: bool) -> int | None:
    """The viewer a caller holding `seat` (None: none) is; `draws_secret`: the game's
    draws are withheld from callers without a seat (`seed_reveal.draws_secret`)."""
    return DRAWS_WITHHELD if seat is None and draws_secret else seat


def summary(
    record: GameRecord, state: Any, meta: lifecycle_pb2.GameMeta | None = None,
    *, seat: int | None = None, reveal: bool = False,
    decision: common_pb2.Decision | None = None,
) -> service_pb2.GameSummary:
    """The summary for a caller holding `seat` (None: no seat). While a game with a spectator
    delay is played, a caller without a seat gets no more of its progress than a delayed
    stream gives: version, last seq, the decision, its deadline, the banks, the bot seats,
    vacations, missed turns and the time of the last change are withheld (left unset). With
    `reveal` (the game is over: `seed_reveal.seed_revealable`), the seed and its
    commitment's nonce are shown. With
    `decision`, that is the decision shown (`records.listed`: `state` is an earlier one's)."""
    rules = get_ruleset(record.variant)
    meta = meta if meta is not None else decode_meta(record)
    players = meta.seat_players  # the seats' player ids (docs/players.md), where bound
    shown = service_pb2.GameSummary(
        game_id=record.game_id,
        variant=wire.variant_enum(record.variant),
        status=record.status,  # type: ignore[arg-type]
        rules_version=rules.rules_version,
        seats=[service_pb2.Seat(seat=i, display_name=record.names[i],
                                taken=bool(record.seat_digests[i]),
                                player_id=players[i] if i < len(players) else "")
               for i in range(record.players)],
        created_at_ms=record.created_ms,
        clock=meta.clock,
        spectator_delay_events=meta.spectator_delay_events,
        spectator_delay_seconds=meta.spectator_delay_seconds,
        tournament=meta.tournament,
        round=meta.round,
        bot_levels=meta.bot_levels,  # type: ignore[arg-type]
        seed_commitment=meta.seed_commitment,
        rated=meta.rated,  # docs/ratings.md; unset (no bytes) in an unrated game
    )
    if reveal and meta.seed_nonce:  # the caller checked that the seed may be shown
        shown.seed_reveal.seed = state.seed
        shown.seed_reveal.nonce = meta.seed_nonce
    if seat is None and record.status not in FINAL and (
            meta.spectator_delay_events or meta.spectator_delay_seconds):
        return shown
    # fields are serialised by number, so setting them here gives the same bytes
    shown.version = record.version
    shown.last_seq = record.last_seq
    shown.updated_at_ms = record.updated_ms
    shown.deadline_ms = meta.deadline_ms
    shown.bank_ms.extend(meta.bank_ms)
    shown.bot_seats.extend(meta.bot_seats)
    shown.vacation_left_ms.extend(meta.vacation_left_ms)  # correspondence clocks only
    shown.vacation_until_ms.extend(meta.vacation_until_ms)
    shown.missed_turns.extend(meta.missed_turns)
    if record.status == ACTIVE:
        shown.decision.CopyFrom(decision if decision is not None
                                else wire.decision_to_proto(rules.decision(state)))
    outcome = wire.outcome_to_proto(rules.outcome(state))
    if outcome is not None:
        shown.outcome.CopyFrom(outcome)
    return shown


def events_for(variant: str, items: Sequence[Numbered], viewer: int | None,
               whole: Sequence[game_pb2.Event] = ()) -> list[game_pb2.Event]:
    """The events `viewer` (a seat, None: no seat, DRAWS_WITHHELD: no seat and no draws) may
    see, each as that viewer sees it. `whole`: the items' envelopes as stored, where the
    caller has them already (a commit encodes them for Redis anyway): an event the viewer
    sees whole is sent as that one."""
    out = []
    draws = None
    if viewer == DRAWS_WITHHELD:  # (lifecycle events, a variant of their own, draw nothing)
        draws = variants.descriptor(variant).draws if variant in variants.DESCRIPTORS else {}
    for index, (seq, version, event, at_ms) in enumerate(items):
        if draws is None:
            seen = event.for_viewer(viewer)
        else:
            seen = event.for_viewer(None)
            if seen is not None:
                seen = without_draws(seen, draws.get(type(seen).__name__, ()))
        if seen is None:
            continue
        if seen is event and whole:
            out.append(whole[index])
        else:
            out.append(wire.event_to_proto(variant, seen, seq, version, at_ms))
    return out


def without_draws(event: Event, fields: Sequence[str]) -> Event:
    """`event` with each of `fields` (the variant's `draws` for its class) read as
    HIDDEN_DRAW: an int, or every item of a tuple (how many dice or cards stays shown)."""
    for name in fields:
        event = _hidden(event, name.split("."))
    return event


def _hidden(value: Any, path: list[str]) -> Any:
    current = getattr(value, path[0])
    if len(path) > 1:
        hidden = _hidden(current, path[1:])
    elif isinstance(current, tuple):
        hidden = (HIDDEN_DRAW,) * len(current)
    else:
        hidden = HIDDEN_DRAW
    return dataclasses.replace(value, **{path[0]: hidden})
