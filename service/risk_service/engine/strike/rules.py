"""Risk Strike rules: draws, one attack a turn, deployment, dice, tactics cards, domination.

`apply` copies the frozen state into a `_Game` work area (core.working), runs the rule, and
freezes the result.
Everything a player may answer out of turn goes through the engine core's response windows
(`core/windows.py`): the deployment round, the window after deployment, the window after each
roll, and the Cancel Order window that every played tactics card opens. The decision always
names exactly one seat: the one the top window asks, or else the active player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from risk_service.engine.core.deck import draw_card
from risk_service.engine.core.dice import sort_high
from risk_service.engine.core.errors import IllegalAction, Reason
from risk_service.engine.core.guards import check_action, check_max_turns, check_seed
from risk_service.engine.core.rng import Pcg32
from risk_service.engine.core.ruleset import Action, Decision, Event, LegalAction
from risk_service.engine.core.variant import VariantRules
from risk_service.engine.core.windows import (
    ResponseWindow,
    asked,
    auto_pass,
    drop_seat,
    is_closed,
    open_window,
    pass_turn,
    priority_order,
    resolve_chain,
    respond,
)
from risk_service.engine.core.working import (
    AS_LIST,
    AS_LISTS,
    AS_SORTED_LISTS,
    Thawed,
    WorkingState,
)
from risk_service.engine.strike import bot
from risk_service.engine.strike.cards import (
    ALL_CARDS,
    CONTINENT_CARDS,
    CONTINENTS,
    DOMINATION,
    LINKS,
    continent_of,
    first_of,
    linked,
    of_continent,
    of_tactic,
    tactic_of,
)
from risk_service.engine.strike.model import (
    ACTION_TYPES,
    EVENT_TYPES,
    NO_CONTINENT,
    NOBODY,
    Attack,
    AttackDeclared,
    BattleEnded,
    BattleResolved,
    CoinTaken,
    ContinentCardLost,
    ContinentCardsDrawn,
    Deck,
    DeckShuffled,
    Deploy,
    DiceChanged,
    DiceRolled,
    DrawCards,
    GameEnded,
    HandRevealed,
    OrderRolled,
    Pass,
    Passed,
    PassTurn,
    Phase,
    PlayArtillery,
    PlayBombard,
    PlayCancelOrder,
    PlayerResigned,
    PlayExpand,
    PlayRally,
    PlaySabotage,
    PlaySpy,
    RollAgain,
    Side,
    StopAttack,
    StrikeOptions,
    StrikeState,
    StrikeView,
    Tactic,
    TacticPlay,
    TacticPlayed,
    TacticResolved,
    TacticsDrawn,
    TroopsDeployed,
    TroopsDiscarded,
    TroopsReturned,
    TurnEnded,
    TurnPassed,
    TurnStarted,
    WindowKind,
)

START_CONTINENT = 3  # continent cards dealt to each player
START_TACTICS = 3
DRAWS_PER_TURN = 2
MAX_ATTACK_DICE = 3
MAX_DEFENCE_DICE = 2
RALLY_BONUS = 2
BOMBARD_VALUE = 6
ARTILLERY_HITS = 2
COINS_TO_WIN = 2
NO_SIDE = 0

# The decision kinds (`Decision.kind`): a window's kind when one is open, else the phase.
_WINDOW_STEP = {
    WindowKind.DEPLOY: "deploy",
    WindowKind.AFTER_DEPLOY: "after_deploy",
    WindowKind.AFTER_ROLL: "after_roll",
    WindowKind.CANCEL: "cancel",
}
# Where each action may be taken (the step names above and the phases without a window).
_STEPS: dict[type[Action], frozenset[str]] = {
    DrawCards: frozenset({"draw"}),
    Attack: frozenset({"main"}),
    PassTurn: frozenset({"main"}),
    Deploy: frozenset({"deploy"}),
    Pass: frozenset({"deploy", "after_deploy", "after_roll", "cancel"}),
    PlaySpy: frozenset({"draw", "main", "continue"}),
    PlayExpand: frozenset({"draw", "main", "continue"}),
    PlayArtillery: frozenset({"after_deploy", "after_roll"}),
    PlaySabotage: frozenset({"after_deploy"}),
    PlayRally: frozenset({"after_roll"}),
    PlayBombard: frozenset({"after_roll"}),
    PlayCancelOrder: frozenset({"cancel"}),
    RollAgain: frozenset({"continue"}),
    StopAttack: frozenset({"continue"}),
}


def _fail(reason: Reason, message: str) -> IllegalAction:
    return IllegalAction(reason, message)


def step_of(phase: Phase, windows: Sequence[ResponseWindow]) -> str:
    """The decision kind: the top window's kind, else the phase's name."""
    if windows:
        return _WINDOW_STEP[WindowKind(windows[-1].kind)]
    return phase.name.lower()


# ---- what a seat may do: shared by legal_actions and auto-pass ------------------------------


def card_actions(
    step: str,
    seat: int,
    hand: Sequence[int],
    *,
    players: int,
    out: Sequence[bool],
    troops: Sequence[Sequence[int]],
    sides: Sequence[int],
    attack_dice: Sequence[int],
    defence_dice: Sequence[int],
) -> list[Action]:
    """The tactics cards `seat` could play now (every target and option), without Pass."""
    found: list[Action] = []
    has = {tactic_of(c) for c in hand}
    if step in ("draw", "main", "continue"):
        if Tactic.SPY in has:
            found.extend(PlaySpy(t) for t in range(players) if t != seat and not out[t])
        if Tactic.EXPAND in has:
            found.extend((PlayExpand(True), PlayExpand(False)))
    if step in ("after_deploy", "after_roll") and Tactic.ARTILLERY in has:
        found.extend(PlayArtillery(t) for t in range(players) if t != seat and troops[t])
    if step == "after_deploy" and Tactic.SABOTAGE in has:
        found.append(PlaySabotage())
    if step == "after_roll" and sides[seat] != NO_SIDE:
        if Tactic.RALLY in has:
            found.append(PlayRally())
        if Tactic.BOMBARD in has:
            for side, dice in ((Side.ATTACKER, attack_dice), (Side.DEFENDER, defence_dice)):
                found.extend(
                    PlayBombard(side, i) for i, value in enumerate(dice) if value < BOMBARD_VALUE
                )
    if step == "cancel" and Tactic.CANCEL_ORDER in has:
        found.append(PlayCancelOrder())
    return found


def deploy_sides(seat: int, current: int, defender: int) -> tuple[Side, ...]:
    if seat == current:
        return (Side.ATTACKER,)
    if seat == defender:
        return (Side.DEFENDER,)
    return (Side.ATTACKER, Side.DEFENDER)


class _Game(WorkingState[StrikeState]):
    """A mutable copy of one StrikeState for the duration of one rule application."""

    state_type = StrikeState
    thawed: ClassVar[Mapping[str, Thawed]] = {
        "continents": AS_SORTED_LISTS, "hands": AS_SORTED_LISTS, "coins": AS_LIST,
        "out": AS_LIST, "troops": AS_LISTS, "sides": AS_LIST, "windows": AS_LIST,
        "plays": AS_LIST,
    }
    finished_phase = Phase.FINISHED

    options: StrikeOptions
    seed: int
    phase: Phase
    turn: int
    first_seat: int
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

    # ---- shared pieces -----------------------------------------------------------------

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

    def step(self) -> str:
        return step_of(self.phase, self.windows)

    def actions_for(self, step: str, seat: int) -> list[Action]:
        return card_actions(
            step, seat, self.hands[seat], players=self.seats, out=self.out, troops=self.troops,
            sides=self.sides, attack_dice=self.attack_dice, defence_dice=self.defence_dice,
        )

    # ---- drawing -----------------------------------------------------------------------

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

    # ---- domination ----------------------------------------------------------------------

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

    # ---- turns ---------------------------------------------------------------------------

    def start_turn(self, seat: int) -> None:
        if self.turn >= self.options.max_turns:
            self.finish(NOBODY, "turn_cap")
            return
        self.turn += 1
        self.current = seat
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

    # ---- windows -------------------------------------------------------------------------

    def auto_seats(self, window: ResponseWindow) -> set[int]:
        """Seats the auto_pass option answers for: those with nothing to play here."""
        if not self.options.auto_pass:
            return set()
        step = _WINDOW_STEP[WindowKind(window.kind)]
        auto = set()
        for seat in window.order:
            if step == "deploy":
                if not of_tactic(self.hands[seat], Tactic.TROOPS):
                    auto.add(seat)
            elif not self.actions_for(step, seat):
                auto.add(seat)
        return auto

    def advance(self) -> None:
        """Answer for auto-passing seats, and close every window that has closed."""
        while self.windows and not self.finished:
            top, passed = auto_pass(self.windows[-1], self.auto_seats(self.windows[-1]))
            self.windows[-1] = top
            for seat in passed:
                self.emit(Passed(seat, True))
            if not is_closed(top):
                return
            self.windows.pop()
            self.close(top)

    def close(self, window: ResponseWindow) -> None:
        kind = WindowKind(window.kind)
        if kind is WindowKind.DEPLOY:
            self.phase = Phase.AFTER_DEPLOY
            self.windows.append(open_window(WindowKind.AFTER_DEPLOY, self.priority()))
        elif kind is WindowKind.AFTER_DEPLOY:
            self.roll()
        elif kind is WindowKind.AFTER_ROLL:
            self.settle_roll()
        else:
            self.resolve(window)

    def play_card(self, seat: int, play: TacticPlay) -> None:
        """A tactics card goes down: it answers the asked window, and opens a Cancel window."""
        self.hands[seat].remove(play.card_id)
        index = len(self.plays)
        self.plays.append(play)
        self.emit(TacticPlayed(play))
        others = self.priority(exclude={seat})
        if self.windows and self.windows[-1].kind == WindowKind.CANCEL:
            self.windows[-1] = respond(self.windows[-1], seat, index, order=others)
        else:
            if self.windows:  # a response reopens the window it answers
                self.windows[-1] = respond(self.windows[-1], seat)
            self.windows.append(open_window(WindowKind.CANCEL, others, (index,)))
        self.advance()

    def resolve(self, window: ResponseWindow) -> None:
        """A closed Cancel window: its chain resolves last played first, then is discarded."""
        # A departed seat's card takes no effect; its Cancel Order cancels nothing.
        def cancels(index: int) -> bool:
            play = self.plays[index]
            return play.card is Tactic.CANCEL_ORDER and not self.out[play.seat]

        chain = resolve_chain(window.stack, cancels)
        effects: list[TacticPlay] = []
        for index, effective in chain:
            play = self.plays[index]
            takes = effective and not self.out[play.seat]
            self.discard((play.card_id,))
            self.emit(TacticResolved(play.seat, play.card, takes))
            if takes and play.card is not Tactic.CANCEL_ORDER:
                effects.append(play)
        self.plays = []
        for play in effects:
            self.effect(play)
            if self.finished:
                return

    def effect(self, play: TacticPlay) -> None:
        seat = play.seat
        if play.card is Tactic.SPY:
            self.emit(HandRevealed(seat, play.target, tuple(sorted(self.hands[play.target]))))
            self.draw_tactics(seat, 1)
        elif play.card is Tactic.EXPAND:
            if play.continent_cards:
                self.draw_continent(seat, 2)
            else:
                self.draw_tactics(seat, 1)
        elif play.card is Tactic.ARTILLERY:
            hit = sorted(self.troops[play.target])[:ARTILLERY_HITS]
            if hit:
                for card in hit:
                    self.troops[play.target].remove(card)
                self.discard(hit)
                self.emit(TroopsDiscarded(play.target, tuple(hit), "artillery"))
        elif play.card is Tactic.SABOTAGE:
            for owner in range(self.seats):
                if self.troops[owner]:
                    cards = tuple(self.troops[owner])
                    self.hands[owner].extend(cards)
                    self.troops[owner] = []
                    self.emit(TroopsReturned(owner, cards))
            self.emit(BattleEnded(self.current, "sabotage"))
            self.end_turn()
        elif play.card is Tactic.RALLY:
            if self.sides[seat] == Side.ATTACKER:
                self.attack_dice = tuple(d + RALLY_BONUS for d in self.attack_dice)
            elif self.sides[seat] == Side.DEFENDER:
                self.defence_dice = tuple(d + RALLY_BONUS for d in self.defence_dice)
            self.emit(DiceChanged(seat, play.card, self.attack_dice, self.defence_dice))
        elif play.card is Tactic.BOMBARD:
            dice = list(self.attack_dice if play.side == Side.ATTACKER else self.defence_dice)
            if 0 <= play.die < len(dice):
                dice[play.die] = BOMBARD_VALUE
            if play.side == Side.ATTACKER:
                self.attack_dice = sort_high(dice)
            else:
                self.defence_dice = sort_high(dice)
            self.emit(DiceChanged(seat, play.card, self.attack_dice, self.defence_dice))

    # ---- the battle ----------------------------------------------------------------------

    def side_seats(self, side: int) -> list[int]:
        """The seats on a side: its leader first, then supporters clockwise from the attacker."""
        leader = self.current if side == Side.ATTACKER else self.defender
        supporters = [
            (self.current + step) % self.seats for step in range(1, self.seats)
        ]
        others = (self.current, self.defender)
        return [leader, *(s for s in supporters if s not in others and self.sides[s] == side)]

    def side_strength(self, side: int) -> int:
        if side == Side.ATTACKER:
            cards = len(of_continent(self.continents[self.current], self.from_continent))
        else:
            cards = len(of_continent(self.continents[self.defender], self.to_continent))
        return cards + sum(len(self.troops[s]) for s in self.side_seats(side))

    def roll(self) -> None:
        attack = min(MAX_ATTACK_DICE, self.side_strength(Side.ATTACKER))
        defence = min(MAX_DEFENCE_DICE, self.side_strength(Side.DEFENDER))
        self.attack_dice = sort_high(self.rng.dice(attack))
        self.defence_dice = sort_high(self.rng.dice(defence))
        self.rolls += 1
        self.emit(DiceRolled(self.attack_dice, self.defence_dice))
        self.phase = Phase.AFTER_ROLL
        self.windows.append(open_window(WindowKind.AFTER_ROLL, self.priority()))

    def lose_one(self, side: int) -> None:
        """One loss: an active Troops card of the side (its leader's own first), else a
        continent card in play (to the attacker, or to the surrender pile)."""
        for seat in self.side_seats(side):
            if self.troops[seat]:
                card = min(self.troops[seat])
                self.troops[seat].remove(card)
                self.discard((card,))
                self.emit(TroopsDiscarded(seat, (card,), "loss"))
                return
        if side == Side.DEFENDER:
            held = of_continent(self.continents[self.defender], self.to_continent)
            if held:
                card = min(held)
                self.continents[self.defender].remove(card)
                self.continents[self.current].append(card)
                self.emit(ContinentCardLost(self.defender, card, self.current))
                self.gained(self.current, self.to_continent)
        else:
            held = of_continent(self.continents[self.current], self.from_continent)
            if held:
                card = min(held)
                self.continents[self.current].remove(card)
                self.surrender = (*self.surrender, card)
                self.emit(ContinentCardLost(self.current, card, NOBODY))

    def settle_roll(self) -> None:
        attacker_losses = defender_losses = 0
        for a, d in zip(self.attack_dice, self.defence_dice, strict=False):
            if a > d:
                defender_losses += 1
            else:
                attacker_losses += 1
        self.emit(BattleResolved(
            self.attack_dice, self.defence_dice, attacker_losses, defender_losses
        ))
        for a, d in zip(self.attack_dice, self.defence_dice, strict=False):
            self.lose_one(Side.DEFENDER if a > d else Side.ATTACKER)
            if self.finished:
                return
        if self.battle_can_go_on():
            self.phase = Phase.CONTINUE
        else:
            self.end_battle("exhausted")

    def battle_can_go_on(self) -> bool:
        return bool(
            of_continent(self.continents[self.current], self.from_continent)
            and of_continent(self.continents[self.defender], self.to_continent)
        )

    def end_battle(self, reason: str) -> None:
        """The battle is over: remaining active Troops are discarded, and the turn ends."""
        for seat in range(self.seats):
            if self.troops[seat]:
                cards = tuple(self.troops[seat])
                self.discard(cards)
                self.troops[seat] = []
                self.emit(TroopsDiscarded(seat, cards, "battle_end"))
        self.emit(BattleEnded(self.current, reason))
        self.end_turn()

    # ---- leaving ---------------------------------------------------------------------------

    def resign(self, seat: int) -> None:
        self.out[seat] = True
        self.out_order = (*self.out_order, seat)
        self.discard(sorted(self.hands[seat]))
        self.hands[seat] = []
        if self.troops[seat]:
            cards = tuple(self.troops[seat])
            self.discard(cards)
            self.troops[seat] = []
            self.emit(TroopsDiscarded(seat, cards, "resigned"))
        self.surrender = self.surrender + tuple(sorted(self.continents[seat]))
        self.continents[seat] = []
        self.coins = [NOBODY if holder == seat else holder for holder in self.coins]
        self.emit(PlayerResigned(seat))
        live = self.live_seats()
        if len(live) == 1:
            self.finish(live[0], "resignation")
            return
        in_battle = self.defender != NOBODY
        if in_battle and seat in (self.current, self.defender):
            self.end_battle("resigned")
            return
        if seat == self.current:
            self.end_turn()
            return
        self.sides[seat] = NO_SIDE
        self.windows = [drop_seat(w, seat) for w in self.windows]
        self.advance()


class StrikeRules(VariantRules[StrikeState, StrikeOptions, StrikeView]):
    """Risk Strike behind the engine interface."""

    name: ClassVar[str] = "strike"
    rules_version: ClassVar[int] = 1
    options_type: ClassVar[type[StrikeOptions]] = StrikeOptions
    state_type: ClassVar[type[StrikeState]] = StrikeState
    view_type: ClassVar[type[StrikeView]] = StrikeView
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES
    event_types: ClassVar[tuple[type[Event], ...]] = EVENT_TYPES
    work_type = _Game

    # ---- creation ----------------------------------------------------------------------

    def create(self, options: StrikeOptions, seed: int) -> tuple[StrikeState, list[Event]]:
        if not 2 <= options.players <= 5:
            raise _fail(Reason.INVALID_OPTIONS, "Risk Strike takes 2 to 5 players")
        check_max_turns(options.max_turns)
        check_seed(seed)
        n = options.players
        rng = Pcg32.from_seed(seed)
        blank = StrikeState(
            options=options, seed=seed, rng_state=rng.state, rng_inc=rng.inc,
            phase=Phase.DRAW, current=0, turn=0, first_seat=NOBODY,
            continents=((),) * n, hands=((),) * n, continent_deck=(), tactics_deck=(),
            surrender=(), tactics_discard=(), coins=(NOBODY,) * CONTINENTS,
            out=(False,) * n, out_order=(), defender=NOBODY, from_continent=NO_CONTINENT,
            to_continent=NO_CONTINENT, troops=((),) * n, sides=(NO_SIDE,) * n,
            attack_dice=(), defence_dice=(), rolls=0, windows=(), plays=(),
            winner=NOBODY, ranking=(), end_reason="",
        )
        game = _Game(blank)
        game.continent_deck = game.rng.shuffled(range(CONTINENT_CARDS))
        game.emit(DeckShuffled(Deck.CONTINENT, CONTINENT_CARDS))
        game.tactics_deck = game.rng.shuffled(range(CONTINENT_CARDS, ALL_CARDS))
        game.emit(DeckShuffled(Deck.TACTICS, ALL_CARDS - CONTINENT_CARDS))
        for seat in range(n):
            game.draw_continent(seat, START_CONTINENT)
        for seat in range(n):
            game.draw_tactics(seat, START_TACTICS)
        first = game.roll_off(range(n), lambda done: OrderRolled(*done))
        game.first_seat = first
        for step in range(1, n):
            game.draw_tactics((first + step) % n, 1)
        if n == 2:
            game.draw_continent(1 - first, 1)
        if not game.finished:
            game.start_turn(first)
        return game.freeze(), game.events

    # ---- queries -----------------------------------------------------------------------

    def decision(self, state: StrikeState) -> Decision:
        if state.phase is Phase.FINISHED:
            return Decision((), "finished")
        step = step_of(state.phase, state.windows)
        if state.windows:
            seat = asked(state.windows[-1])
            assert seat is not None, "a closed window is never left open"
            return Decision((seat,), step)
        return Decision((state.current,), step)

    def legal_actions(self, state: StrikeState, seat: int) -> list[LegalAction]:
        if seat not in self.decision(state).seats:
            return []
        step = step_of(state.phase, state.windows)
        cards = card_actions(
            step, seat, state.hands[seat], players=state.options.players, out=state.out,
            troops=state.troops, sides=state.sides, attack_dice=state.attack_dice,
            defence_dice=state.defence_dice,
        )
        legal: list[LegalAction] = []
        if step == "draw":
            legal.extend(LegalAction(DrawCards(k)) for k in range(DRAWS_PER_TURN + 1))
        elif step == "main":
            legal.extend(LegalAction(a) for a in self._attacks(state, seat))
            legal.append(LegalAction(PassTurn()))
        elif step == "continue":
            legal.extend((LegalAction(RollAgain()), LegalAction(StopAttack())))
        elif step == "deploy":
            troops = len(of_tactic(state.hands[seat], Tactic.TROOPS))
            if troops:
                legal.extend(
                    LegalAction(Deploy(side, 1), troops)
                    for side in deploy_sides(seat, state.current, state.defender)
                )
            legal.append(LegalAction(Pass()))
        else:
            legal.append(LegalAction(Pass()))
        legal.extend(LegalAction(a) for a in cards)
        return legal

    @staticmethod
    def _attacks(state: StrikeState, seat: int) -> list[Attack]:
        found = []
        mine = {continent_of(c) for c in state.continents[seat]}
        for defender in range(state.options.players):
            if defender == seat or state.out[defender]:
                continue
            theirs = {continent_of(c) for c in state.continents[defender]}
            for src in sorted(mine):
                for dst in sorted({src, *LINKS[src]} & theirs):
                    found.append(Attack(defender, src, dst))
        return found

    def view(self, state: StrikeState, viewer: int | None) -> StrikeView:
        seat = -1 if viewer is None else viewer
        return StrikeView(
            viewer=seat,
            options=state.options,
            phase=state.phase,
            current=state.current,
            turn=state.turn,
            continents=state.continents,
            hand=state.hands[seat] if 0 <= seat < state.options.players else (),
            hand_counts=tuple(len(h) for h in state.hands),
            continent_deck_count=len(state.continent_deck),
            tactics_deck_count=len(state.tactics_deck),
            surrender=state.surrender,
            tactics_discard=state.tactics_discard,
            coins=state.coins,
            out=state.out,
            out_order=state.out_order,
            defender=state.defender,
            from_continent=state.from_continent,
            to_continent=state.to_continent,
            troops=state.troops,
            sides=state.sides,
            attack_dice=state.attack_dice,
            defence_dice=state.defence_dice,
            rolls=state.rolls,
            windows=state.windows,
            plays=state.plays,
            winner=state.winner,
            ranking=state.ranking,
            end_reason=state.end_reason,
        )

    def leave(self, game: _Game, seat: int) -> None:
        game.resign(seat)

    def default_action(self, state: StrikeState, seat: int) -> Action:
        """The passive choice of a seat whose clock ran out: pass in every window and
        deployment, draw one card of each deck, pass the turn, stop attacking."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise _fail(Reason.NOT_YOUR_TURN, f"it is not seat {seat}'s decision")
        actions = [entry.action for entry in legal]
        for passive in (Pass(), PassTurn(), StopAttack(), DrawCards(1)):
            if passive in actions:
                return passive
        return actions[0]

    def bot_choose(self, view: StrikeView, legal: Sequence[LegalAction], entropy: int) -> Action:
        return bot.choose(view, legal, Pcg32.from_seed(entropy, stream=view.viewer + 1))

    # ---- apply -------------------------------------------------------------------------

    def apply(
        self, state: StrikeState, seat: int, action: Action
    ) -> tuple[StrikeState, list[Event]]:
        check_action(action, ACTION_TYPES, "Strike", seat=seat, players=state.options.players,
                     finished=state.phase is Phase.FINISHED,
                     deciding=self.decision(state).seats)
        step = step_of(state.phase, state.windows)
        if step not in _STEPS[type(action)]:
            raise _fail(
                Reason.WRONG_PHASE, f"{type(action).__name__} is not allowed now ({step})"
            )
        game = _Game(state)
        _HANDLERS[type(action)](game, seat, action)
        return game.freeze(), game.events


# ---- validation helpers ------------------------------------------------------------------


def _continent(c: int) -> int:
    if not 0 <= c < CONTINENTS:
        raise _fail(Reason.NO_SUCH_CONTINENT, f"continent {c} does not exist")
    return c


def _card(game: _Game, seat: int, kind: Tactic) -> int:
    card = first_of(game.hands[seat], kind)
    if card is None:
        raise _fail(Reason.CARD_NOT_IN_HAND, f"seat {seat} holds no {kind.name} card")
    return card


def _opponent(game: _Game, seat: int, target: int, what: str) -> int:
    if not 0 <= target < game.seats or target == seat or game.out[target]:
        raise _fail(Reason.INVALID_TARGET, f"{what}: seat {target} is not another live player")
    return target


# ---- handlers: one per action type; the step was checked by `apply` -------------------------


def _draw(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, DrawCards)
    if not 0 <= action.continent_cards <= DRAWS_PER_TURN:
        raise _fail(Reason.INVALID_DRAW, f"draw 0 to {DRAWS_PER_TURN} continent cards")
    if action.continent_cards:
        game.draw_continent(seat, action.continent_cards)
    if game.finished:
        return
    if DRAWS_PER_TURN - action.continent_cards:
        game.draw_tactics(seat, DRAWS_PER_TURN - action.continent_cards)
    game.phase = Phase.MAIN


def _attack(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, Attack)
    defender = action.defender
    if not 0 <= defender < game.seats or defender == seat or game.out[defender]:
        raise _fail(Reason.NOT_AN_OPPONENT, f"seat {defender} is not an opponent to attack")
    src, dst = _continent(action.from_continent), _continent(action.to_continent)
    if not of_continent(game.continents[seat], src):
        raise _fail(Reason.NO_CONTINENT_CARD, f"seat {seat} holds no card of continent {src}")
    if not of_continent(game.continents[defender], dst):
        raise _fail(
            Reason.NO_CONTINENT_CARD, f"seat {defender} holds no card of continent {dst}"
        )
    if not linked(src, dst):
        raise _fail(Reason.NOT_LINKED, f"continents {src} and {dst} are not linked")
    game.defender, game.from_continent, game.to_continent = defender, src, dst
    game.sides[seat] = Side.ATTACKER
    game.sides[defender] = Side.DEFENDER
    game.rolls = 0
    game.emit(AttackDeclared(seat, defender, src, dst))
    game.phase = Phase.DEPLOY
    game.windows = [open_window(WindowKind.DEPLOY, game.priority())]
    game.advance()


def _pass_turn(game: _Game, seat: int, action: Action) -> None:
    game.emit(TurnPassed(seat))
    game.draw_tactics(seat, 1)
    game.end_turn()


def _deploy(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, Deploy)
    if action.side not in deploy_sides(seat, game.current, game.defender):
        raise _fail(Reason.WRONG_SIDE, f"seat {seat} cannot deploy for side {action.side}")
    troops = sorted(of_tactic(game.hands[seat], Tactic.TROOPS))
    if action.count < 1:
        raise _fail(Reason.TOO_FEW_CARDS, "deploy at least 1 Troops card (or pass)")
    if action.count > len(troops):
        raise _fail(Reason.TOO_MANY_CARDS, f"seat {seat} holds {len(troops)} Troops cards")
    cards = troops[:action.count]
    for card in cards:
        game.hands[seat].remove(card)
    game.troops[seat].extend(cards)
    game.sides[seat] = Side(action.side)
    game.emit(TroopsDeployed(seat, Side(action.side), tuple(cards)))
    game.windows[-1] = pass_turn(game.windows[-1], seat)
    game.advance()


def _pass(game: _Game, seat: int, action: Action) -> None:
    game.emit(Passed(seat, False))
    game.windows[-1] = pass_turn(game.windows[-1], seat)
    game.advance()


def _spy(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, PlaySpy)
    card = _card(game, seat, Tactic.SPY)
    target = _opponent(game, seat, action.target, "Spy")
    game.play_card(seat, TacticPlay(seat, Tactic.SPY, card, target=target))


def _expand(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, PlayExpand)
    card = _card(game, seat, Tactic.EXPAND)
    if action.continent_cards not in (False, True):
        raise _fail(Reason.INVALID_DRAW, "Expand draws 2 continent cards (true) or 1 tactics")
    game.play_card(
        seat, TacticPlay(seat, Tactic.EXPAND, card, continent_cards=bool(action.continent_cards))
    )


def _artillery(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, PlayArtillery)
    card = _card(game, seat, Tactic.ARTILLERY)
    target = _opponent(game, seat, action.target, "Artillery")
    if not game.troops[target]:
        raise _fail(Reason.INVALID_TARGET, f"seat {target} has no active Troops")
    game.play_card(seat, TacticPlay(seat, Tactic.ARTILLERY, card, target=target))


def _sabotage(game: _Game, seat: int, action: Action) -> None:
    card = _card(game, seat, Tactic.SABOTAGE)
    game.play_card(seat, TacticPlay(seat, Tactic.SABOTAGE, card))


def _in_battle(game: _Game, seat: int, what: str) -> None:
    if game.sides[seat] == NO_SIDE:
        raise _fail(Reason.NOT_IN_BATTLE, f"{what}: seat {seat} takes no part in the battle")


def _rally(game: _Game, seat: int, action: Action) -> None:
    card = _card(game, seat, Tactic.RALLY)
    _in_battle(game, seat, "Rally")
    game.play_card(seat, TacticPlay(seat, Tactic.RALLY, card))


def _bombard(game: _Game, seat: int, action: Action) -> None:
    assert isinstance(action, PlayBombard)
    card = _card(game, seat, Tactic.BOMBARD)
    _in_battle(game, seat, "Bombard")
    if action.side not in (Side.ATTACKER, Side.DEFENDER):
        raise _fail(Reason.WRONG_SIDE, f"side {action.side} is neither attacker nor defender")
    dice = game.attack_dice if action.side == Side.ATTACKER else game.defence_dice
    if not 0 <= action.die < len(dice) or dice[action.die] >= BOMBARD_VALUE:
        raise _fail(Reason.NO_SUCH_DIE, f"no die below 6 at index {action.die} of that side")
    game.play_card(
        seat, TacticPlay(seat, Tactic.BOMBARD, card, side=int(action.side), die=action.die)
    )


def _cancel(game: _Game, seat: int, action: Action) -> None:
    card = _card(game, seat, Tactic.CANCEL_ORDER)
    game.play_card(seat, TacticPlay(seat, Tactic.CANCEL_ORDER, card))


def _roll_again(game: _Game, seat: int, action: Action) -> None:
    game.roll()
    game.advance()


def _stop(game: _Game, seat: int, action: Action) -> None:
    game.end_battle("stopped")


_HANDLERS = {
    DrawCards: _draw,
    Attack: _attack,
    PassTurn: _pass_turn,
    Deploy: _deploy,
    Pass: _pass,
    PlaySpy: _spy,
    PlayExpand: _expand,
    PlayArtillery: _artillery,
    PlaySabotage: _sabotage,
    PlayRally: _rally,
    PlayBombard: _bombard,
    PlayCancelOrder: _cancel,
    RollAgain: _roll_again,
    StopAttack: _stop,
}

