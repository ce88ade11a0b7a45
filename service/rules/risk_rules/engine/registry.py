"""The one place that maps a variant's name to its rules.

The four variants of the contract are listed here; a variant outside it (a test's, a
plug-in's) is added with `register` by whoever loads its descriptor (`risk_rules.variants`),
so the engine never imports anything to find one.
"""

from __future__ import annotations

from typing import Any

from risk_rules.engine.classic.rules import ClassicRules
from risk_rules.engine.core.ruleset import Ruleset
from risk_rules.engine.deep_space.rules import DeepSpaceRules
from risk_rules.engine.legacy.rules import LegacyRules
from risk_rules.engine.strike.rules import StrikeRules

REGISTRY: dict[str, Ruleset[Any, Any, Any]] = {
    ClassicRules.name: ClassicRules(),
    DeepSpaceRules.name: DeepSpaceRules(),
    LegacyRules.name: LegacyRules(),
    StrikeRules.name: StrikeRules(),
}


def get_ruleset(variant: str) -> Ruleset[Any, Any, Any]:
    try:
        return REGISTRY[variant]
    except KeyError:
        raise KeyError(f"unknown variant {variant!r}; known: {sorted(REGISTRY)}") from None


def register(rules: Ruleset[Any, Any, Any]) -> None:
    """Serve `rules` under its name; registering the same object again changes nothing."""
    known = REGISTRY.get(rules.name)
    if known is not None and known is not rules:
        raise ValueError(f"variant {rules.name!r} is registered already")
    REGISTRY[rules.name] = rules
