"""Cheap construction of the frozen values built on every action (game states, views, events).

A frozen dataclass's generated `__init__` stores each field through `object.__setattr__`, about
0.1 us a field: some 3 us for a 27-field game state and as much again for a view, on every
action, which was a large share of an action's cost. A value built here is declared as a frozen
dataclass *without* `__slots__`, so its fields live in the instance `__dict__`, and `build`
installs a ready dict of every field in one step. The result is an ordinary instance of the
class: frozen, equal to, hashing and printing like the one `__init__` would build from the same
fields (tests/engine/test_values.py checks this for every class built here). The caller must pass
every field and nothing else, and the field values must be of their declared types, as with
`__init__`; classes with `__post_init__` or `InitVar` fields must not be built this way.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

_new = object.__new__
_set = object.__setattr__


def build(cls: type[T], fields: dict[str, Any]) -> T:
    """An instance of the frozen, slot-less dataclass `cls` holding `fields` (taken, not copied)."""
    value: T = _new(cls)
    _set(value, "__dict__", fields)
    return value


def evolve(value: T, changes: dict[str, Any]) -> T:
    """`dataclasses.replace(value, **changes)` for a value built by `build`, without `__init__`."""
    fields: dict[str, Any] = value.__dict__.copy()
    fields.update(changes)
    return build(type(value), fields)
