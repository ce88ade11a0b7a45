"""The Deep Space board, read once at import from the bundled data file `board.json`.

Hasbro never published the board in text, so the rules reference decides one; keeping it as
data means a faithful board is a change to `board.json` alone. Reading a file bundled with the
package at import time is the only I/O the engine does: it is the same bytes on every run, so
the rules stay a pure function of the state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from risk_rules.engine.core.graph import Board


@dataclass(frozen=True, slots=True)
class Layout:
    """How many players use the board: their home stations and which nodes are out of play."""

    stations: tuple[int, ...]  # per seat: the node id of its home station
    in_play: tuple[bool, ...]  # per node: False for covered planets and unused stations


@dataclass(frozen=True, slots=True)
class DeepSpaceBoard:
    graph: Board  # node ids: planets 0 .. planets-1, then the home stations
    planets: int
    warp: frozenset[int]  # the planets linked through the gem warp
    colours: tuple[str, ...]  # per station (in station order)
    quadrant: tuple[int, ...]  # per node
    layouts: dict[int, Layout]  # by number of players

    @property
    def size(self) -> int:
        return self.graph.size

    @property
    def names(self) -> tuple[str, ...]:
        return self.graph.names

    @property
    def links(self) -> tuple[tuple[int, ...], ...]:
        return self.graph.links

    def is_planet(self, node: int) -> bool:
        return 0 <= node < self.planets

    def is_station(self, node: int) -> bool:
        return self.planets <= node < self.size

    def colour(self, station: int) -> str:
        return self.colours[station - self.planets]

    def index(self, name: str) -> int:
        return self.graph.index(name)


def _load(data: dict[str, Any]) -> DeepSpaceBoard:
    planet_names = [p["name"] for p in data["planets"]]
    station_names = [s["name"] for s in data["stations"]]
    borders: dict[str, set[str]] = {}
    for a, b in data["links"]:
        if a == b:
            raise ValueError(f"board.json: {a} is linked to itself")
        borders.setdefault(a, set()).add(b)
        borders.setdefault(b, set()).add(a)
    graph = Board.build(
        [("planets", 0, planet_names), ("stations", 0, station_names)],
        {name: sorted(linked) for name, linked in borders.items()},
    )
    planets = len(planet_names)
    for s in range(planets, graph.size):
        if any(n >= planets for n in graph.links[s]):
            raise ValueError(f"board.json: {graph.names[s]} is linked to another station")
    warp = frozenset(graph.index(name) for name in data["warp"])
    if any(w >= planets for w in warp):
        raise ValueError("board.json: only planets may be warp planets")
    layouts: dict[int, Layout] = {}
    for players, layout in data["layouts"].items():
        stations = tuple(graph.index(name) for name in layout["stations"])
        covered = {graph.index(name) for name in layout["covered"]}
        if len(stations) != int(players) or any(s < planets for s in stations):
            raise ValueError(f"board.json: layout {players} needs {players} home stations")
        if any(c >= planets for c in covered):
            raise ValueError(f"board.json: layout {players} covers a station")
        in_play = tuple(
            (n < planets and n not in covered) or n in stations for n in range(graph.size)
        )
        layouts[int(players)] = Layout(stations, in_play)
    return DeepSpaceBoard(
        graph=graph,
        planets=planets,
        warp=warp,
        colours=tuple(s["colour"] for s in data["stations"]),
        quadrant=tuple(
            [p["quadrant"] for p in data["planets"]] + [s["quadrant"] for s in data["stations"]]
        ),
        layouts=layouts,
    )


def _read(name: str) -> dict[str, Any]:
    text = files(__package__).joinpath(name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


DEEP_SPACE_BOARD = _load(_read("board.json"))
NODES = DEEP_SPACE_BOARD.size  # 24: 20 planets, 4 home stations
PLANETS = DEEP_SPACE_BOARD.planets
