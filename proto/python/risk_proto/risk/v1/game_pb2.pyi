from google.protobuf import any_pb2 as _any_pb2
from risk_proto.risk.v1 import classic_pb2 as _classic_pb2
from risk_proto.risk.v1 import common_pb2 as _common_pb2
from risk_proto.risk.v1 import deep_space_pb2 as _deep_space_pb2
from risk_proto.risk.v1 import legacy_pb2 as _legacy_pb2
from risk_proto.risk.v1 import lifecycle_pb2 as _lifecycle_pb2
from risk_proto.risk.v1 import strike_pb2 as _strike_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GameOptions(_message.Message):
    __slots__ = ("classic", "deep_space", "strike", "legacy", "extension")
    CLASSIC_FIELD_NUMBER: _ClassVar[int]
    DEEP_SPACE_FIELD_NUMBER: _ClassVar[int]
    STRIKE_FIELD_NUMBER: _ClassVar[int]
    LEGACY_FIELD_NUMBER: _ClassVar[int]
    EXTENSION_FIELD_NUMBER: _ClassVar[int]
    classic: _classic_pb2.ClassicOptions
    deep_space: _deep_space_pb2.DeepSpaceOptions
    strike: _strike_pb2.StrikeOptions
    legacy: _legacy_pb2.LegacyOptions
    extension: _any_pb2.Any
    def __init__(self, classic: _Optional[_Union[_classic_pb2.ClassicOptions, _Mapping]] = ..., deep_space: _Optional[_Union[_deep_space_pb2.DeepSpaceOptions, _Mapping]] = ..., strike: _Optional[_Union[_strike_pb2.StrikeOptions, _Mapping]] = ..., legacy: _Optional[_Union[_legacy_pb2.LegacyOptions, _Mapping]] = ..., extension: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("classic", "deep_space", "strike", "legacy", "extension")
    CLASSIC_FIELD_NUMBER: _ClassVar[int]
    DEEP_SPACE_FIELD_NUMBER: _ClassVar[int]
    STRIKE_FIELD_NUMBER: _ClassVar[int]
    LEGACY_FIELD_NUMBER: _ClassVar[int]
    EXTENSION_FIELD_NUMBER: _ClassVar[int]
    classic: _classic_pb2.ClassicAction
    deep_space: _deep_space_pb2.DeepSpaceAction
    strike: _strike_pb2.StrikeAction
    legacy: _legacy_pb2.LegacyAction
    extension: _any_pb2.Any
    def __init__(self, classic: _Optional[_Union[_classic_pb2.ClassicAction, _Mapping]] = ..., deep_space: _Optional[_Union[_deep_space_pb2.DeepSpaceAction, _Mapping]] = ..., strike: _Optional[_Union[_strike_pb2.StrikeAction, _Mapping]] = ..., legacy: _Optional[_Union[_legacy_pb2.LegacyAction, _Mapping]] = ..., extension: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("seq", "version", "at_ms", "classic", "deep_space", "strike", "legacy", "extension", "lifecycle")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    CLASSIC_FIELD_NUMBER: _ClassVar[int]
    DEEP_SPACE_FIELD_NUMBER: _ClassVar[int]
    STRIKE_FIELD_NUMBER: _ClassVar[int]
    LEGACY_FIELD_NUMBER: _ClassVar[int]
    EXTENSION_FIELD_NUMBER: _ClassVar[int]
    LIFECYCLE_FIELD_NUMBER: _ClassVar[int]
    seq: int
    version: int
    at_ms: int
    classic: _classic_pb2.ClassicEvent
    deep_space: _deep_space_pb2.DeepSpaceEvent
    strike: _strike_pb2.StrikeEvent
    legacy: _legacy_pb2.LegacyEvent
    extension: _any_pb2.Any
    lifecycle: _lifecycle_pb2.LifecycleEvent
    def __init__(self, seq: _Optional[int] = ..., version: _Optional[int] = ..., at_ms: _Optional[int] = ..., classic: _Optional[_Union[_classic_pb2.ClassicEvent, _Mapping]] = ..., deep_space: _Optional[_Union[_deep_space_pb2.DeepSpaceEvent, _Mapping]] = ..., strike: _Optional[_Union[_strike_pb2.StrikeEvent, _Mapping]] = ..., legacy: _Optional[_Union[_legacy_pb2.LegacyEvent, _Mapping]] = ..., extension: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., lifecycle: _Optional[_Union[_lifecycle_pb2.LifecycleEvent, _Mapping]] = ...) -> None: ...

class LogEntry(_message.Message):
    __slots__ = ("version", "at_ms", "seat", "action", "resign", "lifecycle", "timed_out", "by_bot")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    RESIGN_FIELD_NUMBER: _ClassVar[int]
    LIFECYCLE_FIELD_NUMBER: _ClassVar[int]
    TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    BY_BOT_FIELD_NUMBER: _ClassVar[int]
    version: int
    at_ms: int
    seat: int
    action: Action
    resign: bool
    lifecycle: str
    timed_out: bool
    by_bot: bool
    def __init__(self, version: _Optional[int] = ..., at_ms: _Optional[int] = ..., seat: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., resign: _Optional[bool] = ..., lifecycle: _Optional[str] = ..., timed_out: _Optional[bool] = ..., by_bot: _Optional[bool] = ...) -> None: ...

class LegalAction(_message.Message):
    __slots__ = ("action", "max_count")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    MAX_COUNT_FIELD_NUMBER: _ClassVar[int]
    action: Action
    max_count: int
    def __init__(self, action: _Optional[_Union[Action, _Mapping]] = ..., max_count: _Optional[int] = ...) -> None: ...

class GameState(_message.Message):
    __slots__ = ("classic", "deep_space", "strike", "legacy", "extension")
    CLASSIC_FIELD_NUMBER: _ClassVar[int]
    DEEP_SPACE_FIELD_NUMBER: _ClassVar[int]
    STRIKE_FIELD_NUMBER: _ClassVar[int]
    LEGACY_FIELD_NUMBER: _ClassVar[int]
    EXTENSION_FIELD_NUMBER: _ClassVar[int]
    classic: _classic_pb2.ClassicState
    deep_space: _deep_space_pb2.DeepSpaceState
    strike: _strike_pb2.StrikeState
    legacy: _legacy_pb2.LegacyState
    extension: _any_pb2.Any
    def __init__(self, classic: _Optional[_Union[_classic_pb2.ClassicState, _Mapping]] = ..., deep_space: _Optional[_Union[_deep_space_pb2.DeepSpaceState, _Mapping]] = ..., strike: _Optional[_Union[_strike_pb2.StrikeState, _Mapping]] = ..., legacy: _Optional[_Union[_legacy_pb2.LegacyState, _Mapping]] = ..., extension: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class BoardView(_message.Message):
    __slots__ = ("classic", "deep_space", "strike", "legacy", "extension")
    CLASSIC_FIELD_NUMBER: _ClassVar[int]
    DEEP_SPACE_FIELD_NUMBER: _ClassVar[int]
    STRIKE_FIELD_NUMBER: _ClassVar[int]
    LEGACY_FIELD_NUMBER: _ClassVar[int]
    EXTENSION_FIELD_NUMBER: _ClassVar[int]
    classic: _classic_pb2.ClassicView
    deep_space: _deep_space_pb2.DeepSpaceView
    strike: _strike_pb2.StrikeView
    legacy: _legacy_pb2.LegacyView
    extension: _any_pb2.Any
    def __init__(self, classic: _Optional[_Union[_classic_pb2.ClassicView, _Mapping]] = ..., deep_space: _Optional[_Union[_deep_space_pb2.DeepSpaceView, _Mapping]] = ..., strike: _Optional[_Union[_strike_pb2.StrikeView, _Mapping]] = ..., legacy: _Optional[_Union[_legacy_pb2.LegacyView, _Mapping]] = ..., extension: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class StoredGame(_message.Message):
    __slots__ = ("schema_version", "variant", "rules_version", "state")
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    schema_version: int
    variant: _common_pb2.Variant
    rules_version: int
    state: GameState
    def __init__(self, schema_version: _Optional[int] = ..., variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., rules_version: _Optional[int] = ..., state: _Optional[_Union[GameState, _Mapping]] = ...) -> None: ...
