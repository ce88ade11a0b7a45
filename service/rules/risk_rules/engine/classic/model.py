"""Classic Risk values: options, phases, the game state, the player's view, actions, events."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum
from typing import ClassVar

from risk_rules.engine.core.ruleset import Action, Event

HIDDEN = -1  # a card id a viewer is not entitled to see


class SetupMode(IntEnum):
    CLAIM = 1
    RANDOM_DEAL = 2


class TradeSchedule(IntEnum):
    SEED = 1  # 4, 6, 8, 10, then +5
    HASBRO_1993 = 2  # 4, 6, 8, 10, 12, 15, then +5
    FIXED = 3  # by the set: infantry 4, cavalry 6, artillery 8, one of each 10


class FortifyMode(IntEnum):
    CONNECTED = 1
    ADJACENT = 2


class Phase(IntEnum):
    CLAIM = 1
    SETUP_PLACE = 2
    SETUP_NEUTRAL = 3
    REINFORCE = 4
    ATTACK = 5
    DEFEND = 6
    MOVE_IN = 7
    FORTIFY = 8
    FINISHED = 9


@dataclass(frozen=True, slots=True)
class ClassicOptions:
    players: int = 4
    setup: SetupMode = SetupMode.CLAIM
    auto_place: bool = False
    trade_schedule: TradeSchedule = TradeSchedule.SEED
    fortify: FortifyMode = FortifyMode.CONNECTED
    # None (unset): decided by the game's clock (`ClassicRules.settle_options`): on for a timed
    # game, off otherwise; a created game's state always holds the decision
    auto_defend_max_dice: bool | None = None
    cards: bool = True
    max_turns: int = 400
    # duplicate play's draw discipline (core.draws); None (unset) is off, as for every game
    # created before it, whose options and states keep their bytes
    duplicate_draws: bool | None = None


@dataclass(frozen=True)  # no slots: built with core.values.build, see there
class ClassicState:
    """The whole game, secrets included. Seat n (== players) is the neutral in a 2-player game."""

    options: ClassicOptions
    seed: int
    rng_state: int
    rng_inc: int
    phase: Phase
    current: int  # the seat whose turn (or setup step) it is
    turn: int  # main-game turns started so far (0 during setup)
    first_seat: int  # who took (or will take) the first main-game turn
    owner: tuple[int, ...]  # per territory: -1 unclaimed, a seat, or the neutral
    armies: tuple[int, ...]
    to_place: tuple[int, ...]  # starting armies not yet placed, per seat and the neutral
    hands: tuple[tuple[int, ...], ...]  # sorted card ids per seat
    deck: tuple[int, ...]  # draw pile, top first
    discard: tuple[int, ...]
    trades_done: int  # sets traded by all players; drives the escalating schedule
    pending: int  # armies to place in this step (reinforcements, or 2-player setup allowance)
    bonus_used: bool  # the +2 territory bonus was taken this turn
    conquered: bool  # the current seat conquered a territory this turn
    resume_attack: bool  # REINFORCE entered from an elimination: return to ATTACK afterwards
    eliminated: tuple[bool, ...]
    out_order: tuple[int, ...]  # seats in the order they were eliminated or resigned
    attack_from: int  # -1 when no attack is pending
    attack_to: int
    attack_dice: int  # dice the attacker rolls (or rolled, during MOVE_IN)
    winner: int  # -1 until decided; -1 also for a draw
    ranking: tuple[int, ...]  # set when FINISHED
    end_reason: str
    # with duplicate_draws: the shuffle and other streams' states (core.draws); else empty
    draw_streams: tuple[int, ...] = ()


@dataclass(frozen=True)  # no slots: built with core.values.build, see there
class ClassicView:
    """What one viewer may see. No deck order, no seed, no generator state, no other hands."""

    viewer: int  # the seat, or -1 for a spectator
    options: ClassicOptions
    phase: Phase
    current: int
    turn: int
    owner: tuple[int, ...]
    armies: tuple[int, ...]
    to_place: tuple[int, ...]
    hand: tuple[int, ...]  # the viewer's own cards
    hand_counts: tuple[int, ...]
    deck_count: int
    discard: tuple[int, ...]  # traded cards are shown face up, so the discard pile is public
    trades_done: int
    next_trade_value: int  # 0 under the fixed schedule, where the set decides
    pending: int
    bonus_used: bool
    conquered: bool
    eliminated: tuple[bool, ...]
    out_order: tuple[int, ...]
    attack_from: int
    attack_to: int
    attack_dice: int
    winner: int
    ranking: tuple[int, ...]
    end_reason: str


# ---- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClaimTerritory(Action):
    territory: int


@dataclass(frozen=True, slots=True)
class PlaceArmies(Action):
    territory: int
    count: int


@dataclass(frozen=True, slots=True)
class PlaceNeutral(Action):
    territory: int


@dataclass(frozen=True, slots=True)
class TradeCards(Action):
    cards: tuple[int, ...]  # three card ids, ascending
    bonus_territory: int = -1  # which traded territory gets the +2, when one is owned


@dataclass(frozen=True, slots=True)
class Attack(Action):
    from_territory: int
    to_territory: int
    dice: int


@dataclass(frozen=True, slots=True)
class Defend(Action):
    dice: int


@dataclass(frozen=True, slots=True)
class MoveIn(Action):
    count: int


@dataclass(frozen=True, slots=True)
class EndAttack(Action):
    pass


@dataclass(frozen=True, slots=True)
class Fortify(Action):
    from_territory: int
    to_territory: int
    count: int


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    pass


ACTION_TYPES: tuple[type[Action], ...] = (
    ClaimTerritory, PlaceArmies, PlaceNeutral, TradeCards, Attack, Defend, MoveIn, EndAttack,
    Fortify, EndTurn,
)


# ---- events ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OrderRolled(Event):
    """One round of the roll-off for who goes first; tied high rollers roll again."""

    purpose: str  # "setup" or "first_turn"
    seats: tuple[int, ...]
    rolls: tuple[int, ...]
    winner: int  # -1 when the round tied


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    cards: int  # how many cards; the order stays secret


@dataclass(frozen=True, slots=True)
class TerritoriesDealt(Event):
    owner: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TerritoryClaimed(Event):
    seat: int
    territory: int


@dataclass(frozen=True, slots=True)
class ArmiesPlaced(Event):
    seat: int  # the neutral's index when a player places for the neutral
    territory: int
    count: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    turn: int
    reinforcements: int
    continent_bonus: int


@dataclass(frozen=True, slots=True)
class CardsTraded(Event):
    seat: int
    cards: tuple[int, ...]
    armies: int
    bonus_territory: int
    trade_number: int


@dataclass(frozen=True)  # no slots: built with core.values.build on every attack
class AttackDeclared(Event):
    seat: int
    from_territory: int
    to_territory: int
    dice: int
    defender: int


@dataclass(frozen=True)  # no slots: built with core.values.build on every attack
class BattleResolved(Event):
    attacker: int
    defender: int
    from_territory: int
    to_territory: int
    attack_dice: tuple[int, ...]
    defence_dice: tuple[int, ...]
    attacker_losses: int
    defender_losses: int


@dataclass(frozen=True, slots=True)
class TerritoryConquered(Event):
    seat: int
    territory: int
    previous_owner: int


@dataclass(frozen=True, slots=True)
class ArmiesMoved(Event):
    seat: int
    from_territory: int
    to_territory: int
    count: int


@dataclass(frozen=True, slots=True)
class PlayerEliminated(Event):
    seat: int
    by: int
    cards_taken: tuple[int, ...]

    def for_viewer(self, viewer: int | None) -> Event | None:
        if viewer in (self.seat, self.by):
            return self
        return replace(self, cards_taken=(HIDDEN,) * len(self.cards_taken))


@dataclass(frozen=True, slots=True)
class PlayerResigned(Event):
    """The seat left the game; its territories and armies stay on the board as neutral."""

    seat: int
    neutral: int  # the owner id its territories now have


@dataclass(frozen=True, slots=True)
class AttackEnded(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    seat: int
    card: int

    def for_viewer(self, viewer: int | None) -> Event | None:
        return self if viewer == self.seat else replace(self, card=HIDDEN)


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    terminal: ClassVar[bool] = True

    winner: int
    ranking: tuple[int, ...]
    reason: str


EVENT_TYPES: tuple[type[Event], ...] = (
    OrderRolled, DeckShuffled, TerritoriesDealt, TerritoryClaimed, ArmiesPlaced, TurnStarted,
    CardsTraded, AttackDeclared, BattleResolved, TerritoryConquered, ArmiesMoved,
    PlayerEliminated, AttackEnded, CardDrawn, TurnEnded, GameEnded, PlayerResigned,
)
