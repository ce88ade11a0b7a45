"""Risk Strike values: options, phases, the game state, a viewer's view, actions, events."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum
from typing import ClassVar

from risk_rules.engine.core.ruleset import Action, Event
from risk_rules.engine.core.windows import ResponseWindow

HIDDEN = -1  # a card id a viewer is not entitled to see
NOBODY = -1  # no seat (no defender, a coin in the bank, a card to the surrender pile)
NO_CONTINENT = -1


class Tactic(IntEnum):
    TROOPS = 1
    ARTILLERY = 2
    SABOTAGE = 3
    SPY = 4
    RALLY = 5
    EXPAND = 6
    BOMBARD = 7
    CANCEL_ORDER = 8


class Side(IntEnum):
    """The side of a battle a seat is on (0 in `sides` means none)."""

    ATTACKER = 1
    DEFENDER = 2


class Phase(IntEnum):
    DRAW = 1  # the active player draws 2 cards
    MAIN = 2  # attack, or pass (draw a tactics card, end the turn)
    DEPLOY = 3  # attacker, defender, then supporters deploy Troops (a window asked once round)
    AFTER_DEPLOY = 4  # window: Artillery, Sabotage
    AFTER_ROLL = 5  # window: Rally, Bombard (battle players), Artillery (anyone)
    CONTINUE = 6  # the attacker rolls again or stops
    FINISHED = 7


class WindowKind(IntEnum):
    """What a `ResponseWindow` in a Strike game answers (its `kind`)."""

    DEPLOY = 1
    AFTER_DEPLOY = 2
    AFTER_ROLL = 3
    CANCEL = 4  # a tactics card was played: others may answer with Cancel Order


class Deck(IntEnum):
    CONTINENT = 1
    TACTICS = 2


@dataclass(frozen=True, slots=True)
class StrikeOptions:
    players: int = 4
    max_turns: int = 200
    auto_pass: bool = False  # pass for a seat that has nothing it could play (reveals that)
    # duplicate play's draw discipline (core.draws); None (unset) is off, as for every game
    # created before it, whose options and states keep their bytes
    duplicate_draws: bool | None = None


@dataclass(frozen=True, slots=True)
class TacticPlay:
    """A played tactics card waiting in a Cancel Order chain (public: it lies face up)."""

    seat: int
    card: Tactic
    card_id: int
    target: int = NOBODY  # Spy, Artillery: the chosen player
    side: int = 0  # Bombard: the side whose die changes (1 attacker, 2 defender)
    die: int = -1  # Bombard: index into that side's dice (high to low)
    continent_cards: bool = False  # Expand: 2 continent cards (true) or 1 tactics card


@dataclass(frozen=True, slots=True)
class StrikeState:
    """The whole game, secrets included (the decks' order, the hands, the generator)."""

    options: StrikeOptions
    seed: int
    rng_state: int
    rng_inc: int
    phase: Phase
    current: int  # the active player
    turn: int  # turns started so far, every seat's counted
    first_seat: int
    continents: tuple[tuple[int, ...], ...]  # face-up continent cards per seat
    hands: tuple[tuple[int, ...], ...]  # hidden tactics cards per seat
    continent_deck: tuple[int, ...]  # top first
    tactics_deck: tuple[int, ...]
    surrender: tuple[int, ...]  # the surrender pile (face up)
    tactics_discard: tuple[int, ...]  # face up
    coins: tuple[int, ...]  # per continent: the seat holding its coin, or -1 (bank)
    out: tuple[bool, ...]  # seats that resigned
    out_order: tuple[int, ...]
    defender: int  # -1 outside a battle
    from_continent: int
    to_continent: int
    troops: tuple[tuple[int, ...], ...]  # active Troops cards per seat
    sides: tuple[int, ...]  # per seat: 0 not in the battle, 1 attacker's side, 2 defender's
    attack_dice: tuple[int, ...]  # the last roll, high to low, as modified
    defence_dice: tuple[int, ...]
    rolls: int  # rolls in this battle
    windows: tuple[ResponseWindow, ...]  # open windows; the last one is asking
    plays: tuple[TacticPlay, ...]  # the Cancel Order chain; window stacks index into it
    winner: int
    ranking: tuple[int, ...]
    end_reason: str
    # with duplicate_draws: the shuffle and other streams' states (core.draws); else empty
    draw_streams: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class StrikeView:
    """What one viewer may see: its own tactics hand and every public fact, nothing more."""

    viewer: int  # the seat, or -1 for a spectator
    options: StrikeOptions
    phase: Phase
    current: int
    turn: int
    continents: tuple[tuple[int, ...], ...]
    hand: tuple[int, ...]  # the viewer's own tactics cards
    hand_counts: tuple[int, ...]
    continent_deck_count: int
    tactics_deck_count: int
    surrender: tuple[int, ...]
    tactics_discard: tuple[int, ...]
    coins: tuple[int, ...]
    out: tuple[bool, ...]
    out_order: tuple[int, ...]
    defender: int
    from_continent: int
    to_continent: int
    troops: tuple[tuple[int, ...], ...]
    sides: tuple[int, ...]
    attack_dice: tuple[int, ...]
    defence_dice: tuple[int, ...]
    rolls: int
    windows: tuple[ResponseWindow, ...]
    plays: tuple[TacticPlay, ...]
    winner: int
    ranking: tuple[int, ...]
    end_reason: str


# ---- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DrawCards(Action):
    """Start of turn: 2 cards, `continent_cards` (0, 1 or 2) of them from the continent deck."""

    continent_cards: int


@dataclass(frozen=True, slots=True)
class Attack(Action):
    defender: int
    from_continent: int
    to_continent: int


@dataclass(frozen=True, slots=True)
class PassTurn(Action):
    """The seed's "pass": draw one tactics card and end the turn."""


@dataclass(frozen=True, slots=True)
class Deploy(Action):
    side: Side
    count: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline when asked: play nothing in a window, deploy nothing."""


@dataclass(frozen=True, slots=True)
class PlaySpy(Action):
    target: int


@dataclass(frozen=True, slots=True)
class PlayExpand(Action):
    continent_cards: bool  # true: 2 continent cards; false: 1 tactics card


@dataclass(frozen=True, slots=True)
class PlayArtillery(Action):
    target: int


@dataclass(frozen=True, slots=True)
class PlaySabotage(Action):
    pass


@dataclass(frozen=True, slots=True)
class PlayRally(Action):
    pass


@dataclass(frozen=True, slots=True)
class PlayBombard(Action):
    side: Side
    die: int  # index into that side's dice, high to low


@dataclass(frozen=True, slots=True)
class PlayCancelOrder(Action):
    pass


@dataclass(frozen=True, slots=True)
class RollAgain(Action):
    pass


@dataclass(frozen=True, slots=True)
class StopAttack(Action):
    pass


ACTION_TYPES: tuple[type[Action], ...] = (
    DrawCards, Attack, PassTurn, Deploy, Pass, PlaySpy, PlayExpand, PlayArtillery, PlaySabotage,
    PlayRally, PlayBombard, PlayCancelOrder, RollAgain, StopAttack,
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
    deck: Deck
    cards: int  # how many; the order stays secret


@dataclass(frozen=True, slots=True)
class ContinentCardsDrawn(Event):
    """Continent cards go face up in front of the player: everyone sees them."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TacticsDrawn(Event):
    """Tactics cards go to the hidden hand: others see how many, not which."""

    seat: int
    cards: tuple[int, ...]

    def for_viewer(self, viewer: int | None) -> Event | None:
        if viewer == self.seat:
            return self
        return replace(self, cards=(HIDDEN,) * len(self.cards))


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    turn: int


@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    seat: int
    defender: int
    from_continent: int
    to_continent: int


@dataclass(frozen=True, slots=True)
class TroopsDeployed(Event):
    seat: int
    side: Side
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A seat declined when asked; `auto` when the auto_pass option answered for it."""

    seat: int
    auto: bool


@dataclass(frozen=True, slots=True)
class TacticPlayed(Event):
    play: TacticPlay


@dataclass(frozen=True, slots=True)
class TacticResolved(Event):
    """A card of a Cancel Order chain resolved (last played first) and was discarded."""

    seat: int
    card: Tactic
    effective: bool  # false: it was cancelled (or its player left the game)


@dataclass(frozen=True, slots=True)
class HandRevealed(Event):
    """What a Spy saw: only the spying seat gets the cards, everyone else one hidden id each."""

    seat: int  # the spy
    target: int
    cards: tuple[int, ...]

    def for_viewer(self, viewer: int | None) -> Event | None:
        if viewer == self.seat:
            return self
        return replace(self, cards=(HIDDEN,) * len(self.cards))


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    attack: tuple[int, ...]
    defence: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DiceChanged(Event):
    """Rally or Bombard changed the dice; the new values, high to low."""

    seat: int
    card: Tactic
    attack: tuple[int, ...]
    defence: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BattleResolved(Event):
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    attacker_losses: int
    defender_losses: int


@dataclass(frozen=True, slots=True)
class TroopsDiscarded(Event):
    seat: int
    cards: tuple[int, ...]
    reason: str  # "loss", "artillery", "battle_end", "resigned"


@dataclass(frozen=True, slots=True)
class TroopsReturned(Event):
    """Sabotage: active Troops go back to their owner's hand (they were public)."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ContinentCardLost(Event):
    seat: int
    card: int
    to_seat: int  # the attacker that takes it, or -1 for the surrender pile


@dataclass(frozen=True, slots=True)
class CoinTaken(Event):
    seat: int
    continent: int
    from_seat: int  # -1: from the bank


@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    seat: int  # the attacker
    reason: str  # "stopped", "exhausted", "sabotage", "resigned"


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class PlayerResigned(Event):
    """The seat left: its continent cards went to the surrender pile, its tactics cards
    (hand and active Troops) to the tactics discards, its coins back to the bank."""

    seat: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    terminal: ClassVar[bool] = True

    winner: int
    ranking: tuple[int, ...]
    reason: str


EVENT_TYPES: tuple[type[Event], ...] = (
    OrderRolled, DeckShuffled, ContinentCardsDrawn, TacticsDrawn, TurnStarted, TurnPassed,
    AttackDeclared, TroopsDeployed, Passed, TacticPlayed, TacticResolved, HandRevealed,
    DiceRolled, DiceChanged, BattleResolved, TroopsDiscarded, TroopsReturned, ContinentCardLost,
    CoinTaken, BattleEnded, TurnEnded, PlayerResigned, GameEnded,
)
