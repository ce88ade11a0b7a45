"""Risk Deep Space rules: setup, the turn (start, mining, actions, replenish), battles, action
cards with the space dog and force fields, bases and the base win, the turn cap, resignation.

`apply` copies the frozen state into a `_Game` work area, runs the one handler for the
(phase, action) pair, and freezes the result, so callers only ever see immutable values. Every
die, shuffle and draw goes through the game's own generator and is reported as an event. The
board and the deck are data (`board.json`, `deck.json`); decisions the rules leave open are
listed in docs/rules-deep-space.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import combinations
from typing import ClassVar

from risk_service.engine.core.deck import draw_card
from risk_service.engine.core.errors import IllegalAction, Reason
from risk_service.engine.core.guards import check_action, check_max_turns, check_seed
from risk_service.engine.core.rng import Pcg32
from risk_service.engine.core.ruleset import Action, Decision, Event, LegalAction
from risk_service.engine.core.variant import VariantRules
from risk_service.engine.core.working import (
    AS_LIST,
    AS_LISTS,
    AS_SORTED_LISTS,
    Thawed,
    WorkingState,
)
from risk_service.engine.deep_space import bot
from risk_service.engine.deep_space.board import DEEP_SPACE_BOARD as BOARD
from risk_service.engine.deep_space.board import NODES
from risk_service.engine.deep_space.cards import DECK_SIZE, card_type
from risk_service.engine.deep_space.model import (
    ACTION_TYPES,
    BASE_ORE,
    BASE_RECRUITS,
    BASES_PER_COLOUR,
    EVENT_TYPES,
    FORCE_FIELD_TOKENS,
    GEM_TOKENS,
    HAND_SIZE,
    MINE_RECRUITS,
    MOVES_PER_TURN,
    NONE,
    ORE_TOKENS,
    RECRUITS_PER_COLOUR,
    SPACE_DOG_TOKENS,
    START_GEMS,
    START_RECRUITS,
    TRADE_CARDS,
    WINNING_BASES,
    BaseBuilt,
    BattleEnded,
    BattleRolled,
    BuildBase,
    CardDiscarded,
    CardDrawn,
    CardKind,
    CardPlayed,
    CardsTraded,
    Cost,
    DeckShuffled,
    DeepSpaceOptions,
    DeepSpaceState,
    DeepSpaceView,
    DogPlaced,
    DogRelocated,
    DogReturned,
    EndTurn,
    ForceFieldExpired,
    ForceFieldPlaced,
    GameEnded,
    Mine,
    Mined,
    Move,
    Moved,
    OrderRolled,
    OreReturned,
    Phase,
    PlayCard,
    PlayerResigned,
    PlayerSetUp,
    Recruit,
    Recruited,
    RecruitsPlaced,
    RecruitsRemoved,
    RelocateDog,
    Replenished,
    Resource,
    ResourcesTaken,
    ReturnDog,
    TradeCards,
    TurnEnded,
    TurnStarted,
    Warp,
)

ACTING_PHASES = (Phase.START, Phase.MINING, Phase.MAIN)
# Which of PlayCard's optional fields each kind reads; the others must keep their defaults.
CARD_FIELDS: dict[CardKind, frozenset[str]] = {
    CardKind.SPACE_DOG: frozenset({"planet"}),
    CardKind.FORCE_FIELD: frozenset({"planet"}),
    CardKind.METEOR_STRIKE: frozenset({"planet", "count"}),
    CardKind.HYPERJUMP: frozenset(),
    CardKind.REINFORCEMENTS: frozenset(),
    CardKind.GEM_RUSH: frozenset(),
    CardKind.ORE_HAUL: frozenset(),
    CardKind.BATTLE_CRY: frozenset(),
    CardKind.PROSPECTOR: frozenset({"planet", "resource"}),
    CardKind.SABOTAGE: frozenset({"target"}),
}
_CARD_DEFAULTS: dict[str, object] = {
    "planet": NONE, "target": NONE, "count": 0, "resource": Resource.GEM,
}


def _fail(reason: Reason, message: str) -> IllegalAction:
    return IllegalAction(reason, message)


def _name(node: int) -> str:
    return BOARD.names[node] if 0 <= node < NODES else f"node {node}"


class _Game(WorkingState[DeepSpaceState]):
    """A mutable copy of one DeepSpaceState for the duration of one rule application (or one
    listing of legal actions, which asks the same questions)."""

    state_type = DeepSpaceState
    thawed: ClassVar[Mapping[str, Thawed]] = {
        "recruits": AS_LISTS, "supply": AS_LIST, "bases": AS_SORTED_LISTS, "gems": AS_LIST,
        "ore": AS_LIST, "dogs": AS_LISTS, "force_fields": AS_LIST, "hands": AS_SORTED_LISTS,
        "mined": AS_LIST, "out": AS_LIST,
    }
    finished_phase = Phase.FINISHED

    options: DeepSpaceOptions
    seed: int
    phase: Phase
    turn: int
    first_seat: int
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

    def set_up(self) -> None:
        for seat in range(self.seats):
            self.add_home(seat, START_RECRUITS)
            self.take_gems(seat, START_GEMS)
            self.emit(PlayerSetUp(seat, self.stations[seat], START_RECRUITS, START_GEMS))
        self.deck = self.rng.shuffled(range(DECK_SIZE))
        self.emit(DeckShuffled(DECK_SIZE))
        for _ in range(HAND_SIZE):
            for seat in range(self.seats):
                self.draw(seat)
        self.first_seat = self.roll_off(range(self.seats), lambda done: OrderRolled(*done))
        self.start_turn(self.first_seat)

    def start_turn(self, seat: int) -> None:
        if self.turn >= self.options.max_turns:
            self.finish(NONE, "turn_cap")
            return
        self.turn += 1
        self.current = seat
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

    # ---- moving and fighting ---------------------------------------------------------------

    def move(self, seat: int, action: Move | Warp) -> None:
        origin, destination, count = action.origin, action.destination, action.count
        warp = isinstance(action, Warp)
        dogs = self.dogs[seat][origin] if action.with_dog else 0
        self.recruits[seat][origin] -= count
        self.recruits[seat][destination] += count
        self.dogs[seat][origin] -= dogs
        self.dogs[seat][destination] += dogs
        self.moves_left -= 1
        self.emit(Moved(seat, origin, destination, count, dogs, warp))
        defender = self.occupant(destination, seat)
        if defender != NONE:
            self.battle(seat, defender, destination)

    def battle(self, attacker: int, defender: int, planet: int) -> None:
        """One die each until one side is gone; ties go to the defender (to the attacker under
        Battle Cry). A side's space dog takes its first lost roll."""
        cry, self.battle_cry = self.battle_cry, False
        while self.recruits[attacker][planet] and self.recruits[defender][planet]:
            a_roll, d_roll = self.rng.die(), self.rng.die()
            won = a_roll > d_roll or (cry and a_roll == d_roll)
            loser = defender if won else attacker
            dog = self.dogs[loser][planet] > 0
            if dog:
                self.dogs[loser][planet] -= 1
            else:
                self.recruits[loser][planet] -= 1
                self.supply[loser] += 1
            self.emit(BattleRolled(planet, attacker, defender, a_roll, d_roll, loser, dog))
        winner = attacker if self.recruits[attacker][planet] else defender
        self.emit(BattleEnded(planet, attacker, defender, winner, self.recruits[winner][planet]))

    # ---- leaving ---------------------------------------------------------------------------

    def resign(self, seat: int) -> None:
        """The seat's recruits go back to its supply, its dogs and force fields to the bank,
        its gems and ore to the bank, its cards to the discard pile; its bases stay (bases
        are never removed) but count for nobody."""
        for node in range(NODES):
            self.supply[seat] += self.recruits[seat][node]
            self.recruits[seat][node] = 0
            self.dogs[seat][node] = 0
            if self.force_fields[node] == seat:
                self.force_fields[node] = NONE
        self.bank_gems += self.gems[seat]
        self.bank_ore += self.ore[seat]
        self.gems[seat] = self.ore[seat] = 0
        self.to_discard(sorted(self.hands[seat]))
        self.hands[seat] = []
        self.out[seat] = True
        self.out_order = (*self.out_order, seat)
        self.emit(PlayerResigned(seat))
        live = self.live_seats()
        if len(live) == 1:
            self.finish(live[0], "resignation")
            return
        if self.phase is Phase.DOG and self.dog_seat == seat:
            self.dog_planet = self.dog_seat = NONE
            self.phase = Phase.MAIN
            if self.out[self.current]:  # cannot happen: the dog's owner is not the mover
                self.start_turn(self.next_live_seat(self.current))
            return
        if seat == self.current:
            self.battle_cry = False
            self.emit(TurnEnded(seat))
            if self.phase is not Phase.DOG:  # else the dog's owner decides first
                self.start_turn(self.next_live_seat(seat))

    def after_dog(self) -> None:
        self.dog_planet = self.dog_seat = NONE
        self.phase = Phase.MAIN
        if self.out[self.current]:  # the mover resigned while the dog's owner decided
            self.start_turn(self.next_live_seat(self.current))


# ---- validation helpers: each raises the rule's reason code --------------------------------


def _node(game: _Game, node: int) -> int:
    """A place on the board that exists for this game: a planet in play or a used station."""
    if not 0 <= node < NODES or not game.in_play[node]:
        raise _fail(Reason.NO_SUCH_PLANET, f"{_name(node)} is not on this game's board")
    return node


def _planet(game: _Game, node: int) -> int:
    _node(game, node)
    if BOARD.is_station(node):
        raise _fail(Reason.HOME_STATION, f"{_name(node)} is a home station, not a planet")
    return node


def _count(count: int, high: int, what: str) -> None:
    if count < 1:
        raise _fail(Reason.TOO_FEW_RECRUITS, f"{what}: at least 1 recruit, got {count}")
    if count > high:
        raise _fail(Reason.TOO_MANY_RECRUITS, f"{what}: at most {high}, got {count}")


def _recruits_at(game: _Game, seat: int, node: int, least: int, what: str) -> None:
    have = game.recruits[seat][node]
    if have < least:
        raise _fail(
            Reason.NOT_ENOUGH_RECRUITS,
            f"{what} needs {least} of your recruits on {_name(node)}; you have {have}",
        )


def _gems(game: _Game, seat: int, least: int, what: str) -> None:
    if game.gems[seat] < least:
        raise _fail(Reason.NOT_ENOUGH_GEMS, f"{what} costs {least} gem(s); you have "
                    f"{game.gems[seat]}")


def _bank(game: _Game, resource: Resource) -> None:
    if game.bank(resource) < 1:
        raise _fail(Reason.BANK_EMPTY, f"the bank has no {resource.name.lower()} left")


def _crew(game: _Game, seat: int, action: Move | Warp) -> None:
    """The checks a move and a warp share once origin and destination are known to exist."""
    origin, destination = action.origin, action.destination
    if BOARD.is_station(destination):
        raise _fail(Reason.HOME_STATION, "recruits never enter a home station")
    if origin == destination:
        raise _fail(Reason.SAME_PLANET, "a move goes to another planet")
    if game.moves_left < 1:
        raise _fail(Reason.NO_MOVES_LEFT, "no moves left this turn")
    _count(action.count, game.recruits[seat][origin], f"a crew from {_name(origin)}")
    dogs = game.dogs[seat][origin]
    if action.with_dog and not dogs:
        raise _fail(Reason.NO_DOG, f"you have no space dog on {_name(origin)}")
    if dogs and not action.with_dog and action.count == game.recruits[seat][origin]:
        raise _fail(Reason.DOG_MUST_FOLLOW, "a space dog stays with at least one recruit")
    if game.shielded(seat, destination):
        raise _fail(Reason.FORCE_FIELD, f"an opponent's force field protects {_name(destination)}")


def _card_in_hand(game: _Game, seat: int, card: int) -> None:
    if card not in game.hands[seat]:
        raise _fail(Reason.CARD_NOT_IN_HAND, f"card {card} is not in seat {seat}'s hand")


def _check_card(game: _Game, seat: int, action: PlayCard) -> None:
    """Every rule a card play must meet. The cost is paid first, so the card's own conditions
    are checked on the board as it is after paying."""
    _card_in_hand(game, seat, action.card)
    spec = card_type(action.card)
    for field, default in _CARD_DEFAULTS.items():
        if field not in CARD_FIELDS[spec.kind] and getattr(action, field) != default:
            raise _fail(Reason.UNUSED_FIELD, f"{spec.name} takes no {field}")
    after = list(game.recruits[seat])
    if spec.cost is Cost.RECRUIT:
        if not 0 <= action.pay_from < NODES or not game.in_play[action.pay_from] or \
                game.recruits[seat][action.pay_from] < 1:
            raise _fail(Reason.INVALID_PAYMENT,
                        f"{spec.name} costs a recruit: pay_from must hold one of yours")
        after[action.pay_from] -= 1
    elif action.pay_from != NONE:
        raise _fail(Reason.INVALID_PAYMENT, f"{spec.name} costs no recruit: pay_from must be -1")
    if spec.cost is Cost.GEM:
        _gems(game, seat, 1, spec.name)
    kind = spec.kind
    if kind in (CardKind.SPACE_DOG, CardKind.FORCE_FIELD, CardKind.PROSPECTOR):
        planet = _planet(game, action.planet)
        if after[planet] < 1:
            raise _fail(Reason.NOT_ENOUGH_RECRUITS,
                        f"{spec.name} needs your recruits on {_name(planet)}")
        if kind is CardKind.SPACE_DOG and game.dogs_in_bank() < 1:
            raise _fail(Reason.BANK_EMPTY, "every space-dog token is in play")
        if kind is CardKind.FORCE_FIELD:
            if game.force_fields[planet] != NONE:
                raise _fail(Reason.FORCE_FIELD, f"{_name(planet)} already has a force field")
            if game.fields_in_bank() < 1:
                raise _fail(Reason.BANK_EMPTY, "every force-field token is in play")
        if kind is CardKind.PROSPECTOR:
            _bank(game, action.resource)
    elif kind is CardKind.METEOR_STRIKE:
        planet = _planet(game, action.planet)
        victim = game.occupant(planet, seat)
        if victim == NONE:
            raise _fail(Reason.INVALID_TARGET, f"no opponent recruits on {_name(planet)}")
        if not any(game.is_planet(n) and after[n] > 0 for n in BOARD.links[planet]):
            raise _fail(Reason.NOT_ADJACENT,
                        f"{_name(planet)} is not linked to a planet where you have recruits")
        _count(action.count, min(spec.amount, game.recruits[victim][planet]), spec.name)
    elif kind is CardKind.BATTLE_CRY:
        if game.battle_cry:
            raise _fail(Reason.CARD_NOT_PLAYABLE, "a Battle Cry is already waiting for a battle")
    elif kind is CardKind.SABOTAGE:
        target = action.target
        if not 0 <= target < game.seats or target == seat or game.out[target]:
            raise _fail(Reason.NOT_AN_OPPONENT, f"seat {target} is not an opponent in the game")


# ---- handlers: one per (phase, action) pair that the rules allow ---------------------------


def _trade(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, TradeCards)
    cards = action.cards
    if len(cards) != TRADE_CARDS or list(cards) != sorted(set(cards)):
        raise _fail(Reason.INVALID_SET, "a trade is two distinct card ids in ascending order")
    for card in cards:
        _card_in_hand(game, seat, card)
    if game.supply[seat] < 1:
        raise _fail(Reason.SUPPLY_EMPTY, "no recruit left in your supply")
    for card in cards:
        game.hands[seat].remove(card)
    game.to_discard(cards)
    placed = game.add_home(seat, 1)
    game.emit(CardsTraded(seat, cards, placed))


def _trade_late(game: _Game, seat: int, action: Action) -> None:
    raise _fail(Reason.TRADE_NOT_ALLOWED, "cards are traded at the start of the turn only")


def _mine(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, Mine)
    planet = _planet(game, action.planet)
    _recruits_at(game, seat, planet, MINE_RECRUITS, "mining")
    if planet in game.mined:
        raise _fail(Reason.ALREADY_MINED, f"{_name(planet)} was mined this turn")
    _bank(game, action.resource)
    game.mined.append(planet)
    game.take(seat, action.resource, 1)
    game.phase = Phase.MINING
    game.emit(Mined(seat, planet, action.resource))


def _mine_late(game: _Game, seat: int, action: Action) -> None:
    raise _fail(Reason.MINING_OVER, "mining comes before any other action of the turn")


def _recruit(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, Recruit)
    if action.count < 1:
        raise _fail(Reason.TOO_FEW_RECRUITS, f"recruit at least 1, got {action.count}")
    _gems(game, seat, action.count, f"{action.count} recruit(s)")
    if action.count > game.supply[seat]:
        raise _fail(Reason.SUPPLY_EMPTY, f"only {game.supply[seat]} recruits left in supply")
    game.leave_mining()
    game.pay_gems(seat, action.count)
    game.add_home(seat, action.count)
    game.emit(Recruited(seat, action.count))


def _move(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, Move)
    origin, destination = _node(game, action.origin), _node(game, action.destination)
    if destination not in BOARD.links[origin]:
        raise _fail(Reason.NOT_ADJACENT, f"{_name(origin)} is not linked to {_name(destination)}")
    _crew(game, seat, action)
    game.leave_mining()
    game.move(seat, action)


def _warp(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, Warp)
    origin, destination = _node(game, action.origin), _node(game, action.destination)
    for node in (origin, destination):
        if node not in BOARD.warp:
            raise _fail(Reason.NOT_WARP_PLANET, f"{_name(node)} is not linked to the gem warp")
    _crew(game, seat, action)
    _gems(game, seat, 1, "the gem warp")
    game.leave_mining()
    game.pay_gems(seat, 1)
    game.move(seat, action)


def _build(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, BuildBase)
    planet = _planet(game, action.planet)
    _recruits_at(game, seat, planet, BASE_RECRUITS, "a base")
    if game.ore[seat] < BASE_ORE:
        raise _fail(Reason.NOT_ENOUGH_ORE, f"a base costs {BASE_ORE} ore; you have "
                    f"{game.ore[seat]}")
    if planet in game.bases[seat]:
        raise _fail(Reason.BASE_EXISTS, f"you already have a base on {_name(planet)}")
    if len(game.bases[seat]) >= BASES_PER_COLOUR:
        raise _fail(Reason.SUPPLY_EMPTY, "every one of your bases is built")
    game.leave_mining()
    game.ore[seat] -= BASE_ORE
    game.bank_ore += BASE_ORE
    game.bases[seat].append(planet)
    game.emit(BaseBuilt(seat, planet, len(game.bases[seat])))
    if len(game.bases[seat]) >= WINNING_BASES[game.seats]:
        game.finish(seat, "bases")


def _play(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, PlayCard)
    _check_card(game, seat, action)
    spec = card_type(action.card)
    game.leave_mining()
    game.hands[seat].remove(action.card)
    game.to_discard((action.card,))
    gems_paid = 0
    if spec.cost is Cost.GEM:
        game.pay_gems(seat, 1)
        gems_paid = 1
    recruit_from = action.pay_from if spec.cost is Cost.RECRUIT else NONE
    game.emit(CardPlayed(seat, action.card, spec.kind, action.planet, action.target,
                         action.count, gems_paid, recruit_from))
    if recruit_from != NONE:
        game.remove_own(seat, recruit_from, 1)
    _EFFECTS[spec.kind](game, seat, action, spec.amount)


def _relocate(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, RelocateDog)
    planet = _planet(game, action.planet)
    if planet == game.dog_planet:
        raise _fail(Reason.SAME_PLANET, "the dog must leave the emptied planet")
    _recruits_at(game, seat, planet, 1, "a space dog")
    dogs = game.dogs[seat][game.dog_planet]
    game.dogs[seat][game.dog_planet] = 0
    game.dogs[seat][planet] += dogs
    game.emit(DogRelocated(seat, game.dog_planet, planet, dogs))
    game.after_dog()


def _return_dog(game: _Game, seat: int, action: Action) -> None:
    game.return_dogs(seat, game.dog_planet)
    game.after_dog()


def _end_turn(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, EndTurn)
    if action.discard != NONE:
        _card_in_hand(game, seat, action.discard)
    game.end_turn(action.discard)


# ---- card effects (the cost is paid; the checks passed) -----------------------------------


def _space_dog(game: _Game, seat: int, action: PlayCard, amount: int) -> None:
    game.dogs[seat][action.planet] += 1
    game.emit(DogPlaced(seat, action.planet))


def _force_field(game: _Game, seat: int, action: PlayCard, amount: int) -> None:
    game.force_fields[action.planet] = seat
    game.emit(ForceFieldPlaced(seat, action.planet))


def _meteor_strike(game: _Game, seat: int, action: PlayCard, amount: int) -> None:
    planet = action.planet
    victim = game.occupant(planet, seat)
    game.recruits[victim][planet] -= action.count
    game.supply[victim] += action.count
    game.emit(RecruitsRemoved(victim, planet, action.count))
    if game.recruits[victim][planet] == 0 and game.dogs[victim][planet]:
        if game.dog_destinations(victim, planet):
            game.phase = Phase.DOG
            game.dog_planet, game.dog_seat = planet, victim
        else:
            game.return_dogs(victim, planet)


def _hyperjump(game: _Game, seat: int, action: PlayCard, amount: int) -> None:
    game.moves_left += amount


def _reinforcements(game: _Game, seat: int, action: PlayCard, amount: int) -> None:
    placed = game.add_home(seat, amount)
    game.emit(RecruitsPlaced(seat, game.stations[seat], placed))


def _gem_rush(game: _Game, seat: int, action: PlayCard, amount: int) -> None:
    game.emit(ResourcesTaken(seat, Resource.GEM, game.take_gems(seat, amount)))


def _ore_haul(game: _Game, seat: int, action: PlayCard, amount: int) -> None:
    game.emit(ResourcesTaken(seat, Resource.ORE, game.take_ore(seat, amount)))


def _battle_cry(game: _Game, seat: int, action: PlayCard, amount: int) -> None:
    game.battle_cry = True


def _prospector(game: _Game, seat: int, action: PlayCard, amount: int) -> None:
    game.take(seat, action.resource, amount)
    game.emit(Mined(seat, action.planet, action.resource))


def _sabotage(game: _Game, seat: int, action: PlayCard, amount: int) -> None:
    target = action.target
    lost = min(amount, game.ore[target])
    game.ore[target] -= lost
    game.bank_ore += lost
    game.emit(OreReturned(target, lost))


_Effect = Callable[[_Game, int, PlayCard, int], None]
_EFFECTS: dict[CardKind, _Effect] = {
    CardKind.SPACE_DOG: _space_dog,
    CardKind.FORCE_FIELD: _force_field,
    CardKind.METEOR_STRIKE: _meteor_strike,
    CardKind.HYPERJUMP: _hyperjump,
    CardKind.REINFORCEMENTS: _reinforcements,
    CardKind.GEM_RUSH: _gem_rush,
    CardKind.ORE_HAUL: _ore_haul,
    CardKind.BATTLE_CRY: _battle_cry,
    CardKind.PROSPECTOR: _prospector,
    CardKind.SABOTAGE: _sabotage,
}

_Handler = Callable[[_Game, int, Action], None]
_HANDLERS: dict[tuple[Phase, type[Action]], _Handler] = {
    (Phase.START, TradeCards): _trade,
    (Phase.MINING, TradeCards): _trade_late,
    (Phase.MAIN, TradeCards): _trade_late,
    (Phase.START, Mine): _mine,
    (Phase.MINING, Mine): _mine,
    (Phase.MAIN, Mine): _mine_late,
    (Phase.DOG, RelocateDog): _relocate,
    (Phase.DOG, ReturnDog): _return_dog,
}
for _phase in ACTING_PHASES:
    _HANDLERS[(_phase, Recruit)] = _recruit
    _HANDLERS[(_phase, Move)] = _move
    _HANDLERS[(_phase, Warp)] = _warp
    _HANDLERS[(_phase, BuildBase)] = _build
    _HANDLERS[(_phase, PlayCard)] = _play
    _HANDLERS[(_phase, EndTurn)] = _end_turn


# ---- listing legal actions -----------------------------------------------------------------


def _card_candidates(game: _Game, seat: int, card: int) -> Iterator[PlayCard]:
    """Every way to fill in the fields this card reads (count at its least) that could pass
    `_check_card`, which has the last word: planets are narrowed to those holding the seat's
    recruits, or an opponent's for Meteor Strike, only to keep the listing quick."""
    spec = card_type(card)
    used = CARD_FIELDS[spec.kind]
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


def _card_entries(game: _Game, seat: int) -> list[LegalAction]:
    legal: list[LegalAction] = []
    for card in sorted(set(game.hands[seat])):
        for candidate in _card_candidates(game, seat, card):
            try:
                _check_card(game, seat, candidate)
            except IllegalAction:
                continue
            if candidate.count:  # Meteor Strike: 1 up to the card's amount or what is there
                victim = game.occupant(candidate.planet, seat)
                top = min(card_type(card).amount, game.recruits[victim][candidate.planet])
                legal.append(LegalAction(candidate, top))
            else:
                legal.append(LegalAction(candidate))
    return legal


def _crew_entries(game: _Game, seat: int, origin: int, destination: int, warp: bool
                  ) -> list[LegalAction]:
    crew = game.recruits[seat][origin]
    kind = Warp if warp else Move
    if game.dogs[seat][origin]:
        entries = [LegalAction(kind(origin, destination, 1, True), crew)]
        if crew > 1:
            entries.append(LegalAction(kind(origin, destination, 1, False), crew - 1))
        return entries
    return [LegalAction(kind(origin, destination, 1, False), crew)]


def _move_entries(game: _Game, seat: int) -> list[LegalAction]:
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


class DeepSpaceRules(VariantRules[DeepSpaceState, DeepSpaceOptions, DeepSpaceView]):
    """Risk Deep Space behind the engine interface."""

    name: ClassVar[str] = "deep_space"
    rules_version: ClassVar[int] = 1
    options_type: ClassVar[type[DeepSpaceOptions]] = DeepSpaceOptions
    state_type: ClassVar[type[DeepSpaceState]] = DeepSpaceState
    view_type: ClassVar[type[DeepSpaceView]] = DeepSpaceView
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES
    event_types: ClassVar[tuple[type[Event], ...]] = EVENT_TYPES
    work_type = _Game

    # ---- creation --------------------------------------------------------------------------

    def create(self, options: DeepSpaceOptions, seed: int) -> tuple[DeepSpaceState, list[Event]]:
        if options.players not in BOARD.layouts:
            raise _fail(Reason.INVALID_OPTIONS,
                        f"Deep Space takes {min(BOARD.layouts)} to {max(BOARD.layouts)} players")
        check_max_turns(options.max_turns)
        check_seed(seed)
        n = options.players
        rng = Pcg32.from_seed(seed)
        blank = DeepSpaceState(
            options=options,
            seed=seed,
            rng_state=rng.state,
            rng_inc=rng.inc,
            phase=Phase.START,
            current=0,
            turn=0,
            first_seat=NONE,
            stations=BOARD.layouts[n].stations,
            recruits=((0,) * NODES,) * n,
            supply=(RECRUITS_PER_COLOUR,) * n,
            bases=((),) * n,
            gems=(0,) * n,
            ore=(0,) * n,
            bank_gems=GEM_TOKENS,
            bank_ore=ORE_TOKENS,
            dogs=((0,) * NODES,) * n,
            force_fields=(NONE,) * NODES,
            hands=((),) * n,
            deck=(),
            discard=(),
            moves_left=0,
            mined=(),
            battle_cry=False,
            dog_planet=NONE,
            dog_seat=NONE,
            out=(False,) * n,
            out_order=(),
            winner=NONE,
            ranking=(),
            end_reason="",
        )
        game = _Game(blank)
        game.set_up()
        return game.freeze(), game.events

    # ---- queries ---------------------------------------------------------------------------

    def decision(self, state: DeepSpaceState) -> Decision:
        if state.phase is Phase.FINISHED:
            return Decision((), "finished")
        if state.phase is Phase.DOG:
            return Decision((state.dog_seat,), "relocate_dog")
        return Decision((state.current,), state.phase.name.lower())

    def legal_actions(self, state: DeepSpaceState, seat: int) -> list[LegalAction]:
        if seat not in self.decision(state).seats:
            return []
        game = _Game(state)
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

    def view(self, state: DeepSpaceState, viewer: int | None) -> DeepSpaceView:
        return DeepSpaceView(
            viewer=-1 if viewer is None else viewer,
            options=state.options,
            phase=state.phase,
            current=state.current,
            turn=state.turn,
            stations=state.stations,
            recruits=state.recruits,
            supply=state.supply,
            bases=state.bases,
            gems=state.gems,
            ore=state.ore,
            bank_gems=state.bank_gems,
            bank_ore=state.bank_ore,
            dogs=state.dogs,
            force_fields=state.force_fields,
            hands=state.hands,
            deck_count=len(state.deck),
            discard=state.discard,
            moves_left=state.moves_left,
            mined=state.mined,
            battle_cry=state.battle_cry,
            dog_planet=state.dog_planet,
            dog_seat=state.dog_seat,
            out=state.out,
            out_order=state.out_order,
            winner=state.winner,
            ranking=state.ranking,
            end_reason=state.end_reason,
        )

    def leave(self, game: _Game, seat: int) -> None:
        game.resign(seat)

    def default_action(self, state: DeepSpaceState, seat: int) -> Action:
        """The passive choice a timed-out seat makes: end the turn keeping the hand; a dog's
        owner keeps the dog, moving it to the lowest-numbered planet it may go to."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise _fail(Reason.NOT_YOUR_TURN, f"it is not seat {seat}'s decision")
        if state.phase is Phase.DOG:
            return legal[0].action
        return EndTurn()

    def bot_choose(self, view: DeepSpaceView, legal: Sequence[LegalAction], entropy: int
                   ) -> Action:
        return bot.choose(view, legal, Pcg32.from_seed(entropy, stream=view.viewer + 1))

    # ---- apply -----------------------------------------------------------------------------

    def apply(self, state: DeepSpaceState, seat: int, action: Action
              ) -> tuple[DeepSpaceState, list[Event]]:
        check_action(action, ACTION_TYPES, "Deep Space", seat=seat, players=state.options.players,
                     finished=state.phase is Phase.FINISHED,
                     deciding=self.decision(state).seats)
        handler = _HANDLERS.get((state.phase, type(action)))
        if handler is None:
            raise _fail(
                Reason.WRONG_PHASE,
                f"{type(action).__name__} is not allowed in phase {state.phase.name}",
            )
        game = _Game(state)
        handler(game, seat, action)
        return game.freeze(), game.events

