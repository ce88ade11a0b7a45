"""Random playouts of Risk Strike with the engine's invariants checked after every action.

Bots choose through `bot_action` (with entropy from Hypothesis or a fixed seed list); some
players instead pick a uniformly random listed action, and some seats resign now and then, so
rare paths are walked too. After every action: all 82 cards are somewhere exactly once, the six
coins are each in the bank or with a seat still in, the decision names exactly one seat (the one
with legal actions), no view shows another seat's tactics hand, and drawn or spied cards reach
only their owner; every apply and resignation returned at least one event (a follower of the
stream sees every version). A deterministic run over a fixed list of games prints how many
finished and asserts that every tactics card type was played, a coin changed hands between
players, and that Sabotage, a supporter and Cancel Order all happened.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strike_states import all_cards

from risk_rules.engine import IllegalAction, Reason, get_ruleset
from risk_rules.engine.core.ruleset import Action, Event, LegalAction
from risk_rules.engine.strike.cards import ALL_CARDS, COINS, CONTINENT_CARDS
from risk_rules.engine.strike.model import (
    HIDDEN,
    CoinTaken,
    DrawCards,
    HandRevealed,
    Pass,
    PassTurn,
    Phase,
    StrikeOptions,
    StrikeState,
    StrikeView,
    Tactic,
    TacticPlayed,
    TacticResolved,
    TacticsDrawn,
    TroopsDeployed,
)

RULES = get_ruleset("strike")
SECRET_FIELDS = {"continent_deck", "tactics_deck", "seed", "rng_state", "rng_inc", "hands",
                 "first_seat"}
MAX_ACTIONS = 50_000  # far above any capped game; a playout that exceeds it has stalled


# ---- one playout ----------------------------------------------------------------------------


def _scramble_secrets(state: StrikeState, viewer: int | None) -> StrikeState:
    """The same public game with every secret the viewer may not know changed."""
    hands = tuple(
        hand if seat == viewer else tuple(
            CONTINENT_CARDS + (c - CONTINENT_CARDS + 1) % 40 for c in hand
        )
        for seat, hand in enumerate(state.hands)
    )
    return dataclasses.replace(
        state,
        seed=state.seed ^ 0x5A5A,
        rng_state=state.rng_state ^ 0xFFFF,
        rng_inc=state.rng_inc ^ 0x10,
        continent_deck=state.continent_deck[::-1],
        tactics_deck=state.tactics_deck[::-1],
        hands=hands,
    )


def _check_cards_and_coins(state: StrikeState) -> None:
    assert all_cards(state) == list(range(ALL_CARDS)), "a card was lost or duplicated"
    assert len(state.coins) == COINS
    for holder in state.coins:
        assert holder == -1 or (0 <= holder < state.options.players and not state.out[holder])
    for seat, out in enumerate(state.out):
        if out:
            assert state.hands[seat] == () and state.continents[seat] == ()


def _check_decision(state: StrikeState) -> dict[int, list[LegalAction]]:
    """The decision seats are exactly the seats with legal actions; returns the lists."""
    players = state.options.players
    legal = {seat: RULES.legal_actions(state, seat) for seat in range(players)}
    acting = {seat for seat, entries in legal.items() if entries}
    decision = RULES.decision(state)
    assert set(decision.seats) == acting
    if state.phase is Phase.FINISHED:
        assert decision.seats == ()
        outcome = RULES.outcome(state)
        assert outcome is not None and sorted(outcome.ranking) == list(range(players))
        if outcome.reason == "turn_cap":
            assert outcome.winner == -1 and state.turn == state.options.max_turns
        elif outcome.reason == "domination":
            assert state.coins.count(outcome.winner) >= 2
        for action in (Pass(), PassTurn(), DrawCards(1)):
            with pytest.raises(IllegalAction) as caught:
                RULES.apply(state, 0, action)
            assert caught.value.reason is Reason.GAME_OVER
    else:
        assert len(decision.seats) == 1 and RULES.outcome(state) is None
        (seat,) = decision.seats
        assert not state.out[seat]
    return {seat: entries for seat, entries in legal.items() if entries}


def _check_views(state: StrikeState) -> None:
    players = state.options.players
    for viewer in [*range(players), None]:
        view: StrikeView = RULES.view(state, viewer)
        if viewer is None:
            assert view.viewer == -1 and view.hand == ()
        else:
            assert view.hand == state.hands[viewer]
            others = {c for s, h in enumerate(state.hands) if s != viewer for c in h}
            assert not others & set(view.hand)
        assert view.hand_counts == tuple(len(h) for h in state.hands)
        assert view.continents == state.continents
        assert view == RULES.view(_scramble_secrets(state, viewer), viewer), "a secret leaked"


def _check_events(state: StrikeState, events: Sequence[Event]) -> None:
    viewers: list[int | None] = [*range(state.options.players), None]
    for event in events:
        for viewer in viewers:
            shown = event.for_viewer(viewer)
            if isinstance(event, TacticsDrawn | HandRevealed):
                assert type(shown) is type(event)
                owner = event.seat
                want = event.cards if viewer == owner else (HIDDEN,) * len(event.cards)
                assert shown.cards == want  # type: ignore[union-attr]  # same type, checked
            else:
                assert shown == event


def _pick(
    state: StrikeState, seat: int, legal: list[LegalAction], rng: random.Random, share: float
) -> Action:
    if share and rng.random() < share:
        return rng.choice(rng.choice(legal).instances())
    return RULES.bot_action(state, seat, rng.getrandbits(64))


def _record(stats: Counter[str], state: StrikeState, events: Sequence[Event]) -> None:
    """Count the rule paths the events walked."""
    for event in events:
        if isinstance(event, TacticPlayed):
            stats[f"played_{event.play.card.name.lower()}"] += 1
        elif isinstance(event, TacticResolved):
            if event.card is Tactic.SABOTAGE and event.effective:
                stats["sabotage_effective"] += 1
            if not event.effective:
                stats["cancelled"] += 1
        elif isinstance(event, TroopsDeployed):
            stats["played_troops"] += 1
            if event.seat not in (state.current, state.defender):
                stats["supporters"] += 1
        elif isinstance(event, CoinTaken):
            stats["coins_taken"] += 1
            if event.from_seat >= 0:
                stats["coins_from_player"] += 1
        elif isinstance(event, HandRevealed):
            stats["spy_reveals"] += 1


def play(
    options: StrikeOptions, seed: int, entropy: int, share: float, stats: Counter[str],
    *, resign_every: int = 0,
) -> None:
    """Play one game to its end, checking every invariant after every action."""
    rng = random.Random(entropy)
    state, events = RULES.create(options, seed)
    _check_events(state, events)
    for step in range(MAX_ACTIONS):
        _check_cards_and_coins(state)
        legal = _check_decision(state)
        _check_views(state)
        if state.phase is Phase.FINISHED:
            break
        if resign_every and step and step % resign_every == 0:
            live = [s for s in range(options.players) if not state.out[s]]
            state, events = RULES.resign(state, rng.choice(live))
            stats["resignations"] += 1
            assert events, "a resignation committed a version with no event"
        else:
            (seat,) = legal
            action = _pick(state, seat, legal[seat], rng, share)
            before = state
            state, events = RULES.apply(state, seat, action)
            assert events, f"{action!r} in {before.phase.name} committed a version with no event"
            _record(stats, before if before.defender >= 0 else state, events)
        stats["actions"] += 1
        _check_events(state, events)
    else:
        pytest.fail(f"no outcome after {MAX_ACTIONS} actions: {options} seed={seed}")
    outcome = RULES.outcome(state)
    assert outcome is not None
    stats["games"] += 1
    stats[outcome.reason] += 1


KEYS = (
    "games", "domination", "turn_cap", "resignation", "actions", "coins_taken",
    "coins_from_player", "supporters", "sabotage_effective", "cancelled", "spy_reveals",
    *(f"played_{t.name.lower()}" for t in Tactic),
)


def _summary(title: str, stats: Counter[str]) -> str:
    return f"{title}: " + ", ".join(f"{k}={stats[k]}" for k in KEYS)


@pytest.fixture(scope="module")
def hypothesis_stats() -> Iterator[Counter[str]]:
    stats: Counter[str] = Counter()
    yield stats
    print("\n" + _summary("strike Hypothesis playouts", stats))


# ---- tests ----------------------------------------------------------------------------------


def test_view_type_has_no_secret_fields() -> None:
    """The view dataclass has no field for the decks' order, the seed, the generator or hands."""
    names = {f.name for f in dataclasses.fields(StrikeView)}
    assert not names & SECRET_FIELDS
    assert {"hand", "hand_counts", "continent_deck_count", "tactics_deck_count"} <= names


OPTIONS = st.builds(
    StrikeOptions,
    players=st.integers(2, 5),
    max_turns=st.sampled_from([1, 2, 5, 12, 40, 200]),
    auto_pass=st.booleans(),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=OPTIONS,
    seed=st.integers(0, 2**64 - 1),
    entropy=st.integers(0, 2**64 - 1),
    share=st.sampled_from([0.0, 0.0, 0.05, 0.3, 1.0]),
    resign_every=st.sampled_from([0, 0, 0, 37, 150]),
)
def test_random_playouts_keep_every_invariant(  # noqa: PLR0917 - Hypothesis passes by name
    hypothesis_stats: Counter[str], options: StrikeOptions, seed: int, entropy: int,
    share: float, resign_every: int,
) -> None:
    """Bot and random-move playouts with Hypothesis options keep every invariant to the end."""
    play(options, seed, entropy, share, hypothesis_stats, resign_every=resign_every)


def _coverage_games() -> list[tuple[StrikeOptions, int, float]]:
    """A fixed spread of games: every player count, auto_pass on and off, some short caps."""
    games = []
    for k in range(40):
        players = 2 + k % 4
        options = StrikeOptions(
            players=players,
            max_turns=15 if k % 9 == 4 else 200,
            auto_pass=k % 3 == 1,
        )
        games.append((options, 5000 + k, (0.0, 0.0, 0.1)[k % 3]))
    return games


def test_fixed_playouts_reach_every_rule_path() -> None:
    """40 fixed playouts keep the invariants, finish, and play every kind of tactics card."""
    stats: Counter[str] = Counter()
    for options, seed, share in _coverage_games():
        play(options, seed, seed * 31 + 7, share, stats)
    print("\n" + _summary("strike fixed playouts", stats))
    print(f"strike fixed playouts: {stats['domination']} of {stats['games']} finished by "
          f"domination, {stats['turn_cap']} at the turn cap")
    assert stats["games"] == 40
    assert stats["domination"] + stats["turn_cap"] == 40
    assert stats["domination"] >= 30
    for kind in Tactic:
        assert stats[f"played_{kind.name.lower()}"] >= 1, f"no {kind.name} was played"
    assert stats["coins_from_player"] >= 1
    assert stats["sabotage_effective"] >= 1
    assert stats["supporters"] >= 1
    assert stats["played_cancel_order"] >= 1 and stats["cancelled"] >= 1
    assert stats["spy_reveals"] >= 1


def test_playouts_with_resignations_keep_every_invariant() -> None:
    """Seats resigning in the middle of battles and windows leave a consistent game."""
    stats: Counter[str] = Counter()
    for k in range(12):
        options = StrikeOptions(players=3 + k % 3, auto_pass=k % 2 == 0)
        play(options, 7000 + k, k, 0.05, stats, resign_every=13 + k)
    print("\n" + _summary("strike playouts with resignations", stats))
    assert stats["resignations"] >= 12
