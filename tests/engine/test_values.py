"""Values built by `core.values.build` are the values `__init__` would build from the same fields.

States, views and attack events built on every action skip the frozen dataclass's `__init__`
for speed; if a field were missing, misspelt or extra, equality, hashing, printing or the wire
conversion would break for players. These tests build each such value along real bot games and
compare it with a rebuild through `__init__`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from risk_rules.engine import get_ruleset
from risk_rules.engine.core.values import build, evolve

# (variant, player counts) whose states and views are built with `build`.
BUILT = [("classic", (2, 4))]


def _rebuilt(value: Any) -> Any:
    """The same value through the class's own `__init__`."""
    cls = type(value)
    return cls(**{f.name: getattr(value, f.name) for f in dataclasses.fields(cls)})


def _check(value: Any) -> None:
    names = {f.name for f in dataclasses.fields(type(value))}
    if hasattr(value, "__dict__"):  # slot classes are built by __init__ only
        assert set(vars(value)) == names, f"{type(value).__name__}: {set(vars(value)) ^ names}"
    again = _rebuilt(value)
    assert value == again and hash(value) == hash(again) and repr(value) == repr(again)
    if names:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, next(iter(names)), None)


@pytest.mark.parametrize(("variant", "players"), [(v, n) for v, ns in BUILT for n in ns])
def test_built_states_and_views_equal_init_built(variant: str, players: int) -> None:
    """Along a bot game, every state `apply` returns, every view and every event equal their
    __init__ twins."""
    rules = get_ruleset(variant)
    state, _ = rules.create(rules.default_options(players), 7)
    for step in range(600):
        if rules.outcome(state) is not None:
            break
        _check(state)
        for viewer in (*range(players), None):
            _check(rules.view(state, viewer))
        seat = rules.decision(state).seats[0]
        state, events = rules.apply(state, seat, rules.bot_action(state, seat, step))
        for event in events:
            _check(event)
    _check(state)


def test_evolve_is_replace() -> None:
    """`evolve` gives what `dataclasses.replace` gives, and leaves the original alone."""
    rules = get_ruleset("classic")
    state, _ = rules.create(rules.default_options(4), 3)
    changed = evolve(state, {"turn": 9, "pending": 4})
    assert changed == dataclasses.replace(state, turn=9, pending=4)
    assert (state.turn, state.pending) != (9, 4)
    assert build(type(state), dict(vars(state))) == state
