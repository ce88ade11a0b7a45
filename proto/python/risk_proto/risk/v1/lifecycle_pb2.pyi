from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TimeoutPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIMEOUT_POLICY_UNSPECIFIED: _ClassVar[TimeoutPolicy]
    TIMEOUT_POLICY_DEFAULT_ACTION: _ClassVar[TimeoutPolicy]
    TIMEOUT_POLICY_PASS: _ClassVar[TimeoutPolicy]
    TIMEOUT_POLICY_BOT: _ClassVar[TimeoutPolicy]
    TIMEOUT_POLICY_FORFEIT: _ClassVar[TimeoutPolicy]
TIMEOUT_POLICY_UNSPECIFIED: TimeoutPolicy
TIMEOUT_POLICY_DEFAULT_ACTION: TimeoutPolicy
TIMEOUT_POLICY_PASS: TimeoutPolicy
TIMEOUT_POLICY_BOT: TimeoutPolicy
TIMEOUT_POLICY_FORFEIT: TimeoutPolicy

class ClockOptions(_message.Message):
    __slots__ = ("decision_seconds", "bank_seconds", "increment_seconds", "on_timeout")
    DECISION_SECONDS_FIELD_NUMBER: _ClassVar[int]
    BANK_SECONDS_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ON_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    decision_seconds: int
    bank_seconds: int
    increment_seconds: int
    on_timeout: TimeoutPolicy
    def __init__(self, decision_seconds: _Optional[int] = ..., bank_seconds: _Optional[int] = ..., increment_seconds: _Optional[int] = ..., on_timeout: _Optional[_Union[TimeoutPolicy, str]] = ...) -> None: ...

class LifecycleEvent(_message.Message):
    __slots__ = ("game_started", "seat_joined", "seat_token_reissued", "game_cancelled", "game_abandoned", "decision_timed_out", "seat_handed_to_bot", "clock_started")
    class GameStarted(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class SeatJoined(_message.Message):
        __slots__ = ("seat", "display_name")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
        seat: int
        display_name: str
        def __init__(self, seat: _Optional[int] = ..., display_name: _Optional[str] = ...) -> None: ...
    class SeatTokenReissued(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class GameCancelled(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class GameAbandoned(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class DecisionTimedOut(_message.Message):
        __slots__ = ("seat", "policy")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        POLICY_FIELD_NUMBER: _ClassVar[int]
        seat: int
        policy: TimeoutPolicy
        def __init__(self, seat: _Optional[int] = ..., policy: _Optional[_Union[TimeoutPolicy, str]] = ...) -> None: ...
    class SeatHandedToBot(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class ClockStarted(_message.Message):
        __slots__ = ("seat", "deadline_ms", "bank_ms")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
        BANK_MS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        deadline_ms: int
        bank_ms: int
        def __init__(self, seat: _Optional[int] = ..., deadline_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ...) -> None: ...
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    SEAT_JOINED_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_REISSUED_FIELD_NUMBER: _ClassVar[int]
    GAME_CANCELLED_FIELD_NUMBER: _ClassVar[int]
    GAME_ABANDONED_FIELD_NUMBER: _ClassVar[int]
    DECISION_TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    SEAT_HANDED_TO_BOT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_STARTED_FIELD_NUMBER: _ClassVar[int]
    game_started: LifecycleEvent.GameStarted
    seat_joined: LifecycleEvent.SeatJoined
    seat_token_reissued: LifecycleEvent.SeatTokenReissued
    game_cancelled: LifecycleEvent.GameCancelled
    game_abandoned: LifecycleEvent.GameAbandoned
    decision_timed_out: LifecycleEvent.DecisionTimedOut
    seat_handed_to_bot: LifecycleEvent.SeatHandedToBot
    clock_started: LifecycleEvent.ClockStarted
    def __init__(self, game_started: _Optional[_Union[LifecycleEvent.GameStarted, _Mapping]] = ..., seat_joined: _Optional[_Union[LifecycleEvent.SeatJoined, _Mapping]] = ..., seat_token_reissued: _Optional[_Union[LifecycleEvent.SeatTokenReissued, _Mapping]] = ..., game_cancelled: _Optional[_Union[LifecycleEvent.GameCancelled, _Mapping]] = ..., game_abandoned: _Optional[_Union[LifecycleEvent.GameAbandoned, _Mapping]] = ..., decision_timed_out: _Optional[_Union[LifecycleEvent.DecisionTimedOut, _Mapping]] = ..., seat_handed_to_bot: _Optional[_Union[LifecycleEvent.SeatHandedToBot, _Mapping]] = ..., clock_started: _Optional[_Union[LifecycleEvent.ClockStarted, _Mapping]] = ...) -> None: ...

class GameMeta(_message.Message):
    __slots__ = ("clock", "deadline_ms", "clock_seat", "decision_started_ms", "bank_ms", "bot_seats", "spectator_delay_events", "spectator_delay_seconds", "manual_start", "tournament", "round", "bot_levels", "seed_nonce", "seed_commitment", "duplicate_games", "facts")
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_STARTED_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    BOT_SEATS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_DELAY_EVENTS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_DELAY_SECONDS_FIELD_NUMBER: _ClassVar[int]
    MANUAL_START_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVELS_FIELD_NUMBER: _ClassVar[int]
    SEED_NONCE_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_GAMES_FIELD_NUMBER: _ClassVar[int]
    FACTS_FIELD_NUMBER: _ClassVar[int]
    clock: ClockOptions
    deadline_ms: int
    clock_seat: int
    decision_started_ms: int
    bank_ms: _containers.RepeatedScalarFieldContainer[int]
    bot_seats: _containers.RepeatedScalarFieldContainer[bool]
    spectator_delay_events: int
    spectator_delay_seconds: int
    manual_start: bool
    tournament: str
    round: int
    bot_levels: _containers.RepeatedScalarFieldContainer[int]
    seed_nonce: bytes
    seed_commitment: bytes
    duplicate_games: _containers.RepeatedScalarFieldContainer[str]
    facts: int
    def __init__(self, clock: _Optional[_Union[ClockOptions, _Mapping]] = ..., deadline_ms: _Optional[int] = ..., clock_seat: _Optional[int] = ..., decision_started_ms: _Optional[int] = ..., bank_ms: _Optional[_Iterable[int]] = ..., bot_seats: _Optional[_Iterable[bool]] = ..., spectator_delay_events: _Optional[int] = ..., spectator_delay_seconds: _Optional[int] = ..., manual_start: _Optional[bool] = ..., tournament: _Optional[str] = ..., round: _Optional[int] = ..., bot_levels: _Optional[_Iterable[int]] = ..., seed_nonce: _Optional[bytes] = ..., seed_commitment: _Optional[bytes] = ..., duplicate_games: _Optional[_Iterable[str]] = ..., facts: _Optional[int] = ...) -> None: ...
