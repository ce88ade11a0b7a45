from risk_proto.risk.v1 import game_pb2 as _game_pb2
from risk_proto.risk.v1 import lifecycle_pb2 as _lifecycle_pb2
from risk_proto.risk.v1 import tournament_pb2 as _tournament_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class EventFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_FORMAT_UNSPECIFIED: _ClassVar[EventFormat]
    EVENT_FORMAT_SWISS: _ClassVar[EventFormat]
    EVENT_FORMAT_KNOCKOUT: _ClassVar[EventFormat]

class EventStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_STATUS_UNSPECIFIED: _ClassVar[EventStatus]
    EVENT_STATUS_REGISTRATION: _ClassVar[EventStatus]
    EVENT_STATUS_RUNNING: _ClassVar[EventStatus]
    EVENT_STATUS_FINISHED: _ClassVar[EventStatus]
EVENT_FORMAT_UNSPECIFIED: EventFormat
EVENT_FORMAT_SWISS: EventFormat
EVENT_FORMAT_KNOCKOUT: EventFormat
EVENT_STATUS_UNSPECIFIED: EventStatus
EVENT_STATUS_REGISTRATION: EventStatus
EVENT_STATUS_RUNNING: EventStatus
EVENT_STATUS_FINISHED: EventStatus

class EventEntry(_message.Message):
    __slots__ = ("allow", "cap", "min_rating", "max_rating")
    ALLOW_FIELD_NUMBER: _ClassVar[int]
    CAP_FIELD_NUMBER: _ClassVar[int]
    MIN_RATING_FIELD_NUMBER: _ClassVar[int]
    MAX_RATING_FIELD_NUMBER: _ClassVar[int]
    allow: _containers.RepeatedScalarFieldContainer[str]
    cap: int
    min_rating: float
    max_rating: float
    def __init__(self, allow: _Optional[_Iterable[str]] = ..., cap: _Optional[int] = ..., min_rating: _Optional[float] = ..., max_rating: _Optional[float] = ...) -> None: ...

class CreateEventRequest(_message.Message):
    __slots__ = ("event", "format", "options", "clock", "rounds", "final", "advance", "fill_bot", "round_starts_ms", "registration_deadline_ms", "entry", "duplicate", "late_entries", "rated")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    ADVANCE_FIELD_NUMBER: _ClassVar[int]
    FILL_BOT_FIELD_NUMBER: _ClassVar[int]
    ROUND_STARTS_MS_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    LATE_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    event: str
    format: EventFormat
    options: _game_pb2.GameOptions
    clock: _lifecycle_pb2.ClockOptions
    rounds: int
    final: bool
    advance: int
    fill_bot: _tournament_pb2.BotLevel
    round_starts_ms: _containers.RepeatedScalarFieldContainer[int]
    registration_deadline_ms: int
    entry: EventEntry
    duplicate: bool
    late_entries: bool
    rated: bool
    def __init__(self, event: _Optional[str] = ..., format: _Optional[_Union[EventFormat, str]] = ..., options: _Optional[_Union[_game_pb2.GameOptions, _Mapping]] = ..., clock: _Optional[_Union[_lifecycle_pb2.ClockOptions, _Mapping]] = ..., rounds: _Optional[int] = ..., final: _Optional[bool] = ..., advance: _Optional[int] = ..., fill_bot: _Optional[_Union[_tournament_pb2.BotLevel, str]] = ..., round_starts_ms: _Optional[_Iterable[int]] = ..., registration_deadline_ms: _Optional[int] = ..., entry: _Optional[_Union[EventEntry, _Mapping]] = ..., duplicate: _Optional[bool] = ..., late_entries: _Optional[bool] = ..., rated: _Optional[bool] = ...) -> None: ...

class RegisterEventRequest(_message.Message):
    __slots__ = ("event", "name")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    event: str
    name: str
    def __init__(self, event: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class WithdrawEventRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: str
    def __init__(self, event: _Optional[str] = ...) -> None: ...

class StartEventRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: str
    def __init__(self, event: _Optional[str] = ...) -> None: ...

class GetEventRequest(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: str
    def __init__(self, event: _Optional[str] = ...) -> None: ...

class EventPlayer(_message.Message):
    __slots__ = ("player_id", "name", "withdrawn")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    WITHDRAWN_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    name: str
    withdrawn: bool
    def __init__(self, player_id: _Optional[str] = ..., name: _Optional[str] = ..., withdrawn: _Optional[bool] = ...) -> None: ...

class EventTable(_message.Message):
    __slots__ = ("game_id", "players", "bots", "ranking", "void")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    VOID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    players: _containers.RepeatedScalarFieldContainer[str]
    bots: _containers.RepeatedScalarFieldContainer[_tournament_pb2.BotLevel]
    ranking: _containers.RepeatedScalarFieldContainer[int]
    void: bool
    def __init__(self, game_id: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ..., bots: _Optional[_Iterable[_Union[_tournament_pb2.BotLevel, str]]] = ..., ranking: _Optional[_Iterable[int]] = ..., void: _Optional[bool] = ...) -> None: ...

class EventRound(_message.Message):
    __slots__ = ("number", "final", "tables", "seated_at_ms", "over")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    SEATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    number: int
    final: bool
    tables: _containers.RepeatedCompositeFieldContainer[EventTable]
    seated_at_ms: int
    over: bool
    def __init__(self, number: _Optional[int] = ..., final: _Optional[bool] = ..., tables: _Optional[_Iterable[_Union[EventTable, _Mapping]]] = ..., seated_at_ms: _Optional[int] = ..., over: _Optional[bool] = ...) -> None: ...

class EventStanding(_message.Message):
    __slots__ = ("place", "player_id", "name", "points", "points_value", "wins", "opponents_points", "progressive", "played")
    PLACE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    POINTS_VALUE_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_POINTS_FIELD_NUMBER: _ClassVar[int]
    PROGRESSIVE_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    place: int
    player_id: str
    name: str
    points: str
    points_value: float
    wins: int
    opponents_points: str
    progressive: str
    played: int
    def __init__(self, place: _Optional[int] = ..., player_id: _Optional[str] = ..., name: _Optional[str] = ..., points: _Optional[str] = ..., points_value: _Optional[float] = ..., wins: _Optional[int] = ..., opponents_points: _Optional[str] = ..., progressive: _Optional[str] = ..., played: _Optional[int] = ...) -> None: ...

class TournamentEvent(_message.Message):
    __slots__ = ("event", "settings", "status", "players", "rounds", "standings", "created_at_ms", "started_at_ms", "finished_at_ms", "version", "table_size")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    STARTED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TABLE_SIZE_FIELD_NUMBER: _ClassVar[int]
    event: str
    settings: CreateEventRequest
    status: EventStatus
    players: _containers.RepeatedCompositeFieldContainer[EventPlayer]
    rounds: _containers.RepeatedCompositeFieldContainer[EventRound]
    standings: _containers.RepeatedCompositeFieldContainer[EventStanding]
    created_at_ms: int
    started_at_ms: int
    finished_at_ms: int
    version: int
    table_size: int
    def __init__(self, event: _Optional[str] = ..., settings: _Optional[_Union[CreateEventRequest, _Mapping]] = ..., status: _Optional[_Union[EventStatus, str]] = ..., players: _Optional[_Iterable[_Union[EventPlayer, _Mapping]]] = ..., rounds: _Optional[_Iterable[_Union[EventRound, _Mapping]]] = ..., standings: _Optional[_Iterable[_Union[EventStanding, _Mapping]]] = ..., created_at_ms: _Optional[int] = ..., started_at_ms: _Optional[int] = ..., finished_at_ms: _Optional[int] = ..., version: _Optional[int] = ..., table_size: _Optional[int] = ...) -> None: ...

class EventRecord(_message.Message):
    __slots__ = ("event", "organiser_digest", "director_token", "seed", "request_fingerprint")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    ORGANISER_DIGEST_FIELD_NUMBER: _ClassVar[int]
    DIRECTOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    REQUEST_FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    event: TournamentEvent
    organiser_digest: bytes
    director_token: str
    seed: int
    request_fingerprint: bytes
    def __init__(self, event: _Optional[_Union[TournamentEvent, _Mapping]] = ..., organiser_digest: _Optional[bytes] = ..., director_token: _Optional[str] = ..., seed: _Optional[int] = ..., request_fingerprint: _Optional[bytes] = ...) -> None: ...
