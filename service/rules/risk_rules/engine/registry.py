"""The one place that maps a variant's name to its rules.

The four variants of the contract are listed here by where their rules live, and each is
imported the first time its rules are asked for: a process that plays one variant (a `risk`
command, a bot) does not pay for importing the other three. A variant outside the contract (a
test's, a plug-in's) is added with `register` by whoever loads its descriptor
(`risk_rules.variants`), so the engine never imports anything to find one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True)
class _Later:
    """Rules not made yet: how to make them."""

    make: Callable[[], Ruleset[Any, Any, Any]]


_BUILT_IN = {"classic": _Later(_classic), "deep_space": _Later(_deep_space),
             "legacy": _Later(_legacy), "strike": _Later(_strike)}


class Registry(MutableMapping[str, Ruleset[Any, Any, Any]]):
    """Every variant's rules by name, in the order listed; a built-in variant's rules are made
    on first lookup, so its name is known (iteration, `in`, `len`) without importing its
    engine."""

    def __init__(self, built_in: dict[str, _Later]) -> None:
        # a name's rules, or how to make them until first asked for
        self._entries: dict[str, Ruleset[Any, Any, Any] | _Later] = dict(built_in)

    def __getitem__(self, name: str) -> Ruleset[Any, Any, Any]:
        entry = self._entries[name]  # KeyError: not a variant
        if not isinstance(entry, _Later):
            return entry
        rules = entry.make()
        if rules.name != name:
            raise ValueError(f"the rules listed as {name!r} are named {rules.name!r}")
        self._entries[name] = rules
        return rules

    def __setitem__(self, name: str, rules: Ruleset[Any, Any, Any]) -> None:
        self._entries[name] = rules

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


REGISTRY = Registry(_BUILT_IN)


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
