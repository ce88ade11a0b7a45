from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class IssuePlayerTokenRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class IssuePlayerTokenResponse(_message.Message):
    __slots__ = ("player_id", "token", "expires_at_ms")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    token: str
    expires_at_ms: int
    def __init__(self, player_id: _Optional[str] = ..., token: _Optional[str] = ..., expires_at_ms: _Optional[int] = ...) -> None: ...
