"""A table by name whose entries may be made on first lookup: the variants' rules and descriptors.

A `risk` command is a new process that plays one variant; importing every variant's engine to
fill a table it reads one entry of cost most of its start-up. An entry added as `Later(make)`
is made by `make()` the first time it is looked up (then kept); its name is known meanwhile, so
`in`, iteration (in the order added) and `len` import nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Generic, TypeVar

V = TypeVar("V")


@dataclass(frozen=True)
class Later(Generic[V]):
    """An entry not made yet: how to make it."""

    make: Callable[[], V]


class FirstUseTable(MutableMapping[str, V]):
    """Entries by name; a `Later` entry is made on first lookup and passed to `made(name,
    value)` (which may check it, or raise) before it is kept."""

    def __init__(self, made: Callable[[str, V], None] = lambda name, value: None) -> None:
        self._entries: dict[str, V | Later[V]] = {}
        self._made = made
        # the entries made so far, as a plain dict: the lookups on every move (a variant's
        # rules, its descriptor) read it with `made.get(name)`, no call of ours in between
        self.made: dict[str, V] = {}

    def __getitem__(self, name: str) -> V:
        entry = self._entries[name]  # KeyError: no such entry
        if not isinstance(entry, Later):
            return entry
        value = entry.make()
        self._made(name, value)
        self[name] = value
        return value

    def later(self, name: str, make: Callable[[], V]) -> None:
        """Add `name`, made by `make()` when first looked up."""
        self._entries[name] = Later(make)
        self.made.pop(name, None)

    def __setitem__(self, name: str, value: V) -> None:
        self._entries[name] = value
        self.made[name] = value

    def __delitem__(self, name: str) -> None:
        del self._entries[name]
        self.made.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)
