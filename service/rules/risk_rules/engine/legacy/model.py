"""Risk Legacy game values: options, phases, the game state, a viewer's view, actions, events.

Ids: territories are the classic ones (0 Alaska ... 41 Eastern Australia), continents 0-5 in
the classic order. Resource cards share one id space: 0-41 the territory card of that
territory, 42-53 the coin cards. Scar kinds travel as plain integers where a viewer may not see
them (1 Bunker, 2 Ammo Shortage, 0 none, -1 hidden).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import ClassVar

from risk_rules.engine.core.ruleset import Action, Event
from risk_rules.engine.core.windows import ResponseWindow
from risk_rules.engine.legacy.world import Scar, World

HIDDEN = -1  # a card id or scar kind the viewer may not see
NOBODY = -1  # no seat (an empty territory, no defender, a draw)
NO_TERRITORY = -1
DEFAULT_MAX_TURNS = 200  # bot games end by Red Stars long before (docs/rules-legacy.md)


class Phase(IntEnum):
    SETUP_HQ = 1  # seats place their HQ and starting troops, clockwise from the first
    START = 2  # start of a turn: scar window, buy Red Stars, then join or recruit (untold)
    RECRUIT = 3  # the recruits are told: trade resources (once) and place them
    ATTACK = 4  # expand, attack (and for some powers maneuver)
    DEFEND = 5  # the defender chooses its dice
    BATTLE = 6  # the dice are on the table: the missile window is open
    MOVE_IN = 7  # after a conquest: how many troops move in
    MANEUVER = 8  # the one maneuver, or end the turn
    DRAW = 9  # end of turn: choose a face-up territory card
    FINISHED = 10


class WindowKind(IntEnum):
    """What a `ResponseWindow` in a Legacy game answers (its `kind`)."""

    SCAR = 1  # a turn starts: scar cards may be played
    MISSILE = 2  # dice were rolled: missiles may be fired


class Side(IntEnum):
    ATTACKER = 1
    DEFENDER = 2


@dataclass(frozen=True, slots=True)
class LegacyOptions:
    """One game. The world (and the seats' factions and powers in it) comes from the campaign;
    the defaults make a stand-alone game on an unplayed board."""

    players: int = 4
    max_turns: int = DEFAULT_MAX_TURNS
    campaign_id: str = ""  # the campaign this game belongs to ("" for a stand-alone game)
    auto_defend_max_dice: bool = False
    world: World = field(default_factory=World)


@dataclass(frozen=True, slots=True)
class LegacyState:
    """The whole game, secrets included (deck order, hands, scar cards, the generator)."""

    options: LegacyOptions
    seed: int
    rng_state: int
    rng_inc: int
    phase: Phase
    current: int  # the active seat (during setup: the seat placing its HQ)
    turn: int  # turns started, every seat's counted (0 during setup)
    first_seat: int
    owner: tuple[int, ...]  # per territory: a seat, or -1 (unoccupied)
    troops: tuple[int, ...]
    hqs: tuple[int, ...]  # per seat: its HQ's territory, or -1
    stars: tuple[int, ...]  # per seat: Red Star tokens
    missiles: tuple[int, ...]  # per seat: missiles left
    scar_cards: tuple[int, ...]  # per seat: the scar card held (Scar value) or 0
    hands: tuple[tuple[int, ...], ...]  # resource card ids per seat, sorted
    deck: tuple[int, ...]  # territory cards, top first
    discard: tuple[int, ...]  # territory cards spent or cycled off the sideboard (face up)
    coin_pile: tuple[int, ...]  # coin cards not in a hand, sorted
    sideboard: tuple[int, ...]  # the face-up slots 1..4: a territory card id, or -1
    scars: tuple[int, ...]  # per territory: Scar value or 0 (the world's, plus scars played)
    fortifications: tuple[int, ...]  # per territory: marks left, 0 = not fortified
    pending: int  # recruits still to place
    traded: bool  # the one trade of the turn is done
    conquered: bool  # the active seat conquered a territory from an opponent this turn
    expansions: int  # unoccupied territories expanded into this turn
    maneuvered: bool
    ferocity_target: int  # Enclave: -1 none yet, the first territory attacked, -2 over
    protected: tuple[int, ...]  # territories no longer attackable this turn (two natural 6s)
    draws_left: int  # cards still to take at the end of this turn
    attack_from: int
    attack_to: int
    attack_count: int  # attack dice (and the least to move in)
    defence_count: int
    attack_dice: tuple[int, ...]  # as rolled, high to low
    defence_dice: tuple[int, ...]
    attack_missiles: tuple[bool, ...]  # per attack die: turned into an unmodifiable 6
    defence_missiles: tuple[bool, ...]
    windows: tuple[ResponseWindow, ...]  # at most one: the scar or the missile window
    eliminated: tuple[bool, ...]  # failed to join the war (the campaign records it)
    out: tuple[bool, ...]  # eliminated or resigned: no longer plays
    out_order: tuple[int, ...]
    winner: int
    ranking: tuple[int, ...]
    end_reason: str


@dataclass(frozen=True, slots=True)
class LegacyView:
    """What one viewer may see: its own hand and scar card, and every public fact."""

    viewer: int  # the seat, or -1 for a spectator
    options: LegacyOptions
    phase: Phase
    current: int
    turn: int
    owner: tuple[int, ...]
    troops: tuple[int, ...]
    hqs: tuple[int, ...]
    stars: tuple[int, ...]
    red_stars: tuple[int, ...]  # per seat: tokens plus HQs controlled
    missiles: tuple[int, ...]
    scar_card: int  # the viewer's own scar card (0 none)
    has_scar_card: tuple[bool, ...]  # whether each seat still holds one (public)
    hand: tuple[int, ...]
    hand_counts: tuple[int, ...]
    deck_count: int
    discard: tuple[int, ...]
    coin_count: int
    sideboard: tuple[int, ...]
    scars: tuple[int, ...]
    fortifications: tuple[int, ...]
    population: tuple[int, ...]  # per territory: its city's population (0 none)
    card_values: tuple[int, ...]  # per territory card: its resources
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
    attack_missiles: tuple[bool, ...]
    defence_missiles: tuple[bool, ...]
    windows: tuple[ResponseWindow, ...]
    eliminated: tuple[bool, ...]
    out: tuple[bool, ...]
    out_order: tuple[int, ...]
    winner: int
    ranking: tuple[int, ...]
    end_reason: str


# ---- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlaceHq(Action):
    """Setup: the HQ and the starting troops go on a legal starting territory."""

    territory: int


@dataclass(frozen=True, slots=True)
class PlayScar(Action):
    """Scar window: the held scar card goes on a territory without a scar."""

    territory: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline when a window asks."""


@dataclass(frozen=True, slots=True)
class BuyRedStar(Action):
    """Start of turn: 4 resource cards for a Red Star token. Cards of equal value are
    interchangeable, so the action names the values (high to low) and the engine spends coin
    cards first, then territory cards by ascending id."""

    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class JoinWar(Action):
    """Start of turn, with no territory: half the starting troops on a legal start."""

    territory: int


@dataclass(frozen=True, slots=True)
class TradeResources(Action):
    """Recruit: spend cards worth 2 or more resources (values high to low) for troops."""

    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlaceTroops(Action):
    territory: int
    count: int


@dataclass(frozen=True, slots=True)
class Expand(Action):
    """Move into an adjacent unoccupied territory; a city there costs troops."""

    from_territory: int
    to_territory: int
    count: int


@dataclass(frozen=True, slots=True)
class Attack(Action):
    from_territory: int
    to_territory: int
    dice: int


@dataclass(frozen=True, slots=True)
class Defend(Action):
    dice: int


@dataclass(frozen=True, slots=True)
class FireMissile(Action):
    """Missile window: one die (index into that side's dice, high to low) becomes an
    unmodifiable 6."""

    side: Side
    die: int


@dataclass(frozen=True, slots=True)
class MoveIn(Action):
    count: int


@dataclass(frozen=True, slots=True)
class EndAttack(Action):
    pass


@dataclass(frozen=True, slots=True)
class Maneuver(Action):
    from_territory: int
    to_territory: int
    count: int


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Skip the maneuver and end the turn (at the start of a turn: give up a join that has no
    legal territory, which eliminates the seat)."""


@dataclass(frozen=True, slots=True)
class TakeCard(Action):
    """End of turn: the face-up card in `slot` (0-3), which shows a territory the seat holds."""

    slot: int


ACTION_TYPES: tuple[type[Action], ...] = (
    PlaceHq, PlayScar, Pass, BuyRedStar, JoinWar, TradeResources, PlaceTroops, Expand, Attack,
    Defend, FireMissile, MoveIn, EndAttack, Maneuver, EndTurn, TakeCard,
)


# ---- events ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OrderRolled(Event):
    """One round of the roll for who goes first; tied high rollers roll again."""

    seats: tuple[int, ...]
    rolls: tuple[int, ...]
    winner: int  # -1 when the round tied


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    cards: int  # how many; the order stays secret


@dataclass(frozen=True, slots=True)
class SideboardChanged(Event):
    slots: tuple[int, ...]  # the face-up cards now, slot 1 first (-1: empty)
    discarded: int  # the card pushed off slot 4 to the discard, or -1


@dataclass(frozen=True, slots=True)
class ScarCardDealt(Event):
    """Only the seat sees which scar it was dealt; others see that it holds one."""

    seat: int
    scar: int

    def for_viewer(self, viewer: int | None) -> Event | None:
        return self if viewer == self.seat else replace(self, scar=HIDDEN)


@dataclass(frozen=True, slots=True)
class StartingTokens(Event):
    """A seat's tokens for this game: a Red Star if it never signed, else a missile per
    signature."""

    seat: int
    stars: int
    missiles: int


@dataclass(frozen=True, slots=True)
class HqPlaced(Event):
    seat: int
    territory: int
    troops: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    turn: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class ScarPlayed(Event):
    seat: int
    scar: Scar
    territory: int


@dataclass(frozen=True, slots=True)
class RedStarBought(Event):
    seat: int
    cards: tuple[int, ...]  # spent face up: territory cards to the discard, coins to the pile
    stars: int  # the seat's tokens now


@dataclass(frozen=True, slots=True)
class JoinedWar(Event):
    seat: int
    territory: int
    troops: int


@dataclass(frozen=True, slots=True)
class PlayerEliminated(Event):
    """The seat had to join the war and no legal starting territory was left."""

    seat: int


@dataclass(frozen=True, slots=True)
class TroopsRecruited(Event):
    seat: int
    territories: int
    population: int
    base: int  # (territories + population) / 3, rounded, at least 3
    continent_bonus: int
    hq_troops: int  # Khan Industries: placed on its HQs at once


@dataclass(frozen=True, slots=True)
class ResourcesTraded(Event):
    seat: int
    cards: tuple[int, ...]
    resources: int
    troops: int


@dataclass(frozen=True, slots=True)
class TroopsPlaced(Event):
    seat: int
    territory: int
    count: int


@dataclass(frozen=True, slots=True)
class Expanded(Event):
    seat: int
    from_territory: int
    to_territory: int
    count: int  # troops that left
    cost: int  # of them, lost to the city (population, +2 fortified)


@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    seat: int
    from_territory: int
    to_territory: int
    dice: int
    defender: int


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    attack: tuple[int, ...]  # as rolled, high to low
    defence: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MissileFired(Event):
    seat: int
    side: Side
    die: int
    missiles: int  # the seat's missiles left


@dataclass(frozen=True, slots=True)
class BattleResolved(Event):
    attacker: int
    defender: int
    from_territory: int
    to_territory: int
    attack_dice: tuple[int, ...]  # natural, high to low
    defence_dice: tuple[int, ...]
    attack_final: tuple[int, ...]  # after missiles and modifiers, high to low, as compared
    defence_final: tuple[int, ...]
    attacker_losses: int
    defender_losses: int
    natural_triple: bool  # Enclave's power took every defender


@dataclass(frozen=True, slots=True)
class FortificationWorn(Event):
    territory: int
    marks: int  # left; 0: the fortification is gone


@dataclass(frozen=True, slots=True)
class AttacksStopped(Event):
    """Die Mechaniker rolled two natural 6s: no more attacks on the territory this turn."""

    territory: int


@dataclass(frozen=True, slots=True)
class TerritoryConquered(Event):
    seat: int
    territory: int
    previous_owner: int


@dataclass(frozen=True, slots=True)
class TroopsMoved(Event):
    """Troops followed a conquest in."""

    seat: int
    from_territory: int
    to_territory: int
    count: int


@dataclass(frozen=True, slots=True)
class PlayerKnockedOut(Event):
    """The seat lost its last troop (it is not eliminated: it joins the war again); the
    attacker takes its resource cards, which only the two of them see."""

    seat: int
    by: int
    cards_taken: tuple[int, ...]

    def for_viewer(self, viewer: int | None) -> Event | None:
        if viewer in (self.seat, self.by):
            return self
        return replace(self, cards_taken=(HIDDEN,) * len(self.cards_taken))


@dataclass(frozen=True, slots=True)
class AttackEnded(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class Maneuvered(Event):
    seat: int
    from_territory: int
    to_territory: int
    count: int


@dataclass(frozen=True, slots=True)
class CardTaken(Event):
    """End of turn: a face-up territory card (from `slot`) or a coin card (slot -1)."""

    seat: int
    card: int
    slot: int


@dataclass(frozen=True, slots=True)
class CardChoiceOffered(Event):
    """End of turn: more than one face-up card shows a territory the seat holds, so the turn
    waits for its `TakeCard` (without this event a follower of the stream could not tell that
    the turn is over but for the choice)."""

    seat: int
    slots: tuple[int, ...]  # the sideboard slots it may take, ascending


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class PlayerResigned(Event):
    """The seat left: its troops leave the board, its cards go back, its scar card returns
    to the supply unplayed."""

    seat: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    terminal: ClassVar[bool] = True

    winner: int
    ranking: tuple[int, ...]
    reason: str  # "red_stars", "last_standing", "resignation", "turn_cap"


EVENT_TYPES: tuple[type[Event], ...] = (
    OrderRolled, DeckShuffled, SideboardChanged, ScarCardDealt, StartingTokens, HqPlaced,
    TurnStarted, Passed, ScarPlayed, RedStarBought, JoinedWar, PlayerEliminated,
    TroopsRecruited, ResourcesTraded, TroopsPlaced, Expanded, AttackDeclared, DiceRolled,
    MissileFired, BattleResolved, FortificationWorn, AttacksStopped, TerritoryConquered,
    TroopsMoved, PlayerKnockedOut, AttackEnded, Maneuvered, CardTaken, TurnEnded,
    PlayerResigned, GameEnded, CardChoiceOffered,
)
