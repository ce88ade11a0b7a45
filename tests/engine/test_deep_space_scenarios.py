"""Risk Deep Space rule by rule, from hand-made states (see deep_space_states.py and
docs/rules-deep-space.md)."""

from __future__ import annotations

import dataclasses

import pytest

from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.ruleset import is_legal
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD, NODES
from risk_rules.engine.deep_space.cards import CARD_TYPES, DECK_SIZE
from risk_rules.engine.deep_space.model import (
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
    DeepSpaceOptions,
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
from tests.engine.deep_space_states import (
    RULES,
    act,
    card_of,
    check_conserved,
    hand_made,
    of_type,
    p,
    refused,
    rigged,
)

RED, BLUE, GREEN, YELLOW = (p(f"{c} Station") for c in ("Red", "Blue", "Green", "Yellow"))
GEM, ORE = Resource.GEM, Resource.ORE


def dog_card(copy: int = 0) -> int:
    return card_of(CardKind.SPACE_DOG, copy)


# ---- the board --------------------------------------------------------------------------------


def test_board_data_matches_the_rules_reference() -> None:
    """20 planets and 4 stations; the 36 links of the reference board; 8 warp planets."""
    board = DEEP_SPACE_BOARD
    assert (board.planets, NODES) == (20, 24)
    assert board.graph.border_count() == 36
    assert sorted(board.names[w] for w in board.warp) == sorted(
        ["Mimas", "Nyx", "Orion", "Pan", "Rhea", "Selene", "Titan", "Vesta"]
    )
    assert sorted(board.names[n] for n in board.links[RED]) == ["Ares", "Eris"]
    assert sorted(board.names[n] for n in board.links[p("Icarus")]) == ["Ares", "Eris"]
    assert sorted(board.names[n] for n in board.links[p("Rhea")]) == ["Boreas", "Eris"]
    assert sorted(board.names[n] for n in board.links[p("Mimas")]) == [
        "Ares", "Eris", "Nyx", "Pan"
    ]
    assert DECK_SIZE == 36


# ---- setup ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_gives_three_recruits_two_gems_and_two_face_up_cards(players: int) -> None:
    """Each seat starts with 3 recruits on its home station, 2 gems and 2 cards; high roll first."""
    state, events = RULES.create(DeepSpaceOptions(players=players), seed=3)
    check_conserved(state)
    for seat in range(players):
        station = state.stations[seat]
        assert state.recruits[seat][station] == 3 and sum(state.recruits[seat]) == 3
        assert state.supply[seat] == 29 and state.gems[seat] == 2 and state.ore[seat] == 0
        assert len(state.hands[seat]) == 2
        assert RULES.view(state, None).hands[seat] == state.hands[seat], "hands are face up"
    assert state.bank_gems == 31 - 2 * players and state.bank_ore == 31
    assert len(state.deck) == 36 - 2 * players
    assert of_type(events, PlayerSetUp)[0] == PlayerSetUp(0, state.stations[0], 3, 2)
    assert len(of_type(events, CardDrawn)) == 2 * players
    final_roll = of_type(events, OrderRolled)[-1]
    assert final_roll.winner == state.current == state.first_seat
    assert final_roll.rolls[final_roll.seats.index(final_roll.winner)] == max(final_roll.rolls)
    assert state.phase is Phase.START and state.turn == 1 and state.moves_left == 2


def test_tied_high_rollers_roll_again() -> None:
    """In the roll for who goes first, only the tied high rollers roll again."""
    for seed in range(200):
        _, events = RULES.create(DeepSpaceOptions(players=4), seed=seed)
        rounds = of_type(events, OrderRolled)
        if len(rounds) > 1:
            break
    else:
        pytest.fail("no seed below 200 ties the first roll")
    high = max(rounds[0].rolls)
    assert rounds[0].winner == -1
    assert rounds[1].seats == tuple(
        s for s, r in zip(rounds[0].seats, rounds[0].rolls, strict=True) if r == high
    )


def test_two_players_use_red_and_green_and_cover_two_corner_planets() -> None:
    """With 2 players: stations 0 and 2; Juno and Luna are covered; others' stations unused."""
    state = hand_made(2, recruits={0: {"Boreas": 3, "Helios": 3}}, gems={0: 3})
    assert state.stations == (RED, GREEN)
    for covered in ("Juno", "Luna"):
        assert refused(state, 0, Move(p("Boreas") if covered == "Juno" else p("Helios"),
                                      p(covered), 1)) is Reason.NO_SUCH_PLANET
    assert refused(state, 0, Move(BLUE, p("Boreas"), 1)) is Reason.NO_SUCH_PLANET
    legal = RULES.legal_actions(state, 0)
    named = {getattr(e.action, "destination", -1) for e in legal}
    assert p("Juno") not in named and p("Luna") not in named


def test_three_players_remove_the_unused_station() -> None:
    """With 3 players Red, Blue and Green play; Yellow Station is out of play."""
    state = hand_made(3, recruits={0: {"Dione": 2}})
    assert state.stations == (RED, BLUE, GREEN)
    assert refused(state, 0, Move(p("Dione"), YELLOW, 1)) is Reason.NO_SUCH_PLANET
    assert refused(state, 0, Move(p("Dione"), GREEN, 1)) is Reason.NOT_ADJACENT


# ---- start of the turn -----------------------------------------------------------------------


def test_start_of_turn_draws_up_to_two_cards() -> None:
    """A seat beginning its turn with 0 or 1 cards draws until it holds 2."""
    state = hand_made(3, hands={0: [card_of(CardKind.HYPERJUMP)], 1: []}, current=0)
    after, events = act(state, 0, EndTurn())
    assert after.current == 1 and after.phase is Phase.START
    assert len(after.hands[1]) == 2
    started = events.index(TurnStarted(1, 6))
    assert [e.seat for e in of_type(events[started:], CardDrawn)] == [1, 1]


def test_two_cards_trade_for_a_recruit_at_the_start_only() -> None:
    """At the start two cards buy one recruit on the home station; after mining, no trade."""
    hand = (card_of(CardKind.SABOTAGE), card_of(CardKind.BATTLE_CRY))
    state = hand_made(3, recruits={0: {"Ares": 2}}, hands={0: hand}, phase=Phase.START)
    after, events = act(state, 0, TradeCards(tuple(sorted(hand))))
    assert of_type(events, CardsTraded) == [CardsTraded(0, tuple(sorted(hand)), 1)]
    assert after.recruits[0][RED] == 1 and after.hands[0] == ()
    assert set(hand) <= set(after.discard)
    assert after.phase is Phase.START, "trading does not end the mining window"
    after, _ = act(after, 0, Mine(p("Ares"), ORE))
    mined = dataclasses.replace(after, hands=state.hands, discard=())
    assert refused(mined, 0, TradeCards(tuple(sorted(hand)))) is Reason.TRADE_NOT_ALLOWED
    assert refused(state, 0, TradeCards(hand[:1])) is Reason.INVALID_SET
    assert refused(state, 0, TradeCards((0, 1))) is Reason.CARD_NOT_IN_HAND
    empty = hand_made(3, recruits={0: {"Ares": 32}}, hands={0: hand}, phase=Phase.START)
    assert refused(empty, 0, TradeCards(tuple(sorted(hand)))) is Reason.SUPPLY_EMPTY


# ---- mining ----------------------------------------------------------------------------------


def test_mining_needs_two_recruits_and_comes_before_any_other_action() -> None:
    """Mine planets with 2+ own recruits, one resource each, only before any other action."""
    state = hand_made(3, recruits={0: {"Ares": 2, "Eris": 1, "Mimas": 3, RED: 1}},
                      gems={0: 1}, phase=Phase.START)
    assert refused(state, 0, Mine(p("Eris"), GEM)) is Reason.NOT_ENOUGH_RECRUITS
    assert refused(state, 0, Mine(RED, GEM)) is Reason.HOME_STATION
    after, events = act(state, 0, Mine(p("Ares"), GEM))
    assert of_type(events, Mined) == [Mined(0, p("Ares"), GEM)]
    assert after.gems[0] == 2 and after.phase is Phase.MINING
    assert refused(after, 0, Mine(p("Ares"), ORE)) is Reason.ALREADY_MINED
    after, _ = act(after, 0, Mine(p("Mimas"), ORE))
    assert after.ore[0] == 1
    after, _ = act(after, 0, Recruit(1))
    assert after.phase is Phase.MAIN
    assert refused(after, 0, Mine(p("Mimas"), GEM)) is Reason.MINING_OVER
    moved, _ = act(state, 0, Move(p("Eris"), p("Rhea"), 1))
    assert refused(moved, 0, Mine(p("Ares"), GEM)) is Reason.MINING_OVER


def test_mining_needs_the_chosen_resource_in_the_bank() -> None:
    """When the bank has no ore left, only gems can be mined."""
    state = hand_made(3, recruits={0: {"Ares": 2}}, ore={1: 31}, phase=Phase.START)
    assert refused(state, 0, Mine(p("Ares"), ORE)) is Reason.BANK_EMPTY
    act(state, 0, Mine(p("Ares"), GEM))


# ---- recruiting and moving -------------------------------------------------------------------


def test_recruit_costs_one_gem_each_and_starts_at_home() -> None:
    """Each recruit costs 1 gem; they go on the home station; no more than gems allow."""
    state = hand_made(3, gems={0: 3})
    entry = next(e for e in RULES.legal_actions(state, 0) if isinstance(e.action, Recruit))
    assert (entry.action, entry.max_count) == (Recruit(1), 3)
    assert refused(state, 0, Recruit(4)) is Reason.NOT_ENOUGH_GEMS
    assert refused(state, 0, Recruit(0)) is Reason.TOO_FEW_RECRUITS
    after, events = act(state, 0, Recruit(3))
    assert of_type(events, Recruited) == [Recruited(0, 3)]
    assert after.gems[0] == 0 and after.bank_gems == state.bank_gems + 3
    assert after.recruits[0][RED] == 3 and after.supply[0] == state.supply[0] - 3


def test_at_most_two_moves_a_turn() -> None:
    """The third move of a turn is refused; moves may be interleaved with other actions."""
    state = hand_made(3, recruits={0: {RED: 3}}, gems={0: 1})
    state, _ = act(state, 0, Move(RED, p("Ares"), 3))
    state, _ = act(state, 0, Recruit(1))
    state, _ = act(state, 0, Move(p("Ares"), p("Mimas"), 3))
    assert state.moves_left == 0
    assert refused(state, 0, Move(p("Mimas"), p("Nyx"), 3)) is Reason.NO_MOVES_LEFT
    assert not any(isinstance(e.action, Move) for e in RULES.legal_actions(state, 0))


def test_a_crew_moves_together() -> None:
    """Any number of recruits from one place move as one crew, as one move."""
    state = hand_made(3, recruits={0: {RED: 5}})
    entry = next(e for e in RULES.legal_actions(state, 0) if e.action == Move(RED, p("Ares"), 1))
    assert entry.max_count == 5
    after, events = act(state, 0, Move(RED, p("Ares"), 4))
    assert of_type(events, Moved) == [Moved(0, RED, p("Ares"), 4, 0, False)]
    assert after.recruits[0][p("Ares")] == 4 and after.recruits[0][RED] == 1
    assert after.moves_left == 1
    assert refused(state, 0, Move(RED, p("Ares"), 6)) is Reason.TOO_MANY_RECRUITS
    assert refused(state, 0, Move(RED, p("Ares"), 0)) is Reason.TOO_FEW_RECRUITS
    assert refused(state, 0, Move(RED, p("Mimas"), 1)) is Reason.NOT_ADJACENT


def test_no_entry_into_any_home_station() -> None:
    """Recruits leave their home station but never enter one, their own included."""
    state = hand_made(4, recruits={0: {"Ares": 2, "Boreas": 2}})
    assert refused(state, 0, Move(p("Ares"), RED, 1)) is Reason.HOME_STATION
    assert refused(state, 0, Move(p("Boreas"), BLUE, 1)) is Reason.HOME_STATION
    assert refused(state, 0, Move(BLUE, p("Boreas"), 1)) is Reason.TOO_MANY_RECRUITS


def test_warp_costs_a_gem_and_counts_as_one_move() -> None:
    """Through the gem warp between any two warp planets: 1 gem, one move."""
    state = hand_made(3, recruits={0: {"Mimas": 3, "Ares": 1}}, gems={0: 1})
    after, events = act(state, 0, Warp(p("Mimas"), p("Titan"), 3))
    assert of_type(events, Moved) == [Moved(0, p("Mimas"), p("Titan"), 3, 0, True)]
    assert after.gems[0] == 0 and after.bank_gems == state.bank_gems + 1
    assert after.moves_left == 1
    assert refused(after, 0, Warp(p("Titan"), p("Rhea"), 3)) is Reason.NOT_ENOUGH_GEMS
    assert refused(state, 0, Warp(p("Ares"), p("Titan"), 1)) is Reason.NOT_WARP_PLANET
    assert refused(state, 0, Warp(p("Mimas"), p("Ceres"), 1)) is Reason.NOT_WARP_PLANET
    assert refused(state, 0, Warp(p("Mimas"), p("Mimas"), 1)) is Reason.SAME_PLANET
    poor = dataclasses.replace(state, moves_left=0)
    assert refused(poor, 0, Warp(p("Mimas"), p("Titan"), 1)) is Reason.NO_MOVES_LEFT


# ---- battles ---------------------------------------------------------------------------------


def test_battle_runs_until_one_side_is_gone_and_ties_go_to_the_defender() -> None:
    """Moving onto an opponent starts a battle of single dice until one side is gone."""
    state = hand_made(3, recruits={0: {"Ares": 3}, 1: {"Mimas": 2}})
    state = rigged(state, 6, 1, 2, 2, 5, 3)
    after, events = act(state, 0, Move(p("Ares"), p("Mimas"), 3))
    rolls = of_type(events, BattleRolled)
    assert [(r.attacker_roll, r.defender_roll, r.loser) for r in rolls] == [
        (6, 1, 1), (2, 2, 0), (5, 3, 1)
    ]
    assert of_type(events, BattleEnded) == [BattleEnded(p("Mimas"), 0, 1, 0, 2)]
    assert after.recruits[0][p("Mimas")] == 2 and after.recruits[1][p("Mimas")] == 0
    assert after.supply[1] == state.supply[1] + 2 and after.supply[0] == state.supply[0] + 1


def test_losing_attacker_goes_on_with_its_turn() -> None:
    """The defender wins ties; a beaten attacker keeps playing its turn."""
    state = hand_made(3, recruits={0: {"Ares": 2, RED: 1}, 1: {"Mimas": 1}},
                      bases={1: ["Mimas"]})
    state = rigged(state, 3, 3, 1, 4)
    after, events = act(state, 0, Move(p("Ares"), p("Mimas"), 2))
    assert of_type(events, BattleEnded)[0].winner == 1
    assert after.recruits[0][p("Mimas")] == 0 and after.recruits[1][p("Mimas")] == 1
    assert after.bases[1] == (p("Mimas"),), "bases stay whoever wins"
    assert RULES.decision(after).seats == (0,) and after.moves_left == 1
    act(after, 0, Move(RED, p("Ares"), 1))


# ---- bases, replenishing, the hand -----------------------------------------------------------


def test_base_needs_three_recruits_and_three_ore() -> None:
    """A base takes 3 own recruits on the planet and 3 ore, which go to the bank."""
    state = hand_made(3, recruits={0: {"Ares": 3, "Eris": 2}}, ore={0: 3})
    assert refused(state, 0, BuildBase(p("Eris"))) is Reason.NOT_ENOUGH_RECRUITS
    assert refused(state, 0, BuildBase(RED)) is Reason.HOME_STATION
    poor = hand_made(3, recruits={0: {"Ares": 3}}, ore={0: 2})
    assert refused(poor, 0, BuildBase(p("Ares"))) is Reason.NOT_ENOUGH_ORE
    after, events = act(state, 0, BuildBase(p("Ares")))
    assert of_type(events, BaseBuilt) == [BaseBuilt(0, p("Ares"), 1)]
    assert after.ore[0] == 0 and after.bank_ore == 31
    assert after.recruits[0][p("Ares")] == 3, "the recruits stay"


def test_one_base_per_colour_per_planet_but_colours_share() -> None:
    """A colour builds one base per planet; another colour may build on the same planet."""
    state = hand_made(3, recruits={0: {"Ares": 3}}, ore={0: 6},
                      bases={0: ["Ares"], 1: ["Ares"]})
    assert refused(state, 0, BuildBase(p("Ares"))) is Reason.BASE_EXISTS
    other = hand_made(3, recruits={0: {"Ares": 3}}, ore={0: 3}, bases={1: ["Ares"]})
    after, _ = act(other, 0, BuildBase(p("Ares")))
    assert after.bases[0] == after.bases[1] == (p("Ares"),)


def test_bases_are_never_removed() -> None:
    """A base stays when its colour is beaten on the planet, and when its owner resigns."""
    state = hand_made(3, recruits={0: {"Ares": 4}, 1: {"Mimas": 1}}, bases={1: ["Mimas"]})
    after, _ = act(rigged(state, 6, 1), 0, Move(p("Ares"), p("Mimas"), 4))
    assert after.recruits[1][p("Mimas")] == 0 and after.bases[1] == (p("Mimas"),)
    after, _ = RULES.resign(after, 1)
    assert after.bases[1] == (p("Mimas"),)


def test_replenish_gives_one_plus_one_per_base() -> None:
    """At the end of the turn: 1 recruit plus 1 per own base onto the home station."""
    state = hand_made(3, recruits={0: {"Ares": 3}}, bases={0: ["Ares", "Eris"]},
                      hands={0: [card_of(CardKind.HYPERJUMP), card_of(CardKind.GEM_RUSH)]})
    after, events = act(state, 0, EndTurn())
    assert of_type(events, Replenished) == [Replenished(0, 3)]
    assert after.recruits[0][RED] == 3 and after.supply[0] == state.supply[0] - 3
    assert of_type(events, TurnEnded) == [TurnEnded(0)]


def test_end_of_turn_discard_and_draw_then_refill_to_two() -> None:
    """The seat may discard one card and draw one; with 0 or 1 cards it draws up to 2."""
    keep, drop = card_of(CardKind.GEM_RUSH), card_of(CardKind.BATTLE_CRY)
    state = hand_made(3, hands={0: [keep, drop]})
    after, events = act(state, 0, EndTurn(drop))
    assert of_type(events, CardDiscarded) == [CardDiscarded(0, drop)]
    assert len(after.hands[0]) == 2 and keep in after.hands[0] and drop in after.discard
    assert refused(state, 0, EndTurn(card_of(CardKind.SABOTAGE))) is Reason.CARD_NOT_IN_HAND
    short = hand_made(3, hands={0: []})
    after, events = act(short, 0, EndTurn())
    assert len(after.hands[0]) == 2
    assert [e.seat for e in of_type(events, CardDrawn)] == [0, 0, 1, 1]


# ---- winning ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "needed"), [(2, 5), (3, 4), (4, 4)])
def test_the_winning_base_ends_the_game(players: int, needed: int) -> None:
    """The 4th base wins with 3 or 4 players, the 5th with 2; the game then has no actions."""
    built = ["Eris", "Mimas", "Rhea", "Nyx"][: needed - 1]
    state = hand_made(players, recruits={0: {"Ares": 3}, 1: {"Boreas": 5}}, ore={0: 3},
                      bases={0: built})
    after, events = act(state, 0, BuildBase(p("Ares")))
    (ended,) = of_type(events, GameEnded)
    assert (ended.winner, ended.reason) == (0, "bases")
    assert ended.ranking[:2] == (0, 1)
    assert RULES.outcome(after) is not None
    assert all(not RULES.legal_actions(after, s) for s in range(players))
    if players == 2:
        fewer = hand_made(2, recruits={0: {"Ares": 3}}, ore={0: 3}, bases={0: built[:3]})
        after, _ = act(fewer, 0, BuildBase(p("Ares")))
        assert RULES.outcome(after) is None, "4 bases do not win a 2-player game"


def test_turn_cap_ends_as_a_ranked_draw() -> None:
    """At max_turns the game is a draw ranked by bases, recruits, gems plus ore, seat."""
    state = hand_made(3, recruits={0: {"Ares": 1}, 1: {"Ares": 0, "Boreas": 4}, 2: {"Ceres": 4}},
                      bases={2: ["Ceres"]}, gems={1: 1}, max_turns=5, turn=5)
    after, events = act(state, 0, EndTurn())
    (ended,) = of_type(events, GameEnded)
    assert (ended.winner, ended.reason) == (-1, "turn_cap")
    assert ended.ranking == (2, 1, 0)
    assert RULES.outcome(after) is not None and after.turn == 5


# ---- finite supplies -------------------------------------------------------------------------


def test_supplies_are_finite() -> None:
    """No recruit past the supply; payouts stop when the bank is empty."""
    state = hand_made(3, recruits={0: {"Ares": 31}}, gems={0: 3, 1: 28},
                      hands={0: [card_of(CardKind.GEM_RUSH), card_of(CardKind.REINFORCEMENTS)]})
    assert state.supply[0] == 1 and state.bank_gems == 0
    entry = next(e for e in RULES.legal_actions(state, 0) if isinstance(e.action, Recruit))
    assert entry.max_count == 1
    assert refused(state, 0, Recruit(2)) is Reason.SUPPLY_EMPTY
    after, events = act(state, 0, PlayCard(card_of(CardKind.GEM_RUSH)))
    assert of_type(events, ResourcesTaken) == [ResourcesTaken(0, GEM, 0)]
    after, events = act(after, 0, PlayCard(card_of(CardKind.REINFORCEMENTS)))
    assert of_type(events, RecruitsPlaced) == [RecruitsPlaced(0, RED, 1)]
    after, events = act(after, 0, EndTurn())
    assert of_type(events, Replenished) == [Replenished(0, 0)]
    assert sum(after.recruits[0]) == 32 and after.supply[0] == 0


# ---- action cards ----------------------------------------------------------------------------


def test_every_card_kind_has_its_count_and_cost() -> None:
    """The deck file gives the counts and costs of the rules reference."""
    table = {t.kind: (t.count, t.cost, t.amount) for t in CARD_TYPES}
    assert table == {
        CardKind.SPACE_DOG: (3, Cost.GEM, 1),
        CardKind.FORCE_FIELD: (2, Cost.GEM, 1),
        CardKind.METEOR_STRIKE: (4, Cost.RECRUIT, 2),
        CardKind.HYPERJUMP: (4, Cost.FREE, 1),
        CardKind.REINFORCEMENTS: (5, Cost.FREE, 2),
        CardKind.GEM_RUSH: (4, Cost.FREE, 2),
        CardKind.ORE_HAUL: (4, Cost.FREE, 2),
        CardKind.BATTLE_CRY: (4, Cost.GEM, 1),
        CardKind.PROSPECTOR: (3, Cost.FREE, 1),
        CardKind.SABOTAGE: (3, Cost.RECRUIT, 2),
    }


def test_space_dog_costs_a_gem_and_takes_the_first_lost_roll() -> None:
    """Space Dog: 1 gem, on a planet with own recruits; the first lost roll removes the dog."""
    card = dog_card()
    state = hand_made(3, recruits={0: {"Ares": 2}, 1: {"Mimas": 3}}, gems={0: 1},
                      hands={0: [card]}, current=0)
    assert refused(state, 0, PlayCard(card, planet=p("Eris"))) is Reason.NOT_ENOUGH_RECRUITS
    assert refused(state, 0, PlayCard(card, planet=RED)) is Reason.HOME_STATION
    poor = dataclasses.replace(state, gems=(0, *state.gems[1:]), bank_gems=state.bank_gems + 1)
    assert refused(poor, 0, PlayCard(card, planet=p("Ares"))) is Reason.NOT_ENOUGH_GEMS
    after, events = act(state, 0, PlayCard(card, planet=p("Ares")))
    assert of_type(events, CardPlayed)[0].gems_paid == 1
    assert of_type(events, DogPlaced) == [DogPlaced(0, p("Ares"))]
    assert after.gems[0] == 0 and after.dogs[0][p("Ares")] == 1
    # Seat 1 attacks Ares: seat 0's first lost roll costs the dog, not a recruit.
    dice = (6, 1, 6, 1, 1, 6, 6, 1)
    attacked = rigged(dataclasses.replace(after, current=1, moves_left=2), *dice)
    done, events = act(attacked, 1, Move(p("Mimas"), p("Ares"), 3))
    rolls = of_type(events, BattleRolled)
    assert [(r.loser, r.dog) for r in rolls] == [(0, True), (0, False), (1, False), (0, False)]
    assert done.dogs[0][p("Ares")] == 0 and done.recruits[0][p("Ares")] == 0
    assert done.recruits[1][p("Ares")] == 2 and done.supply[0] == after.supply[0] + 2


def test_space_dog_moves_with_its_crew() -> None:
    """A dog goes with the whole crew; when only some leave the owner says whether it goes."""
    state = hand_made(3, recruits={0: {"Ares": 3}}, dogs={0: {"Ares": 1}})
    assert refused(state, 0, Move(p("Ares"), p("Mimas"), 3)) is Reason.DOG_MUST_FOLLOW
    assert refused(state, 0, Move(p("Eris"), p("Mimas"), 1, True)) is Reason.TOO_MANY_RECRUITS
    after, events = act(state, 0, Move(p("Ares"), p("Mimas"), 3, True))
    assert of_type(events, Moved)[0].dogs == 1 and after.dogs[0][p("Mimas")] == 1
    stays, _ = act(state, 0, Move(p("Ares"), p("Mimas"), 2))
    assert stays.dogs[0][p("Ares")] == 1 and stays.dogs[0][p("Mimas")] == 0
    goes, _ = act(state, 0, Move(p("Ares"), p("Mimas"), 2, True))
    assert goes.dogs[0][p("Mimas")] == 1
    plain = hand_made(3, recruits={0: {"Ares": 3}})
    assert refused(plain, 0, Move(p("Ares"), p("Mimas"), 2, True)) is Reason.NO_DOG


def test_space_dog_owner_decides_when_a_card_empties_its_planet() -> None:
    """Meteor Strike empties a dog's planet: the owner moves the dog to another planet or not."""
    meteor = card_of(CardKind.METEOR_STRIKE)
    state = hand_made(3, recruits={0: {"Ares": 2}, 1: {"Mimas": 2, "Boreas": 1}},
                      dogs={1: {"Mimas": 1}}, hands={0: [meteor]})
    strike = PlayCard(meteor, planet=p("Mimas"), count=2, pay_from=p("Ares"))
    after, events = act(state, 0, strike)
    assert of_type(events, RecruitsRemoved) == [RecruitsRemoved(1, p("Mimas"), 2)]
    assert after.phase is Phase.DOG and RULES.decision(after).seats == (1,)
    assert not RULES.legal_actions(after, 0)
    assert {e.action for e in RULES.legal_actions(after, 1)} == {
        RelocateDog(p("Boreas")), ReturnDog()
    }
    assert refused(after, 1, RelocateDog(p("Ceres"))) is Reason.NOT_ENOUGH_RECRUITS
    assert refused(after, 1, RelocateDog(p("Mimas"))) is Reason.SAME_PLANET
    assert RULES.default_action(after, 1) == RelocateDog(p("Boreas"))
    moved, events = act(after, 1, RelocateDog(p("Boreas")))
    assert of_type(events, DogRelocated) == [DogRelocated(1, p("Mimas"), p("Boreas"), 1)]
    assert moved.dogs[1][p("Boreas")] == 1 and moved.phase is Phase.MAIN
    assert RULES.decision(moved).seats == (0,)
    back, events = act(after, 1, ReturnDog())
    assert of_type(events, DogReturned) == [DogReturned(1, p("Mimas"), 1)]
    assert sum(map(sum, back.dogs)) == 0
    alone = hand_made(3, recruits={0: {"Ares": 2}, 1: {"Mimas": 1}}, dogs={1: {"Mimas": 1}},
                      hands={0: [meteor]})
    after, events = act(alone, 0, PlayCard(meteor, planet=p("Mimas"), count=1,
                                           pay_from=p("Ares")))
    assert of_type(events, DogReturned) == [DogReturned(1, p("Mimas"), 1)]
    assert after.phase is Phase.MAIN, "no other planet: the dog returns at once"


def test_space_dog_returns_when_its_owner_pays_the_last_recruit() -> None:
    """Paying a card's recruit from the dog's last recruit leaves the dog alone: it returns."""
    sabotage = card_of(CardKind.SABOTAGE)
    state = hand_made(3, recruits={0: {"Ares": 1}}, dogs={0: {"Ares": 1}}, ore={1: 2},
                      hands={0: [sabotage]})
    after, events = act(state, 0, PlayCard(sabotage, target=1, pay_from=p("Ares")))
    assert of_type(events, DogReturned) == [DogReturned(0, p("Ares"), 1)]
    assert after.dogs[0][p("Ares")] == 0


def test_force_field_keeps_opponents_off_until_the_owners_next_turn() -> None:
    """Force Field: 1 gem; no opponent moves or warps onto it until the owner's next turn."""
    card = card_of(CardKind.FORCE_FIELD)
    state = hand_made(3, recruits={0: {"Mimas": 1, "Ares": 1}, 1: {"Nyx": 3, "Rhea": 2}},
                      gems={0: 1, 1: 1}, hands={0: [card]})
    assert refused(state, 0, PlayCard(card, planet=p("Nyx"))) is Reason.NOT_ENOUGH_RECRUITS
    after, events = act(state, 0, PlayCard(card, planet=p("Mimas")))
    assert of_type(events, ForceFieldPlaced) == [ForceFieldPlaced(0, p("Mimas"))]
    assert after.gems[0] == 0 and after.force_fields[p("Mimas")] == 0
    after, _ = act(after, 0, Move(p("Ares"), p("Mimas"), 1))  # the owner may still move in
    after, _ = act(after, 0, EndTurn())
    assert after.current == 1
    assert refused(after, 1, Move(p("Nyx"), p("Mimas"), 3)) is Reason.FORCE_FIELD
    assert refused(after, 1, Warp(p("Rhea"), p("Mimas"), 2)) is Reason.FORCE_FIELD
    after, _ = act(after, 1, EndTurn())
    after, _ = act(after, 2, EndTurn())
    assert of_type(_, ForceFieldExpired) == [ForceFieldExpired(0, p("Mimas"))]
    assert after.force_fields[p("Mimas")] == -1
    twice = hand_made(3, recruits={0: {"Mimas": 1}}, gems={0: 1}, fields={"Mimas": 1},
                      hands={0: [card]})
    assert refused(twice, 0, PlayCard(card, planet=p("Mimas"))) is Reason.FORCE_FIELD
    full = hand_made(3, recruits={0: {"Ares": 1}}, gems={0: 1},
                     fields={"Mimas": 1, "Nyx": 2}, hands={0: [card]})
    assert refused(full, 0, PlayCard(card, planet=p("Ares"))) is Reason.BANK_EMPTY


def test_meteor_strike_costs_a_recruit_and_removes_up_to_two() -> None:
    """Meteor Strike: 1 recruit; 1 or 2 opponent recruits off a planet linked to one of yours."""
    card = card_of(CardKind.METEOR_STRIKE)
    state = hand_made(3, recruits={0: {"Ares": 2, RED: 1}, 1: {"Mimas": 3, "Nyx": 2}},
                      hands={0: [card]})
    entry = next(e for e in RULES.legal_actions(state, 0)
                 if e.action == PlayCard(card, planet=p("Mimas"), count=1, pay_from=RED))
    assert entry.max_count == 2
    after, events = act(state, 0, PlayCard(card, planet=p("Mimas"), count=2, pay_from=RED))
    assert of_type(events, CardPlayed)[0].recruit_from == RED
    assert of_type(events, RecruitsRemoved) == [RecruitsRemoved(1, p("Mimas"), 2)]
    assert after.recruits[1][p("Mimas")] == 1 and after.recruits[0][RED] == 0
    assert after.supply[0] == state.supply[0] + 1 and after.supply[1] == state.supply[1] + 2
    strike = PlayCard(card, planet=p("Mimas"), count=3, pay_from=RED)
    assert refused(state, 0, strike) is Reason.TOO_MANY_RECRUITS
    far = PlayCard(card, planet=p("Nyx"), count=1, pay_from=RED)
    assert refused(state, 0, far) is Reason.NOT_ADJACENT
    empty = PlayCard(card, planet=p("Eris"), count=1, pay_from=RED)
    assert refused(state, 0, empty) is Reason.INVALID_TARGET
    unpaid = PlayCard(card, planet=p("Mimas"), count=1)
    assert refused(state, 0, unpaid) is Reason.INVALID_PAYMENT
    # The linked planet must still hold a recruit once the cost is paid.
    last = hand_made(3, recruits={0: {"Ares": 1}, 1: {"Mimas": 3}}, hands={0: [card]})
    assert refused(last, 0, PlayCard(card, planet=p("Mimas"), count=1,
                                     pay_from=p("Ares"))) is Reason.NOT_ADJACENT


def test_hyperjump_gives_one_extra_move() -> None:
    """Hyperjump: free; a third move this turn."""
    card = card_of(CardKind.HYPERJUMP)
    state = hand_made(3, recruits={0: {RED: 2}}, hands={0: [card]}, moves_left=0)
    after, events = act(state, 0, PlayCard(card))
    assert of_type(events, CardPlayed)[0].gems_paid == 0 and after.moves_left == 1
    act(after, 0, Move(RED, p("Eris"), 2))


def test_reinforcements_gem_rush_and_ore_haul_are_free_and_pay_two() -> None:
    """Reinforcements: 2 recruits home; Gem Rush: 2 gems; Ore Haul: 2 ore; all free."""
    cards = [card_of(k) for k in (CardKind.REINFORCEMENTS, CardKind.GEM_RUSH, CardKind.ORE_HAUL)]
    state = hand_made(3, hands={0: cards[:2]})
    after, events = act(state, 0, PlayCard(cards[0]))
    assert of_type(events, RecruitsPlaced) == [RecruitsPlaced(0, RED, 2)]
    after, events = act(after, 0, PlayCard(cards[1]))
    assert of_type(events, ResourcesTaken) == [ResourcesTaken(0, GEM, 2)]
    assert after.gems[0] == 2 and after.recruits[0][RED] == 2
    haul = hand_made(3, hands={0: cards[2:]})
    after, events = act(haul, 0, PlayCard(cards[2]))
    assert of_type(events, ResourcesTaken) == [ResourcesTaken(0, ORE, 2)]
    assert after.ore[0] == 2 and after.bank_ore == 29


def test_battle_cry_costs_a_gem_and_wins_ties_in_the_next_battle() -> None:
    """Battle Cry: 1 gem; the attacker wins ties in its next battle this turn only."""
    card = card_of(CardKind.BATTLE_CRY)
    state = hand_made(3, recruits={0: {"Ares": 2, "Eris": 2}, 1: {"Mimas": 1, "Icarus": 1}},
                      gems={0: 1}, hands={0: [card, card_of(CardKind.BATTLE_CRY, 1)]})
    after, _ = act(state, 0, PlayCard(card))
    assert after.battle_cry and after.gems[0] == 0
    again = dataclasses.replace(after, gems=(1, *after.gems[1:]),
                                bank_gems=after.bank_gems - 1)
    assert refused(again, 0, PlayCard(card_of(CardKind.BATTLE_CRY, 1))) is \
        Reason.CARD_NOT_PLAYABLE
    won, events = act(rigged(after, 4, 4), 0, Move(p("Ares"), p("Mimas"), 2))
    assert of_type(events, BattleRolled)[0].loser == 1 and not won.battle_cry
    _, events = act(rigged(won, 4, 4, 1, 6, 1, 6), 0, Move(p("Eris"), p("Icarus"), 2))
    assert of_type(events, BattleRolled)[0].loser == 0, "only the next battle"


def test_prospector_mines_one_recruit_planets_after_other_actions() -> None:
    """Prospector: free; 1 gem or ore from a planet with 1+ own recruit, even after moving."""
    card = card_of(CardKind.PROSPECTOR)
    state = hand_made(3, recruits={0: {"Ares": 1, RED: 1}}, hands={0: [card]})
    state, _ = act(state, 0, Move(RED, p("Eris"), 1))
    assert refused(state, 0, Mine(p("Ares"), ORE)) is Reason.MINING_OVER
    after, events = act(state, 0, PlayCard(card, planet=p("Ares"), resource=ORE))
    assert of_type(events, Mined) == [Mined(0, p("Ares"), ORE)] and after.ore[0] == 1
    assert refused(state, 0, PlayCard(card, planet=p("Mimas"))) is Reason.NOT_ENOUGH_RECRUITS


def test_sabotage_costs_a_recruit_and_takes_two_ore() -> None:
    """Sabotage: 1 recruit; an opponent returns 2 ore (or all it has) to the bank."""
    card = card_of(CardKind.SABOTAGE)
    state = hand_made(3, recruits={0: {RED: 1}}, ore={1: 3, 2: 1}, hands={0: [card]})
    after, events = act(state, 0, PlayCard(card, target=1, pay_from=RED))
    assert of_type(events, OreReturned) == [OreReturned(1, 2)]
    assert after.ore[1] == 1 and after.recruits[0][RED] == 0
    after, events = act(state, 0, PlayCard(card, target=2, pay_from=RED))
    assert of_type(events, OreReturned) == [OreReturned(2, 1)]
    assert refused(state, 0, PlayCard(card, target=0, pay_from=RED)) is Reason.NOT_AN_OPPONENT
    no_recruit = hand_made(3, ore={1: 3}, hands={0: [card]})
    assert refused(no_recruit, 0, PlayCard(card, target=1, pay_from=RED)) is \
        Reason.INVALID_PAYMENT


def test_fields_a_card_does_not_read_are_refused() -> None:
    """A card's unused fields keep their defaults; a card not in hand is refused."""
    card = card_of(CardKind.GEM_RUSH)
    state = hand_made(3, recruits={0: {"Ares": 1}}, hands={0: [card]})
    assert refused(state, 0, PlayCard(card, planet=p("Ares"))) is Reason.UNUSED_FIELD
    assert refused(state, 0, PlayCard(card, target=1)) is Reason.UNUSED_FIELD
    assert refused(state, 0, PlayCard(card, resource=ORE)) is Reason.UNUSED_FIELD
    assert refused(state, 0, PlayCard(card, pay_from=p("Ares"))) is Reason.INVALID_PAYMENT
    assert refused(state, 0, PlayCard(card_of(CardKind.ORE_HAUL))) is Reason.CARD_NOT_IN_HAND


# ---- resignation and timeouts ----------------------------------------------------------------


def test_resigning_returns_pieces_and_keeps_bases() -> None:
    """A resigning seat's recruits, dogs, fields, gems, ore and cards leave; its bases stay."""
    hand = [card_of(CardKind.GEM_RUSH), card_of(CardKind.ORE_HAUL)]
    state = hand_made(3, recruits={1: {"Boreas": 4, BLUE: 2}}, dogs={1: {"Boreas": 1}},
                      fields={"Boreas": 1}, gems={1: 3}, ore={1: 2}, bases={1: ["Boreas"]},
                      hands={1: hand}, current=0)
    after, events = RULES.resign(state, 1)
    check_conserved(after)
    assert of_type(events, PlayerResigned) == [PlayerResigned(1)]
    assert sum(after.recruits[1]) == 0 and after.supply[1] == 32
    assert sum(after.dogs[1]) == 0 and after.force_fields[p("Boreas")] == -1
    assert (after.gems[1], after.ore[1], after.hands[1]) == (0, 0, ())
    assert after.bases[1] == (p("Boreas"),)
    assert RULES.decision(after).seats == (0,)
    after, _ = act(after, 0, EndTurn())
    assert after.current == 2, "the resigned seat is skipped"


def test_current_seat_resigning_passes_the_turn_and_the_last_seat_wins() -> None:
    """The mover resigning ends its turn; the last seat in wins by resignation."""
    state = hand_made(3, recruits={0: {"Ares": 2}}, current=0)
    after, events = RULES.resign(state, 0)
    assert of_type(events, TurnStarted)[0].seat == 1 and after.phase is Phase.START
    assert not of_type(events, Replenished)
    after, events = RULES.resign(after, 2)
    (ended,) = of_type(events, GameEnded)
    assert (ended.winner, ended.reason, ended.ranking) == (1, "resignation", (1, 2, 0))
    for seat, reason in ((1, Reason.GAME_OVER), (5, Reason.NOT_A_SEAT)):
        with pytest.raises(IllegalAction) as caught:
            RULES.resign(after, seat)
        assert caught.value.reason is reason
    live = hand_made(3)
    live, _ = RULES.resign(live, 2)
    with pytest.raises(IllegalAction) as caught:
        RULES.resign(live, 2)
    assert caught.value.reason is Reason.ALREADY_OUT


def test_mover_resigning_while_a_dog_waits_lets_the_owner_decide_first() -> None:
    """If the mover resigns during a dog decision, the owner decides, then the next turn starts."""
    meteor = card_of(CardKind.METEOR_STRIKE)
    state = hand_made(3, recruits={0: {"Ares": 2}, 1: {"Mimas": 1, "Boreas": 1}},
                      dogs={1: {"Mimas": 1}}, hands={0: [meteor]})
    state, _ = act(state, 0, PlayCard(meteor, planet=p("Mimas"), count=1, pay_from=p("Ares")))
    state, _ = RULES.resign(state, 0)
    assert RULES.decision(state).seats == (1,)
    _, events = act(state, 1, RelocateDog(p("Boreas")))
    assert of_type(events, TurnStarted)[0].seat == 1


def test_default_action_ends_the_turn_keeping_the_hand() -> None:
    """A timed-out seat ends its turn without discarding."""
    state = hand_made(3, recruits={0: {"Ares": 2}}, gems={0: 2},
                      hands={0: [card_of(CardKind.GEM_RUSH)]}, phase=Phase.START)
    assert RULES.default_action(state, 0) == EndTurn()
    with pytest.raises(IllegalAction) as caught:
        RULES.default_action(state, 1)
    assert caught.value.reason is Reason.NOT_YOUR_TURN


def test_legal_actions_are_exactly_the_deciding_seats() -> None:
    """Only the deciding seat has legal actions; the others are refused NOT_YOUR_TURN."""
    state = hand_made(3, recruits={0: {"Ares": 2}})
    assert RULES.legal_actions(state, 1) == []
    assert refused(state, 1, EndTurn()) is Reason.NOT_YOUR_TURN
    assert is_legal(RULES.legal_actions(state, 0), EndTurn())
