"""The variants this process serves, each described once (`descriptor.VariantDescriptor`).

The engine's registry maps a name to its rules and stays pure; this package, beside the wire,
holds the protobuf-facing rest. The four variants of the contract are always here; a process
serves more by naming their descriptor modules (`RISK_EXTRA_VARIANTS`, a comma-separated list
of module paths, each with a module-level `DESCRIPTOR`), loaded by `load` before it serves.

The four are listed by name, number, envelope case and module, and each descriptor module (and
with it the variant's engine) is imported the first time its descriptor is asked for: a `risk`
command playing classic does not import the other three engines. Asking by message type
(`by_type`) or walking `DESCRIPTORS.values()` loads them all.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from risk_proto.risk.v1 import common_pb2
from risk_rules.engine import registry
from risk_rules.engine.core.first_use import FirstUseTable
from risk_rules.variants.descriptor import (
    FIRST_EXTENSION_NUMBER,
    CampaignHooks,
    Defaults,
    Golden,
    LeakProbe,
    Messages,
    VariantDescriptor,
)

__all__ = [
    "DESCRIPTORS",
    "FIRST_EXTENSION_NUMBER",
    "CampaignHooks",
    "Defaults",
    "Golden",
    "LeakProbe",
    "Messages",
    "VariantDescriptor",
    "by_case",
    "by_number",
    "by_type",
    "descriptor",
    "load",
    "numbers",
    "register",
    "register_later",
]


def _as_listed(name: str, described: VariantDescriptor) -> None:
    """A built-in descriptor, on first lookup: as listed by `register_later`, then served."""
    by_case = name if described.case is None else _BY_CASE.get(described.case)
    if described.name != name or (_BY_NUMBER.get(described.number), by_case) != (name, name):
        raise ValueError(f"{described.name!r} ({described.number}, {described.case}) is not "
                         f"as listed for {name!r}")
    _register_rules(described)


DESCRIPTORS: FirstUseTable[VariantDescriptor] = FirstUseTable(_as_listed)
_BY_CASE: dict[str, str] = {}  # envelope case -> name
_BY_NUMBER: dict[int, str] = {}  # Variant number -> name
_BY_TYPE: dict[str, VariantDescriptor] = {}  # full name of any of its messages -> descriptor


def _imported(module: str) -> VariantDescriptor:
    described = getattr(importlib.import_module(module.strip()), "DESCRIPTOR", None)
    if not isinstance(described, VariantDescriptor):
        raise ValueError(f"{module}: no VariantDescriptor named DESCRIPTOR")
    return described


def _register_rules(described: VariantDescriptor) -> None:
    registry.register(described.rules)
    for message in vars(described.messages).values():
        _BY_TYPE[message.DESCRIPTOR.full_name] = described


def _check_free(name: str, number: int, case: str | None) -> None:
    if name in DESCRIPTORS:
        raise ValueError(f"variant {name!r} is described already")
    if number in _BY_NUMBER:
        raise ValueError(f"variant {name!r}: number {number} is taken by "
                         f"{_BY_NUMBER[number]!r}")
    if case is None and number < FIRST_EXTENSION_NUMBER:
        raise ValueError(f"variant {name!r}: a variant outside the contract's oneofs "
                         f"takes a number from {FIRST_EXTENSION_NUMBER}")


def _list(name: str, number: int, case: str | None) -> None:
    _BY_NUMBER[number] = name
    if case is not None:
        _BY_CASE[case] = name


def register(described: VariantDescriptor) -> None:
    """Serve the variant `described`; registering the same descriptor again changes nothing."""
    if described.name in DESCRIPTORS and DESCRIPTORS[described.name] is described:
        return
    _check_free(described.name, described.number, described.case)
    _list(described.name, described.number, described.case)
    DESCRIPTORS[described.name] = described
    _register_rules(described)


def register_later(name: str, number: int, case: str | None, module: str) -> None:
    """Serve the variant `name` whose `DESCRIPTOR` is in `module`, imported on first use."""
    _check_free(name, number, case)
    _list(name, number, case)
    DESCRIPTORS.later(name, lambda: _imported(module))


def load(modules: Iterable[str]) -> None:
    """Import each descriptor module and register its `DESCRIPTOR`."""
    for name in modules:
        register(_imported(name))


def descriptor(name: str) -> VariantDescriptor:
    found = DESCRIPTORS.made.get(name)  # (a move looks its variant up six times)
    if found is not None:
        return found
    try:
        return DESCRIPTORS[name]
    except KeyError:
        raise KeyError(f"unknown variant {name!r}; known: {sorted(DESCRIPTORS)}") from None


def by_case(case: str) -> VariantDescriptor | None:
    name = _BY_CASE.get(case)
    return None if name is None else descriptor(name)


def by_number(number: int) -> VariantDescriptor | None:
    name = _BY_NUMBER.get(number)
    return None if name is None else descriptor(name)


def by_type(full_name: str) -> VariantDescriptor | None:
    if full_name not in _BY_TYPE:
        for name in DESCRIPTORS:  # a message's type names its variant only once loaded
            DESCRIPTORS[name]
    return _BY_TYPE.get(full_name)


def numbers() -> dict[str, int]:
    """Every served variant's `Variant` number by name, without loading any."""
    return {name: number for number, name in _BY_NUMBER.items()}


for _name, _number in (("classic", common_pb2.VARIANT_CLASSIC),
                       ("deep_space", common_pb2.VARIANT_DEEP_SPACE),
                       ("strike", common_pb2.VARIANT_STRIKE),
                       ("legacy", common_pb2.VARIANT_LEGACY)):
    register_later(_name, _number, _name, f"risk_rules.variants.{_name}")
