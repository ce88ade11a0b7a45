"""A classic game in progress: the work area a rule runs in, and the turn's flow through it.

`ClassicGame` is the mutable copy of a `ClassicState` that every rule but the quick attack and
the move-in changes (see core.working). Its methods are the steps the rules share: placing and
moving armies, starting and ending a turn (with the card a conquest earns), a seat going out,
and the ranking at the end. Setup, battle and the per-action handlers build on it in their
own modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.classic.model import (
    ArmiesMoved,
    ArmiesPlaced,
    CardDrawn,
    ClassicOptions,
    ClassicState,
    DeckShuffled,
    GameEnded,
    Phase,
    TurnEnded,
    TurnStarted,
)
from risk_rules.engine.core.deck import draw_card
from risk_rules.engine.core.ruleset import Event
from risk_rules.engine.core.working import AS_LIST, Thawed, WorkingState

UNCLAIMED = -1
NO_TERRITORY = -1
MUST_TRADE_AT = 5  # cards in hand that force a trade before placing
ELIMINATION_TRADE_AT = 6  # cards after a takeover that force trading down to 4


class ClassicGame(WorkingState[ClassicState]):
    """A mutable copy of one ClassicState for the duration of one rule application.

    Hands stay tuples (sorted, as the state keeps them); a rule that changes one stores a new
    tuple, so a copy costs one list per board-sized field and nothing per hand. The state's
    `eliminated` flags are `out` here, as in every variant."""

    thawed: ClassVar[Mapping[str, Thawed]] = {
        "owner": AS_LIST, "armies": AS_LIST, "to_place": AS_LIST, "hands": AS_LIST,
        "eliminated": AS_LIST,
    }
    out_field = "eliminated"
    finished_phase = Phase.FINISHED

    options: ClassicOptions
    phase: Phase
    owner: list[int]
    armies: list[int]
    to_place: list[int]
    hands: list[tuple[int, ...]]
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    trades_done: int
    pending: int
    bonus_used: bool
    conquered: bool
    resume_attack: bool
    attack_from: int
    attack_to: int
    attack_dice: int

    @property
    def neutral(self) -> int:
        """The neutral's owner id: the 2-player neutral, and resigned players' territories."""
        return self.options.players

    def territories_of(self, seat: int) -> list[int]:
        return [t for t in range(TERRITORIES) if self.owner[t] == seat]

    def place(self, seat: int, territory: int, count: int) -> None:
        self.armies[territory] += count
        self.emit(ArmiesPlaced(seat, territory, count))

    def move(self, seat: int, src: int, dst: int, count: int) -> None:
        self.armies[src] -= count
        self.armies[dst] += count
        self.emit(ArmiesMoved(seat, src, dst, count))

    def spread_at_random(self, seat: int) -> None:
        """`auto_place`: spread the remaining armies round-robin over shuffled own territories."""
        own = self.rng.shuffled(self.territories_of(seat))
        counts = dict.fromkeys(own, 0)
        for i in range(self.to_place[seat]):
            counts[own[i % len(own)]] += 1
        self.to_place[seat] = 0
        for territory in sorted(counts):
            if counts[territory]:
                self.place(seat, territory, counts[territory])

    # ---- turns -------------------------------------------------------------------------

    def reinforcements(self, seat: int) -> tuple[int, int]:
        owned = sum(1 for o in self.owner if o == seat)
        bonus = sum(
            CLASSIC_BOARD.regions[r].bonus for r in CLASSIC_BOARD.regions_held(self.owner, seat)
        )
        return max(3, owned // 3), bonus

    def start_turn(self, seat: int) -> None:
        if not self.take_turn(seat):
            return
        self.conquered = False
        self.bonus_used = False
        self.resume_attack = False
        self.attack_from = self.attack_to = NO_TERRITORY
        self.attack_dice = 0
        base, bonus = self.reinforcements(seat)
        self.pending = base + bonus
        self.phase = Phase.REINFORCE
        self.emit(TurnStarted(seat, self.turn, base + bonus, bonus))

    def leave_reinforce_when_done(self) -> None:
        if self.pending == 0 and len(self.hands[self.current]) < MUST_TRADE_AT:
            self.phase = Phase.ATTACK
            self.resume_attack = False

    def end_turn(self) -> None:
        seat = self.current
        if self.conquered and self.options.cards:
            drawn = draw_card(self.deck, self.discard, self.rng)
            if drawn.reshuffled:
                self.emit(DeckShuffled(drawn.reshuffled))
            self.deck, self.discard = drawn.deck, drawn.discard
            if drawn.card is not None:
                self.hands[seat] = tuple(sorted((*self.hands[seat], drawn.card)))
                self.emit(CardDrawn(seat, drawn.card))
        self.emit(TurnEnded(seat))
        self.start_turn(self.next_live_seat(seat))

    def go_out(self, seat: int) -> None:
        self.out[seat] = True
        self.out_order = (*self.out_order, seat)

    # ---- the end -----------------------------------------------------------------------

    def standing(self, seat: int) -> tuple[int, ...]:
        """Territories held, then armies on them."""
        held = [t for t in range(TERRITORIES) if self.owner[t] == seat]
        return -len(held), -sum(self.armies[t] for t in held)

    def ended(self, winner: int, ranking: tuple[int, ...], reason: str) -> Event:
        return GameEnded(winner, ranking, reason)

    def wind_up(self) -> None:
        self.pending = 0
