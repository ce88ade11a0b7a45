"""The Risk Legacy campaign through its pure API (engine/legacy/campaign.py, docs/rules-legacy.md).

Games are created from `options_for_next_game`, played by the built-in bots (or brought to a
hand-made position with `legacy_states.made`, which keeps the campaign's options), recorded with
`record_game`, and rewarded with `legal_rewards` / `apply_reward`. The centre piece plays three
games in a row twice: the main campaign keeps a scar played in game 1, names a continent and
founds a city as game 1's rewards; a control campaign makes other choices (and cancels the
scar); in game 3 the same positions recruit and fight differently.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from legacy_states import COINS, RULES, act, made, of_type, rigged

from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.ruleset import Action, Event, is_legal
from risk_rules.engine.legacy import campaign as camp
from risk_rules.engine.legacy.campaign import (
    AddResource,
    CampaignPhase,
    CampaignState,
    CancelScar,
    CardUpgraded,
    ChangeContinentBonus,
    CityFortified,
    CityFounded,
    ContinentBonusChanged,
    ContinentNamed,
    DeclineReward,
    FortifyCity,
    FoundMajorCity,
    FoundMinorCity,
    NameContinent,
    PendingReward,
    RewardKind,
    RewardsDone,
    ScarCancelled,
)
from risk_rules.engine.legacy.model import (
    Attack,
    BattleResolved,
    BuyRedStar,
    EndAttack,
    EndTurn,
    JoinWar,
    LegacyState,
    Phase,
    PlayerEliminated,
    ScarPlayed,
    TroopsRecruited,
)
from risk_rules.engine.legacy.world import (
    City,
    CitySize,
    Faction,
    FactionChoice,
    Power,
    Scar,
    ScarMark,
    World,
)

FACTIONS = (1, 2, 3, 4)
POWERS = (1, 3, 5, 7)
SOUTH_AMERICA, ASIA, AUSTRALIA = 1, 4, 5
SA_TERRITORIES = CLASSIC_BOARD.regions[SOUTH_AMERICA].members
PERU, VEN, JAPAN = (CLASSIC_BOARD.index(n) for n in ("Peru", "Venezuela", "Japan"))


def fresh(players: int = 4) -> CampaignState:
    return camp.new_campaign(players, FACTIONS[:players], POWERS[:players])


def bot_game(campaign: CampaignState, seed: int) -> tuple[LegacyState, list[Event]]:
    """The campaign's next game, played to its end by the bots (entropy = action number)."""
    state, events = RULES.create(camp.options_for_next_game(campaign), seed)
    step = 0
    while RULES.outcome(state) is None:
        (seat,) = RULES.decision(state).seats
        state, produced = RULES.apply(state, seat, RULES.bot_action(state, seat, step))
        events.extend(produced)
        step += 1
    return state, events


Chooser = Callable[[PendingReward, list[Action]], Action]


def reward_all(campaign: CampaignState, choose: Chooser) -> tuple[CampaignState, list[Event]]:
    """Take every pending reward decision with `choose(pending, listed rewards)`."""
    events: list[Event] = []
    while campaign.phase is CampaignPhase.REWARDS:
        turn = campaign.pending[0]
        assert camp.campaign_decision(campaign).seats == (turn.seat,)
        listed = [e.action for e in camp.legal_rewards(campaign, turn.seat)]
        campaign, produced = camp.apply_reward(campaign, turn.seat, choose(turn, listed))
        events.extend(produced)
    return campaign, events


def first_of(listed: list[Action], kind: type[Action]) -> Action:
    return next((a for a in listed if isinstance(a, kind)), listed[0])


# ---- starting a campaign ---------------------------------------------------------------------


def test_new_campaign_fixes_factions_and_powers_and_is_ready() -> None:
    """The players' factions and powers go into the world; the first game may start."""
    campaign = fresh()
    assert campaign.phase is CampaignPhase.READY and campaign.games_played == 0
    assert campaign.players[2] == FactionChoice(Faction.IMPERIAL_BALKANIA, Power.ROUND_UP)
    assert campaign.world.factions == campaign.players
    assert camp.campaign_decision(campaign).seats == ()
    options = camp.options_for_next_game(campaign, max_turns=77)
    assert options.world == campaign.world and options.players == 4 and options.max_turns == 77
    assert camp.options_for_next_game(campaign).max_turns == 200


@pytest.mark.parametrize(
    ("players", "factions", "powers"),
    [
        (2, (1, 2), (1, 3)),  # too few
        (6, (1, 2, 3, 4, 5, 1), (1, 3, 5, 7, 9, 1)),  # too many
        (3, (1, 1, 2), (1, 2, 3)),  # a faction twice
        (3, (1, 2, 3), (1, 3, 7)),  # Khan's power for Balkania
        (3, (1, 2), (1, 3)),  # one short
        (3, (1, 2, 9), (1, 3, 5)),  # no such faction
    ],
)
def test_new_campaign_rejects_bad_input(
    players: int, factions: tuple[int, ...], powers: tuple[int, ...]
) -> None:
    """Player counts, repeated factions, foreign powers and short lists are INVALID_OPTIONS."""
    with pytest.raises(IllegalAction) as caught:
        camp.new_campaign(players, factions, powers)
    assert caught.value.reason is Reason.INVALID_OPTIONS


# ---- three games: what game 1 leaves behind changes game 3 ------------------------------------

GAME_SEEDS = (3, 8, 21)


def _three_games(
    winner_first: Chooser, winner_second: Chooser
) -> tuple[CampaignState, list[Event], list[Event]]:
    """Games 1 and 2 played by the bots; the winners' rewards by the given choosers, every other
    seat adds a resource (or takes what is listed). Returns the campaign ready for game 3, and
    game 1's and its rewards' events."""
    def rewards(winner: Chooser, first_survivor: Chooser) -> Chooser:
        seen: list[int] = []

        def choose(turn: PendingReward, listed: list[Action]) -> Action:
            if turn.kind is RewardKind.WINNER:
                return winner(turn, listed)
            seen.append(turn.seat)
            if len(seen) == 1:
                return first_survivor(turn, listed)
            return first_of(listed, AddResource)
        return choose

    campaign = fresh()
    final, game_events = bot_game(campaign, GAME_SEEDS[0])
    campaign = camp.record_game(campaign, final)
    campaign, reward_events = reward_all(campaign, rewards(winner_first, winner_first))
    final, _ = bot_game(campaign, GAME_SEEDS[1])
    campaign = camp.record_game(campaign, final)
    campaign, _ = reward_all(campaign, rewards(winner_second, _add_resource))
    assert campaign.phase is CampaignPhase.READY and campaign.games_played == 2
    return campaign, game_events, reward_events


def _add_resource(turn: PendingReward, listed: list[Action]) -> Action:
    return first_of(listed, AddResource)


@pytest.fixture(scope="module")
def campaigns() -> tuple[CampaignState, CampaignState, int, int]:
    """(main, control, the scar's territory, the city's territory) after two games."""
    scar_at: list[int] = []
    city_at: list[int] = []

    def main_first(turn: PendingReward, listed: list[Action]) -> Action:
        if turn.kind is RewardKind.WINNER:
            return NameContinent(SOUTH_AMERICA, "Cradle of Wars")
        city = first_of(listed, FoundMinorCity)
        assert isinstance(city, FoundMinorCity)
        city_at.append(city.territory)
        return FoundMinorCity(city.territory, "Haven")

    def main_second(turn: PendingReward, listed: list[Action]) -> Action:
        return ChangeContinentBonus(ASIA, -1)

    def control_first(turn: PendingReward, listed: list[Action]) -> Action:
        if turn.kind is RewardKind.WINNER:
            return ChangeContinentBonus(AUSTRALIA, 1)
        return first_of(listed, AddResource)  # no city

    def control_second(turn: PendingReward, listed: list[Action]) -> Action:
        return CancelScar(scar_at[0])

    main, game_events, reward_events = _three_games(main_first, main_second)
    played = of_type(game_events, ScarPlayed)
    assert played, "game 1 must see a scar card played (pick another seed)"
    scar_at.append(played[0].territory)
    assert of_type(reward_events, ContinentNamed) and of_type(reward_events, CityFounded)
    control, _, _ = _three_games(control_first, control_second)
    return main, control, scar_at[0], city_at[0]


def test_game_one_leaves_its_scar_city_and_name_in_the_world(
    campaigns: tuple[CampaignState, CampaignState, int, int],
) -> None:
    """The main campaign keeps all three; the control one kept none of them."""
    main, control, scar_at, city_at = campaigns
    assert any(m.territory == scar_at for m in main.world.scars)
    assert not any(m.territory == scar_at for m in control.world.scars)
    namer = main.history[0].winner
    assert [(n.continent, n.name, n.namer) for n in main.world.continent_names] == [
        (SOUTH_AMERICA, "Cradle of Wars", namer)
    ]
    assert not control.world.continent_names
    assert [(c.territory, c.size, c.name) for c in main.world.cities] == [
        (city_at, CitySize.MINOR, "Haven")
    ]
    assert not control.world.cities
    assert main.world.signatures != () and sum(main.world.signatures) == 2
    assert sum(main.world.scar_cards_used) == 4  # every card dealt in game 1 was played


def _recruitment(campaign: CampaignState, city_at: int) -> TroopsRecruited:
    """Game 3: the namer holds South America and the city's territory when its turn starts."""
    namer = campaign.history[0].winner
    before = (namer - 1) % 4
    held = {t: namer for t in (*SA_TERRITORIES, city_at)}
    other = next(t for t in range(42) if t not in held)
    state = made(options=camp.options_for_next_game(campaign), seed=GAME_SEEDS[2],
                 owner=held | {other: before}, current=before)
    state, events = act(state, before, EndAttack())
    if state.phase is Phase.MANEUVER:
        state, more = act(state, before, EndTurn())
        events += more
    (recruited,) = of_type(events, TroopsRecruited)
    assert recruited.seat == namer
    return recruited


def test_the_city_and_the_name_change_recruitment_in_game_three(
    campaigns: tuple[CampaignState, CampaignState, int, int],
) -> None:
    """Same position: the main campaign's namer recruits its city's population and +1 for its
    continent; the control campaign's does not."""
    main, control, _, city_at = campaigns
    assert main.history[0].winner == control.history[0].winner  # game 1 is the same game
    with_them = _recruitment(main, city_at)
    without = _recruitment(control, city_at)
    assert with_them.population - without.population == 1
    assert with_them.continent_bonus - without.continent_bonus == 1
    assert with_them.territories == without.territories


def _battle(campaign: CampaignState, scar_at: int, attack: int, defence: int) -> BattleResolved:
    """Game 3: seat 0 attacks the scarred territory (held by seat 1) with one die each (the
    winners' missiles put away, so no window opens)."""
    source = CLASSIC_BOARD.links[scar_at][0]
    state = made(options=camp.options_for_next_game(campaign), seed=GAME_SEEDS[2],
                 owner={source: 0, scar_at: 1, JAPAN if JAPAN not in (source, scar_at) else 0: 2},
                 troops={source: 5, scar_at: 3}, missiles=(0, 0, 0, 0))
    state = rigged(state, attack, defence)
    state, _ = act(state, 0, Attack(source, scar_at, 1))
    state, events = RULES.apply(state, 1, RULES.legal_actions(state, 1)[0].action)
    (result,) = of_type(events, BattleResolved)
    return result


def test_the_scar_played_in_game_one_changes_combat_in_game_three(
    campaigns: tuple[CampaignState, CampaignState, int, int],
) -> None:
    """The same dice on the scarred territory: the scar decides the battle in the main
    campaign, and the control campaign (which cancelled the scar) sees the other outcome."""
    main, control, scar_at, _ = campaigns
    (mark,) = (m for m in main.world.scars if m.territory == scar_at)
    attack, defence = (5, 4) if mark.scar is Scar.BUNKER else (4, 4)
    scarred = _battle(main, scar_at, attack, defence)
    plain = _battle(control, scar_at, attack, defence)
    assert scarred.defence_dice == plain.defence_dice == (defence,)
    assert scarred.defence_final != plain.defence_final
    assert scarred.defender_losses != plain.defender_losses


# ---- elimination versus being knocked off the board ------------------------------------------


def _crowded_position(campaign: CampaignState, **changes: object) -> LegacyState:
    """Seat 1's turn is ending; every territory but Peru (seat 3's own major city) is held by
    seats 0 and 1; seats 2 and 3 were knocked off the board; seat 0 holds 4 cards."""
    owner = {t: t % 2 for t in range(42) if t != PERU}
    settings: dict[str, object] = {"current": 1, **changes}
    return made(options=camp.options_for_next_game(campaign), seed=5, owner=owner,
                hands={0: [COINS[0], COINS[1], COINS[2], COINS[3]]}, stars=(3, 0, 0, 0),
                **settings)


def _home_city_campaign() -> CampaignState:
    campaign = fresh()
    world = dataclasses.replace(
        campaign.world, cities=(City(PERU, CitySize.MAJOR, "Home", 3),)
    )
    return dataclasses.replace(campaign, world=world)


def test_a_failed_join_eliminates_while_a_knocked_off_seat_joins_again() -> None:
    """Seat 2 has no legal start: eliminated and recorded. Seat 3 rejoins at its own major
    city, holds on, and gets a reward; seat 2 gets none."""
    campaign = _home_city_campaign()
    state = _crowded_position(campaign)
    state, events = act(state, 1, EndAttack())
    if state.phase is Phase.MANEUVER:
        state, more = act(state, 1, EndTurn())
        events += more
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(2)]
    assert state.current == 3 and {e.action for e in RULES.legal_actions(state, 3)} == {
        JoinWar(PERU)
    }
    state, _ = act(state, 3, JoinWar(PERU))
    state, _ = act(state, 3, EndAttack())
    if state.phase is Phase.MANEUVER:
        state, _ = act(state, 3, EndTurn())
    state, events = act(state, 0, BuyRedStar((1, 1, 1, 1)))
    assert RULES.outcome(state) is not None and state.winner == 0
    recorded = camp.record_game(campaign, state)
    assert recorded.history[-1].eliminated == (2,)
    assert recorded.world.eliminations == (0, 0, 1, 0)
    assert recorded.world.signatures == (1, 0, 0, 0)
    assert recorded.pending == (
        PendingReward(0, RewardKind.WINNER), PendingReward(1, RewardKind.SURVIVOR),
        PendingReward(3, RewardKind.SURVIVOR),
    )
    assert camp.legal_rewards(recorded, 2) == []
    with pytest.raises(IllegalAction) as caught:
        camp.apply_reward(recorded, 2, DeclineReward())
    assert caught.value.reason is Reason.NOT_YOUR_TURN
    rewarded, _ = camp.apply_reward(recorded, 0, NameContinent(ASIA))
    rewarded, _ = camp.apply_reward(rewarded, 1, first_of(
        [e.action for e in camp.legal_rewards(rewarded, 1)], FoundMinorCity))
    listed = [e.action for e in camp.legal_rewards(rewarded, 3)]
    assert listed == [AddResource(PERU)]  # Peru has a city already: only its card
    rewarded, events = camp.apply_reward(rewarded, 3, AddResource(PERU))
    assert of_type(events, CardUpgraded) == [CardUpgraded(3, PERU, 2)]
    assert rewarded.phase is CampaignPhase.READY
    nxt, _ = RULES.create(camp.options_for_next_game(rewarded), 1)
    assert nxt.stars == (0, 1, 1, 1) and nxt.missiles == (1, 0, 0, 0)


def test_a_seat_knocked_off_at_the_end_holds_on_with_nothing_to_choose() -> None:
    """The game ends before the knocked-off seats' turns: nobody is eliminated, every seat
    holds on, and those holding no territory can only decline."""
    campaign = _home_city_campaign()
    state = _crowded_position(campaign, current=0, phase=Phase.START, pending=3)
    state, _ = act(state, 0, BuyRedStar((1, 1, 1, 1)))
    recorded = camp.record_game(campaign, state)
    assert recorded.history[-1].eliminated == () and recorded.world.eliminations == ()
    assert [p.seat for p in recorded.pending] == [0, 1, 2, 3]
    rewarded, _ = camp.apply_reward(recorded, 0, NameContinent(ASIA))
    rewarded, _ = camp.apply_reward(rewarded, 1, camp.legal_rewards(rewarded, 1)[0].action)
    assert [e.action for e in camp.legal_rewards(rewarded, 2)] == [DeclineReward()]
    rewarded, events = camp.apply_reward(rewarded, 2, DeclineReward())
    rewarded, events = camp.apply_reward(rewarded, 3, DeclineReward())
    assert events[-1] == RewardsDone(1, CampaignPhase.READY)


# ---- recording a game ------------------------------------------------------------------------


def test_recording_keeps_scars_wear_and_uses_up_played_scar_cards() -> None:
    """Scars on the board at the end stay; played scar cards leave the supply; fortification
    marks used stay used; hands, troops and tokens are not kept."""
    campaign = fresh()
    final, events = bot_game(campaign, GAME_SEEDS[0])
    played = of_type(events, ScarPlayed)
    recorded = camp.record_game(campaign, final)
    assert {m.territory for m in recorded.world.scars} == {e.territory for e in played}
    kinds = [e.scar for e in played]
    assert recorded.world.scar_cards_used == (kinds.count(Scar.BUNKER),
                                              kinds.count(Scar.AMMO_SHORTAGE))
    assert recorded.phase is CampaignPhase.REWARDS and recorded.games_played == 1
    record = recorded.history[0]
    assert record.winner == final.winner and record.owner == final.owner
    assert record.hqs == final.hqs and record.turns == final.turn
    worn = dataclasses.replace(
        campaign,
        world=dataclasses.replace(
            campaign.world, cities=(City(PERU, CitySize.MINOR, "F", 0),),
        ),
    )
    state = made(options=camp.options_for_next_game(worn), owner={VEN: 0}, stars=(4, 0, 0, 0),
                 phase=Phase.FINISHED, winner=0, ranking=(0, 1, 2, 3), end_reason="red_stars",
                 fortifications=tuple(7 if t == PERU else 0 for t in range(42)))
    kept = camp.record_game(worn, state)
    assert [(f.territory, f.marks) for f in kept.world.fortifications] == [(PERU, 7)]


def test_recording_refuses_unfinished_or_foreign_games_and_pending_rewards() -> None:
    """Only a finished game of this campaign's world, and only while no reward is pending."""
    campaign = fresh()
    state, _ = RULES.create(camp.options_for_next_game(campaign), 1)
    with pytest.raises(IllegalAction) as caught:
        camp.record_game(campaign, state)
    assert caught.value.reason is Reason.GAME_NOT_FINISHED
    final, _ = bot_game(campaign, 2)
    other = camp.new_campaign(4, (5, 4, 3, 2), (9, 7, 5, 3))
    with pytest.raises(IllegalAction) as caught:
        camp.record_game(other, final)
    assert caught.value.reason is Reason.WRONG_CAMPAIGN
    recorded = camp.record_game(campaign, final)
    for call in (lambda: camp.record_game(recorded, final),
                 lambda: camp.options_for_next_game(recorded)):
        with pytest.raises(IllegalAction) as caught:
            call()
        assert caught.value.reason is Reason.CAMPAIGN_NOT_READY


def test_a_draw_at_the_cap_has_no_signature_and_only_held_on_rewards() -> None:
    """Nobody signs; every seat still in picks a held-on reward from the top-ranked seat."""
    campaign = fresh()
    state, _ = RULES.create(camp.options_for_next_game(campaign, max_turns=2), 9)
    step = 0
    while RULES.outcome(state) is None:
        (seat,) = RULES.decision(state).seats
        state, _ = RULES.apply(state, seat, RULES.bot_action(state, seat, step))
        step += 1
    assert state.end_reason == "turn_cap"
    recorded = camp.record_game(campaign, state)
    assert recorded.world.signatures == ()
    top = state.ranking[0]
    assert [p.seat for p in recorded.pending] == [(top + k) % 4 for k in range(4)]
    assert all(p.kind is RewardKind.SURVIVOR for p in recorded.pending)


# ---- rewards ---------------------------------------------------------------------------------


def _rewarding(world: World | None = None, owner: dict[int, int] | None = None,
               winner: int = 0) -> CampaignState:
    """A campaign waiting for game 1's rewards, with a hand-made end of game."""
    campaign = fresh()
    if world is not None:
        campaign = dataclasses.replace(campaign, world=dataclasses.replace(
            world, factions=campaign.world.factions))
    held = owner if owner is not None else {t: t % 4 for t in range(42)}
    state = made(options=camp.options_for_next_game(campaign), owner=held,
                 phase=Phase.FINISHED, winner=winner, ranking=(0, 1, 2, 3),
                 end_reason="red_stars")
    return camp.record_game(campaign, state)


def test_rewards_go_to_the_winner_then_clockwise_to_those_who_held_on() -> None:
    """Winner seat 2 first, then 3, 0, 1; each may only take its kind of reward."""
    campaign = _rewarding(winner=2)
    assert [(p.seat, p.kind) for p in campaign.pending] == [
        (2, RewardKind.WINNER), (3, RewardKind.SURVIVOR), (0, RewardKind.SURVIVOR),
        (1, RewardKind.SURVIVOR),
    ]
    assert camp.campaign_decision(campaign).kind == "winner_reward"
    assert camp.legal_rewards(campaign, 3) == []
    kinds = {type(e.action) for e in camp.legal_rewards(campaign, 2)}
    assert kinds == {NameContinent, FoundMajorCity, ChangeContinentBonus}
    campaign, _ = camp.apply_reward(campaign, 2, NameContinent(0, "Borealis"))
    assert camp.campaign_decision(campaign).kind == "survivor_reward"
    assert {type(e.action) for e in camp.legal_rewards(campaign, 3)} == {
        FoundMinorCity, AddResource
    }
    with pytest.raises(IllegalAction) as caught:
        camp.apply_reward(campaign, 3, FoundMajorCity(3))
    assert caught.value.reason is Reason.REWARD_NOT_OFFERED


def test_each_winner_reward_changes_the_world() -> None:
    """Name, major city, cancelled scar, bonus mark and fortification, each with its event."""
    base = World(scars=(ScarMark(PERU, Scar.AMMO_SHORTAGE),),
                 cities=(City(JAPAN, CitySize.MINOR, "J", 1),))
    cases: list[tuple[Action, type[Event]]] = [
        (NameContinent(2, ""), ContinentNamed),
        (FoundMajorCity(0, "Nome"), CityFounded),
        (CancelScar(PERU), ScarCancelled),
        (ChangeContinentBonus(2, -1), ContinentBonusChanged),
        (FortifyCity(JAPAN), CityFortified),
    ]
    for reward, event_type in cases:
        campaign = _rewarding(base)
        assert is_legal(camp.legal_rewards(campaign, 0), dataclasses.replace(reward, **(
            {"name": ""} if hasattr(reward, "name") else {})))
        after, events = camp.apply_reward(campaign, 0, reward)
        assert isinstance(events[0], event_type)
        world = after.world
        if isinstance(reward, NameContinent):
            assert world.continent_names[0].name == "Europe of Die Mechaniker"  # default
        elif isinstance(reward, FoundMajorCity):
            assert City(0, CitySize.MAJOR, "Nome", 0) in world.cities
        elif isinstance(reward, CancelScar):
            assert world.scars == ()
        elif isinstance(reward, ChangeContinentBonus):
            assert world.bonus_marks == (0, 0, -1, 0, 0, 0)
            assert events[0] == ContinentBonusChanged(0, 2, -1, 4)
        else:
            assert [(f.territory, f.marks) for f in world.fortifications] == [(JAPAN, 10)]


def test_reward_rules_refuse_with_reason_codes() -> None:
    """Named continents, taken territories, missing scars and cities, bonus limits, maxed cards,
    bad names, territories not held at the end, declining with options: each has its code."""
    w = World(continent_names=(),
              cities=(City(4, CitySize.MINOR, "x", 0),),
              bonus_marks=(0, -2, 0, 0, 0, 0),
              card_values=tuple(6 if t == 8 else 1 for t in range(42)))
    campaign = _rewarding(w)
    named, _ = camp.apply_reward(
        _rewarding(dataclasses.replace(w, continent_names=())), 0, NameContinent(3, "A")
    )
    cases: list[tuple[CampaignState, int, Action, Reason]] = [
        (campaign, 0, FoundMajorCity(4), Reason.CITY_EXISTS),
        (campaign, 0, FoundMajorCity(1), Reason.NOT_OWNER),
        (campaign, 0, FoundMajorCity(99), Reason.NO_SUCH_TERRITORY),
        (campaign, 0, CancelScar(4), Reason.NO_SCAR),
        (campaign, 0, FortifyCity(8), Reason.NO_CITY),
        (campaign, 0, ChangeContinentBonus(1, -1), Reason.BONUS_LIMIT),  # 2 - 2 - 1 < 0
        (campaign, 0, ChangeContinentBonus(0, 2), Reason.BONUS_LIMIT),
        (campaign, 0, NameContinent(7), Reason.NO_SUCH_CONTINENT),
        (campaign, 0, NameContinent(0, " padded"), Reason.INVALID_NAME),
        (campaign, 0, NameContinent(0, "x" * 41), Reason.INVALID_NAME),
        (campaign, 0, DeclineReward(), Reason.REWARD_AVAILABLE),
        (campaign, 1, NameContinent(0), Reason.NOT_YOUR_TURN),
        (campaign, 9, NameContinent(0), Reason.NOT_A_SEAT),
    ]
    for state, seat, reward, reason in cases:
        assert not is_legal(camp.legal_rewards(state, seat), reward)
        with pytest.raises(IllegalAction) as caught:
            camp.apply_reward(state, seat, reward)
        assert caught.value.reason is reason, (reward, caught.value)
    survivor, _ = camp.apply_reward(campaign, 0, NameContinent(0))
    assert survivor.pending[0].seat == 1
    with pytest.raises(IllegalAction) as caught:
        camp.apply_reward(survivor, 1, AddResource(8))  # Central America: held by seat 0
    assert caught.value.reason is Reason.NOT_OWNER
    maxed = _rewarding(w, owner={t: 1 if t == 8 else t % 4 for t in range(42)})
    maxed, _ = camp.apply_reward(maxed, 0, NameContinent(0))
    with pytest.raises(IllegalAction) as caught:
        camp.apply_reward(maxed, 1, AddResource(8))
    assert caught.value.reason is Reason.CARD_MAXED
    with pytest.raises(IllegalAction) as caught:
        camp.apply_reward(named, 1, FoundMajorCity(1))
    assert caught.value.reason is Reason.REWARD_NOT_OFFERED
    ready = fresh()
    with pytest.raises(IllegalAction) as caught:
        camp.apply_reward(ready, 0, NameContinent(0))
    assert caught.value.reason is Reason.NO_REWARD_PENDING


def test_city_marks_run_out() -> None:
    """With all 9 minor cities founded, those who held on can only add resources."""
    nine = tuple(City(t, CitySize.MINOR, f"m{t}", 0) for t in range(20, 29))
    campaign, _ = camp.apply_reward(_rewarding(World(cities=nine)), 0, NameContinent(0))
    assert {type(e.action) for e in camp.legal_rewards(campaign, 1)} == {AddResource}
    with pytest.raises(IllegalAction) as caught:
        camp.apply_reward(campaign, 1, FoundMinorCity(1))
    assert caught.value.reason is Reason.SUPPLY_EMPTY


def test_every_listed_reward_is_accepted_with_any_name() -> None:
    """legal_rewards lists what apply_reward accepts; a listed name "" may be any name."""
    campaign = _rewarding(World(scars=(ScarMark(PERU, Scar.BUNKER),),
                                cities=(City(JAPAN, CitySize.MINOR, "J", 1),)))
    while campaign.phase is CampaignPhase.REWARDS:
        seat = campaign.pending[0].seat
        listed = camp.legal_rewards(campaign, seat)
        for entry in listed:
            camp.apply_reward(campaign, seat, entry.action)
            if hasattr(entry.action, "name"):
                camp.apply_reward(campaign, seat,
                                  dataclasses.replace(entry.action, name="New Name 7"))
        campaign, _ = camp.apply_reward(campaign, seat, listed[-1].action)


def test_a_campaign_runs_fifteen_games_and_completes() -> None:
    """Fifteen bot games with bot rewards: the world grows, then the campaign is complete."""
    campaign = camp.new_campaign(5, (1, 2, 3, 4, 5), (2, 4, 6, 8, 10))
    for game in range(15):
        final, _ = bot_game(campaign, 500 + game)
        campaign = camp.record_game(campaign, final)
        while campaign.phase is CampaignPhase.REWARDS:
            (seat,) = camp.campaign_decision(campaign).seats
            reward = camp.campaign_bot_reward(campaign, seat, game)
            assert is_legal(camp.legal_rewards(campaign, seat), reward)
            campaign, _ = camp.apply_reward(campaign, seat, reward)
    assert campaign.phase is CampaignPhase.COMPLETE and campaign.games_played == 15
    assert len(campaign.history) == 15 and campaign.world.cities
    assert sum(campaign.world.signatures) == sum(1 for r in campaign.history if r.winner >= 0)
    assert camp.campaign_decision(campaign).kind == "complete"
    for call in (lambda: camp.options_for_next_game(campaign),
                 lambda: camp.record_game(campaign, final)):
        with pytest.raises(IllegalAction) as caught:
            call()
        assert caught.value.reason is Reason.CAMPAIGN_COMPLETE
