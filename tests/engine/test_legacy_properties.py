"""Random playouts of Risk Legacy with the engine's invariants checked after every action.

Bots choose through `bot_action` (with entropy from Hypothesis or a fixed seed list); some
players instead pick a uniformly random listed action, and some seats resign now and then, so
rare paths are walked too. Worlds (legacy_states.py) are a fresh box, a world shaped by a
campaign the bots played (cities, scars, fortifications, named continents, signatures and so
missiles), and a board so crowded with cities that nobody can join the war again. After every
action: every territory is held with troops or unoccupied with none (a conquered one waits
empty for the move-in), every resource card is somewhere exactly once, the decision names
exactly the seats with legal actions (one, or none once the game is over), no view shows
another seat's hand or scar card, hidden ids reach only their owners, and every apply and
resignation returned at least one event (a follower of the stream sees every version). A
deterministic run over fixed games prints how many finished and how, and asserts that missiles
were fired, scar cards played, Red Stars bought, a seat joined the war, an HQ was captured and a
seat was eliminated.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from legacy_states import all_cards, world_for

from risk_rules.engine import IllegalAction, Reason, get_ruleset
from risk_rules.engine.core.ruleset import Action, Event, LegalAction
from risk_rules.engine.legacy.content import board_of
from risk_rules.engine.legacy.model import (
    HIDDEN,
    EndAttack,
    JoinedWar,
    LegacyOptions,
    LegacyState,
    LegacyView,
    MissileFired,
    Pass,
    Phase,
    PlayerEliminated,
    PlayerKnockedOut,
    RedStarBought,
    ScarCardDealt,
    ScarPlayed,
    TerritoryConquered,
)

RULES = get_ruleset("legacy")
SECRET_FIELDS = {"deck", "seed", "rng_state", "rng_inc", "hands", "scar_cards", "first_seat"}
MAX_ACTIONS = 50_000  # far above any capped game; a playout that exceeds it has stalled


# ---- one playout ----------------------------------------------------------------------------


def _scramble_secrets(state: LegacyState, viewer: int | None) -> LegacyState:
    """The same public game with every secret the viewer may not know changed."""
    hands = tuple(
        hand if seat == viewer else tuple(sorted((c + 1) % 42 for c in hand if c < 42))
        + tuple(c for c in hand if c >= 42)
        for seat, hand in enumerate(state.hands)
    )
    scars = tuple(
        card if seat == viewer or not card else 3 - card
        for seat, card in enumerate(state.scar_cards)
    )
    return dataclasses.replace(
        state, seed=state.seed ^ 0x5A5A, rng_state=state.rng_state ^ 0xFFFF,
        rng_inc=state.rng_inc ^ 0x10, deck=state.deck[::-1], hands=hands, scar_cards=scars,
    )


def _check_board(state: LegacyState) -> None:
    players = state.options.players
    for territory, (owner, troops) in enumerate(zip(state.owner, state.troops, strict=True)):
        if owner < 0:
            assert troops == 0, f"unoccupied territory {territory} has {troops} troops"
        elif state.phase is Phase.MOVE_IN and territory == state.attack_to:
            assert troops == 0 and owner == state.current  # conquered, troops about to follow
        else:
            assert troops >= 1 and owner < players and not state.out[owner], territory
    board = board_of(state.options.world)
    coins = board.content.coin_cards
    expected = [c for c in range(42) if c not in board.destroyed] + list(range(42, 42 + coins))
    assert all_cards(state) == expected, "a card was lost or duplicated"
    assert all(0 <= m <= board.content.fortification_marks for m in state.fortifications)
    for seat in range(players):
        if state.out[seat]:
            assert state.hands[seat] == () and state.scar_cards[seat] == 0
            assert seat not in state.owner
    assert len(state.windows) <= 1


def _check_decision(state: LegacyState) -> dict[int, list[LegalAction]]:
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
        elif outcome.reason == "red_stars":
            view = RULES.view(state, None)
            assert view.red_stars[outcome.winner] >= 4
        else:
            assert [s for s in range(players) if not state.out[s]] == [outcome.winner]
        for action in (Pass(), EndAttack()):
            with pytest.raises(IllegalAction) as caught:
                RULES.apply(state, 0, action)
            assert caught.value.reason is Reason.GAME_OVER
    else:
        assert len(decision.seats) == 1 and RULES.outcome(state) is None
        (seat,) = decision.seats
        assert not state.out[seat]
        if not state.windows and state.phase is not Phase.DEFEND:
            assert seat == state.current
    return {seat: entries for seat, entries in legal.items() if entries}


def _check_views(state: LegacyState) -> None:
    players = state.options.players
    for viewer in [*range(players), None]:
        view: LegacyView = RULES.view(state, viewer)
        if viewer is None:
            assert view.viewer == -1 and view.hand == () and view.scar_card == 0
        else:
            assert view.hand == state.hands[viewer]
            assert view.scar_card == state.scar_cards[viewer]
        assert view.hand_counts == tuple(len(h) for h in state.hands)
        assert view.has_scar_card == tuple(bool(c) for c in state.scar_cards)
        assert view == RULES.view(_scramble_secrets(state, viewer), viewer), "a secret leaked"


def _check_events(state: LegacyState, events: Sequence[Event]) -> None:
    viewers: list[int | None] = [*range(state.options.players), None]
    for event in events:
        for viewer in viewers:
            shown = event.for_viewer(viewer)
            if isinstance(event, ScarCardDealt):
                assert isinstance(shown, ScarCardDealt)
                assert shown.scar == (event.scar if viewer == event.seat else HIDDEN)
            elif isinstance(event, PlayerKnockedOut):
                assert isinstance(shown, PlayerKnockedOut)
                mine = viewer in (event.seat, event.by)
                assert shown.cards_taken == (
                    event.cards_taken if mine else (HIDDEN,) * len(event.cards_taken)
                )
            else:
                assert shown == event


def _pick(
    state: LegacyState, seat: int, legal: list[LegalAction], rng: random.Random, share: float
) -> Action:
    if share and rng.random() < share:
        return rng.choice(rng.choice(legal).instances())
    return RULES.bot_action(state, seat, rng.getrandbits(64))


def _record(stats: Counter[str], before: LegacyState, events: Sequence[Event]) -> None:
    """Count the rule paths the events walked."""
    for event in events:
        if isinstance(event, MissileFired):
            stats["missiles"] += 1
        elif isinstance(event, ScarPlayed):
            stats["scars_played"] += 1
        elif isinstance(event, RedStarBought):
            stats["stars_bought"] += 1
        elif isinstance(event, JoinedWar):
            stats["joins"] += 1
        elif isinstance(event, PlayerEliminated):
            stats["eliminations"] += 1
        elif isinstance(event, PlayerKnockedOut):
            stats["knockouts"] += 1
        elif isinstance(event, TerritoryConquered) and event.territory in before.hqs:
            stats["hqs_captured"] += 1


def play(
    options: LegacyOptions, seed: int, entropy: int, share: float, stats: Counter[str],
    *, resign_every: int = 0,
) -> None:
    """Play one game to its end, checking every invariant after every action."""
    rng = random.Random(entropy)
    state, events = RULES.create(options, seed)
    _check_events(state, events)
    for step in range(MAX_ACTIONS):
        _check_board(state)
        legal = _check_decision(state)
        if step % 5 == 0 or state.phase is Phase.FINISHED:
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
            _record(stats, before, events)
        stats["actions"] += 1
        _check_events(state, events)
    else:
        pytest.fail(f"no outcome after {MAX_ACTIONS} actions: {options} seed={seed}")
    outcome = RULES.outcome(state)
    assert outcome is not None
    stats["games"] += 1
    stats[outcome.reason] += 1


KEYS = (
    "games", "red_stars", "last_standing", "turn_cap", "resignation", "actions", "missiles",
    "scars_played", "stars_bought", "joins", "knockouts", "eliminations", "hqs_captured",
)


def _summary(title: str, stats: Counter[str]) -> str:
    return f"{title}: " + ", ".join(f"{k}={stats[k]}" for k in KEYS)


@pytest.fixture(scope="module")
def hypothesis_stats() -> Iterator[Counter[str]]:
    stats: Counter[str] = Counter()
    yield stats
    print("\n" + _summary("legacy Hypothesis playouts", stats))


# ---- tests ----------------------------------------------------------------------------------


def test_view_type_has_no_secret_fields() -> None:
    """The view dataclass has no field for the deck order, the seed, the generator or hands."""
    names = {f.name for f in dataclasses.fields(LegacyView)}
    assert not names & SECRET_FIELDS
    assert {"hand", "hand_counts", "deck_count", "scar_card", "has_scar_card"} <= names


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(3, 5),
    world=st.sampled_from(["fresh", "veteran", "crowded"]),
    max_turns=st.sampled_from([1, 3, 12, 60, 200]),
    auto_defend=st.booleans(),
    seed=st.integers(0, 2**64 - 1),
    entropy=st.integers(0, 2**64 - 1),
    share=st.sampled_from([0.0, 0.0, 0.05, 0.3, 1.0]),
    resign_every=st.sampled_from([0, 0, 0, 37, 150]),
)
def test_random_playouts_keep_every_invariant(  # noqa: PLR0917 - Hypothesis passes by name
    hypothesis_stats: Counter[str], players: int, world: str, max_turns: int,
    auto_defend: bool, seed: int, entropy: int, share: float, resign_every: int,
) -> None:
    """Bot and random-move playouts over Hypothesis options keep every invariant to the end."""
    options = LegacyOptions(
        players=players, max_turns=max_turns, auto_defend_max_dice=auto_defend,
        world=world_for(world, players),
    )
    play(options, seed, entropy, share, hypothesis_stats, resign_every=resign_every)


def _coverage_games() -> list[tuple[LegacyOptions, int, float]]:
    """A fixed spread of games: every player count and world, some random moves, some caps."""
    games = []
    for k in range(36):
        players = 3 + k % 3
        kind = ("fresh", "veteran", "crowded")[k // 3 % 3]
        options = LegacyOptions(
            players=players, max_turns=25 if k % 11 == 5 else 200,
            auto_defend_max_dice=k % 2 == 0, world=world_for(kind, players),
        )
        games.append((options, 6000 + k, (0.0, 0.0, 0.1)[k % 3]))
    return games


def test_fixed_playouts_reach_every_rule_path() -> None:
    """36 fixed playouts keep the invariants, finish, and use missiles, scar cards, Red Stars,
    joins, HQ captures and eliminations."""
    stats: Counter[str] = Counter()
    for options, seed, share in _coverage_games():
        play(options, seed, seed * 31 + 7, share, stats)
    print("\n" + _summary("legacy fixed playouts", stats))
    print(f"legacy fixed playouts: {stats['games'] - stats['turn_cap']} of {stats['games']} "
          f"finished with a winner ({stats['red_stars']} by Red Stars, "
          f"{stats['last_standing']} last standing), {stats['turn_cap']} at the turn cap")
    assert stats["games"] == 36
    assert stats["red_stars"] + stats["last_standing"] >= 30
    for path in ("missiles", "scars_played", "stars_bought", "joins", "hqs_captured",
                 "knockouts", "eliminations"):
        assert stats[path] >= 1, f"no playout reached {path}"


def test_playouts_with_resignations_keep_every_invariant() -> None:
    """Seats resigning during setup, battles and windows leave a consistent game."""
    stats: Counter[str] = Counter()
    for k in range(12):
        players = 3 + k % 3
        options = LegacyOptions(players=players, world=world_for("veteran", players))
        play(options, 7000 + k, k, 0.05, stats, resign_every=40 + 9 * k)
    print("\n" + _summary("legacy playouts with resignations", stats))
    assert stats["resignations"] >= 12
