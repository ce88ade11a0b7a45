"""The lifecycle facts a tournament's game reports to its results feed, and how a commit
records them.

A fact is written by the commit that makes it true, into the game's own hash (field `f:<n>`,
counted by `GameMeta.facts`), in the same atomic commit as the change itself: a process that
dies right after the commit loses nothing, and the feed (`results.Results`) copies the facts
afterwards, in order and once each. Only a game created by CreateRound (its meta names a
tournament) has facts; for any other game this module adds nothing.
"""

from __future__ import annotations

from typing import Any

from risk_proto.risk.v1 import game_pb2, lifecycle_pb2, tournament_pb2
from risk_rules import wire
from risk_rules.engine import Event, get_ruleset
from risk_rules.lifecycle import DecisionTimedOut
from risk_service.operations.records import ABANDONED, ACTIVE, CANCELLED, FINISHED, WAITING
from risk_service.store.game_store import GameRecord

Fact = tournament_pb2.TournamentFact
FINAL_KINDS = frozenset({"finished", "abandoned", "cancelled"})


def fact_fields(meta: lifecycle_pb2.GameMeta, facts: list[Fact]
                ) -> tuple[tuple[str, bytes], ...]:
    """Game-hash fields holding `facts` after those `meta` counts; counts them in `meta`."""
    fields = []
    for fact in facts:
        meta.facts += 1
        fields.append((f"f:{meta.facts}", fact.SerializeToString(deterministic=True)))
    return tuple(fields)


def commit_facts(record: GameRecord, meta: lifecycle_pb2.GameMeta, *, status: int, state: Any,
                 events: list[Event], entry: game_pb2.LogEntry | None, version: int,
                 now_ms: int) -> list[Fact]:
    """The facts a commit of `record`'s next version (`version`, to `status`, `meta` the new
    meta) makes true; none for a game outside tournaments."""
    if not meta.tournament:
        return []
    game_id, variant, old_status = record.game_id, record.variant, record.status
    made: list[Fact] = []

    def fact(**kind: Any) -> None:
        made.append(Fact(game_id=game_id, round=meta.round, game_version=version, at_ms=now_ms,
                         **kind))

    if old_status == WAITING and status in (ACTIVE, FINISHED):
        fact(started=Fact.Started())
    for event in events:
        if isinstance(event, DecisionTimedOut):
            fact(seat_timed_out=Fact.SeatTimedOut(
                seat=event.seat, policy=int(event.policy)))  # type: ignore[arg-type]
    if entry is not None and entry.WhichOneof("entry") == "resign":
        fact(seat_resigned=Fact.SeatResigned(seat=entry.seat))
    if status != old_status:
        if status == FINISHED:
            outcome = wire.outcome_to_proto(get_ruleset(variant).outcome(state))
            fact(finished=Fact.Finished(outcome=outcome))
        elif status == ABANDONED:
            fact(abandoned=Fact.Abandoned())
        elif status == CANCELLED:
            fact(cancelled=Fact.Cancelled())
    return made
