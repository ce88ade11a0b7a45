"""A Deep Space game in progress: the work area a rule runs in, and the turn's flow through it.

`DeepSpaceGame` is the mutable copy of a `DeepSpaceState` every rule changes, and the one the
listing of legal actions asks its questions of (see core.working). Its methods are the steps
the other modules share: what is on the board, the supplies and the bank, drawing and
discarding cards, starting and ending a turn (with the replenishment), the space dog's
aftermath, and the ranking at the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from risk_rules.engine.core.deck import draw_card
from risk_rules.engine.core.ruleset import Event
from risk_rules.engine.core.working import (
    AS_LIST,
    AS_LISTS,
    AS_SORTED_LISTS,
    Thawed,
    WorkingState,
)
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD as BOARD
from risk_rules.engine.deep_space.board import NODES
from risk_rules.engine.deep_space.model import (
    FORCE_FIELD_TOKENS,
    HAND_SIZE,
    MOVES_PER_TURN,
    NONE,
    SPACE_DOG_TOKENS,
    CardDiscarded,
    CardDrawn,
    DeckShuffled,
    DeepSpaceOptions,
    DeepSpaceState,
    DogReturned,
    ForceFieldExpired,
    GameEnded,
    Phase,
    Replenished,
    Resource,
    TurnEnded,
    TurnStarted,
)


def name_of(node: int) -> str:
    return BOARD.names[node] if 0 <= node < NODES else f"node {node}"


class DeepSpaceGame(WorkingState[DeepSpaceState]):
    """A mutable copy of one DeepSpaceState for the duration of one rule application (or one
    listing of legal actions, which asks the same questions)."""

    thawed: ClassVar[Mapping[str, Thawed]] = {
        "recruits": AS_LISTS, "supply": AS_LIST, "bases": AS_SORTED_LISTS, "gems": AS_LIST,
        "ore": AS_LIST, "dogs": AS_LISTS, "force_fields": AS_LIST, "hands": AS_SORTED_LISTS,
        "mined": AS_LIST, "out": AS_LIST,
    }
    finished_phase = Phase.FINISHED

    options: DeepSpaceOptions
    phase: Phase
    stations: tuple[int, ...]
    recruits: list[list[int]]
    supply: list[int]
    bases: list[list[int]]
    gems: list[int]
    ore: list[int]
    bank_gems: int
    bank_ore: int
    dogs: list[list[int]]
    force_fields: list[int]
    hands: list[list[int]]
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    moves_left: int
    mined: list[int]
    battle_cry: bool
    dog_planet: int
    dog_seat: int

    def __init__(self, s: DeepSpaceState) -> None:
        super().__init__(s)
        self.in_play = BOARD.layouts[s.options.players].in_play

    # ---- small queries -------------------------------------------------------------------

    def is_planet(self, node: int) -> bool:
        """A planet that exists for this game (covered planets do not)."""
        return BOARD.is_planet(node) and self.in_play[node]

    def planets(self) -> range:
        return range(BOARD.planets)

    def occupant(self, planet: int, besides: int) -> int:
        """The seat other than `besides` with recruits on `planet`, or -1 (there is at most one:
        a battle leaves only one colour)."""
        for seat in range(self.seats):
            if seat != besides and self.recruits[seat][planet] > 0:
                return seat
        return NONE

    def shielded(self, seat: int, node: int) -> bool:
        """An opponent's force field keeps `seat` off `node`."""
        owner = self.force_fields[node]
        return owner not in (NONE, seat)

    def places_of(self, seat: int) -> list[int]:
        """Nodes with the seat's recruits: planets, and its home station."""
        row = self.recruits[seat]
        return [n for n in range(NODES) if row[n] > 0]

    # ---- supplies --------------------------------------------------------------------------

    def add_home(self, seat: int, count: int) -> int:
        """Up to `count` recruits from the seat's supply onto its home station; how many."""
        count = min(count, self.supply[seat])
        self.supply[seat] -= count
        self.recruits[seat][self.stations[seat]] += count
        return count

    def take_gems(self, seat: int, count: int) -> int:
        count = min(count, self.bank_gems)
        self.bank_gems -= count
        self.gems[seat] += count
        return count

    def take_ore(self, seat: int, count: int) -> int:
        count = min(count, self.bank_ore)
        self.bank_ore -= count
        self.ore[seat] += count
        return count

    def take(self, seat: int, resource: Resource, count: int) -> int:
        if resource == Resource.GEM:
            return self.take_gems(seat, count)
        return self.take_ore(seat, count)

    def bank(self, resource: Resource) -> int:
        return self.bank_gems if resource == Resource.GEM else self.bank_ore

    def pay_gems(self, seat: int, count: int) -> None:
        self.gems[seat] -= count
        self.bank_gems += count

    def dogs_in_bank(self) -> int:
        return SPACE_DOG_TOKENS - sum(sum(row) for row in self.dogs)

    def fields_in_bank(self) -> int:
        return FORCE_FIELD_TOKENS - sum(1 for owner in self.force_fields if owner != NONE)

    def remove_own(self, seat: int, node: int, count: int) -> None:
        """The seat's own recruits back to its supply (a card's cost). A dog left without a
        recruit goes back to the bank: the owner chose to leave it alone."""
        self.recruits[seat][node] -= count
        self.supply[seat] += count
        if self.recruits[seat][node] == 0 and self.dogs[seat][node]:
            self.return_dogs(seat, node)

    def return_dogs(self, seat: int, node: int) -> None:
        dogs = self.dogs[seat][node]
        self.dogs[seat][node] = 0
        self.emit(DogReturned(seat, node, dogs))

    def dog_destinations(self, seat: int, emptied: int) -> list[int]:
        return [
            p for p in self.planets()
            if p != emptied and self.is_planet(p) and self.recruits[seat][p] > 0
        ]

    # ---- cards -----------------------------------------------------------------------------

    def draw(self, seat: int) -> bool:
        drawn = draw_card(self.deck, self.discard, self.rng)
        if drawn.reshuffled:
            self.emit(DeckShuffled(drawn.reshuffled))
        self.deck, self.discard = drawn.deck, drawn.discard
        if drawn.card is None:
            return False
        self.hands[seat].append(drawn.card)
        self.emit(CardDrawn(seat, drawn.card))
        return True

    def refill(self, seat: int) -> None:
        while len(self.hands[seat]) < HAND_SIZE and self.draw(seat):
            pass

    def to_discard(self, cards: Sequence[int]) -> None:
        self.discard = self.discard + tuple(cards)

    # ---- setup and turns -------------------------------------------------------------------

    def start_turn(self, seat: int) -> None:
        if not self.take_turn(seat):
            return
        self.phase = Phase.START
        self.moves_left = MOVES_PER_TURN
        self.mined = []
        self.battle_cry = False
        self.emit(TurnStarted(seat, self.turn))
        for node, owner in enumerate(self.force_fields):
            if owner == seat:
                self.force_fields[node] = NONE
                self.emit(ForceFieldExpired(seat, node))
        self.refill(seat)

    def end_turn(self, discard: int) -> None:
        seat = self.current
        placed = self.add_home(seat, 1 + len(self.bases[seat]))
        self.emit(Replenished(seat, placed))
        if discard != NONE:
            self.hands[seat].remove(discard)
            self.to_discard((discard,))
            self.emit(CardDiscarded(seat, discard))
            self.draw(seat)
        self.refill(seat)
        self.battle_cry = False
        self.emit(TurnEnded(seat))
        self.start_turn(self.next_live_seat(seat))

    def standing(self, seat: int) -> tuple[int, ...]:
        """Bases, then recruits on the board (home stations included), then gems and ore
        together."""
        return (
            -len(self.bases[seat]), -sum(self.recruits[seat]), -(self.gems[seat] + self.ore[seat])
        )

    def ended(self, winner: int, ranking: tuple[int, ...], reason: str) -> Event:
        return GameEnded(winner, ranking, reason)

    def wind_up(self) -> None:
        self.moves_left = 0
        self.battle_cry = False
        self.dog_planet = self.dog_seat = NONE

    def leave_mining(self) -> None:
        """Any action but mining (and the opening trade) closes mining for the turn."""
        if self.phase in (Phase.START, Phase.MINING):
            self.phase = Phase.MAIN

    def after_dog(self) -> None:
        self.dog_planet = self.dog_seat = NONE
        self.phase = Phase.MAIN
        if self.out[self.current]:  # the mover resigned while the dog's owner decided
            self.start_turn(self.next_live_seat(self.current))
