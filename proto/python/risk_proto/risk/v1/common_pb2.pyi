from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class Variant(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VARIANT_UNSPECIFIED: _ClassVar[Variant]
    VARIANT_CLASSIC: _ClassVar[Variant]
    VARIANT_DEEP_SPACE: _ClassVar[Variant]
    VARIANT_STRIKE: _ClassVar[Variant]
    VARIANT_LEGACY: _ClassVar[Variant]
VARIANT_UNSPECIFIED: Variant
VARIANT_CLASSIC: Variant
VARIANT_DEEP_SPACE: Variant
VARIANT_STRIKE: Variant
VARIANT_LEGACY: Variant

class IntList(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, values: _Optional[_Iterable[int]] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("seats", "kind")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    kind: str
    def __init__(self, seats: _Optional[_Iterable[int]] = ..., kind: _Optional[str] = ...) -> None: ...

class Outcome(_message.Message):
    __slots__ = ("winner", "ranking", "reason")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    winner: int
    ranking: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    def __init__(self, winner: _Optional[int] = ..., ranking: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ...) -> None: ...

class ResponseWindow(_message.Message):
    __slots__ = ("kind", "order", "passed", "stack")
    KIND_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    kind: int
    order: _containers.RepeatedScalarFieldContainer[int]
    passed: _containers.RepeatedScalarFieldContainer[int]
    stack: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, kind: _Optional[int] = ..., order: _Optional[_Iterable[int]] = ..., passed: _Optional[_Iterable[int]] = ..., stack: _Optional[_Iterable[int]] = ...) -> None: ...
