"""Engine dataclasses <-> protobuf messages by field name: the codec under every envelope.

Each frozen dataclass maps onto the message with the same field names; an encoder and a decoder
are compiled from its fields on first use. Variant descriptors (`risk_rules.variants`) and the
envelopes (`risk_rules.wire`) both build on this, so it knows no variant and no envelope.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
import typing
from collections.abc import Callable
from typing import Any

from google.protobuf.message import Message


class WireError(ValueError):
    """A message that cannot be turned into an engine value."""




@functools.cache
def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


# ---- generic dataclass <-> message ---------------------------------------------------------

_Plan = list[tuple[str, str, Any, Any]]  # (field, kind, element type, default or MISSING)


_PLANS: dict[type[Any], _Plan] = {}


def _plan(cls: type[Any]) -> _Plan:
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _make_plan(cls)
    return plan


def _make_plan(cls: type[Any]) -> _Plan:
    hints = typing.get_type_hints(cls)
    plan: _Plan = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        default = f.default
        if typing.get_origin(hint) is tuple:
            (item, *_rest) = typing.get_args(hint)
            if typing.get_origin(item) is tuple:
                plan.append((f.name, "lists", None, default))
            elif dataclasses.is_dataclass(item):
                plan.append((f.name, "messages", item, default))
            else:
                plan.append((f.name, "scalars", item, default))
        elif dataclasses.is_dataclass(hint):
            plan.append((f.name, "message", hint, default))
        elif isinstance(hint, type) and issubclass(hint, enum.IntEnum):
            plan.append((f.name, "enum", hint, default))
        elif type(None) in typing.get_args(hint):  # `X | None`: None leaves the field unset
            plan.append((f.name, "optional", hint, default))
        else:
            plan.append((f.name, "scalar", hint, default))
    return plan


# Each dataclass gets an encoder and a decoder compiled from its plan on first use: straight-line
# attribute copies instead of a loop that re-dispatches on every field's kind (snapshots are
# encoded on every commit and decoded on every read, so this is the store's hottest Python).
_ENCODERS: dict[type[Any], Callable[[Any, Message], Message]] = {}
_DECODERS: dict[tuple[type[Any], Any], Callable[[Message], Any]] = {}


def to_message(value: Any, message: Message) -> Message:
    """Fill `message` from the dataclass `value` (fields matched by name)."""
    encode = _ENCODERS.get(type(value))
    if encode is None:
        encode = _ENCODERS[type(value)] = _compile_encoder(type(value))
    return encode(value, message)


def from_message(message: Message, cls: type[Any]) -> Any:
    """Build the dataclass `cls` from `message`; unset optional fields take their defaults."""
    key = (cls, message.DESCRIPTOR)
    decode = _DECODERS.get(key)
    if decode is None:
        decode = _DECODERS[key] = _compile_decoder(cls, message.DESCRIPTOR)
    return decode(message)


def _enum_value(enum_type: type[enum.IntEnum], value: int, where: str) -> enum.IntEnum:
    try:
        return enum_type(value)
    except ValueError:
        raise WireError(f"{where}: unknown value {value}") from None


def _compile(name: str, lines: list[str], env: dict[str, Any]) -> Callable[..., Any]:
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), env, namespace)  # the code is built from dataclass field names
    function: Callable[..., Any] = namespace[name]
    return function


def _compile_encoder(cls: type[Any]) -> Callable[[Any, Message], Message]:
    lines = ["def encode(value, message):", "    message.SetInParent()"]
    for name, kind, _item, _default in _plan(cls):
        if kind == "scalar":
            lines.append(f"    message.{name} = value.{name}")
        elif kind == "optional":
            lines += [f"    if value.{name} is not None:",
                      f"        message.{name} = value.{name}"]
        elif kind == "enum":
            lines.append(f"    message.{name} = int(value.{name})")
        elif kind == "scalars":
            lines.append(f"    message.{name}.extend(value.{name})")
        elif kind == "lists":
            lines += [f"    add = message.{name}.add",
                      f"    for values in value.{name}:",
                      "        add().values.extend(values)"]
        elif kind == "messages":
            lines += [f"    add = message.{name}.add",
                      f"    for item in value.{name}:",
                      "        to_message(item, add())"]
        else:
            lines.append(f"    to_message(value.{name}, message.{name})")
    lines.append("    return message")
    return _compile("encode", lines, {"to_message": to_message})


def _compile_decoder(cls: type[Any], descriptor: Any) -> Callable[[Message], Any]:
    env: dict[str, Any] = {"cls": cls, "from_message": from_message, "WireError": WireError,
                           "_enum_value": _enum_value}
    lines = ["def decode(message):"]
    names = []
    for i, (name, kind, item, default) in enumerate(_plan(cls)):
        names.append(name)
        env[f"item{i}"] = item
        value = {
            "scalar": f"message.{name}",
            "optional": f"message.{name}",
            "enum": f"_enum_value(item{i}, message.{name}, {f'{descriptor.name}.{name}'!r})",
            "scalars": f"tuple(message.{name})",
            "lists": f"tuple([tuple(x.values) for x in message.{name}])",
            "messages": f"tuple([from_message(x, item{i}) for x in message.{name}])",
            "message": f"from_message(message.{name}, item{i})",
        }[kind]
        if descriptor.fields_by_name[name].has_presence and kind != "message":
            if default is dataclasses.MISSING:
                missing = f"raise WireError({f'{descriptor.name}.{name} is required'!r})"
            else:
                env[f"default{i}"] = default
                missing = f"v_{name} = default{i}"
            lines += [f"    if message.HasField({name!r}):",
                      f"        v_{name} = {value}",
                      "    else:",
                      f"        {missing}"]
        else:
            lines.append(f"    v_{name} = {value}")
    # (locals are prefixed: a field may be called "message" or "cls")
    lines.append("    return cls(" + ", ".join(f"{n}=v_{n}" for n in names) + ")")
    return _compile("decode", lines, env)
