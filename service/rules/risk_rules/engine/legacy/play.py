"""A Legacy game in progress: the work area a rule runs in, and the turn's flow through it.

`LegacyGame` is the mutable copy of a `LegacyState` every rule changes (see core.working),
with the campaign's world (`board`, `content`) and the seats' powers read once beside it. Its
methods are the steps the other modules share: the HQ placements in turn, the sideboard and
the cards due at the end of a turn, the start of a turn (the scar window, Red Stars, joining
or recruiting), a seat going out, the end of a turn, and the ranking at the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from risk_rules.engine.classic.board import TERRITORIES
from risk_rules.engine.core.deck import draw_card
from risk_rules.engine.core.ruleset import Event
from risk_rules.engine.core.windows import ResponseWindow, open_window, priority_order
from risk_rules.engine.core.working import (
    AS_LIST,
    AS_SORTED_LIST,
    AS_SORTED_LISTS,
    Thawed,
    WorkingState,
)
from risk_rules.engine.legacy.cards import is_coin
from risk_rules.engine.legacy.content import board_of
from risk_rules.engine.legacy.model import (
    NO_TERRITORY,
    NOBODY,
    CardChoiceOffered,
    CardTaken,
    DeckShuffled,
    GameEnded,
    LegacyOptions,
    LegacyState,
    Phase,
    PlayerEliminated,
    SideboardChanged,
    TroopsPlaced,
    TurnEnded,
    TurnStarted,
    WindowKind,
)
from risk_rules.engine.legacy.reckoning import (
    maneuvers,
    recruitment,
    red_stars,
    start_territories,
)
from risk_rules.engine.legacy.world import Power


class LegacyGame(WorkingState[LegacyState]):
    """A mutable copy of one LegacyState for the duration of one rule application."""

    thawed: ClassVar[Mapping[str, Thawed]] = {
        "owner": AS_LIST, "troops": AS_LIST, "hqs": AS_LIST, "stars": AS_LIST,
        "missiles": AS_LIST, "scar_cards": AS_LIST, "hands": AS_SORTED_LISTS,
        "coin_pile": AS_SORTED_LIST, "sideboard": AS_LIST, "scars": AS_LIST,
        "fortifications": AS_LIST, "attack_missiles": AS_LIST, "defence_missiles": AS_LIST,
        "windows": AS_LIST, "eliminated": AS_LIST, "out": AS_LIST,
    }
    finished_phase = Phase.FINISHED

    options: LegacyOptions
    phase: Phase
    owner: list[int]
    troops: list[int]
    hqs: list[int]
    stars: list[int]
    missiles: list[int]
    scar_cards: list[int]
    hands: list[list[int]]
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    coin_pile: list[int]
    sideboard: list[int]
    scars: list[int]
    fortifications: list[int]
    pending: int
    traded: bool
    conquered: bool
    expansions: int
    maneuvered: bool
    ferocity_target: int
    protected: tuple[int, ...]
    draws_left: int
    attack_from: int
    attack_to: int
    attack_count: int
    defence_count: int
    attack_dice: tuple[int, ...]
    defence_dice: tuple[int, ...]
    attack_missiles: list[int]
    defence_missiles: list[int]
    windows: list[ResponseWindow]
    eliminated: list[bool]

    def __init__(self, s: LegacyState) -> None:
        super().__init__(s)
        self.board = board_of(s.options.world)
        self.content = self.board.content
        self.powers = tuple(choice.power for choice in s.options.world.factions)

    # ---- shared pieces -----------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    def territories_of(self, seat: int) -> list[int]:
        return [t for t in range(TERRITORIES) if self.owner[t] == seat]

    def red_stars(self, seat: int) -> int:
        return red_stars(self.owner, self.hqs, self.stars, seat)

    def has(self, seat: int, power: Power) -> bool:
        return self.powers[seat] is power

    def defender(self) -> int:
        return self.owner[self.attack_to] if self.attack_to >= 0 else NOBODY

    def starts_for(self, seat: int, *, hq: bool) -> list[int]:
        return start_territories(
            self.board, seat, owner=self.owner, hqs=self.hqs, scars=self.scars,
            forts=self.fortifications, hq=hq,
        )

    def place(self, seat: int, territory: int, count: int) -> None:
        self.troops[territory] += count
        self.emit(TroopsPlaced(seat, territory, count))

    def give_back(self, cards: Sequence[int]) -> None:
        """Spent cards: territory cards to the discard (face up), coins to their pile."""
        self.discard = self.discard + tuple(c for c in cards if not is_coin(c))
        self.coin_pile.extend(c for c in cards if is_coin(c))

    def check_stars(self, seat: int) -> bool:
        """A seat at the Red Stars needed wins at once."""
        if self.red_stars(seat) >= self.content.stars_to_win:
            self.finish(seat, "red_stars")
            return True
        return False

    def next_hq_seat(self) -> None:
        """Clockwise from the seat that just placed: the next live seat without an HQ, or the
        first turn once everyone has one."""
        for step in range(1, self.seats + 1):
            seat = (self.current + step) % self.seats
            if not self.out[seat] and self.hqs[seat] < 0:
                self.current = seat
                return
        first = self.first_seat if not self.out[self.first_seat] else \
            self.next_live_seat(self.first_seat)
        self.start_turn(first)

    # ---- cards -------------------------------------------------------------------------

    def draw_territory_card(self) -> int:
        drawn = draw_card(self.deck, self.discard, self.rng)
        if drawn.reshuffled:
            self.emit(DeckShuffled(drawn.reshuffled))
        self.deck, self.discard = drawn.deck, drawn.discard
        return NO_TERRITORY if drawn.card is None else drawn.card

    def slide_in(self, gap: int) -> None:
        """The slots before `gap` move one slot on, and slot 1 takes a new card."""
        for slot in range(gap, 0, -1):
            self.sideboard[slot] = self.sideboard[slot - 1]
        self.sideboard[0] = self.draw_territory_card()

    def matching_slots(self, seat: int) -> list[int]:
        return [
            slot for slot, card in enumerate(self.sideboard)
            if card >= 0 and self.owner[card] == seat
        ]

    def take_slot(self, seat: int, slot: int) -> None:
        card = self.sideboard[slot]
        self.hands[seat].append(card)
        self.emit(CardTaken(seat, card, slot))
        if self.has(seat, Power.CARD_TROOP):
            self.place(seat, card, 1)
        self.sideboard[slot] = NO_TERRITORY
        self.slide_in(slot)
        self.emit(SideboardChanged(tuple(self.sideboard), NO_TERRITORY))

    def take_coin(self, seat: int) -> None:
        """No face-up card shows a territory of the seat's: a coin card (if any are left), and
        the card in the last slot is pushed off to the discard."""
        if self.coin_pile:
            coin = min(self.coin_pile)
            self.coin_pile.remove(coin)
            self.hands[seat].append(coin)
            self.emit(CardTaken(seat, coin, NO_TERRITORY))
        last = len(self.sideboard) - 1
        pushed = self.sideboard[last]
        if pushed >= 0:
            self.discard = (*self.discard, pushed)
        self.sideboard[last] = NO_TERRITORY
        self.slide_in(last)
        self.emit(SideboardChanged(tuple(self.sideboard), pushed))

    def process_draws(self) -> None:
        """Take the cards due at the end of the turn; stop for a choice between slots."""
        seat = self.current
        while self.draws_left > 0:
            slots = self.matching_slots(seat)
            if len(slots) > 1:
                self.phase = Phase.DRAW
                self.emit(CardChoiceOffered(seat, tuple(slots)))
                return
            if slots:
                self.take_slot(seat, slots[0])
            else:
                self.take_coin(seat)
            self.draws_left -= 1
        self.finish_turn()

    # ---- turns -------------------------------------------------------------------------

    def start_turn(self, seat: int) -> None:
        if not self.take_turn(seat):
            return
        self.phase = Phase.START
        self.pending = 0
        self.traded = self.conquered = self.maneuvered = False
        self.expansions = 0
        self.ferocity_target = NO_TERRITORY
        self.protected = ()
        self.draws_left = 0
        self.clear_attack()
        self.emit(TurnStarted(seat, self.turn))
        order = self.scar_order()
        if order:
            self.windows = [open_window(WindowKind.SCAR, order)]
        else:
            self.begin_start()

    def scar_order(self) -> tuple[int, ...]:
        """Seats asked in the scar window: live seats holding a scar card, in priority order."""
        if all(self.scars):
            return ()
        return priority_order(
            self.current, self.seats,
            exclude={s for s in range(self.seats) if self.out[s] or not self.scar_cards[s]},
        )

    def begin_start(self) -> None:
        """The scar window has closed: the active seat buys Red Stars, then joins or recruits
        (the rulebook's order: the recruits are announced once the purchases are over)."""
        seat = self.current
        self.phase = Phase.START
        if not self.territories_of(seat):
            self.settle_join()
            return
        if not self.may_buy_star(seat):
            self.announce_recruits()

    def may_buy_star(self, seat: int) -> bool:
        return len(self.hands[seat]) >= self.content.star_cost

    def announce_recruits(self) -> None:
        """The Red Star purchases are over: the recruits are told (and Khan's HQ troops
        placed), and the seat recruits."""
        seat = self.current
        recruited = recruitment(self.board, self.owner, self.hqs, self.powers[seat], seat)
        self.pending = recruited.base + recruited.continent_bonus
        self.phase = Phase.RECRUIT
        self.emit(recruited)
        if recruited.hq_troops:
            for h in self.hqs:
                if h >= 0 and self.owner[h] == seat:
                    self.place(seat, h, 1)

    def settle_join(self) -> None:
        """A seat that must join the war with nowhere to go and nothing left to buy is out."""
        seat = self.current
        if self.starts_for(seat, hq=False):
            return
        if len(self.hands[seat]) >= self.content.star_cost:
            return  # it may still buy Red Stars (EndTurn gives up)
        self.eliminate(seat)

    def eliminate(self, seat: int) -> None:
        self.eliminated[seat] = True
        self.go_out(seat)
        self.emit(PlayerEliminated(seat))
        if self.after_leaving("last_standing"):
            return
        if seat == self.current:
            self.finish_turn()

    def go_out(self, seat: int) -> None:
        """A seat stops playing: its cards go back, its scar card returns to the supply."""
        self.out[seat] = True
        self.out_order = (*self.out_order, seat)
        self.give_back(sorted(self.hands[seat]))
        self.hands[seat] = []
        self.scar_cards[seat] = 0
        self.missiles[seat] = 0

    def after_leaving(self, reason: str) -> bool:
        """The last seat still in wins; True when that ended the game."""
        live = self.live_seats()
        if len(live) == 1:
            self.finish(live[0], reason)
            return True
        return False

    def finish_turn(self) -> None:
        self.clear_attack()
        self.windows = []
        self.emit(TurnEnded(self.current))
        self.start_turn(self.next_live_seat(self.current))

    def end_turn(self) -> None:
        """After the maneuver: the cards due, then the next seat."""
        seat = self.current
        self.draws_left = int(self.conquered)
        if self.has(seat, Power.EXPANSION_CARD) and \
                self.expansions >= self.content.expansion_card_at:
            self.draws_left += 1
        self.process_draws()

    def clear_attack(self) -> None:
        self.attack_from = self.attack_to = NO_TERRITORY
        self.attack_count = self.defence_count = 0
        self.attack_dice = self.defence_dice = ()
        self.attack_missiles = []
        self.defence_missiles = []

    def standing(self, seat: int) -> tuple[int, ...]:
        """Red Stars, then territories, then troops on them."""
        held = self.territories_of(seat)
        return -self.red_stars(seat), -len(held), -sum(self.troops[t] for t in held)

    def ended(self, winner: int, ranking: tuple[int, ...], reason: str) -> Event:
        return GameEnded(winner, ranking, reason)

    def wind_up(self) -> None:
        self.windows = []
        self.pending = 0
        self.draws_left = 0

    def after_attack_phase(self) -> None:
        """Leaving the attack phase: the maneuver (if any is possible), else the turn ends."""
        seat = self.current
        if self.maneuvered or not maneuvers(self.owner, self.troops, seat, self.powers[seat]):
            self.end_turn()
        else:
            self.phase = Phase.MANEUVER
