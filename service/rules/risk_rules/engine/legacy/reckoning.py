"""What the Legacy rules count on a board, as functions of the state's fields: the recruits due,
the Red Stars a seat holds, the legal starting territories, the maneuver targets, and what an
expansion costs. The work area and the listing of legal actions both ask them.
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.legacy.content import WorldBoard
from risk_rules.engine.legacy.model import NOBODY, TroopsRecruited
from risk_rules.engine.legacy.world import CitySize, Power


def recruitment(
    board: WorldBoard, owner: Sequence[int], hqs: Sequence[int], power: Power, seat: int
) -> TroopsRecruited:
    """What `seat` recruits this turn: max(3, (territories + population) / 3), Balkania
    rounding up, plus the bonuses of whole continents (+1 for one it named); Khan's HQ troops
    are told apart (placed at once, not part of the recruits)."""
    owned = [t for t in range(TERRITORIES) if owner[t] == seat]
    population = sum(board.population[t] for t in owned)
    total = len(owned) + population
    base = max(3, -(-total // 3) if power is Power.ROUND_UP else total // 3)
    bonus = 0
    for region in CLASSIC_BOARD.regions_held(owner, seat):
        bonus += board.continent_bonus[region]
        if board.namer[region] == seat:
            bonus += 1
    hq_troops = 0
    if power is Power.HQ_TROOPS:
        hq_troops = sum(1 for h in hqs if h >= 0 and owner[h] == seat)
    return TroopsRecruited(seat, len(owned), population, base, bonus, hq_troops)


def start_territories(
    board: WorldBoard, seat: int, *, owner: Sequence[int], hqs: Sequence[int],
    scars: Sequence[int], forts: Sequence[int], hq: bool,
) -> list[int]:
    """Legal starting territories for `seat`: unoccupied, no HQ on it, and unmarked (no scar,
    city or fortification) or a major city the seat founded; for an HQ also not next to
    another HQ. Should no HQ spot be left, the adjacency rule and then the marks are waived."""
    placed = {h for h in hqs if h >= 0}
    free = [t for t in range(TERRITORIES) if owner[t] == NOBODY and t not in placed]

    def legal(t: int) -> bool:
        unmarked = not scars[t] and not board.city_size[t] and not forts[t]
        own_major = (
            board.city_size[t] == CitySize.MAJOR and board.city_founder[t] == seat
        )
        return unmarked or own_major

    found = [t for t in free if legal(t)]
    if not hq:
        return found
    apart = [t for t in found if not any(n in placed for n in CLASSIC_BOARD.links[t])]
    return apart or found or free


def red_stars(
    owner: Sequence[int], hqs: Sequence[int], stars: Sequence[int], seat: int
) -> int:
    """Red Star tokens plus the HQs (anyone's) the seat controls."""
    return stars[seat] + sum(1 for h in hqs if h >= 0 and owner[h] == seat)


def maneuvers(
    owner: Sequence[int], troops: Sequence[int], seat: int, power: Power
) -> dict[int, list[int]]:
    """Maneuver targets per source: through own territories (anywhere with the Saharan power)."""
    sources = [t for t in range(TERRITORIES) if owner[t] == seat and troops[t] >= 2]
    own = [t for t in range(TERRITORIES) if owner[t] == seat]
    if power is Power.MANEUVER_ANYWHERE:
        return {src: [t for t in own if t != src] for src in sources if len(own) > 1}
    passable = [o == seat for o in owner]
    found: dict[int, list[int]] = {}
    for src in sources:
        targets = sorted(CLASSIC_BOARD.reachable(src, passable) - {src})
        if targets:
            found[src] = targets
    return found


def expansion_cost(board: WorldBoard, fortifications: Sequence[int], territory: int) -> int:
    cost = board.population[territory]
    if cost and fortifications[territory]:
        cost += board.content.fortified_expansion_cost
    return cost
