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

class MissedTurnPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MISSED_TURN_POLICY_UNSPECIFIED: _ClassVar[MissedTurnPolicy]
    MISSED_TURN_POLICY_REMOVE: _ClassVar[MissedTurnPolicy]
    MISSED_TURN_POLICY_BOT: _ClassVar[MissedTurnPolicy]
TIMEOUT_POLICY_UNSPECIFIED: TimeoutPolicy
TIMEOUT_POLICY_DEFAULT_ACTION: TimeoutPolicy
TIMEOUT_POLICY_PASS: TimeoutPolicy
TIMEOUT_POLICY_BOT: TimeoutPolicy
TIMEOUT_POLICY_FORFEIT: TimeoutPolicy
MISSED_TURN_POLICY_UNSPECIFIED: MissedTurnPolicy
MISSED_TURN_POLICY_REMOVE: MissedTurnPolicy
MISSED_TURN_POLICY_BOT: MissedTurnPolicy

class ClockOptions(_message.Message):
    __slots__ = ("decision_seconds", "bank_seconds", "increment_seconds", "on_timeout", "turn_seconds", "vacation_days", "missed_turns_limit", "on_missed_turns")
    DECISION_SECONDS_FIELD_NUMBER: _ClassVar[int]
    BANK_SECONDS_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ON_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    VACATION_DAYS_FIELD_NUMBER: _ClassVar[int]
    MISSED_TURNS_LIMIT_FIELD_NUMBER: _ClassVar[int]
    ON_MISSED_TURNS_FIELD_NUMBER: _ClassVar[int]
    decision_seconds: int
    bank_seconds: int
    increment_seconds: int
    on_timeout: TimeoutPolicy
    turn_seconds: int
    vacation_days: int
    missed_turns_limit: int
    on_missed_turns: MissedTurnPolicy
    def __init__(self, decision_seconds: _Optional[int] = ..., bank_seconds: _Optional[int] = ..., increment_seconds: _Optional[int] = ..., on_timeout: _Optional[_Union[TimeoutPolicy, str]] = ..., turn_seconds: _Optional[int] = ..., vacation_days: _Optional[int] = ..., missed_turns_limit: _Optional[int] = ..., on_missed_turns: _Optional[_Union[MissedTurnPolicy, str]] = ...) -> None: ...

class LifecycleEvent(_message.Message):
    __slots__ = ("game_started", "seat_joined", "seat_token_reissued", "game_cancelled", "game_abandoned", "decision_timed_out", "seat_handed_to_bot", "clock_started", "turn_missed", "seat_removed", "vacation_started", "vacation_ended")
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
    class TurnMissed(_message.Message):
        __slots__ = ("seat", "missed")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        MISSED_FIELD_NUMBER: _ClassVar[int]
        seat: int
        missed: int
        def __init__(self, seat: _Optional[int] = ..., missed: _Optional[int] = ...) -> None: ...
    class SeatRemoved(_message.Message):
        __slots__ = ("seat", "missed")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        MISSED_FIELD_NUMBER: _ClassVar[int]
        seat: int
        missed: int
        def __init__(self, seat: _Optional[int] = ..., missed: _Optional[int] = ...) -> None: ...
    class VacationStarted(_message.Message):
        __slots__ = ("seat", "until_ms", "vacation_left_ms")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        UNTIL_MS_FIELD_NUMBER: _ClassVar[int]
        VACATION_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        until_ms: int
        vacation_left_ms: int
        def __init__(self, seat: _Optional[int] = ..., until_ms: _Optional[int] = ..., vacation_left_ms: _Optional[int] = ...) -> None: ...
    class VacationEnded(_message.Message):
        __slots__ = ("seat", "vacation_left_ms")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        VACATION_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        vacation_left_ms: int
        def __init__(self, seat: _Optional[int] = ..., vacation_left_ms: _Optional[int] = ...) -> None: ...
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    SEAT_JOINED_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_REISSUED_FIELD_NUMBER: _ClassVar[int]
    GAME_CANCELLED_FIELD_NUMBER: _ClassVar[int]
    GAME_ABANDONED_FIELD_NUMBER: _ClassVar[int]
    DECISION_TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    SEAT_HANDED_TO_BOT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_STARTED_FIELD_NUMBER: _ClassVar[int]
    TURN_MISSED_FIELD_NUMBER: _ClassVar[int]
    SEAT_REMOVED_FIELD_NUMBER: _ClassVar[int]
    VACATION_STARTED_FIELD_NUMBER: _ClassVar[int]
    VACATION_ENDED_FIELD_NUMBER: _ClassVar[int]
    game_started: LifecycleEvent.GameStarted
    seat_joined: LifecycleEvent.SeatJoined
    seat_token_reissued: LifecycleEvent.SeatTokenReissued
    game_cancelled: LifecycleEvent.GameCancelled
    game_abandoned: LifecycleEvent.GameAbandoned
    decision_timed_out: LifecycleEvent.DecisionTimedOut
    seat_handed_to_bot: LifecycleEvent.SeatHandedToBot
    clock_started: LifecycleEvent.ClockStarted
    turn_missed: LifecycleEvent.TurnMissed
    seat_removed: LifecycleEvent.SeatRemoved
    vacation_started: LifecycleEvent.VacationStarted
    vacation_ended: LifecycleEvent.VacationEnded
    def __init__(self, game_started: _Optional[_Union[LifecycleEvent.GameStarted, _Mapping]] = ..., seat_joined: _Optional[_Union[LifecycleEvent.SeatJoined, _Mapping]] = ..., seat_token_reissued: _Optional[_Union[LifecycleEvent.SeatTokenReissued, _Mapping]] = ..., game_cancelled: _Optional[_Union[LifecycleEvent.GameCancelled, _Mapping]] = ..., game_abandoned: _Optional[_Union[LifecycleEvent.GameAbandoned, _Mapping]] = ..., decision_timed_out: _Optional[_Union[LifecycleEvent.DecisionTimedOut, _Mapping]] = ..., seat_handed_to_bot: _Optional[_Union[LifecycleEvent.SeatHandedToBot, _Mapping]] = ..., clock_started: _Optional[_Union[LifecycleEvent.ClockStarted, _Mapping]] = ..., turn_missed: _Optional[_Union[LifecycleEvent.TurnMissed, _Mapping]] = ..., seat_removed: _Optional[_Union[LifecycleEvent.SeatRemoved, _Mapping]] = ..., vacation_started: _Optional[_Union[LifecycleEvent.VacationStarted, _Mapping]] = ..., vacation_ended: _Optional[_Union[LifecycleEvent.VacationEnded, _Mapping]] = ...) -> None: ...

class GameMeta(_message.Message):
    __slots__ = ("clock", "deadline_ms", "clock_seat", "decision_started_ms", "bank_ms", "bot_seats", "spectator_delay_events", "spectator_delay_seconds", "manual_start", "tournament", "round", "bot_levels", "seed_nonce", "seed_commitment", "duplicate_games", "facts", "turn_seat", "turn_left_ms", "vacation_left_ms", "vacation_until_ms", "missed_turns", "seat_players", "host_player", "turn_missed", "player_turn", "rated")
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
    TURN_SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    VACATION_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    VACATION_UNTIL_MS_FIELD_NUMBER: _ClassVar[int]
    MISSED_TURNS_FIELD_NUMBER: _ClassVar[int]
    SEAT_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    HOST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    TURN_MISSED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TURN_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
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
    turn_seat: int
    turn_left_ms: int
    vacation_left_ms: _containers.RepeatedScalarFieldContainer[int]
    vacation_until_ms: _containers.RepeatedScalarFieldContainer[int]
    missed_turns: _containers.RepeatedScalarFieldContainer[int]
    seat_players: _containers.RepeatedScalarFieldContainer[str]
    host_player: str
    turn_missed: bool
    player_turn: int
    rated: bool
    def __init__(self, clock: _Optional[_Union[ClockOptions, _Mapping]] = ..., deadline_ms: _Optional[int] = ..., clock_seat: _Optional[int] = ..., decision_started_ms: _Optional[int] = ..., bank_ms: _Optional[_Iterable[int]] = ..., bot_seats: _Optional[_Iterable[bool]] = ..., spectator_delay_events: _Optional[int] = ..., spectator_delay_seconds: _Optional[int] = ..., manual_start: _Optional[bool] = ..., tournament: _Optional[str] = ..., round: _Optional[int] = ..., bot_levels: _Optional[_Iterable[int]] = ..., seed_nonce: _Optional[bytes] = ..., seed_commitment: _Optional[bytes] = ..., duplicate_games: _Optional[_Iterable[str]] = ..., facts: _Optional[int] = ..., turn_seat: _Optional[int] = ..., turn_left_ms: _Optional[int] = ..., vacation_left_ms: _Optional[_Iterable[int]] = ..., vacation_until_ms: _Optional[_Iterable[int]] = ..., missed_turns: _Optional[_Iterable[int]] = ..., seat_players: _Optional[_Iterable[str]] = ..., host_player: _Optional[str] = ..., turn_missed: _Optional[bool] = ..., player_turn: _Optional[int] = ..., rated: _Optional[bool] = ...) -> None: ...
