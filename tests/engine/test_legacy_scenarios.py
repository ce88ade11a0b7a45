"""Risk Legacy rule by rule, from hand-made states (legacy_states.py, docs/rules-legacy.md)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from legacy_states import (
    COINS,
    RULES,
    act,
    all_cards,
    decider,
    made,
    of_type,
    refused,
    rigged,
    t,
)

from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.core.errors import Reason
from risk_rules.engine.core.ruleset import Event
from risk_rules.engine.legacy.content import TRADE_TABLE, troops_for
from risk_rules.engine.legacy.model import (
    HIDDEN,
    Attack,
    AttacksStopped,
    BattleResolved,
    BuyRedStar,
    CardChoiceOffered,
    CardTaken,
    Defend,
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
    Maneuver,
    MissileFired,
    MoveIn,
    OrderRolled,
    Pass,
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
    TroopsPlaced,
    TroopsRecruited,
    TurnEnded,
    TurnStarted,
)
from risk_rules.engine.legacy.world import (
    City,
    CitySize,
    ContinentName,
    Faction,
    FactionChoice,
    Fortification,
    Power,
    Scar,
    ScarMark,
    World,
)

VEN, PERU, BRAZIL, ARG = t("Venezuela"), t("Peru"), t("Brazil"), t("Argentina")
ALASKA, NWT, ALBERTA, KAMCHATKA = t("Alaska"), t("Northwest Territory"), t("Alberta"), \
    t("Kamchatka")
JAPAN, MONGOLIA, CAM, NAFR = t("Japan"), t("Mongolia"), t("Central America"), t("North Africa")
SOUTH_AMERICA = (VEN, PERU, BRAZIL, ARG)
SA = 1  # continent id
A, D = Side.ATTACKER, Side.DEFENDER

DEFAULT_FACTIONS = (
    FactionChoice(Faction.DIE_MECHANIKER, Power.FORTIFIED_HQ),
    FactionChoice(Faction.ENCLAVE_OF_THE_BEAR, Power.FEROCITY),
    FactionChoice(Faction.IMPERIAL_BALKANIA, Power.ROUND_UP),
    FactionChoice(Faction.KHAN_INDUSTRIES, Power.HQ_TROOPS),
    FactionChoice(Faction.SAHARAN_REPUBLIC, Power.MANEUVER_ANY_TIME),
)


def factions(players: int, **powers: Power) -> tuple[FactionChoice, ...]:
    """The default seats' factions, with some seats (seat0=..., seat1=...) given other powers,
    each with the faction that owns that power."""
    chosen = list(DEFAULT_FACTIONS[:players])
    owner_of = {
        Power.FORTIFIED_HQ: Faction.DIE_MECHANIKER, Power.STEADFAST_SIXES: Faction.DIE_MECHANIKER,
        Power.FEROCITY: Faction.ENCLAVE_OF_THE_BEAR, Power.NATURAL_TRIPLE:
        Faction.ENCLAVE_OF_THE_BEAR, Power.ROUND_UP: Faction.IMPERIAL_BALKANIA,
        Power.EXPANSION_CARD: Faction.IMPERIAL_BALKANIA, Power.HQ_TROOPS:
        Faction.KHAN_INDUSTRIES, Power.CARD_TROOP: Faction.KHAN_INDUSTRIES,
        Power.MANEUVER_ANY_TIME: Faction.SAHARAN_REPUBLIC, Power.MANEUVER_ANYWHERE:
        Faction.SAHARAN_REPUBLIC,
    }
    for key, power in powers.items():
        seat = int(key.removeprefix("seat"))
        faction = owner_of[power]
        for other, choice in enumerate(chosen):  # swap factions so each is played once
            if choice.faction is faction:
                chosen[other] = FactionChoice(chosen[seat].faction,
                                              DEFAULT_FACTIONS[chosen[seat].faction - 1].power)
        chosen[seat] = FactionChoice(faction, power)
    return tuple(chosen)


def world(players: int = 3, powers: dict[str, Power] | None = None, **fields: Any) -> World:
    """A world with the seats' factions (`powers` as for `factions`) and the given fields."""
    return World(factions=factions(players, **(powers or {})), **fields)


def battle(
    *, w: World | None = None, att: int = 10, dfn: int = 3, missiles: tuple[int, ...] = (0, 0, 0),
    hqs: tuple[int, ...] = (-1, -1, -1), **changes: object,
) -> LegacyState:
    """Seat 0 (Venezuela, `att` troops) may attack seat 1 (Peru, `dfn`); seat 2 holds Japan."""
    return made(
        3, world=w or world(), owner={VEN: 0, PERU: 1, JAPAN: 2},
        troops={VEN: att, PERU: dfn, JAPAN: 3}, missiles=missiles, hqs=hqs, **changes,
    )


def roll(
    state: LegacyState, attack: tuple[int, ...], defence: tuple[int, ...]
) -> tuple[LegacyState, list[Event]]:
    """Seat 0 attacks Peru with len(attack) dice; seat 1 defends with len(defence); the dice
    come out as given."""
    state = rigged(state, *attack, *defence)
    state, events = act(state, 0, Attack(VEN, PERU, len(attack)))
    more: list[Event] = []
    if state.phase is Phase.DEFEND:
        state, more = act(state, 1, Defend(len(defence)))
    return state, events + more


def resolved(events: list[Event]) -> BattleResolved:
    (result,) = of_type(events, BattleResolved)
    return result


def end_turn(state: LegacyState) -> tuple[LegacyState, list[Event]]:
    """The active seat ends its attacks (and skips the maneuver if asked)."""
    seat = state.current
    state, events = act(state, seat, EndAttack())
    if state.phase is Phase.MANEUVER:
        state, more = act(state, seat, EndTurn())
        events += more
    return state, events


# ---- setup -----------------------------------------------------------------------------------


def test_setup_deals_the_sideboard_tokens_and_hidden_scar_cards() -> None:
    """Four face-up cards, a Red Star token each (nobody signed), one hidden scar card each."""
    state, events = RULES.create(LegacyOptions(players=4), 7)
    assert len(state.sideboard) == 4 and len(set(state.sideboard)) == 4
    assert len(state.deck) == 38 and state.coin_pile == COINS
    assert state.stars == (1, 1, 1, 1) and state.missiles == (0, 0, 0, 0)
    assert [e.stars for e in of_type(events, StartingTokens)] == [1, 1, 1, 1]
    dealt = of_type(events, ScarCardDealt)
    assert [e.seat for e in dealt] == [0, 1, 2, 3] and all(state.scar_cards)
    for event in dealt:
        assert event.for_viewer(event.seat) == event
        other = event.for_viewer((event.seat + 1) % 4)
        assert isinstance(other, ScarCardDealt) and other.scar == HIDDEN
    assert sorted(state.scar_cards).count(Scar.BUNKER) <= 3
    first = of_type(events, OrderRolled)[-1].winner
    assert state.phase is Phase.SETUP_HQ and state.current == state.first_seat == first
    assert all_cards(state) == list(range(54))


def test_no_scar_cards_unless_there_is_one_for_everyone() -> None:
    """With 2 scar cards left in the campaign's supply, 3 players get none."""
    state, events = RULES.create(
        LegacyOptions(players=3, world=World(scar_cards_used=(2, 2))), 7
    )
    assert state.scar_cards == (0, 0, 0) and not of_type(events, ScarCardDealt)


def test_signatures_give_missiles_instead_of_the_red_star() -> None:
    """A seat that signed the board twice starts with 2 missiles and no Red Star token."""
    state, _ = RULES.create(LegacyOptions(players=3, world=World(signatures=(2, 0, 0))), 7)
    assert state.stars == (0, 1, 1) and state.missiles == (2, 0, 0)


def test_hq_goes_on_an_unmarked_unoccupied_territory_away_from_other_hqs() -> None:
    """Not next to an HQ, not scarred, not a city, unless it is a major city the seat founded."""
    w = world(
        scars=(ScarMark(PERU, Scar.BUNKER),),
        cities=(City(VEN, CitySize.MAJOR, "Other", 1), City(BRAZIL, CitySize.MINOR, "Min", 0),
                City(ARG, CitySize.MAJOR, "Mine", 0)),
    )
    state = made(3, world=w, owner={ALASKA: 1}, troops={ALASKA: 8}, hqs=(-1, ALASKA, -1),
                 phase=Phase.SETUP_HQ, current=0)
    spots = {e.action for e in RULES.legal_actions(state, 0)}
    assert PlaceHq(ARG) in spots and PlaceHq(JAPAN) in spots
    for taken in (PERU, VEN, BRAZIL, ALASKA):
        assert refused(state, 0, PlaceHq(taken)) is Reason.NOT_A_STARTING_TERRITORY
    for near in (NWT, ALBERTA, KAMCHATKA):
        assert refused(state, 0, PlaceHq(near)) is Reason.HQ_TOO_CLOSE
    after, events = act(state, 0, PlaceHq(ARG))
    assert of_type(events, HqPlaced) == [HqPlaced(0, ARG, 8)]
    assert after.owner[ARG] == 0 and after.troops[ARG] == 8 and after.hqs[0] == ARG
    assert after.current == 2  # clockwise, skipping the seat that has its HQ


def test_hqs_are_placed_clockwise_from_the_first_seat_who_then_starts() -> None:
    """Every seat places in turn from the roll's winner; then the winner's turn begins."""
    state, _ = RULES.create(LegacyOptions(players=4), 11)
    first = state.first_seat
    for step in range(4):
        assert decider(state) == (first + step) % 4
        spot = RULES.legal_actions(state, decider(state))[0].action
        state, events = act(state, decider(state), spot)
    assert of_type(events, TurnStarted) == [TurnStarted(first, 1)]
    assert sum(1 for o in state.owner if o >= 0) == 4
    hqs = [h for h in state.hqs if h >= 0]
    for h in hqs:
        assert not any(n in hqs for n in CLASSIC_BOARD.links[h])


# ---- Red Stars -------------------------------------------------------------------------------


def _start(hand: list[int], stars: int = 1, **changes: object) -> LegacyState:
    """Seat 0 at the start of its turn holding Venezuela (its HQ) and Japan, and `hand`."""
    w = changes.pop("w", None) or world(card_values=tuple(3 if c == 5 else 1 for c in range(42)))
    assert isinstance(w, World)
    return made(3, world=w, owner={VEN: 0, JAPAN: 0, PERU: 1, BRAZIL: 2},
                troops={VEN: 3, JAPAN: 2, PERU: 2, BRAZIL: 2}, hands={0: hand},
                hqs=(VEN, PERU, BRAZIL), stars=(stars, 1, 1), phase=Phase.START, **changes)


def test_a_red_star_costs_exactly_four_cards_whatever_their_values() -> None:
    """Four cards of any value buy a token; coins go back to their pile, territory cards to
    the discard; three or five cards, or cards not held, are refused."""
    state = _start([0, 5, 20, COINS[0], COINS[1]])
    assert refused(state, 0, BuyRedStar((1, 1, 1))) is Reason.TOO_FEW_CARDS
    assert refused(state, 0, BuyRedStar((3, 1, 1, 1, 1))) is Reason.TOO_MANY_CARDS
    assert refused(state, 0, BuyRedStar((3, 3, 1, 1))) is Reason.CARD_NOT_IN_HAND
    assert refused(state, 0, BuyRedStar((1, 3, 1, 1))) is Reason.INVALID_SET
    after, events = act(state, 0, BuyRedStar((3, 1, 1, 1)))
    (bought,) = of_type(events, RedStarBought)
    assert bought.cards == (5, COINS[0], COINS[1], 0) and bought.stars == 2
    assert after.hands[0] == (20,) and after.stars[0] == 2
    assert after.discard == (5, 0) and COINS[0] in after.coin_pile
    assert all_cards(after) == all_cards(state)


def test_the_fourth_red_star_wins_at_once_counting_hqs_held() -> None:
    """HQ held (1) plus 2 tokens plus the one bought: 4 Red Stars end the game."""
    state = _start([0, 1, 2, 3], stars=2)
    after, events = act(state, 0, BuyRedStar((1, 1, 1, 1)))
    assert of_type(events, GameEnded) == [GameEnded(0, after.ranking, "red_stars")]
    assert after.phase is Phase.FINISHED and after.ranking[0] == 0
    assert all(not RULES.legal_actions(after, s) for s in range(3))


def test_red_stars_are_bought_before_recruiting_only() -> None:
    """The first placement ends the purchases for the turn."""
    state = _start([0, 1, 2, 3, 4])
    after, _ = act(state, 0, PlaceTroops(VEN, 1))
    assert after.phase is Phase.RECRUIT
    assert refused(after, 0, BuyRedStar((1, 1, 1, 1))) is Reason.WRONG_PHASE


def _khan_turn(hand: list[int]) -> tuple[LegacyState, list[Event]]:
    """Seat 2 ends its turn; seat 0 (Khan Industries, holding its HQ Venezuela and seat 1's HQ
    Peru) starts its own holding `hand`."""
    w = world(powers={"seat0": Power.HQ_TROOPS})
    state = made(3, world=w, owner={VEN: 0, PERU: 0, JAPAN: 2, MONGOLIA: 1}, current=2,
                 hqs=(VEN, PERU, JAPAN), hands={0: hand}, stars=(0, 0, 0))
    return end_turn(state)


def test_red_stars_are_bought_before_the_recruits_are_announced() -> None:
    """The rulebook's order: buy Red Stars, then mobilise. While seat 0 may still buy, its
    recruits are not told and Khan's HQ troops not placed; the purchase comes first, and once
    the hand cannot buy another the recruits follow in the same commit."""
    state, events = _khan_turn([0, 1, 2, 3, 4])
    assert state.current == 0 and state.phase is Phase.START
    assert not of_type(events, TroopsRecruited) and not of_type(events, TroopsPlaced)
    assert state.troops[VEN] == 1 and state.pending == 0
    listed = {e.action for e in RULES.legal_actions(state, 0)}
    assert BuyRedStar((1, 1, 1, 1)) in listed
    after, events = act(state, 0, BuyRedStar((1, 1, 1, 1)))
    assert [type(e) for e in events] == [RedStarBought, TroopsRecruited, TroopsPlaced,
                                         TroopsPlaced]
    assert of_type(events, TroopsRecruited)[0].hq_troops == 2
    assert after.phase is Phase.RECRUIT and after.pending == 3 and after.troops[VEN] == 2


def test_the_first_placement_ends_the_purchases_and_then_tells_the_recruits() -> None:
    """Seat 0 could buy but places instead: the recruits are told (and the HQ troops placed)
    before its placement, which may use every recruit the listing offered."""
    state, _ = _khan_turn([0, 1, 2, 3, 4])
    (entry,) = [e for e in RULES.legal_actions(state, 0)
                if isinstance(e.action, PlaceTroops) and e.action.territory == VEN]
    assert entry.max_count == 3
    after, events = act(state, 0, PlaceTroops(VEN, 3))
    assert [type(e) for e in events] == [TroopsRecruited, TroopsPlaced, TroopsPlaced,
                                         TroopsPlaced]
    assert events[-1] == TroopsPlaced(0, VEN, 3)
    assert after.phase is Phase.ATTACK and after.troops[VEN] == 5
    assert refused(after, 0, BuyRedStar((1, 1, 1, 1))) is Reason.WRONG_PHASE


def test_a_seat_that_cannot_buy_is_told_its_recruits_at_once() -> None:
    """Fewer than 4 cards: nothing to buy, so the turn starts with the recruits (RECRUIT)."""
    state, events = _khan_turn([0, 1, 2])
    assert state.phase is Phase.RECRUIT and of_type(events, TroopsRecruited)
    assert state.troops[VEN] == 2 and state.pending == 3


# ---- joining the war, being knocked off, elimination -------------------------------------------


def test_knocking_out_a_seat_gives_the_attacker_its_cards_but_does_not_eliminate_it() -> None:
    """The last troop lost: its resource cards go to the attacker (only they two see which)."""
    state = battle(dfn=1, hands={1: [7, COINS[3]]})
    after, events = roll(state, (6, 1), (2,))
    assert of_type(events, TerritoryConquered) == [TerritoryConquered(0, PERU, 1)]
    (out,) = of_type(events, PlayerKnockedOut)
    assert out == PlayerKnockedOut(1, 0, (7, COINS[3]))
    assert out.for_viewer(1) == out
    hidden = out.for_viewer(2)
    assert isinstance(hidden, PlayerKnockedOut) and hidden.cards_taken == (HIDDEN, HIDDEN)
    assert set(after.hands[0]) == {7, COINS[3]} and after.hands[1] == ()
    assert not after.eliminated[1] and not after.out[1]


def test_a_knocked_off_seat_joins_the_war_with_half_its_starting_troops() -> None:
    """Holding nothing at its turn, it puts 4 troops on a legal start and does not recruit."""
    state = made(3, world=world(cities=(City(ARG, CitySize.MINOR, "x", 0),)),
                 owner={VEN: 0, JAPAN: 2}, troops={VEN: 5, JAPAN: 3}, current=0)
    state, events = end_turn(state)
    assert state.current == 1 and state.phase is Phase.START
    assert not of_type(events, TroopsRecruited)
    spots = {e.action for e in RULES.legal_actions(state, 1)}
    assert JoinWar(PERU) in spots and JoinWar(ARG) not in spots and JoinWar(VEN) not in spots
    assert refused(state, 1, PlaceTroops(VEN, 1)) is Reason.WRONG_PHASE
    assert refused(state, 1, JoinWar(ARG)) is Reason.NOT_A_STARTING_TERRITORY
    after, events = act(state, 1, JoinWar(PERU))
    assert of_type(events, JoinedWar) == [JoinedWar(1, PERU, 4)]
    assert after.troops[PERU] == 4 and after.phase is Phase.ATTACK and after.hqs[1] == -1


def _full_world() -> World:
    """A city on every territory: nobody can ever join the war again."""
    return world(cities=tuple(City(x, CitySize.MINOR, f"c{x}", 0) for x in range(42)))


def test_a_failed_join_eliminates_the_seat() -> None:
    """No legal starting territory left: the seat is eliminated at the start of its turn."""
    state = made(3, world=_full_world(), owner={VEN: 0, JAPAN: 2}, troops={VEN: 1, JAPAN: 3})
    after, events = end_turn(state)
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(1)]
    assert after.eliminated[1] and after.out[1] and after.out_order == (1,)
    assert [e.seat for e in of_type(events, TurnStarted)] == [1, 2]
    assert after.current == 2 and after.phase is Phase.RECRUIT  # no cards: nothing to buy


def test_a_seat_that_must_join_may_still_buy_red_stars_first() -> None:
    """Holding 4 cards it may buy (a 4th Red Star would win) or give up with EndTurn."""
    state = made(3, world=_full_world(), owner={VEN: 0, JAPAN: 2}, troops={VEN: 1, JAPAN: 3},
                 hands={1: [0, 1, 2, 3]})
    state, events = end_turn(state)
    assert state.current == 1 and not of_type(events, PlayerEliminated)
    listed = {e.action for e in RULES.legal_actions(state, 1)}
    assert listed == {BuyRedStar((1, 1, 1, 1)), EndTurn()}
    bought, events = act(state, 1, BuyRedStar((1, 1, 1, 1)))
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(1)]  # nothing left to do
    assert bought.stars[1] == 2 and bought.current == 2
    _, events = act(state, 1, EndTurn())
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(1)]


def test_the_last_seat_not_eliminated_wins() -> None:
    """Seat 2 eliminated too: seat 0 is the last one in."""
    state = made(3, world=_full_world(), owner={VEN: 0}, troops={VEN: 1},
                 eliminated=(False, True, False), out=(False, True, False), out_order=(1,))
    after, events = end_turn(state)
    assert after.phase is Phase.FINISHED
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(2)]
    assert of_type(events, GameEnded) == [GameEnded(0, (0, 2, 1), "last_standing")]


# ---- recruiting ------------------------------------------------------------------------------


def _recruits(w: World, held: tuple[int, ...], hqs: tuple[int, ...] = (-1, -1, -1)
              ) -> tuple[LegacyState, TroopsRecruited]:
    """Seat 0's recruitment when its turn starts holding `held` (seat 2 ends its turn)."""
    owner = {x: 0 for x in held} | {JAPAN: 2, MONGOLIA: 1}
    state = made(3, world=w, owner=owner, current=2, hqs=hqs)
    state, events = end_turn(state)
    (recruited,) = of_type(events, TroopsRecruited)
    return state, recruited


TEN = (VEN, PERU, BRAZIL, t("Alaska"), t("Iceland"), t("Egypt"), t("Ural"), t("India"),
       t("Siam"), t("Quebec"))  # no whole continent


def test_recruitment_counts_territories_and_city_population_over_three() -> None:
    """10 territories give 3; a major city among them (+2 population) makes 12, so 4."""
    _, plain = _recruits(world(), TEN)
    assert (plain.territories, plain.population, plain.base) == (10, 0, 3)
    _, cities = _recruits(world(cities=(City(PERU, CitySize.MAJOR, "P", 1),)), TEN)
    assert (cities.population, cities.base) == (2, 4)
    _, few = _recruits(world(), (VEN,))
    assert few.base == 3  # at least 3


def test_continent_bonus_with_marks_and_the_namers_extra_troop() -> None:
    """All of South America: 2; named by seat 0: 3; named by another: 2; a -1 mark: 1."""
    held = SOUTH_AMERICA
    assert _recruits(world(), held)[1].continent_bonus == 2
    named = (ContinentName(SA, "Mine", 0),)
    assert _recruits(world(continent_names=named), held)[1].continent_bonus == 3
    theirs = (ContinentName(SA, "Theirs", 1),)
    assert _recruits(world(continent_names=theirs), held)[1].continent_bonus == 2
    marked = world(bonus_marks=(0, -1, 0, 0, 0, 0))
    state, recruited = _recruits(marked, held)
    assert recruited.continent_bonus == 1 and state.pending == 3 + 1


def test_balkania_rounds_recruitment_up() -> None:
    """Imperial Balkania's first power: 10 territories recruit 4, not 3."""
    _, recruited = _recruits(world(powers={"seat0": Power.ROUND_UP}), TEN)
    assert recruited.base == 4


def test_khan_places_one_troop_on_each_hq_it_controls() -> None:
    """Khan Industries' first power: +1 troop on every HQ it holds, its own or captured."""
    w = world(powers={"seat0": Power.HQ_TROOPS})
    state, recruited = _recruits(w, (VEN, PERU), hqs=(VEN, PERU, JAPAN))
    assert recruited.hq_troops == 2
    assert state.troops[VEN] == 2 and state.troops[PERU] == 2 and state.pending == 3


# ---- trading resources -----------------------------------------------------------------------


def test_the_trade_table_is_data() -> None:
    """2..10 resources pay 1..8 then 10 troops; above 10 pays 10; below 2 nothing."""
    assert TRADE_TABLE == {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 7, 9: 8, 10: 10}
    assert [troops_for(r) for r in (1, 2, 9, 10, 12)] == [0, 1, 8, 10, 10]


def test_a_trade_spends_resources_for_troops_once_a_turn() -> None:
    """Cards worth 11 (6+5) pay 10 troops; one trade a turn; a trade worth 1 is refused."""
    values = tuple({1: 6, 2: 5, 3: 3}.get(c, 1) for c in range(42))
    state = _start([1, 2, 3, COINS[0]], w=world(card_values=values))
    assert refused(state, 0, TradeResources((1,))) is Reason.TOO_FEW_RESOURCES
    assert refused(state, 0, TradeResources((6, 6))) is Reason.CARD_NOT_IN_HAND
    after, events = act(state, 0, TradeResources((6, 5)))
    assert of_type(events, ResourcesTraded) == [ResourcesTraded(0, (1, 2), 11, 10)]
    assert after.pending == 13 and after.traded and after.phase is Phase.RECRUIT
    assert refused(after, 0, TradeResources((3, 1))) is Reason.TRADE_NOT_ALLOWED
    _, events = act(state, 0, TradeResources((3, 1)))
    assert of_type(events, ResourcesTraded)[0].troops == 3  # 4 resources, a coin first
    assert of_type(events, ResourcesTraded)[0].cards == (3, COINS[0])


def test_a_trade_may_overpay_with_a_card_that_adds_nothing() -> None:
    """The rules digest allows overpaying: 6+6 already pays the table's top (10 troops), and a
    third card worth 1 may still be spent with them; the trade is listed and pays 10."""
    values = tuple({1: 6, 2: 6}.get(c, 1) for c in range(42))
    state = _start([1, 2, 3], w=world(card_values=values))
    assert TradeResources((6, 6, 1)) in {e.action for e in RULES.legal_actions(state, 0)}
    after, events = act(state, 0, TradeResources((6, 6, 1)))
    assert of_type(events, ResourcesTraded) == [ResourcesTraded(0, (1, 2, 3), 13, 10)]
    assert after.hands[0] == ()


# ---- expanding -------------------------------------------------------------------------------


def test_expanding_into_a_city_costs_its_population_plus_two_if_fortified() -> None:
    """An empty minor city costs 1 troop, a fortified major city 4; at least one arrives."""
    w = world(cities=(City(PERU, CitySize.MINOR, "m", 1), City(BRAZIL, CitySize.MAJOR, "M", 1)),
              fortifications=(Fortification(BRAZIL, 10),))
    state = made(3, world=w, owner={VEN: 0, JAPAN: 2}, troops={VEN: 6, JAPAN: 1})
    assert refused(state, 0, Expand(VEN, PERU, 1)) is Reason.TOO_FEW_ARMIES
    after, events = act(state, 0, Expand(VEN, PERU, 3))
    assert of_type(events, Expanded) == [Expanded(0, VEN, PERU, 3, 1)]
    assert after.owner[PERU] == 0 and after.troops[PERU] == 2 and after.troops[VEN] == 3
    assert refused(state, 0, Expand(VEN, BRAZIL, 4)) is Reason.TOO_FEW_ARMIES
    fort, _ = act(state, 0, Expand(VEN, BRAZIL, 5))
    assert fort.troops[BRAZIL] == 1 and fort.troops[VEN] == 1
    assert refused(state, 0, Attack(VEN, CAM, 1)) is Reason.TERRITORY_EMPTY
    occupied = made(3, owner={VEN: 0, PERU: 1}, troops={VEN: 4})
    assert refused(occupied, 0, Expand(VEN, PERU, 2)) is Reason.TERRITORY_OCCUPIED


def test_expanding_into_an_empty_hq_takes_its_red_star() -> None:
    """An HQ left on an unoccupied territory counts for whoever expands into it."""
    state = made(3, owner={VEN: 0, JAPAN: 2}, troops={VEN: 4}, hqs=(VEN, PERU, JAPAN),
                 stars=(2, 0, 0))
    after, events = act(state, 0, Expand(VEN, PERU, 2))
    assert of_type(events, GameEnded)[0].reason == "red_stars"  # 2 tokens + 2 HQs
    assert after.owner[PERU] == 0 and after.winner == 0


# ---- battles: scars, fortifications, missiles ------------------------------------------------


def test_bunker_adds_one_to_the_defenders_highest_die() -> None:
    """5 against 4 wins, but not on a Bunker: the 4 defends as a 5 (ties to the defender)."""
    _, plain = roll(battle(), (5,), (4,))
    assert resolved(plain).defender_losses == 1
    bunker = battle(w=world(scars=(ScarMark(PERU, Scar.BUNKER),)))
    _, events = roll(bunker, (5,), (4,))
    result = resolved(events)
    assert result.defence_dice == (4,) and result.defence_final == (5,)
    assert (result.attacker_losses, result.defender_losses) == (1, 0)
    _, two = roll(bunker, (6, 6), (3, 2))
    assert resolved(two).defence_final == (4, 2)


def test_ammo_shortage_takes_one_from_the_defenders_highest_die() -> None:
    """4 against 4 is the defender's, but on Ammo Shortage the 4 defends as a 3."""
    short = battle(w=world(scars=(ScarMark(PERU, Scar.AMMO_SHORTAGE),)))
    _, events = roll(short, (4,), (4,))
    assert resolved(events).defence_final == (3,) and resolved(events).defender_losses == 1
    _, two = roll(short, (1, 1), (6, 5))
    assert resolved(two).defence_final == (5, 5)


def test_fortification_adds_one_to_each_defence_die_and_wears_with_three_attackers() -> None:
    """+1 on every defence die; each roll with 3 attack dice uses one of its 10 marks."""
    w = world(cities=(City(PERU, CitySize.MINOR, "F", 1),),
              fortifications=(Fortification(PERU, 10),))
    state = battle(w=w)
    after, events = roll(state, (5, 5, 1), (4, 4))
    result = resolved(events)
    assert result.defence_final == (5, 5) and result.attacker_losses == 2
    assert of_type(events, FortificationWorn) == [FortificationWorn(PERU, 9)]
    assert after.fortifications[PERU] == 9
    _, fewer = roll(state, (5, 5), (4, 4))
    assert not of_type(fewer, FortificationWorn)


def test_a_fortification_is_gone_after_its_tenth_attack() -> None:
    """Its last mark used, the territory defends unaided."""
    w = world(cities=(City(PERU, CitySize.MINOR, "F", 1),),
              fortifications=(Fortification(PERU, 1),))
    after, events = roll(battle(w=w, dfn=5), (1, 1, 1), (4, 4))
    assert of_type(events, FortificationWorn) == [FortificationWorn(PERU, 0)]
    _, events = roll(after, (1, 1, 1), (4, 4))
    assert resolved(events).defence_final == (4, 4)


def test_mechaniker_hq_defends_as_fortified_without_wearing() -> None:
    """Die Mechaniker's own HQ: +1 on each defence die, and no marks to use up."""
    w = world(powers={"seat0": Power.ROUND_UP, "seat1": Power.FORTIFIED_HQ})
    after, events = roll(battle(w=w, hqs=(-1, PERU, -1)), (5, 5, 1), (4, 4))
    assert resolved(events).defence_final == (5, 5)
    assert not of_type(events, FortificationWorn) and after.fortifications[PERU] == 0
    _, elsewhere = roll(battle(w=w, hqs=(-1, JAPAN, -1)), (5, 5, 1), (4, 4))
    assert resolved(elsewhere).defence_final == (4, 4)


def test_modified_dice_stay_within_one_to_six() -> None:
    """A fortified Bunker 6 stays 6; an Ammo Shortage 1 stays 1."""
    w = world(cities=(City(PERU, CitySize.MINOR, "F", 1),),
              fortifications=(Fortification(PERU, 10),),
              scars=(ScarMark(PERU, Scar.BUNKER),))
    _, events = roll(battle(w=w), (6,), (6,))
    assert resolved(events).defence_final == (6,)
    short = world(scars=(ScarMark(PERU, Scar.AMMO_SHORTAGE),))
    _, events = roll(battle(w=short), (6,), (1,))
    assert resolved(events).defence_final == (1,)


def test_a_missile_turns_a_die_into_an_unmodifiable_six() -> None:
    """On Ammo Shortage a defender's 3 defends as a 2 and loses to 5, but after its missile
    the die is a 6 that the scar cannot touch; a die already a missile's takes no other."""
    short = world(scars=(ScarMark(PERU, Scar.AMMO_SHORTAGE),))
    state = battle(w=short, missiles=(0, 2, 0))
    _, control = roll(dataclasses.replace(state, missiles=(0, 0, 0)), (5,), (3,))
    assert resolved(control).defence_final == (2,) and resolved(control).defender_losses == 1
    state, events = roll(state, (5,), (3,))
    assert state.phase is Phase.BATTLE and decider(state) == 1
    state, events = act(state, 1, FireMissile(D, 0))
    assert of_type(events, MissileFired) == [MissileFired(1, D, 0, 1)]
    assert refused(state, 1, FireMissile(D, 0)) is Reason.DIE_UNMODIFIABLE
    assert refused(state, 1, FireMissile(D, 1)) is Reason.NO_SUCH_DIE
    state, events = act(state, 1, Pass())
    result = resolved(events)
    assert result.defence_dice == (3,) and result.defence_final == (6,)
    assert (result.attacker_losses, result.defender_losses) == (1, 0)


def test_missile_window_asks_the_active_player_then_the_defender_then_clockwise() -> None:
    """4 seats with missiles; seat 1 attacks seat 3: asked 1, 3, 2, 0; a missile reopens the
    window from the top, and seats without missiles are no longer asked."""
    state = made(4, world=world(4), owner={VEN: 1, PERU: 3, JAPAN: 0, MONGOLIA: 2},
                 troops={VEN: 5, PERU: 3}, current=1, missiles=(1, 1, 1, 1),
                 auto_defend_max_dice=True)
    state = rigged(state, 2, 2, 5, 5)
    state, _ = act(state, 1, Attack(VEN, PERU, 2))
    asked = []
    for _ in range(2):
        asked.append(decider(state))
        state, _ = act(state, decider(state), Pass())
    assert asked == [1, 3]
    assert decider(state) == 2
    state, _ = act(state, 2, FireMissile(A, 1))
    assert state.windows[0].order == (1, 3, 0)  # seat 2 has none left
    asked = []
    while state.phase is Phase.BATTLE:
        asked.append(decider(state))
        state, events = act(state, decider(state), Pass())
    assert asked == [1, 3, 0]
    assert resolved(events).attack_final == (6, 2)


def test_without_missiles_no_window_opens() -> None:
    """Nobody holds a missile: the roll resolves at once."""
    state, events = roll(battle(), (3,), (2,))
    assert state.phase is not Phase.BATTLE and resolved(events)


# ---- scar cards ------------------------------------------------------------------------------


def test_scar_cards_are_played_at_the_start_of_anyones_turn_in_priority_order() -> None:
    """Seat 2's turn starts: seats holding a scar card are asked 2, 3, 0; seat 3 plays its
    Bunker during seat 2's turn and the window asks the others again."""
    state = made(4, world=world(4), owner={VEN: 1, PERU: 2, JAPAN: 0, MONGOLIA: 3},
                 current=1, scar_cards=(Scar.AMMO_SHORTAGE, 0, Scar.BUNKER, Scar.BUNKER))
    state, events = end_turn(state)
    assert state.current == 2 and state.windows and decider(state) == 2
    assert state.windows[0].order == (2, 3, 0)
    assert not of_type(events, TroopsRecruited)
    state, _ = act(state, 2, Pass())
    assert refused(state, 3, PlayScar(99)) is Reason.NO_SUCH_TERRITORY
    state, events = act(state, 3, PlayScar(JAPAN))
    assert of_type(events, ScarPlayed) == [ScarPlayed(3, Scar.BUNKER, JAPAN)]
    assert state.scars[JAPAN] == Scar.BUNKER and state.scar_cards[3] == 0
    assert state.windows[0].order == (2, 0) and decider(state) == 2
    assert refused(state, 2, PlayScar(JAPAN)) is Reason.TERRITORY_SCARRED
    state, _ = act(state, 2, Pass())
    state, events = act(state, 0, Pass())
    assert not state.windows and of_type(events, TroopsRecruited)[0].seat == 2


def test_no_scar_window_when_nobody_holds_a_scar_card() -> None:
    """The turn goes straight to recruiting."""
    state = made(3, owner={VEN: 0, JAPAN: 2}, current=2)
    state, events = end_turn(state)
    assert not state.windows and of_type(events, TroopsRecruited)


# ---- maneuver --------------------------------------------------------------------------------


def test_one_maneuver_through_own_territories_ends_the_turn() -> None:
    """Venezuela-Peru-Argentina are linked through own ground; Japan is not."""
    state = made(3, owner={VEN: 0, PERU: 0, ARG: 0, JAPAN: 0, MONGOLIA: 2},
                 troops={VEN: 5}, phase=Phase.MANEUVER)
    assert refused(state, 0, Maneuver(VEN, JAPAN, 1)) is Reason.NOT_CONNECTED
    assert refused(state, 0, Maneuver(VEN, ARG, 5)) is Reason.TOO_MANY_ARMIES
    after, events = act(state, 0, Maneuver(VEN, ARG, 4))
    assert after.troops[ARG] == 5 and of_type(events, TurnEnded) == [TurnEnded(0)]


def test_saharan_maneuvers_during_the_attacks_and_anywhere() -> None:
    """Any time: a maneuver in the attack phase, then more attacks, then the turn ends at once;
    anywhere: no path needed."""
    w = world(powers={"seat0": Power.MANEUVER_ANY_TIME})
    state = made(3, world=w, owner={VEN: 0, PERU: 0, JAPAN: 0, MONGOLIA: 2}, troops={VEN: 5})
    assert refused(state, 0, Maneuver(VEN, JAPAN, 1)) is Reason.NOT_CONNECTED
    state, _ = act(state, 0, Maneuver(VEN, PERU, 2))
    assert state.phase is Phase.ATTACK and state.maneuvered
    assert refused(state, 0, Maneuver(VEN, PERU, 1)) is Reason.ALREADY_MANEUVERED
    state, events = act(state, 0, EndAttack())
    assert of_type(events, TurnEnded) == [TurnEnded(0)]
    anywhere = made(3, world=world(powers={"seat0": Power.MANEUVER_ANYWHERE}),
                    owner={VEN: 0, JAPAN: 0, MONGOLIA: 2}, troops={VEN: 5},
                    phase=Phase.MANEUVER)
    after, _ = act(anywhere, 0, Maneuver(VEN, JAPAN, 4))
    assert after.troops[JAPAN] == 5
    plain = made(3, owner={VEN: 0, PERU: 0, MONGOLIA: 2}, troops={VEN: 5})
    assert refused(plain, 0, Maneuver(VEN, PERU, 1)) is Reason.WRONG_PHASE


# ---- the end-of-turn card --------------------------------------------------------------------


def _drawing(sideboard: tuple[int, ...], **changes: object) -> LegacyState:
    """Seat 0 holds Venezuela and Peru, conquered this turn, with nothing left to do."""
    return made(3, owner={VEN: 0, PERU: 0, JAPAN: 2}, sideboard=sideboard,
                **{"conquered": True, **changes})


def test_the_card_shows_a_territory_the_seat_holds_and_the_sideboard_slides() -> None:
    """Only Peru's card matches: it is taken from slot 2, slot 1 moves on, slot 1 refills."""
    state = _drawing((ALASKA, PERU, 20, 30))
    after, events = end_turn(state)
    assert of_type(events, CardTaken) == [CardTaken(0, PERU, 1)]
    assert after.hands[0] == (PERU,)
    assert after.sideboard[1:] == (ALASKA, 20, 30) and after.sideboard[0] == state.deck[0]
    assert all_cards(after) == all_cards(state)


def test_a_choice_between_matching_cards_is_the_seats() -> None:
    """Venezuela and Peru both show: the seat picks one."""
    state, _ = end_turn(_drawing((VEN, 20, PERU, 30)))
    assert state.phase is Phase.DRAW and decider(state) == 0
    assert {e.action for e in RULES.legal_actions(state, 0)} == {TakeCard(0), TakeCard(2)}
    assert refused(state, 0, TakeCard(1)) is Reason.INVALID_SLOT
    after, events = act(state, 0, TakeCard(2))
    assert after.hands[0] == (PERU,) and of_type(events, TurnEnded)


def test_ending_the_turn_into_a_card_choice_tells_the_stream() -> None:
    """EndTurn that stops for a choice between two matching cards commits an event naming the
    seat and its slots, so a client following the stream learns a choice is pending."""
    state = _drawing((VEN, 20, PERU, 30), troops={VEN: 3}, phase=Phase.MANEUVER)
    after, events = act(state, 0, EndTurn())
    assert after.phase is Phase.DRAW
    assert events == [CardChoiceOffered(0, (0, 2))]
    assert events[0].for_viewer(None) == events[0]  # the sideboard is public


def test_no_matching_card_gives_a_coin_and_discards_slot_four() -> None:
    """None of the four shows a held territory: a coin, and the fourth card is discarded."""
    state = _drawing((20, 21, 22, 23))
    after, events = end_turn(state)
    assert of_type(events, CardTaken) == [CardTaken(0, COINS[0], -1)]
    assert of_type(events, SideboardChanged)[0].discarded == 23
    assert after.discard == (23,) and after.sideboard[1:] == (20, 21, 22)
    empty, events = end_turn(dataclasses.replace(state, coin_pile=()))
    assert not of_type(events, CardTaken) and empty.hands[0] == ()


def test_no_card_without_a_conquest() -> None:
    """A turn without a conquest from an opponent ends with no card."""
    after, events = end_turn(_drawing((VEN, PERU, 20, 30), conquered=False))
    assert not of_type(events, CardTaken) and after.hands[0] == ()


def test_khan_and_balkania_card_powers() -> None:
    """Khan's second power puts a troop on the card's territory; Balkania's draws again after
    four expansions."""
    khan = _drawing((20, PERU, 21, 22), world=world(powers={"seat0": Power.CARD_TROOP}))
    after, events = end_turn(khan)
    assert TroopsPlaced(0, PERU, 1) in events and after.troops[PERU] == 2
    balkan = _drawing((20, PERU, 21, 22), world=world(powers={"seat0": Power.EXPANSION_CARD}),
                      expansions=4)
    after, events = end_turn(balkan)
    taken = [e.card for e in of_type(events, CardTaken)]
    assert len(taken) == 2 and taken[0] == PERU and len(after.hands[0]) == 2


# ---- faction battle powers -------------------------------------------------------------------


def test_enclave_ferocity_in_the_first_territory_attacked_only() -> None:
    """-1 on the defender's lower die while attacking the first territory; gone once another
    territory was attacked."""
    w = world(powers={"seat0": Power.FEROCITY})
    state = made(3, world=w, owner={VEN: 0, PERU: 1, BRAZIL: 1, JAPAN: 2},
                 troops={VEN: 20, PERU: 9, BRAZIL: 9}, auto_defend_max_dice=True)
    state, events = act(rigged(state, 1, 1, 1, 5, 5), 0, Attack(VEN, PERU, 3))
    assert resolved(events).defence_final == (5, 4)
    state, events = act(rigged(state, 1, 1, 1, 5, 5), 0, Attack(VEN, BRAZIL, 3))
    assert resolved(events).defence_final == (5, 5)
    state, events = act(rigged(state, 1, 1, 1, 5, 5), 0, Attack(VEN, PERU, 3))
    assert resolved(events).defence_final == (5, 5)


def test_enclave_natural_triple_kills_every_defender() -> None:
    """4-4-4 against 5-1 costs each side one; the triple then takes all 6 defenders."""
    w = world(powers={"seat0": Power.NATURAL_TRIPLE})
    state, events = roll(battle(w=w, dfn=6), (4, 4, 4), (5, 1))
    result = resolved(events)
    assert result.natural_triple and result.defender_losses == 6 and result.attacker_losses == 1
    assert state.owner[PERU] == 0


def test_enclave_natural_triple_kills_every_defender_even_when_every_pair_is_lost() -> None:
    """Triple 6s against double 6s lose both pairs, yet the triple (the rules digest: "a natural
    triple kills all defenders") takes the territory; the attacker's two losses stand."""
    w = world(powers={"seat0": Power.NATURAL_TRIPLE})
    state, events = roll(battle(w=w, dfn=6), (6, 6, 6), (6, 6))
    result = resolved(events)
    assert result.natural_triple and result.defender_losses == 6 and result.attacker_losses == 2
    assert state.owner[PERU] == 0
    _, events = roll(battle(w=w, dfn=6), (6, 6, 5), (6, 6))
    assert not resolved(events).natural_triple and resolved(events).defender_losses == 0


def test_mechaniker_double_natural_sixes_stop_attacks_on_that_territory() -> None:
    """Die Mechaniker rolls 6-6: Peru cannot be attacked again this turn, but next turn."""
    w = world(powers={"seat1": Power.STEADFAST_SIXES})
    state, events = roll(battle(w=w), (5, 5), (6, 6))
    assert of_type(events, AttacksStopped) == [AttacksStopped(PERU)]
    assert refused(state, 0, Attack(VEN, PERU, 3)) is Reason.ATTACKS_STOPPED
    assert all(not isinstance(e.action, Attack) for e in RULES.legal_actions(state, 0))


def test_move_in_after_a_conquest() -> None:
    """At least the dice rolled, leaving one behind."""
    state, _ = roll(battle(dfn=1), (6, 6, 6), (1,))
    assert state.phase is Phase.MOVE_IN
    assert refused(state, 0, MoveIn(2)) is Reason.TOO_FEW_ARMIES
    after, _ = act(state, 0, MoveIn(9))
    assert after.troops[PERU] == 9 and after.troops[VEN] == 1


def test_capturing_the_fourth_red_star_wins_at_once() -> None:
    """Taking an HQ that brings the attacker to 4 Red Stars ends the game mid-turn."""
    state = battle(dfn=1, hqs=(VEN, PERU, JAPAN), stars=(2, 1, 1))
    after, events = roll(state, (6,), (1,))
    assert of_type(events, GameEnded)[0] == GameEnded(0, after.ranking, "red_stars")
    assert after.owner[PERU] == 0 and after.troops[PERU] == 1


# ---- the end ---------------------------------------------------------------------------------


def test_the_turn_cap_ends_in_a_draw_ranked_by_red_stars() -> None:
    """max_turns=1: when the first turn ends, the game is a draw ranked by Red Stars."""
    state = made(3, owner={VEN: 0, PERU: 1, JAPAN: 2}, max_turns=1, stars=(0, 2, 1))
    after, events = end_turn(state)
    assert of_type(events, GameEnded) == [GameEnded(-1, (1, 2, 0), "turn_cap")]
    assert RULES.outcome(after) is not None and RULES.decision(after).seats == ()


def test_resigning_clears_the_seats_troops_and_passes_its_turn() -> None:
    """The active seat resigns: its troops leave, its cards go back, the next seat plays."""
    state = made(3, owner={VEN: 0, PERU: 1, JAPAN: 2}, hands={0: [5, COINS[0]]},
                 scar_cards=(Scar.BUNKER, 0, 0))
    after, events = RULES.resign(state, 0)
    assert of_type(events, PlayerResigned) == [PlayerResigned(0)]
    assert after.owner[VEN] == -1 and after.troops[VEN] == 0 and after.out[0]
    assert not after.eliminated[0] and after.scar_cards[0] == 0
    assert after.current == 1 and 5 in after.discard and COINS[0] in after.coin_pile
    with pytest.raises(Exception, match="ALREADY_OUT"):
        RULES.resign(after, 0)


def test_a_defender_resigning_mid_battle_calls_the_battle_off() -> None:
    """Seat 1 leaves while seat 2 is asked about a missile: Peru is empty, seat 0 attacks on."""
    state = battle(missiles=(0, 0, 1))
    state, _ = roll(state, (3,), (2,))
    assert decider(state) == 2
    after, _ = RULES.resign(state, 1)
    assert after.phase is Phase.ATTACK and not after.windows and after.owner[PERU] == -1


def test_default_action_passes_in_windows_and_ends_the_attack() -> None:
    """A timed-out seat passes when asked, and ends its attack phase."""
    state, _ = roll(battle(missiles=(0, 0, 1)), (3,), (2,))
    assert RULES.default_action(state, 2) == Pass()
    assert RULES.default_action(battle(), 0) == EndAttack()
    defend = act(rigged(battle(), 1, 1), 0, Attack(VEN, PERU, 1))[0]
    assert RULES.default_action(defend, 1) == Defend(2)


def test_the_last_resignation_during_a_move_in_moves_the_least_in() -> None:
    """Seat 2 resigns while seat 0 decides its move-in, leaving seat 0 alone: the dice rolled
    move in, and seat 0 wins by resignation with no territory left empty."""
    state, _ = roll(battle(dfn=1), (6, 6, 6), (1,))
    assert state.phase is Phase.MOVE_IN
    state, _ = RULES.resign(state, 1)  # knocked off already: leaves nothing behind
    after, events = RULES.resign(state, 2)
    assert of_type(events, GameEnded) == [GameEnded(0, (0, 2, 1), "resignation")]
    assert after.troops[PERU] == 3 and after.troops[VEN] == 7
