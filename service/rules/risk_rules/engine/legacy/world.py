"""What a Risk Legacy campaign keeps from one game to the next: the `World`, as plain values.

The world is read by every game (it travels inside `LegacyOptions`) and rewritten only by the
campaign (`campaign.py`) between games. Every field is a sorted tuple of small records or a
dense per-index tuple whose empty value means "nothing changed yet", so that `World()` is the
fresh box, an empty protobuf message decodes to it, and two worlds that mean the same thing are
equal value for value (the campaign keeps them in that canonical form).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum


class Faction(IntEnum):
    DIE_MECHANIKER = 1
    ENCLAVE_OF_THE_BEAR = 2
    IMPERIAL_BALKANIA = 3
    KHAN_INDUSTRIES = 4
    SAHARAN_REPUBLIC = 5


class Power(IntEnum):
    """The ten starting powers, two per faction (`content.FACTION_POWERS`)."""

    FORTIFIED_HQ = 1  # Die Mechaniker: the starting HQ defends as fortified
    STEADFAST_SIXES = 2  # Die Mechaniker: two natural 6s on defence stop attacks there
    FEROCITY = 3  # Enclave: -1 to the defender's lower die in the first territory attacked
    NATURAL_TRIPLE = 4  # Enclave: a natural attack triple kills every defender
    ROUND_UP = 5  # Imperial Balkania: recruitment rounds up
    EXPANSION_CARD = 6  # Imperial Balkania: a card after expanding into 4+ territories
    HQ_TROOPS = 7  # Khan Industries: +1 troop on each controlled HQ when recruiting
    CARD_TROOP = 8  # Khan Industries: +1 troop on a card's territory when drawing it
    MANEUVER_ANY_TIME = 9  # Saharan Republic: the maneuver may come during the attacks
    MANEUVER_ANYWHERE = 10  # Saharan Republic: the maneuver needs no connecting path


class Scar(IntEnum):
    BUNKER = 1  # +1 to the defender's highest die
    AMMO_SHORTAGE = 2  # -1 to the defender's highest die


class CitySize(IntEnum):
    MINOR = 1
    MAJOR = 2
    WORLD_CAPITAL = 3  # from sealed content; the base box founds none


@dataclass(frozen=True, slots=True)
class FactionChoice:
    """A player's faction and the one of its two powers stuck on its card."""

    faction: Faction
    power: Power


@dataclass(frozen=True, slots=True)
class ScarMark:
    territory: int
    scar: Scar


@dataclass(frozen=True, slots=True)
class City:
    territory: int
    size: CitySize
    name: str
    founder: int  # the campaign seat that founded it


@dataclass(frozen=True, slots=True)
class Fortification:
    territory: int
    marks: int  # attacks with 3 troops it still absorbs (10 when new)


@dataclass(frozen=True, slots=True)
class ContinentName:
    continent: int
    name: str
    namer: int  # the campaign seat that named it (+1 troop for them with the continent)


@dataclass(frozen=True, slots=True)
class World:
    """Everything the campaign keeps between games. `World()` is the unplayed box."""

    factions: tuple[FactionChoice, ...] = ()  # per seat; () only outside a campaign
    scars: tuple[ScarMark, ...] = ()  # sorted by territory, at most one per territory
    cities: tuple[City, ...] = ()  # sorted by territory, at most one per territory
    fortifications: tuple[Fortification, ...] = ()  # sorted by territory, marks > 0
    continent_names: tuple[ContinentName, ...] = ()  # sorted by continent
    bonus_marks: tuple[int, ...] = ()  # per continent: net +/- marks on its bonus; () = none
    card_values: tuple[int, ...] = ()  # per territory card: resources 1..6; () = all 1
    destroyed_cards: tuple[int, ...] = ()  # territory card ids out of the game for good
    signatures: tuple[int, ...] = ()  # per seat: games won (board signed); () = none
    eliminations: tuple[int, ...] = ()  # per seat: failed joins recorded; () = none
    scar_cards_used: tuple[int, ...] = ()  # per Scar kind (index kind - 1); () = none
    unlocked: tuple[str, ...] = ()  # sealed content opened, by name (none in this build)


def dense(values: Sequence[int], default: int) -> tuple[int, ...]:
    """A per-index table in canonical form: () when every entry is the default."""
    return () if all(v == default for v in values) else tuple(values)


def expand(values: Sequence[int], size: int, default: int) -> list[int]:
    """A canonical per-index table as a full list of `size` entries."""
    return list(values) if values else [default] * size


def per_seat(values: Sequence[int], seats: int) -> list[int]:
    return expand(values, seats, 0)
