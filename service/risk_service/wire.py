"""Engine values <-> risk.v1 protobuf messages, for every variant, by field name.

The engine speaks frozen dataclasses (standard library only); the wire and Redis speak protobuf.
Rather than one hand-written converter per message, each dataclass maps onto the message with
the same field names, and the per-variant envelopes (`Action`, `Event`, `GameState`, ...) pick
the oneof case from the variant's registry name and the class name in snake case. A test checks
that every engine class and its message agree field for field, so the two cannot drift.

Malformed input (an unknown enum value, a missing oneof, a variant this build does not serve)
raises `WireError`, which the service reports as INVALID_ARGUMENT.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
import typing
from collections.abc import Callable
from typing import Any, NamedTuple

from google.protobuf.message import DecodeError, Message

from risk_service.engine import REGISTRY, Action, Decision, Event, LegalAction, Outcome
from risk_service.lifecycle import LIFECYCLE_EVENT_TYPES, LifecycleEvent
from risk_service.pb.risk.v1 import common_pb2, game_pb2

SCHEMA_VERSION = 1

# engine variant name -> (oneof case in every envelope, Variant enum value)
VARIANTS: dict[str, tuple[str, common_pb2.Variant]] = {
    "classic": ("classic", common_pb2.VARIANT_CLASSIC),
    "deep_space": ("deep_space", common_pb2.VARIANT_DEEP_SPACE),
    "strike": ("strike", common_pb2.VARIANT_STRIKE),
    "legacy": ("legacy", common_pb2.VARIANT_LEGACY),
}
_BY_CASE = {case: name for name, (case, _) in VARIANTS.items()}
_BY_ENUM: dict[int, str] = {int(value): name for name, (_, value) in VARIANTS.items()}


class WireError(ValueError):
    """A message that cannot be turned into an engine value."""


class VariantNotServed(WireError):
    """A variant the contract names but this build's engine does not serve yet."""


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


# ---- envelopes -----------------------------------------------------------------------------


def variant_enum(variant: str) -> common_pb2.Variant:
    return VARIANTS[variant][1]


def variant_name(value: int) -> str:
    try:
        return _BY_ENUM[value]
    except KeyError:
        raise WireError(f"unknown variant {value}") from None


def _served(case: str | None, what: str) -> str:
    if case is None:
        raise WireError(f"{what}: no variant set")
    variant = _BY_CASE[case]
    if variant not in REGISTRY:
        raise VariantNotServed(f"variant {variant!r} is not served by this build yet")
    return variant


LIFECYCLE = "lifecycle"  # the Event envelope's case for the service's own events


@functools.cache
def _kinds(variant: str, which: str) -> dict[str, type[Any]]:
    if variant == LIFECYCLE:
        types: tuple[type[Any], ...] = LIFECYCLE_EVENT_TYPES
    else:
        rules = REGISTRY[variant]
        types = rules.action_types if which == "action" else rules.event_types
    return {snake(cls.__name__): cls for cls in types}


def _case(variant: str) -> str:
    return LIFECYCLE if variant == LIFECYCLE else VARIANTS[variant][0]


def _case_to(envelope: Message, variant: str, value: Any) -> None:
    sub = getattr(envelope, _case(variant))
    to_message(value, getattr(sub, snake(type(value).__name__)))


def _case_from(envelope: Message, variant: str, which: str) -> Any:
    sub = getattr(envelope, _case(variant))
    kind = sub.WhichOneof("kind")
    if kind is None:
        raise WireError(f"{which}: no {variant} {which} kind set")
    cls = _kinds(variant, which).get(kind)
    if cls is None:
        raise VariantNotServed(f"{variant} {which} {kind!r} is not served by this build yet")
    return from_message(getattr(sub, kind), cls)


def options_from_proto(message: game_pb2.GameOptions) -> tuple[str, Any]:
    variant = _served(message.WhichOneof("variant"), "options")
    rules = REGISTRY[variant]
    return variant, from_message(getattr(message, VARIANTS[variant][0]), rules.options_type)


def options_to_proto(variant: str, options: Any) -> game_pb2.GameOptions:
    envelope = game_pb2.GameOptions()
    to_message(options, getattr(envelope, VARIANTS[variant][0]))
    return envelope


def action_to_proto(variant: str, action: Action) -> game_pb2.Action:
    envelope = game_pb2.Action()
    _case_to(envelope, variant, action)
    return envelope


def action_from_proto(message: game_pb2.Action) -> tuple[str, Action]:
    variant = _served(message.WhichOneof("variant"), "action")
    action: Action = _case_from(message, variant, "action")
    return variant, action


def event_to_proto(
    variant: str, event: Event, seq: int, version: int, at_ms: int = 0
) -> game_pb2.Event:
    """The envelope of a variant's event, or of a lifecycle event whatever the variant."""
    envelope = game_pb2.Event(seq=seq, version=version, at_ms=at_ms)
    _case_to(envelope, LIFECYCLE if isinstance(event, LifecycleEvent) else variant, event)
    return envelope


def event_from_proto(message: game_pb2.Event) -> tuple[str, Event]:
    """(variant, event); the variant is "lifecycle" for the service's own events."""
    case = message.WhichOneof("variant")
    variant = LIFECYCLE if case == LIFECYCLE else _served(case, "event")
    event: Event = _case_from(message, variant, "event")
    return variant, event


def legal_to_proto(variant: str, legal: LegalAction) -> game_pb2.LegalAction:
    return game_pb2.LegalAction(
        action=action_to_proto(variant, legal.action), max_count=legal.max_count
    )


def view_to_proto(variant: str, view: Any) -> game_pb2.BoardView:
    envelope = game_pb2.BoardView()
    to_message(view, getattr(envelope, VARIANTS[variant][0]))
    return envelope


def decision_to_proto(decision: Decision) -> common_pb2.Decision:
    return common_pb2.Decision(seats=decision.seats, kind=decision.kind)


def outcome_to_proto(outcome: Outcome | None) -> common_pb2.Outcome | None:
    if outcome is None:
        return None
    return common_pb2.Outcome(
        winner=outcome.winner, ranking=outcome.ranking, reason=outcome.reason
    )


# ---- stored snapshots ----------------------------------------------------------------------


def encode_state(variant: str, state: Any) -> bytes:
    """The snapshot bytes: deterministic, so equal states give equal bytes."""
    stored = game_pb2.StoredGame(
        schema_version=SCHEMA_VERSION,
        variant=variant_enum(variant),
        rules_version=REGISTRY[variant].rules_version,
    )
    to_message(state, getattr(stored.state, VARIANTS[variant][0]))
    return stored.SerializeToString(deterministic=True)


_UPGRADES: dict[int, Callable[[game_pb2.StoredGame], game_pb2.StoredGame]] = {}
"""schema_version -> function lifting a snapshot of that version to the next one."""


def decode_state(data: bytes) -> tuple[str, int, Any]:
    """(variant, rules version, state) from snapshot bytes of this or any earlier schema."""
    stored = game_pb2.StoredGame()
    try:
        stored.ParseFromString(data)
    except DecodeError as exc:
        raise WireError(f"corrupt snapshot: {exc}") from None
    while stored.schema_version < SCHEMA_VERSION:
        upgrade = _UPGRADES.get(stored.schema_version)
        if upgrade is None:  # schema 0 is what empty or foreign bytes parse as
            raise WireError(f"snapshot schema {stored.schema_version} is unknown")
        stored = upgrade(stored)
    if stored.schema_version > SCHEMA_VERSION:
        raise WireError(f"snapshot schema {stored.schema_version} is newer than this build")
    variant = variant_name(stored.variant)
    if variant not in REGISTRY:
        raise VariantNotServed(f"variant {variant!r} is not served by this build yet")
    case = VARIANTS[variant][0]
    if stored.state.WhichOneof("variant") != case:
        raise WireError(f"snapshot of variant {variant!r} holds no {variant} state")
    state = from_message(getattr(stored.state, case), REGISTRY[variant].state_type)
    return variant, stored.rules_version, state


def encode_event(variant: str, event: Event, seq: int, version: int, at_ms: int = 0) -> bytes:
    message = event_to_proto(variant, event, seq, version, at_ms)
    return message.SerializeToString(deterministic=True)


class DecodedEvent(NamedTuple):
    variant: str  # "lifecycle" for the service's own events
    seq: int
    version: int
    event: Event
    at_ms: int


def decode_event(data: bytes) -> DecodedEvent:
    """A stored event's envelope fields and its engine (or lifecycle) value."""
    message = game_pb2.Event()
    try:
        message.ParseFromString(data)
    except DecodeError as exc:
        raise WireError(f"corrupt event: {exc}") from None
    variant, event = event_from_proto(message)
    return DecodedEvent(variant, message.seq, message.version, event, message.at_ms)
