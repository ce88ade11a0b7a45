"""Engine values <-> risk.v1 protobuf envelopes, for every variant this process serves.

The engine speaks frozen dataclasses (standard library only); the wire and Redis speak protobuf.
Each dataclass maps onto the message with the same field names (`risk_rules.codec`), and the
envelopes (`Action`, `Event`, `GameState`, ...) pick the case from the variant's descriptor
(`risk_rules.variants`): the contract's own oneof case for its four variants, or the
`extension` case holding the variant's message in a `google.protobuf.Any` for a variant served
from outside the contract. Action and event kinds are the class names in snake case. A test
checks that every engine class and its message agree field for field, so the two cannot drift.

Malformed input (an unknown enum value, a missing oneof, a variant this build does not serve)
raises `WireError`, which the service reports as INVALID_ARGUMENT.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable
from typing import Any, NamedTuple

from google.protobuf.message import DecodeError, Message

from risk_proto.risk.v1 import common_pb2, game_pb2
from risk_rules import variants
from risk_rules.codec import WireError, from_message, snake, to_message
from risk_rules.engine import REGISTRY, Action, Decision, Event, LegalAction, Outcome
from risk_rules.lifecycle import LIFECYCLE_EVENT_TYPES, LifecycleEvent
from risk_rules.variants import VariantDescriptor

__all__ = ["WireError", "from_message", "snake", "to_message"]  # and the envelopes below

SCHEMA_VERSION = 1

LIFECYCLE = "lifecycle"  # the Event envelope's case for the service's own events
EXTENSION = "extension"  # every envelope's case for a variant outside the contract's oneofs
_TYPE_URL_PREFIX = "type.googleapis.com/"


class VariantNotServed(WireError):
    """A variant the contract names but this build's engine does not serve yet."""


# ---- envelopes -----------------------------------------------------------------------------


def variant_enum(variant: str) -> common_pb2.Variant:
    # (a variant outside the contract's enum has a number the enum does not name)
    return typing.cast(common_pb2.Variant, variants.descriptor(variant).number)


def variant_name(value: int) -> str:
    described = variants.by_number(value)
    if described is None:
        raise WireError(f"unknown variant {value}")
    return described.name


def _served(envelope: Message, what: str) -> VariantDescriptor:
    """The descriptor of the variant whose case `envelope` carries."""
    case = envelope.WhichOneof("variant")
    if case is None:
        raise WireError(f"{what}: no variant set")
    if case == EXTENSION:
        type_url: str = getattr(envelope, EXTENSION).type_url
        described = variants.by_type(type_url.rpartition("/")[2])
        if described is None or described.case is not None:
            raise VariantNotServed(f"{what}: {type_url!r} is no variant this build serves")
        return described
    described = variants.by_case(case)
    if described is None or described.name not in REGISTRY:
        raise VariantNotServed(f"variant {case!r} is not served by this build yet")
    return described


def _put(envelope: Message, described: VariantDescriptor, message: type[Message],
         fill: Callable[[Message], object]) -> None:
    """Fill the variant's case of `envelope` (its message of type `message`) with `fill`."""
    if described.case is not None:
        fill(getattr(envelope, described.case))
        return
    inner = message()
    fill(inner)
    getattr(envelope, EXTENSION).Pack(inner, _TYPE_URL_PREFIX, deterministic=True)


def _take(envelope: Message, described: VariantDescriptor, message: type[Message]) -> Any:
    """The variant's message (of type `message`) in `envelope`."""
    if described.case is not None:
        return getattr(envelope, described.case)
    inner = message()
    if not getattr(envelope, EXTENSION).Unpack(inner):
        raise WireError(f"{described.name}: expected a {inner.DESCRIPTOR.full_name}")
    return inner


@functools.cache
def _kinds(variant: str, which: str) -> dict[str, type[Any]]:
    if variant == LIFECYCLE:
        types: tuple[type[Any], ...] = LIFECYCLE_EVENT_TYPES
    else:
        rules = REGISTRY[variant]
        types = rules.action_types if which == "action" else rules.event_types
    return {snake(cls.__name__): cls for cls in types}


def _kind_to(sub: Message, value: Any) -> None:
    to_message(value, getattr(sub, snake(type(value).__name__)))


def _kind_from(sub: Message, variant: str, which: str) -> Any:
    kind = sub.WhichOneof("kind")
    if kind is None:
        raise WireError(f"{which}: no {variant} {which} kind set")
    cls = _kinds(variant, which).get(kind)
    if cls is None:
        raise VariantNotServed(f"{variant} {which} {kind!r} is not served by this build yet")
    return from_message(getattr(sub, kind), cls)


def options_from_proto(message: game_pb2.GameOptions) -> tuple[str, Any]:
    described = _served(message, "options")
    options = _take(message, described, described.messages.options)
    return described.name, from_message(options, described.rules.options_type)


def options_to_proto(variant: str, options: Any) -> game_pb2.GameOptions:
    return options_envelope(variants.descriptor(variant), options)


def options_envelope(described: VariantDescriptor, options: Any) -> game_pb2.GameOptions:
    """`options_to_proto` for a descriptor in hand, registered or not (DescribeVariant's
    generic part describes one before anything has served it)."""
    envelope = game_pb2.GameOptions()
    _put(envelope, described, described.messages.options, lambda m: to_message(options, m))
    return envelope


def unset_options(variant: str) -> game_pb2.GameOptions:
    """The variant's case with no field set: CreateGame gives every option its default."""
    described = variants.descriptor(variant)
    envelope = game_pb2.GameOptions()
    _put(envelope, described, described.messages.options, lambda m: m.SetInParent())
    return envelope


def action_to_proto(variant: str, action: Action) -> game_pb2.Action:
    described = variants.descriptor(variant)
    envelope = game_pb2.Action()
    _put(envelope, described, described.messages.action, lambda m: _kind_to(m, action))
    return envelope


def action_from_proto(message: game_pb2.Action) -> tuple[str, Action]:
    described = _served(message, "action")
    sub = _take(message, described, described.messages.action)
    action: Action = _kind_from(sub, described.name, "action")
    return described.name, action


def event_to_proto(
    variant: str, event: Event, seq: int, version: int, at_ms: int = 0
) -> game_pb2.Event:
    """The envelope of a variant's event, or of a lifecycle event whatever the variant."""
    envelope = game_pb2.Event(seq=seq, version=version, at_ms=at_ms)
    if isinstance(event, LifecycleEvent):
        _kind_to(envelope.lifecycle, event)
    else:
        described = variants.descriptor(variant)
        _put(envelope, described, described.messages.event, lambda m: _kind_to(m, event))
    return envelope


def event_from_proto(message: game_pb2.Event) -> tuple[str, Event]:
    """(variant, event); the variant is "lifecycle" for the service's own events."""
    if message.WhichOneof("variant") == LIFECYCLE:
        lifecycle: Event = _kind_from(message.lifecycle, LIFECYCLE, "event")
        return LIFECYCLE, lifecycle
    described = _served(message, "event")
    sub = _take(message, described, described.messages.event)
    event: Event = _kind_from(sub, described.name, "event")
    return described.name, event


def legal_to_proto(variant: str, legal: LegalAction) -> game_pb2.LegalAction:
    return game_pb2.LegalAction(
        action=action_to_proto(variant, legal.action), max_count=legal.max_count
    )


def view_to_proto(variant: str, view: Any) -> game_pb2.BoardView:
    described = variants.descriptor(variant)
    envelope = game_pb2.BoardView()
    _put(envelope, described, described.messages.view, lambda m: to_message(view, m))
    return envelope


def view_from_proto(message: game_pb2.BoardView) -> tuple[str, Message]:
    """(variant, the variant's view message) of a board, whichever case carries it."""
    described = _served(message, "board")
    view: Message = _take(message, described, described.messages.view)
    return described.name, view


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
    described = variants.descriptor(variant)
    stored = game_pb2.StoredGame(
        schema_version=SCHEMA_VERSION,
        variant=variant_enum(variant),
        rules_version=described.rules.rules_version,
    )
    _put(stored.state, described, described.messages.state, lambda m: to_message(state, m))
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
    described = variants.by_number(stored.variant)
    if described is None or described.name not in REGISTRY:
        raise VariantNotServed(f"variant {stored.variant} is not served by this build")
    if (stored.state.WhichOneof("variant") is None
            or _served(stored.state, "snapshot") is not described):
        raise WireError(f"snapshot of variant {described.name!r} holds no {described.name} state")
    message = _take(stored.state, described, described.messages.state)
    state = from_message(message, described.rules.state_type)
    return described.name, stored.rules_version, state


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
