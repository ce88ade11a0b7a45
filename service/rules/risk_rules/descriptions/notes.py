"""What a variant says about itself that its rules and messages cannot: the value its
descriptor's `describe` hook returns (`risk_rules.variants.VariantDescriptor.describe`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from risk_proto.risk.v1 import variant_pb2


@dataclass(frozen=True)
class OptionNote:
    """One option's range and meaning, for a create-game form."""

    description: str
    min: int | None = None
    max: int | None = None
    # False: a campaign (or the service) fills it in; a form should not offer it
    settable: bool = True
    # an enum option's values by their name in the contract, each with its meaning
    choices: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Described:
    title: str
    map: variant_pb2.GameMap | None = None
    decks: Sequence[variant_pb2.Deck] = ()
    # by the option's field name in the variant's Options message
    options: Mapping[str, OptionNote] = field(default_factory=dict)


# the option every variant has, said once
MAX_TURNS = OptionNote("turns (every seat's counted) before the game ends as a ranked draw",
                       min=1)
