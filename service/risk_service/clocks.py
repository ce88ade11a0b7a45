"""Game clocks: per-decision deadlines and per-seat time banks with an increment.

Clock state is service bookkeeping (`risk.v1.GameMeta`), not rules: the engine stays free of
time. A commit settles the acting seat's clock and arms the next decision's deadline; the
sweeper applies the timeout policy when a deadline passes.
"""

from __future__ import annotations

from risk_proto.risk.v1 import lifecycle_pb2
from risk_rules.lifecycle import ClockStarted


def new_meta(
    clock: lifecycle_pb2.ClockOptions,
    players: int,
    *,
    delay_events: int = 0,
    delay_seconds: int = 0,
    manual_start: bool = False,
) -> lifecycle_pb2.GameMeta:
    meta = lifecycle_pb2.GameMeta(
        clock=clock,
        clock_seat=-1,
        bank_ms=[clock.bank_seconds * 1000] * players if clock.bank_seconds else [],
        bot_seats=[False] * players,
        spectator_delay_events=delay_events,
        spectator_delay_seconds=delay_seconds,
        manual_start=manual_start,
    )
    return meta


def timed(meta: lifecycle_pb2.GameMeta) -> bool:
    return bool(meta.clock.decision_seconds or meta.clock.bank_seconds)


def advance(
    meta: lifecycle_pb2.GameMeta, actor: int | None, decider: int | None, now_ms: int
) -> ClockStarted | None:
    """Charge `actor` for the decision it just made, and arm `decider`'s new deadline.

    A change by another seat than the one on the clock (a resignation, a join) leaves a
    running deadline alone unless the decision moved to someone else.
    """
    if not timed(meta):
        return None
    clock = meta.clock
    if actor is not None and actor == meta.clock_seat and meta.decision_started_ms:
        if clock.bank_seconds:
            spent = max(0, now_ms - meta.decision_started_ms)
            left = max(0, meta.bank_ms[actor] - spent) + clock.increment_seconds * 1000
            meta.bank_ms[actor] = left
    elif decider == meta.clock_seat and meta.deadline_ms:
        return None  # the same decision is still pending; its deadline stands
    if decider is None:
        meta.deadline_ms = 0
        meta.clock_seat = -1
        meta.decision_started_ms = 0
        return None
    limits = []
    if clock.decision_seconds:
        limits.append(clock.decision_seconds * 1000)
    if clock.bank_seconds:
        limits.append(meta.bank_ms[decider])
    meta.clock_seat = decider
    meta.decision_started_ms = now_ms
    meta.deadline_ms = now_ms + min(limits)
    bank = meta.bank_ms[decider] if clock.bank_seconds else 0
    return ClockStarted(decider, meta.deadline_ms, bank)


def stop(meta: lifecycle_pb2.GameMeta) -> None:
    """The game is over or paused: no deadline runs."""
    meta.deadline_ms = 0
    meta.clock_seat = -1
    meta.decision_started_ms = 0
