"""The service's own events: what happens to a game outside its rules (start, joins, clocks,
timeouts, missed correspondence turns and removals, vacations, bot takeover, cancel, abandon).
They sit in the event log beside the variant's events, travel as `risk.v1.LifecycleEvent`, and
every viewer may see them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

from risk_rules.engine import Event


class TimeoutPolicy(IntEnum):
    DEFAULT_ACTION = 1
    PASS = 2
    BOT = 3
    FORFEIT = 4


class MissedTurnPolicy(IntEnum):
    REMOVE = 1
    BOT = 2


@dataclass(frozen=True, slots=True)
class LifecycleEvent(Event):
    """Base of the service's events."""


@dataclass(frozen=True, slots=True)
class GameStarted(LifecycleEvent):
    pass


@dataclass(frozen=True, slots=True)
class SeatJoined(LifecycleEvent):
    seat: int
    display_name: str


@dataclass(frozen=True, slots=True)
class SeatTokenReissued(LifecycleEvent):
    seat: int


@dataclass(frozen=True, slots=True)
class GameCancelled(LifecycleEvent):
    terminal: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class GameAbandoned(LifecycleEvent):
    terminal: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class DecisionTimedOut(LifecycleEvent):
    seat: int
    policy: TimeoutPolicy


@dataclass(frozen=True, slots=True)
class SeatHandedToBot(LifecycleEvent):
    seat: int


@dataclass(frozen=True, slots=True)
class ClockStarted(LifecycleEvent):
    seat: int
    deadline_ms: int
    bank_ms: int


@dataclass(frozen=True, slots=True)
class TurnMissed(LifecycleEvent):
    seat: int
    missed: int  # turns missed in a row, this one included


@dataclass(frozen=True, slots=True)
class SeatRemoved(LifecycleEvent):
    seat: int
    missed: int


@dataclass(frozen=True, slots=True)
class VacationStarted(LifecycleEvent):
    seat: int
    until_ms: int
    vacation_left_ms: int


@dataclass(frozen=True, slots=True)
class VacationEnded(LifecycleEvent):
    seat: int
    vacation_left_ms: int


LIFECYCLE_EVENT_TYPES: tuple[type[LifecycleEvent], ...] = (
    GameStarted, SeatJoined, SeatTokenReissued, GameCancelled, GameAbandoned, DecisionTimedOut,
    SeatHandedToBot, ClockStarted, TurnMissed, SeatRemoved, VacationStarted, VacationEnded,
)
