"""The service's own events: what happens to a game outside its rules (start, joins, clocks,
timeouts, bot takeover, cancel, abandon). They sit in the event log beside the variant's
events, travel as `risk.v1.LifecycleEvent`, and every viewer may see them."""

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


LIFECYCLE_EVENT_TYPES: tuple[type[LifecycleEvent], ...] = (
    GameStarted, SeatJoined, SeatTokenReissued, GameCancelled, GameAbandoned, DecisionTimedOut,
    SeatHandedToBot, ClockStarted,
)
