"""Maps as graphs: named nodes, two-way links, regions with bonuses, connectivity queries."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Region:
    name: str
    bonus: int
    members: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable map. Node ids are indices into `names`; links are symmetric."""

    names: tuple[str, ...]
    links: tuple[tuple[int, ...], ...]
    regions: tuple[Region, ...]
    region_of: tuple[int, ...]

    @classmethod
    def build(
        cls,
        regions: Sequence[tuple[str, int, Sequence[str]]],
        borders: Mapping[str, Iterable[str]],
    ) -> Board:
        """Build from region lists and a border table; fails loudly on an asymmetric border."""
        names: list[str] = []
        region_objs: list[Region] = []
        region_of: list[int] = []
        for region_index, (region_name, bonus, members) in enumerate(regions):
            start = len(names)
            names.extend(members)
            region_of.extend([region_index] * len(members))
            region_objs.append(Region(region_name, bonus, tuple(range(start, len(names)))))
        index = {name: i for i, name in enumerate(names)}
        if len(index) != len(names):
            raise ValueError("duplicate node name")
        links: list[set[int]] = [set() for _ in names]
        for name, neighbours in borders.items():
            for other in neighbours:
                links[index[name]].add(index[other])
        for a, linked in enumerate(links):
            for b in linked:
                if a not in links[b]:
                    raise ValueError(f"border {names[a]} -> {names[b]} is not listed both ways")
        return cls(
            names=tuple(names),
            links=tuple(tuple(sorted(s)) for s in links),
            regions=tuple(region_objs),
            region_of=tuple(region_of),
        )

    @property
    def size(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        return self.names.index(name)

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.links[a]

    def border_count(self) -> int:
        return sum(len(linked) for linked in self.links) // 2

    def reachable(self, start: int, passable: Sequence[bool]) -> set[int]:
        """Nodes reachable from `start` stepping only onto nodes marked passable."""
        seen = {start}
        stack = [start]
        while stack:
            node = stack.pop()
            for nxt in self.links[node]:
                if nxt not in seen and passable[nxt]:
                    seen.add(nxt)
                    stack.append(nxt)
        return seen

    def regions_held(self, owner: Sequence[int], player: int) -> list[int]:
        return [
            i
            for i, region in enumerate(self.regions)
            if all(owner[t] == player for t in region.members)
        ]
