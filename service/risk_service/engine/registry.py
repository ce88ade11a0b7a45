"""The one place that maps a variant's name to its rules."""

from __future__ import annotations

from typing import Any

from risk_service.engine.classic.rules import ClassicRules
from risk_service.engine.core.ruleset import Ruleset
from risk_service.engine.deep_space.rules import DeepSpaceRules
from risk_service.engine.legacy.rules import LegacyRules
from risk_service.engine.strike.rules import StrikeRules

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
