"""The one place that maps a variant's name to its rules.

The four variants of the contract are listed here by where their rules live, and each is
imported the first time its rules are asked for: a process that plays one variant (a `risk`
command, a bot) does not pay for importing the other three. A variant outside the contract (a
test's, a plug-in's) is added with `register` by whoever loads its descriptor
(`risk_rules.variants`), so the engine never imports anything to find one.
"""

from __future__ import annotations

from typing import Any

from risk_rules.engine.core.first_use import FirstUseTable
from risk_rules.engine.core.ruleset import Ruleset

# The imports are inside functions so that each runs on first lookup; they are plain imports
# (no importlib) so that tests/engine/test_purity.py still sees every module the engine loads.


def _classic() -> Ruleset[Any, Any, Any]:
    from risk_rules.engine.classic.rules import ClassicRules  # noqa: PLC0415 - on first lookup
    return ClassicRules()


def _deep_space() -> Ruleset[Any, Any, Any]:
    from risk_rules.engine.deep_space.rules import DeepSpaceRules  # noqa: PLC0415 - on first lookup
    return DeepSpaceRules()


def _legacy() -> Ruleset[Any, Any, Any]:
    from risk_rules.engine.legacy.rules import LegacyRules  # noqa: PLC0415 - on first lookup
    return LegacyRules()


def _strike() -> Ruleset[Any, Any, Any]:
    from risk_rules.engine.strike.rules import StrikeRules  # noqa: PLC0415 - on first lookup
    return StrikeRules()


def _named_as_listed(name: str, rules: Ruleset[Any, Any, Any]) -> None:
    if rules.name != name:
        raise ValueError(f"the rules listed as {name!r} are named {rules.name!r}")


# every variant's rules by name, in the order listed; the four are made on first lookup
REGISTRY: FirstUseTable[Ruleset[Any, Any, Any]] = FirstUseTable(_named_as_listed)
for _name, _make in (("classic", _classic), ("deep_space", _deep_space), ("legacy", _legacy),
                     ("strike", _strike)):
    REGISTRY.later(_name, _make)


def get_ruleset(variant: str) -> Ruleset[Any, Any, Any]:
    found = REGISTRY.made.get(variant)  # made already: the case on every move
    if found is not None:
        return found
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
