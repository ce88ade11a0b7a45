"""The built-in Deep Space bot: weighted-random over the legal actions, never stalling.

It sees only what its seat may see (the seat's view and its legal actions), so the same policy
drives in-process bot games and bots playing through the public API. Its plan is the game's:
mine every turn, gather crews of three on planets without its base, buy ore-rich turns with its
cards, build whenever it can, and attack only with the odds on its side. Ending the turn always
keeps a positive weight, and every other action uses up something finite (moves, gems, cards,
mining), so a turn always ends.
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, LegalAction
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD as BOARD
from risk_rules.engine.deep_space.cards import card_type
from risk_rules.engine.deep_space.model import (
    BASE_ORE,
    BASE_RECRUITS,
    BuildBase,
    CardKind,
    DeepSpaceView,
    EndTurn,
    Mine,
    Move,
    PlayCard,
    Recruit,
    RelocateDog,
    Resource,
    ReturnDog,
    TradeCards,
    Warp,
)

# Cards the bot would rather trade in (two of them make a recruit) than hold.
WEAK = frozenset({
    CardKind.BATTLE_CRY, CardKind.FORCE_FIELD, CardKind.SABOTAGE, CardKind.SPACE_DOG,
})


class Seen:
    """What the bot reads off its view, computed once per decision."""

    def __init__(self, view: DeepSpaceView) -> None:
        self.view = view
        self.seat = view.viewer
        self.mine = view.recruits[self.seat]
        self.bases = set(view.bases[self.seat])
        self.home = view.stations[self.seat]
        players = len(view.recruits)
        self.enemy = [
            max((view.recruits[s][n] for s in range(players) if s != self.seat), default=0)
            for n in range(len(self.mine))
        ]
        self.enemy_dogs = [
            sum(view.dogs[s][n] for s in range(players) if s != self.seat)
            for n in range(len(self.mine))
        ]

    @property
    def gems(self) -> int:
        return self.view.gems[self.seat]

    @property
    def ore(self) -> int:
        return self.view.ore[self.seat]

    def wants_ore(self) -> bool:
        return self.ore < BASE_ORE or self.gems >= 2

    def build_site(self, planet: int) -> bool:
        """A planet where a base of ours could go."""
        return BOARD.is_planet(planet) and planet not in self.bases


def _move_weight(seen: Seen, origin: int, destination: int, crew: int, warp: bool) -> int:
    mine, enemy = seen.mine, seen.enemy
    if warp and seen.gems < 2:
        return 0
    if enemy[destination]:
        strength = crew + seen.view.dogs[seen.seat][origin]
        defence = enemy[destination] + seen.enemy_dogs[destination]
        if strength < defence + 2:
            return 0
        weight = 10 + 8 * (strength - defence)
    elif seen.build_site(destination) and mine[destination] + crew >= BASE_RECRUITS:
        weight = 60 if mine[destination] < BASE_RECRUITS else 8
    elif seen.build_site(destination):
        weight = 12
    else:
        weight = 2
    if origin == seen.home:
        weight += 25
    elif seen.build_site(origin) and mine[origin] >= BASE_RECRUITS and seen.ore >= BASE_ORE - 1:
        weight //= 4  # about to build here: stay
    return weight // 3 if warp else weight


def _card_weight(seen: Seen, action: PlayCard) -> int:
    kind = card_type(action.card).kind
    view = seen.view
    if kind in (CardKind.GEM_RUSH, CardKind.REINFORCEMENTS):
        return 120
    if kind is CardKind.ORE_HAUL:
        return 200
    if kind is CardKind.PROSPECTOR:
        wanted = Resource.ORE if seen.wants_ore() else Resource.GEM
        return 150 if action.resource is wanted else 10
    if kind is CardKind.HYPERJUMP:
        return 30 if view.moves_left < 2 else 4
    if kind is CardKind.METEOR_STRIKE:
        cost = 1 if action.pay_from == seen.home else 3
        return 25 * action.count // cost + 5
    if kind is CardKind.SABOTAGE:
        lost = min(2, view.ore[action.target])
        return 5 + 30 * lost if action.pay_from == seen.home else 2 + 10 * lost
    if kind is CardKind.SPACE_DOG:
        return 4 + 2 * seen.mine[action.planet]
    if kind is CardKind.FORCE_FIELD:
        return 4 + 2 * seen.mine[action.planet] + 4 * (action.planet not in seen.bases)
    if kind is CardKind.BATTLE_CRY:
        return 8
    return 1


def _weight(seen: Seen, entry: LegalAction) -> int:
    action = entry.action
    if isinstance(action, BuildBase):
        return 10_000
    if isinstance(action, Mine):
        return 1000 if (action.resource is Resource.ORE) == seen.wants_ore() else 40
    if isinstance(action, TradeCards):
        weak = all(card_type(c).kind in WEAK for c in action.cards)
        return 2000 if weak else 5
    if isinstance(action, PlayCard):
        return _card_weight(seen, action)
    if isinstance(action, Recruit):
        return 50 if seen.gems >= 2 or seen.ore >= BASE_ORE else 15
    if isinstance(action, Move | Warp):
        crew = entry.max_count or action.count
        return _move_weight(seen, action.origin, action.destination, crew,
                            isinstance(action, Warp))
    if isinstance(action, RelocateDog):
        return 4 + 3 * seen.mine[action.planet]
    if isinstance(action, ReturnDog):
        return 1
    if isinstance(action, EndTurn):
        if action.discard < 0:
            return 20
        kind = card_type(action.discard).kind
        return 3 if kind in WEAK else 0
    return 1


def _count(seen: Seen, entry: LegalAction, rng: Pcg32) -> Action:
    """Pick a count: usually everything allowed, sometimes a random part."""
    if not entry.max_count:
        return entry.action
    options = entry.instances()
    action = entry.action
    if isinstance(action, Move | Warp) and action.origin != seen.home and rng.below(4) == 0:
        return rng.choice(options)
    if isinstance(action, Recruit) and rng.below(4) == 0:
        return rng.choice(options)
    return options[-1]


def choose(view: DeepSpaceView, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    """One action from `legal` for the seat whose view `view` is."""
    if not legal:
        raise ValueError(f"seat {view.viewer} has no decision to make")
    seen = Seen(view)
    weights = [_weight(seen, e) for e in legal]
    if sum(weights) == 0:
        weights = [1] * len(legal)
    return _count(seen, legal[rng.weighted(weights)], rng)
