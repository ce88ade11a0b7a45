from risk_proto.risk.v1 import common_pb2 as _common_pb2
from risk_proto.risk.v1 import lifecycle_pb2 as _lifecycle_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MatchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_STATUS_UNSPECIFIED: _ClassVar[MatchStatus]
    MATCH_STATUS_WAITING: _ClassVar[MatchStatus]
    MATCH_STATUS_MATCHING: _ClassVar[MatchStatus]
    MATCH_STATUS_MATCHED: _ClassVar[MatchStatus]
    MATCH_STATUS_CANCELLED: _ClassVar[MatchStatus]
    MATCH_STATUS_EXPIRED: _ClassVar[MatchStatus]
MATCH_STATUS_UNSPECIFIED: MatchStatus
MATCH_STATUS_WAITING: MatchStatus
MATCH_STATUS_MATCHING: MatchStatus
MATCH_STATUS_MATCHED: MatchStatus
MATCH_STATUS_CANCELLED: MatchStatus
MATCH_STATUS_EXPIRED: MatchStatus

class RequestMatchRequest(_message.Message):
    __slots__ = ("variant", "sizes", "clock", "rated", "allow_bots_after_seconds", "display_name", "expires_in_seconds", "request_id")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    SIZES_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    ALLOW_BOTS_AFTER_SECONDS_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    variant: _common_pb2.Variant
    sizes: _containers.RepeatedScalarFieldContainer[int]
    clock: _lifecycle_pb2.ClockOptions
    rated: bool
    allow_bots_after_seconds: int
    display_name: str
    expires_in_seconds: int
    request_id: str
    def __init__(self, variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., sizes: _Optional[_Iterable[int]] = ..., clock: _Optional[_Union[_lifecycle_pb2.ClockOptions, _Mapping]] = ..., rated: _Optional[bool] = ..., allow_bots_after_seconds: _Optional[int] = ..., display_name: _Optional[str] = ..., expires_in_seconds: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class MatchTicket(_message.Message):
    __slots__ = ("ticket_id", "player_id", "variant", "sizes", "clock", "rated", "allow_bots_after_seconds", "display_name", "status", "created_at_ms", "expires_at_ms", "game_id", "seat", "rating", "table_size", "bots")
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    SIZES_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    ALLOW_BOTS_AFTER_SECONDS_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    TABLE_SIZE_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    player_id: str
    variant: _common_pb2.Variant
    sizes: _containers.RepeatedScalarFieldContainer[int]
    clock: _lifecycle_pb2.ClockOptions
    rated: bool
    allow_bots_after_seconds: int
    display_name: str
    status: MatchStatus
    created_at_ms: int
    expires_at_ms: int
    game_id: str
    seat: int
    rating: float
    table_size: int
    bots: int
    def __init__(self, ticket_id: _Optional[str] = ..., player_id: _Optional[str] = ..., variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., sizes: _Optional[_Iterable[int]] = ..., clock: _Optional[_Union[_lifecycle_pb2.ClockOptions, _Mapping]] = ..., rated: _Optional[bool] = ..., allow_bots_after_seconds: _Optional[int] = ..., display_name: _Optional[str] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., created_at_ms: _Optional[int] = ..., expires_at_ms: _Optional[int] = ..., game_id: _Optional[str] = ..., seat: _Optional[int] = ..., rating: _Optional[float] = ..., table_size: _Optional[int] = ..., bots: _Optional[int] = ...) -> None: ...

class MatchTicketRequest(_message.Message):
    __slots__ = ("ticket_id",)
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    def __init__(self, ticket_id: _Optional[str] = ...) -> None: ...

class MatchPlan(_message.Message):
    __slots__ = ("game_id", "variant", "clock", "rated", "seats", "bots", "bot_level", "seed", "formed_at_ms")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    FORMED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    variant: _common_pb2.Variant
    clock: _lifecycle_pb2.ClockOptions
    rated: bool
    seats: _containers.RepeatedCompositeFieldContainer[MatchTicket]
    bots: int
    bot_level: int
    seed: int
    formed_at_ms: int
    def __init__(self, game_id: _Optional[str] = ..., variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., clock: _Optional[_Union[_lifecycle_pb2.ClockOptions, _Mapping]] = ..., rated: _Optional[bool] = ..., seats: _Optional[_Iterable[_Union[MatchTicket, _Mapping]]] = ..., bots: _Optional[int] = ..., bot_level: _Optional[int] = ..., seed: _Optional[int] = ..., formed_at_ms: _Optional[int] = ...) -> None: ...
