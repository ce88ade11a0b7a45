"""Whose decision it is and the legal actions: by phase (the space dog's relocation, the opening
trades and mining, recruits, moves and warps, bases, card plays, the end of the turn).

A card play is listed only when `checks.check_card` accepts it, so listing and validation
cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from risk_rules.engine.core.errors import IllegalAction
from risk_rules.engine.core.ruleset import Decision, LegalAction
from risk_rules.engine.deep_space import checks
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD as BOARD
from risk_rules.engine.deep_space.cards import card_type
from risk_rules.engine.deep_space.model import (
    BASE_ORE,
    BASE_RECRUITS,
    BASES_PER_COLOUR,
    MINE_RECRUITS,
    NONE,
    TRADE_CARDS,
    BuildBase,
    CardKind,
    Cost,
    DeepSpaceState,
    EndTurn,
    Mine,
    Move,
    Phase,
    PlayCard,
    Recruit,
    RelocateDog,
    Resource,
    ReturnDog,
    TradeCards,
    Warp,
)
from risk_rules.engine.deep_space.play import DeepSpaceGame


def decision(state: DeepSpaceState) -> Decision:
    if state.phase is Phase.FINISHED:
        return Decision((), "finished")
    if state.phase is Phase.DOG:
        return Decision((state.dog_seat,), "relocate_dog")
    return Decision((state.current,), state.phase.name.lower())


def legal_actions(state: DeepSpaceState, seat: int) -> list[LegalAction]:
    if seat not in decision(state).seats:
        return []
    game = DeepSpaceGame(state)
    if state.phase is Phase.DOG:
        return [
            *(LegalAction(RelocateDog(p))
              for p in game.dog_destinations(seat, state.dog_planet)),
            LegalAction(ReturnDog()),
        ]
    legal: list[LegalAction] = []
    hand = sorted(state.hands[seat])
    if state.phase is Phase.START and state.supply[seat] > 0:
        legal.extend(LegalAction(TradeCards(c)) for c in combinations(hand, TRADE_CARDS)
                     if len(set(c)) == TRADE_CARDS)
    if state.phase in (Phase.START, Phase.MINING):
        for planet in game.planets():
            if game.is_planet(planet) and planet not in state.mined and \
                    state.recruits[seat][planet] >= MINE_RECRUITS:
                legal.extend(LegalAction(Mine(planet, r)) for r in Resource if game.bank(r))
    most = min(state.gems[seat], state.supply[seat])
    if most >= 1:
        legal.append(LegalAction(Recruit(1), most))
    legal.extend(_move_entries(game, seat))
    if state.ore[seat] >= BASE_ORE and len(state.bases[seat]) < BASES_PER_COLOUR:
        legal.extend(
            LegalAction(BuildBase(p)) for p in game.planets()
            if game.is_planet(p) and state.recruits[seat][p] >= BASE_RECRUITS
            and p not in state.bases[seat]
        )
    legal.extend(_card_entries(game, seat))
    legal.append(LegalAction(EndTurn()))
    legal.extend(LegalAction(EndTurn(card)) for card in sorted(set(hand)))
    return legal


def _card_candidates(game: DeepSpaceGame, seat: int, card: int) -> Iterator[PlayCard]:
    """Every way to fill in the fields this card reads (count at its least) that could pass
    `checks.check_card`, which has the last word: planets are narrowed to those holding the seat's
    recruits, or an opponent's for Meteor Strike, only to keep the listing quick."""
    spec = card_type(card)
    used = checks.CARD_FIELDS[spec.kind]
    planets: Sequence[int] = [NONE]
    if "planet" in used:
        row = game.recruits[seat]
        planets = [
            p for p in game.planets() if game.is_planet(p) and (
                game.occupant(p, seat) != NONE if spec.kind is CardKind.METEOR_STRIKE
                else row[p] > 0
            )
        ]
    targets: Sequence[int] = range(game.seats) if "target" in used else [NONE]
    resources: Sequence[Resource] = tuple(Resource) if "resource" in used else [Resource.GEM]
    payments: Sequence[int] = game.places_of(seat) if spec.cost is Cost.RECRUIT else [NONE]
    count = 1 if "count" in used else 0
    for planet in planets:
        for target in targets:
            for resource in resources:
                for pay_from in payments:
                    yield PlayCard(card, planet, target, count, resource, pay_from)


def _card_entries(game: DeepSpaceGame, seat: int) -> list[LegalAction]:
    legal: list[LegalAction] = []
    for card in sorted(set(game.hands[seat])):
        for candidate in _card_candidates(game, seat, card):
            try:
                checks.check_card(game, seat, candidate)
            except IllegalAction:
                continue
            if candidate.count:  # Meteor Strike: 1 up to the card's amount or what is there
                victim = game.occupant(candidate.planet, seat)
                top = min(card_type(card).amount, game.recruits[victim][candidate.planet])
                legal.append(LegalAction(candidate, top))
            else:
                legal.append(LegalAction(candidate))
    return legal


def _crew_entries(game: DeepSpaceGame, seat: int, origin: int, destination: int, warp: bool
                  ) -> list[LegalAction]:
    crew = game.recruits[seat][origin]
    kind = Warp if warp else Move
    if game.dogs[seat][origin]:
        entries = [LegalAction(kind(origin, destination, 1, True), crew)]
        if crew > 1:
            entries.append(LegalAction(kind(origin, destination, 1, False), crew - 1))
        return entries
    return [LegalAction(kind(origin, destination, 1, False), crew)]


def _move_entries(game: DeepSpaceGame, seat: int) -> list[LegalAction]:
    if game.moves_left < 1:
        return []
    legal: list[LegalAction] = []
    origins = game.places_of(seat)
    for origin in origins:
        for destination in BOARD.links[origin]:
            if game.is_planet(destination) and not game.shielded(seat, destination):
                legal.extend(_crew_entries(game, seat, origin, destination, warp=False))
    if game.gems[seat] >= 1:
        for origin in origins:
            if origin not in BOARD.warp:
                continue
            for destination in sorted(BOARD.warp):
                if destination != origin and game.is_planet(destination) and \
                        not game.shielded(seat, destination):
                    legal.extend(_crew_entries(game, seat, origin, destination, warp=True))
    return legal
