from risk_proto.risk.v1 import game_pb2 as _game_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SessionRequest(_message.Message):
    __slots__ = ("open", "submit", "resign")
    OPEN_FIELD_NUMBER: _ClassVar[int]
    SUBMIT_FIELD_NUMBER: _ClassVar[int]
    RESIGN_FIELD_NUMBER: _ClassVar[int]
    open: SessionOpen
    submit: SessionAction
    resign: SessionResign
    def __init__(self, open: _Optional[_Union[SessionOpen, _Mapping]] = ..., submit: _Optional[_Union[SessionAction, _Mapping]] = ..., resign: _Optional[_Union[SessionResign, _Mapping]] = ...) -> None: ...

class SessionOpen(_message.Message):
    __slots__ = ("game_id", "after_seq", "acks_only")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    ACKS_ONLY_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    after_seq: int
    acks_only: bool
    def __init__(self, game_id: _Optional[str] = ..., after_seq: _Optional[int] = ..., acks_only: _Optional[bool] = ...) -> None: ...

class SessionAction(_message.Message):
    __slots__ = ("request_id", "action", "expected_version", "seat")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    action: _game_pb2.Action
    expected_version: int
    seat: int
    def __init__(self, request_id: _Optional[str] = ..., action: _Optional[_Union[_game_pb2.Action, _Mapping]] = ..., expected_version: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class SessionResign(_message.Message):
    __slots__ = ("request_id", "seat")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    seat: int
    def __init__(self, request_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class SessionResponse(_message.Message):
    __slots__ = ("event", "ack", "error")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    ACK_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    event: _game_pb2.Event
    ack: SessionAck
    error: SessionError
    def __init__(self, event: _Optional[_Union[_game_pb2.Event, _Mapping]] = ..., ack: _Optional[_Union[SessionAck, _Mapping]] = ..., error: _Optional[_Union[SessionError, _Mapping]] = ...) -> None: ...

class SessionAck(_message.Message):
    __slots__ = ("request_id", "submitted", "resigned")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SUBMITTED_FIELD_NUMBER: _ClassVar[int]
    RESIGNED_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    submitted: bytes
    resigned: bytes
    def __init__(self, request_id: _Optional[str] = ..., submitted: _Optional[bytes] = ..., resigned: _Optional[bytes] = ...) -> None: ...

class SessionError(_message.Message):
    __slots__ = ("request_id", "status")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    status: bytes
    def __init__(self, request_id: _Optional[str] = ..., status: _Optional[bytes] = ...) -> None: ...
