"""Classic Risk rules: setup, reinforce (with cards), attack, conquest, fortify, winning.

`apply` copies the frozen state into a `_Game` work area, runs the rule, and freezes the result,
so callers only ever see immutable values. Every die, shuffle and draw goes through the game's
own generator and is reported as an event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import ClassVar

from risk_service.engine.classic import bot
from risk_service.engine.classic.board import (
    CLASSIC_BOARD,
    DECK_SIZE,
    TERRITORIES,
    card_territory,
)
from risk_service.engine.classic.cards import escalating_value, is_set, set_value, sets_in
from risk_service.engine.classic.listings import attack_listing, fortify_listing
from risk_service.engine.classic.model import (
    ACTION_TYPES,
    EVENT_TYPES,
    ArmiesMoved,
    ArmiesPlaced,
    Attack,
    AttackDeclared,
    AttackEnded,
    BattleResolved,
    CardDrawn,
    CardsTraded,
    ClaimTerritory,
    ClassicOptions,
    ClassicState,
    ClassicView,
    DeckShuffled,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    FortifyMode,
    GameEnded,
    MoveIn,
    OrderRolled,
    Phase,
    PlaceArmies,
    PlaceNeutral,
    PlayerEliminated,
    PlayerResigned,
    SetupMode,
    TerritoriesDealt,
    TerritoryClaimed,
    TerritoryConquered,
    TradeCards,
    TradeSchedule,
    TurnEnded,
    TurnStarted,
)
from risk_service.engine.core.deck import draw_card
from risk_service.engine.core.dice import battle_losses, sort_high
from risk_service.engine.core.errors import IllegalAction, Reason
from risk_service.engine.core.guards import check_action, check_resign
from risk_service.engine.core.rng import Pcg32
from risk_service.engine.core.ruleset import Action, Decision, Event, LegalAction, Outcome
from risk_service.engine.core.values import build, evolve

STARTING_ARMIES = {3: 35, 4: 30, 5: 25, 6: 20}
TWO_PLAYER_ARMIES = 40
TWO_PLAYER_PILE = 14
UNCLAIMED = -1
NO_TERRITORY = -1
MUST_TRADE_AT = 5  # cards in hand that force a trade before placing
ELIMINATION_TRADE_AT = 6  # cards after a takeover that force trading down to 4


def bonus_choices(
    owner: Sequence[int], bonus_used: bool, seat: int, cards: Sequence[int]
) -> list[int]:
    """Where the +2 may go: a traded card's territory the seat holds, once per turn (-1: none)."""
    if bonus_used:
        return [-1]
    shown = [card_territory(c) for c in cards]
    return [t for t in shown if t is not None and owner[t] == seat] or [-1]


def defence_decider(owner: Sequence[int], target: int, attacker: int, players: int) -> int | None:
    """Who chooses the defence dice: the defender; for the 2-player neutral the other
    player; for a resigned player's neutral territory nobody (it rolls the most)."""
    defender = owner[target]
    if defender == players:
        return 1 - attacker if players == 2 else None
    return defender


def _fail(reason: Reason, message: str) -> IllegalAction:
    return IllegalAction(reason, message)


Battle = tuple[tuple[int, ...], tuple[int, ...], int, int]


def _roll_battle(rng: Pcg32, attack_dice: int, defence_dice: int) -> Battle:
    """(attack roll, defence roll, each sorted high to low, attacker losses, defender losses):
    the attacker's dice are drawn first, then the defender's."""
    rolled = rng.dice(attack_dice + defence_dice)
    known = _BATTLES.get(attack_dice)
    if known is None or defence_dice > 2:  # never in a game: not remembered
        return _battle(rolled, attack_dice)
    battle = known.get(rolled)
    if battle is None:
        battle = known[rolled] = _battle(rolled, attack_dice)
    return battle


def _battle(rolled: tuple[int, ...], attack_dice: int) -> Battle:
    """`_roll_battle`'s result for the dice `rolled`, the first `attack_dice` of them the
    attacker's."""
    attack_roll = sort_high(rolled[:attack_dice])
    defence_roll = sort_high(rolled[attack_dice:])
    lost_a, lost_d = battle_losses(attack_roll, defence_roll)
    return attack_roll, defence_roll, lost_a, lost_d


# Every battle's result by its attack dice and the dice rolled, as `_battle` works it out (the
# same values; sorting and pairing the dice cost more than the lookup): at most 10,836 entries
# of 3 to 5 dice (6**2 + 6**3 with 1 attack die, 6**3 + 6**4 with 2, 6**4 + 6**5 with 3).
_BATTLES: dict[int, dict[tuple[int, ...], Battle]] = {1: {}, 2: {}, 3: {}}


class _Game:
    """A mutable copy of one ClassicState for the duration of one rule application.

    Hands stay tuples (sorted, as the state keeps them); a rule that changes one stores a new
    tuple, so a copy costs one list per board-sized field and nothing per hand."""

    def __init__(self, s: ClassicState) -> None:
        self.options = s.options
        self.seed = s.seed
        self.rng = Pcg32(s.rng_state, s.rng_inc)
        self.phase = s.phase
        self.current = s.current
        self.turn = s.turn
        self.first_seat = s.first_seat
        self.owner = list(s.owner)
        self.armies = list(s.armies)
        self.to_place = list(s.to_place)
        self.hands = list(s.hands)
        self.deck = s.deck
        self.discard = s.discard
        self.trades_done = s.trades_done
        self.pending = s.pending
        self.bonus_used = s.bonus_used
        self.conquered = s.conquered
        self.resume_attack = s.resume_attack
        self.eliminated = list(s.eliminated)
        self.out_order = s.out_order
        self.attack_from = s.attack_from
        self.attack_to = s.attack_to
        self.attack_dice = s.attack_dice
        self.winner = s.winner
        self.ranking = s.ranking
        self.end_reason = s.end_reason
        self.events: list[Event] = []

    def freeze(self) -> ClassicState:
        return build(ClassicState, {
            "options": self.options,
            "seed": self.seed,
            "rng_state": self.rng.state,
            "rng_inc": self.rng.inc,
            "phase": self.phase,
            "current": self.current,
            "turn": self.turn,
            "first_seat": self.first_seat,
            "owner": tuple(self.owner),
            "armies": tuple(self.armies),
            "to_place": tuple(self.to_place),
            "hands": tuple(self.hands),
            "deck": self.deck,
            "discard": self.discard,
            "trades_done": self.trades_done,
            "pending": self.pending,
            "bonus_used": self.bonus_used,
            "conquered": self.conquered,
            "resume_attack": self.resume_attack,
            "eliminated": tuple(self.eliminated),
            "out_order": self.out_order,
            "attack_from": self.attack_from,
            "attack_to": self.attack_to,
            "attack_dice": self.attack_dice,
            "winner": self.winner,
            "ranking": self.ranking,
            "end_reason": self.end_reason,
        })

    # ---- shared pieces -----------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.options.players

    @property
    def neutral(self) -> int:
        """The neutral's owner id: the 2-player neutral, and resigned players' territories."""
        return self.options.players

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def roll_off(self, purpose: str, contenders: list[int]) -> int:
        while True:
            rolls = self.rng.dice(len(contenders))
            high = max(rolls)
            best = [seat for seat, roll in zip(contenders, rolls, strict=True) if roll == high]
            winner = best[0] if len(best) == 1 else -1
            self.emit(OrderRolled(purpose, tuple(contenders), rolls, winner))
            if winner >= 0:
                return winner
            contenders = best

    def territories_of(self, seat: int) -> list[int]:
        return [t for t in range(TERRITORIES) if self.owner[t] == seat]

    def live_seats(self) -> list[int]:
        return [s for s in range(self.seats) if not self.eliminated[s]]

    def next_live_seat(self, after: int) -> int:
        for step in range(1, self.seats + 1):
            seat = (after + step) % self.seats
            if not self.eliminated[seat]:
                return seat
        raise AssertionError("no live seat")

    def place(self, seat: int, territory: int, count: int) -> None:
        self.armies[territory] += count
        self.emit(ArmiesPlaced(seat, territory, count))

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

    # ---- setup -------------------------------------------------------------------------

    def setup_many(self) -> None:
        n = self.seats
        start = self.roll_off("setup", list(range(n)))
        self.to_place = [STARTING_ARMIES[n]] * n
        self.current = start
        if self.options.setup is SetupMode.RANDOM_DEAL:
            order = self.rng.shuffled(range(TERRITORIES))
            for k, territory in enumerate(order):
                seat = (start + k) % n
                self.owner[territory] = seat
                self.armies[territory] = 1
                self.to_place[seat] -= 1
            self.emit(TerritoriesDealt(tuple(self.owner)))
        if self.options.cards:
            self.deck = self.rng.shuffled(range(DECK_SIZE))
            self.emit(DeckShuffled(DECK_SIZE))
        if self.options.setup is SetupMode.CLAIM:
            self.phase = Phase.CLAIM
        elif self.options.auto_place:
            for seat in range(n):
                self.spread_at_random(seat)
            self.finish_setup()
        else:
            self.phase = Phase.SETUP_PLACE

    def setup_two(self) -> None:
        piles = self.rng.shuffled(range(TERRITORIES))
        for k, territory in enumerate(piles):
            self.owner[territory] = min(k // TWO_PLAYER_PILE, 2)  # seat 0, seat 1, neutral (2)
            self.armies[territory] = 1
        self.emit(TerritoriesDealt(tuple(self.owner)))
        self.to_place = [TWO_PLAYER_ARMIES - TWO_PLAYER_PILE] * 3
        if self.options.cards:  # the wilds join the deck after the deal
            self.deck = self.rng.shuffled(range(DECK_SIZE))
            self.emit(DeckShuffled(DECK_SIZE))
        start = self.roll_off("setup", [0, 1])
        self.current = start
        if self.options.auto_place:
            for seat in (0, 1, self.neutral):
                self.spread_at_random(seat)
            self.finish_setup()
        else:
            self.phase = Phase.SETUP_PLACE
            self.pending = min(2, self.to_place[start])

    def advance_setup_many(self) -> None:
        """After a claim or a setup placement: the next seat clockwise with armies left."""
        if self.phase is Phase.CLAIM and UNCLAIMED in self.owner:
            self.current = self.next_live_seat(self.current)
            return
        self.phase = Phase.SETUP_PLACE
        for step in range(1, self.seats + 1):
            seat = (self.current + step) % self.seats
            if self.to_place[seat] > 0 and not self.eliminated[seat]:
                self.current = seat
                return
        self.finish_setup()

    def advance_setup_two(self) -> None:
        """2-player: two own armies, then one neutral army, then the other player."""
        seat = self.current
        if self.phase is Phase.SETUP_PLACE:
            if self.pending and self.to_place[seat]:
                return  # the seat may place its second army
            if self.to_place[self.neutral] > 0:
                self.phase = Phase.SETUP_NEUTRAL
                return
        if not any(self.to_place):
            self.finish_setup()
            return
        self.current = 1 - seat
        self.pending = min(2, self.to_place[self.current])
        self.phase = Phase.SETUP_PLACE if self.pending else Phase.SETUP_NEUTRAL

    def finish_setup(self) -> None:
        self.pending = 0
        self.first_seat = self.roll_off("first_turn", self.live_seats())
        self.start_turn(self.first_seat)

    # ---- turns -------------------------------------------------------------------------

    def reinforcements(self, seat: int) -> tuple[int, int]:
        owned = sum(1 for o in self.owner if o == seat)
        bonus = sum(
            CLASSIC_BOARD.regions[r].bonus for r in CLASSIC_BOARD.regions_held(self.owner, seat)
        )
        return max(3, owned // 3), bonus

    def start_turn(self, seat: int) -> None:
        if self.turn >= self.options.max_turns:
            self.finish(-1, "turn_cap")
            return
        self.turn += 1
        self.current = seat
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

    def ranked_seats(self, winner: int) -> tuple[int, ...]:
        """Winner first; the others still in by territories, then armies, then seat; then
        those who went out, the last one out first (the documented tiebreak)."""
        def key(seat: int) -> tuple[int, int, int, int]:
            held = [t for t in range(TERRITORIES) if self.owner[t] == seat]
            return (seat != winner, -len(held), -sum(self.armies[t] for t in held), seat)

        live = sorted((s for s in range(self.seats) if s not in self.out_order), key=key)
        return (*live, *reversed(self.out_order))

    def finish(self, winner: int, reason: str) -> None:
        self.phase = Phase.FINISHED
        self.winner = winner
        self.ranking = self.ranked_seats(winner)
        self.end_reason = reason
        self.pending = 0
        self.emit(GameEnded(winner, self.ranking, reason))

    # ---- combat ------------------------------------------------------------------------

    def go_out(self, seat: int) -> None:
        self.eliminated[seat] = True
        self.out_order = (*self.out_order, seat)

    def resign(self, seat: int) -> None:
        """The seat leaves: its pieces turn neutral, its cards are discarded, play goes on."""
        if self.phase is Phase.MOVE_IN and seat == self.current:
            self.move(seat, self.attack_from, self.attack_to, self.attack_dice)
            self.attack_from = self.attack_to = NO_TERRITORY
        for t in range(TERRITORIES):
            if self.owner[t] == seat:
                self.owner[t] = self.neutral
        self.discard = self.discard + self.hands[seat]
        self.hands[seat] = ()
        if seat < len(self.to_place):
            self.to_place[seat] = 0
        self.go_out(seat)
        self.emit(PlayerResigned(seat, self.neutral))
        live = self.live_seats()
        if len(live) == 1:
            if self.phase is Phase.MOVE_IN:
                self.move(self.current, self.attack_from, self.attack_to, self.attack_dice)
            self.finish(live[0], "resignation")
            return
        if self.phase is Phase.DEFEND and self.attack_to >= 0 and \
                self.owner[self.attack_to] == self.neutral and seat != self.current:
            self.resolve_battle(min(2, self.armies[self.attack_to]))  # the neutral defends
        if seat != self.current:
            return
        if self.phase in (Phase.CLAIM, Phase.SETUP_PLACE):
            self.advance_setup_many()
        elif self.phase not in (Phase.FINISHED,):
            self.attack_from = self.attack_to = NO_TERRITORY
            self.emit(TurnEnded(seat))
            self.start_turn(self.next_live_seat(seat))

    def defence_decider(self) -> int | None:
        return defence_decider(self.owner, self.attack_to, self.current, self.seats)

    def resolve_battle(self, defence: int) -> None:
        self.settle_battle(*_roll_battle(self.rng, self.attack_dice, defence))

    def settle_battle(
        self, attack_roll: tuple[int, ...], defence_roll: tuple[int, ...], lost_a: int, lost_d: int
    ) -> None:
        """The declared attack's battle, rolled: losses, then back to ATTACK or a conquest."""
        attacker = self.current
        src, dst = self.attack_from, self.attack_to
        defender = self.owner[dst]
        armies = self.armies
        armies[src] -= lost_a
        armies[dst] -= lost_d
        self.events.append(
            BattleResolved(attacker, defender, src, dst, attack_roll, defence_roll, lost_a, lost_d)
        )
        if armies[dst] > 0:
            self.phase = Phase.ATTACK
            self.attack_from = self.attack_to = NO_TERRITORY
            return
        self.conquer(attacker, defender, src, dst)

    def conquer(self, attacker: int, defender: int, src: int, dst: int) -> None:
        self.owner[dst] = attacker
        self.conquered = True
        self.emit(TerritoryConquered(attacker, dst, defender))
        if defender < self.seats and defender not in self.owner:
            self.go_out(defender)
            taken = self.hands[defender]
            self.hands[attacker] = tuple(sorted(self.hands[attacker] + taken))
            self.hands[defender] = ()
            self.emit(PlayerEliminated(defender, attacker, taken))
            if len(self.hands[attacker]) >= ELIMINATION_TRADE_AT:
                self.resume_attack = True
        if len(self.live_seats()) == 1:
            self.move(attacker, src, dst, self.attack_dice)
            self.finish(attacker, "conquest")
            return
        self.phase = Phase.MOVE_IN

    def move(self, seat: int, src: int, dst: int, count: int) -> None:
        self.armies[src] -= count
        self.armies[dst] += count
        self.emit(ArmiesMoved(seat, src, dst, count))


def _deciding_seat(state: ClassicState) -> int:
    """The one seat `decision(state)` names, or -1 once the game is over."""
    phase = state.phase
    if phase is Phase.DEFEND:
        decider = defence_decider(
            state.owner, state.attack_to, state.current, state.options.players
        )
        assert decider is not None, "a neutral without a decider never waits in DEFEND"
        return decider
    return -1 if phase is Phase.FINISHED else state.current


# Listed actions are frozen values, so the ones a board can produce are built once and shared by
# every listing instead of being rebuilt on each call (attacks: see classic.listings).

# Every Decision a game can be in (seat up to 6), built once: the one for `seat` deciding in
# `phase` is _DECISIONS[phase][seat].
_FINISHED = Decision((), "finished")
_DECISIONS = {
    phase: tuple(Decision((seat,), phase.name.lower()) for seat in range(7)) for phase in Phase
}
_CLAIM_ENTRIES = tuple(LegalAction(ClaimTerritory(t)) for t in range(TERRITORIES))
_NEUTRAL_ENTRIES = tuple(LegalAction(PlaceNeutral(t)) for t in range(TERRITORIES))
_DEFEND_ENTRIES = (LegalAction(Defend(1)), LegalAction(Defend(2)))

_LINKED = tuple(frozenset(linked) for linked in CLASSIC_BOARD.links)
_ACTION_TYPE_SET = frozenset(ACTION_TYPES)


@lru_cache(maxsize=256)
def _next_trade_value(schedule: TradeSchedule, trades_done: int) -> int:
    """What the next set traded is worth (0 under the fixed schedule, where the set decides)."""
    if schedule is TradeSchedule.FIXED:
        return 0
    return escalating_value(schedule, trades_done + 1)


@lru_cache(maxsize=4096)
def _trade_entry(cards: tuple[int, int, int], bonus_territory: int) -> LegalAction:
    return LegalAction(TradeCards(cards, bonus_territory))


@lru_cache(maxsize=1024)
def _move_in_entry(dice: int, most: int) -> LegalAction:
    return LegalAction(MoveIn(dice), most)


@lru_cache(maxsize=4096)
def _place_entry(territory: int, most: int) -> LegalAction:
    return LegalAction(PlaceArmies(territory, 1), most)


class ClassicRules:
    """Classic Risk behind the engine interface."""

    name: ClassVar[str] = "classic"
    rules_version: ClassVar[int] = 1
    options_type: ClassVar[type[ClassicOptions]] = ClassicOptions
    state_type: ClassVar[type[ClassicState]] = ClassicState
    view_type: ClassVar[type[ClassicView]] = ClassicView
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES
    event_types: ClassVar[tuple[type[Event], ...]] = EVENT_TYPES

    def default_options(self, players: int) -> ClassicOptions:
        return ClassicOptions(players=players)

    def settle_options(self, options: ClassicOptions, *, timed: bool) -> ClassicOptions:
        """The rules digest: auto-defend is on for timed games, so that a game on the clock
        does not wait for a defender's answer on every roll (and for bots: a seat is handed
        to the bot only by a clock's timeout, and the bot defends with the most dice anyway)."""
        if options.auto_defend_max_dice is None:
            return replace(options, auto_defend_max_dice=timed)
        return options

    # ---- creation ----------------------------------------------------------------------

    def create(self, options: ClassicOptions, seed: int) -> tuple[ClassicState, list[Event]]:
        options = self.settle_options(options, timed=False)  # no clock said otherwise
        try:  # accept plain ints for the enum options, as a client would send them
            options = replace(
                options,
                setup=SetupMode(options.setup),
                trade_schedule=TradeSchedule(options.trade_schedule),
                fortify=FortifyMode(options.fortify),
            )
        except ValueError as exc:
            raise _fail(Reason.INVALID_OPTIONS, str(exc)) from None
        if not 2 <= options.players <= 6:
            raise _fail(Reason.INVALID_OPTIONS, "classic Risk takes 2 to 6 players")
        if options.max_turns < 1:
            raise _fail(Reason.INVALID_OPTIONS, "max_turns must be at least 1")
        if not 0 <= seed < 1 << 64:
            raise _fail(Reason.INVALID_OPTIONS, "seed must be an unsigned 64-bit integer")
        owners = options.players + 1 if options.players == 2 else options.players
        rng = Pcg32.from_seed(seed)
        blank = ClassicState(
            options=options,
            seed=seed,
            rng_state=rng.state,
            rng_inc=rng.inc,
            phase=Phase.CLAIM,
            current=0,
            turn=0,
            first_seat=-1,
            owner=(UNCLAIMED,) * TERRITORIES,
            armies=(0,) * TERRITORIES,
            to_place=(0,) * owners,
            hands=((),) * options.players,
            deck=(),
            discard=(),
            trades_done=0,
            pending=0,
            bonus_used=False,
            conquered=False,
            resume_attack=False,
            eliminated=(False,) * options.players,
            out_order=(),
            attack_from=NO_TERRITORY,
            attack_to=NO_TERRITORY,
            attack_dice=0,
            winner=-1,
            ranking=(),
            end_reason="",
        )
        game = _Game(blank)
        if options.players == 2:
            game.setup_two()
        else:
            game.setup_many()
        return game.freeze(), game.events

    # ---- queries -----------------------------------------------------------------------

    def seat_count(self, state: ClassicState) -> int:
        return state.options.players

    def decision(self, state: ClassicState) -> Decision:
        if state.phase is Phase.ATTACK:  # `_deciding_seat`, for most decisions of a game
            return _DECISIONS[Phase.ATTACK][state.current]
        seat = _deciding_seat(state)
        if seat < 0:
            return _FINISHED
        return _DECISIONS[state.phase][seat]

    def outcome(self, state: ClassicState) -> Outcome | None:
        if state.phase is not Phase.FINISHED:
            return None
        return Outcome(state.winner, state.ranking, state.end_reason)

    def legal_actions(self, state: ClassicState, seat: int) -> list[LegalAction]:
        phase = state.phase
        owner = state.owner
        armies = state.armies
        if phase is Phase.ATTACK:  # most decisions of a game: keep it first and lean
            if seat != state.current:  # `_deciding_seat` in ATTACK
                return []
            return attack_listing(owner, armies, seat).copy()  # a copy: the memo keeps its own
        if seat != _deciding_seat(state):
            return []
        legal: list[LegalAction]
        if phase is Phase.MOVE_IN:
            return [_move_in_entry(state.attack_dice, armies[state.attack_from] - 1)]
        if phase is Phase.FORTIFY:
            listing, _ = fortify_listing(owner, armies, seat, state.options.fortify)
            return listing.copy()  # a copy: the memo keeps its own
        if phase is Phase.DEFEND:
            top = min(2, armies[state.attack_to])
            return list(_DEFEND_ENTRIES[:top])
        own = [t for t in range(TERRITORIES) if owner[t] == seat]
        if phase is Phase.CLAIM:
            return [_CLAIM_ENTRIES[t] for t in range(TERRITORIES) if owner[t] < 0]
        if phase is Phase.SETUP_PLACE:
            most = 1 if state.options.players > 2 else min(state.pending, state.to_place[seat])
            return [_place_entry(t, most) for t in own]
        if phase is Phase.SETUP_NEUTRAL:
            neutral = state.options.players
            return [_NEUTRAL_ENTRIES[t] for t in range(TERRITORIES) if owner[t] == neutral]
        if phase is Phase.REINFORCE:
            hand = state.hands[seat]
            legal = []
            may_trade = state.options.cards and (
                len(hand) >= MUST_TRADE_AT if state.resume_attack else len(hand) >= 3
            )
            if may_trade:
                for combo in sets_in(hand):
                    for bonus in bonus_choices(owner, state.bonus_used, seat, combo):
                        legal.append(_trade_entry(combo, bonus))
            if len(hand) < MUST_TRADE_AT and state.pending > 0:
                pending = state.pending
                legal.extend([_place_entry(t, pending) for t in own])
            return legal
        return []

    def view(self, state: ClassicState, viewer: int | None) -> ClassicView:
        seat = -1 if viewer is None else viewer
        opts = state.options
        hands = state.hands
        # The view shares most fields with the state: copy the state's field dict (one C call),
        # drop what the viewer may not see, and add the viewer's own fields. (The fields end up
        # in another order in `__dict__` than `__init__` would put them, which nothing sees.)
        # tests/engine/test_values.py checks that the view ends up with its own fields exactly.
        fields = state.__dict__.copy()
        del fields["seed"], fields["rng_state"], fields["rng_inc"], fields["first_seat"]
        del fields["hands"], fields["deck"], fields["resume_attack"]
        fields["viewer"] = seat
        fields["hand"] = hands[seat] if 0 <= seat < opts.players else ()
        fields["hand_counts"] = tuple(map(len, hands))
        fields["deck_count"] = len(state.deck)
        fields["next_trade_value"] = _next_trade_value(opts.trade_schedule, state.trades_done)
        return build(ClassicView, fields)

    def resign(self, state: ClassicState, seat: int) -> tuple[ClassicState, list[Event]]:
        check_resign(seat, players=state.options.players,
                     finished=state.phase is Phase.FINISHED, out=state.eliminated)
        game = _Game(state)
        game.resign(seat)
        return game.freeze(), game.events

    def default_action(self, state: ClassicState, seat: int) -> Action:
        """The passive choice a timed-out seat makes: end the phase where the rules allow,
        defend with the most dice, move in the least, trade the first set when forced, and
        put all armies on the lowest-numbered own territory that borders an enemy."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise _fail(Reason.NOT_YOUR_TURN, f"it is not seat {seat}'s decision")
        actions = [entry.action for entry in legal]
        for passive in (EndAttack(), EndTurn()):
            if passive in actions:
                return passive
        if state.phase is Phase.DEFEND:
            return max(actions, key=lambda a: a.dice if isinstance(a, Defend) else 0)
        if state.phase is Phase.MOVE_IN:
            return actions[0]
        trades = [a for a in actions if isinstance(a, TradeCards)]
        if trades and len(state.hands[seat]) >= MUST_TRADE_AT:
            return trades[0]
        placements = [e for e in legal if isinstance(e.action, PlaceArmies)]
        if placements:
            def exposed(entry: LegalAction) -> bool:
                assert isinstance(entry.action, PlaceArmies)
                links = CLASSIC_BOARD.links[entry.action.territory]
                return any(state.owner[n] != seat for n in links)

            entry = next((e for e in placements if exposed(e)), placements[0])
            return entry.instance(-1)
        return legal[0].instance(-1)

    def bot_action(self, state: ClassicState, seat: int, entropy: int) -> Action:
        return self.bot_choose(self.view(state, seat), self.legal_actions(state, seat), entropy)

    def bot_choose(self, view: ClassicView, legal: Sequence[LegalAction], entropy: int) -> Action:
        return bot.choose(view, legal, Pcg32.from_seed(entropy, stream=view.viewer + 1))

    # ---- apply -------------------------------------------------------------------------

    def apply(
        self, state: ClassicState, seat: int, action: Action
    ) -> tuple[ClassicState, list[Event]]:
        phase = state.phase
        # Outside DEFEND and FINISHED the current seat (always a seat) decides, so the checks
        # pass for it and any classic action: skip them then (nearly every call).
        if seat != state.current or phase is Phase.DEFEND or phase is Phase.FINISHED \
                or type(action) not in _ACTION_TYPE_SET:
            check_action(action, ACTION_TYPES, "classic", seat=seat,
                         players=state.options.players, finished=phase is Phase.FINISHED,
                         deciding=(_deciding_seat(state),))
        if phase is Phase.ATTACK and type(action) is Attack:  # four actions in five
            quick = _quick_attack(state, seat, action)
            if quick is not None:
                return quick
        key = (phase, type(action))
        state_handler = _STATE_HANDLERS.get(key)
        if state_handler is not None:
            return state_handler(state, seat, action)
        game = _Game(state)
        handler = _HANDLERS.get(key)
        if handler is None:
            raise _fail(
                Reason.WRONG_PHASE,
                f"{type(action).__name__} is not allowed in phase {phase.name}",
            )
        handler(game, seat, action)
        return game.freeze(), game.events


# ---- validation helpers ------------------------------------------------------------------


def _territory(t: int) -> int:
    if not 0 <= t < TERRITORIES:
        raise _fail(Reason.NO_SUCH_TERRITORY, f"territory {t} does not exist")
    return t


def _own(game: _Game, seat: int, t: int) -> int:
    return _own_in(game.owner, seat, t)


def _own_in(owner: Sequence[int], seat: int, t: int) -> int:
    _territory(t)
    if owner[t] != seat:
        raise _fail(Reason.NOT_OWNER, f"seat {seat} does not hold {CLASSIC_BOARD.names[t]}")
    return t


def _count(count: int, low: int, high: int, what: str) -> None:
    if count < low:
        raise _fail(Reason.TOO_FEW_ARMIES, f"{what}: at least {low}, got {count}")
    if count > high:
        raise _fail(Reason.TOO_MANY_ARMIES, f"{what}: at most {high}, got {count}")


# ---- handlers: one per (phase, action) pair that the rules allow --------------------------


def _claim(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, ClaimTerritory)
    t = _territory(action.territory)
    if game.owner[t] != UNCLAIMED:
        raise _fail(Reason.TERRITORY_CLAIMED, f"{CLASSIC_BOARD.names[t]} is already claimed")
    game.owner[t] = seat
    game.armies[t] = 1
    game.to_place[seat] -= 1
    game.emit(TerritoryClaimed(seat, t))
    game.advance_setup_many()


def _setup_place(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, PlaceArmies)
    t = _own(game, seat, action.territory)
    if game.seats == 2:
        _count(action.count, 1, min(game.pending, game.to_place[seat]), "setup placement")
        game.pending -= action.count
    else:
        _count(action.count, 1, 1, "setup placement")
    game.to_place[seat] -= action.count
    game.place(seat, t, action.count)
    if game.seats == 2:
        game.advance_setup_two()
    else:
        game.advance_setup_many()


def _place_neutral(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, PlaceNeutral)
    t = _territory(action.territory)
    if game.owner[t] != game.neutral:
        raise _fail(Reason.NOT_NEUTRAL, f"{CLASSIC_BOARD.names[t]} is not neutral")
    game.to_place[game.neutral] -= 1
    game.place(game.neutral, t, 1)
    game.advance_setup_two()


def _trade(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, TradeCards)
    if not game.options.cards:
        raise _fail(Reason.CARDS_DISABLED, "this game is played without cards")
    hand = game.hands[seat]
    cards = action.cards
    if len(cards) != 3 or list(cards) != sorted(set(cards)):
        raise _fail(Reason.INVALID_SET, "a trade is three distinct card ids in ascending order")
    for card in cards:
        if card not in hand:
            raise _fail(Reason.CARD_NOT_IN_HAND, f"card {card} is not in seat {seat}'s hand")
    if game.resume_attack and len(hand) < MUST_TRADE_AT:
        raise _fail(Reason.TRADE_NOT_ALLOWED, "after an elimination, trade only down to 4 cards")
    if not is_set(cards):
        raise _fail(Reason.INVALID_SET, f"cards {list(cards)} are not a set")
    choices = bonus_choices(game.owner, game.bonus_used, seat, cards)
    if action.bonus_territory not in choices:
        raise _fail(
            Reason.INVALID_BONUS_TERRITORY,
            f"the +2 bonus must go to one of {choices} (-1: none due)",
        )
    game.trades_done += 1
    value = set_value(game.options.trade_schedule, game.trades_done, cards)
    game.hands[seat] = tuple(card for card in hand if card not in cards)
    game.discard = game.discard + cards
    game.pending += value
    if action.bonus_territory >= 0:
        game.bonus_used = True
        game.armies[action.bonus_territory] += 2
    game.emit(CardsTraded(seat, cards, value, action.bonus_territory, game.trades_done))
    game.leave_reinforce_when_done()


def _reinforce(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, PlaceArmies)
    if len(game.hands[seat]) >= MUST_TRADE_AT:
        raise _fail(Reason.MUST_TRADE, f"with {len(game.hands[seat])} cards, trade before placing")
    t = _own(game, seat, action.territory)
    _count(action.count, 1, game.pending, "reinforcement")
    game.pending -= action.count
    game.place(seat, t, action.count)
    game.leave_reinforce_when_done()


def _check_attack(owner: Sequence[int], armies: Sequence[int], seat: int, action: Attack) -> None:
    """Every check of an attack, in order (the checks of `_own` and `_territory` inlined)."""
    src, dst, dice = action.from_territory, action.to_territory, action.dice
    if not 0 <= src < TERRITORIES or owner[src] != seat:
        _own_in(owner, seat, src)
    if not 0 <= dst < TERRITORIES:
        _territory(dst)
    if owner[dst] == seat:
        raise _fail(Reason.OWN_TERRITORY, f"{CLASSIC_BOARD.names[dst]} is your own territory")
    if dst not in _LINKED[src]:
        raise _fail(
            Reason.NOT_ADJACENT,
            f"{CLASSIC_BOARD.names[src]} does not border {CLASSIC_BOARD.names[dst]}",
        )
    have = armies[src]
    if have < 2:
        raise _fail(Reason.NOT_ENOUGH_ARMIES, "attacking needs at least 2 armies")
    if dice < 1:
        raise _fail(Reason.TOO_FEW_DICE, "roll at least 1 die")
    top = min(3, have - 1)
    if dice > top:
        raise _fail(Reason.TOO_MANY_DICE, f"at most {top} dice from {have} armies")


def _attack(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, Attack)
    _check_attack(game.owner, game.armies, seat, action)
    src, dst, dice = action.from_territory, action.to_territory, action.dice
    game.attack_from, game.attack_to, game.attack_dice = src, dst, dice
    game.emit(AttackDeclared(seat, src, dst, dice, game.owner[dst]))
    if game.options.auto_defend_max_dice or game.defence_decider() is None:
        game.resolve_battle(min(2, game.armies[dst]))
    else:
        game.phase = Phase.DEFEND


def _quick_attack(
    state: ClassicState, seat: int, action: Attack
) -> tuple[ClassicState, list[Event]] | None:
    """`apply` of an attack in the ATTACK phase, validated as `_attack` validates, giving the
    same state and events (tests/engine/test_classic_quick.py compares them). When the battle
    is rolled at once and the target holds, or falls without anyone going out (nearly every
    attack), the new state is made without the work area; an elimination or the end of the
    game continues in one. None when the defender chooses its dice: the caller runs
    `_attack`."""
    owner, armies = state.owner, state.armies
    src, dst, dice = action.from_territory, action.to_territory, action.dice
    # `_check_attack`'s conditions, in its order, in one expression (no call when all hold);
    # when one fails, `_check_attack` raises the error it names first
    if not (0 <= src < TERRITORIES and owner[src] == seat and 0 <= dst < TERRITORIES
            and owner[dst] != seat and dst in _LINKED[src] and armies[src] >= 2
            and 1 <= dice <= 3 and dice < armies[src]):
        _check_attack(owner, armies, seat, action)
    if not state.options.auto_defend_max_dice and \
            defence_decider(owner, dst, state.current, state.options.players) is not None:
        return None  # the defender chooses its dice: the DEFEND phase, through `_attack`
    rng = Pcg32(state.rng_state, state.rng_inc)
    held = armies[dst]
    rolls = _roll_battle(rng, dice, held if held < 2 else 2)  # min(2, held)
    attack_roll, defence_roll, lost_a, lost_d = rolls
    attacker, defender = state.current, owner[dst]
    declared = build(AttackDeclared, {  # AttackDeclared(seat, src, dst, dice, defender)
        "seat": seat, "from_territory": src, "to_territory": dst, "dice": dice,
        "defender": defender,
    })
    conquest = held - lost_d <= 0
    if conquest and not (
        (defender >= state.options.players or owner.count(defender) > 1)
        and state.eliminated.count(False) > 1
    ):  # an elimination (or the end): as `_attack` goes on after its roll, in the work area
        game = _Game(state)
        game.rng = rng
        game.attack_from, game.attack_to, game.attack_dice = src, dst, dice
        game.emit(declared)
        game.settle_battle(*rolls)
        return game.freeze(), game.events
    after = list(armies)
    after[src] -= lost_a
    after[dst] -= lost_d
    events: list[Event] = [
        declared,
        build(BattleResolved, {
            "attacker": attacker, "defender": defender, "from_territory": src,
            "to_territory": dst, "attack_dice": attack_roll, "defence_dice": defence_roll,
            "attacker_losses": lost_a, "defender_losses": lost_d,
        }),
    ]
    if not conquest:  # the target holds: back to ATTACK (`evolve`, spelt out)
        fields = state.__dict__.copy()
        fields["rng_state"] = rng.state
        fields["rng_inc"] = rng.inc
        fields["armies"] = tuple(after)
        fields["phase"] = Phase.ATTACK
        fields["attack_from"] = NO_TERRITORY
        fields["attack_to"] = NO_TERRITORY
        fields["attack_dice"] = dice
        return build(ClassicState, fields), events
    # taken, and the defender is still in: as `_Game.conquer`, then the move-in
    taken = list(owner)
    taken[dst] = attacker
    events.append(TerritoryConquered(attacker, dst, defender))
    return evolve(state, {
        "rng_state": rng.state,
        "rng_inc": rng.inc,
        "armies": tuple(after),
        "owner": tuple(taken),
        "conquered": True,
        "phase": Phase.MOVE_IN,
        "attack_from": src,
        "attack_to": dst,
        "attack_dice": dice,
    }), events


def _defend(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, Defend)
    top = min(2, game.armies[game.attack_to])
    if action.dice < 1:
        raise _fail(Reason.TOO_FEW_DICE, "defend with at least 1 die")
    if action.dice > top:
        raise _fail(Reason.TOO_MANY_DICE, f"at most {top} defence dice here")
    game.resolve_battle(action.dice)


def _move_in(state: ClassicState, seat: int, action: Action) -> tuple[ClassicState, list[Event]]:
    # One action in seven: a state-level rule (see `_STATE_HANDLERS`), with no work area.
    assert isinstance(action, MoveIn)
    src, dst, count = state.attack_from, state.attack_to, action.count
    _count(count, state.attack_dice, state.armies[src] - 1, "move-in")
    armies = list(state.armies)
    armies[src] -= count
    armies[dst] += count
    changes: dict[str, object] = {
        "armies": tuple(armies),
        "attack_from": NO_TERRITORY,
        "attack_to": NO_TERRITORY,
        "phase": Phase.ATTACK,
    }
    if state.resume_attack:
        changes["phase"] = Phase.REINFORCE
        changes["pending"] = 0
    return evolve(state, changes), [ArmiesMoved(seat, src, dst, count)]


def _end_attack(game: _Game, seat: int, action: Action) -> None:
    game.phase = Phase.FORTIFY
    game.emit(AttackEnded(seat))


def _fortify(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, Fortify)
    src = _own(game, seat, action.from_territory)
    dst = _own(game, seat, action.to_territory)
    if src == dst:
        raise _fail(Reason.SAME_TERRITORY, "fortify moves between two different territories")
    _count(action.count, 1, game.armies[src] - 1, "fortify (leave at least 1 behind)")
    if game.options.fortify is FortifyMode.ADJACENT:
        if not CLASSIC_BOARD.adjacent(src, dst):
            raise _fail(Reason.NOT_ADJACENT, "this game fortifies between adjacent territories")
    elif dst not in CLASSIC_BOARD.reachable(src, [o == seat for o in game.owner]):
        raise _fail(Reason.NOT_CONNECTED, "no chain of your own territories links the two")
    game.move(seat, src, dst, action.count)
    game.end_turn()


def _end_turn(game: _Game, seat: int, action: Action) -> None:
    game.end_turn()


_HANDLERS = {
    (Phase.CLAIM, ClaimTerritory): _claim,
    (Phase.SETUP_PLACE, PlaceArmies): _setup_place,
    (Phase.SETUP_NEUTRAL, PlaceNeutral): _place_neutral,
    (Phase.REINFORCE, TradeCards): _trade,
    (Phase.REINFORCE, PlaceArmies): _reinforce,
    (Phase.ATTACK, Attack): _attack,
    (Phase.ATTACK, EndAttack): _end_attack,
    (Phase.DEFEND, Defend): _defend,
    (Phase.FORTIFY, Fortify): _fortify,
    (Phase.FORTIFY, EndTurn): _end_turn,
}

# Rules that map the state to (state, events) themselves, without the `_Game` work area.
_STATE_HANDLERS: dict[
    tuple[Phase, type[Action]],
    Callable[[ClassicState, int, Action], tuple[ClassicState, list[Event]]],
] = {
    (Phase.MOVE_IN, MoveIn): _move_in,
}
