"""Game clocks: per-decision deadlines, per-seat time banks with an increment, and
correspondence clocks (a deadline per turn in hours or days, vacation, missed turns).

Clock state is service bookkeeping (`risk.v1.GameMeta`), not rules: the engine stays free of
time; it only says whose turn it is (`Ruleset.turn_seat`). A commit settles the acting seat's
clock and arms the next decision's deadline; the sweeper applies the timeout policy when a
deadline passes (operations/timers.py, which also counts missed turns).

A correspondence turn (`turn_seconds`) is a seat's whole turn, not each decision: its
deadline is armed when the turn starts and stands while that seat decides on. When the
decision goes to another seat in the turn (a defence, a response window), the turn's clock
stops with what is left of it (`turn_left_ms`) and the responder gets a deadline of its own
(`decision_seconds` where set, else `turn_seconds`); when the decision comes back, the turn
runs on from what was left. A seat on vacation has its clock stopped until its vacation ends:
every deadline of its starts counting then.
"""

from __future__ import annotations

from risk_proto.risk.v1 import lifecycle_pb2, variant_pb2
from risk_rules.engine import Event
from risk_rules.lifecycle import (
    ClockStarted,
    MissedTurnPolicy,
    TimeoutPolicy,
    VacationEnded,
    VacationStarted,
)
from risk_service.errors import malformed


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
    if clock.turn_seconds:
        meta.turn_seat = -1
        meta.vacation_left_ms.extend([clock.vacation_days * DAY_MS] * players)
        meta.vacation_until_ms.extend([0] * players)
        meta.missed_turns.extend([0] * players)
    return meta


DAY_MS = 86_400_000
# what ClockOptions accepts (CreateGame) and DescribeVariant shows: (min, max) per field
TURN_SECONDS = (3600, 30 * 86_400)
VACATION_DAYS = (0, 60)
MISSED_TURNS_LIMIT = (0, 10)


def settle_correspondence(asked: lifecycle_pb2.ClockOptions,
                          clock: lifecycle_pb2.ClockOptions) -> None:
    """Copy CreateGame's correspondence fields into `clock`, checked against their ranges
    (MALFORMED_REQUEST otherwise), the missed-turn policy spelt out."""
    for name, (low, high) in (("turn_seconds", TURN_SECONDS), ("vacation_days", VACATION_DAYS),
                              ("missed_turns_limit", MISSED_TURNS_LIMIT)):
        value = getattr(asked, name)
        if value and not low <= value <= high:
            raise malformed(f"clock.{name} must be 0 or {low} to {high}, not {value}")
    if not asked.turn_seconds:
        if asked.vacation_days or asked.missed_turns_limit or asked.on_missed_turns:
            raise malformed("vacation and missed turns need a per-turn clock (turn_seconds)")
        return
    try:
        policy = MissedTurnPolicy(asked.on_missed_turns or MissedTurnPolicy.REMOVE)
    except ValueError:
        raise malformed(f"unknown missed-turn policy {asked.on_missed_turns}") from None
    clock.turn_seconds = asked.turn_seconds
    clock.vacation_days = asked.vacation_days
    clock.missed_turns_limit = asked.missed_turns_limit
    clock.on_missed_turns = policy.value  # type: ignore[assignment]  # the enum's int


def timed(meta: lifecycle_pb2.GameMeta) -> bool:
    clock = meta.clock
    return bool(clock.decision_seconds or clock.bank_seconds or clock.turn_seconds)


def correspondence(meta: lifecycle_pb2.GameMeta) -> bool:
    """The game runs on a per-turn clock (ClockOptions.turn_seconds)."""
    return bool(meta.clock.turn_seconds)


def on_vacation(meta: lifecycle_pb2.GameMeta, seat: int, now_ms: int) -> bool:
    return seat < len(meta.vacation_until_ms) and meta.vacation_until_ms[seat] > now_ms


def _resumes(meta: lifecycle_pb2.GameMeta, seat: int, now_ms: int) -> int:
    """When `seat`'s clock runs again: now, or the end of its vacation."""
    until = meta.vacation_until_ms[seat] if seat < len(meta.vacation_until_ms) else 0
    return max(now_ms, until)


def played(meta: lifecycle_pb2.GameMeta, seat: int) -> None:
    """`seat` took a decision itself: its run of missed turns is over."""
    if seat < len(meta.missed_turns):
        meta.missed_turns[seat] = 0


def advance(
    meta: lifecycle_pb2.GameMeta, actor: int | None, decider: int | None, now_ms: int,
    turn: int = -1,
) -> ClockStarted | None:
    """Charge `actor` for the decision it just made, and arm `decider`'s new deadline
    (`turn`: whose turn it is, for a correspondence clock).

    A change by another seat than the one on the clock (a resignation, a join) leaves a
    running deadline alone unless the decision moved to someone else.
    """
    if not timed(meta):
        return None
    if correspondence(meta):
        return _advance_turn(meta, actor, decider, turn, now_ms)
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


def _advance_turn(
    meta: lifecycle_pb2.GameMeta, actor: int | None, decider: int | None, turn: int,
    now_ms: int,
) -> ClockStarted | None:
    """`advance` for a correspondence clock: one deadline per turn, paused while another seat
    answers out of turn (the module's docstring)."""
    if decider is None:
        stop(meta)
        return None
    running = meta.clock_seat if meta.deadline_ms else -1
    if turn != meta.turn_seat:  # a new turn: its whole time ahead
        meta.turn_seat = turn
        meta.turn_left_ms = meta.clock.turn_seconds * 1000
        meta.turn_missed = False
    elif running == turn:
        if decider == turn:
            return None  # the turn goes on: its deadline stands
        # a response interrupts the turn: keep what is left of it (its vacation aside)
        meta.turn_left_ms = max(0, meta.deadline_ms - _resumes(meta, turn, now_ms))
    elif running == decider and actor != decider:
        return None  # the same response is still pending; its deadline stands
    if decider == turn:
        allowed = meta.turn_left_ms
    else:
        allowed = (meta.clock.decision_seconds or meta.clock.turn_seconds) * 1000
    meta.clock_seat = decider
    meta.decision_started_ms = now_ms
    meta.deadline_ms = _resumes(meta, decider, now_ms) + allowed
    return ClockStarted(decider, meta.deadline_ms, 0)


def start_vacation(meta: lifecycle_pb2.GameMeta, seat: int, days: int,
                   now_ms: int) -> list[Event]:
    """`seat` stops its clocks for `days` days from now (checked by the caller); a deadline of
    its that runs now moves on by as much."""
    until = now_ms + days * DAY_MS
    meta.vacation_left_ms[seat] -= days * DAY_MS
    meta.vacation_until_ms[seat] = until
    events: list[Event] = [VacationStarted(seat, until, meta.vacation_left_ms[seat])]
    if meta.clock_seat == seat and meta.deadline_ms:
        meta.deadline_ms = until + max(0, meta.deadline_ms - now_ms)
        events.append(ClockStarted(seat, meta.deadline_ms, 0))
    return events


def end_vacation(meta: lifecycle_pb2.GameMeta, seat: int, now_ms: int) -> list[Event]:
    """`seat` is back before its vacation ran out: the unused time is returned, and a deadline
    of its counts from now with what it had left."""
    until = meta.vacation_until_ms[seat]
    meta.vacation_left_ms[seat] += until - now_ms
    meta.vacation_until_ms[seat] = now_ms
    events: list[Event] = [VacationEnded(seat, meta.vacation_left_ms[seat])]
    if meta.clock_seat == seat and meta.deadline_ms:
        meta.deadline_ms = now_ms + max(0, meta.deadline_ms - until)
        events.append(ClockStarted(seat, meta.deadline_ms, 0))
    return events


def stop(meta: lifecycle_pb2.GameMeta) -> None:
    """The game is over or paused: no deadline runs."""
    meta.deadline_ms = 0
    meta.clock_seat = -1
    meta.decision_started_ms = 0
    if correspondence(meta):
        meta.turn_seat = -1
        meta.turn_left_ms = 0


def _int_option(name: str, low: int, high: int, text: str) -> variant_pb2.OptionDescription:
    return variant_pb2.OptionDescription(
        name=name, type=variant_pb2.OPTION_TYPE_INT, min=low, max=high, description=text,
        default_value=variant_pb2.OptionValue(int_value=0), settable=True)


def _enum_option(name: str, enum: type[TimeoutPolicy] | type[MissedTurnPolicy], *,
                 prefix: str, default: int, texts: dict[int, str], text: str
                 ) -> variant_pb2.OptionDescription:
    return variant_pb2.OptionDescription(
        name=name, type=variant_pb2.OPTION_TYPE_ENUM, description=text, settable=True,
        default_value=variant_pb2.OptionValue(enum_value=default),
        choices=[variant_pb2.OptionChoice(name=f"{prefix}_{member.name}", number=member.value,
                                          description=texts[member.value])
                 for member in enum])


def described_options() -> list[variant_pb2.OptionDescription]:
    """CreateGame's ClockOptions as DescribeVariant shows them: each field, its range and
    what it means (the same for every variant)."""
    low, high = TURN_SECONDS
    return [
        _int_option("decision_seconds", 0, 2**31 - 1,
                    "each decision within this many seconds (0: no limit); with "
                    "turn_seconds, the deadline of an answer out of turn"),
        _int_option("bank_seconds", 0, 2**31 - 1, "each seat's time bank (0: none)"),
        _int_option("increment_seconds", 0, 2**31 - 1,
                    "seconds added to a seat's bank after each of its decisions"),
        _enum_option("on_timeout", TimeoutPolicy, prefix="TIMEOUT_POLICY",
                     default=TimeoutPolicy.DEFAULT_ACTION,
                     texts={1: "the variant's passive action", 2: "pass a response window",
                            3: "the built-in bot plays the seat from then on",
                            4: "the seat resigns"},
                     text="what a passed deadline does"),
        _int_option("turn_seconds", low, high,
                    "correspondence: each seat's whole turn within this many seconds, an hour "
                    "to 30 days (0: no per-turn clock)"),
        _int_option("vacation_days", *VACATION_DAYS,
                    "correspondence: whole days each seat may stop its clocks in this game "
                    "(StartVacation)"),
        _int_option("missed_turns_limit", *MISSED_TURNS_LIMIT,
                    "correspondence: turns missed in a row after which on_missed_turns "
                    "applies (0: never)"),
        _enum_option("on_missed_turns", MissedTurnPolicy, prefix="MISSED_TURN_POLICY",
                     default=MissedTurnPolicy.REMOVE,
                     texts={1: "the seat is removed as a resignation removes it",
                            2: "the built-in bot plays the seat from then on"},
                     text="what becomes of a seat that missed missed_turns_limit turns in a "
                          "row"),
    ]
