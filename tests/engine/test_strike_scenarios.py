"""Risk Strike rule by rule, from hand-made states (strike_states.py, docs/rules-strike.md)."""

from __future__ import annotations

import dataclasses

import pytest
from strike_states import (
    AF,
    AS,
    AU,
    EU,
    NA,
    RULES,
    SA,
    act,
    all_cards,
    cont,
    decider,
    made,
    of_type,
    pass_until,
    passes,
    refused,
    rigged,
    tac,
)

from risk_rules.engine.core.errors import Reason
from risk_rules.engine.core.ruleset import Event
from risk_rules.engine.strike.cards import ALL_CARDS, tactic_of
from risk_rules.engine.strike.model import (
    HIDDEN,
    Attack,
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
    Tactic,
    TacticPlayed,
    TacticResolved,
    TacticsDrawn,
    TroopsDeployed,
    TroopsDiscarded,
    TroopsReturned,
    TurnEnded,
    TurnStarted,
)

TROOPS, ARTILLERY, SABOTAGE, SPY = Tactic.TROOPS, Tactic.ARTILLERY, Tactic.SABOTAGE, Tactic.SPY
RALLY, EXPAND, BOMBARD, CANCEL = Tactic.RALLY, Tactic.EXPAND, Tactic.BOMBARD, Tactic.CANCEL_ORDER
A, D = Side.ATTACKER, Side.DEFENDER


def _battle_state(
    *,
    continents: dict[int, list[int]] | None = None,
    hands: dict[int, list[int]] | None = None,
    auto_pass: bool = False,
) -> StrikeState:
    """3 players: seat 0 (North America x2) may attack seat 1 (Europe x2); seat 2 looks on."""
    if continents is None:
        continents = {0: cont(NA, 2), 1: cont(EU, 2), 2: cont(AF, 1)}
    if hands is None:
        hands = {0: tac(TROOPS, 2), 1: tac(TROOPS, 1, skip=2), 2: tac(TROOPS, 2, skip=3)}
    return made(3, continents=continents, hands=hands, auto_pass=auto_pass)


def _through_deploy(state: StrikeState, *deploys: Deploy | Pass) -> StrikeState:
    """Declare nothing; answer the deploy round with `deploys` in the order asked."""
    for action in deploys:
        state, _ = act(state, decider(state), action)
    return state


def _events_until(state: StrikeState, done: object) -> tuple[StrikeState, list[Event]]:
    events: list[Event] = []
    state = pass_until(state, done, events)
    return state, events


# ---- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_deals_three_of_each_and_extra_tactics_to_all_but_the_first(players: int) -> None:
    """3 continent cards face up and 3 tactics each; all but the first player draw 1 more."""
    state, events = RULES.create(StrikeOptions(players=players), 21)
    first = state.first_seat
    assert of_type(events, OrderRolled)[-1].winner == first == state.current
    for seat in range(players):
        extra_continent = players == 2 and seat != first
        assert len(state.continents[seat]) == 3 + extra_continent
        assert len(state.hands[seat]) == (3 if seat == first else 4)
    assert state.phase is Phase.DRAW and state.turn == 1
    decks = of_type(events, DeckShuffled)
    assert [(e.deck, e.cards) for e in decks] == [(Deck.CONTINENT, 42), (Deck.TACTICS, 40)]
    assert all_cards(state) == list(range(ALL_CARDS))


def test_two_players_second_player_draws_an_extra_continent_card() -> None:
    """With 2 players the one who does not start also draws one more continent card."""
    state, events = RULES.create(StrikeOptions(players=2), 5)
    second = 1 - state.first_seat
    drawn = [e for e in of_type(events, ContinentCardsDrawn) if e.seat == second]
    assert [len(e.cards) for e in drawn] == [3, 1]


def test_roll_for_first_player_rerolls_ties() -> None:
    """Tied high rollers roll again until one is highest."""
    for seed in range(200):
        _, events = RULES.create(StrikeOptions(players=5), seed)
        rounds = of_type(events, OrderRolled)
        if len(rounds) > 1:
            assert rounds[0].winner == -1
            high = max(rounds[0].rolls)
            tied = tuple(s for s, r in zip(rounds[0].seats, rounds[0].rolls, strict=True)
                         if r == high)
            assert rounds[1].seats == tied
            return
    pytest.fail("no seed with a tied roll-off")


# ---- the turn --------------------------------------------------------------------------------


@pytest.mark.parametrize("continent_cards", [0, 1, 2])
def test_draw_two_cards_in_any_mix(continent_cards: int) -> None:
    """The turn starts with 2 cards: 2 continent, 2 tactics, or one of each."""
    state = made(3, continents={0: cont(NA, 1)}, phase=Phase.DRAW)
    after, _ = act(state, 0, DrawCards(continent_cards))
    assert len(after.continents[0]) == 1 + continent_cards
    assert len(after.hands[0]) == 2 - continent_cards
    assert after.phase is Phase.MAIN
    assert refused(state, 0, DrawCards(3)) is Reason.INVALID_DRAW


def test_passing_draws_one_tactics_card_and_ends_the_turn() -> None:
    """Pass: one more tactics card, and play goes to the left (the next seat)."""
    state = made(3, continents={0: cont(NA, 1)}, current=0)
    after, events = act(state, 0, PassTurn())
    assert len(after.hands[0]) == 1
    assert of_type(events, TurnEnded)[0].seat == 0
    assert of_type(events, TurnStarted)[0].seat == 1
    assert after.current == 1 and after.phase is Phase.DRAW


def test_a_tactics_draw_is_seen_only_by_the_drawer() -> None:
    """Others see that tactics cards were drawn, not which; continent cards are public."""
    state = made(3, phase=Phase.DRAW)
    _, events = act(state, 0, DrawCards(1))
    (tactics,) = of_type(events, TacticsDrawn)
    (continent,) = of_type(events, ContinentCardsDrawn)
    assert tactics.for_viewer(0) == tactics
    for viewer in (1, 2, None):
        shown = tactics.for_viewer(viewer)
        assert isinstance(shown, TacticsDrawn) and shown.cards == (HIDDEN,)
        assert continent.for_viewer(viewer) == continent


# ---- declaring an attack ---------------------------------------------------------------------


def test_attack_from_a_held_continent_into_the_same_or_a_linked_one() -> None:
    """The attacker holds a card of its continent, the defender of its; same or linked."""
    state = made(3, continents={0: cont(NA, 1) + cont(AU, 1), 1: cont(EU, 1) + cont(SA, 1),
                                2: cont(AU, 1, skip=1)})
    listed = {e.action for e in RULES.legal_actions(state, 0)}
    assert Attack(1, NA, EU) in listed and Attack(1, NA, SA) in listed
    assert Attack(2, AU, AU) in listed  # the same continent
    assert refused(state, 0, Attack(1, AU, SA)) is Reason.NOT_LINKED
    assert refused(state, 0, Attack(1, EU, EU)) is Reason.NO_CONTINENT_CARD
    assert refused(state, 0, Attack(1, NA, AF)) is Reason.NO_CONTINENT_CARD
    assert refused(state, 0, Attack(0, NA, NA)) is Reason.NOT_AN_OPPONENT
    assert refused(state, 0, Attack(1, 6, EU)) is Reason.NO_SUCH_CONTINENT


def test_deploy_order_is_attacker_defender_then_supporters_from_the_attacker() -> None:
    """4 players, seat 2 attacks seat 0: deploy asks 2, 0, then 3 and 1 (clockwise from 2)."""
    state = made(4, current=2, continents={2: cont(NA, 1), 0: cont(EU, 1)},
                 hands={s: tac(TROOPS, 1, skip=s) for s in range(4)})
    state, _ = act(state, 2, Attack(0, NA, EU))
    asked = []
    for _ in range(4):
        asked.append(decider(state))
        state, _ = act(state, decider(state), Pass())
    assert asked == [2, 0, 3, 1]
    assert state.phase is Phase.AFTER_DEPLOY


def test_supporters_say_which_side_and_their_troops_count_for_it() -> None:
    """A supporter may deploy for either side; its Troops add to that side's dice."""
    state = rigged(_battle_state(), 6, 6, 6, 1, 1)
    state, _ = act(state, 0, Attack(1, NA, EU))
    state = _through_deploy(state, Pass(), Pass())
    legal = {e.action for e in RULES.legal_actions(state, 2)}
    assert {Deploy(A, 1), Deploy(D, 1), Pass()} <= legal
    state, events = act(state, 2, Deploy(A, 2))
    assert of_type(events, TroopsDeployed)[0] == TroopsDeployed(2, A, tuple(tac(TROOPS, 2, 3)))
    assert state.sides == (A, D, A)
    state, events = _events_until(state, lambda s: s.phase is Phase.AFTER_ROLL)
    (rolled,) = of_type(events, DiceRolled)
    assert len(rolled.attack) == 3  # 2 continent cards + 2 supporting Troops, capped at 3
    assert len(rolled.defence) == 2


def test_dice_are_participating_cards_capped_at_three_and_two() -> None:
    """1 card and no Troops rolls 1 die; the defender's 5 cards roll only 2."""
    state = rigged(made(3, continents={0: cont(NA, 1), 1: cont(EU, 5)}), 6, 1, 1)
    state, _ = act(state, 0, Attack(1, NA, EU))
    state, events = _events_until(state, lambda s: s.phase is Phase.AFTER_ROLL)
    (rolled,) = of_type(events, DiceRolled)
    assert (len(rolled.attack), len(rolled.defence)) == (1, 2)


def test_troops_cannot_be_cancelled_no_window_follows_a_deployment() -> None:
    """Deploying asks the next deployer at once; Cancel Order is not playable there."""
    state = _battle_state(hands={0: tac(TROOPS, 1), 1: tac(CANCEL, 1), 2: []})
    state, _ = act(state, 0, Attack(1, NA, EU))
    state, events = act(state, 0, Deploy(A, 1))
    assert not of_type(events, TacticPlayed)
    assert decider(state) == 1 and RULES.decision(state).kind == "deploy"
    assert refused(state, 1, PlayCancelOrder()) is Reason.WRONG_PHASE


def test_deploy_rejects_the_wrong_side_and_too_many_cards() -> None:
    """The attacker deploys only for itself, and only Troops it holds."""
    state = _battle_state()
    state, _ = act(state, 0, Attack(1, NA, EU))
    assert refused(state, 0, Deploy(D, 1)) is Reason.WRONG_SIDE
    assert refused(state, 0, Deploy(A, 3)) is Reason.TOO_MANY_CARDS
    assert refused(state, 0, Deploy(A, 0)) is Reason.TOO_FEW_CARDS


# ---- rolling and losses ----------------------------------------------------------------------


def _rolled(
    state: StrikeState,
    *dice: int,
    deploys: tuple[Deploy | Pass, ...] = (),
    attack: Attack = Attack(1, NA, EU),  # noqa: B008 - a frozen value
) -> StrikeState:
    """Seat 0 attacks (seat 1, from North America into Europe) with fixed dice; stop in the
    after-roll window."""
    state = rigged(state, *dice)
    state, _ = act(state, 0, attack)
    state = _through_deploy(state, *deploys)
    return pass_until(state, lambda s: s.phase is Phase.AFTER_ROLL)


def test_ties_go_to_the_defender() -> None:
    """Equal dice: the attacking side loses."""
    state = _rolled(made(3, continents={0: cont(NA, 1), 1: cont(EU, 1)}), 4, 4)
    state, events = _events_until(state, lambda s: not s.windows)
    (resolved,) = of_type(events, BattleResolved)
    assert (resolved.attacker_losses, resolved.defender_losses) == (1, 0)


def test_losses_take_active_troops_own_first_then_supporters() -> None:
    """The defending side loses its leader's Troops before a supporter's."""
    state = _battle_state(hands={0: [], 1: tac(TROOPS, 1), 2: tac(TROOPS, 2, skip=1)})
    state = _rolled(state, 6, 6, 1, 1, deploys=(Pass(), Deploy(D, 1), Deploy(D, 2)))
    state, events = _events_until(state, lambda s: not s.windows)
    lost = [(e.seat, e.cards) for e in of_type(events, TroopsDiscarded)]
    assert lost == [(1, tuple(tac(TROOPS, 1))), (2, (tac(TROOPS, 1, skip=1)[0],))]
    assert not of_type(events, ContinentCardLost)
    assert state.troops[2] == tuple(tac(TROOPS, 1, skip=2))


def test_without_troops_the_defender_hands_a_card_to_the_attacker() -> None:
    """An attacker's win with no defending Troops gives the attacker a card of the continent."""
    state = _rolled(made(3, continents={0: cont(NA, 1), 1: cont(EU, 2)}), 6, 1)
    state, events = _events_until(state, lambda s: not s.windows)
    (lost,) = of_type(events, ContinentCardLost)
    assert lost == ContinentCardLost(1, cont(EU, 1)[0], 0)
    assert cont(EU, 1)[0] in state.continents[0]


def test_without_troops_the_attacker_surrenders_a_card_of_its_continent() -> None:
    """A defender's win with no attacking Troops puts an attacker's card on the surrender pile."""
    state = _rolled(made(3, continents={0: cont(NA, 2), 1: cont(EU, 1)}), 2, 3, 5)
    state, events = _events_until(state, lambda s: not s.windows)
    losses = of_type(events, ContinentCardLost)
    assert [(e.seat, e.to_seat) for e in losses] == [(0, -1)]
    assert state.surrender == (cont(NA, 1)[0],)


def test_the_attacker_may_roll_again_while_both_hold_cards() -> None:
    """After a roll with cards left on both sides the attacker rolls again or stops."""
    state = _rolled(made(3, continents={0: cont(NA, 3), 1: cont(EU, 3)}), 6, 1, 1, 1)
    state = pass_until(state, lambda s: not s.windows)
    assert state.phase is Phase.CONTINUE and RULES.decision(state).kind == "continue"
    again = rigged(state, 2, 2, 2, 3, 3)
    again, events = act(again, 0, RollAgain())
    assert of_type(events, DiceRolled) and again.phase is Phase.AFTER_ROLL and again.rolls == 2
    stopped, events = act(state, 0, StopAttack())
    assert of_type(events, BattleEnded)[0].reason == "stopped"
    assert stopped.current == 1 and stopped.phase is Phase.DRAW


def test_the_battle_ends_when_a_side_runs_out_and_troops_are_discarded() -> None:
    """The defender's last card lost ends the battle; remaining Troops go to the discards."""
    state = _battle_state(continents={0: cont(NA, 1), 1: cont(EU, 1)},
                          hands={0: tac(TROOPS, 1), 1: [], 2: []})
    state = _rolled(state, 6, 6, 1, deploys=(Deploy(A, 1), Pass(), Pass()))
    state, events = _events_until(state, lambda s: not s.windows)
    assert of_type(events, BattleEnded)[0].reason == "exhausted"
    ended = [e for e in of_type(events, TroopsDiscarded) if e.reason == "battle_end"]
    assert ended == [TroopsDiscarded(0, tuple(tac(TROOPS, 1)), "battle_end")]
    assert tac(TROOPS, 1)[0] in state.tactics_discard
    assert state.current == 1 and state.troops == ((), (), ())


def test_one_attack_a_turn_the_turn_ends_with_the_battle() -> None:
    """After the battle the next player's turn starts; no second attack, no pass draw."""
    state = _rolled(made(3, continents={0: cont(NA, 2), 1: cont(EU, 1)}), 6, 6, 1)
    state, events = _events_until(state, lambda s: not s.windows)
    assert of_type(events, TurnEnded) == [TurnEnded(0)]
    assert state.current == 1 and len(state.hands[0]) == 0


# ---- tactics cards ---------------------------------------------------------------------------


def test_cancel_order_cancels_a_card_and_can_itself_be_cancelled() -> None:
    """Spy by 0, cancelled by 1, whose Cancel is cancelled by 0: the Spy takes effect."""
    state = made(3, continents={0: cont(NA, 1)},
                 hands={0: tac(SPY, 1) + tac(CANCEL, 1), 1: tac(CANCEL, 1, skip=1), 2: []})
    state, _ = act(state, 0, PlaySpy(1))
    assert RULES.decision(state).kind == "cancel"
    state, _ = act(state, 1, PlayCancelOrder())
    assert decider(state) == 0  # the window reopened: the active player is asked first
    state, _ = act(state, 0, PlayCancelOrder())
    events: list[Event] = []
    state, seats = passes(state, 2, events)
    assert seats == [1, 2]
    resolved = [(e.seat, e.card, e.effective) for e in of_type(events, TacticResolved)]
    assert resolved == [(0, CANCEL, True), (1, CANCEL, False), (0, SPY, True)]
    assert of_type(events, HandRevealed)
    assert state.plays == () and state.windows == ()


def test_cancel_order_stops_the_card() -> None:
    """A cancelled Spy shows nothing and draws nothing; both cards go to the discards."""
    state = made(3, continents={0: cont(NA, 1)},
                 hands={0: tac(SPY, 1), 1: tac(CANCEL, 1), 2: []})
    state, _ = act(state, 0, PlaySpy(2))
    state, _ = act(state, 1, PlayCancelOrder())
    events: list[Event] = []
    state, _ = passes(state, 2, events)
    assert not of_type(events, HandRevealed) and not of_type(events, TacticsDrawn)
    assert sorted(state.tactics_discard) == sorted(tac(SPY, 1) + tac(CANCEL, 1))
    assert state.phase is Phase.MAIN and decider(state) == 0


def test_nobody_may_cancel_their_own_card() -> None:
    """The player of the card on top is not asked in its Cancel window."""
    state = made(3, continents={0: cont(NA, 1)}, hands={0: tac(SPY, 1) + tac(CANCEL, 1)})
    state, _ = act(state, 0, PlaySpy(1))
    assert state.windows[-1].order == (1, 2)


def test_sabotage_right_after_deployment_returns_troops_and_ends_the_turn() -> None:
    """Sabotage: the battle ends, every active Troops card goes back to its owner's hand."""
    state = _battle_state(hands={0: tac(TROOPS, 2), 1: tac(TROOPS, 1, skip=2),
                                 2: tac(SABOTAGE, 1)})
    state, _ = act(state, 0, Attack(1, NA, EU))
    state = _through_deploy(state, Deploy(A, 2), Deploy(D, 1), Pass())
    assert state.phase is Phase.AFTER_DEPLOY
    state, _ = passes(state, 2)
    state, _ = act(state, 2, PlaySabotage())
    events: list[Event] = []
    state, _ = passes(state, 2, events)
    assert [e.seat for e in of_type(events, TroopsReturned)] == [0, 1]
    assert of_type(events, BattleEnded)[0].reason == "sabotage"
    assert state.hands[0] == tuple(tac(TROOPS, 2)) and state.hands[1] == tuple(tac(TROOPS, 1, 2))
    assert state.current == 1 and state.phase is Phase.DRAW
    assert not of_type(events, TacticsDrawn), "no pass draw after a sabotaged attack"


def test_sabotage_only_right_after_deployment() -> None:
    """In the after-roll window Sabotage is out of time."""
    state = _rolled(_battle_state(hands={0: [], 1: [], 2: tac(SABOTAGE, 1)}), 3, 3, 2)
    assert refused(state, 0, PlaySabotage()) is Reason.WRONG_PHASE


def test_bombard_turns_one_die_into_a_six_and_repairs() -> None:
    """Bombard on the attacker's 2: (5, 2) becomes (6, 5) and beats (4, 3) twice."""
    state = _battle_state(continents={0: cont(NA, 2), 1: cont(EU, 2)},
                          hands={0: tac(BOMBARD, 1), 1: [], 2: []})
    state = _rolled(state, 2, 5, 3, 4, deploys=(Pass(), Pass(), Pass()))
    assert state.attack_dice == (5, 2) and state.defence_dice == (4, 3)
    assert {e.action for e in RULES.legal_actions(state, 0)} >= {
        PlayBombard(A, 0), PlayBombard(A, 1), PlayBombard(D, 0), PlayBombard(D, 1)}
    state, _ = act(state, 0, PlayBombard(A, 1))
    events: list[Event] = []
    state, _ = passes(state, 2, events)
    assert of_type(events, DiceChanged) == [DiceChanged(0, BOMBARD, (6, 5), (4, 3))]
    state, more = _events_until(state, lambda s: not s.windows)
    (resolved,) = of_type(more, BattleResolved)
    assert resolved.defender_losses == 2


def test_rally_adds_two_to_each_die_of_the_players_side() -> None:
    """The defender's Rally turns (4, 3) into (6, 5)."""
    state = _battle_state(continents={0: cont(NA, 2), 1: cont(EU, 2)},
                          hands={0: [], 1: tac(RALLY, 1), 2: []})
    state = _rolled(state, 6, 5, 4, 3, deploys=(Pass(), Pass(), Pass()))
    state, _ = act(state, 0, Pass())
    state, _ = act(state, 1, PlayRally())
    events: list[Event] = []
    state, _ = passes(state, 2, events)
    assert of_type(events, DiceChanged) == [DiceChanged(1, RALLY, (6, 5), (6, 5))]


def test_rally_and_bombard_only_for_players_in_the_battle() -> None:
    """A seat that deployed nothing for either side may not Rally or Bombard."""
    state = _rolled(_battle_state(hands={0: [], 1: [], 2: tac(RALLY, 1) + tac(BOMBARD, 1)}),
                    3, 3, 2, deploys=(Pass(), Pass(), Pass()))
    state, _ = passes(state, 2)
    assert decider(state) == 2
    assert refused(state, 2, PlayRally()) is Reason.NOT_IN_BATTLE
    assert refused(state, 2, PlayBombard(A, 0)) is Reason.NOT_IN_BATTLE


def test_artillery_makes_a_chosen_player_discard_up_to_two_active_troops() -> None:
    """Artillery by a bystander after deployment: the attacker loses 2 of its 3 Troops."""
    state = _battle_state(hands={0: tac(TROOPS, 3), 1: [], 2: tac(ARTILLERY, 1)})
    state, _ = act(state, 0, Attack(1, NA, EU))
    state = _through_deploy(state, Deploy(A, 3), Pass(), Pass())
    state, _ = passes(state, 2)
    assert refused(state, 2, PlayArtillery(1)) is Reason.INVALID_TARGET  # no active Troops
    state, _ = act(state, 2, PlayArtillery(0))
    events: list[Event] = []
    state, _ = passes(state, 2, events)
    assert of_type(events, TroopsDiscarded) == [
        TroopsDiscarded(0, tuple(tac(TROOPS, 2)), "artillery")]
    assert state.troops[0] == tuple(tac(TROOPS, 1, skip=2))


def test_spy_reveal_reaches_only_the_spy_then_draws_one() -> None:
    """The reveal is one event: the spy sees the cards, everyone else hidden ids."""
    target_hand = tac(TROOPS, 2) + tac(RALLY, 1)
    state = made(3, continents={0: cont(NA, 1)}, hands={0: tac(SPY, 1), 1: target_hand})
    state, _ = act(state, 0, PlaySpy(1))
    events: list[Event] = []
    state, _ = passes(state, 2, events)
    (reveal,) = of_type(events, HandRevealed)
    assert reveal == HandRevealed(0, 1, tuple(sorted(target_hand)))
    assert reveal.for_viewer(0) == reveal
    for viewer in (1, 2, None):
        shown = reveal.for_viewer(viewer)
        assert isinstance(shown, HandRevealed) and shown.cards == (HIDDEN,) * 3
    assert len(state.hands[0]) == 1 and of_type(events, TacticsDrawn)[0].seat == 0


def test_spy_and_expand_only_in_the_players_own_turn() -> None:
    """Out of turn (in an after-deployment window) Spy and Expand are out of time."""
    state = _battle_state(hands={0: [], 1: tac(SPY, 1) + tac(EXPAND, 1), 2: []})
    state, _ = act(state, 0, Attack(1, NA, EU))
    state = _through_deploy(state, Pass(), Pass(), Pass())
    state, _ = passes(state, 1)
    assert refused(state, 1, PlaySpy(0)) is Reason.WRONG_PHASE
    assert refused(state, 1, PlayExpand(True)) is Reason.WRONG_PHASE


@pytest.mark.parametrize(("continent_cards", "gained", "drawn"), [(True, 2, 0), (False, 0, 1)])
def test_expand_draws_two_continent_cards_or_one_tactics(
    continent_cards: bool, gained: int, drawn: int
) -> None:
    """Expand: 2 continent cards or 1 tactics card, in the player's own turn."""
    state = made(3, continents={0: cont(NA, 1)}, hands={0: tac(EXPAND, 1)})
    state, _ = act(state, 0, PlayExpand(continent_cards))
    state, _ = passes(state, 2)
    assert len(state.continents[0]) == 1 + gained and len(state.hands[0]) == drawn
    assert state.phase is Phase.MAIN


# ---- windows: who is asked -------------------------------------------------------------------


def test_the_decision_names_the_seat_the_window_asks() -> None:
    """After deployment the window asks the attacker, the defender, then clockwise."""
    state = made(4, current=2, continents={2: cont(NA, 1), 0: cont(EU, 1)})
    state, _ = act(state, 2, Attack(0, NA, EU))
    state = pass_until(state, lambda s: s.phase is Phase.AFTER_DEPLOY)
    assert state.windows[-1].order == (2, 0, 3, 1)
    seen = []
    for _ in range(4):
        decision = RULES.decision(state)
        seen.append(decision.seats)
        assert decision.kind == "after_deploy"
        state, _ = act(state, decision.seats[0], Pass())
    assert seen == [(2,), (0,), (3,), (1,)]
    assert state.phase is Phase.AFTER_ROLL


def test_a_seat_with_nothing_to_play_is_still_asked() -> None:
    """Without auto_pass every seat is asked (its only choice is Pass): timing reveals nothing."""
    state = _battle_state(hands={0: [], 1: [], 2: []})
    state, _ = act(state, 0, Attack(1, NA, EU))
    for seat in (0, 1, 2):
        assert decider(state) == seat
        assert [e.action for e in RULES.legal_actions(state, seat)] == [Pass()]
        state, _ = act(state, seat, Pass())


def test_auto_pass_answers_for_seats_with_nothing_to_play() -> None:
    """With auto_pass, seats that could play nothing are passed for, and it says so."""
    state = _battle_state(hands={0: [], 1: tac(TROOPS, 1), 2: []}, auto_pass=True)
    state, events = act(state, 0, Attack(1, NA, EU))
    assert of_type(events, Passed) == [Passed(0, True)]
    assert decider(state) == 1
    state, events = act(state, 1, Deploy(D, 1))
    assert Passed(2, True) in of_type(events, Passed)


def test_a_response_reopens_the_after_roll_window() -> None:
    """A Rally by the third seat asks the first two again afterwards."""
    state = _battle_state(hands={0: [], 1: [], 2: tac(TROOPS, 1) + tac(RALLY, 1)})
    state = _rolled(state, 3, 3, 2, deploys=(Pass(), Pass(), Deploy(A, 1)))
    state, _ = passes(state, 2)
    state, _ = act(state, 2, PlayRally())
    state, _ = passes(state, 2)  # the Cancel window: 0 and 1
    assert state.windows[-1].passed == () and decider(state) == 0


# ---- domination --------------------------------------------------------------------------------


def test_domination_coin_from_the_bank() -> None:
    """Reaching South America's number (3) takes its coin from the bank."""
    state = made(3, continents={0: cont(SA, 2)}, phase=Phase.DRAW)
    state = dataclasses.replace(state, continent_deck=(cont(SA, 1, skip=2)[0],
                                                       *state.continent_deck[1:]))
    state, events = act(state, 0, DrawCards(1))
    assert of_type(events, CoinTaken) == [CoinTaken(0, SA, -1)]
    assert state.coins[SA] == 0


def test_domination_coin_from_another_player_kept_below_the_number() -> None:
    """Seat 1 keeps South America's coin with 1 card until seat 0 meets the number."""
    coins = (-1, 1, -1, -1, -1, -1)
    state = made(3, continents={0: cont(SA, 2), 1: cont(SA, 1, skip=3)}, phase=Phase.DRAW,
                 coins=coins)
    after_pass, _ = act(made(3, continents={1: cont(SA, 1)}, coins=coins), 0, PassTurn())
    assert after_pass.coins[SA] == 1, "below the number, the holder keeps the coin"
    state = dataclasses.replace(state, continent_deck=(cont(SA, 1, skip=2)[0],
                                                       *state.continent_deck[1:]))
    state, events = act(state, 0, DrawCards(1))
    assert of_type(events, CoinTaken) == [CoinTaken(0, SA, 1)]


def test_two_coins_win_at_once() -> None:
    """A second coin ends the game at once, in the middle of the turn."""
    coins = (-1, -1, -1, -1, -1, 0)
    state = made(3, continents={0: cont(SA, 2) + cont(AU, 1)}, phase=Phase.DRAW, coins=coins)
    state = dataclasses.replace(state, continent_deck=(cont(SA, 1, skip=2)[0],
                                                       *state.continent_deck[1:]))
    state, events = act(state, 0, DrawCards(2))
    assert of_type(events, GameEnded)[0].reason == "domination"
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winner == 0 and outcome.ranking[0] == 0


def test_a_card_taken_in_battle_can_take_the_coin() -> None:
    """The attacker's captured card counts at once: its third Australia card wins the coin."""
    state = _rolled(made(3, continents={0: cont(AU, 2), 1: cont(AU, 1, skip=2) + cont(AS, 1)}),
                    6, 6, 1, attack=Attack(1, AU, AU))
    state, events = _events_until(state, lambda s: not s.windows)
    assert CoinTaken(0, AU, -1) in of_type(events, CoinTaken)


# ---- decks -------------------------------------------------------------------------------------


def test_empty_continent_deck_reshuffles_the_surrender_pile() -> None:
    """No continent cards left: the surrender pile becomes the new deck."""
    state = made(3, phase=Phase.DRAW, continent_deck=(), surrender=tuple(cont(AS, 5)))
    state, events = act(state, 0, DrawCards(2))
    assert DeckShuffled(Deck.CONTINENT, 5) in events
    assert len(state.continent_deck) == 3 and state.surrender == ()


def test_empty_tactics_deck_reshuffles_the_discards() -> None:
    """No tactics cards left: the discards become the new deck."""
    state = made(3, phase=Phase.DRAW, tactics_deck=(), tactics_discard=tuple(tac(TROOPS, 4)))
    state, events = act(state, 0, DrawCards(0))
    assert DeckShuffled(Deck.TACTICS, 4) in events
    assert len(state.hands[0]) == 2 and state.tactics_discard == ()


# ---- hidden hands ------------------------------------------------------------------------------


def test_a_view_shows_only_the_viewers_own_tactics_hand() -> None:
    """Own hand shown, others' counts only; continent cards are public."""
    state = made(3, continents={0: cont(NA, 2), 1: cont(EU, 1)},
                 hands={0: tac(SPY, 1), 1: tac(TROOPS, 2), 2: tac(RALLY, 1)})
    for viewer in (0, 1, 2, None):
        view = RULES.view(state, viewer)
        assert view.hand == (state.hands[viewer] if viewer is not None else ())
        assert view.hand_counts == (1, 2, 1)
        assert view.continents == state.continents
    for card in state.hands[1]:
        assert card not in RULES.view(state, 0).hand


# ---- the end: turn cap, resignation, default actions ------------------------------------------


def test_turn_cap_ends_in_a_ranked_draw() -> None:
    """At max_turns the game is a draw ranked by coins, continent cards, tactics, seat."""
    state = made(3, continents={0: cont(NA, 1), 1: cont(EU, 3), 2: cont(AF, 3)},
                 hands={2: tac(TROOPS, 1)}, coins=(-1, -1, -1, 0, -1, -1), max_turns=1)
    state, events = act(state, 0, PassTurn())
    (ended,) = of_type(events, GameEnded)
    assert (ended.winner, ended.reason) == (-1, "turn_cap")
    assert ended.ranking == (0, 2, 1)


def test_resignation_sends_cards_to_the_piles_and_coins_to_the_bank() -> None:
    """A resigning seat's continent cards go to the surrender pile, tactics to the discards."""
    state = made(3, continents={1: cont(SA, 3)}, hands={1: tac(SPY, 1)},
                 coins=(-1, 1, -1, -1, -1, -1))
    after, events = RULES.resign(state, 1)
    assert of_type(events, PlayerResigned) == [PlayerResigned(1)]
    assert after.surrender == tuple(cont(SA, 3)) and after.tactics_discard == tuple(tac(SPY, 1))
    assert after.coins[SA] == -1 and after.out == (False, True, False)
    assert decider(after) == 0
    assert all_cards(after) == list(range(ALL_CARDS))


def test_a_defender_resigning_mid_battle_ends_the_battle() -> None:
    """The battle ends (Troops discarded) and the attacker's turn passes on."""
    state = _battle_state(hands={0: tac(TROOPS, 1), 1: [], 2: []})
    state, _ = act(state, 0, Attack(1, NA, EU))
    state, _ = act(state, 0, Deploy(A, 1))
    after, events = RULES.resign(state, 1)
    assert of_type(events, BattleEnded)[0].reason == "resigned"
    assert after.current == 2 and after.phase is Phase.DRAW
    assert all_cards(after) == list(range(ALL_CARDS))


def test_a_bystander_resigning_while_asked_moves_the_window_on() -> None:
    """The asked seat leaves: the next seat is asked, the window still closes normally."""
    state = _battle_state(hands={0: [], 1: [], 2: []})
    state, _ = act(state, 0, Attack(1, NA, EU))
    state, _ = passes(state, 2)
    after, _ = RULES.resign(state, 2)
    assert after.phase is Phase.AFTER_DEPLOY and decider(after) == 0


def test_last_seat_in_wins_by_resignation() -> None:
    """With one seat left it wins by resignation."""
    state = made(2, continents={0: cont(NA, 1)})
    after, _ = RULES.resign(state, 1)
    outcome = RULES.outcome(after)
    assert outcome is not None and (outcome.winner, outcome.reason) == (0, "resignation")
    assert outcome.ranking == (0, 1)


def test_default_action_passes_windows_and_otherwise_takes_the_passive_choice() -> None:
    """Timeouts: pass in windows and deployments, draw one of each, pass the turn, stop."""
    state = _battle_state(hands={0: tac(TROOPS, 1), 1: tac(CANCEL, 1), 2: tac(SABOTAGE, 1)})
    draw = dataclasses.replace(state, phase=Phase.DRAW)
    assert RULES.default_action(draw, 0) == DrawCards(1)
    assert RULES.default_action(state, 0) == PassTurn()
    state, _ = act(state, 0, Attack(1, NA, EU))
    assert RULES.default_action(state, 0) == Pass()
    state = rigged(state, 6, 1, 5, 1)  # (6, 1) against (5, 1): one loss each, cards left
    state = pass_until(state, lambda s: s.phase is Phase.AFTER_ROLL)
    assert RULES.default_action(state, decider(state)) == Pass()
    state = pass_until(state, lambda s: s.phase is not Phase.AFTER_ROLL)
    assert state.phase is Phase.CONTINUE
    assert RULES.default_action(state, 0) == StopAttack()
    with pytest.raises(Exception, match="NOT_YOUR_TURN"):
        RULES.default_action(state, 2)


def test_every_tactics_id_has_its_type() -> None:
    """The 40 tactics ids follow the documented table (18 Troops first, Cancel Order last)."""
    assert [tactic_of(c) for c in (42, 59, 60, 63, 67, 69, 72, 76, 79, 81)] == [
        TROOPS, TROOPS, ARTILLERY, SABOTAGE, SPY, RALLY, EXPAND, BOMBARD, CANCEL, CANCEL]
