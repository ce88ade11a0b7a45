"""`apply` validates every classic action on its own, with the right reason code.

States are sampled from seeded playouts (bots, and some uniformly random legal moves) across
every phase and option. On each sampled state: every listed legal action is accepted; mutations
of listed actions (another territory, one more die or army, count 0, another seat, an action of
another phase) are either listed too or rejected with the reason an independent oracle in this
file expects; and for Hypothesis-built candidates, `apply` accepts exactly what
`is_legal(legal_actions(...))` admits. A rejected action leaves the state as it was.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from risk_rules.engine import Action, Reason, get_ruleset
from risk_rules.engine.classic.board import CLASSIC_BOARD, DECK_SIZE, TERRITORIES
from risk_rules.engine.classic.model import (
    Attack,
    ClaimTerritory,
    ClassicOptions,
    ClassicState,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    FortifyMode,
    MoveIn,
    Phase,
    PlaceArmies,
    PlaceNeutral,
    SetupMode,
    TradeCards,
    TradeSchedule,
)
from risk_rules.engine.core.ruleset import LegalAction
from tests.engine.validation_kit import ValidationKit
from tests.engine.validation_kit import with_changes as _with

RULES = get_ruleset("classic")
OFF_BOARD = (-1, TERRITORIES)  # -1 and 42
EVERY_TERRITORY = (*range(TERRITORIES), *OFF_BOARD)
WILDS = (42, 43)
ACTION_TYPES: tuple[type[Action], ...] = (
    ClaimTerritory, PlaceArmies, PlaceNeutral, TradeCards, Attack, Defend, MoveIn, EndAttack,
    Fortify, EndTurn,
)
PHASE_ACTIONS: dict[Phase, tuple[type[Action], ...]] = {
    Phase.CLAIM: (ClaimTerritory,),
    Phase.SETUP_PLACE: (PlaceArmies,),
    Phase.SETUP_NEUTRAL: (PlaceNeutral,),
    Phase.REINFORCE: (TradeCards, PlaceArmies),
    Phase.ATTACK: (Attack, EndAttack),
    Phase.DEFEND: (Defend,),
    Phase.MOVE_IN: (MoveIn,),
    Phase.FORTIFY: (Fortify, EndTurn),
    Phase.FINISHED: (),
}


@dataclass(frozen=True, slots=True)
class ForeignAction(Action):
    """An action of no classic kind (another variant's, as far as classic can tell)."""

    territory: int = 0


# ---- the oracle: which rules an action breaks, written from classic.md ----------------------


def _decider(state: ClassicState) -> int:
    if state.phase is Phase.DEFEND:
        defender = state.owner[state.attack_to]
        neutral = state.options.players == 2 and defender == 2
        return 1 - state.current if neutral else defender
    return state.current


def _on_board(t: int) -> bool:
    return 0 <= t < TERRITORIES


def _symbol(card: int) -> int:
    return 3 if card in WILDS else card % 3


def _is_set(cards: tuple[int, ...]) -> bool:
    symbols = [_symbol(c) for c in cards]
    return 3 in symbols or len(set(symbols)) in (1, 3)


def _own_chain(state: ClassicState, start: int, seat: int) -> set[int]:
    """Territories reachable from `start` through the seat's own territories."""
    seen, todo = {start}, deque([start])
    while todo:
        for nxt in CLASSIC_BOARD.links[todo.popleft()]:
            if nxt not in seen and state.owner[nxt] == seat:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _count_faults(count: int, low: int, high: int) -> set[Reason]:
    if count < low:
        return {Reason.TOO_FEW_ARMIES}
    return {Reason.TOO_MANY_ARMIES} if count > high else set()


def _place_faults(state: ClassicState, seat: int, t: int, owner: int) -> set[Reason]:
    if not _on_board(t):
        return {Reason.NO_SUCH_TERRITORY}
    return {Reason.NOT_OWNER} if state.owner[t] != owner else set()


def _trade_faults(state: ClassicState, seat: int, action: TradeCards) -> set[Reason]:
    if not state.options.cards:
        return {Reason.CARDS_DISABLED}
    hand, cards = state.hands[seat], action.cards
    faults: set[Reason] = set()
    if len(cards) != 3 or list(cards) != sorted(set(cards)) or not _is_set(cards):
        faults.add(Reason.INVALID_SET)
    if any(c not in hand for c in cards):
        faults.add(Reason.CARD_NOT_IN_HAND)
    if state.resume_attack and len(hand) < 5:
        faults.add(Reason.TRADE_NOT_ALLOWED)
    shown = [c for c in cards if _on_board(c) and state.owner[c] == seat]
    choices = {-1} if state.bonus_used or not shown else set(shown)
    if action.bonus_territory not in choices:
        faults.add(Reason.INVALID_BONUS_TERRITORY)
    return faults


def _attack_faults(state: ClassicState, seat: int, action: Attack) -> set[Reason]:
    src, dst, dice = action.from_territory, action.to_territory, action.dice
    faults: set[Reason] = set()
    if not (_on_board(src) and _on_board(dst)):
        faults.add(Reason.NO_SUCH_TERRITORY)
    if dice < 1:
        faults.add(Reason.TOO_FEW_DICE)
    if _on_board(src):
        if state.owner[src] != seat:
            faults.add(Reason.NOT_OWNER)
        if state.armies[src] < 2:
            faults.add(Reason.NOT_ENOUGH_ARMIES)
        if dice > min(3, state.armies[src] - 1):
            faults.add(Reason.TOO_MANY_DICE)
    if _on_board(dst) and state.owner[dst] == seat:
        faults.add(Reason.OWN_TERRITORY)
    if _on_board(src) and _on_board(dst) and dst not in CLASSIC_BOARD.links[src]:
        faults.add(Reason.NOT_ADJACENT)
    return faults


def _fortify_faults(state: ClassicState, seat: int, action: Fortify) -> set[Reason]:
    src, dst = action.from_territory, action.to_territory
    faults: set[Reason] = set()
    for t in (src, dst):
        faults |= _place_faults(state, seat, t, seat)
    if src == dst:
        faults.add(Reason.SAME_TERRITORY)
    if _on_board(src):
        faults |= _count_faults(action.count, 1, state.armies[src] - 1)
    elif action.count < 1:
        faults.add(Reason.TOO_FEW_ARMIES)
    if faults & {Reason.NO_SUCH_TERRITORY, Reason.NOT_OWNER}:
        return faults
    if state.options.fortify is FortifyMode.ADJACENT:
        if dst not in CLASSIC_BOARD.links[src]:
            faults.add(Reason.NOT_ADJACENT)
    elif dst not in _own_chain(state, src, seat):
        faults.add(Reason.NOT_CONNECTED)
    return faults


def faults(state: ClassicState, seat: int, action: Action) -> set[Reason]:
    """Every rule `action` by `seat` breaks in `state` (empty: the action is legal).

    The turn-level checks come in a fixed order, each alone; within an action every broken
    rule is listed, since the engine may report any one of them.
    """
    opts = state.options
    if not isinstance(action, ACTION_TYPES):
        return {Reason.WRONG_VARIANT}
    if not 0 <= seat < opts.players:
        return {Reason.NOT_A_SEAT}
    if state.phase is Phase.FINISHED:
        return {Reason.GAME_OVER}
    if seat != _decider(state):
        return {Reason.NOT_YOUR_TURN}
    if not isinstance(action, PHASE_ACTIONS[state.phase]):
        return {Reason.WRONG_PHASE}
    phase = state.phase
    if isinstance(action, ClaimTerritory):
        if not _on_board(action.territory):
            return {Reason.NO_SUCH_TERRITORY}
        return {Reason.TERRITORY_CLAIMED} if state.owner[action.territory] != -1 else set()
    if isinstance(action, PlaceNeutral):
        if not _on_board(action.territory):
            return {Reason.NO_SUCH_TERRITORY}
        return {Reason.NOT_NEUTRAL} if state.owner[action.territory] != opts.players else set()
    if isinstance(action, PlaceArmies):
        found = _place_faults(state, seat, action.territory, seat)
        if phase is Phase.SETUP_PLACE:
            high = min(state.pending, state.to_place[seat]) if opts.players == 2 else 1
        else:
            high = state.pending
            if len(state.hands[seat]) >= 5:
                found.add(Reason.MUST_TRADE)
        return found | _count_faults(action.count, 1, high)
    if isinstance(action, TradeCards):
        return _trade_faults(state, seat, action)
    if isinstance(action, Attack):
        return _attack_faults(state, seat, action)
    if isinstance(action, Defend):
        if action.dice < 1:
            return {Reason.TOO_FEW_DICE}
        top = min(2, state.armies[state.attack_to])
        return {Reason.TOO_MANY_DICE} if action.dice > top else set()
    if isinstance(action, MoveIn):
        return _count_faults(action.count, state.attack_dice, state.armies[state.attack_from] - 1)
    if isinstance(action, Fortify):
        return _fortify_faults(state, seat, action)
    return set()  # EndAttack, EndTurn


# ---- sampled states ---------------------------------------------------------------------------


def _opts(players: int, **changes: Any) -> ClassicOptions:
    return ClassicOptions(players=players, **changes)


SAMPLE_GAMES: list[tuple[ClassicOptions, float]] = [
    (_opts(2, auto_place=False), 0.0),
    (_opts(2, auto_place=True, fortify=FortifyMode.ADJACENT, trade_schedule=TradeSchedule.FIXED,
           auto_defend_max_dice=True), 0.0),
    (_opts(2, auto_place=False, fortify=FortifyMode.ADJACENT), 0.3),
    (_opts(3, setup=SetupMode.CLAIM, trade_schedule=TradeSchedule.HASBRO_1993, max_turns=60), 0.0),
    (_opts(3, setup=SetupMode.RANDOM_DEAL, auto_place=True, max_turns=150), 0.05),
    (_opts(4, setup=SetupMode.RANDOM_DEAL, fortify=FortifyMode.ADJACENT, max_turns=80), 0.0),
    (_opts(4, setup=SetupMode.RANDOM_DEAL, auto_place=True, max_turns=40), 1.0),
    (_opts(5, setup=SetupMode.RANDOM_DEAL, auto_place=True, cards=False,
           trade_schedule=TradeSchedule.FIXED, auto_defend_max_dice=True, max_turns=40), 0.0),
    (_opts(5, setup=SetupMode.RANDOM_DEAL, auto_place=True, trade_schedule=TradeSchedule.FIXED,
           max_turns=150), 0.0),
    (_opts(6, setup=SetupMode.CLAIM, fortify=FortifyMode.ADJACENT,
           trade_schedule=TradeSchedule.HASBRO_1993, max_turns=120), 0.02),
    (_opts(6, setup=SetupMode.RANDOM_DEAL, auto_place=True, max_turns=150), 0.2),
]
PER_KIND = 4  # states kept per (phase, hand, flags) kind in each game


def _kind(state: ClassicState) -> tuple[object, ...]:
    hand = len(state.hands[state.current])
    return (state.phase, min(hand, 5), state.resume_attack, state.bonus_used, state.pending > 0)


KIT: ValidationKit[ClassicState] = ValidationKit(
    RULES, faults, ACTION_TYPES, games=SAMPLE_GAMES, seed_base=7000, per_kind=PER_KIND,
    kind=_kind, where=lambda state: f"in {state.phase.name}",
)
sampled_states, listed_examples, verdict = KIT.sampled_states, KIT.listed_examples, KIT.verdict


# ---- checking one candidate ------------------------------------------------------------------


def _counts(entry: LegalAction) -> list[int]:
    low = getattr(entry.action, "count")  # noqa: B009 - every ranged action has a count
    return sorted({low, (low + entry.max_count) // 2, entry.max_count})


def _territory_mutations(action: Action) -> Iterable[tuple[Action, Reason | None]]:
    for name in ("territory", "from_territory", "to_territory"):
        if hasattr(action, name):
            for t in EVERY_TERRITORY:
                wanted = None if _on_board(t) else Reason.NO_SUCH_TERRITORY
                yield _with(action, **{name: t}), wanted


def _count_mutations(entry: LegalAction) -> Iterable[tuple[Action, Reason | None]]:
    action = entry.action
    if isinstance(action, Attack | Defend):
        yield _with(action, dice=action.dice + 1), None
        yield _with(action, dice=0), Reason.TOO_FEW_DICE
    if entry.max_count:
        low = getattr(action, "count")  # noqa: B009
        yield _with(action, count=entry.max_count + 1), Reason.TOO_MANY_ARMIES
        yield _with(action, count=0), Reason.TOO_FEW_ARMIES
        yield _with(action, count=low - 1), Reason.TOO_FEW_ARMIES


def _card_mutations(state: ClassicState, seat: int, action: TradeCards) -> Iterable[Action]:
    cards = action.cards
    for t in EVERY_TERRITORY:
        yield TradeCards(cards, t)
    position = sum(cards) % 3
    for card in range(-1, DECK_SIZE + 1):
        changed = list(cards)
        changed[position] = card
        yield TradeCards(tuple(sorted(changed)), action.bonus_territory)
    yield TradeCards(cards[::-1], action.bonus_territory)
    yield TradeCards(cards[:2], action.bonus_territory)
    yield TradeCards((cards[0], *cards), action.bonus_territory)
    yield TradeCards(tuple(sorted({*cards, *state.hands[seat][:1]})), action.bonus_territory)


def _extra_candidates(state: ClassicState, seat: int) -> Iterable[Action]:
    """Actions no listed one mutates into: placing or trading when it is not allowed."""
    if state.phase is Phase.REINFORCE:
        hand = state.hands[seat]
        for combo in combinations(hand, 3):
            for bonus in {-1, *(c for c in combo if _on_board(c))}:
                yield TradeCards(combo, bonus)
        yield TradeCards((0, 1, 2), -1)
        yield from (PlaceArmies(t, 1) for t in range(TERRITORIES) if state.owner[t] == seat)


# ---- tests ------------------------------------------------------------------------------------


def test_sampled_states_cover_every_phase_and_flag() -> None:
    """The sampled states include every phase, forced trades, post-elimination trades, neutral."""
    states = sampled_states()
    assert {s.phase for s in states} == set(Phase)
    assert any(s.phase is Phase.REINFORCE and len(s.hands[s.current]) >= 5 for s in states)
    assert any(s.phase is Phase.REINFORCE and s.resume_attack for s in states)
    assert any(s.phase is Phase.REINFORCE and s.bonus_used for s in states)
    assert any(
        s.phase is Phase.DEFEND and s.options.players == 2 and s.owner[s.attack_to] == 2
        for s in states
    )
    assert any(not s.options.cards and s.phase is Phase.REINFORCE for s in states)
    assert all(listed_examples().values()), "some action type is never listed"
    print(f"\nclassic validation: {len(states)} sampled states")


def test_every_listed_action_is_accepted() -> None:
    """Every listed action (low, middle and high count of a range) is accepted by apply."""
    accepted = 0
    for state in sampled_states():
        for seat in RULES.decision(state).seats:
            for entry in RULES.legal_actions(state, seat):
                actions = (
                    [_with(entry.action, count=n) for n in _counts(entry)]
                    if entry.max_count else [entry.action]
                )
                for action in actions:
                    RULES.apply(state, seat, action)
                    accepted += 1
    print(f"\nclassic validation: {accepted} listed actions accepted")
    assert accepted > 1000


def test_mutated_actions_are_listed_or_rejected_with_the_right_reason() -> None:
    """Mutated listed actions are listed too, or rejected with the reason the rules give."""
    seen: Counter[str] = Counter()
    rng = random.Random(5)
    examples = listed_examples()
    for state in sampled_states():
        players = state.options.players
        if state.phase is Phase.FINISHED:
            for seat in range(players):
                for kind in ACTION_TYPES:
                    for action in examples[kind][:1]:
                        verdict(state, seat, action, seen, expected=Reason.GAME_OVER)
            continue
        (seat,) = RULES.decision(state).seats
        legal = RULES.legal_actions(state, seat)
        for entry in rng.sample(legal, min(3, len(legal))):
            for other in (*range(players), -1, players, players + 1):
                if other != seat:
                    seat_fault = (
                        Reason.NOT_YOUR_TURN if 0 <= other < players else Reason.NOT_A_SEAT
                    )
                    verdict(state, other, entry.action, seen, expected=seat_fault)
        for kind in ACTION_TYPES:
            if kind not in PHASE_ACTIONS[state.phase]:
                for action in examples[kind]:
                    verdict(state, seat, action, seen, expected=Reason.WRONG_PHASE, legal=legal)
        verdict(state, seat, ForeignAction(), seen, expected=Reason.WRONG_VARIANT, legal=legal)
        for entry in rng.sample(legal, min(3, len(legal))):
            for action, no_such in _territory_mutations(entry.action):
                verdict(state, seat, action, seen, expected=no_such, legal=legal)
        for entry in legal:
            top_dice = _top_dice(legal, entry.action)
            for action, wanted in _count_mutations(entry):
                more_dice = isinstance(action, Attack | Defend) and action.dice > top_dice
                reason = Reason.TOO_MANY_DICE if more_dice else wanted
                verdict(state, seat, action, seen, expected=reason, legal=legal)
            if isinstance(entry.action, TradeCards):
                for action in _card_mutations(state, seat, entry.action):
                    verdict(state, seat, action, seen, legal=legal)
        for action in _extra_candidates(state, seat):
            verdict(state, seat, action, seen, legal=legal)
    print(f"\nclassic validation verdicts: {dict(sorted(seen.items()))}")
    every_reason = {
        Reason.WRONG_VARIANT, Reason.NOT_A_SEAT, Reason.GAME_OVER, Reason.NOT_YOUR_TURN,
        Reason.WRONG_PHASE, Reason.NO_SUCH_TERRITORY, Reason.TERRITORY_CLAIMED, Reason.NOT_OWNER,
        Reason.NOT_NEUTRAL, Reason.OWN_TERRITORY, Reason.NOT_ADJACENT, Reason.NOT_CONNECTED,
        Reason.SAME_TERRITORY, Reason.TOO_MANY_DICE, Reason.TOO_FEW_DICE, Reason.TOO_MANY_ARMIES,
        Reason.TOO_FEW_ARMIES, Reason.NOT_ENOUGH_ARMIES, Reason.MUST_TRADE,
        Reason.CARD_NOT_IN_HAND, Reason.INVALID_SET, Reason.INVALID_BONUS_TERRITORY,
        Reason.TRADE_NOT_ALLOWED, Reason.CARDS_DISABLED,
    }
    assert {r.value for r in every_reason} <= set(seen), "some reason code was never exercised"
    assert seen["accepted"] > 0


def _top_dice(legal: list[LegalAction], action: Action) -> int:
    """The most dice listed for the same attack (or defence) as `action`."""
    if isinstance(action, Attack):
        return max(
            e.action.dice for e in legal
            if isinstance(e.action, Attack)
            and (e.action.from_territory, e.action.to_territory)
            == (action.from_territory, action.to_territory)
        )
    return max((e.action.dice for e in legal if isinstance(e.action, Defend)), default=0)


# ---- Hypothesis: apply accepts a  <=>  a is listed ---------------------------------------------

SMALL = st.integers(-1, 6)
TERRITORY = st.one_of(st.integers(-2, 44), st.sampled_from(OFF_BOARD))
COUNT = st.one_of(st.integers(-1, 6), st.integers(0, 60))


@st.composite
def candidates(draw: st.DrawFn) -> tuple[ClassicState, int, Action]:
    """A sampled state, a seat (usually the deciding one) and an action of any classic type."""
    state = draw(KIT.state_strategy())
    players = state.options.players
    deciding = RULES.decision(state).seats
    decider_acts = bool(deciding) and draw(st.integers(0, 3)) > 0
    seat = deciding[0] if decider_acts else draw(st.integers(-1, players))
    legal = RULES.legal_actions(state, deciding[0]) if deciding else []
    mode = draw(st.sampled_from(["listed", "mutated", "random"] if legal else ["random"]))
    if mode != "random":
        action = draw(st.sampled_from(draw(st.sampled_from(legal)).instances()))
        if mode == "listed":
            return state, seat, action
        fields = [f.name for f in dataclasses.fields(action)]
        if not fields:
            return state, seat, action
        name = draw(st.sampled_from(fields))
        if name == "cards":
            return state, seat, _with(action, cards=draw(_cards(state)))
        value = draw(TERRITORY if "territory" in name else COUNT)
        return state, seat, _with(action, **{name: value})
    kind = draw(st.sampled_from(ACTION_TYPES))
    if kind is TradeCards:
        return state, seat, TradeCards(draw(_cards(state)), draw(TERRITORY))
    values = {}
    for f in dataclasses.fields(kind):
        values[f.name] = draw(TERRITORY if "territory" in f.name else SMALL)
    return state, seat, kind(**values)


def _cards(state: ClassicState) -> st.SearchStrategy[tuple[int, ...]]:
    held = sorted({c for hand in state.hands for c in hand})
    card = st.one_of(st.integers(-1, DECK_SIZE), st.sampled_from(held)) if held else st.integers(
        -1, DECK_SIZE
    )
    return st.lists(card, min_size=0, max_size=4).map(
        lambda cs: tuple(sorted(cs)) if len(cs) % 2 else tuple(cs)
    )


@pytest.fixture(scope="module")
def hypothesis_seen() -> Iterator[Counter[str]]:
    seen: Counter[str] = Counter()
    yield seen
    print(f"\nclassic Hypothesis verdicts: {dict(sorted(seen.items()))}")


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(candidate=candidates())
def test_apply_accepts_exactly_the_listed_actions(
    hypothesis_seen: Counter[str], candidate: tuple[ClassicState, int, Action]
) -> None:
    """For generated candidates, apply accepts a iff is_legal(legal_actions(s, seat), a)."""
    state, seat, action = candidate
    verdict(state, seat, action, hypothesis_seen)
