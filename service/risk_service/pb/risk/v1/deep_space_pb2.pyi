from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DeepSpaceOptions(_message.Message):
    __slots__ = ("players", "max_turns")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_TURNS_FIELD_NUMBER: _ClassVar[int]
    players: int
    max_turns: int
    def __init__(self, players: _Optional[int] = ..., max_turns: _Optional[int] = ...) -> None: ...

class DeepSpaceState(_message.Message):
    __slots__ = ("options", "seed", "rng_state", "rng_inc")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RNG_STATE_FIELD_NUMBER: _ClassVar[int]
    RNG_INC_FIELD_NUMBER: _ClassVar[int]
    options: DeepSpaceOptions
    seed: int
    rng_state: int
    rng_inc: int
    def __init__(self, options: _Optional[_Union[DeepSpaceOptions, _Mapping]] = ..., seed: _Optional[int] = ..., rng_state: _Optional[int] = ..., rng_inc: _Optional[int] = ...) -> None: ...

class DeepSpaceView(_message.Message):
    __slots__ = ("viewer", "options")
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    viewer: int
    options: DeepSpaceOptions
    def __init__(self, viewer: _Optional[int] = ..., options: _Optional[_Union[DeepSpaceOptions, _Mapping]] = ...) -> None: ...

class DeepSpaceAction(_message.Message):
    __slots__ = ("reserved_placeholder",)
    RESERVED_PLACEHOLDER_FIELD_NUMBER: _ClassVar[int]
    reserved_placeholder: bool
    def __init__(self, reserved_placeholder: _Optional[bool] = ...) -> None: ...

class DeepSpaceEvent(_message.Message):
    __slots__ = ("reserved_placeholder",)
    RESERVED_PLACEHOLDER_FIELD_NUMBER: _ClassVar[int]
    reserved_placeholder: bool
    def __init__(self, reserved_placeholder: _Optional[bool] = ...) -> None: ...
