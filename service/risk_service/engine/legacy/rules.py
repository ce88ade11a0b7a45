"""Risk Legacy rules: HQs, Red Stars, joining the war, recruiting, expanding, battles with scars,
fortifications and missiles, the maneuver, the end-of-turn card, winning.

`apply` copies the frozen state into a `_Game` work area, runs the rule, and freezes the result.
The world of the campaign (scars, cities, fortifications, names, bonus marks, card values) comes
from the options and is read through `content.board_of`; what changes during the game (scars
played, fortification marks used) lives in the state, for the campaign to keep afterwards.
Out-of-turn answers go through the engine core's response windows (`core/windows.py`): the scar
window at the start of every turn, and the missile window after every roll, each asking in
priority order (the active player, then the defender, then clockwise). Missiles and whether a
seat still holds a scar card are public, so the windows ask only seats that could answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import ClassVar

from risk_service.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_service.engine.core.deck import draw_card
from risk_service.engine.core.dice import battle_losses, sort_high
from risk_service.engine.core.errors import IllegalAction, Reason
from risk_service.engine.core.guards import check_action, check_max_turns, check_seed
from risk_service.engine.core.rng import Pcg32
from risk_service.engine.core.ruleset import Action, Decision, Event, LegalAction
from risk_service.engine.core.variant import VariantRules
from risk_service.engine.core.windows import (
    ResponseWindow,
    asked,
    drop_seat,
    is_closed,
    open_window,
    pass_turn,
    priority_order,
    respond,
)
from risk_service.engine.core.working import (
    AS_LIST,
    AS_SORTED_LIST,
    AS_SORTED_LISTS,
    Thawed,
    WorkingState,
)
from risk_service.engine.legacy import bot
from risk_service.engine.legacy.cards import (
    affordable,
    coin_ids,
    is_coin,
    spend,
    star_payments,
    trade_payments,
    value_counts,
    well_formed,
)
from risk_service.engine.legacy.content import (
    FACTION_POWERS,
    MIN_TRADE,
    WorldBoard,
    board_of,
    troops_for,
    world_problems,
)
from risk_service.engine.legacy.model import (
    ACTION_TYPES,
    EVENT_TYPES,
    NO_TERRITORY,
    NOBODY,
    Attack,
    AttackDeclared,
    AttackEnded,
    AttacksStopped,
    BattleResolved,
    BuyRedStar,
    CardChoiceOffered,
    CardTaken,
    DeckShuffled,
    Defend,
    DiceRolled,
    EndAttack,
    EndTurn,
    Expand,
    Expanded,
    FireMissile,
    FortificationWorn,
    GameEnded,
    HqPlaced,
    JoinedWar,
    JoinWar,
    LegacyOptions,
    LegacyState,
    LegacyView,
    Maneuver,
    Maneuvered,
    MissileFired,
    MoveIn,
    OrderRolled,
    Pass,
    Passed,
    Phase,
    PlaceHq,
    PlaceTroops,
    PlayerEliminated,
    PlayerKnockedOut,
    PlayerResigned,
    PlayScar,
    RedStarBought,
    ResourcesTraded,
    ScarCardDealt,
    ScarPlayed,
    Side,
    SideboardChanged,
    StartingTokens,
    TakeCard,
    TerritoryConquered,
    TradeResources,
    TroopsMoved,
    TroopsPlaced,
    TroopsRecruited,
    TurnEnded,
    TurnStarted,
    WindowKind,
)
from risk_service.engine.legacy.world import (
    CitySize,
    Faction,
    FactionChoice,
    Power,
    Scar,
    per_seat,
)

MAX_ATTACK_DICE = 3
MAX_DEFENCE_DICE = 2
MISSILE_VALUE = 6
LOW_DIE, HIGH_DIE = 1, 6
WEARING_DICE = 3  # an attack with this many troops uses up a fortification mark
FEROCITY_OVER = -2  # Enclave attacked a second territory: its power is over for the turn
_WINDOW_KINDS = {WindowKind.SCAR: "scar", WindowKind.MISSILE: "missile"}


def _fail(reason: Reason, message: str) -> IllegalAction:
    return IllegalAction(reason, message)


def default_factions(players: int) -> tuple[FactionChoice, ...]:
    """Outside a campaign: seat i plays the i-th faction with its first power."""
    return tuple(
        FactionChoice(Faction(i + 1), FACTION_POWERS[Faction(i + 1)][0]) for i in range(players)
    )


def step_of(phase: Phase, windows: Sequence[ResponseWindow]) -> str:
    """The decision kind: the open window's, else the phase's name."""
    if windows:
        return _WINDOW_KINDS[WindowKind(windows[-1].kind)]
    return phase.name.lower()


def recruitment(
    board: WorldBoard, owner: Sequence[int], hqs: Sequence[int], power: Power, seat: int
) -> TroopsRecruited:
    """What `seat` recruits this turn: max(3, (territories + population) / 3), Balkania
    rounding up, plus the bonuses of whole continents (+1 for one it named); Khan's HQ troops
    are told apart (placed at once, not part of the recruits)."""
    owned = [t for t in range(TERRITORIES) if owner[t] == seat]
    population = sum(board.population[t] for t in owned)
    total = len(owned) + population
    base = max(3, -(-total // 3) if power is Power.ROUND_UP else total // 3)
    bonus = 0
    for region in CLASSIC_BOARD.regions_held(owner, seat):
        bonus += board.continent_bonus[region]
        if board.namer[region] == seat:
            bonus += 1
    hq_troops = 0
    if power is Power.HQ_TROOPS:
        hq_troops = sum(1 for h in hqs if h >= 0 and owner[h] == seat)
    return TroopsRecruited(seat, len(owned), population, base, bonus, hq_troops)


def clamp(value: int) -> int:
    return max(LOW_DIE, min(HIGH_DIE, value))


def start_territories(
    board: WorldBoard, seat: int, *, owner: Sequence[int], hqs: Sequence[int],
    scars: Sequence[int], forts: Sequence[int], hq: bool,
) -> list[int]:
    """Legal starting territories for `seat`: unoccupied, no HQ on it, and unmarked (no scar,
    city or fortification) or a major city the seat founded; for an HQ also not next to
    another HQ. Should no HQ spot be left, the adjacency rule and then the marks are waived."""
    placed = {h for h in hqs if h >= 0}
    free = [t for t in range(TERRITORIES) if owner[t] == NOBODY and t not in placed]

    def legal(t: int) -> bool:
        unmarked = not scars[t] and not board.city_size[t] and not forts[t]
        own_major = (
            board.city_size[t] == CitySize.MAJOR and board.city_founder[t] == seat
        )
        return unmarked or own_major

    found = [t for t in free if legal(t)]
    if not hq:
        return found
    apart = [t for t in found if not any(n in placed for n in CLASSIC_BOARD.links[t])]
    return apart or found or free


class _Game(WorkingState[LegacyState]):
    """A mutable copy of one LegacyState for the duration of one rule application."""

    state_type = LegacyState
    thawed: ClassVar[Mapping[str, Thawed]] = {
        "owner": AS_LIST, "troops": AS_LIST, "hqs": AS_LIST, "stars": AS_LIST,
        "missiles": AS_LIST, "scar_cards": AS_LIST, "hands": AS_SORTED_LISTS,
        "coin_pile": AS_SORTED_LIST, "sideboard": AS_LIST, "scars": AS_LIST,
        "fortifications": AS_LIST, "attack_missiles": AS_LIST, "defence_missiles": AS_LIST,
        "windows": AS_LIST, "eliminated": AS_LIST, "out": AS_LIST,
    }
    finished_phase = Phase.FINISHED

    options: LegacyOptions
    seed: int
    phase: Phase
    turn: int
    first_seat: int
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

    # ---- setup -------------------------------------------------------------------------

    def setup(self) -> None:
        n = self.seats
        cards = [t for t in range(TERRITORIES) if t not in self.board.destroyed]
        self.deck = self.rng.shuffled(cards)
        self.emit(DeckShuffled(len(cards)))
        self.sideboard = [NO_TERRITORY] * self.content.sideboard_slots
        for slot in range(self.content.sideboard_slots):
            self.sideboard[slot] = self.draw_territory_card()
        self.emit(SideboardChanged(tuple(self.sideboard), NO_TERRITORY))
        self.coin_pile = list(coin_ids(self.content.coin_cards))
        used = per_seat(self.options.world.scar_cards_used, len(Scar))
        pool = [
            scar for scar in Scar
            for _ in range(self.content.scar_count(scar) - used[scar - 1])
        ]
        if len(pool) >= n:  # one each only if there are enough for everyone
            dealt = self.rng.shuffled(pool)
            for seat in range(n):
                self.scar_cards[seat] = int(dealt[seat])
                self.emit(ScarCardDealt(seat, int(dealt[seat])))
        signatures = per_seat(self.options.world.signatures, n)
        for seat in range(n):
            self.stars[seat] = 0 if signatures[seat] else 1
            self.missiles[seat] = signatures[seat]
            self.emit(StartingTokens(seat, self.stars[seat], self.missiles[seat]))
        first = self.roll_off(range(n), lambda done: OrderRolled(*done))
        self.first_seat = first
        self.current = first
        self.phase = Phase.SETUP_HQ

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
        if self.turn >= self.options.max_turns:
            self.finish(NOBODY, "turn_cap")
            return
        self.turn += 1
        self.current = seat
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

    # ---- windows -----------------------------------------------------------------------

    def missile_order(self) -> tuple[int, ...]:
        """Seats asked in the missile window: live seats with a missile, while a die is left
        that no missile has turned; active player, defender, then clockwise."""
        if all(self.attack_missiles) and all(self.defence_missiles):
            return ()
        return priority_order(
            self.current, self.seats, defender=self.defender(),
            exclude={s for s in range(self.seats) if self.out[s] or not self.missiles[s]},
        )

    def advance(self) -> None:
        """Close the window once everyone asked has passed, and go on from there."""
        while self.windows and not self.finished and is_closed(self.windows[-1]):
            window = self.windows.pop()
            if window.kind == WindowKind.SCAR:
                self.begin_start()
            else:
                self.resolve_battle()

    # ---- battles -----------------------------------------------------------------------

    def roll(self, defence: int) -> None:
        self.defence_count = defence
        self.attack_dice = sort_high(self.rng.dice(self.attack_count))
        self.defence_dice = sort_high(self.rng.dice(defence))
        self.attack_missiles = [False] * len(self.attack_dice)
        self.defence_missiles = [False] * len(self.defence_dice)
        self.emit(DiceRolled(self.attack_dice, self.defence_dice))
        self.phase = Phase.BATTLE
        order = self.missile_order()
        if order:
            self.windows = [open_window(WindowKind.MISSILE, order)]
            self.advance()
        else:
            self.resolve_battle()

    def final_dice(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The dice as compared: a missile's die is an unmodifiable 6; defence modifiers
        (fortification +1 each, Bunker +1 / Ammo Shortage -1 on the highest, Enclave -1 on the
        lower) apply to the others, within 1..6."""
        attacker, defender, target = self.current, self.defender(), self.attack_to
        attack = [
            MISSILE_VALUE if hit else value
            for value, hit in zip(self.attack_dice, self.attack_missiles, strict=True)
        ]
        bonus = [0] * len(self.defence_dice)
        fortified = self.fortifications[target] > 0 or (
            self.has(defender, Power.FORTIFIED_HQ) and self.hqs[defender] == target
        )
        if fortified:
            bonus = [b + 1 for b in bonus]
        if self.scars[target] == Scar.BUNKER:
            bonus[0] += 1
        elif self.scars[target] == Scar.AMMO_SHORTAGE:
            bonus[0] -= 1
        if (
            self.has(attacker, Power.FEROCITY) and self.ferocity_target == target
            and len(bonus) == MAX_DEFENCE_DICE
        ):
            bonus[-1] -= 1
        defence = [
            MISSILE_VALUE if hit else clamp(value + b)
            for value, hit, b in zip(self.defence_dice, self.defence_missiles, bonus, strict=True)
        ]
        return sort_high(attack), sort_high(defence)

    def resolve_battle(self) -> None:
        attacker, defender = self.current, self.defender()
        src, dst = self.attack_from, self.attack_to
        attack, defence = self.final_dice()
        lost_a, lost_d = battle_losses(attack, defence)
        natural = [v for v, hit in zip(self.attack_dice, self.attack_missiles, strict=True)
                   if not hit]
        # the rules digest: a natural triple kills every defender, whatever the comparison
        # (the attacker's own losses from the comparison still stand)
        triple = (
            self.has(attacker, Power.NATURAL_TRIPLE) and len(natural) == MAX_ATTACK_DICE
            and len(set(natural)) == 1
        )
        if triple:
            lost_d = self.troops[dst]
        self.troops[src] -= lost_a
        self.troops[dst] -= lost_d
        self.emit(BattleResolved(
            attacker, defender, src, dst, self.attack_dice, self.defence_dice, attack, defence,
            lost_a, lost_d, triple,
        ))
        if self.fortifications[dst] and self.attack_count >= WEARING_DICE:
            self.fortifications[dst] -= 1
            self.emit(FortificationWorn(dst, self.fortifications[dst]))
        sixes = sum(
            1 for v, hit in zip(self.defence_dice, self.defence_missiles, strict=True)
            if v == HIGH_DIE and not hit
        )
        self.windows = []
        if self.troops[dst] > 0:
            if self.has(defender, Power.STEADFAST_SIXES) and sixes >= 2:
                self.protected = tuple(sorted({*self.protected, dst}))
                self.emit(AttacksStopped(dst))
            self.phase = Phase.ATTACK
            self.clear_attack()
            return
        self.conquer(attacker, defender, src, dst)

    def conquer(self, attacker: int, defender: int, src: int, dst: int) -> None:
        self.owner[dst] = attacker
        self.conquered = True
        self.emit(TerritoryConquered(attacker, dst, defender))
        if not self.territories_of(defender):
            taken = tuple(sorted(self.hands[defender]))
            self.hands[attacker].extend(taken)
            self.hands[defender] = []
            self.emit(PlayerKnockedOut(defender, attacker, taken))
        least = self.least_move_in()
        if self.red_stars(attacker) >= self.content.stars_to_win:
            self.move_in(attacker, least)
            self.finish(attacker, "red_stars")
            return
        if least == self.troops[src] - 1:  # no choice: everything that may move moves
            self.move_in(attacker, least)
            return
        self.phase = Phase.MOVE_IN

    def least_move_in(self) -> int:
        """The dice rolled, or fewer if the attacker's losses leave no more to move."""
        return min(self.attack_count, self.troops[self.attack_from] - 1)

    def move_in(self, seat: int, count: int) -> None:
        src, dst = self.attack_from, self.attack_to
        self.troops[src] -= count
        self.troops[dst] += count
        self.emit(TroopsMoved(seat, src, dst, count))
        self.clear_attack()
        self.phase = Phase.ATTACK

    def after_attack_phase(self) -> None:
        """Leaving the attack phase: the maneuver (if any is possible), else the turn ends."""
        seat = self.current
        if self.maneuvered or not maneuvers(self.owner, self.troops, seat, self.powers[seat]):
            self.end_turn()
        else:
            self.phase = Phase.MANEUVER

    # ---- leaving ---------------------------------------------------------------------------

    def resign(self, seat: int) -> None:
        for t in self.territories_of(seat):
            self.owner[t] = NOBODY
            self.troops[t] = 0
        self.stars[seat] = 0
        self.go_out(seat)
        self.emit(PlayerResigned(seat))
        if self.phase is Phase.MOVE_IN and seat != self.current and len(self.live_seats()) == 1:
            self.move_in(self.current, self.least_move_in())  # the last seat in wins
        if self.after_leaving("resignation"):
            return
        if self.phase is Phase.SETUP_HQ:
            if seat == self.current:
                self.next_hq_seat()
            return
        in_battle = self.phase in (Phase.DEFEND, Phase.BATTLE, Phase.MOVE_IN)
        if seat == self.current:
            self.finish_turn()
            return
        if in_battle and self.attack_to >= 0 and self.owner[self.attack_to] == NOBODY:
            self.windows = []  # the defender left: its territory is empty, the battle is off
            self.clear_attack()
            self.phase = Phase.ATTACK
            return
        self.windows = [drop_seat(w, seat) for w in self.windows]
        self.advance()


def red_stars(
    owner: Sequence[int], hqs: Sequence[int], stars: Sequence[int], seat: int
) -> int:
    """Red Star tokens plus the HQs (anyone's) the seat controls."""
    return stars[seat] + sum(1 for h in hqs if h >= 0 and owner[h] == seat)


def maneuvers(
    owner: Sequence[int], troops: Sequence[int], seat: int, power: Power
) -> dict[int, list[int]]:
    """Maneuver targets per source: through own territories (anywhere with the Saharan power)."""
    sources = [t for t in range(TERRITORIES) if owner[t] == seat and troops[t] >= 2]
    own = [t for t in range(TERRITORIES) if owner[t] == seat]
    if power is Power.MANEUVER_ANYWHERE:
        return {src: [t for t in own if t != src] for src in sources if len(own) > 1}
    passable = [o == seat for o in owner]
    found: dict[int, list[int]] = {}
    for src in sources:
        targets = sorted(CLASSIC_BOARD.reachable(src, passable) - {src})
        if targets:
            found[src] = targets
    return found


def expansion_cost(board: WorldBoard, fortifications: Sequence[int], territory: int) -> int:
    cost = board.population[territory]
    if cost and fortifications[territory]:
        cost += board.content.fortified_expansion_cost
    return cost


class LegacyRules(VariantRules[LegacyState, LegacyOptions, LegacyView]):
    """Risk Legacy behind the engine interface."""

    name: ClassVar[str] = "legacy"
    # 2: the rules digest's natural triple, overpaying trades and Red Stars bought before the
    # recruits are announced (issue 15); a build replays only games of its own version
    rules_version: ClassVar[int] = 2
    options_type: ClassVar[type[LegacyOptions]] = LegacyOptions
    state_type: ClassVar[type[LegacyState]] = LegacyState
    view_type: ClassVar[type[LegacyView]] = LegacyView
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES
    event_types: ClassVar[tuple[type[Event], ...]] = EVENT_TYPES
    work_type = _Game

    # ---- creation ----------------------------------------------------------------------

    def create(self, options: LegacyOptions, seed: int) -> tuple[LegacyState, list[Event]]:
        options = self.checked_options(options)
        check_seed(seed)
        n = options.players
        board = board_of(options.world)
        rng = Pcg32.from_seed(seed)
        blank = LegacyState(
            options=options, seed=seed, rng_state=rng.state, rng_inc=rng.inc,
            phase=Phase.SETUP_HQ, current=0, turn=0, first_seat=NOBODY,
            owner=(NOBODY,) * TERRITORIES, troops=(0,) * TERRITORIES, hqs=(NO_TERRITORY,) * n,
            stars=(0,) * n, missiles=(0,) * n, scar_cards=(0,) * n, hands=((),) * n,
            deck=(), discard=(), coin_pile=(), sideboard=(), scars=board.scars,
            fortifications=board.fortification, pending=0, traded=False, conquered=False,
            expansions=0, maneuvered=False, ferocity_target=NO_TERRITORY, protected=(),
            draws_left=0, attack_from=NO_TERRITORY, attack_to=NO_TERRITORY, attack_count=0,
            defence_count=0, attack_dice=(), defence_dice=(), attack_missiles=(),
            defence_missiles=(), windows=(), eliminated=(False,) * n, out=(False,) * n,
            out_order=(), winner=NOBODY, ranking=(), end_reason="",
        )
        game = _Game(blank)
        game.setup()
        return game.freeze(), game.events

    @staticmethod
    def checked_options(options: LegacyOptions) -> LegacyOptions:
        """The options with the seats' factions filled in, or INVALID_OPTIONS."""
        n = options.players
        if not 3 <= n <= 5:
            raise _fail(Reason.INVALID_OPTIONS, "Risk Legacy takes 3 to 5 players")
        check_max_turns(options.max_turns)
        world = options.world
        problems = world_problems(world, n)
        if problems:
            raise _fail(Reason.INVALID_OPTIONS, "; ".join(problems))
        factions = world.factions or default_factions(n)
        try:
            factions = tuple(
                FactionChoice(Faction(c.faction), Power(c.power)) for c in factions
            )
        except ValueError as exc:
            raise _fail(Reason.INVALID_OPTIONS, str(exc)) from None
        if len(factions) != n:
            raise _fail(Reason.INVALID_OPTIONS, "world.factions needs one entry per seat")
        if len({c.faction for c in factions}) != n:
            raise _fail(Reason.INVALID_OPTIONS, "each seat plays a different faction")
        for choice in factions:
            if choice.power not in FACTION_POWERS[choice.faction]:
                raise _fail(
                    Reason.INVALID_OPTIONS,
                    f"{choice.power.name} is not a power of {choice.faction.name}",
                )
        return replace(options, world=replace(world, factions=factions))

    # ---- queries -----------------------------------------------------------------------

    def decision(self, state: LegacyState) -> Decision:
        if state.phase is Phase.FINISHED:
            return Decision((), "finished")
        step = step_of(state.phase, state.windows)
        if state.windows:
            seat = asked(state.windows[-1])
            assert seat is not None, "a closed window is never left open"
            return Decision((seat,), step)
        if state.phase is Phase.DEFEND:
            return Decision((state.owner[state.attack_to],), step)
        return Decision((state.current,), step)

    def legal_actions(self, state: LegacyState, seat: int) -> list[LegalAction]:
        if seat not in self.decision(state).seats:
            return []
        board = board_of(state.options.world)
        step = step_of(state.phase, state.windows)
        owner, troops = state.owner, state.troops
        if step == "scar":
            legal = [LegalAction(Pass())]
            if state.scar_cards[seat]:
                legal.extend(
                    LegalAction(PlayScar(t)) for t in range(TERRITORIES) if not state.scars[t]
                )
            return legal
        if step == "missile":
            legal = [LegalAction(Pass())]
            if state.missiles[seat]:
                for side, hits in ((Side.ATTACKER, state.attack_missiles),
                                   (Side.DEFENDER, state.defence_missiles)):
                    legal.extend(
                        LegalAction(FireMissile(side, i)) for i, hit in enumerate(hits) if not hit
                    )
            return legal
        phase = state.phase
        if phase is Phase.SETUP_HQ:
            spots = start_territories(
                board, seat, owner=owner, hqs=state.hqs, scars=state.scars,
                forts=state.fortifications, hq=True,
            )
            return [LegalAction(PlaceHq(t)) for t in spots]
        if phase is Phase.START:
            counts = value_counts(board, state.hands[seat])
            legal = [
                LegalAction(BuyRedStar(p))
                for p in star_payments(counts, board.content.star_cost)
            ]
            if seat not in owner:
                spots = start_territories(
                    board, seat, owner=owner, hqs=state.hqs, scars=state.scars,
                    forts=state.fortifications, hq=False,
                )
                legal.extend(LegalAction(JoinWar(t)) for t in spots)
                if not spots:
                    legal.append(LegalAction(EndTurn()))
                return legal
            due = recruitment(board, owner, state.hqs, state.options.world.factions[seat].power,
                              seat)
            return legal + self._recruit(state, seat, board, due.base + due.continent_bonus)
        if phase is Phase.RECRUIT:
            return self._recruit(state, seat, board, state.pending)
        if phase is Phase.ATTACK:
            legal = []
            for src in range(TERRITORIES):
                if owner[src] != seat or troops[src] < 2:
                    continue
                for dst in CLASSIC_BOARD.links[src]:
                    if owner[dst] == NOBODY:
                        cost = expansion_cost(board, state.fortifications, dst)
                        if cost + 1 <= troops[src] - 1:
                            legal.append(LegalAction(Expand(src, dst, cost + 1), troops[src] - 1))
                    elif owner[dst] != seat and dst not in state.protected:
                        top = min(MAX_ATTACK_DICE, troops[src] - 1)
                        legal.extend(LegalAction(Attack(src, dst, d)) for d in range(1, top + 1))
            power = state.options.world.factions[seat].power
            if power is Power.MANEUVER_ANY_TIME and not state.maneuvered:
                legal.extend(self._maneuvers(state, seat))
            legal.append(LegalAction(EndAttack()))
            return legal
        if phase is Phase.DEFEND:
            top = min(MAX_DEFENCE_DICE, troops[state.attack_to])
            return [LegalAction(Defend(d)) for d in range(1, top + 1)]
        if phase is Phase.MOVE_IN:
            least = min(state.attack_count, troops[state.attack_from] - 1)
            return [LegalAction(MoveIn(least), troops[state.attack_from] - 1)]
        if phase is Phase.MANEUVER:
            return [*self._maneuvers(state, seat), LegalAction(EndTurn())]
        if phase is Phase.DRAW:
            return [
                LegalAction(TakeCard(slot)) for slot, card in enumerate(state.sideboard)
                if card >= 0 and owner[card] == seat
            ]
        return []

    @staticmethod
    def _recruit(
        state: LegacyState, seat: int, board: WorldBoard, pending: int
    ) -> list[LegalAction]:
        """Trades and placements with `pending` recruits (in START, those yet to be told)."""
        legal: list[LegalAction] = []
        if not state.traded:
            counts = value_counts(board, state.hands[seat])
            legal.extend(LegalAction(TradeResources(p)) for p in trade_payments(counts))
        legal.extend(
            LegalAction(PlaceTroops(t, 1), pending)
            for t in range(TERRITORIES) if state.owner[t] == seat
        )
        return legal

    @staticmethod
    def _maneuvers(state: LegacyState, seat: int) -> list[LegalAction]:
        power = state.options.world.factions[seat].power
        found = maneuvers(state.owner, state.troops, seat, power)
        return [
            LegalAction(Maneuver(src, dst, 1), state.troops[src] - 1)
            for src, targets in found.items() for dst in targets
        ]

    def view(self, state: LegacyState, viewer: int | None) -> LegacyView:
        seat = -1 if viewer is None else viewer
        n = state.options.players
        board = board_of(state.options.world)
        return LegacyView(
            viewer=seat,
            options=state.options,
            phase=state.phase,
            current=state.current,
            turn=state.turn,
            owner=state.owner,
            troops=state.troops,
            hqs=state.hqs,
            stars=state.stars,
            red_stars=tuple(red_stars(state.owner, state.hqs, state.stars, s) for s in range(n)),
            missiles=state.missiles,
            scar_card=state.scar_cards[seat] if 0 <= seat < n else 0,
            has_scar_card=tuple(bool(c) for c in state.scar_cards),
            hand=state.hands[seat] if 0 <= seat < n else (),
            hand_counts=tuple(len(h) for h in state.hands),
            deck_count=len(state.deck),
            discard=state.discard,
            coin_count=len(state.coin_pile),
            sideboard=state.sideboard,
            scars=state.scars,
            fortifications=state.fortifications,
            population=board.population,
            card_values=board.card_value,
            pending=state.pending,
            traded=state.traded,
            conquered=state.conquered,
            expansions=state.expansions,
            maneuvered=state.maneuvered,
            ferocity_target=state.ferocity_target,
            protected=state.protected,
            draws_left=state.draws_left,
            attack_from=state.attack_from,
            attack_to=state.attack_to,
            attack_count=state.attack_count,
            defence_count=state.defence_count,
            attack_dice=state.attack_dice,
            defence_dice=state.defence_dice,
            attack_missiles=state.attack_missiles,
            defence_missiles=state.defence_missiles,
            windows=state.windows,
            eliminated=state.eliminated,
            out=state.out,
            out_order=state.out_order,
            winner=state.winner,
            ranking=state.ranking,
            end_reason=state.end_reason,
        )

    def leave(self, game: _Game, seat: int) -> None:
        game.resign(seat)

    def default_action(self, state: LegacyState, seat: int) -> Action:
        """The passive choice of a seat whose clock ran out: pass in a window, end the attack
        and skip the maneuver, defend with the most dice, move in the least, take the first
        matching card, place an HQ or join on the lowest-numbered legal territory, and put
        all recruits on the lowest-numbered own territory that borders another seat's or an
        unoccupied one (no trade, no Red Star purchase)."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise _fail(Reason.NOT_YOUR_TURN, f"it is not seat {seat}'s decision")
        actions = [entry.action for entry in legal]
        for passive in (Pass(), EndAttack(), EndTurn()):
            if passive in actions:
                return passive
        if state.phase is Phase.DEFEND:
            return max(actions, key=lambda a: a.dice if isinstance(a, Defend) else 0)
        for kind in (PlaceHq, JoinWar, TakeCard, MoveIn):
            found = [a for a in actions if isinstance(a, kind)]
            if found:
                return found[0]
        placements = [e for e in legal if isinstance(e.action, PlaceTroops)]
        if placements:
            def exposed(entry: LegalAction) -> bool:
                assert isinstance(entry.action, PlaceTroops)
                links = CLASSIC_BOARD.links[entry.action.territory]
                return any(state.owner[n] != seat for n in links)

            entry = next((e for e in placements if exposed(e)), placements[0])
            return entry.instances()[-1]
        return legal[-1].instances()[0]

    def bot_choose(self, view: LegacyView, legal: Sequence[LegalAction], entropy: int) -> Action:
        return bot.choose(view, legal, Pcg32.from_seed(entropy, stream=view.viewer + 1))

    # ---- apply -------------------------------------------------------------------------

    def apply(
        self, state: LegacyState, seat: int, action: Action
    ) -> tuple[LegacyState, list[Event]]:
        check_action(action, ACTION_TYPES, "Legacy", seat=seat, players=state.options.players,
                     finished=state.phase is Phase.FINISHED,
                     deciding=self.decision(state).seats)
        step = step_of(state.phase, state.windows)
        handler = _HANDLERS.get((step, type(action)))
        if handler is None:
            raise _fail(
                Reason.WRONG_PHASE, f"{type(action).__name__} is not allowed now ({step})"
            )
        game = _Game(state)
        handler(game, seat, action)
        return game.freeze(), game.events


# ---- validation helpers ------------------------------------------------------------------


def _territory(t: int) -> int:
    if not 0 <= t < TERRITORIES:
        raise _fail(Reason.NO_SUCH_TERRITORY, f"territory {t} does not exist")
    return t


def _name(t: int) -> str:
    return CLASSIC_BOARD.names[t]


def _own(game: _Game, seat: int, t: int) -> int:
    _territory(t)
    if game.owner[t] != seat:
        raise _fail(Reason.NOT_OWNER, f"seat {seat} does not hold {_name(t)}")
    return t


def _count(count: int, low: int, high: int, what: str) -> None:
    if count < low:
        raise _fail(Reason.TOO_FEW_ARMIES, f"{what}: at least {low}, got {count}")
    if count > high:
        raise _fail(Reason.TOO_MANY_ARMIES, f"{what}: at most {high}, got {count}")


def _payment(game: _Game, seat: int, values: tuple[int, ...]) -> list[int]:
    """The cards a payment takes, after checking its form and that the hand holds it."""
    if not well_formed(values, game.board):
        raise _fail(
            Reason.INVALID_SET,
            f"a payment lists card values 1..{game.content.max_card_value}, high to low",
        )
    if not affordable(values, value_counts(game.board, game.hands[seat])):
        raise _fail(Reason.CARD_NOT_IN_HAND, f"seat {seat}'s hand cannot pay {list(values)}")
    return spend(game.board, game.hands[seat], values)


def _pay(game: _Game, seat: int, cards: Sequence[int]) -> None:
    for card in cards:
        game.hands[seat].remove(card)
    game.give_back(cards)


# ---- handlers: one per (step, action) pair the rules allow ----------------------------------


def _place_hq(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, PlaceHq)
    t = _territory(action.territory)
    if t not in game.starts_for(seat, hq=True):
        if game.owner[t] == NOBODY and t not in game.hqs and t in game.starts_for(seat, hq=False):
            raise _fail(Reason.HQ_TOO_CLOSE, f"{_name(t)} borders another HQ")
        raise _fail(Reason.NOT_A_STARTING_TERRITORY, f"{_name(t)} is not a legal start")
    game.hqs[seat] = t
    game.owner[t] = seat
    game.troops[t] = game.content.starting_troops
    game.emit(HqPlaced(seat, t, game.content.starting_troops))
    game.next_hq_seat()


def _play_scar(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, PlayScar)
    scar = game.scar_cards[seat]
    if not scar:
        raise _fail(Reason.CARD_NOT_IN_HAND, f"seat {seat} holds no scar card")
    t = _territory(action.territory)
    if game.scars[t]:
        raise _fail(Reason.TERRITORY_SCARRED, f"{_name(t)} already has a scar")
    game.scars[t] = scar
    game.scar_cards[seat] = 0
    game.emit(ScarPlayed(seat, Scar(scar), t))
    game.windows[-1] = respond(game.windows[-1], seat, order=game.scar_order())
    game.advance()


def _pass(game: _Game, seat: int, action: Action) -> None:
    game.emit(Passed(seat))
    game.windows[-1] = pass_turn(game.windows[-1], seat)
    game.advance()


def _fire_missile(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, FireMissile)
    if game.missiles[seat] < 1:
        raise _fail(Reason.NO_MISSILES, f"seat {seat} has no missile left")
    if action.side not in (Side.ATTACKER, Side.DEFENDER):
        raise _fail(Reason.WRONG_SIDE, f"side {action.side} is neither attacker nor defender")
    hits = game.attack_missiles if action.side == Side.ATTACKER else game.defence_missiles
    if not 0 <= action.die < len(hits):
        raise _fail(Reason.NO_SUCH_DIE, f"no die at index {action.die} on that side")
    if hits[action.die]:
        raise _fail(Reason.DIE_UNMODIFIABLE, "a missile already made that die a 6")
    hits[action.die] = True
    game.missiles[seat] -= 1
    game.emit(MissileFired(seat, Side(action.side), action.die, game.missiles[seat]))
    game.windows[-1] = respond(game.windows[-1], seat, order=game.missile_order())
    game.advance()


def _buy_star(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, BuyRedStar)
    cost = game.content.star_cost
    if len(action.values) < cost:
        raise _fail(Reason.TOO_FEW_CARDS, f"a Red Star costs exactly {cost} cards")
    if len(action.values) > cost:
        raise _fail(Reason.TOO_MANY_CARDS, f"a Red Star costs exactly {cost} cards")
    cards = _payment(game, seat, tuple(action.values))
    _pay(game, seat, cards)
    game.stars[seat] += 1
    game.emit(RedStarBought(seat, tuple(cards), game.stars[seat]))
    if game.check_stars(seat):
        return
    if seat not in game.owner:
        game.settle_join()
    elif not game.may_buy_star(seat):
        game.announce_recruits()


def _join(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, JoinWar)
    if seat in game.owner:
        raise _fail(Reason.WRONG_PHASE, "a seat that holds territories recruits instead")
    t = _territory(action.territory)
    if t not in game.starts_for(seat, hq=False):
        raise _fail(Reason.NOT_A_STARTING_TERRITORY, f"{_name(t)} is not a legal start")
    count = game.content.starting_troops // 2
    game.owner[t] = seat
    game.troops[t] = count
    game.emit(JoinedWar(seat, t, count))
    game.phase = Phase.ATTACK


def _give_up(game: _Game, seat: int, action: Action) -> None:
    if seat in game.owner or game.starts_for(seat, hq=False):
        raise _fail(Reason.WRONG_PHASE, "EndTurn now only gives up a join with nowhere to go")
    game.eliminate(seat)


def _recruiting(game: _Game, seat: int) -> None:
    """A trade or placement in START ends the Red Star purchases: the recruits are told."""
    if seat not in game.owner:
        raise _fail(Reason.WRONG_PHASE, "a seat without territories joins the war instead")
    if game.phase is Phase.START:
        game.announce_recruits()


def _trade(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, TradeResources)
    _recruiting(game, seat)
    if game.traded:
        raise _fail(Reason.TRADE_NOT_ALLOWED, "one trade per turn")
    values = tuple(action.values)
    if well_formed(values, game.board) and sum(values) < MIN_TRADE:
        raise _fail(Reason.TOO_FEW_RESOURCES, f"a trade is worth at least {MIN_TRADE}")
    cards = _payment(game, seat, values)
    _pay(game, seat, cards)
    troops = troops_for(sum(values))
    game.traded = True
    game.pending += troops
    game.phase = Phase.RECRUIT
    game.emit(ResourcesTraded(seat, tuple(cards), sum(values), troops))


def _place(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, PlaceTroops)
    _recruiting(game, seat)
    t = _own(game, seat, action.territory)
    _count(action.count, 1, game.pending, "recruits")
    game.pending -= action.count
    game.place(seat, t, action.count)
    game.phase = Phase.RECRUIT if game.pending else Phase.ATTACK


def _source(game: _Game, seat: int, src: int, dst: int) -> None:
    _own(game, seat, src)
    _territory(dst)
    if dst == src:
        raise _fail(Reason.SAME_TERRITORY, "from and to are the same territory")


def _expand(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, Expand)
    src, dst = action.from_territory, action.to_territory
    _source(game, seat, src, dst)
    if not CLASSIC_BOARD.adjacent(src, dst):
        raise _fail(Reason.NOT_ADJACENT, f"{_name(src)} does not border {_name(dst)}")
    if game.owner[dst] != NOBODY:
        raise _fail(Reason.TERRITORY_OCCUPIED, f"{_name(dst)} is occupied: attack it instead")
    cost = expansion_cost(game.board, game.fortifications, dst)
    _count(action.count, cost + 1, game.troops[src] - 1, "expansion (one must arrive)")
    game.troops[src] -= action.count
    game.owner[dst] = seat
    game.troops[dst] = action.count - cost
    game.expansions += 1
    game.emit(Expanded(seat, src, dst, action.count, cost))
    game.check_stars(seat)


def _attack(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, Attack)
    src, dst = action.from_territory, action.to_territory
    _source(game, seat, src, dst)
    if game.owner[dst] == seat:
        raise _fail(Reason.OWN_TERRITORY, f"{_name(dst)} is your own territory")
    if not CLASSIC_BOARD.adjacent(src, dst):
        raise _fail(Reason.NOT_ADJACENT, f"{_name(src)} does not border {_name(dst)}")
    if game.owner[dst] == NOBODY:
        raise _fail(Reason.TERRITORY_EMPTY, f"{_name(dst)} is unoccupied: expand into it")
    if dst in game.protected:
        raise _fail(Reason.ATTACKS_STOPPED, f"{_name(dst)} cannot be attacked again this turn")
    if game.troops[src] < 2:
        raise _fail(Reason.NOT_ENOUGH_ARMIES, "attacking needs at least 2 troops")
    if action.dice < 1:
        raise _fail(Reason.TOO_FEW_DICE, "roll at least 1 die")
    top = min(MAX_ATTACK_DICE, game.troops[src] - 1)
    if action.dice > top:
        raise _fail(Reason.TOO_MANY_DICE, f"at most {top} dice from {game.troops[src]} troops")
    if game.ferocity_target == NO_TERRITORY:
        game.ferocity_target = dst
    elif game.ferocity_target != dst:
        game.ferocity_target = FEROCITY_OVER
    game.attack_from, game.attack_to, game.attack_count = src, dst, action.dice
    defender = game.owner[dst]
    game.emit(AttackDeclared(seat, src, dst, action.dice, defender))
    if game.options.auto_defend_max_dice:
        game.roll(min(MAX_DEFENCE_DICE, game.troops[dst]))
    else:
        game.phase = Phase.DEFEND


def _defend(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, Defend)
    top = min(MAX_DEFENCE_DICE, game.troops[game.attack_to])
    if action.dice < 1:
        raise _fail(Reason.TOO_FEW_DICE, "defend with at least 1 die")
    if action.dice > top:
        raise _fail(Reason.TOO_MANY_DICE, f"at most {top} defence dice here")
    game.roll(action.dice)


def _move_in(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, MoveIn)
    _count(action.count, game.least_move_in(), game.troops[game.attack_from] - 1, "move-in")
    game.move_in(seat, action.count)


def _end_attack(game: _Game, seat: int, action: Action) -> None:
    game.emit(AttackEnded(seat))
    game.after_attack_phase()


def _maneuver(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, Maneuver)
    power = game.powers[seat]
    if game.phase is Phase.ATTACK and power is not Power.MANEUVER_ANY_TIME:
        raise _fail(Reason.WRONG_PHASE, "the maneuver comes after the attacks")
    if game.maneuvered:
        raise _fail(Reason.ALREADY_MANEUVERED, "one maneuver per turn")
    src, dst = action.from_territory, action.to_territory
    _source(game, seat, src, dst)
    _own(game, seat, dst)
    _count(action.count, 1, game.troops[src] - 1, "maneuver (leave at least 1 behind)")
    if power is not Power.MANEUVER_ANYWHERE and \
            dst not in CLASSIC_BOARD.reachable(src, [o == seat for o in game.owner]):
        raise _fail(Reason.NOT_CONNECTED, "no chain of your own territories links the two")
    game.troops[src] -= action.count
    game.troops[dst] += action.count
    game.maneuvered = True
    game.emit(Maneuvered(seat, src, dst, action.count))
    if game.phase is Phase.MANEUVER:
        game.end_turn()


def _end_turn(game: _Game, seat: int, action: Action) -> None:
    game.end_turn()


def _take_card(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, TakeCard)
    if action.slot not in game.matching_slots(seat):
        raise _fail(
            Reason.INVALID_SLOT, f"slot {action.slot} shows no territory card of seat {seat}"
        )
    game.take_slot(seat, action.slot)
    game.draws_left -= 1
    game.process_draws()


_HANDLERS = {
    ("setup_hq", PlaceHq): _place_hq,
    ("scar", PlayScar): _play_scar,
    ("scar", Pass): _pass,
    ("missile", FireMissile): _fire_missile,
    ("missile", Pass): _pass,
    ("start", BuyRedStar): _buy_star,
    ("start", JoinWar): _join,
    ("start", EndTurn): _give_up,
    ("start", TradeResources): _trade,
    ("start", PlaceTroops): _place,
    ("recruit", TradeResources): _trade,
    ("recruit", PlaceTroops): _place,
    ("attack", Expand): _expand,
    ("attack", Attack): _attack,
    ("attack", Maneuver): _maneuver,
    ("attack", EndAttack): _end_attack,
    ("defend", Defend): _defend,
    ("move_in", MoveIn): _move_in,
    ("maneuver", Maneuver): _maneuver,
    ("maneuver", EndTurn): _end_turn,
    ("draw", TakeCard): _take_card,
}
