"""Where to draw a board: the `layout.json` files beside the engine's boards, read into a
`risk.v1.GameMap` together with the board's graph.

The rules never read these files (they are drawing data: positions in a view box, a radius
each region owns, links that wrap around the board's edge, colours); they sit beside the board
they draw so that a change to one is seen next to the other.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from risk_proto.risk.v1 import variant_pb2
from risk_rules.engine.core.graph import Board


@dataclass(frozen=True, slots=True)
class Layout:
    """One board's drawing data, as read from its `layout.json`."""

    view_box: tuple[float, float, float, float]
    radius: float
    centres: dict[str, tuple[float, float]]
    wraps: frozenset[frozenset[str]]
    hubs: dict[str, tuple[float, float, float]]
    group_colours: dict[str, str]

    def centre(self, name: str) -> tuple[float, float]:
        try:
            return self.centres[name]
        except KeyError:
            raise ValueError(f"layout.json places no {name!r}") from None


def read(package: str) -> Layout:
    """The `layout.json` of the engine package `package` (e.g. "risk_rules.engine.classic")."""
    data: dict[str, Any] = json.loads(files(package).joinpath("layout.json").read_text("utf-8"))
    x, y, width, height = (float(v) for v in data["view_box"])
    return Layout(
        view_box=(x, y, width, height),
        radius=float(data["radius"]),
        centres={name: (float(px), float(py)) for name, (px, py) in data["regions"].items()},
        wraps=frozenset(frozenset(pair) for pair in data.get("wraps", ())),
        hubs={name: (float(hx), float(hy), float(hr))
              for name, (hx, hy, hr) in data.get("hubs", {}).items()},
        group_colours=dict(data.get("group_colours", {})),
    )


def game_map(board: Board, layout: Layout, *, region_noun: str, group_noun: str,
             kinds: Sequence[str] = (), groups: Sequence[int] | None = None,
             ) -> variant_pb2.GameMap:
    """The map of `board` drawn by `layout`: one region per node (kind from `kinds`, default
    the region noun; group from `groups`, default the board's own regions), its groups with
    their bonuses, every link once."""
    x, y, width, height = layout.view_box
    drawn = variant_pb2.GameMap(
        region_noun=region_noun, group_noun=group_noun,
        view_box=variant_pb2.ViewBox(x=x, y=y, width=width, height=height),
    )
    group_of = list(board.region_of) if groups is None else list(groups)
    for node, name in enumerate(board.names):
        cx, cy = layout.centre(name)
        drawn.regions.add(
            id=node, name=name, group=group_of[node], adjacent=board.links[node],
            x=cx, y=cy, radius=layout.radius,
            kind=kinds[node] if kinds else region_noun,
        )
    if groups is None:
        for index, region in enumerate(board.regions):
            drawn.groups.add(id=index, name=region.name, bonus=region.bonus,
                             members=region.members,
                             colour=layout.group_colours.get(region.name, ""))
    for a, linked in enumerate(board.links):
        for b in linked:
            if a < b:
                wraps = frozenset((board.names[a], board.names[b])) in layout.wraps
                drawn.links.add(a=a, b=b, wraps=wraps)
    return drawn


def hub(layout: Layout, name: str, members: Iterable[int], description: str,
        ) -> variant_pb2.MapHub:
    hx, hy, radius = layout.hubs[name]
    return variant_pb2.MapHub(name=name, members=sorted(members), x=hx, y=hy, radius=radius,
                              description=description)
