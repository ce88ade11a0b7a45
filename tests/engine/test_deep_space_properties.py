"""Random playouts of Risk Deep Space with the engine's invariants checked after every action.

Bots choose through `bot_action` (entropy from Hypothesis or a fixed seed list); some players
instead pick a uniformly random listed action, and some games have a seat resign midway, so
rare paths (partial crews, odd card targets, dog decisions, resignations) are walked too. After
every action: each colour's recruits on the board, home station and supply add up to 32; gems,
ore, bases, the dog and force-field tokens and the 36 cards are conserved; no planet holds two
colours' recruits; dogs stand with their owner's recruits; the decision, the outcome, every
viewer's view and the events agree with the state; every apply and resignation returned at least
one event (a follower of the stream sees every version). A deterministic run over a fixed list of
2-, 3- and 4-player games prints how many ended by a base win and how many at the turn cap, and
asserts that every card kind, the gem warp, the card trade and a base win really happened.
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
from risk_rules.engine.core.ruleset import Action, Event, LegalAction
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD, NODES
from risk_rules.engine.deep_space.cards import CARD_KINDS, DECK_SIZE
from risk_rules.engine.deep_space.model import (
    BASES_PER_COLOUR,
    FORCE_FIELD_TOKENS,
    GEM_TOKENS,
    ORE_TOKENS,
    RECRUITS_PER_COLOUR,
    SPACE_DOG_TOKENS,
    WINNING_BASES,
    BattleEnded,
    BattleRolled,
    CardKind,
    DeepSpaceOptions,
    DeepSpaceState,
    DeepSpaceView,
    EndTurn,
    Mine,
    Move,
    Phase,
    PlayCard,
    RelocateDog,
    Resource,
    ReturnDog,
    TradeCards,
    Warp,
)

RULES = get_ruleset("deep_space")
SECRET_FIELDS = {"deck", "seed", "rng_state", "rng_inc", "first_seat"}
MAX_ACTIONS = 20_000  # far above any capped game; a playout that exceeds it has stalled


# ---- one playout ----------------------------------------------------------------------------


def _scramble_secrets(state: DeepSpaceState) -> DeepSpaceState:
    """The same public game with every secret changed (nothing else is secret in Deep Space)."""
    return dataclasses.replace(
        state,
        seed=state.seed ^ 0x5A5A,
        rng_state=state.rng_state ^ 0xFFFF,
        rng_inc=state.rng_inc ^ 0x10,
        deck=state.deck[::-1] if len(state.deck) > 1 else tuple(c + 1 for c in state.deck),
        first_seat=state.first_seat + 1,
    )


def _check_supplies(state: DeepSpaceState) -> None:
    players = state.options.players
    for seat in range(players):
        assert sum(state.recruits[seat]) + state.supply[seat] == RECRUITS_PER_COLOUR, seat
        assert min(state.recruits[seat]) >= 0 and state.supply[seat] >= 0
        bases = state.bases[seat]
        assert len(bases) == len(set(bases)) <= BASES_PER_COLOUR
        assert all(DEEP_SPACE_BOARD.is_planet(b) for b in bases)
        assert state.gems[seat] >= 0 and state.ore[seat] >= 0
    assert sum(state.gems) + state.bank_gems == GEM_TOKENS and state.bank_gems >= 0
    assert sum(state.ore) + state.bank_ore == ORE_TOKENS and state.bank_ore >= 0
    assert 0 <= sum(sum(row) for row in state.dogs) <= SPACE_DOG_TOKENS
    assert 0 <= sum(1 for f in state.force_fields if f >= 0) <= FORCE_FIELD_TOKENS
    cards = [*state.deck, *state.discard, *(c for hand in state.hands for c in hand)]
    assert sorted(cards) == list(range(DECK_SIZE)), "a card was lost or duplicated"
    assert all(len(hand) <= 2 for hand in state.hands)


def _check_board(state: DeepSpaceState) -> None:
    players = state.options.players
    layout = DEEP_SPACE_BOARD.layouts[players]
    for node in range(NODES):
        holders = [s for s in range(players) if state.recruits[s][node] > 0]
        if DEEP_SPACE_BOARD.is_station(node):
            assert set(holders) <= {s for s in range(players) if state.stations[s] == node}
            assert state.force_fields[node] == -1
        else:
            assert len(holders) <= 1, f"{DEEP_SPACE_BOARD.names[node]} holds {holders}"
        if not layout.in_play[node]:
            assert not holders and state.force_fields[node] == -1
        for seat in range(players):
            if state.dogs[seat][node]:
                waiting = state.phase is Phase.DOG and (seat, node) == (
                    state.dog_seat, state.dog_planet
                )
                assert waiting or state.recruits[seat][node] > 0, "a dog without its recruits"
                assert DEEP_SPACE_BOARD.is_planet(node)
    for seat in range(players):
        if state.out[seat]:
            assert sum(state.recruits[seat]) == 0 and sum(state.dogs[seat]) == 0
            assert state.hands[seat] == () and state.gems[seat] == state.ore[seat] == 0
            assert seat not in state.force_fields


def _check_decision(state: DeepSpaceState) -> dict[int, list[LegalAction]]:
    """Decision seats are exactly the seats with legal actions; returns the non-empty lists."""
    players = state.options.players
    legal = {seat: RULES.legal_actions(state, seat) for seat in range(players)}
    acting = {seat for seat, entries in legal.items() if entries}
    decision = RULES.decision(state)
    assert set(decision.seats) == acting
    if state.phase is Phase.FINISHED:
        assert decision.seats == ()
        _check_finished(state)
    else:
        assert len(decision.seats) == 1 and RULES.outcome(state) is None
        (seat,) = decision.seats
        assert not state.out[seat]
        if state.phase is not Phase.DOG:
            assert LegalAction(EndTurn()) in legal[seat], "a turn can always end"
    return {seat: entries for seat, entries in legal.items() if entries}


def _check_finished(state: DeepSpaceState) -> None:
    outcome = RULES.outcome(state)
    assert outcome is not None
    players = state.options.players
    assert sorted(outcome.ranking) == list(range(players))
    if outcome.reason == "bases":
        assert outcome.winner == outcome.ranking[0] >= 0
        assert len(state.bases[outcome.winner]) == WINNING_BASES[players]
    elif outcome.reason == "resignation":
        assert [s for s in range(players) if not state.out[s]] == [outcome.winner]
    else:
        assert outcome.reason == "turn_cap" and outcome.winner == -1
        assert state.turn == state.options.max_turns
    for seat in range(players):
        for action in (EndTurn(), Mine(0, Resource.GEM), Move(0, 12, 1)):
            with pytest.raises(IllegalAction) as caught:
                RULES.apply(state, seat, action)
            assert caught.value.reason is Reason.GAME_OVER


def _check_views(state: DeepSpaceState) -> None:
    scrambled = _scramble_secrets(state)
    for viewer in [*range(state.options.players), None]:
        view = RULES.view(state, viewer)
        assert view.viewer == (-1 if viewer is None else viewer)
        assert view.hands == state.hands, "hands are face up"
        assert view.deck_count == len(state.deck)
        assert view == RULES.view(scrambled, viewer), "a secret leaked"


def _check_events(state: DeepSpaceState, events: Sequence[Event]) -> None:
    for event in events:
        for viewer in [*range(state.options.players), None]:
            assert event.for_viewer(viewer) == event, "Deep Space events are public"


def _record(stats: Counter[str], state: DeepSpaceState, seat: int, action: Action) -> None:
    """Count the rule paths an action walks, before it is applied."""
    if isinstance(action, PlayCard):
        stats[f"card_{CARD_KINDS[action.card].name.lower()}"] += 1
    elif isinstance(action, Warp):
        stats["warps"] += 1
    elif isinstance(action, TradeCards):
        stats["trades"] += 1
    elif isinstance(action, Move) and action.count < state.recruits[seat][action.origin]:
        stats["partial_crews"] += 1
    elif isinstance(action, RelocateDog | ReturnDog):
        stats["dog_decisions"] += 1
    elif isinstance(action, EndTurn) and action.discard >= 0:
        stats["discards"] += 1


def play(
    options: DeepSpaceOptions,
    seed: int,
    entropy: int,
    share: float,
    stats: Counter[str],
    *,
    resign_at: int = -1,
) -> None:
    """Play one game to its end, checking every invariant after every action."""
    rng = random.Random(entropy)
    state, events = RULES.create(options, seed)
    _check_events(state, events)
    for step in range(MAX_ACTIONS):
        _check_supplies(state)
        _check_board(state)
        legal = _check_decision(state)
        _check_views(state)
        if state.phase is Phase.FINISHED:
            break
        if step == resign_at:
            live = [s for s in range(options.players) if not state.out[s]]
            state, events = RULES.resign(state, rng.choice(live))
            stats["resignations"] += 1
            assert events, "a resignation committed a version with no event"
            _check_events(state, events)
            continue
        (seat,) = legal
        if share and rng.random() < share:
            action = rng.choice(rng.choice(legal[seat]).instances())
        else:
            action = RULES.bot_action(state, seat, rng.getrandbits(64))
        _record(stats, state, seat, action)
        phase = state.phase
        state, events = RULES.apply(state, seat, action)
        stats["actions"] += 1
        assert events, f"{action!r} in {phase.name} committed a version with no event"
        _check_events(state, events)
        for event in events:
            if isinstance(event, BattleEnded):
                stats["battles"] += 1
            elif isinstance(event, BattleRolled) and event.dog:
                stats["dog_saves"] += 1
    else:
        pytest.fail(f"no outcome after {MAX_ACTIONS} actions: {options} seed={seed}")
    outcome = RULES.outcome(state)
    assert outcome is not None
    stats["games"] += 1
    stats[outcome.reason] += 1
    stats[f"{options.players}p_{outcome.reason}"] += 1


CARD_STATS = tuple(f"card_{kind.name.lower()}" for kind in CardKind)


def _summary(title: str, stats: Counter[str]) -> str:
    keys = (
        "games", "bases", "turn_cap", "resignation", "2p_bases", "3p_bases", "4p_bases",
        "actions", "battles", "dog_saves", "dog_decisions", "warps", "trades",
        "partial_crews", "discards", "resignations", *CARD_STATS,
    )
    return f"{title}: " + ", ".join(f"{k}={stats[k]}" for k in keys)


@pytest.fixture(scope="module")
def hypothesis_stats() -> Iterator[Counter[str]]:
    stats: Counter[str] = Counter()
    yield stats
    print("\n" + _summary("deep space Hypothesis playouts", stats))


# ---- tests ----------------------------------------------------------------------------------


def test_view_type_has_no_secret_fields() -> None:
    """The view dataclass has no field for the draw pile, the seed or the generator."""
    names = {f.name for f in dataclasses.fields(DeepSpaceView)}
    assert not names & SECRET_FIELDS
    assert "hands" in names and "deck_count" in names


OPTIONS = st.builds(
    DeepSpaceOptions,
    players=st.integers(2, 4),
    max_turns=st.sampled_from([1, 2, 5, 12, 30, 200]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=OPTIONS,
    seed=st.integers(0, 2**64 - 1),
    entropy=st.integers(0, 2**64 - 1),
    share=st.sampled_from([0.0, 0.0, 0.05, 0.3, 1.0]),
    resign_at=st.sampled_from([-1, -1, -1, 0, 7, 40]),
)
def test_random_playouts_keep_every_invariant(  # noqa: PLR0917 - one per Hypothesis strategy
    hypothesis_stats: Counter[str], options: DeepSpaceOptions, seed: int, entropy: int,
    share: float, resign_at: int,
) -> None:
    """Bot and random-move playouts with Hypothesis options keep every invariant to the end."""
    play(options, seed, entropy, share, hypothesis_stats, resign_at=resign_at)


def _coverage_games() -> list[tuple[DeepSpaceOptions, int, float, int]]:
    """A fixed spread of games: 2, 3 and 4 players, mostly bots, a few random movers, a few
    short caps and resignations."""
    games = []
    for k in range(60):
        players = 2 + k % 3
        max_turns = 10 if k % 10 == 9 else 200
        share = (0.0, 0.0, 0.0, 0.1, 0.0, 0.3)[k % 6]
        resign_at = 25 if k % 12 == 5 else -1
        games.append((DeepSpaceOptions(players=players, max_turns=max_turns), 2000 + k, share,
                      resign_at))
    return games


def test_fixed_playouts_reach_every_rule_path() -> None:
    """60 fixed playouts keep the invariants, end, and use every card, the warp and the trade."""
    stats: Counter[str] = Counter()
    for options, seed, share, resign_at in _coverage_games():
        play(options, seed, seed * 31 + 7, share, stats, resign_at=resign_at)
    print("\n" + _summary("deep space fixed playouts", stats))
    finished = stats["bases"] + stats["resignation"]
    print(f"deep space fixed playouts: {finished} of {stats['games']} finished "
          f"({stats['bases']} by a base win), {stats['turn_cap']} reached the turn cap")
    assert stats["games"] == 60
    assert stats["bases"] + stats["turn_cap"] + stats["resignation"] == 60
    assert stats["2p_bases"] >= 1 and stats["3p_bases"] >= 1 and stats["4p_bases"] >= 1
    assert stats["bases"] >= 40, "bot games should mostly end by a base win"
    for key in CARD_STATS:
        assert stats[key] >= 1, f"no {key} was played"
    assert stats["warps"] >= 1
    assert stats["trades"] >= 1
    assert stats["battles"] >= 1 and stats["dog_saves"] >= 1
    assert stats["partial_crews"] >= 1 and stats["discards"] >= 1
