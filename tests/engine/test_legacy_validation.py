"""`apply` validates every Risk Legacy action on its own, with the right reason code.

States are sampled from seeded playouts (bots, and some uniformly random legal moves) over a
fresh world, a world shaped by earlier games and a world full of cities, across every step:
HQ placement, the scar and missile windows, the start of a turn (Red Stars, joining the war,
recruiting), recruiting, attacks, defence, move-in, maneuver, the card choice, and finished
games. On each sampled state: every listed legal action is accepted; mutations of listed actions
(another seat, territory, count, dice, side, die, slot or payment, an action of another step)
are either listed too or rejected with a reason an independent oracle in this file expects; and
for Hypothesis-built candidates, `apply` accepts exactly what `is_legal(legal_actions(...))`
admits. A rejected action leaves the state as it was.
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
from legacy_states import world_for

from risk_rules.engine import Action, Reason, get_ruleset, is_legal
from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.legacy.content import board_of
from risk_rules.engine.legacy.model import (
    Attack,
    BuyRedStar,
    Defend,
    EndAttack,
    EndTurn,
    Expand,
    FireMissile,
    JoinWar,
    LegacyOptions,
    LegacyState,
    Maneuver,
    MoveIn,
    Pass,
    Phase,
    PlaceHq,
    PlaceTroops,
    PlayScar,
    Side,
    TakeCard,
    TradeResources,
)
from risk_rules.engine.legacy.world import CitySize, Power
from tests.engine.validation_kit import ValidationKit
from tests.engine.validation_kit import with_changes as _with

RULES = get_ruleset("legacy")
ACTION_TYPES: tuple[type[Action], ...] = (
    PlaceHq, PlayScar, Pass, BuyRedStar, JoinWar, TradeResources, PlaceTroops, Expand, Attack,
    Defend, FireMissile, MoveIn, EndAttack, Maneuver, EndTurn, TakeCard,
)
# the legacy.md reading, written out again: where each action may be taken
STEP_ACTIONS: dict[str, tuple[type[Action], ...]] = {
    "setup_hq": (PlaceHq,),
    "scar": (PlayScar, Pass),
    "missile": (FireMissile, Pass),
    "start": (BuyRedStar, JoinWar, EndTurn, TradeResources, PlaceTroops),
    "recruit": (TradeResources, PlaceTroops),
    "attack": (Expand, Attack, Maneuver, EndAttack),
    "defend": (Defend,),
    "move_in": (MoveIn,),
    "maneuver": (Maneuver, EndTurn),
    "draw": (TakeCard,),
}
WINDOW_STEPS = {1: "scar", 2: "missile"}
LINKS = CLASSIC_BOARD.links


@dataclass(frozen=True, slots=True)
class ForeignAction(Action):
    """An action of no Legacy kind (another variant's, as far as Legacy can tell)."""

    territory: int = 0


# ---- the oracle -------------------------------------------------------------------------------


def _step(state: LegacyState) -> str:
    if state.windows:
        return WINDOW_STEPS[state.windows[-1].kind]
    return state.phase.name.lower()


def _decider(state: LegacyState) -> int:
    if state.windows:
        top = state.windows[-1]
        return next(s for s in top.order if s not in top.passed)
    if state.phase is Phase.DEFEND:
        return state.owner[state.attack_to]
    return state.current


def _power(state: LegacyState, seat: int) -> Power:
    return state.options.world.factions[seat].power


def _in(t: int) -> bool:
    return 0 <= t < 42


def _connected(state: LegacyState, seat: int, src: int, dst: int) -> bool:
    seen, todo = {src}, [src]
    while todo:
        for n in LINKS[todo.pop()]:
            if n not in seen and state.owner[n] == seat:
                seen.add(n)
                todo.append(n)
    return dst in seen


def _starts(state: LegacyState, seat: int, *, hq: bool) -> tuple[list[int], list[int]]:
    """(legal starts ignoring HQ adjacency, legal HQ spots with the rules' fallbacks)."""
    board = board_of(state.options.world)
    hqs = {h for h in state.hqs if h >= 0}
    free = [t for t in range(42) if state.owner[t] < 0 and t not in hqs]
    marked = [t for t in free if state.scars[t] or board.city_size[t] or state.fortifications[t]]
    own_major = {t for t in free if board.city_size[t] == CitySize.MAJOR
                 and board.city_founder[t] == seat}
    found = [t for t in free if t not in marked or t in own_major]
    if not hq:
        return found, found
    apart = [t for t in found if not set(LINKS[t]) & hqs]
    return found, apart or found or free


def _values(state: LegacyState, seat: int) -> Counter[int]:
    board = board_of(state.options.world)
    return Counter(1 if c >= 42 else board.card_value[c] for c in state.hands[seat])


def _payment_faults(state: LegacyState, seat: int, values: tuple[int, ...]) -> set[Reason]:
    if not values or any(not 1 <= v <= 6 for v in values) or \
            list(values) != sorted(values, reverse=True):
        return {Reason.INVALID_SET}
    have = _values(state, seat)
    if any(have[v] < n for v, n in Counter(values).items()):
        return {Reason.CARD_NOT_IN_HAND}
    return set()


def _territory_faults(state: LegacyState, seat: int, t: int, *, own: bool) -> set[Reason]:
    if not _in(t):
        return {Reason.NO_SUCH_TERRITORY}
    if own and state.owner[t] != seat:
        return {Reason.NOT_OWNER}
    return set()


def _count_faults(count: int, low: int, high: int) -> set[Reason]:
    if count < low:
        return {Reason.TOO_FEW_ARMIES}
    if count > high:
        return {Reason.TOO_MANY_ARMIES}
    return set()


def _move_faults(state: LegacyState, seat: int, src: int, dst: int) -> set[Reason]:
    found = _territory_faults(state, seat, src, own=True) | \
        _territory_faults(state, seat, dst, own=False)
    if src == dst:
        found.add(Reason.SAME_TERRITORY)
    return found


def _recruits_due(state: LegacyState, seat: int) -> int:
    """The recruits a placement in START tells first (the rules, restated for the oracle)."""
    board = board_of(state.options.world)
    owned = [t for t, o in enumerate(state.owner) if o == seat]
    total = len(owned) + sum(board.population[t] for t in owned)
    round_up = state.options.world.factions[seat].power is Power.ROUND_UP
    bonus = sum(
        board.continent_bonus[r] + (board.namer[r] == seat)
        for r, region in enumerate(CLASSIC_BOARD.regions)
        if all(state.owner[t] == seat for t in region.members)
    )
    return max(3, (total + 2) // 3 if round_up else total // 3) + bonus


def _action_faults(state: LegacyState, seat: int, action: Action) -> set[Reason]:
    recruiting = seat in state.owner
    found: set[Reason] = set()
    if isinstance(action, PlaceHq):
        if not _in(action.territory):
            return {Reason.NO_SUCH_TERRITORY}
        found_starts, spots = _starts(state, seat, hq=True)
        if action.territory in spots:
            return set()
        if action.territory in found_starts:
            return {Reason.HQ_TOO_CLOSE}
        return {Reason.NOT_A_STARTING_TERRITORY}
    if isinstance(action, PlayScar):
        if not state.scar_cards[seat]:
            found.add(Reason.CARD_NOT_IN_HAND)
        if not _in(action.territory):
            found.add(Reason.NO_SUCH_TERRITORY)
        elif state.scars[action.territory]:
            found.add(Reason.TERRITORY_SCARRED)
        return found
    if isinstance(action, FireMissile):
        if not state.missiles[seat]:
            found.add(Reason.NO_MISSILES)
        if action.side not in (1, 2):
            return found | {Reason.WRONG_SIDE}
        hits = state.attack_missiles if action.side == 1 else state.defence_missiles
        if not 0 <= action.die < len(hits):
            found.add(Reason.NO_SUCH_DIE)
        elif hits[action.die]:
            found.add(Reason.DIE_UNMODIFIABLE)
        return found
    if isinstance(action, BuyRedStar):
        if len(action.values) < 4:
            found.add(Reason.TOO_FEW_CARDS)
        elif len(action.values) > 4:
            found.add(Reason.TOO_MANY_CARDS)
        return found | _payment_faults(state, seat, action.values)
    if isinstance(action, JoinWar):
        if recruiting:
            return {Reason.WRONG_PHASE}
        if not _in(action.territory):
            return {Reason.NO_SUCH_TERRITORY}
        starts, _ = _starts(state, seat, hq=False)
        return set() if action.territory in starts else {Reason.NOT_A_STARTING_TERRITORY}
    if isinstance(action, EndTurn) and state.phase is Phase.START:
        starts, _ = _starts(state, seat, hq=False)
        return {Reason.WRONG_PHASE} if recruiting or starts else set()
    if isinstance(action, TradeResources):
        if not recruiting:
            found.add(Reason.WRONG_PHASE)
        if state.traded:
            found.add(Reason.TRADE_NOT_ALLOWED)
        payment = _payment_faults(state, seat, action.values)
        if Reason.INVALID_SET not in payment:
            total = sum(action.values)
            if total < 2:
                found.add(Reason.TOO_FEW_RESOURCES)
        return found | payment
    if isinstance(action, PlaceTroops):
        if not recruiting:
            return {Reason.WRONG_PHASE}
        found = _territory_faults(state, seat, action.territory, own=True)
        pending = _recruits_due(state, seat) if state.phase is Phase.START else state.pending
        return found | _count_faults(action.count, 1, pending)
    if isinstance(action, Expand):
        src, dst = action.from_territory, action.to_territory
        found = _move_faults(state, seat, src, dst)
        if found:
            return found
        if dst not in LINKS[src]:
            found.add(Reason.NOT_ADJACENT)
        if state.owner[dst] >= 0:
            found.add(Reason.TERRITORY_OCCUPIED)
            return found
        board = board_of(state.options.world)
        cost = board.population[dst] + (2 if board.population[dst] and
                                         state.fortifications[dst] else 0)
        return found | _count_faults(action.count, cost + 1, state.troops[src] - 1)
    if isinstance(action, Attack):
        src, dst = action.from_territory, action.to_territory
        found = _move_faults(state, seat, src, dst)
        if _in(dst) and state.owner[dst] == seat:
            found.add(Reason.OWN_TERRITORY)
        if not _in(src) or not _in(dst) or Reason.NOT_OWNER in found:
            return found
        if dst not in LINKS[src]:
            found.add(Reason.NOT_ADJACENT)
        if state.owner[dst] < 0:
            found.add(Reason.TERRITORY_EMPTY)
        if dst in state.protected:
            found.add(Reason.ATTACKS_STOPPED)
        if state.troops[src] < 2:
            found.add(Reason.NOT_ENOUGH_ARMIES)
        if action.dice < 1:
            found.add(Reason.TOO_FEW_DICE)
        elif action.dice > min(3, state.troops[src] - 1):
            found.add(Reason.TOO_MANY_DICE)
        return found
    if isinstance(action, Maneuver):
        power = _power(state, seat)
        if state.phase is Phase.ATTACK and power is not Power.MANEUVER_ANY_TIME:
            return {Reason.WRONG_PHASE}
        if state.maneuvered:
            found.add(Reason.ALREADY_MANEUVERED)
        src, dst = action.from_territory, action.to_territory
        found |= _move_faults(state, seat, src, dst)
        found |= _territory_faults(state, seat, dst, own=True)
        if Reason.NOT_OWNER in found or Reason.NO_SUCH_TERRITORY in found:
            return found
        found |= _count_faults(action.count, 1, state.troops[src] - 1)
        if power is not Power.MANEUVER_ANYWHERE and src != dst and \
                not _connected(state, seat, src, dst):
            found.add(Reason.NOT_CONNECTED)
        return found
    if isinstance(action, Defend):
        if action.dice < 1:
            return {Reason.TOO_FEW_DICE}
        if action.dice > min(2, state.troops[state.attack_to]):
            return {Reason.TOO_MANY_DICE}
        return set()
    if isinstance(action, MoveIn):
        most = state.troops[state.attack_from] - 1
        return _count_faults(action.count, min(state.attack_count, most), most)
    if isinstance(action, TakeCard):
        slots = state.sideboard
        ok = 0 <= action.slot < len(slots) and slots[action.slot] >= 0 and \
            state.owner[slots[action.slot]] == seat
        return set() if ok else {Reason.INVALID_SLOT}
    return set()  # Pass, EndAttack, EndTurn (maneuver)


def faults(state: LegacyState, seat: int, action: Action) -> set[Reason]:
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
    return _action_faults(state, seat, action)


# ---- sampled states ---------------------------------------------------------------------------


SAMPLE_GAMES: list[tuple[int, str, float]] = [
    (3, "fresh", 0.0),
    (4, "fresh", 0.2),
    (4, "veteran", 0.0),
    (5, "veteran", 0.05),
    (3, "crowded", 0.0),
    (5, "crowded", 0.3),
]
PER_KIND = 3


def _kind(state: LegacyState) -> tuple[object, ...]:
    seat = _decider(state) if state.phase is not Phase.FINISHED else -1
    return (_step(state), seat == state.current, state.traded,
            seat >= 0 and seat in state.owner, bool(state.hands[max(seat, 0)]))


KIT: ValidationKit[LegacyState] = ValidationKit(
    RULES, faults, ACTION_TYPES,
    games=(
        (LegacyOptions(players=players, world=world_for(kind, players)), share)
        for players, kind, share in SAMPLE_GAMES
    ),
    seed_base=9100, per_kind=PER_KIND, kind=_kind, where=lambda state: f"at {_step(state)}",
)
sampled_states, listed_examples, verdict = KIT.sampled_states, KIT.listed_examples, KIT.verdict


# ---- checking one candidate ------------------------------------------------------------------


def _mutations(state: LegacyState, action: Action) -> Iterable[Action]:
    """The listed action with one field changed to each interesting value."""
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        candidates: Iterable[object]
        if f.name in ("territory", "from_territory", "to_territory"):
            near = LINKS[value] if 0 <= value < 42 else ()
            candidates = {-1, 42, 0, 41, value + 1, value - 1, *near[:3]}
        elif f.name == "count":
            candidates = (-1, 0, value - 1, value + 1, 99)
        elif f.name == "dice":
            candidates = (-1, 0, 1, 2, 3, 4)
        elif f.name == "side":
            candidates = (0, 1, 2, 3)
        elif f.name in ("die", "slot"):
            candidates = (-1, 0, 1, 2, 3, 4)
        elif f.name == "values":
            candidates = (
                (), (*value, 1), value[:-1], (6, *value), tuple(reversed(value)), (7, 1, 1, 1),
                (0, 1), (1,), (6, 5), (6, 5, 1), (4, 4, 1, 1), (1, 1, 1, 1, 1),
            )
        else:
            continue
        for candidate in candidates:
            yield _with(action, **{f.name: candidate})


def test_every_listed_action_is_accepted() -> None:
    """Each listed action (ranged ones at every count) applies cleanly."""
    accepted = 0
    for state in sampled_states():
        for seat in RULES.decision(state).seats:
            for entry in RULES.legal_actions(state, seat):
                for action in entry.instances():
                    RULES.apply(state, seat, action)
                    accepted += 1
    print(f"\nlegacy validation: {accepted} listed actions accepted")
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
                for action in examples[kind][:2]:
                    verdict(state, seat, action, seen, expected=Reason.WRONG_PHASE, legal=legal)
        verdict(state, seat, ForeignAction(), seen, expected=Reason.WRONG_VARIANT, legal=legal)
        for entry in rng.sample(legal, min(12, len(legal))):
            for action in _mutations(state, entry.action):
                verdict(state, seat, action, seen, legal=legal)
        for kind in STEP_ACTIONS[_step(state)]:
            for action in examples[kind]:
                verdict(state, seat, action, seen, legal=legal)
    print(f"\nlegacy validation verdicts: {dict(sorted(seen.items()))}")
    every_reason = {
        Reason.WRONG_VARIANT, Reason.NOT_A_SEAT, Reason.GAME_OVER, Reason.NOT_YOUR_TURN,
        Reason.WRONG_PHASE, Reason.NO_SUCH_TERRITORY, Reason.NOT_OWNER, Reason.NOT_ADJACENT,
        Reason.TOO_FEW_ARMIES, Reason.TOO_MANY_ARMIES, Reason.TOO_MANY_DICE,
        Reason.TOO_FEW_DICE, Reason.NOT_A_STARTING_TERRITORY, Reason.TERRITORY_OCCUPIED,
        Reason.TERRITORY_EMPTY, Reason.OWN_TERRITORY, Reason.TERRITORY_SCARRED,
        Reason.INVALID_SET, Reason.CARD_NOT_IN_HAND, Reason.TOO_FEW_CARDS,
        Reason.TOO_MANY_CARDS, Reason.TOO_FEW_RESOURCES, Reason.WRONG_SIDE,
        Reason.NO_SUCH_DIE, Reason.DIE_UNMODIFIABLE, Reason.INVALID_SLOT,
        Reason.SAME_TERRITORY,
    }
    missing = {r.value for r in every_reason} - set(seen)
    assert not missing, f"reason codes never exercised: {missing}"
    assert seen["accepted"] > 0


# ---- Hypothesis: apply accepts a  <=>  a is listed ---------------------------------------------

SMALL = st.integers(-2, 44)


@st.composite
def candidates(draw: st.DrawFn) -> tuple[LegacyState, int, Action]:
    """A sampled state, a seat (usually the deciding one) and an action of any Legacy type."""
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
        if name == "values":
            value: object = tuple(draw(st.lists(st.integers(0, 7), max_size=6)))
        elif name == "side":
            value = draw(st.sampled_from([Side.ATTACKER, Side.DEFENDER]))
        else:
            value = draw(SMALL)
        return state, seat, _with(action, **{name: value})
    kind = draw(st.sampled_from(ACTION_TYPES))
    values: dict[str, object] = {}
    for f in dataclasses.fields(kind):
        if f.name == "values":
            values[f.name] = tuple(sorted(draw(st.lists(st.integers(1, 6), max_size=6)),
                                          reverse=True))
        elif f.name == "side":
            values[f.name] = draw(st.sampled_from([Side.ATTACKER, Side.DEFENDER]))
        else:
            values[f.name] = draw(SMALL)
    return state, seat, kind(**values)


@pytest.fixture(scope="module")
def hypothesis_seen() -> Iterator[Counter[str]]:
    seen: Counter[str] = Counter()
    yield seen
    print(f"\nlegacy Hypothesis verdicts: {dict(sorted(seen.items()))}")


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(candidate=candidates())
def test_apply_accepts_exactly_the_listed_actions(
    hypothesis_seen: Counter[str], candidate: tuple[LegacyState, int, Action]
) -> None:
    """For generated candidates, apply accepts a iff is_legal(legal_actions(s, seat), a)."""
    state, seat, action = candidate
    verdict(state, seat, action, hypothesis_seen)


def test_default_action_is_always_a_listed_action() -> None:
    """A timed-out seat's default action is legal in every sampled state, and passive: a pass
    in a window, no Red Star purchase, no trade."""
    for state in sampled_states():
        for seat in RULES.decision(state).seats:
            action = RULES.default_action(state, seat)
            assert is_legal(RULES.legal_actions(state, seat), action), (state.phase, action)
            assert not isinstance(action, BuyRedStar | TradeResources)
            if state.windows:
                assert action == Pass()
