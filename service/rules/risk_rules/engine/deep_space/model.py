"""Risk Deep Space values: options, phases, the game state, a viewer's view, actions, events.

Node ids index the board (`board.json`): the planets first, then the home stations. Per-seat
tables (`recruits`, `dogs`) hold one row per seat and one column per node, so a recruit on a
home station is a count in that station's column. Everything is public except the draw pile's
order and the generator: hands are dealt face up.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

from risk_rules.engine.core.ruleset import Action, Event

NONE = -1  # no planet, no seat, no card


class Phase(IntEnum):
    START = 1  # the turn has just begun: trade two cards for a recruit, mine, or act
    MINING = 2  # the seat has mined: it may mine more planets or act
    MAIN = 3  # any other action was taken: mining is over for the turn
    DOG = 4  # an opponent's card emptied a planet: the dog's owner says where the dog goes
    FINISHED = 5


class Resource(IntEnum):
    GEM = 1
    ORE = 2


class CardKind(IntEnum):
    """The effects an action card can have; the deck file says how many of each and the cost."""

    SPACE_DOG = 1
    FORCE_FIELD = 2
    METEOR_STRIKE = 3
    HYPERJUMP = 4
    REINFORCEMENTS = 5
    GEM_RUSH = 6
    ORE_HAUL = 7
    BATTLE_CRY = 8
    PROSPECTOR = 9
    SABOTAGE = 10


class Cost(IntEnum):
    FREE = 1
    GEM = 2
    RECRUIT = 3


# Components (seed): finite supplies, the setup and the goal.
RECRUITS_PER_COLOUR = 32
BASES_PER_COLOUR = 5
GEM_TOKENS = 31
ORE_TOKENS = 31
FORCE_FIELD_TOKENS = 2
SPACE_DOG_TOKENS = 3
START_RECRUITS = 3
START_GEMS = 2
HAND_SIZE = 2  # hands are refilled to 2 at the start and the end of a turn
MOVES_PER_TURN = 2
MINE_RECRUITS = 2  # recruits a planet needs before its owner may mine it
BASE_RECRUITS = 3
BASE_ORE = 3
TRADE_CARDS = 2  # cards traded for one recruit at the start of a turn
WINNING_BASES = {2: 5, 3: 4, 4: 4}


@dataclass(frozen=True, slots=True)
class DeepSpaceOptions:
    players: int = 4
    max_turns: int = 200  # every seat's turn counts; the game is a ranked draw after that
    # duplicate play's draw discipline (core.draws); None (unset) is off, as for every game
    # created before it, whose options and states keep their bytes
    duplicate_draws: bool | None = None


@dataclass(frozen=True, slots=True)
class DeepSpaceState:
    """The whole game, the draw pile's order and the generator included."""

    options: DeepSpaceOptions
    seed: int
    rng_state: int
    rng_inc: int
    phase: Phase
    current: int  # whose turn it is
    turn: int  # turns started so far, every seat's counted
    first_seat: int
    stations: tuple[int, ...]  # per seat: the node id of its home station
    recruits: tuple[tuple[int, ...], ...]  # per seat, per node
    supply: tuple[int, ...]  # per seat: recruits off the board
    bases: tuple[tuple[int, ...], ...]  # per seat: planets with its base, ascending
    gems: tuple[int, ...]
    ore: tuple[int, ...]
    bank_gems: int
    bank_ore: int
    dogs: tuple[tuple[int, ...], ...]  # per seat, per node: space-dog tokens with its recruits
    force_fields: tuple[int, ...]  # per node: the seat whose force field is there, or -1
    hands: tuple[tuple[int, ...], ...]  # per seat: card ids, ascending (face up)
    deck: tuple[int, ...]  # draw pile, top first
    discard: tuple[int, ...]
    moves_left: int  # moves the current seat may still make this turn
    mined: tuple[int, ...]  # planets mined this turn (one resource per planet)
    battle_cry: bool  # the current seat wins ties in its next battle this turn
    dog_planet: int  # DOG phase: the emptied planet whose dogs wait for their owner's choice
    dog_seat: int  # DOG phase: that dogs' owner
    out: tuple[bool, ...]  # per seat: resigned
    out_order: tuple[int, ...]
    winner: int
    ranking: tuple[int, ...]
    end_reason: str
    # with duplicate_draws: the shuffle and other streams' states (core.draws); else empty
    draw_streams: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DeepSpaceView:
    """What a viewer sees: everything but the draw pile's order, the seed and the generator."""

    viewer: int  # the seat, or -1 for a spectator
    options: DeepSpaceOptions
    phase: Phase
    current: int
    turn: int
    stations: tuple[int, ...]
    recruits: tuple[tuple[int, ...], ...]
    supply: tuple[int, ...]
    bases: tuple[tuple[int, ...], ...]
    gems: tuple[int, ...]
    ore: tuple[int, ...]
    bank_gems: int
    bank_ore: int
    dogs: tuple[tuple[int, ...], ...]
    force_fields: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]  # every hand: cards are dealt and drawn face up
    deck_count: int
    discard: tuple[int, ...]
    moves_left: int
    mined: tuple[int, ...]
    battle_cry: bool
    dog_planet: int
    dog_seat: int
    out: tuple[bool, ...]
    out_order: tuple[int, ...]
    winner: int
    ranking: tuple[int, ...]
    end_reason: str


# ---- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TradeCards(Action):
    """At the start of the turn: two cards from the hand for one recruit on the home station."""

    cards: tuple[int, ...]  # two card ids, ascending


@dataclass(frozen=True, slots=True)
class Mine(Action):
    """Before any other action: 1 gem or 1 ore from a planet with 2+ own recruits."""

    planet: int
    resource: Resource


@dataclass(frozen=True, slots=True)
class Recruit(Action):
    """Buy `count` recruits at 1 gem each; they start on the home station."""

    count: int


@dataclass(frozen=True, slots=True)
class Move(Action):
    """A crew of `count` recruits along one link. `with_dog`: the owner's space dogs on the
    origin go too (they must when the whole crew leaves)."""

    origin: int  # a planet, or the seat's own home station
    destination: int
    count: int
    with_dog: bool = False


@dataclass(frozen=True, slots=True)
class Warp(Action):
    """A crew through the gem warp, from one warp planet to another: 1 gem, one move."""

    origin: int
    destination: int
    count: int
    with_dog: bool = False


@dataclass(frozen=True, slots=True)
class BuildBase(Action):
    """3 ore, on a planet with 3+ own recruits and no own base."""

    planet: int


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Play `card` from the hand. Fields a card does not use keep their defaults; `pay_from`
    names where the recruit comes from for cards that cost one (a planet or the home station)."""

    card: int
    planet: int = NONE  # Space Dog, Force Field, Meteor Strike, Prospector
    target: int = NONE  # Sabotage: the opponent seat
    count: int = 0  # Meteor Strike: recruits removed (1 up to the card's amount)
    resource: Resource = Resource.GEM  # Prospector: what it mines
    pay_from: int = NONE  # cards that cost a recruit


@dataclass(frozen=True, slots=True)
class RelocateDog(Action):
    """The DOG decision: move the dogs of the emptied planet to another planet of the owner's."""

    planet: int


@dataclass(frozen=True, slots=True)
class ReturnDog(Action):
    """The DOG decision: the dogs of the emptied planet go back to the bank."""


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Replenish, optionally discard one card and draw one (`discard` -1: keep the hand),
    refill the hand to 2, and pass the turn."""

    discard: int = NONE


ACTION_TYPES: tuple[type[Action], ...] = (
    TradeCards, Mine, Recruit, Move, Warp, BuildBase, PlayCard, RelocateDog, ReturnDog, EndTurn,
)


# ---- events (all public: nothing in Deep Space is hidden but the draw pile's order) ----------


@dataclass(frozen=True, slots=True)
class OrderRolled(Event):
    """One round of the roll for who goes first; tied high rollers roll again."""

    seats: tuple[int, ...]
    rolls: tuple[int, ...]
    winner: int  # -1 when the round tied


@dataclass(frozen=True, slots=True)
class PlayerSetUp(Event):
    seat: int
    station: int
    recruits: int
    gems: int


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    cards: int  # how many; the order stays secret


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    seat: int
    card: int  # face up: everyone sees it


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    turn: int


@dataclass(frozen=True, slots=True)
class ForceFieldExpired(Event):
    seat: int
    planet: int


@dataclass(frozen=True, slots=True)
class CardsTraded(Event):
    seat: int
    cards: tuple[int, ...]
    recruits: int


@dataclass(frozen=True, slots=True)
class Mined(Event):
    """A resource taken from the bank for a planet (by mining or a Prospector)."""

    seat: int
    planet: int
    resource: Resource


@dataclass(frozen=True, slots=True)
class Recruited(Event):
    seat: int
    count: int  # recruits bought, as many gems paid


@dataclass(frozen=True, slots=True)
class Moved(Event):
    seat: int
    origin: int
    destination: int
    count: int
    dogs: int  # space dogs that went with the crew
    warp: bool


@dataclass(frozen=True, slots=True)
class BattleRolled(Event):
    """One roll of a battle: each side rolls a die; the loser loses a recruit (or a dog)."""

    planet: int
    attacker: int
    defender: int
    attacker_roll: int
    defender_roll: int
    loser: int
    dog: bool  # the loss fell on the loser's space dog instead of a recruit


@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    planet: int
    attacker: int
    defender: int
    winner: int
    survivors: int  # the winner's recruits left on the planet


@dataclass(frozen=True, slots=True)
class BaseBuilt(Event):
    seat: int
    planet: int
    bases: int  # the seat's bases now


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card played, with what it was aimed at and what was paid for it."""

    seat: int
    card: int
    kind: CardKind
    planet: int
    target: int
    count: int
    gems_paid: int
    recruit_from: int  # where the recruit paid came from, or -1


@dataclass(frozen=True, slots=True)
class RecruitsPlaced(Event):
    """Recruits from the supply put on the home station by a card (Reinforcements)."""

    seat: int
    station: int
    count: int


@dataclass(frozen=True, slots=True)
class RecruitsRemoved(Event):
    """Recruits taken off a planet by an opponent's card (Meteor Strike)."""

    seat: int
    planet: int
    count: int


@dataclass(frozen=True, slots=True)
class ResourcesTaken(Event):
    """Gems or ore from the bank by a card (Gem Rush, Ore Haul)."""

    seat: int
    resource: Resource
    count: int


@dataclass(frozen=True, slots=True)
class OreReturned(Event):
    """Ore an opponent's Sabotage sent back to the bank."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class DogPlaced(Event):
    seat: int
    planet: int


@dataclass(frozen=True, slots=True)
class DogRelocated(Event):
    seat: int
    from_planet: int
    to_planet: int
    dogs: int


@dataclass(frozen=True, slots=True)
class DogReturned(Event):
    """Dogs back to the bank: their planet was emptied and they did not (or could not) move."""

    seat: int
    planet: int
    dogs: int


@dataclass(frozen=True, slots=True)
class ForceFieldPlaced(Event):
    seat: int
    planet: int


@dataclass(frozen=True, slots=True)
class CardDiscarded(Event):
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Replenished(Event):
    seat: int
    count: int  # recruits put on the home station: 1 + own bases, as far as the supply goes


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class PlayerResigned(Event):
    """The seat left: its recruits, dogs, force fields, gems, ore and cards left the board."""

    seat: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    terminal: ClassVar[bool] = True

    winner: int
    ranking: tuple[int, ...]
    reason: str


EVENT_TYPES: tuple[type[Event], ...] = (
    OrderRolled, PlayerSetUp, DeckShuffled, CardDrawn, TurnStarted, ForceFieldExpired,
    CardsTraded, Mined, Recruited, Moved, BattleRolled, BattleEnded, BaseBuilt, CardPlayed,
    RecruitsPlaced, RecruitsRemoved, ResourcesTaken, OreReturned, DogPlaced, DogRelocated,
    DogReturned, ForceFieldPlaced, CardDiscarded, Replenished, TurnEnded, PlayerResigned,
    GameEnded,
)
