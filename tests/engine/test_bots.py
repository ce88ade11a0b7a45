"""The bot levels of every variant: legal, deterministic, blind to hidden information, and the
planner clearly stronger than random.

States come from games played by a mix of levels (so every level meets the positions the
others lead to) from seeds drawn by Hypothesis. At each of them every level must pick an action
its seat's legal actions admit, the same one for the same entropy, and the same one again when
everything the seat may not see (other hands, deck order, the seed and the generator) is
changed. The matches use fixed seeds, so their results are the same on every run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from risk_rules.engine import get_ruleset
from risk_rules.engine.classic.model import Attack, EndAttack, MoveIn, Phase, PlaceArmies
from risk_rules.engine.core.bots import LEVELS, check_level, conquest_odds
from risk_rules.engine.core.ruleset import is_legal
from risk_rules.engine.deep_space import model as deep_space_model
from risk_rules.engine.legacy.model import BuyRedStar
from tests.engine.classic_states import hand_made, t

VARIANTS = ("classic", "deep_space", "legacy", "strike")
PLAYERS = 4
MAX_ACTIONS = 60_000  # far above any game these bots play; beyond it a game has stalled
# Fields that hold cards no seat sees the order of (dealt from the top, first card first).
DECKS = ("deck", "continent_deck", "tactics_deck", "coin_pile")
# Where the cards of the other seats' hands could have come from instead, per variant
# (Deep Space's hands are public: dealt face up).
HAND_SOURCES = {"classic": "deck", "legacy": "deck", "strike": "tactics_deck"}
SEATS = {"classic": (2, 6), "deep_space": (2, 4), "legacy": (3, 5), "strike": (2, 5)}


def _options(variant: str, players: int = PLAYERS) -> Any:
    rules = get_ruleset(variant)
    options = rules.default_options(players)
    if variant == "classic":  # bot seats defend with the most dice (as the service sets up)
        options = dataclasses.replace(options, auto_defend_max_dice=True)
    return options


def _states(variant: str, seed: int, levels: tuple[str, ...], every: int,
            limit: int) -> Iterator[tuple[Any, int]]:
    """(state, deciding seat) at every `every`-th decision of a game played by `levels` (one
    seat per level)."""
    rules = get_ruleset(variant)
    state, _ = rules.create(_options(variant, len(levels)), seed)
    for step in range(limit * every):
        if rules.outcome(state) is not None:
            return
        seat = rules.decision(state).seats[0]
        if step % every == 0:
            yield state, seat
        action = rules.bot_action(state, seat, seed * 7919 + step, levels[seat])
        state, _ = rules.apply(state, seat, action)


def _scrambled(variant: str, state: Any, viewer: int) -> Any:
    """`state` with everything `viewer` may not see changed: the other seats' hands swapped
    for cards of the deck they are drawn from (same sizes), every deck's order reversed, the
    other seats' Legacy scar cards swapped for the other kind, and another seed and generator
    state."""
    changes: dict[str, Any] = {
        "seed": state.seed + 1,
        "rng_state": state.rng_state ^ 0x9E3779B97F4A7C15,
    }
    source = HAND_SOURCES.get(variant)
    decks = {name: list(getattr(state, name)) for name in DECKS if hasattr(state, name)}
    if source is not None:
        hands = list(state.hands)
        pile = decks[source]
        for seat, hand in enumerate(hands):
            if seat == viewer or not hand or len(pile) < len(hand):
                continue
            taken, pile[:len(hand)] = pile[:len(hand)], list(hand)
            hands[seat] = tuple(sorted(taken))
        changes["hands"] = tuple(hands)
    for name, cards in decks.items():
        changes[name] = tuple(reversed(cards))
    if hasattr(state, "scar_cards"):  # Legacy: which scar another seat holds (1 or 2) is hidden
        changes["scar_cards"] = tuple(
            held if seat == viewer or not held else 3 - held
            for seat, held in enumerate(state.scar_cards))
    return dataclasses.replace(state, **changes)


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 2**31), mix=st.lists(st.sampled_from(LEVELS), min_size=6, max_size=6),
       seats=st.integers(0, 4))
def test_every_level_picks_only_legal_actions_deterministically_and_blind(
        variant: str, seed: int, mix: list[str], seats: int) -> None:
    """At states of games of every seat count played by a random mix of levels, every level's
    pick is legal, the same for the same entropy, and unchanged when the seat's hidden
    information changes."""
    rules = get_ruleset(variant)
    fewest, most = SEATS[variant]
    players = fewest + seats % (most - fewest + 1)
    checked = 0
    for state, seat in _states(variant, seed, tuple(mix[:players]), every=7, limit=60):
        legal = rules.legal_actions(state, seat)
        other = _scrambled(variant, state, seat)
        assert rules.legal_actions(other, seat) == legal
        for level in LEVELS:
            entropy = seed ^ (checked * 104729)
            action = rules.bot_action(state, seat, entropy, level)
            assert is_legal(legal, action), f"{variant} {level}: {action} is not legal"
            assert rules.bot_action(state, seat, entropy, level) == action
            assert rules.bot_choose(rules.view(state, seat), legal, entropy, level) == action
            assert rules.bot_action(other, seat, entropy, level) == action, (
                f"{variant} {level} decided differently on hidden information")
            rules.apply(state, seat, action)  # and the rules accept it
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_default_level_is_greedy(variant: str) -> None:
    """A caller that names no level gets the greedy bot, the policy recorded games were made
    with (tests/golden replays it), whatever the entropy."""
    rules = get_ruleset(variant)
    for state, seat in _states(variant, 11, ("greedy",) * PLAYERS, every=5, limit=30):
        for entropy in (0, 1, 2**40 + 3):
            assert rules.bot_action(state, seat, entropy) == \
                rules.bot_action(state, seat, entropy, "greedy")


def test_an_unknown_level_is_refused_by_name() -> None:
    """The levels are the three the tournament rounds name; any other is a ValueError that
    names them."""
    assert LEVELS == ("random", "greedy", "planner")
    rules = get_ruleset("classic")
    state, _ = rules.create(_options("classic"), 3)
    seat = rules.decision(state).seats[0]
    with pytest.raises(ValueError, match="random, greedy, planner"):
        rules.bot_action(state, seat, 1, "expert")
    assert check_level("planner") == "planner"


def test_the_random_level_spreads_over_the_legal_actions() -> None:
    """The random level is uniform over the listed entries: over many entropies at a state with
    a few dozen choices it picks most of them, ending the phase among them."""
    rules = get_ruleset("classic")
    for state, seat in _states("classic", 5, ("greedy",) * PLAYERS, every=1, limit=5000):
        legal = rules.legal_actions(state, seat)
        if len(legal) >= 10 and state.phase.name == "ATTACK":
            break
    else:
        pytest.fail("no attack step with 10 choices in the first 5000 steps")
    picks = {rules.bot_action(state, seat, entropy, "random") for entropy in range(600)}
    assert len(picks) >= 0.8 * len(legal)
    assert any(type(p).__name__ == "EndAttack" for p in picks)


def test_the_dice_odds_are_the_known_ones() -> None:
    """The planners' odds: a lone attacker against one defender wins 5/12 (a die beating a
    die), and the chance grows with the attacker's armies."""
    assert conquest_odds(1, 1) == pytest.approx(15 / 36)
    assert conquest_odds(3, 1) > conquest_odds(2, 1) > conquest_odds(1, 1)
    assert conquest_odds(10, 5) > 0.8 > conquest_odds(5, 10)
    assert conquest_odds(500, 500) == pytest.approx(conquest_odds(80, 80), abs=0.05)


def _match(variant: str, strong: str, weak: str, games: int) -> tuple[int, int]:
    """(games the `strong` seat won, games that hit the turn cap), its seat rotated."""
    rules = get_ruleset(variant)
    wins = capped = 0
    for game in range(games):
        seat_of_strong = game % PLAYERS
        levels = tuple(strong if s == seat_of_strong else weak for s in range(PLAYERS))
        state, _ = rules.create(_options(variant), 1000 + game)
        for step in range(MAX_ACTIONS):
            outcome = rules.outcome(state)
            if outcome is not None:
                break
            seat = rules.decision(state).seats[0]
            action = rules.bot_action(state, seat, (game << 32) | step, levels[seat])
            state, _ = rules.apply(state, seat, action)
        else:
            pytest.fail(f"{variant} game {game} did not end in {MAX_ACTIONS} actions")
        wins += outcome.winner == seat_of_strong
        capped += outcome.reason == "turn_cap"
    return wins, capped


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_planner_beats_random_clearly(variant: str) -> None:
    """In 20 four-seat games, one planner against three random seats (its seat rotated) wins
    at least 13: chance alone wins 5 on average, and 13 or more with probability under 1 in
    5,000 (the seeds are fixed, so the result is the same on every run)."""
    wins, _ = _match(variant, "planner", "random", 20)
    assert wins >= 13, f"{variant}: the planner won only {wins} of 20 against random"


def test_planner_games_end_well_before_the_classic_turn_cap() -> None:
    """Four classic planners finish their games by conquest: none of 8 reaches the cap, which
    a quarter of the greedy bots' games do."""
    _, capped = _match("classic", "planner", "planner", 8)
    assert capped == 0


# ---- the classic planner's turn, on hand-made boards ------------------------------------------


def _planner(state: Any, seat: int = 0) -> Any:
    return get_ruleset("classic").bot_action(state, seat, 7, "planner")


def test_the_classic_planner_attacks_with_the_odds_and_stops_without_them() -> None:
    """With 10 armies next to a lone defender the planner attacks it with 3 dice; with 3
    armies against 8 it ends the attack instead of throwing its armies away."""
    strong = hand_made(3, owners={"Kamchatka": 1, "Greenland": 2},
                       armies={"Alaska": 10, "Kamchatka": 1, "Greenland": 8})
    assert _planner(strong) == Attack(t("Alaska"), t("Kamchatka"), 3)
    weak = hand_made(3, owners={"Kamchatka": 1, "Greenland": 2},
                     armies={"Alaska": 3, "Kamchatka": 8, "Northwest Territory": 1,
                             "Greenland": 8})
    assert _planner(weak) == EndAttack()


def test_the_classic_planner_masses_its_reinforcements_on_one_front() -> None:
    """All pending armies go on one border territory in a single placement, next to what the
    plan takes (Siam's weak neighbour), not spread one at a time."""
    state = hand_made(3, owners={"Indonesia": 1, "China": 2, "India": 2, "Ural": 2},
                      armies={"Indonesia": 1, "China": 9, "India": 9, "Ural": 9},
                      phase=Phase.REINFORCE, pending=7, rest=0)
    placed = _planner(state)
    assert isinstance(placed, PlaceArmies) and placed.count == 7
    assert placed.territory in (t("Siam"), t("New Guinea"), t("Western Australia"))


def test_the_classic_planner_moves_everything_forward_from_an_inland_territory() -> None:
    """After a conquest that leaves the territory behind without enemy neighbours, every army
    that may move goes forward."""
    state = hand_made(3, owners={"Kamchatka": 1, "Japan": 1},
                      armies={"Alaska": 1, "Kamchatka": 9, "Japan": 1},
                      phase=Phase.MOVE_IN, attack_from=t("Kamchatka"), attack_to=t("Japan"),
                      attack_dice=3, rest=0)
    state = dataclasses.replace(state, owner=tuple(
        0 if territory == t("Japan") else held for territory, held in enumerate(state.owner)))
    legal = get_ruleset("classic").legal_actions(state, 0)
    assert _planner(state) == MoveIn(legal[0].max_count)


# ---- the other planners' priorities, at states found in played games --------------------------


def _found(variant: str, wanted: type, unwanted: tuple[type, ...] = ()) -> list[tuple[Any, int]]:
    """States of greedy games whose deciding seat may take a `wanted` action and none of the
    `unwanted` kinds."""
    rules = get_ruleset(variant)
    found = []
    for seed in (1, 2):
        for state, seat in _states(variant, seed, ("greedy",) * PLAYERS, every=1, limit=1000):
            kinds = {type(entry.action) for entry in rules.legal_actions(state, seat)}
            if wanted in kinds and not kinds & set(unwanted):
                found.append((state, seat))
    assert found, f"no {variant} state offers {wanted.__name__}"
    return found


def test_the_deep_space_planner_builds_every_base_it_can() -> None:
    """Once mining is over (nothing left to mine or trade), a base the seat can build is built
    before anything else."""
    rules = get_ruleset("deep_space")
    build = deep_space_model.BuildBase
    for state, seat in _found("deep_space", build,
                              (deep_space_model.Mine, deep_space_model.TradeCards)):
        assert isinstance(rules.bot_action(state, seat, 3, "planner"), build)


def test_the_legacy_planner_buys_a_red_star_whenever_it_can() -> None:
    """A Red Star is the way to win Legacy: offered one, the planner buys it, with its
    cheapest cards."""
    rules = get_ruleset("legacy")
    for state, seat in _found("legacy", BuyRedStar):
        offers = [e.action for e in rules.legal_actions(state, seat)
                  if isinstance(e.action, BuyRedStar)]
        bought = rules.bot_action(state, seat, 3, "planner")
        assert isinstance(bought, BuyRedStar)
        assert sum(bought.values) == min(sum(offer.values) for offer in offers)
