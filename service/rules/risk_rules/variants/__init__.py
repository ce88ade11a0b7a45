"""The variants this process serves, each described once (`descriptor.VariantDescriptor`).

The engine's registry maps a name to its rules and stays pure; this package, beside the wire,
holds the protobuf-facing rest. The four variants of the contract are always here; a process
serves more by naming their descriptor modules (`RISK_EXTRA_VARIANTS`, a comma-separated list
of module paths, each with a module-level `DESCRIPTOR`), loaded by `load` before it serves.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from risk_rules.engine import registry
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
    "register",
]

DESCRIPTORS: dict[str, VariantDescriptor] = {}
_BY_CASE: dict[str, VariantDescriptor] = {}
_BY_NUMBER: dict[int, VariantDescriptor] = {}
_BY_TYPE: dict[str, VariantDescriptor] = {}  # full name of any of its messages -> descriptor


def register(described: VariantDescriptor) -> None:
    """Serve the variant `described`; registering the same descriptor again changes nothing."""
    known = DESCRIPTORS.get(described.name)
    if known is described:
        return
    if known is not None:
        raise ValueError(f"variant {described.name!r} is described already")
    if described.number in _BY_NUMBER:
        raise ValueError(f"variant {described.name!r}: number {described.number} is taken by "
                         f"{_BY_NUMBER[described.number].name!r}")
    if described.case is None and described.number < FIRST_EXTENSION_NUMBER:
        raise ValueError(f"variant {described.name!r}: a variant outside the contract's oneofs "
                         f"takes a number from {FIRST_EXTENSION_NUMBER}")
    registry.register(described.rules)
    DESCRIPTORS[described.name] = _BY_NUMBER[described.number] = described
    if described.case is not None:
        _BY_CASE[described.case] = described
    for message in vars(described.messages).values():
        _BY_TYPE[message.DESCRIPTOR.full_name] = described


def load(modules: Iterable[str]) -> None:
    """Import each descriptor module and register its `DESCRIPTOR`."""
    for name in modules:
        module = importlib.import_module(name.strip())
        described = getattr(module, "DESCRIPTOR", None)
        if not isinstance(described, VariantDescriptor):
            raise ValueError(f"{name}: no VariantDescriptor named DESCRIPTOR")
        register(described)


def descriptor(name: str) -> VariantDescriptor:
    try:
        return DESCRIPTORS[name]
    except KeyError:
        raise KeyError(f"unknown variant {name!r}; known: {sorted(DESCRIPTORS)}") from None


def by_case(case: str) -> VariantDescriptor | None:
    return _BY_CASE.get(case)


def by_number(number: int) -> VariantDescriptor | None:
    return _BY_NUMBER.get(number)


def by_type(full_name: str) -> VariantDescriptor | None:
    return _BY_TYPE.get(full_name)


load(f"risk_rules.variants.{name}" for name in ("classic", "deep_space", "strike", "legacy"))
