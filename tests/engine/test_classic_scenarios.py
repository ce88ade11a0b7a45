"""Classic Risk rule by rule, from hand-made states (see classic_states.py and rules/classic.md)."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from typing import Any

import pytest
from classic_states import RULES, act, hand_made, of_type, refused, rigged, spread, t, ts

from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.classic.cards import is_set
from risk_rules.engine.classic.model import (
    Attack,
    BattleResolved,
    CardDrawn,
    CardsTraded,
    ClaimTerritory,
    ClassicOptions,
    ClassicState,
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
    SetupMode,
    TerritoriesDealt,
    TerritoryClaimed,
    TerritoryConquered,
    TradeCards,
    TradeSchedule,
    TurnEnded,
    TurnStarted,
)
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.ruleset import Event

NEUTRAL = 2  # the neutral's owner id in a 2-player game

# Card ids: card i < 42 shows territory i with symbol i % 3; 42 and 43 are wild.
INFANTRY_SET = (0, 3, 6)  # Alaska, Alberta, Western United States
CAVALRY_SET = (1, 4, 7)
ARTILLERY_SET = (2, 5, 8)
MIXED_SET = (0, 1, 2)
WILD_A, WILD_B = 42, 43


def setup_winner(events: list[Event]) -> int:
    rolls = of_type(events, OrderRolled)
    return next(e.winner for e in rolls if e.purpose == "setup" and e.winner >= 0)


def seat_armies(state: ClassicState, seat: int) -> int:
    return sum(a for o, a in zip(state.owner, state.armies, strict=True) if o == seat)


# ---- setup: claim, random deal, auto place ------------------------------------------------


@pytest.mark.parametrize(("players", "armies"), [(3, 35), (4, 30), (5, 25), (6, 20)])
def test_starting_armies_by_player_count(players: int, armies: int) -> None:
    """Each player starts with 35/30/25/20 armies for 3/4/5/6 players."""
    state, _ = RULES.create(ClassicOptions(players=players), seed=11)
    assert state.phase is Phase.CLAIM
    assert state.to_place == (armies,) * players
    assert all(o == -1 for o in state.owner)


def test_claim_rejects_an_already_claimed_territory() -> None:
    """A territory someone claimed cannot be claimed again."""
    state, _ = RULES.create(ClassicOptions(players=3), seed=5)
    first = state.current
    state, events = act(state, first, ClaimTerritory(t("Alaska")))
    assert of_type(events, TerritoryClaimed) == [TerritoryClaimed(first, t("Alaska"))]
    second = state.current
    assert refused(state, second, ClaimTerritory(t("Alaska"))) is Reason.TERRITORY_CLAIMED
    assert refused(state, second, PlaceArmies(t("Alaska"), 1)) is Reason.WRONG_PHASE


def test_claim_goes_clockwise_from_the_roll_winner_then_setup_placement_then_first_roll() -> None:
    """Claims go clockwise from the high roller; then one army at a time clockwise; then a roll."""
    players = 4
    state, events = RULES.create(ClassicOptions(players=players), seed=3)
    start = setup_winner(events)
    assert state.current == start
    for k in range(TERRITORIES):
        assert state.phase is Phase.CLAIM
        assert state.current == (start + k) % players
        target = next(i for i in range(TERRITORIES) if state.owner[i] == -1)
        state, _ = act(state, state.current, ClaimTerritory(target))
    # 42 claims: the next seat clockwise goes on, now placing on its own territories.
    assert state.phase is Phase.SETUP_PLACE
    assert state.current == (start + TERRITORIES) % players
    assert sorted(Counter(state.owner).values()) == [10, 10, 11, 11]
    assert sum(state.to_place) == 30 * players - TERRITORIES
    while state.phase is Phase.SETUP_PLACE:
        seat = state.current
        own = state.owner.index(seat)
        assert refused(state, seat, PlaceArmies(own, 2)) is Reason.TOO_MANY_ARMIES
        state, events = act(state, seat, PlaceArmies(own, 1))
        if state.phase is Phase.SETUP_PLACE:
            expected = next(
                (seat + step) % players
                for step in range(1, players + 1)
                if state.to_place[(seat + step) % players] > 0
            )
            assert state.current == expected
    assert state.phase is Phase.REINFORCE
    assert state.to_place == (0,) * players
    assert [seat_armies(state, s) for s in range(players)] == [30] * players
    rolls = [e for e in of_type(events, OrderRolled) if e.purpose == "first_turn"]
    assert rolls and rolls[-1].winner == state.first_seat == state.current
    assert of_type(events, TurnStarted)[0].seat == state.first_seat


def test_tied_high_rollers_roll_again() -> None:
    """In the roll for who claims first, only the tied high rollers roll again."""
    for seed in range(200):
        _, events = RULES.create(ClassicOptions(players=5), seed=seed)
        rounds = [e for e in of_type(events, OrderRolled) if e.purpose == "setup"]
        if len(rounds) > 1:
            break
    else:
        pytest.fail("no seed below 200 ties the first roll")
    for before, after in itertools.pairwise(rounds):
        assert before.winner == -1
        high = max(before.rolls)
        assert after.seats == tuple(
            s for s, r in zip(before.seats, before.rolls, strict=True) if r == high
        )
    last = rounds[-1]
    assert last.rolls.count(max(last.rolls)) == 1
    assert last.winner == last.seats[last.rolls.index(max(last.rolls))]


def test_setup_placement_only_on_own_territory() -> None:
    """During setup placement a player may only reinforce a territory they claimed."""
    state = hand_made(3, owners={"Alaska": 1}, phase=Phase.SETUP_PLACE, current=0)
    state = dataclasses.replace(state, to_place=(5, 5, 5))
    assert refused(state, 0, PlaceArmies(t("Alaska"), 1)) is Reason.NOT_OWNER


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_deal_deals_round_robin(players: int) -> None:
    """random_deal gives every territory one army, dealt round robin from the first seat."""
    options = ClassicOptions(players=players, setup=SetupMode.RANDOM_DEAL)
    state, events = RULES.create(options, seed=21)
    start = setup_winner(events)
    dealt = of_type(events, TerritoriesDealt)
    assert dealt and dealt[0].owner == state.owner
    counts = Counter(state.owner)
    for k in range(players):
        seat = (start + k) % players
        # The first (42 mod players) seats from the starter get one extra territory.
        expected = TERRITORIES // players + (1 if k < TERRITORIES % players else 0)
        assert counts[seat] == expected
        assert state.to_place[seat] == options_armies(players) - expected
    assert state.armies == (1,) * TERRITORIES
    assert state.phase is Phase.SETUP_PLACE
    assert state.current == start


def options_armies(players: int) -> int:
    return {3: 35, 4: 30, 5: 25, 6: 20}[players]


@pytest.mark.parametrize("players", [2, 3, 6])
def test_auto_place_places_every_starting_army(players: int) -> None:
    """auto_place puts all starting armies on the board and the first turn begins."""
    options = ClassicOptions(players=players, setup=SetupMode.RANDOM_DEAL, auto_place=True)
    state, events = RULES.create(options, seed=8)
    assert state.phase is Phase.REINFORCE
    assert sum(state.to_place) == 0
    expected = 40 if players == 2 else options_armies(players)
    owners = players + 1 if players == 2 else players
    assert [seat_armies(state, s) for s in range(owners)] == [expected] * owners
    assert all(a >= 1 for a in state.armies)
    assert [e.purpose for e in of_type(events, OrderRolled)][-1] == "first_turn"
    [started] = of_type(events, TurnStarted)
    assert (started.seat, started.turn, started.reinforcements) == (state.current, 1, state.pending)


# ---- the official 2-player game -----------------------------------------------------------


def test_two_player_deal_is_three_piles_of_fourteen() -> None:
    """Two players and the neutral each get 14 territories with 1 army and 26 to place."""
    state, events = RULES.create(ClassicOptions(players=2), seed=4)
    assert Counter(state.owner) == {0: 14, 1: 14, NEUTRAL: 14}
    assert state.armies == (1,) * TERRITORIES
    assert state.to_place == (26, 26, 26)
    assert state.phase is Phase.SETUP_PLACE
    assert state.pending == 2
    assert [e.cards for e in of_type(events, DeckShuffled)] == [44]  # wilds join after the deal


def test_two_player_setup_turn_is_two_own_armies_then_one_neutral() -> None:
    """A 2-player setup turn: 2 own armies on one or two territories, then 1 neutral army."""
    state, _ = RULES.create(ClassicOptions(players=2), seed=4)
    me = state.current
    mine = [i for i in range(TERRITORIES) if state.owner[i] == me]
    neutral = [i for i in range(TERRITORIES) if state.owner[i] == NEUTRAL]
    assert refused(state, me, PlaceArmies(mine[0], 3)) is Reason.TOO_MANY_ARMIES
    assert refused(state, me, PlaceNeutral(neutral[0])) is Reason.WRONG_PHASE
    state, _ = act(state, me, PlaceArmies(mine[0], 1))
    assert (state.phase, state.current, state.pending) == (Phase.SETUP_PLACE, me, 1)
    state, _ = act(state, me, PlaceArmies(mine[1], 1))
    assert (state.phase, state.current) == (Phase.SETUP_NEUTRAL, me)
    assert refused(state, me, PlaceNeutral(mine[0])) is Reason.NOT_NEUTRAL
    state, _ = act(state, me, PlaceNeutral(neutral[0]))
    assert state.armies[neutral[0]] == 2
    other = 1 - me
    assert (state.phase, state.current, state.pending) == (Phase.SETUP_PLACE, other, 2)
    theirs = next(i for i in range(TERRITORIES) if state.owner[i] == other)
    state, _ = act(state, other, PlaceArmies(theirs, 2))  # both on one territory
    assert state.armies[theirs] == 3
    assert (state.phase, state.current) == (Phase.SETUP_NEUTRAL, other)
    assert state.to_place == (24, 24, 25)


def test_two_player_setup_ends_with_forty_armies_each_and_neutral_never_takes_a_turn() -> None:
    """After the 2-player setup all three hold 40 armies, and only the two players take turns."""
    state, _ = RULES.create(ClassicOptions(players=2), seed=9)
    steps = 0
    while state.phase in (Phase.SETUP_PLACE, Phase.SETUP_NEUTRAL):
        seat = RULES.decision(state).seats[0]
        assert seat in (0, 1)
        state, _ = act(state, seat, RULES.legal_actions(state, seat)[0].action)
        steps += 1
    assert steps == 13 * 2 * 2 + 26  # 13 turns each of 2 own (one at a time here) + 26 neutral
    assert [seat_armies(state, s) for s in (0, 1, NEUTRAL)] == [40, 40, 40]
    assert state.phase is Phase.REINFORCE and state.current in (0, 1)
    seen = []
    for _ in range(6):
        seat = state.current
        seen.append(seat)
        assert RULES.decision(state).seats == (seat,)
        own = state.owner.index(seat)
        state, _ = act(state, seat, PlaceArmies(own, state.pending))
        state, _ = act(state, seat, EndAttack())
        state, _ = act(state, seat, EndTurn())
    assert set(seen) == {0, 1} and all(a != b for a, b in itertools.pairwise(seen))
    with pytest.raises(IllegalAction) as caught:
        RULES.apply(state, NEUTRAL, EndTurn())
    assert caught.value.reason is Reason.NOT_A_SEAT


def two_player_board(opponent: tuple[str, ...] = ("Iceland", "Japan")) -> ClassicState:
    """Seat 0 holds most of the map; seat 1 `opponent`; the neutral Europe and Africa."""
    owners = dict.fromkeys((
        "Scandinavia", "Great Britain", "Northern Europe", "Western Europe", "Southern Europe",
        "Ukraine", "North Africa", "Egypt", "East Africa", "Congo", "South Africa", "Madagascar",
    ), NEUTRAL)
    owners |= dict.fromkeys(opponent, 1)
    return hand_made(2, owners=owners, rest=0, armies={"Greenland": 6, "Brazil": 6})


def test_the_other_player_decides_the_neutral_defence() -> None:
    """When seat 0 attacks the neutral, seat 1 chooses the neutral's defence dice."""
    state = two_player_board()
    state, _ = act(state, 0, Attack(t("Brazil"), t("North Africa"), 3))
    assert state.phase is Phase.DEFEND
    assert RULES.decision(state).seats == (1,)
    assert refused(state, 0, Defend(1)) is Reason.NOT_YOUR_TURN
    state = rigged(state, 6, 6, 6, 1)
    state, events = act(state, 1, Defend(1))
    [battle] = of_type(events, BattleResolved)
    assert battle.defender == NEUTRAL and battle.defence_dice == (1,)


def test_two_player_win_is_eliminating_the_opponent_even_with_neutral_left() -> None:
    """Taking the opponent's last territory wins the 2-player game; the neutral may remain."""
    state = two_player_board(opponent=("Iceland",))
    state, _ = act(state, 0, Attack(t("Greenland"), t("Iceland"), 3))
    assert RULES.decision(state).seats == (1,)
    state = rigged(state, 6, 6, 6, 1)
    state, events = act(state, 1, Defend(1))
    [ended] = of_type(events, GameEnded)
    assert (ended.winner, ended.reason) == (0, "conquest")
    assert state.phase is Phase.FINISHED and state.winner == 0
    assert NEUTRAL in state.owner
    assert RULES.outcome(state) is not None


# ---- reinforcement ------------------------------------------------------------------------


def start_turn_of_seat_0(owned: list[int]) -> tuple[ClassicState, TurnStarted]:
    """Seat 2 ends its turn; seat 0, holding exactly `owned`, starts one."""
    owners = {
        name: 0 if i in owned else 1 + i % 2 for i, name in enumerate(CLASSIC_BOARD.names)
    }
    state = hand_made(3, owners=owners, phase=Phase.FORTIFY, current=2)
    state, events = act(state, 2, EndTurn())
    [started] = of_type(events, TurnStarted)
    return state, started


@pytest.mark.parametrize(
    ("territories", "expected"),
    [(1, 3), (8, 3), (9, 3), (11, 3), (12, 4), (14, 4), (15, 5), (21, 7), (35, 11)],
)
def test_reinforcements_are_a_third_of_territories_at_least_three(
    territories: int, expected: int
) -> None:
    """Reinforcements are territories // 3, never fewer than 3 (11 -> 3, 12 -> 4)."""
    state, started = start_turn_of_seat_0(spread(territories))
    assert (started.seat, started.reinforcements, started.continent_bonus) == (0, expected, 0)
    assert state.phase is Phase.REINFORCE and state.pending == expected


@pytest.mark.parametrize(
    ("continents", "extra", "expected", "bonus"),
    [
        (["Australia"], 5, 3 + 2, 2),  # 9 territories
        (["Asia"], 0, 4 + 7, 7),  # 12 territories
        (["Australia", "South America"], 4, 4 + 4, 4),  # 12 territories
        (["North America", "Europe", "Africa"], 0, 7 + 13, 13),  # 22 territories
    ],
)
def test_reinforcements_add_bonuses_for_whole_continents(
    continents: list[str], extra: int, expected: int, bonus: int
) -> None:
    """Each whole continent held at the start of the turn adds its bonus (Australia 2, Asia 7)."""
    regions = [r for r in CLASSIC_BOARD.regions if r.name in continents]
    owned = [m for r in regions for m in r.members]
    owned += spread(extra, skip=owned)
    state, started = start_turn_of_seat_0(owned)
    assert (started.reinforcements, started.continent_bonus) == (expected, bonus)
    assert state.pending == expected


def test_missing_one_territory_loses_the_continent_bonus() -> None:
    """Holding 3 of Australia's 4 territories gives no bonus."""
    owned = ts("Indonesia", "New Guinea", "Western Australia")
    _, started = start_turn_of_seat_0(owned)
    assert (started.reinforcements, started.continent_bonus) == (3, 0)


def test_reinforcements_are_placed_by_count_before_any_attack() -> None:
    """Reinforcements go out in (territory, count) steps; attacking waits until all are placed."""
    state = hand_made(3, owners={"Japan": 1, "Siam": 2}, phase=Phase.REINFORCE, pending=5)
    assert refused(state, 0, PlaceArmies(t("Alaska"), 6)) is Reason.TOO_MANY_ARMIES
    assert refused(state, 0, PlaceArmies(t("Alaska"), 0)) is Reason.TOO_FEW_ARMIES
    assert refused(state, 0, PlaceArmies(t("Japan"), 1)) is Reason.NOT_OWNER
    state, _ = act(state, 0, PlaceArmies(t("Alaska"), 2))
    assert (state.phase, state.pending, state.armies[t("Alaska")]) == (Phase.REINFORCE, 3, 3)
    assert refused(state, 0, Attack(t("Mongolia"), t("Japan"), 1)) is Reason.WRONG_PHASE
    state, _ = act(state, 0, PlaceArmies(t("Mongolia"), 3))
    assert (state.phase, state.pending, state.armies[t("Mongolia")]) == (Phase.ATTACK, 0, 4)
    state, _ = act(state, 0, Attack(t("Mongolia"), t("Japan"), 3))


# ---- cards --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "valid"),
    [
        (INFANTRY_SET, True),
        (CAVALRY_SET, True),
        (ARTILLERY_SET, True),
        (MIXED_SET, True),
        ((0, 3, WILD_A), True),  # two of a kind + wild
        ((0, 1, WILD_B), True),  # two different + wild
        ((0, WILD_A, WILD_B), True),
        ((0, 1, 4), False),  # infantry, cavalry, cavalry
        ((0, 3, 1), False),
    ],
)
def test_card_sets(cards: tuple[int, int, int], valid: bool) -> None:
    """Sets are three of a kind, one of each kind, or any two plus a wild."""
    assert is_set(cards) is valid
    ordered = tuple(sorted(cards))
    state = hand_made(
        3, owners={"Alaska": 1}, phase=Phase.REINFORCE, pending=3, hands={0: ordered},
        bonus_used=True,
    )
    if valid:
        state, events = act(state, 0, TradeCards(ordered))
        assert of_type(events, CardsTraded)[0].armies == 4
        assert state.pending == 7 and state.hands[0] == ()
    else:
        assert refused(state, 0, TradeCards(ordered)) is Reason.INVALID_SET


def trade_round(schedule: TradeSchedule, sets: list[tuple[int, int, int]]) -> list[int]:
    """Trade the given sets in turn by seats 0, 1, 2, 0, ...; the armies each trade gave."""
    state = hand_made(3, owners={"Alaska": 1, "Japan": 2}, trade_schedule=schedule)
    values = []
    for k, cards in enumerate(sets):
        seat = k % 3
        # The cards show North America, held by another seat, so no +2 bonus is due.
        owner = tuple(seat if i == t("Japan") else (seat + 1) % 3 for i in range(TERRITORIES))
        hands: list[tuple[int, ...]] = [(), (), ()]
        hands[seat] = tuple(sorted(cards))
        state = dataclasses.replace(
            state, phase=Phase.REINFORCE, current=seat, pending=0, owner=owner,
            hands=tuple(hands), bonus_used=False,
        )
        state, events = act(state, seat, TradeCards(tuple(sorted(cards))))
        [traded] = of_type(events, CardsTraded)
        assert traded.trade_number == k + 1 == state.trades_done
        assert state.pending == traded.armies
        values.append(traded.armies)
    return values


def test_seed_schedule_escalates_globally_across_players() -> None:
    """Seed schedule: 4, 6, 8, 10, 15, 20, counted across every player's trades."""
    sets = [INFANTRY_SET, CAVALRY_SET, ARTILLERY_SET, MIXED_SET, INFANTRY_SET, CAVALRY_SET]
    assert trade_round(TradeSchedule.SEED, sets) == [4, 6, 8, 10, 15, 20]


def test_hasbro_1993_schedule() -> None:
    """hasbro_1993 schedule: 4, 6, 8, 10, 12, 15, 20."""
    sets = [INFANTRY_SET] * 7
    assert trade_round(TradeSchedule.HASBRO_1993, sets) == [4, 6, 8, 10, 12, 15, 20]


def test_fixed_schedule_values_by_set() -> None:
    """fixed schedule: infantry 4, cavalry 6, artillery 8, one of each 10, never escalating."""
    sets = [INFANTRY_SET, CAVALRY_SET, ARTILLERY_SET, MIXED_SET, INFANTRY_SET, (0, 1, WILD_A)]
    assert trade_round(TradeSchedule.FIXED, sets) == [4, 6, 8, 10, 4, 10]


def test_next_trade_value_is_shared_by_all_players() -> None:
    """After one player trades, every player's view shows the same next (higher) value."""
    state = hand_made(3, owners={"Japan": 1, "Siam": 2}, trades_done=3)
    assert {RULES.view(state, seat).next_trade_value for seat in (0, 1, 2, None)} == {10}
    # Seat 1 trades Alaska, Northwest Territory and Greenland, all held by seat 0: no bonus.
    state = dataclasses.replace(
        state, phase=Phase.REINFORCE, pending=3, hands=((), MIXED_SET, ()), current=1
    )
    state, _ = act(state, 1, TradeCards(MIXED_SET))
    assert {RULES.view(state, seat).next_trade_value for seat in (0, 1, 2, None)} == {15}


def test_territory_bonus_is_two_armies_at_most_once_per_turn() -> None:
    """A traded card showing an owned territory puts +2 there, only once per turn."""
    state = hand_made(
        3, owners={"Alberta": 1, "Western United States": 1, "Argentina": 2, "Scandinavia": 2},
        rest=0, armies={"Alaska": 1, "Venezuela": 1}, phase=Phase.REINFORCE, pending=3,
        hands={0: (*INFANTRY_SET, 9, 12, 15)},  # Venezuela, Argentina, Scandinavia: infantry
    )
    # Alaska (card 0) is owned: the +2 is due and must go there, not nowhere, not to Alberta.
    assert refused(state, 0, TradeCards(INFANTRY_SET, -1)) is Reason.INVALID_BONUS_TERRITORY
    bad = TradeCards(INFANTRY_SET, t("Alberta"))
    assert refused(state, 0, bad) is Reason.INVALID_BONUS_TERRITORY
    state, events = act(state, 0, TradeCards(INFANTRY_SET, t("Alaska")))
    assert state.armies[t("Alaska")] == 3
    assert of_type(events, CardsTraded)[0].bonus_territory == t("Alaska")
    assert state.pending == 3 + 4 and state.bonus_used
    # Venezuela (card 9) is owned too, but the bonus was taken this turn.
    second = TradeCards((9, 12, 15), t("Venezuela"))
    assert refused(state, 0, second) is Reason.INVALID_BONUS_TERRITORY
    state, events = act(state, 0, TradeCards((9, 12, 15), -1))
    assert state.armies[t("Venezuela")] == 1
    assert state.pending == 3 + 4 + 6


def test_five_cards_must_trade_before_placing() -> None:
    """A player holding 5 cards cannot place reinforcements until they trade."""
    hand = (0, 1, 9, 10, 20)  # Alaska inf, NWT cav, Venezuela inf, Peru cav, Northern Europe art
    state = hand_made(3, owners={"Japan": 1, "Siam": 2}, phase=Phase.REINFORCE, pending=3,
                      hands={0: hand}, bonus_used=True)
    assert refused(state, 0, PlaceArmies(t("Alaska"), 1)) is Reason.MUST_TRADE
    legal = RULES.legal_actions(state, 0)
    assert legal and all(isinstance(entry.action, TradeCards) for entry in legal)
    state, _ = act(state, 0, TradeCards((0, 1, 20)))
    assert len(state.hands[0]) == 2 and state.pending == 7
    state, _ = act(state, 0, PlaceArmies(t("Alaska"), 7))
    assert state.phase is Phase.ATTACK


def test_three_or_four_cards_may_place_without_trading() -> None:
    """With fewer than 5 cards trading is optional: placing everything moves on to attack."""
    state = hand_made(3, owners={"Japan": 1, "Siam": 2}, phase=Phase.REINFORCE, pending=3,
                      hands={0: (0, 1, 2, 3)})
    state, _ = act(state, 0, PlaceArmies(t("Alaska"), 3))
    assert state.phase is Phase.ATTACK and state.hands[0] == (0, 1, 2, 3)


def test_traded_cards_go_to_the_discard_pile() -> None:
    """Traded cards leave the hand and lie face up on the discard pile."""
    state = hand_made(3, owners={"Japan": 1, "Siam": 2}, phase=Phase.REINFORCE, pending=3,
                      hands={0: (0, 1, 2, 30)}, discard=(40,), bonus_used=True)
    deck_before = state.deck
    state, _ = act(state, 0, TradeCards(MIXED_SET))
    assert state.hands[0] == (30,)
    assert sorted(state.discard) == [0, 1, 2, 40]
    assert state.deck == deck_before
    assert sorted(RULES.view(state, 1).discard) == [0, 1, 2, 40]


def test_empty_deck_is_reshuffled_from_the_discards() -> None:
    """Drawing from an empty pile reshuffles the discards first and logs a DeckShuffled."""
    state = hand_made(3, owners={"Japan": 1, "Siam": 2}, phase=Phase.FORTIFY, conquered=True,
                      deck=(), discard=(5, 9, 17, 42))
    state, events = act(state, 0, EndTurn())
    assert of_type(events, DeckShuffled) == [DeckShuffled(4)]
    [drawn] = of_type(events, CardDrawn)
    assert drawn.card in (5, 9, 17, 42) and state.hands[0] == (drawn.card,)
    assert state.discard == ()
    assert sorted((*state.deck, drawn.card)) == [5, 9, 17, 42]
    order = [type(e) for e in events]
    assert order.index(DeckShuffled) < order.index(CardDrawn) < order.index(TurnEnded)


def test_one_card_per_turn_however_many_conquests() -> None:
    """Conquering two territories in a turn still draws exactly one card."""
    state = hand_made(
        3, owners={"Iceland": 1, "Scandinavia": 1, "Quebec": 2, "Japan": 2},
        armies={"Greenland": 6}, auto_defend_max_dice=True,
    )
    top = state.deck[0]
    state = rigged(state, 6, 1)
    state, _ = act(state, 0, Attack(t("Greenland"), t("Iceland"), 1))
    state, _ = act(state, 0, MoveIn(1))
    state = rigged(state, 6, 1)
    state, events = act(state, 0, Attack(t("Greenland"), t("Quebec"), 1))
    assert of_type(events, TerritoryConquered)
    state, _ = act(state, 0, MoveIn(1))
    state, _ = act(state, 0, EndAttack())
    state, events = act(state, 0, EndTurn())
    assert of_type(events, CardDrawn) == [CardDrawn(0, top)]
    assert state.hands[0] == (top,)


def test_no_card_without_a_conquest() -> None:
    """A turn with no conquest (even with battles fought) draws no card."""
    state = hand_made(3, owners={"Iceland": 1, "Japan": 2}, armies={"Greenland": 6,
                      "Iceland": 5}, auto_defend_max_dice=True)
    deck = state.deck
    state = rigged(state, 6, 6, 6, 1, 1)
    state, events = act(state, 0, Attack(t("Greenland"), t("Iceland"), 3))
    assert of_type(events, BattleResolved)[0].defender_losses == 2
    state, _ = act(state, 0, EndAttack())
    state, events = act(state, 0, EndTurn())
    assert not of_type(events, CardDrawn)
    assert state.hands[0] == () and state.deck == deck


# ---- attack -------------------------------------------------------------------------------


def attack_board(**changes: Any) -> ClassicState:
    """Seat 0 in its attack phase around Alaska; seats 1 and 2 hold a few territories."""
    defaults: dict[str, Any] = {
        "owners": {"Kamchatka": 1, "Japan": 1, "Greenland": 2, "Siam": 2},
        "armies": {"Alaska": 3, "Northwest Territory": 1, "Kamchatka": 3},
    }
    defaults.update(changes)
    return hand_made(3, **defaults)


def test_attack_needs_an_adjacent_enemy_territory_and_two_armies() -> None:
    """Attacks go from an own territory with 2+ armies to an adjacent enemy territory."""
    state = attack_board()
    assert refused(state, 0, Attack(t("Alaska"), t("Japan"), 1)) is Reason.NOT_ADJACENT
    assert refused(state, 0, Attack(t("Alaska"), t("Alberta"), 1)) is Reason.OWN_TERRITORY
    assert (
        refused(state, 0, Attack(t("Northwest Territory"), t("Greenland"), 1))
        is Reason.NOT_ENOUGH_ARMIES
    )
    assert refused(state, 0, Attack(t("Kamchatka"), t("Alaska"), 1)) is Reason.NOT_OWNER
    assert refused(state, 0, Attack(t("Alaska"), t("Kamchatka"), 0)) is Reason.TOO_FEW_DICE


@pytest.mark.parametrize(("armies", "top"), [(2, 1), (3, 2), (4, 3), (10, 3)])
def test_attacker_rolls_at_most_three_dice_and_one_fewer_than_armies(armies: int, top: int) -> None:
    """The attacker rolls 1..min(3, armies - 1) dice."""
    state = attack_board(armies={"Alaska": armies})
    legal = {
        e.action.dice for e in RULES.legal_actions(state, 0)
        if isinstance(e.action, Attack) and e.action.to_territory == t("Kamchatka")
        and e.action.from_territory == t("Alaska")
    }
    assert legal == set(range(1, top + 1))
    assert refused(state, 0, Attack(t("Alaska"), t("Kamchatka"), top + 1)) is Reason.TOO_MANY_DICE
    state, _ = act(state, 0, Attack(t("Alaska"), t("Kamchatka"), top))
    assert state.phase is Phase.DEFEND


@pytest.mark.parametrize(("defenders", "top"), [(1, 1), (2, 2), (5, 2)])
def test_defender_chooses_one_to_min_two_armies_dice(defenders: int, top: int) -> None:
    """The defender (not the attacker) rolls 1..min(2, armies) dice in the DEFEND phase."""
    state = attack_board(armies={"Alaska": 4, "Kamchatka": defenders})
    state, _ = act(state, 0, Attack(t("Alaska"), t("Kamchatka"), 3))
    assert (state.phase, RULES.decision(state).seats) == (Phase.DEFEND, (1,))
    assert refused(state, 0, Defend(1)) is Reason.NOT_YOUR_TURN
    assert refused(state, 2, Defend(1)) is Reason.NOT_YOUR_TURN
    legal = [e.action for e in RULES.legal_actions(state, 1)]
    assert legal == [Defend(d) for d in range(1, top + 1)]
    assert refused(state, 1, Defend(top + 1)) is Reason.TOO_MANY_DICE
    state, events = act(state, 1, Defend(top))
    [battle] = of_type(events, BattleResolved)
    assert len(battle.attack_dice) == 3 and len(battle.defence_dice) == top


@pytest.mark.parametrize(
    ("dice", "attack_count", "defend_count", "losses"),
    [
        ((4, 4), 1, 1, (1, 0)),  # one tie: the attacker loses
        ((6, 3, 6, 2), 2, 2, (1, 1)),  # 6 v 6 tie to the defender, 3 v 2 to the attacker
        ((5, 5, 5, 5, 5), 3, 2, (2, 0)),  # every pair tied: the defender wins both
        ((2, 6, 1, 6, 1), 3, 2, (1, 1)),  # sorted 6,2 v 6,1: tie lost, 2 v 1 won
    ],
)
def test_ties_go_to_the_defender(
    dice: tuple[int, ...], attack_count: int, defend_count: int, losses: tuple[int, int]
) -> None:
    """Dice are compared high to low in pairs; a tied pair costs the attacker an army."""
    state = attack_board(armies={"Alaska": 5, "Kamchatka": 5})
    state, _ = act(state, 0, Attack(t("Alaska"), t("Kamchatka"), attack_count))
    state = rigged(state, *dice)
    state, events = act(state, 1, Defend(defend_count))
    [battle] = of_type(events, BattleResolved)
    assert battle.attack_dice == tuple(sorted(dice[:attack_count], reverse=True))
    assert battle.defence_dice == tuple(sorted(dice[attack_count:], reverse=True))
    assert (battle.attacker_losses, battle.defender_losses) == losses
    assert state.armies[t("Alaska")] == 5 - losses[0]
    assert state.armies[t("Kamchatka")] == 5 - losses[1]
    assert state.phase is Phase.ATTACK and state.owner[t("Kamchatka")] == 1


@pytest.mark.parametrize(("defenders", "dice"), [(1, 1), (2, 2), (7, 2)])
def test_auto_defend_rolls_the_most_dice_at_once(defenders: int, dice: int) -> None:
    """With auto_defend_max_dice the defender rolls min(2, armies) without being asked."""
    state = attack_board(armies={"Alaska": 4, "Kamchatka": defenders}, auto_defend_max_dice=True)
    state, events = act(state, 0, Attack(t("Alaska"), t("Kamchatka"), 3))
    [battle] = of_type(events, BattleResolved)
    assert len(battle.defence_dice) == dice
    assert state.phase in (Phase.ATTACK, Phase.MOVE_IN)
    assert RULES.decision(state).seats == (0,)


@pytest.mark.parametrize(("given", "timed", "settled"), [
    (None, True, True), (None, False, False), (False, True, False), (True, False, True),
])
def test_auto_defend_left_unset_is_decided_by_the_clock(
    given: bool | None, timed: bool, settled: bool
) -> None:
    """The rules digest: auto-defend defaults on for timed games; an explicit choice stands."""
    options = ClassicOptions(players=3, auto_defend_max_dice=given)
    assert RULES.settle_options(options, timed=timed).auto_defend_max_dice is settled


@pytest.mark.parametrize("defenders", [1, 2, 5])
def test_the_bot_asked_to_defend_rolls_the_most_dice(defenders: int) -> None:
    """Auto-defend "for bots": whatever its entropy, a bot defender rolls min(2, armies)."""
    state = attack_board(armies={"Alaska": 4, "Kamchatka": defenders})
    state, _ = act(state, 0, Attack(t("Alaska"), t("Kamchatka"), 3))
    assert state.phase is Phase.DEFEND
    picks = {RULES.bot_action(state, 1, entropy) for entropy in range(40)}
    assert picks == {Defend(min(2, defenders))}


def test_a_game_created_without_a_clock_lets_the_defender_choose() -> None:
    """create() settles what is left as for an untimed game, so a state holds the decision."""
    state, _ = RULES.create(ClassicOptions(players=3), 1)
    assert state.options.auto_defend_max_dice is False


# ---- conquest, elimination, winning -------------------------------------------------------


def conquer_kamchatka(state: ClassicState, dice: int = 3) -> tuple[ClassicState, list[Event]]:
    """Seat 0 attacks Kamchatka (1 army) from Alaska with `dice` dice and wins."""
    state, _ = act(state, 0, Attack(t("Alaska"), t("Kamchatka"), dice))
    state = rigged(state, *([6] * dice), 1)
    defender = RULES.decision(state).seats[0]
    return act(state, defender, Defend(1))


def test_move_in_at_least_the_dice_rolled_and_leave_one_behind() -> None:
    """After a conquest the attacker moves in dice..armies-1 armies."""
    state = attack_board(armies={"Alaska": 8, "Kamchatka": 1})
    state, events = conquer_kamchatka(state, 3)
    assert of_type(events, TerritoryConquered) == [TerritoryConquered(0, t("Kamchatka"), 1)]
    assert (state.phase, state.owner[t("Kamchatka")]) == (Phase.MOVE_IN, 0)
    assert state.armies[t("Kamchatka")] == 0
    assert refused(state, 0, MoveIn(2)) is Reason.TOO_FEW_ARMIES
    assert refused(state, 0, MoveIn(8)) is Reason.TOO_MANY_ARMIES
    assert refused(state, 0, Attack(t("Alaska"), t("Alberta"), 1)) is Reason.WRONG_PHASE
    state, _ = act(state, 0, MoveIn(7))
    assert (state.armies[t("Alaska")], state.armies[t("Kamchatka")]) == (1, 7)
    assert state.phase is Phase.ATTACK
    state, _ = act(state, 0, Attack(t("Kamchatka"), t("Japan"), 3))  # attack on from there
    assert state.phase is Phase.DEFEND


def test_elimination_hands_over_all_cards() -> None:
    """Taking a player's last territory eliminates them and gives the attacker their cards."""
    state = attack_board(
        owners={"Kamchatka": 1, "Greenland": 2}, armies={"Alaska": 4, "Kamchatka": 1},
        hands={0: (30,), 1: (10, 11)},
    )
    state, events = conquer_kamchatka(state, 3)
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(1, 0, (10, 11))]
    assert state.hands[0] == (10, 11, 30) and state.hands[1] == ()
    assert state.eliminated == (False, True, False)
    state, _ = act(state, 0, MoveIn(3))
    assert state.phase is Phase.ATTACK  # 3 cards: no forced trade
    state, _ = act(state, 0, EndAttack())
    state, events = act(state, 0, EndTurn())
    assert of_type(events, TurnStarted)[0].seat == 2  # the eliminated seat 1 is skipped


def test_elimination_to_six_cards_forces_trading_down_before_attacking_again() -> None:
    """With 6+ cards after an elimination the attacker trades to 4 or fewer and places first."""
    victim_cards = (10, 11, 12, 13, 14)  # Peru cav, Brazil art, Argentina inf, Iceland, Scandinavia
    state = attack_board(
        owners={"Kamchatka": 1, "Greenland": 2, "Japan": 2},
        armies={"Alaska": 4, "Kamchatka": 1},
        hands={0: (1, 4, 7), 1: victim_cards},  # 8 cards after the takeover
        bonus_used=True,
    )
    state, events = conquer_kamchatka(state, 3)
    assert of_type(events, PlayerEliminated)[0].cards_taken == victim_cards
    assert len(state.hands[0]) == 8
    state, _ = act(state, 0, MoveIn(3))
    assert (state.phase, state.resume_attack, state.pending) == (Phase.REINFORCE, True, 0)
    assert refused(state, 0, Attack(t("Kamchatka"), t("Japan"), 1)) is Reason.WRONG_PHASE
    assert refused(state, 0, PlaceArmies(t("Alaska"), 1)) is Reason.MUST_TRADE
    assert refused(state, 0, EndAttack()) is Reason.WRONG_PHASE
    state, events = act(state, 0, TradeCards(CAVALRY_SET))
    assert of_type(events, CardsTraded)[0].armies == 4
    assert len(state.hands[0]) == 5 and state.phase is Phase.REINFORCE
    assert refused(state, 0, PlaceArmies(t("Alaska"), 1)) is Reason.MUST_TRADE  # still 5 cards
    state, events = act(state, 0, TradeCards((10, 11, 12)))  # one of each
    assert of_type(events, CardsTraded)[0].armies == 6
    assert len(state.hands[0]) == 2 and state.pending == 10
    state, _ = act(state, 0, PlaceArmies(t("Kamchatka"), 4))
    assert state.phase is Phase.REINFORCE
    state, _ = act(state, 0, PlaceArmies(t("Alaska"), 6))
    assert (state.phase, state.resume_attack) == (Phase.ATTACK, False)
    state, _ = act(state, 0, Attack(t("Kamchatka"), t("Japan"), 3))
    assert state.phase is Phase.DEFEND


def test_after_elimination_trade_only_down_to_four() -> None:
    """Once the hand is down to 4 after an elimination, no further trade is allowed that turn."""
    state = attack_board(
        owners={"Kamchatka": 1, "Greenland": 2}, armies={"Alaska": 4, "Kamchatka": 1},
        hands={0: (15, 18, 21), 1: (24, 27, 30, 33)}, bonus_used=True,  # 7 infantry cards
    )
    state, _ = conquer_kamchatka(state, 3)
    state, _ = act(state, 0, MoveIn(3))
    state, _ = act(state, 0, TradeCards((15, 18, 21)))
    assert len(state.hands[0]) == 4 and state.phase is Phase.REINFORCE
    assert refused(state, 0, TradeCards((24, 27, 30))) is Reason.TRADE_NOT_ALLOWED
    state, _ = act(state, 0, PlaceArmies(t("Alaska"), state.pending))
    assert state.phase is Phase.ATTACK


def test_holding_all_42_territories_wins_and_ends_the_game() -> None:
    """Taking the last enemy territory wins: GameEnded, no legal actions, GAME_OVER after."""
    state = attack_board(owners={"Kamchatka": 2}, armies={"Alaska": 4, "Kamchatka": 1})
    assert state.eliminated == (False, True, False)
    state, events = conquer_kamchatka(state, 3)
    [ended] = of_type(events, GameEnded)
    assert (ended.winner, ended.reason, ended.ranking[0]) == (0, "conquest", 0)
    assert set(state.owner) == {0}
    assert state.phase is Phase.FINISHED
    assert RULES.decision(state).seats == ()
    assert all(RULES.legal_actions(state, seat) == [] for seat in range(3))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winner == 0
    with pytest.raises(IllegalAction) as caught:
        RULES.apply(state, 0, EndAttack())
    assert caught.value.reason is Reason.GAME_OVER


# ---- fortify ------------------------------------------------------------------------------


def fortify_board(**changes: Any) -> ClassicState:
    """Seat 0 holds the Americas except Venezuela (seat 1); Alaska has 5 armies."""
    owners = {name: 1 for name in CLASSIC_BOARD.names[t("Iceland"):]}
    owners["Venezuela"] = 1
    owners["Japan"] = 2
    return hand_made(
        3, owners=owners, armies={"Alaska": 5, "Argentina": 3}, phase=Phase.FORTIFY, **changes
    )


def test_fortify_through_a_chain_of_own_territories() -> None:
    """By default armies move along any chain of own territories, then the turn ends."""
    state = fortify_board()
    state, events = act(state, 0, Fortify(t("Alaska"), t("Central America"), 4))
    assert (state.armies[t("Alaska")], state.armies[t("Central America")]) == (1, 5)
    assert of_type(events, TurnEnded) == [TurnEnded(0)]
    assert (state.current, state.phase) == (1, Phase.REINFORCE)


def test_fortify_cannot_cross_enemy_territory() -> None:
    """Argentina is cut off from Central America by an enemy Venezuela."""
    state = fortify_board()
    move = Fortify(t("Argentina"), t("Central America"), 1)
    assert refused(state, 0, move) is Reason.NOT_CONNECTED
    assert refused(state, 0, Fortify(t("Alaska"), t("Venezuela"), 1)) is Reason.NOT_OWNER


def test_adjacent_fortify_option_needs_a_shared_border() -> None:
    """With fortify = adjacent, only a bordering own territory can receive armies."""
    state = fortify_board(fortify=FortifyMode.ADJACENT)
    far = Fortify(t("Alaska"), t("Central America"), 1)
    assert refused(state, 0, far) is Reason.NOT_ADJACENT
    state, _ = act(state, 0, Fortify(t("Alaska"), t("Alberta"), 4))
    assert state.armies[t("Alberta")] == 5


def test_fortify_leaves_at_least_one_army_behind() -> None:
    """A fortify move must leave one army and move at least one."""
    state = fortify_board()
    assert refused(state, 0, Fortify(t("Alaska"), t("Alberta"), 5)) is Reason.TOO_MANY_ARMIES
    assert refused(state, 0, Fortify(t("Alaska"), t("Alberta"), 0)) is Reason.TOO_FEW_ARMIES
    assert refused(state, 0, Fortify(t("Alaska"), t("Alaska"), 1)) is Reason.SAME_TERRITORY


def test_fortify_only_once_per_turn() -> None:
    """After one fortify the turn is over; a second one is refused."""
    state = fortify_board()
    state, _ = act(state, 0, Fortify(t("Alaska"), t("Alberta"), 2))
    assert refused(state, 0, Fortify(t("Alaska"), t("Alberta"), 1)) is Reason.NOT_YOUR_TURN


def test_end_turn_skips_fortify() -> None:
    """EndTurn in the fortify phase moves nothing and passes play clockwise."""
    state = fortify_board()
    before = state.armies
    state, events = act(state, 0, EndTurn())
    assert state.armies == before
    assert of_type(events, TurnStarted)[0].seat == 1


# ---- turn order, phases, the turn cap ------------------------------------------------------


def test_wrong_seat_and_wrong_phase_are_refused() -> None:
    """Acting out of turn is NOT_YOUR_TURN; an action from another phase is WRONG_PHASE."""
    state = hand_made(3, owners={"Japan": 1, "Siam": 2}, phase=Phase.REINFORCE, pending=3)
    assert refused(state, 1, PlaceArmies(t("Japan"), 1)) is Reason.NOT_YOUR_TURN
    assert refused(state, 0, Attack(t("Mongolia"), t("Japan"), 1)) is Reason.WRONG_PHASE
    assert refused(state, 0, EndTurn()) is Reason.WRONG_PHASE
    attack = dataclasses.replace(state, phase=Phase.ATTACK, pending=0)
    assert refused(attack, 0, EndTurn()) is Reason.WRONG_PHASE
    assert refused(attack, 0, PlaceArmies(t("Alaska"), 1)) is Reason.WRONG_PHASE
    assert refused(attack, 2, EndAttack()) is Reason.NOT_YOUR_TURN


def test_turn_cap_ends_in_a_draw_ranked_by_territories_then_armies() -> None:
    """At max_turns the game is a draw (winner -1) ranked by territories, then armies."""
    owners = dict.fromkeys(CLASSIC_BOARD.names[:16], 2)
    owners |= dict.fromkeys(CLASSIC_BOARD.names[16:29], 1)
    # Seats 0 and 1 hold 13 territories each; seat 1 has more armies.
    state = hand_made(
        3, owners=owners, rest=0, armies={"Afghanistan": 3, "Ural": 5}, phase=Phase.FORTIFY,
        current=0, turn=5, max_turns=5,
    )
    assert state.owner[t("Ural")] == 1 and state.owner[t("Afghanistan")] == 0
    state, events = act(state, 0, EndTurn())
    [ended] = of_type(events, GameEnded)
    assert (ended.winner, ended.reason, ended.ranking) == (-1, "turn_cap", (2, 1, 0))
    assert state.phase is Phase.FINISHED and not of_type(events, TurnStarted)
    assert RULES.outcome(state) is not None
