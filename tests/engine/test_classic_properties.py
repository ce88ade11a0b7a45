"""Random playouts of classic Risk with the engine's invariants checked after every action.

Bots choose through `bot_action` (with entropy drawn by Hypothesis or by a fixed seed list), and
some players instead pick a uniformly random listed legal action so that rare paths (one-die
attacks, partial move-ins, odd bonus territories) are walked too. After every action the board,
the 44 cards, the decision, the outcome, every viewer's view and the redacted events are checked,
and every apply returned at least one event (a follower of the stream sees every version).
A deterministic run over a fixed list of games asserts that the playouts really reached trades,
forced trades, eliminations with card takeover, the 2-player neutral, both fortify modes and
conquest wins, so the invariants were checked where they matter.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from risk_rules.engine import IllegalAction, Reason, get_ruleset
from risk_rules.engine.classic.board import CLASSIC_BOARD, DECK_SIZE, TERRITORIES
from risk_rules.engine.classic.model import (
    HIDDEN,
    Attack,
    CardDrawn,
    ClassicOptions,
    ClassicState,
    ClassicView,
    DeckShuffled,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    FortifyMode,
    Phase,
    PlayerEliminated,
    SetupMode,
    TradeCards,
    TradeSchedule,
)
from risk_rules.engine.core.ruleset import Action, Event, LegalAction
from risk_rules.engine.core.values import evolve

RULES = get_ruleset("classic")
SETUP_PHASES = (Phase.CLAIM, Phase.SETUP_PLACE, Phase.SETUP_NEUTRAL)
SECRET_FIELDS = {"deck", "seed", "rng_state", "rng_inc", "hands", "first_seat", "resume_attack"}
MAX_ACTIONS = 60_000  # far above any capped game; a playout that exceeds it has stalled


# ---- one playout ----------------------------------------------------------------------------


def _moved_hands(state: ClassicState) -> tuple[tuple[int, ...], ...]:
    """Every seat's hand with each card changed to the next one."""
    return tuple(tuple((c + 1) % DECK_SIZE for c in hand) for hand in state.hands)


def _scramble_secrets(
    state: ClassicState, viewer: int | None,
    moved: tuple[tuple[int, ...], ...] | None = None,
) -> ClassicState:
    """The same public game with every secret the viewer may not know changed (`moved`:
    `_moved_hands(state)`, when the caller made it already)."""
    if moved is None:
        moved = _moved_hands(state)
    # every hand moved but the viewer's own (a spectator, None, owns none)
    hands = moved if viewer is None else (
        *moved[:viewer], state.hands[viewer], *moved[viewer + 1:]
    )
    # evolve: dataclasses.replace for a state without slots (test_values checks they agree)
    return evolve(state, {
        "seed": state.seed ^ 0x5A5A,
        "rng_state": state.rng_state ^ 0xFFFF,
        "rng_inc": state.rng_inc ^ 0x10,
        "deck": state.deck[::-1] if len(state.deck) > 1 else tuple(c + 1 for c in state.deck),
        "hands": hands,
    })


def _check_board(state: ClassicState) -> None:
    players = state.options.players
    owners = set(range(players)) | ({players} if players == 2 else set())
    owner, armies = state.owner, state.armies
    if state.phase in SETUP_PHASES:
        for t in range(TERRITORIES):
            assert (owner[t] == -1) == (armies[t] == 0), t
            assert owner[t] == -1 or owner[t] in owners, t
        return
    # The one moment a territory is empty: conquered, the attacker's armies not yet in.
    empty = state.attack_to if state.phase is Phase.MOVE_IN else None
    for t in range(TERRITORIES):
        assert owner[t] in owners, f"territory {t} has owner {owner[t]}"
        if t == empty:
            assert owner[t] == state.current and armies[t] == 0
        else:
            assert armies[t] >= 1, f"territory {t} has {armies[t]} armies"
    for seat in range(players):
        holds = seat in owner
        assert state.eliminated[seat] == (not holds), f"seat {seat} eliminated flag is wrong"
        if state.eliminated[seat]:
            assert state.hands[seat] == (), "an eliminated seat still holds cards"


def _check_cards(state: ClassicState) -> None:
    if not state.options.cards:
        assert state.deck == () and state.discard == () and not any(state.hands)
        return
    every = [*state.deck, *state.discard, *(c for hand in state.hands for c in hand)]
    assert sorted(every) == list(range(DECK_SIZE)), "a card was lost or duplicated"


def _check_decision(state: ClassicState) -> dict[int, list[LegalAction]]:
    """Decision seats are exactly the seats with legal actions; returns the non-empty lists."""
    players = state.options.players
    legal = {seat: RULES.legal_actions(state, seat) for seat in range(players + 1)}
    acting = {seat for seat, entries in legal.items() if entries}
    decision = RULES.decision(state)
    assert set(decision.seats) == acting
    if state.phase is Phase.FINISHED:
        assert decision.seats == ()
        _check_finished(state)
    else:
        assert len(decision.seats) == 1 and RULES.outcome(state) is None
    if state.phase is Phase.REINFORCE and len(state.hands[state.current]) >= 5:
        entries = legal[state.current]
        assert all(isinstance(e.action, TradeCards) for e in entries), "5 cards must trade first"
    return {seat: entries for seat, entries in legal.items() if entries}


def _check_finished(state: ClassicState) -> None:
    outcome = RULES.outcome(state)
    assert outcome is not None
    players = state.options.players
    assert sorted(outcome.ranking) == list(range(players))
    if outcome.reason == "conquest":
        assert outcome.winner == outcome.ranking[0] >= 0
        others = [s for s in range(players) if s != outcome.winner]
        assert all(state.eliminated[s] for s in others)
        if players > 2:
            assert set(state.owner) == {outcome.winner}
    else:
        assert outcome.reason == "turn_cap" and outcome.winner == -1
        assert state.turn == state.options.max_turns
    for seat in range(players):
        for action in (EndTurn(), EndAttack(), Attack(0, 1, 1), Defend(1)):
            with pytest.raises(IllegalAction) as caught:
                RULES.apply(state, seat, action)
            assert caught.value.reason is Reason.GAME_OVER


def _check_views(state: ClassicState) -> None:
    players = state.options.players
    moved = _moved_hands(state)
    hand_counts = tuple(len(hand) for hand in state.hands)
    deck_count = len(state.deck)
    for viewer in [*range(players), None]:
        view = RULES.view(state, viewer)
        if viewer is None:
            assert view.viewer == -1 and view.hand == ()
        else:
            assert view.viewer == viewer and view.hand == state.hands[viewer]
        assert view.hand_counts == hand_counts
        assert view.deck_count == deck_count
        scrambled = _scramble_secrets(state, viewer, moved)
        assert view == RULES.view(scrambled, viewer), "a secret leaked"


def _check_events(state: ClassicState, events: Sequence[Event]) -> None:
    viewers: list[int | None] = [*range(state.options.players), None]
    for event in events:
        for viewer in viewers:
            shown = event.for_viewer(viewer)
            if isinstance(event, CardDrawn):
                assert isinstance(shown, CardDrawn) and shown.seat == event.seat
                assert shown.card == (event.card if viewer == event.seat else HIDDEN)
            elif isinstance(event, PlayerEliminated):
                assert isinstance(shown, PlayerEliminated)
                if viewer in (event.seat, event.by):
                    assert shown == event
                else:
                    assert shown.cards_taken == (HIDDEN,) * len(event.cards_taken)
            else:
                assert shown == event
        if isinstance(event, CardDrawn):
            assert event.card in state.hands[event.seat]


def _pick(
    state: ClassicState, seat: int, legal: list[LegalAction], rng: random.Random, share: float
) -> Action:
    if share and rng.random() < share:
        return rng.choice(rng.choice(legal).instances())
    return RULES.bot_action(state, seat, rng.getrandbits(64))


def _record(stats: Counter[str], state: ClassicState, seat: int, action: Action) -> None:
    """Count the rule paths an action walks, before it is applied."""
    opts = state.options
    if isinstance(action, TradeCards):
        stats["trades"] += 1
        if len(state.hands[seat]) >= 5:
            stats["forced_trades"] += 1
        if state.resume_attack:
            stats["elimination_trades"] += 1
    elif isinstance(action, Attack) and opts.players == 2:
        if state.owner[action.to_territory] == opts.players:
            stats["neutral_attacks"] += 1
    elif isinstance(action, Defend) and seat != state.owner[state.attack_to]:
        stats["neutral_defences"] += 1
    elif isinstance(action, Fortify):
        stats[f"fortify_{opts.fortify.name.lower()}"] += 1
        if not CLASSIC_BOARD.adjacent(action.from_territory, action.to_territory):
            stats["fortify_far"] += 1


def play(
    options: ClassicOptions, seed: int, entropy: int, share: float, stats: Counter[str]
) -> None:
    """Play one game to its end, checking every invariant after every action."""
    rng = random.Random(entropy)
    state, events = RULES.create(options, seed)
    _check_events(state, events)
    for _ in range(MAX_ACTIONS):
        _check_board(state)
        _check_cards(state)
        legal = _check_decision(state)
        _check_views(state)
        if state.phase is Phase.FINISHED:
            break
        (seat,) = legal
        action = _pick(state, seat, legal[seat], rng, share)
        _record(stats, state, seat, action)
        before = state
        state, events = RULES.apply(state, seat, action)
        stats["actions"] += 1
        assert events, f"{action!r} in {before.phase.name} committed a version with no event"
        _check_events(state, events)
        if before.phase is Phase.REINFORCE and state.phase is Phase.ATTACK:
            assert state.pending == 0 and len(state.hands[state.current]) < 5
        for event in events:
            if isinstance(event, PlayerEliminated):
                stats["eliminations"] += 1
                stats["eliminations_with_cards"] += bool(event.cards_taken)
            elif isinstance(event, CardDrawn):
                stats["cards_drawn"] += 1
            elif isinstance(event, DeckShuffled) and before.phase not in SETUP_PHASES:
                stats["reshuffles"] += 1
    else:
        pytest.fail(f"no outcome after {MAX_ACTIONS} actions: {options} seed={seed}")
    outcome = RULES.outcome(state)
    assert outcome is not None
    stats["games"] += 1
    stats[outcome.reason] += 1


def _summary(title: str, stats: Counter[str]) -> str:
    keys = (
        "games", "conquest", "turn_cap", "actions", "trades", "forced_trades",
        "elimination_trades", "eliminations", "eliminations_with_cards", "neutral_attacks",
        "neutral_defences", "fortify_connected", "fortify_adjacent", "fortify_far",
        "cards_drawn", "reshuffles",
    )
    return f"{title}: " + ", ".join(f"{k}={stats[k]}" for k in keys)


@pytest.fixture(scope="module")
def hypothesis_stats() -> Iterator[Counter[str]]:
    stats: Counter[str] = Counter()
    yield stats
    print("\n" + _summary("classic Hypothesis playouts", stats))


# ---- tests ----------------------------------------------------------------------------------


def test_view_type_has_no_secret_fields() -> None:
    """The view dataclass has no field for the deck, the seed, the generator or other hands."""
    names = {f.name for f in dataclasses.fields(ClassicView)}
    assert not names & SECRET_FIELDS
    assert "hand" in names and "deck_count" in names


OPTIONS = st.builds(
    ClassicOptions,
    players=st.integers(2, 6),
    setup=st.sampled_from(SetupMode),
    auto_place=st.booleans(),
    trade_schedule=st.sampled_from(TradeSchedule),
    fortify=st.sampled_from(FortifyMode),
    auto_defend_max_dice=st.booleans(),
    cards=st.sampled_from([True, True, True, False]),
    max_turns=st.sampled_from([1, 2, 5, 12, 30, 60]),
)


@settings(max_examples=45, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=OPTIONS,
    seed=st.integers(0, 2**64 - 1),
    entropy=st.integers(0, 2**64 - 1),
    share=st.sampled_from([0.0, 0.0, 0.05, 0.3, 1.0]),
)
def test_random_playouts_keep_every_invariant(
    hypothesis_stats: Counter[str], options: ClassicOptions, seed: int, entropy: int, share: float
) -> None:
    """Bot and random-move playouts with Hypothesis options keep every invariant to the end."""
    play(options, seed, entropy, share, hypothesis_stats)


def _coverage_games() -> list[tuple[ClassicOptions, int, float]]:
    """A fixed spread of games: every player count, setup, schedule and fortify mode."""
    games: list[tuple[ClassicOptions, int, float]] = []
    schedules = list(TradeSchedule)
    for k in range(60):
        players = 2 + k % 5
        options = ClassicOptions(
            players=players,
            setup=SetupMode.CLAIM if k % 4 in (0, 3) else SetupMode.RANDOM_DEAL,
            auto_place=k % 3 != 0,
            trade_schedule=schedules[(k // 2) % 3],
            fortify=FortifyMode.CONNECTED if k % 2 == 0 else FortifyMode.ADJACENT,
            auto_defend_max_dice=k % 7 in (1, 4),
            cards=k % 11 != 7,
            max_turns=400 if players == 2 else (20 if k % 7 == 0 else 90),
        )
        share = (0.0, 0.02, 0.0, 0.2)[k % 4]
        games.append((options, 1000 + k, share))
    return games


def test_fixed_playouts_reach_every_rule_path() -> None:
    """A fixed list of 60 playouts keeps the invariants and reaches every rule path counted."""
    stats: Counter[str] = Counter()
    for options, seed, share in _coverage_games():
        play(options, seed, seed * 31 + 7, share, stats)
    print("\n" + _summary("classic fixed playouts", stats))
    assert stats["games"] == 60
    assert stats["conquest"] + stats["turn_cap"] == 60
    assert stats["conquest"] >= 1
    assert stats["trades"] >= 1
    assert stats["forced_trades"] >= 1
    assert stats["eliminations_with_cards"] >= 1
    assert stats["neutral_attacks"] >= 1
    assert stats["neutral_defences"] >= 1
    assert stats["fortify_connected"] >= 1
    assert stats["fortify_adjacent"] >= 1
    assert stats["fortify_far"] >= 1
