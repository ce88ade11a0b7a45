"""Risk Legacy's components as data: factions and powers, cards, marks, the trade table.

The base box is `BASE_CONTENT`. Sealed packets (out of scope for this build) are meant to be
added as data too: a named entry in `PACKETS` that changes a `Content` (more scar cards, a new
city size, more coins...); a world lists the packets it has opened in `World.unlocked`, and
`content_for(world)` gives the components a game with that world is played with. The rules read
counts and values from here, never from literals.

`board_of(world)` turns a world into per-territory tables (scars, city population, fortification
marks, card values) once per world, for the rules to index.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.legacy.world import (
    CitySize,
    Faction,
    Power,
    Scar,
    World,
    expand,
)

CONTINENTS = len(CLASSIC_BOARD.regions)  # 6, in the classic order (0 North America ... )

FACTION_POWERS: dict[Faction, tuple[Power, Power]] = {
    Faction.DIE_MECHANIKER: (Power.FORTIFIED_HQ, Power.STEADFAST_SIXES),
    Faction.ENCLAVE_OF_THE_BEAR: (Power.FEROCITY, Power.NATURAL_TRIPLE),
    Faction.IMPERIAL_BALKANIA: (Power.ROUND_UP, Power.EXPANSION_CARD),
    Faction.KHAN_INDUSTRIES: (Power.HQ_TROOPS, Power.CARD_TROOP),
    Faction.SAHARAN_REPUBLIC: (Power.MANEUVER_ANY_TIME, Power.MANEUVER_ANYWHERE),
}
FACTION_NAMES: dict[Faction, str] = {
    Faction.DIE_MECHANIKER: "Die Mechaniker",
    Faction.ENCLAVE_OF_THE_BEAR: "Enclave of the Bear",
    Faction.IMPERIAL_BALKANIA: "Imperial Balkania",
    Faction.KHAN_INDUSTRIES: "Khan Industries",
    Faction.SAHARAN_REPUBLIC: "Saharan Republic",
}

# Resources spent in one trade (2..10, overpaying allowed) -> troops: the board's table.
TRADE_TABLE: dict[int, int] = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 7, 9: 8, 10: 10}
MIN_TRADE = min(TRADE_TABLE)
MAX_TRADE = max(TRADE_TABLE)


def troops_for(resources: int) -> int:
    """Troops for a trade worth `resources` (above the table's top it pays the top)."""
    return TRADE_TABLE[min(resources, MAX_TRADE)] if resources >= MIN_TRADE else 0


@dataclass(frozen=True, slots=True)
class Content:
    """The components a game is played with."""

    starting_troops: int = 8  # with the HQ; joining the war brings half of them
    star_cost: int = 4  # resource cards per Red Star token, whatever their values
    stars_to_win: int = 4
    coin_cards: int = 12
    coin_value: int = 1
    base_card_value: int = 1  # a territory card's printed resources
    max_card_value: int = 6
    sideboard_slots: int = 4
    fortification_marks: int = 10
    fortified_expansion_cost: int = 2  # extra troops lost expanding into a fortified city
    scar_cards: tuple[tuple[Scar, int], ...] = ((Scar.BUNKER, 3), (Scar.AMMO_SHORTAGE, 3))
    cities: tuple[tuple[CitySize, int], ...] = (  # marks in the box, per size
        (CitySize.MINOR, 9), (CitySize.MAJOR, 5), (CitySize.WORLD_CAPITAL, 0),
    )
    population: tuple[tuple[CitySize, int], ...] = (
        (CitySize.MINOR, 1), (CitySize.MAJOR, 2), (CitySize.WORLD_CAPITAL, 5),
    )
    bonus_mark_limit: int = 3  # net +/- marks one continent's bonus may carry
    games: int = 15  # games in a campaign
    expansion_card_at: int = 4  # Imperial Balkania: expansions in a turn that earn a card

    def scar_count(self, scar: Scar) -> int:
        return dict(self.scar_cards).get(scar, 0)

    def city_count(self, size: CitySize) -> int:
        return dict(self.cities).get(size, 0)

    def population_of(self, size: CitySize) -> int:
        return dict(self.population).get(size, 0)


BASE_CONTENT = Content()

# Sealed packets: name -> how opening it changes the components. None ship with this build.
PACKETS: dict[str, Callable[[Content], Content]] = {}


def content_for(world: World) -> Content:
    """The base box with every packet the world has opened (unknown names raise KeyError)."""
    content = BASE_CONTENT
    for name in world.unlocked:
        content = PACKETS[name](content)
    return content


@dataclass(frozen=True, slots=True)
class WorldBoard:
    """Per-territory tables of one world, for the rules to index."""

    content: Content
    scars: tuple[int, ...]  # Scar value or 0
    population: tuple[int, ...]  # city population (0: no city)
    city_size: tuple[int, ...]  # CitySize value or 0
    city_founder: tuple[int, ...]  # seat or -1
    fortification: tuple[int, ...]  # marks left (0: not fortified)
    card_value: tuple[int, ...]  # resources on each territory card
    continent_bonus: tuple[int, ...]  # printed bonus plus marks, never below 0
    namer: tuple[int, ...]  # per continent: the seat that named it, or -1
    destroyed: frozenset[int]


@functools.lru_cache(maxsize=256)
def board_of(world: World) -> WorldBoard:
    content = content_for(world)
    scars = [0] * TERRITORIES
    for mark in world.scars:
        scars[mark.territory] = int(mark.scar)
    population = [0] * TERRITORIES
    size = [0] * TERRITORIES
    founder = [-1] * TERRITORIES
    for city in world.cities:
        population[city.territory] = content.population_of(city.size)
        size[city.territory] = int(city.size)
        founder[city.territory] = city.founder
    forts = [0] * TERRITORIES
    for fort in world.fortifications:
        forts[fort.territory] = fort.marks
    marks = expand(world.bonus_marks, CONTINENTS, 0)
    namer = [-1] * CONTINENTS
    for named in world.continent_names:
        namer[named.continent] = named.namer
    return WorldBoard(
        content=content,
        scars=tuple(scars),
        population=tuple(population),
        city_size=tuple(size),
        city_founder=tuple(founder),
        fortification=tuple(forts),
        card_value=tuple(expand(world.card_values, TERRITORIES, content.base_card_value)),
        continent_bonus=tuple(
            max(0, region.bonus + marks[i]) for i, region in enumerate(CLASSIC_BOARD.regions)
        ),
        namer=tuple(namer),
        destroyed=frozenset(world.destroyed_cards),
    )


def world_problems(world: World, players: int) -> list[str]:
    """Why `world` cannot be played by `players` seats (empty: it can)."""
    problems: list[str] = []
    try:
        content = content_for(world)
    except KeyError as exc:
        return [f"unknown sealed packet {exc}"]

    def territories(kind: str, ids: list[int]) -> None:
        if any(not 0 <= t < TERRITORIES for t in ids):
            problems.append(f"{kind}: territory out of range")
        if ids != sorted(set(ids)):
            problems.append(f"{kind}: territories must be distinct and sorted")

    territories("scars", [m.territory for m in world.scars])
    territories("cities", [c.territory for c in world.cities])
    territories("fortifications", [f.territory for f in world.fortifications])
    territories("destroyed_cards", list(world.destroyed_cards))
    cities = {c.territory for c in world.cities}
    for fort in world.fortifications:
        if not 0 < fort.marks <= content.fortification_marks:
            problems.append("fortifications: marks out of range")
        if fort.territory not in cities:
            problems.append("fortifications: only a city can be fortified")
    for city in world.cities:
        if not 0 <= city.founder < players:
            problems.append("cities: founder is not a seat")
    names = [n.continent for n in world.continent_names]
    if any(not 0 <= c < CONTINENTS for c in names) or names != sorted(set(names)):
        problems.append("continent_names: continents out of range, repeated or unsorted")
    if any(not 0 <= n.namer < players for n in world.continent_names):
        problems.append("continent_names: namer is not a seat")
    if world.bonus_marks and (
        len(world.bonus_marks) != CONTINENTS
        or any(abs(m) > content.bonus_mark_limit for m in world.bonus_marks)
    ):
        problems.append("bonus_marks: one entry per continent, within the mark limit")
    if world.card_values and (
        len(world.card_values) != TERRITORIES
        or any(not content.base_card_value <= v <= content.max_card_value
               for v in world.card_values)
    ):
        problems.append("card_values: one entry per territory card, within 1..6")
    for name, table in (("signatures", world.signatures), ("eliminations", world.eliminations)):
        if table and (len(table) != players or min(table) < 0):
            problems.append(f"{name}: one non-negative entry per seat")
    if world.scar_cards_used and (
        len(world.scar_cards_used) != len(Scar)
        or any(not 0 <= used <= content.scar_count(Scar(i + 1))
               for i, used in enumerate(world.scar_cards_used))
    ):
        problems.append("scar_cards_used: one entry per scar kind, within the supply")
    return problems
