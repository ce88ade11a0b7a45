"""A variant's `risk.v1.VariantDescription`, from its descriptor: the generic part every
variant has, and what its `describe` hook adds.

The generic part is read from the rules and the messages themselves, never written twice: the
seat counts are the player numbers `create` accepts, the options are the fields of the
variant's Options message and their defaults are the engine's `default_options`, encoded by
the same codec that encodes a created game's options. So a description cannot drift from the
rules it describes.

The descriptor names its hook ("module:function"), so this module imports the variants and no
variant imports it: `risk_rules.descriptions` depends on `risk_rules.variants`, one way
(tests/wire/test_import_graph.py).
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from risk_proto.risk.v1 import variant_pb2
from risk_rules import codec, wire
from risk_rules.descriptions.notes import Described, OptionNote
from risk_rules.engine import IllegalAction
from risk_rules.variants import VariantDescriptor

# player numbers tried when finding the seat counts a variant accepts
_PLAYERS_PROBED = range(1, 13)
_PROBE_SEED = 1

# Fields are typed `Any` below: protobuf's stubs give a message's fields as a union of the
# Python and upb descriptor classes, which mypy cannot narrow.
_INTS = {FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT32,
         FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SINT64}


def seat_counts(described: VariantDescriptor) -> list[int]:
    """The numbers of players the variant's rules accept (a create that does not refuse)."""
    rules = described.rules
    accepted = []
    for players in _PLAYERS_PROBED:
        try:
            rules.create(rules.default_options(players), _PROBE_SEED)
        except IllegalAction:
            continue
        accepted.append(players)
    return accepted


def default_players(described: VariantDescriptor, counts: list[int]) -> int:
    """The `players` of the variant's Options when nobody sets it (else its fewest)."""
    for option in dataclasses.fields(described.rules.options_type):
        if option.name == "players" and isinstance(option.default, int):
            return option.default
    return counts[0] if counts else 0


def _option_type(field: Any) -> variant_pb2.OptionType:
    if field.is_repeated or field.type == FieldDescriptor.TYPE_MESSAGE:
        return variant_pb2.OPTION_TYPE_MESSAGE
    if field.type == FieldDescriptor.TYPE_BOOL:
        return variant_pb2.OPTION_TYPE_BOOL
    if field.type == FieldDescriptor.TYPE_ENUM:
        return variant_pb2.OPTION_TYPE_ENUM
    if field.type == FieldDescriptor.TYPE_STRING:
        return variant_pb2.OPTION_TYPE_STRING
    if field.type in _INTS:
        return variant_pb2.OPTION_TYPE_INT
    return variant_pb2.OPTION_TYPE_MESSAGE


def _default_value(defaults: Message, field: Any,
                   kind: variant_pb2.OptionType) -> variant_pb2.OptionValue | None:
    """The default the engine's options hold for `field`; None where they leave it unset."""
    if kind == variant_pb2.OPTION_TYPE_MESSAGE:
        return None
    if field.has_presence and not defaults.HasField(field.name):
        return None
    value: Any = getattr(defaults, field.name)
    if kind == variant_pb2.OPTION_TYPE_BOOL:
        return variant_pb2.OptionValue(bool_value=value)
    if kind == variant_pb2.OPTION_TYPE_ENUM:
        return variant_pb2.OptionValue(enum_value=value)
    if kind == variant_pb2.OPTION_TYPE_STRING:
        return variant_pb2.OptionValue(string_value=value)
    return variant_pb2.OptionValue(int_value=value)


def options(described: VariantDescriptor, players: int, counts: list[int],
            notes: dict[str, OptionNote]) -> list[variant_pb2.OptionDescription]:
    """One description per field of the variant's Options message, in field order."""
    defaults = codec.to_message(described.rules.default_options(players),
                                described.messages.options())
    listed = []
    fields: list[Any] = list(defaults.DESCRIPTOR.fields)
    for field in fields:
        kind = _option_type(field)
        note = notes.get(field.name, OptionNote(""))
        option = variant_pb2.OptionDescription(
            name=field.name, type=kind, description=note.description,
            settable=note.settable and kind != variant_pb2.OPTION_TYPE_MESSAGE,
        )
        default = _default_value(defaults, field, kind)
        if default is not None:
            option.default_value.CopyFrom(default)
        low, high = note.min, note.max
        if field.name == "players" and counts:  # the rules' own answer, whatever a note says
            low, high = counts[0], counts[-1]
        if low is not None:
            option.min = low
        if high is not None:
            option.max = high
        if kind == variant_pb2.OPTION_TYPE_ENUM:
            for value in field.enum_type.values:
                if value.number:  # 0 is every contract enum's UNSPECIFIED
                    option.choices.add(name=value.name, number=value.number,
                                       description=note.choices.get(value.name, ""))
        listed.append(option)
    return listed


def hook_told(described: VariantDescriptor) -> Described:
    """What the variant's `describe` hook says of it (its name alone without a hook)."""
    if not described.describe:
        return Described(title=described.name)
    module, _, name = described.describe.partition(":")
    said = getattr(importlib.import_module(module), name)()
    if not isinstance(said, Described):
        raise TypeError(f"{described.describe} (variant {described.name!r}'s describe hook) "
                        f"returned {type(said).__name__}, not a Described")
    return said


def describe(described: VariantDescriptor) -> variant_pb2.VariantDescription:
    """The whole description of one variant."""
    told = hook_told(described)
    counts = seat_counts(described)
    players = default_players(described, counts)
    description = variant_pb2.VariantDescription(
        variant=described.number,  # type: ignore[arg-type]  # open enum: numbers from 1000
        name=described.name,
        title=told.title,
        rules_version=described.rules.rules_version,
        seat_counts=counts,
        default_players=players,
        decks=told.decks,
        options=options(described, players, counts, dict(told.options)),
        default_options=wire.options_envelope(described,
                                              described.rules.default_options(players)),
    )
    if told.map is not None:
        description.map.CopyFrom(told.map)
    return description
