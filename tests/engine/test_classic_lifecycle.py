"""Classic resignations and the default action a timed-out seat takes."""

from __future__ import annotations

import pytest

from risk_rules.engine.classic.model import (
    Attack,
    ClassicOptions,
    Defend,
    EndAttack,
    EndTurn,
    GameEnded,
    MoveIn,
    Phase,
    PlaceArmies,
    PlayerResigned,
    TradeCards,
    TurnStarted,
)
from risk_rules.engine.core.errors import IllegalAction, Reason
from tests.engine.classic_states import RULES, act, hand_made, of_type, rigged, t


def test_resigned_territories_turn_neutral_and_cards_are_discarded() -> None:
    """A resigning seat's pieces stay on the board as the neutral; its hand goes to discard."""
    state = hand_made(3, owners={"Alaska": 1, "Peru": 1, "Japan": 2}, rest=0,
                      armies={"Alaska": 4}, hands={1: [5, 9, 42]}, current=2,
                      phase=Phase.REINFORCE, pending=3)
    after, events = RULES.resign(state, 1)
    assert after.owner[t("Alaska")] == 3 and after.owner[t("Peru")] == 3
    assert after.armies[t("Alaska")] == 4
    assert after.hands[1] == () and set(after.discard) >= {5, 9, 42}
    assert of_type(events, PlayerResigned) == [PlayerResigned(1, 3)]
    assert after.current == 2 and after.phase is Phase.REINFORCE, "another seat's turn goes on"
    assert RULES.decision(after).seats == (2,)


def test_current_seat_resigning_passes_the_turn() -> None:
    """When the active seat resigns, its turn ends and the next live seat starts one."""
    state = hand_made(3, owners={"Alaska": 1, "Japan": 2}, rest=0, current=0,
                      phase=Phase.ATTACK)
    after, events = RULES.resign(state, 0)
    started = of_type(events, TurnStarted)
    assert started and started[0].seat == 1 and after.phase is Phase.REINFORCE


def test_last_seat_standing_wins_by_resignation() -> None:
    """When all but one seat have resigned, the last one wins and the game has no actions."""
    state = hand_made(3, owners={"Alaska": 1, "Japan": 2}, rest=0, current=0)
    state, _ = RULES.resign(state, 2)
    state, events = RULES.resign(state, 1)
    (ended,) = of_type(events, GameEnded)
    assert ended.winner == 0 and ended.reason == "resignation"
    assert ended.ranking == (0, 1, 2), "the last one out ranks above the first one out"
    assert all(not RULES.legal_actions(state, s) for s in range(3))
    with pytest.raises(IllegalAction) as refused:
        RULES.resign(state, 0)
    assert refused.value.reason is Reason.GAME_OVER


def test_resigning_twice_is_refused() -> None:
    """A seat that is out cannot resign again."""
    state = hand_made(4, owners={"Alaska": 1, "Japan": 2, "Peru": 3}, rest=0, current=0)
    state, _ = RULES.resign(state, 3)
    with pytest.raises(IllegalAction) as refused:
        RULES.resign(state, 3)
    assert refused.value.reason is Reason.ALREADY_OUT


def test_neutral_territory_of_a_resigned_seat_defends_with_most_dice() -> None:
    """Attacking a resigned seat's territory asks no one: it rolls the most dice it can."""
    state = hand_made(3, owners={"Alaska": 0, "Kamchatka": 1, "Japan": 2}, rest=2,
                      armies={"Alaska": 5, "Kamchatka": 3}, current=0, phase=Phase.ATTACK,
                      auto_defend_max_dice=False)
    state, _ = RULES.resign(state, 1)
    state = rigged(state, 6, 6, 6, 1, 1)
    after, _ = act(state, 0, Attack(t("Alaska"), t("Kamchatka"), 3))
    assert after.phase is Phase.ATTACK
    assert after.armies[t("Kamchatka")] == 1, "two defence dice, both lost"


def test_defender_resigning_mid_battle_lets_the_neutral_roll() -> None:
    """A defender who resigns while choosing dice hands the battle to the neutral's dice."""
    state = hand_made(3, owners={"Alaska": 0, "Kamchatka": 1, "Japan": 2}, rest=2,
                      armies={"Alaska": 5, "Kamchatka": 3}, current=0, phase=Phase.ATTACK,
                      auto_defend_max_dice=False)
    state, _ = act(state, 0, Attack(t("Alaska"), t("Kamchatka"), 3))
    assert RULES.decision(state).seats == (1,)
    after, _ = RULES.resign(state, 1)
    assert after.phase in (Phase.ATTACK, Phase.MOVE_IN)
    assert RULES.decision(after).seats == (0,)


def test_attacker_resigning_before_move_in_leaves_no_empty_territory() -> None:
    """An attacker who resigns after a conquest still moves the dice's armies in."""
    state = hand_made(3, owners={"Alaska": 0, "Kamchatka": 1, "Japan": 2, "Peru": 0}, rest=2,
                      armies={"Alaska": 6, "Kamchatka": 1}, current=0, phase=Phase.ATTACK,
                      auto_defend_max_dice=True)
    state = rigged(state, 6, 6, 6, 1)
    state, _ = act(state, 0, Attack(t("Alaska"), t("Kamchatka"), 3))
    assert state.phase is Phase.MOVE_IN
    after, _ = RULES.resign(state, 0)
    assert after.armies[t("Kamchatka")] == 3 and after.owner[t("Kamchatka")] == 3
    assert all(a >= 1 for a in after.armies)


def test_resigning_during_claims_skips_the_seat() -> None:
    """A seat that resigns during the claim keeps no turn in the setup."""
    state, _ = RULES.create(ClassicOptions(players=3), 9)
    leaving = (state.current + 1) % 3
    state, _ = RULES.resign(state, leaving)
    seen = set()
    while state.phase is Phase.CLAIM or state.phase is Phase.SETUP_PLACE:
        (seat,) = RULES.decision(state).seats
        seen.add(seat)
        state, _ = RULES.apply(state, seat, RULES.default_action(state, seat))
    assert leaving not in seen and state.phase is Phase.REINFORCE


@pytest.mark.parametrize(
    ("phase", "expected"),
    [(Phase.ATTACK, EndAttack()), (Phase.FORTIFY, EndTurn())],
)
def test_default_action_ends_the_phase(phase: Phase, expected: object) -> None:
    """A timed-out seat ends its attack or fortify phase."""
    state = hand_made(3, owners={"Alaska": 1, "Japan": 2}, rest=0, current=0, phase=phase,
                      armies={"Peru": 5})
    assert RULES.default_action(state, 0) == expected


def test_default_action_places_everything_on_a_border() -> None:
    """In reinforce, all pending armies go to the lowest-numbered own territory on a border."""
    state = hand_made(3, owners={"Alaska": 1, "Kamchatka": 0, "Japan": 2}, rest=1, current=0,
                      phase=Phase.REINFORCE, pending=7)
    action = RULES.default_action(state, 0)
    assert action == PlaceArmies(t("Kamchatka"), 7)


def test_default_action_trades_when_forced_defends_with_most_moves_in_least() -> None:
    """Forced trade: the first set; defence: most dice; move-in: the minimum."""
    forced = hand_made(3, owners={"Alaska": 1}, rest=0, current=0, phase=Phase.REINFORCE,
                       pending=3, hands={0: [0, 3, 6, 9, 12]})
    assert isinstance(RULES.default_action(forced, 0), TradeCards)
    state = hand_made(3, owners={"Alaska": 0, "Kamchatka": 1, "Japan": 2}, rest=2,
                      armies={"Alaska": 6, "Kamchatka": 4}, current=0, phase=Phase.ATTACK,
                      auto_defend_max_dice=False)
    state, _ = act(state, 0, Attack(t("Alaska"), t("Kamchatka"), 3))
    assert RULES.default_action(state, 1) == Defend(2)
    state = hand_made(3, owners={"Alaska": 0, "Kamchatka": 1, "Japan": 2}, rest=2,
                      armies={"Alaska": 6, "Kamchatka": 1}, current=0, phase=Phase.ATTACK,
                      auto_defend_max_dice=True)
    state, _ = act(rigged(state, 6, 6, 1, 1), 0, Attack(t("Alaska"), t("Kamchatka"), 2))
    assert state.phase is Phase.MOVE_IN
    assert RULES.default_action(state, 0) == MoveIn(2)
