"""Hypothesis strategies for hostile input: any message of the risk.v1 schema, and raw bytes.

`message_of(descriptor)` builds a random message of any type straight from its protobuf
descriptor: every field may be set or not, each oneof picks one case (or none) at random,
integers favour the edges of their range and the values this schema gives meaning to (ids,
counts, -1), enums take unknown numbers too, strings include control characters and text that
is not a game id, and a repeated field is now and then huge (thousands of entries, drawn as one
value repeated so that Hypothesis's buffer stays small). `raw_bytes()` is what a broken or
malicious client may put on the wire instead of a message: random bytes, a truncated or
bit-flipped real message, or invalid UTF-8 in a string field.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass
from hypothesis import strategies as st

MAX_DEPTH = 4
INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)
UINT32 = (0, 2**32 - 1)
UINT64 = (0, 2**64 - 1)
_RANGES = {
    FieldDescriptor.TYPE_INT32: INT32, FieldDescriptor.TYPE_SINT32: INT32,
    FieldDescriptor.TYPE_SFIXED32: INT32, FieldDescriptor.TYPE_INT64: INT64,
    FieldDescriptor.TYPE_SINT64: INT64, FieldDescriptor.TYPE_SFIXED64: INT64,
    FieldDescriptor.TYPE_UINT32: UINT32, FieldDescriptor.TYPE_FIXED32: UINT32,
    FieldDescriptor.TYPE_UINT64: UINT64, FieldDescriptor.TYPE_FIXED64: UINT64,
}
# values with a meaning somewhere in the schema: seats, dice, territory and card ids (42, 43
# are the wild cards), "none" (-1), and the versions / seqs of a fresh game
MEANINGFUL = (-1, 0, 1, 2, 3, 4, 5, 6, 7, 12, 41, 42, 43, 44, 100, 255, 256, 65535)
TEXTS = ("", " ", "0", "-1", "{x}", "*", "\x00", "é", "a" * 129, "0" * 22, "f" * 64, "f" * 65,
         "risk:g:{x}", "../../etc/passwd", "%s%n", "' OR 1=1 --", "\U0001f600")


def integers_for(field_type: int) -> st.SearchStrategy[int]:
    low, high = _RANGES[field_type]
    edges = [v for v in (low, low + 1, high - 1, high, 2**31, 2**32, 2**53, 2**63)
             if low <= v <= high]
    return st.one_of(
        st.sampled_from([v for v in MEANINGFUL if low <= v <= high]),
        st.sampled_from(edges),
        st.integers(min_value=max(low, -1000), max_value=min(high, 1000)),
        st.integers(min_value=low, max_value=high),
    )


def texts(max_size: int = 40) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(TEXTS),
        st.text(st.characters(exclude_categories=("Cs",)), max_size=max_size),
        st.text("0123456789abcdef", min_size=10, max_size=70),
    )


def _scalar(field: FieldDescriptor) -> st.SearchStrategy[Any]:
    t = field.type
    if t in _RANGES:
        return integers_for(t)
    if t == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if t == FieldDescriptor.TYPE_STRING:
        return texts()
    if t == FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=40)
    if t == FieldDescriptor.TYPE_ENUM:
        known = [v.number for v in field.enum_type.values]
        return st.one_of(st.sampled_from(known), integers_for(FieldDescriptor.TYPE_INT32))
    if t in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return st.floats(width=32 if t == FieldDescriptor.TYPE_FLOAT else 64)
    raise AssertionError(f"unhandled field type {t} of {field.full_name}")


@st.composite
def _repeated(draw: st.DrawFn, field: FieldDescriptor, depth: int) -> list[Any]:
    element = (message_of(field.message_type, depth + 1)
               if field.type == FieldDescriptor.TYPE_MESSAGE else _scalar(field))
    if draw(st.integers(0, 19)) == 0:  # now and then: huge, one value many times
        return [draw(element)] * draw(st.sampled_from((100, 1000, 5000, 20000)))
    return draw(st.lists(element, max_size=4))


@st.composite
def message_of(draw: st.DrawFn, descriptor: Descriptor, depth: int = 0) -> Message:
    """A random message of the type `descriptor` describes (see the module docstring)."""
    message = GetMessageClass(descriptor)()
    chosen = {}
    for oneof in descriptor.oneofs:  # proto3 `optional` fields are one-field oneofs too
        options = [None, *oneof.fields]
        chosen[oneof.name] = draw(st.sampled_from(options))
    for field in descriptor.fields:
        oneof = field.containing_oneof
        if oneof is not None:
            if chosen[oneof.name] is not field:
                continue
        elif not draw(st.booleans()):
            continue
        if field.is_repeated:
            getattr(message, field.name).extend(draw(_repeated(field, depth)))
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            if depth >= MAX_DEPTH:
                getattr(message, field.name).SetInParent()
            else:
                getattr(message, field.name).CopyFrom(
                    draw(message_of(field.message_type, depth + 1)))
        else:
            setattr(message, field.name, draw(_scalar(field)))
    return message


@st.composite
def raw_bytes(draw: st.DrawFn, genuine: bytes) -> bytes:
    """Bytes in place of a serialised request: random, truncated or corrupted `genuine`."""
    how = draw(st.sampled_from(("random", "truncated", "flipped", "bad_utf8", "appended")))
    if how == "random" or not genuine:
        return draw(st.binary(min_size=1, max_size=200))
    if how == "truncated":
        return genuine[:draw(st.integers(0, max(0, len(genuine) - 1)))]
    if how == "flipped":
        data = bytearray(genuine)
        for _ in range(draw(st.integers(1, 4))):
            data[draw(st.integers(0, len(data) - 1))] ^= 1 << draw(st.integers(0, 7))
        return bytes(data)
    if how == "bad_utf8":  # field 1 (game_id in most requests) as a string that is not UTF-8
        return b"\x0a\x04\xff\xfe\xc0\x80" + genuine
    return genuine + draw(st.binary(min_size=1, max_size=20))
