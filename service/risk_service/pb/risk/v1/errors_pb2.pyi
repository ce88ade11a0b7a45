from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from typing import ClassVar as _ClassVar

DESCRIPTOR: _descriptor.FileDescriptor

class ServiceReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SERVICE_REASON_UNSPECIFIED: _ClassVar[ServiceReason]
    MALFORMED_REQUEST: _ClassVar[ServiceReason]
    REQUEST_ID_REUSED: _ClassVar[ServiceReason]
    SEAT_TAKEN: _ClassVar[ServiceReason]
    STALE_VERSION: _ClassVar[ServiceReason]
    GAME_NOT_FOUND: _ClassVar[ServiceReason]
    MISSING_CREDENTIALS: _ClassVar[ServiceReason]
    BAD_CREDENTIALS: _ClassVar[ServiceReason]
    WRONG_SEAT: _ClassVar[ServiceReason]
    TOO_LARGE: _ClassVar[ServiceReason]
    RATE_LIMITED: _ClassVar[ServiceReason]
    SUBSCRIBER_TOO_SLOW: _ClassVar[ServiceReason]
    VARIANT_NOT_AVAILABLE: _ClassVar[ServiceReason]
    STORE_UNAVAILABLE: _ClassVar[ServiceReason]
    GAME_NOT_STARTED: _ClassVar[ServiceReason]
    GAME_NOT_OVER: _ClassVar[ServiceReason]
    GAME_ALREADY_STARTED: _ClassVar[ServiceReason]
    SEATS_NOT_FILLED: _ClassVar[ServiceReason]
    NOT_HOST: _ClassVar[ServiceReason]
    ORGANISER_NEEDS_CLIENT_CERT: _ClassVar[ServiceReason]
SERVICE_REASON_UNSPECIFIED: ServiceReason
MALFORMED_REQUEST: ServiceReason
REQUEST_ID_REUSED: ServiceReason
SEAT_TAKEN: ServiceReason
STALE_VERSION: ServiceReason
GAME_NOT_FOUND: ServiceReason
MISSING_CREDENTIALS: ServiceReason
BAD_CREDENTIALS: ServiceReason
WRONG_SEAT: ServiceReason
TOO_LARGE: ServiceReason
RATE_LIMITED: ServiceReason
SUBSCRIBER_TOO_SLOW: ServiceReason
VARIANT_NOT_AVAILABLE: ServiceReason
STORE_UNAVAILABLE: ServiceReason
GAME_NOT_STARTED: ServiceReason
GAME_NOT_OVER: ServiceReason
GAME_ALREADY_STARTED: ServiceReason
SEATS_NOT_FILLED: ServiceReason
NOT_HOST: ServiceReason
ORGANISER_NEEDS_CLIENT_CERT: ServiceReason
