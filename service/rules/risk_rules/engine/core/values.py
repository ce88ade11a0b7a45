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

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

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


def copier(source: type[Any], target: type[T], computed: Iterable[str]) -> Callable[..., T]:
    """A function `(value, **computed) -> target`: every field of the dataclass `target` that
    `source` has under the same name is copied from `value`, and each field named in
    `computed` is passed by keyword (a view: the public fields of a state as they are, and
    what the viewer's seat decides).

    The function is written out for the two classes, as `dataclasses` writes `__init__`, so
    that the field lists are said once (by the classes) and a view costs what the hand-written
    code did: where both classes keep their fields in `__dict__` (built through `build`), the
    value's dict is copied in one step and the fields the target lacks are deleted; otherwise
    the target is called with each field by keyword."""
    computed = tuple(computed)
    own = [field.name for field in dataclasses.fields(cast(Any, source))]
    fields = [field.name for field in dataclasses.fields(cast(Any, target))]
    missing = [name for name in fields if name not in own and name not in computed]
    unknown = [name for name in computed if name not in fields]
    if missing or unknown:
        raise TypeError(f"{target.__name__} from {source.__name__}: fields neither copied nor "
                        f"computed {missing}, computed but not fields {unknown}")
    head = "def copy(value" + "".join(f", {name}" for name in computed).replace(", ", ", *, ", 1)
    if not hasattr(source, "__slots__") and not hasattr(target, "__slots__"):
        dropped = [name for name in own if name not in fields or name in computed]
        body = ["    fields = value.__dict__.copy()"]
        if dropped:
            body.append("    del " + ", ".join(f"fields[{name!r}]" for name in dropped))
        body += [f"    fields[{name!r}] = {name}" for name in computed]
        body.append("    return build(cls, fields)")
    else:
        arguments = [f"{name}={name}" if name in computed else f"{name}=value.{name}"
                     for name in fields]
        body = ["    return cls(" + ", ".join(arguments) + ")"]
    namespace: dict[str, Any] = {"cls": target, "build": build}
    exec("\n".join([head + "):", *body]), namespace)  # the source is built from field names
    made: Callable[..., T] = namespace["copy"]
    return made
