"""A Strike game in progress: the work area a rule runs in, and the turn's flow through it.

`StrikeGame` is the mutable copy of a `StrikeState` every rule changes (see core.working). Its
methods are the steps the other modules share: the priority order of the windows, drawing from
the two decks, taking a domination coin (which can end the game), starting and ending a turn,
clearing a battle, and the ranking at the end. The numbers the rules share live here too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from risk_rules.engine.core.deck import draw_card
from risk_rules.engine.core.ruleset import Event
from risk_rules.engine.core.windows import ResponseWindow, priority_order
from risk_rules.engine.core.working import (
    AS_LIST,
    AS_LISTS,
    AS_SORTED_LISTS,
    Thawed,
    WorkingState,
)
from risk_rules.engine.strike.cards import DOMINATION, continent_of, of_continent
from risk_rules.engine.strike.model import (
    NO_CONTINENT,
    NOBODY,
    CoinTaken,
    ContinentCardsDrawn,
    Deck,
    DeckShuffled,
    GameEnded,
    Phase,
    StrikeOptions,
    StrikeState,
    TacticPlay,
    TacticsDrawn,
    TurnEnded,
    TurnStarted,
)

DRAWS_PER_TURN = 2
BOMBARD_VALUE = 6
COINS_TO_WIN = 2
NO_SIDE = 0


class StrikeGame(WorkingState[StrikeState]):
    """A mutable copy of one StrikeState for the duration of one rule application."""

    thawed: ClassVar[Mapping[str, Thawed]] = {
        "continents": AS_SORTED_LISTS, "hands": AS_SORTED_LISTS, "coins": AS_LIST,
        "out": AS_LIST, "troops": AS_LISTS, "sides": AS_LIST, "windows": AS_LIST,
        "plays": AS_LIST,
    }
    finished_phase = Phase.FINISHED

    options: StrikeOptions
    phase: Phase
    continents: list[list[int]]
    hands: list[list[int]]
    continent_deck: tuple[int, ...]
    tactics_deck: tuple[int, ...]
    surrender: tuple[int, ...]
    tactics_discard: tuple[int, ...]
    coins: list[int]
    defender: int
    from_continent: int
    to_continent: int
    troops: list[list[int]]
    sides: list[int]
    attack_dice: tuple[int, ...]
    defence_dice: tuple[int, ...]
    rolls: int
    windows: list[ResponseWindow]
    plays: list[TacticPlay]

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    def out_seats(self) -> set[int]:
        return {s for s in range(self.seats) if self.out[s]}

    def priority(self, exclude: set[int] | None = None) -> tuple[int, ...]:
        """Active player, defender, then clockwise from the active player; live seats only."""
        return priority_order(
            self.current, self.seats, defender=self.defender,
            exclude=self.out_seats() | (exclude or set()),
        )

    def draw_continent(self, seat: int, count: int) -> None:
        drawn: list[int] = []
        for _ in range(count):
            result = draw_card(self.continent_deck, self.surrender, self.rng)
            if result.reshuffled:
                self.emit(DeckShuffled(Deck.CONTINENT, result.reshuffled))
            self.continent_deck, self.surrender = result.deck, result.discard
            if result.card is not None:
                drawn.append(result.card)
        self.continents[seat].extend(drawn)
        self.emit(ContinentCardsDrawn(seat, tuple(drawn)))
        for continent in sorted({continent_of(c) for c in drawn}):
            self.gained(seat, continent)

    def draw_tactics(self, seat: int, count: int) -> None:
        drawn: list[int] = []
        for _ in range(count):
            result = draw_card(self.tactics_deck, self.tactics_discard, self.rng)
            if result.reshuffled:
                self.emit(DeckShuffled(Deck.TACTICS, result.reshuffled))
            self.tactics_deck, self.tactics_discard = result.deck, result.discard
            if result.card is not None:
                drawn.append(result.card)
        self.hands[seat].extend(drawn)
        self.emit(TacticsDrawn(seat, tuple(drawn)))

    def discard(self, cards: Sequence[int]) -> None:
        self.tactics_discard = self.tactics_discard + tuple(cards)

    def gained(self, seat: int, continent: int) -> None:
        """After `seat` gained cards of `continent`: take its coin when at the number."""
        if self.finished or self.out[seat]:
            return
        held = len(of_continent(self.continents[seat], continent))
        if held < DOMINATION[continent] or self.coins[continent] == seat:
            return
        previous = self.coins[continent]
        self.coins[continent] = seat
        self.emit(CoinTaken(seat, continent, previous))
        if self.coins.count(seat) >= COINS_TO_WIN:
            self.finish(seat, "domination")

    def start_turn(self, seat: int) -> None:
        if not self.take_turn(seat):
            return
        self.phase = Phase.DRAW
        self.emit(TurnStarted(seat, self.turn))

    def end_turn(self) -> None:
        self.clear_battle()
        self.emit(TurnEnded(self.current))
        self.start_turn(self.next_live_seat(self.current))

    def clear_battle(self) -> None:
        self.defender = NOBODY
        self.from_continent = self.to_continent = NO_CONTINENT
        self.sides = [NO_SIDE] * self.seats
        self.attack_dice = self.defence_dice = ()
        self.rolls = 0
        self.windows = []
        for play in self.plays:  # a chain cut short (a resignation): its cards are discarded
            self.discard((play.card_id,))
        self.plays = []

    def standing(self, seat: int) -> tuple[int, ...]:
        """Coins, then continent cards, then tactics cards."""
        return -self.coins.count(seat), -len(self.continents[seat]), -len(self.hands[seat])

    def ended(self, winner: int, ranking: tuple[int, ...], reason: str) -> Event:
        return GameEnded(winner, ranking, reason)

    def wind_up(self) -> None:
        for play in self.plays:  # a chain cut short by the end: its cards are discarded
            self.discard((play.card_id,))
        self.plays = []
        self.windows = []
