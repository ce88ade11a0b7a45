"""`apply` validates every Strike action on its own, with the right reason code.

States are sampled from seeded playouts (bots, and some uniformly random legal moves) across
every step: draw, main, deploy, the windows after deployment and after a roll, Cancel Order
windows, continue, and finished games. On each sampled state: every listed legal action is
accepted; mutations of listed actions (another seat, target, continent, side, die or count, an
action of another step) are either listed too or rejected with a reason an independent oracle
in this file expects; and for Hypothesis-built candidates, `apply` accepts exactly what
`is_legal(legal_actions(...))` admits. A rejected action leaves the state as it was.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from risk_rules.engine import Action, Reason, get_ruleset
from risk_rules.engine.strike.model import (
    Attack,
    Deploy,
    DrawCards,
    Pass,
    PassTurn,
    Phase,
    PlayArtillery,
    PlayBombard,
    PlayCancelOrder,
    PlayExpand,
    PlayRally,
    PlaySabotage,
    PlaySpy,
    RollAgain,
    Side,
    StopAttack,
    StrikeOptions,
    StrikeState,
)
from tests.engine.validation_kit import ValidationKit
from tests.engine.validation_kit import with_changes as _with

RULES = get_ruleset("strike")
ACTION_TYPES: tuple[type[Action], ...] = (
    DrawCards, Attack, PassTurn, Deploy, Pass, PlaySpy, PlayExpand, PlayArtillery, PlaySabotage,
    PlayRally, PlayBombard, PlayCancelOrder, RollAgain, StopAttack,
)
# the strike.md reading, written out again: where each action may be taken
STEP_ACTIONS: dict[str, tuple[type[Action], ...]] = {
    "draw": (DrawCards, PlaySpy, PlayExpand),
    "main": (Attack, PassTurn, PlaySpy, PlayExpand),
    "continue": (RollAgain, StopAttack, PlaySpy, PlayExpand),
    "deploy": (Deploy, Pass),
    "after_deploy": (Pass, PlayArtillery, PlaySabotage),
    "after_roll": (Pass, PlayArtillery, PlayRally, PlayBombard),
    "cancel": (Pass, PlayCancelOrder),
}
WINDOW_STEPS = {1: "deploy", 2: "after_deploy", 3: "after_roll", 4: "cancel"}
# Continent sizes in card-id order, and the links between continents (from strike.md).
CONTINENT_OF = [c for c, n in enumerate((9, 4, 7, 6, 12, 4)) for _ in range(n)]
LINKED = {0: {1, 2, 4}, 1: {0, 3}, 2: {0, 3, 4}, 3: {1, 2, 4}, 4: {0, 2, 3, 5}, 5: {4}}
KIND_IDS = {"troops": range(42, 60), "artillery": range(60, 63), "sabotage": range(63, 67),
            "spy": range(67, 69), "rally": range(69, 72), "expand": range(72, 76),
            "bombard": range(76, 79), "cancel": range(79, 82)}
CARD_OF = {PlaySpy: "spy", PlayExpand: "expand", PlayArtillery: "artillery",
           PlaySabotage: "sabotage", PlayRally: "rally", PlayBombard: "bombard",
           PlayCancelOrder: "cancel"}


@dataclass(frozen=True, slots=True)
class ForeignAction(Action):
    """An action of no Strike kind (another variant's, as far as Strike can tell)."""

    target: int = 0


# ---- the oracle -------------------------------------------------------------------------------


def _step(state: StrikeState) -> str:
    if state.windows:
        return WINDOW_STEPS[state.windows[-1].kind]
    return state.phase.name.lower()


def _decider(state: StrikeState) -> int:
    if state.windows:
        top = state.windows[-1]
        return next(s for s in top.order if s not in top.passed)
    return state.current


def _holds(state: StrikeState, seat: int, kind: str) -> bool:
    return any(c in KIND_IDS[kind] for c in state.hands[seat])


def _cards_of(state: StrikeState, seat: int, continent: int) -> int:
    return sum(1 for c in state.continents[seat] if CONTINENT_OF[c] == continent)


def _other_live(state: StrikeState, seat: int, target: int) -> bool:
    return 0 <= target < state.options.players and target != seat and not state.out[target]


def _attack_faults(state: StrikeState, seat: int, action: Attack) -> set[Reason]:
    if not _other_live(state, seat, action.defender):
        return {Reason.NOT_AN_OPPONENT}
    src, dst = action.from_continent, action.to_continent
    if not (0 <= src < 6 and 0 <= dst < 6):
        return {Reason.NO_SUCH_CONTINENT}
    faults = set()
    if not _cards_of(state, seat, src) or not _cards_of(state, action.defender, dst):
        faults.add(Reason.NO_CONTINENT_CARD)
    if src != dst and dst not in LINKED[src]:
        faults.add(Reason.NOT_LINKED)
    return faults


def _card_faults(state: StrikeState, seat: int, action: Action) -> set[Reason]:
    faults = set()
    if not _holds(state, seat, CARD_OF[type(action)]):
        faults.add(Reason.CARD_NOT_IN_HAND)
    if isinstance(action, PlaySpy) and not _other_live(state, seat, action.target):
        faults.add(Reason.INVALID_TARGET)
    if isinstance(action, PlayArtillery) and not (
        _other_live(state, seat, action.target) and state.troops[action.target]
    ):
        faults.add(Reason.INVALID_TARGET)
    if isinstance(action, PlayExpand) and action.continent_cards not in (False, True):
        faults.add(Reason.INVALID_DRAW)
    if isinstance(action, PlayRally | PlayBombard) and state.sides[seat] == 0:
        faults.add(Reason.NOT_IN_BATTLE)
    if isinstance(action, PlayBombard):
        if action.side not in (1, 2):
            faults.add(Reason.WRONG_SIDE)
        else:
            dice = state.attack_dice if action.side == 1 else state.defence_dice
            if not (0 <= action.die < len(dice) and dice[action.die] < 6):
                faults.add(Reason.NO_SUCH_DIE)
    return faults


def faults(state: StrikeState, seat: int, action: Action) -> set[Reason]:
    """Every rule `action` by `seat` breaks (empty: legal). Turn-level checks come first, each
    alone; within an action every broken rule is listed, since the engine may name any."""
    if not isinstance(action, ACTION_TYPES):
        return {Reason.WRONG_VARIANT}
    if not 0 <= seat < state.options.players:
        return {Reason.NOT_A_SEAT}
    if state.phase is Phase.FINISHED:
        return {Reason.GAME_OVER}
    if seat != _decider(state):
        return {Reason.NOT_YOUR_TURN}
    if not isinstance(action, STEP_ACTIONS[_step(state)]):
        return {Reason.WRONG_PHASE}
    if isinstance(action, DrawCards):
        return set() if 0 <= action.continent_cards <= 2 else {Reason.INVALID_DRAW}
    if isinstance(action, Attack):
        return _attack_faults(state, seat, action)
    if isinstance(action, Deploy):
        allowed = {1} if seat == state.current else {2} if seat == state.defender else {1, 2}
        troops = sum(1 for c in state.hands[seat] if c in KIND_IDS["troops"])
        found = set()
        if action.side not in allowed:
            found.add(Reason.WRONG_SIDE)
        if action.count < 1:
            found.add(Reason.TOO_FEW_CARDS)
        elif action.count > troops:
            found.add(Reason.TOO_MANY_CARDS)
        return found
    if type(action) in CARD_OF:
        return _card_faults(state, seat, action)
    return set()  # PassTurn, Pass, RollAgain, StopAttack


# ---- sampled states ---------------------------------------------------------------------------


SAMPLE_GAMES: list[tuple[StrikeOptions, float]] = [
    (StrikeOptions(players=2), 0.0),
    (StrikeOptions(players=3), 0.2),
    (StrikeOptions(players=4), 0.0),
    (StrikeOptions(players=4, auto_pass=True), 0.05),
    (StrikeOptions(players=5), 0.0),
    (StrikeOptions(players=5, max_turns=20), 1.0),
]
PER_KIND = 4


def _kind(state: StrikeState) -> tuple[object, ...]:
    seat = _decider(state) if state.phase is not Phase.FINISHED else -1
    return (_step(state), len(state.plays), seat == state.current,
            seat >= 0 and state.sides[seat] != 0)


KIT: ValidationKit[StrikeState] = ValidationKit(
    RULES, faults, ACTION_TYPES, games=SAMPLE_GAMES, seed_base=9100, per_kind=PER_KIND,
    kind=_kind, where=lambda state: f"at {_step(state)}",
)
sampled_states, listed_examples, verdict = KIT.sampled_states, KIT.listed_examples, KIT.verdict


# ---- checking one candidate ------------------------------------------------------------------


def _mutations(state: StrikeState, action: Action) -> Iterable[Action]:
    """The listed action with one field changed to each interesting value."""
    players = state.options.players
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if f.name in ("defender", "target"):
            candidates: Iterable[object] = range(-1, players + 1)
        elif f.name in ("from_continent", "to_continent"):
            candidates = range(-1, 7)
        elif f.name == "side":
            candidates = (0, 1, 2, 3)
        elif f.name == "die":
            candidates = (-1, 0, 1, 2, 3)
        elif f.name in ("count", "continent_cards") and not isinstance(value, bool):
            candidates = (-1, 0, value + 1, 3, 20)
        elif f.name == "continent_cards":
            candidates = (False, True, 2)
        else:
            continue
        for candidate in candidates:
            yield _with(action, **{f.name: candidate})


def test_every_listed_action_is_accepted() -> None:
    """Each listed action (ranged ones at their low, middle and high count) applies cleanly."""
    accepted = 0
    for state in sampled_states():
        for seat in RULES.decision(state).seats:
            for entry in RULES.legal_actions(state, seat):
                for action in entry.instances():
                    RULES.apply(state, seat, action)
                    accepted += 1
    print(f"\nstrike validation: {accepted} listed actions accepted")
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
            for other in (*range(players), -1, players):
                if other != seat:
                    seat_fault = Reason.NOT_YOUR_TURN if 0 <= other < players else Reason.NOT_A_SEAT
                    verdict(state, other, entry.action, seen, expected=seat_fault)
        for kind in ACTION_TYPES:
            if kind not in STEP_ACTIONS[_step(state)]:
                for action in examples[kind]:
                    verdict(state, seat, action, seen, expected=Reason.WRONG_PHASE, legal=legal)
        verdict(state, seat, ForeignAction(), seen, expected=Reason.WRONG_VARIANT, legal=legal)
        for entry in legal:
            for action in _mutations(state, entry.action):
                verdict(state, seat, action, seen, legal=legal)
        # every card of the step, played without holding it (or with it)
        for kind in STEP_ACTIONS[_step(state)]:
            for action in examples[kind]:
                verdict(state, seat, action, seen, legal=legal)
    print(f"\nstrike validation verdicts: {dict(sorted(seen.items()))}")
    every_reason = {
        Reason.WRONG_VARIANT, Reason.NOT_A_SEAT, Reason.GAME_OVER, Reason.NOT_YOUR_TURN,
        Reason.WRONG_PHASE, Reason.INVALID_DRAW, Reason.NO_SUCH_CONTINENT,
        Reason.NO_CONTINENT_CARD, Reason.NOT_LINKED, Reason.NOT_AN_OPPONENT, Reason.WRONG_SIDE,
        Reason.TOO_FEW_CARDS, Reason.TOO_MANY_CARDS, Reason.INVALID_TARGET,
        Reason.CARD_NOT_IN_HAND, Reason.NOT_IN_BATTLE, Reason.NO_SUCH_DIE,
    }
    missing = {r.value for r in every_reason} - set(seen)
    assert not missing, f"reason codes never exercised: {missing}"
    assert seen["accepted"] > 0


# ---- Hypothesis: apply accepts a  <=>  a is listed ---------------------------------------------

SMALL = st.integers(-2, 7)


@st.composite
def candidates(draw: st.DrawFn) -> tuple[StrikeState, int, Action]:
    """A sampled state, a seat (usually the deciding one) and an action of any Strike type."""
    state = draw(KIT.state_strategy())
    players = state.options.players
    deciding = RULES.decision(state).seats
    decider_acts = bool(deciding) and draw(st.integers(0, 3)) > 0
    seat = deciding[0] if decider_acts else draw(st.integers(-1, players))
    legal = RULES.legal_actions(state, deciding[0]) if deciding else []
    mode = draw(st.sampled_from(["listed", "mutated", "random"] if legal else ["random"]))
    if mode != "random":
        action = draw(st.sampled_from(draw(st.sampled_from(legal)).instances()))
        fields = [f.name for f in dataclasses.fields(action)]
        if mode == "listed" or not fields:
            return state, seat, action
        name = draw(st.sampled_from(fields))
        value = draw(st.booleans()) if isinstance(getattr(action, name), bool) else draw(SMALL)
        return state, seat, _with(action, **{name: value})
    kind = draw(st.sampled_from(ACTION_TYPES))
    values: dict[str, object] = {}
    for f in dataclasses.fields(kind):
        values[f.name] = draw(st.booleans()) if f.name == "continent_cards" and \
            kind is PlayExpand else draw(SMALL)
        if f.name == "side":
            values[f.name] = draw(st.sampled_from([Side.ATTACKER, Side.DEFENDER]))
    return state, seat, kind(**values)


@pytest.fixture(scope="module")
def hypothesis_seen() -> Iterator[Counter[str]]:
    seen: Counter[str] = Counter()
    yield seen
    print(f"\nstrike Hypothesis verdicts: {dict(sorted(seen.items()))}")


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(candidate=candidates())
def test_apply_accepts_exactly_the_listed_actions(
    hypothesis_seen: Counter[str], candidate: tuple[StrikeState, int, Action]
) -> None:
    """For generated candidates, apply accepts a iff is_legal(legal_actions(s, seat), a)."""
    state, seat, action = candidate
    verdict(state, seat, action, hypothesis_seen)
