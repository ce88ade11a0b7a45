"""`is_legal`, `LegalAction.admits`, `instances` and `instance` against their definitions.

They are written for speed (a listing is searched once per action, and the validation tests
search hundreds of thousands): `is_legal` passes over entries of another action type and
compares a ranged entry's fields but `count` directly, and the count variants are built
without `dataclasses.replace`. Here they are checked against the plain definitions, on the
listings met along bot games of every variant, for listed actions, counts just inside and
outside each range, fields moved off by one and actions of other types.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from risk_rules.engine import REGISTRY, Action, IllegalAction, get_ruleset, is_legal
from risk_rules.engine.core.ruleset import LegalAction


def _admits(entry: LegalAction, action: Action) -> bool:
    """`LegalAction.admits` as defined: a ranged entry stands for each count in its range."""
    if not entry.max_count:
        return action == entry.action
    if type(action) is not type(entry.action):
        return False
    low = getattr(entry.action, "count")  # noqa: B009
    if not low <= getattr(action, "count") <= entry.max_count:  # noqa: B009
        return False
    return dataclasses.replace(action, **{"count": low}) == entry.action


def _instances(entry: LegalAction) -> list[Action]:
    if not entry.max_count:
        return [entry.action]
    low = getattr(entry.action, "count")  # noqa: B009
    return [dataclasses.replace(entry.action, **{"count": n})
            for n in range(low, entry.max_count + 1)]


def _nudged(action: Action) -> list[Action]:
    """`action` with each int field one up and one down."""
    found = []
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if type(value) is int:
            found += [dataclasses.replace(action, **{f.name: value + d}) for d in (-1, 1)]
    return found


def _candidates(legal: list[LegalAction], others: list[Action]) -> list[Action]:
    found: list[Action] = [*others]
    for entry in legal:
        found += _nudged(entry.action)
        if entry.max_count:
            low = getattr(entry.action, "count")  # noqa: B009
            found += [dataclasses.replace(entry.action, **{"count": n})
                      for n in (low - 1, low, entry.max_count, entry.max_count + 1)]
        else:
            found.append(entry.action)
    return found


def test_action_types_compare_equal_only_within_a_type() -> None:
    """Every action type is a dataclass with `==`, and actions of two types are never equal
    (what lets `is_legal` pass over entries of another type)."""
    kinds: list[type[Action]] = []
    for name in REGISTRY:
        kinds += get_ruleset(name).action_types
    for kind in kinds:
        assert dataclasses.is_dataclass(kind) and kind.__dataclass_params__.eq  # type: ignore[attr-defined]
    samples = {kind: kind(**{f.name: 0 for f in dataclasses.fields(kind)}) for kind in kinds}
    for (k1, a1), (k2, a2) in itertools.product(samples.items(), repeat=2):
        assert (a1 == a2) == (k1 is k2), (a1, a2)


@pytest.mark.parametrize("variant", sorted(REGISTRY))
def test_fast_matching_agrees_with_the_definitions(variant: str) -> None:
    """Along bot games, `is_legal`, `admits`, `instances` and `instance` give what the plain
    definitions give."""
    rules = get_ruleset(variant)
    rng = random.Random(variant)
    checked = 0
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        try:
            state, _ = rules.create(rules.default_options(players), seed)
        except IllegalAction:  # a count the variant does not seat
            continue
        previous: list[Action] = []
        for step in range(200):
            if rules.outcome(state) is not None:
                break
            seat = rules.decision(state).seats[0]
            legal = rules.legal_actions(state, seat)
            candidates = _candidates(legal, previous)
            for n, action in enumerate(rng.sample(candidates, min(30, len(candidates)))):
                want = any(_admits(entry, action) for entry in legal)
                assert is_legal(legal, action) is want, (action, legal)
                if n < 3:
                    for entry in legal:
                        assert entry.admits(action) is _admits(entry, action), (entry, action)
                checked += 1
            for entry in rng.sample(legal, min(5, len(legal))):
                every = _instances(entry)
                assert entry.instances() == every
                assert [type(a) for a in entry.instances()] == [type(a) for a in every]
                for index in {0, -1, len(every) // 2, rng.randrange(len(every))}:
                    assert entry.instance(index) == every[index]
            previous = [entry.action for entry in legal[:3]]
            state, _ = rules.apply(state, seat, rules.bot_action(state, seat, step))
    assert checked > 500

