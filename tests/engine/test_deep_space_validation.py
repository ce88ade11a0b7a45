"""`apply` validates every Deep Space action on its own, with the right reason code.

States are sampled from seeded playouts (bots, and some uniformly random legal moves) across
every phase and player count, plus hand-made states for the rare dog decision. On each sampled
state: every listed legal action is accepted; mutations of listed actions (another node, seat,
card, count, resource, dog flag, an action of another phase) are either listed too or rejected
with a reason an independent oracle in this file expects; and for Hypothesis-built candidates,
`apply` accepts exactly what `is_legal(legal_actions(...))` admits. A rejected action leaves the
state as it was. The oracle is written from docs/rules-deep-space.md: the deck's ids, costs and
amounts and the covered planets are restated here; only the board's links come from the board
data file (whose shape the scenario tests pin down), never from the engine's rules.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from risk_rules.engine import Action, Reason, get_ruleset
from risk_rules.engine.core.ruleset import LegalAction
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD
from risk_rules.engine.deep_space.model import (
    BuildBase,
    CardKind,
    DeepSpaceOptions,
    DeepSpaceState,
    EndTurn,
    Mine,
    Move,
    Phase,
    PlayCard,
    Recruit,
    RelocateDog,
    Resource,
    ReturnDog,
    TradeCards,
    Warp,
)
from tests.engine.deep_space_states import card_of, hand_made, p
from tests.engine.validation_kit import ValidationKit
from tests.engine.validation_kit import with_changes as _with

RULES = get_ruleset("deep_space")
PLANETS, NODES, DECK = 20, 24, 36
OFF_BOARD = (-1, NODES, 99)
EVERY_NODE = (*range(NODES), *OFF_BOARD)
WARP = {p(n) for n in ("Mimas", "Nyx", "Orion", "Pan", "Rhea", "Selene", "Titan", "Vesta")}
COVERED_WITH_TWO = {p("Juno"), p("Luna")}
RED = p("Red Station")
STATIONS_IN_PLAY = {2: (20, 22), 3: (20, 21, 22), 4: (20, 21, 22, 23)}
ACTION_TYPES: tuple[type[Action], ...] = (
    TradeCards, Mine, Recruit, Move, Warp, BuildBase, PlayCard, RelocateDog, ReturnDog, EndTurn,
)
ACTING = (TradeCards, Mine, Recruit, Move, Warp, BuildBase, PlayCard, EndTurn)
PHASE_ACTIONS: dict[Phase, tuple[type[Action], ...]] = {
    Phase.START: ACTING,
    Phase.MINING: ACTING,
    Phase.MAIN: ACTING,
    Phase.DOG: (RelocateDog, ReturnDog),
    Phase.FINISHED: (),
}
# The decided deck (rules-deep-space.md): (kind, copies, cost, amount), ids in this order.
DECK_TABLE = (
    (CardKind.SPACE_DOG, 3, "gem", 1), (CardKind.FORCE_FIELD, 2, "gem", 1),
    (CardKind.METEOR_STRIKE, 4, "recruit", 2), (CardKind.HYPERJUMP, 4, "free", 1),
    (CardKind.REINFORCEMENTS, 5, "free", 2), (CardKind.GEM_RUSH, 4, "free", 2),
    (CardKind.ORE_HAUL, 4, "free", 2), (CardKind.BATTLE_CRY, 4, "gem", 1),
    (CardKind.PROSPECTOR, 3, "free", 1), (CardKind.SABOTAGE, 3, "recruit", 2),
)
KIND = [kind for kind, copies, _, _ in DECK_TABLE for _ in range(copies)]
COST = {kind: cost for kind, _, cost, _ in DECK_TABLE}
AMOUNT = {kind: amount for kind, _, _, amount in DECK_TABLE}
READS = {
    CardKind.SPACE_DOG: {"planet"}, CardKind.FORCE_FIELD: {"planet"},
    CardKind.METEOR_STRIKE: {"planet", "count"}, CardKind.PROSPECTOR: {"planet", "resource"},
    CardKind.SABOTAGE: {"target"},
}
DEFAULTS = {"planet": -1, "target": -1, "count": 0, "resource": Resource.GEM}


@dataclass(frozen=True, slots=True)
class ForeignAction(Action):
    """An action of no Deep Space kind (another variant's, as far as Deep Space can tell)."""

    planet: int = 0


# ---- the oracle: which rules an action breaks ------------------------------------------------


def _in_play(state: DeepSpaceState, node: int) -> bool:
    players = state.options.players
    if 0 <= node < PLANETS:
        return not (players == 2 and node in COVERED_WITH_TWO)
    return node in STATIONS_IN_PLAY[players]


def _planet_faults(state: DeepSpaceState, node: int) -> set[Reason]:
    if not _in_play(state, node):
        return {Reason.NO_SUCH_PLANET}
    return {Reason.HOME_STATION} if node >= PLANETS else set()


def _decider(state: DeepSpaceState) -> int:
    return state.dog_seat if state.phase is Phase.DOG else state.current


def _count_faults(count: int, high: int) -> set[Reason]:
    if count < 1:
        return {Reason.TOO_FEW_RECRUITS}
    return {Reason.TOO_MANY_RECRUITS} if count > high else set()


def _opponent_on(state: DeepSpaceState, seat: int, planet: int) -> int:
    for other in range(state.options.players):
        if other != seat and state.recruits[other][planet] > 0:
            return other
    return -1


def _crew_faults(state: DeepSpaceState, seat: int, action: Move | Warp) -> set[Reason]:
    origin, destination = action.origin, action.destination
    faults = set()
    for node in (origin, destination):
        if not _in_play(state, node):
            faults.add(Reason.NO_SUCH_PLANET)
    if isinstance(action, Warp):
        if origin not in WARP or destination not in WARP:
            faults.add(Reason.NOT_WARP_PLANET)
        if state.gems[seat] < 1:
            faults.add(Reason.NOT_ENOUGH_GEMS)
    elif not (0 <= origin < NODES and destination in DEEP_SPACE_BOARD.links[origin]):
        faults.add(Reason.NOT_ADJACENT)
    if state.moves_left < 1:
        faults.add(Reason.NO_MOVES_LEFT)
    if Reason.NO_SUCH_PLANET in faults:
        return faults
    if destination >= PLANETS:
        faults.add(Reason.HOME_STATION)
    if origin == destination:
        faults.add(Reason.SAME_PLANET)
    crew = state.recruits[seat][origin]
    faults |= _count_faults(action.count, crew)
    dogs = state.dogs[seat][origin]
    if action.with_dog and not dogs:
        faults.add(Reason.NO_DOG)
    if dogs and not action.with_dog and action.count == crew:
        faults.add(Reason.DOG_MUST_FOLLOW)
    if state.force_fields[destination] not in (-1, seat):
        faults.add(Reason.FORCE_FIELD)
    return faults


def _card_faults(state: DeepSpaceState, seat: int, action: PlayCard) -> set[Reason]:
    if action.card not in state.hands[seat]:
        return {Reason.CARD_NOT_IN_HAND}
    kind = KIND[action.card]
    faults = {
        Reason.UNUSED_FIELD
        for field, default in DEFAULTS.items()
        if field not in READS.get(kind, set()) and getattr(action, field) != default
    }
    after = list(state.recruits[seat])
    if COST[kind] == "recruit":
        pay = action.pay_from
        if not (0 <= pay < NODES and _in_play(state, pay) and after[pay] > 0):
            faults.add(Reason.INVALID_PAYMENT)
        else:
            after[pay] -= 1
    elif action.pay_from != -1:
        faults.add(Reason.INVALID_PAYMENT)
    if COST[kind] == "gem" and state.gems[seat] < 1:
        faults.add(Reason.NOT_ENOUGH_GEMS)
    planet = action.planet
    if kind in (CardKind.SPACE_DOG, CardKind.FORCE_FIELD, CardKind.PROSPECTOR):
        bad = _planet_faults(state, planet)
        faults |= bad
        if not bad and after[planet] < 1:
            faults.add(Reason.NOT_ENOUGH_RECRUITS)
        if kind is CardKind.SPACE_DOG and sum(map(sum, state.dogs)) >= 3:
            faults.add(Reason.BANK_EMPTY)
        if kind is CardKind.FORCE_FIELD:
            if not bad and state.force_fields[planet] != -1:
                faults.add(Reason.FORCE_FIELD)
            if sum(1 for f in state.force_fields if f != -1) >= 2:
                faults.add(Reason.BANK_EMPTY)
        if kind is CardKind.PROSPECTOR:
            bank = state.bank_gems if action.resource == Resource.GEM else state.bank_ore
            if bank < 1:
                faults.add(Reason.BANK_EMPTY)
    elif kind is CardKind.METEOR_STRIKE:
        bad = _planet_faults(state, planet)
        faults |= bad
        if not bad:
            victim = _opponent_on(state, seat, planet)
            if victim < 0:
                faults.add(Reason.INVALID_TARGET)
            else:
                near = [n for n in DEEP_SPACE_BOARD.links[planet]
                        if n < PLANETS and _in_play(state, n) and after[n] > 0]
                if not near:
                    faults.add(Reason.NOT_ADJACENT)
                top = min(AMOUNT[kind], state.recruits[victim][planet])
                faults |= _count_faults(action.count, top)
    elif kind is CardKind.BATTLE_CRY and state.battle_cry:
        faults.add(Reason.CARD_NOT_PLAYABLE)
    elif kind is CardKind.SABOTAGE:
        target = action.target
        if not (0 <= target < state.options.players) or target == seat or state.out[target]:
            faults.add(Reason.NOT_AN_OPPONENT)
    return faults


def faults(state: DeepSpaceState, seat: int, action: Action) -> set[Reason]:
    """Every rule `action` by `seat` breaks in `state` (empty: the action is legal).

    The turn-level checks come in a fixed order, each alone; within an action every broken
    rule is listed, since the engine may report any one of them.
    """
    if not isinstance(action, ACTION_TYPES):
        return {Reason.WRONG_VARIANT}
    if not 0 <= seat < state.options.players:
        return {Reason.NOT_A_SEAT}
    if state.phase is Phase.FINISHED:
        return {Reason.GAME_OVER}
    if seat != _decider(state):
        return {Reason.NOT_YOUR_TURN}
    if not isinstance(action, PHASE_ACTIONS[state.phase]):
        return {Reason.WRONG_PHASE}
    found: set[Reason] = set()
    if isinstance(action, TradeCards):
        if state.phase is not Phase.START:
            return {Reason.TRADE_NOT_ALLOWED}
        cards = action.cards
        if len(cards) != 2 or list(cards) != sorted(set(cards)):
            found.add(Reason.INVALID_SET)
        if any(c not in state.hands[seat] for c in cards):
            found.add(Reason.CARD_NOT_IN_HAND)
        if state.supply[seat] < 1:
            found.add(Reason.SUPPLY_EMPTY)
    elif isinstance(action, Mine):
        if state.phase is Phase.MAIN:
            return {Reason.MINING_OVER}
        bad = _planet_faults(state, action.planet)
        found |= bad
        bank = state.bank_gems if action.resource == Resource.GEM else state.bank_ore
        if bank < 1:
            found.add(Reason.BANK_EMPTY)
        if not bad:
            if state.recruits[seat][action.planet] < 2:
                found.add(Reason.NOT_ENOUGH_RECRUITS)
            if action.planet in state.mined:
                found.add(Reason.ALREADY_MINED)
    elif isinstance(action, Recruit):
        if action.count < 1:
            found.add(Reason.TOO_FEW_RECRUITS)
        if action.count > state.gems[seat]:
            found.add(Reason.NOT_ENOUGH_GEMS)
        if action.count > state.supply[seat]:
            found.add(Reason.SUPPLY_EMPTY)
    elif isinstance(action, Move | Warp):
        found = _crew_faults(state, seat, action)
    elif isinstance(action, BuildBase):
        bad = _planet_faults(state, action.planet)
        found |= bad
        if state.ore[seat] < 3:
            found.add(Reason.NOT_ENOUGH_ORE)
        if len(state.bases[seat]) >= 5:
            found.add(Reason.SUPPLY_EMPTY)
        if not bad:
            if state.recruits[seat][action.planet] < 3:
                found.add(Reason.NOT_ENOUGH_RECRUITS)
            if action.planet in state.bases[seat]:
                found.add(Reason.BASE_EXISTS)
    elif isinstance(action, PlayCard):
        found = _card_faults(state, seat, action)
    elif isinstance(action, RelocateDog):
        found = _planet_faults(state, action.planet)
        if not found:
            if action.planet == state.dog_planet:
                found.add(Reason.SAME_PLANET)
            if state.recruits[seat][action.planet] < 1:
                found.add(Reason.NOT_ENOUGH_RECRUITS)
    elif isinstance(action, EndTurn) and action.discard not in (-1, *state.hands[seat]):
        found.add(Reason.CARD_NOT_IN_HAND)
    return found


# ---- sampled states ---------------------------------------------------------------------------


SAMPLE_GAMES: list[tuple[DeepSpaceOptions, float]] = [
    (DeepSpaceOptions(players=2), 0.0),
    (DeepSpaceOptions(players=2), 0.3),
    (DeepSpaceOptions(players=3), 0.0),
    (DeepSpaceOptions(players=3, max_turns=40), 1.0),
    (DeepSpaceOptions(players=4), 0.0),
    (DeepSpaceOptions(players=4), 0.05),
    (DeepSpaceOptions(players=4, max_turns=60), 1.0),
    (DeepSpaceOptions(players=3), 0.2),
]
PER_KIND = 3  # states kept per kind in each game


def _kind(state: DeepSpaceState) -> tuple[object, ...]:
    seat = state.current
    return (
        state.phase, state.moves_left, state.battle_cry, len(state.hands[seat]),
        state.gems[seat] > 0, state.ore[seat] >= 3, any(state.dogs[seat]),
        any(f >= 0 for f in state.force_fields),
    )


def _rare_states() -> list[DeepSpaceState]:
    """States bots seldom reach, made by hand: dog decisions (2 and 4 players), an empty ore
    bank at the start of a turn, every token in play, a Battle Cry waiting with another in hand.
    """
    meteor = card_of(CardKind.METEOR_STRIKE)
    made = []
    for players in (2, 4):
        state = hand_made(players, recruits={0: {"Ares": 2}, 1: {"Mimas": 2, "Ceres": 1}},
                          dogs={1: {"Mimas": 1}}, hands={0: [meteor]})
        strike = PlayCard(meteor, planet=p("Mimas"), count=2, pay_from=p("Ares"))
        made.append(RULES.apply(state, 0, strike)[0])
    assert all(s.phase is Phase.DOG for s in made)
    made.append(hand_made(3, recruits={0: {"Ares": 3, "Eris": 2}}, ore={1: 31}, gems={0: 2},
                          hands={0: [card_of(CardKind.PROSPECTOR), meteor]},
                          phase=Phase.START))
    made.append(hand_made(3, recruits={0: {"Ares": 3, RED: 2}, 1: {"Mimas": 2}}, gems={0: 2},
                          dogs={0: {"Ares": 2}, 1: {"Mimas": 1}}, fields={"Eris": 1, "Nyx": 2},
                          hands={0: [card_of(CardKind.SPACE_DOG), card_of(CardKind.FORCE_FIELD)]}))
    made.append(hand_made(4, recruits={0: {"Ares": 3}, 1: {"Mimas": 1}}, gems={0: 1},
                          battle_cry=True, hands={0: [card_of(CardKind.BATTLE_CRY)]}))
    return made


KIT: ValidationKit[DeepSpaceState] = ValidationKit(
    RULES, faults, ACTION_TYPES, games=SAMPLE_GAMES, seed_base=8000, per_kind=PER_KIND,
    kind=_kind, where=lambda state: f"in {state.phase.name}", extra_states=_rare_states,
    seats_checked=True,
)
sampled_states, listed_examples, verdict = KIT.sampled_states, KIT.listed_examples, KIT.verdict


# ---- checking one candidate ------------------------------------------------------------------


def _node_mutations(action: Action) -> Iterable[tuple[Action, Reason | None]]:
    """Every node in every node field; off the board is NO_SUCH_PLANET where it is checked
    first (moves, warps, bases, dog decisions)."""
    first = isinstance(action, Move | Warp | BuildBase | RelocateDog)
    for name in ("origin", "destination", "planet", "pay_from"):
        if hasattr(action, name):
            for node in EVERY_NODE:
                wanted = Reason.NO_SUCH_PLANET if first and node in OFF_BOARD else None
                yield _with(action, **{name: node}), wanted


def _field_mutations(state: DeepSpaceState, entry: LegalAction) -> Iterable[Action]:
    action = entry.action
    if entry.max_count:
        low = getattr(action, "count")  # noqa: B009 - every ranged action has a count
        yield from (_with(action, count=n) for n in (0, -1, low - 1, entry.max_count + 1))
    if isinstance(action, Move | Warp):
        yield _with(action, with_dog=not action.with_dog)
    if isinstance(action, Mine):
        yield _with(action, resource=Resource.ORE if action.resource is Resource.GEM
                    else Resource.GEM)
    if isinstance(action, PlayCard):
        for card in range(-1, DECK + 1):
            yield _with(action, card=card)
        for target in range(-1, state.options.players + 1):
            yield _with(action, target=target)
        for count in (0, 1, 2, 3):
            yield _with(action, count=count)
        for resource in Resource:
            yield _with(action, resource=resource)
    if isinstance(action, EndTurn):
        yield from (EndTurn(card) for card in range(-2, DECK + 1))
    if isinstance(action, TradeCards):
        cards = action.cards
        yield TradeCards(cards[:1])
        yield TradeCards(cards[::-1])
        yield TradeCards((cards[0], *cards))
        for card in range(-1, DECK + 1):
            yield TradeCards(tuple(sorted({cards[0], card})))


def _extra_candidates(state: DeepSpaceState, seat: int) -> Iterable[Action]:
    """Actions no listed one mutates into: mining, building, trading where it is not allowed."""
    for node in range(NODES):
        yield Mine(node, Resource.GEM)
        yield Mine(node, Resource.ORE)
        yield BuildBase(node)
        yield RelocateDog(node)
        yield Move(state.stations[seat], node, 1)
    yield TradeCards(tuple(sorted(state.hands[seat])))
    yield Recruit(state.gems[seat] + 1)
    for card in state.hands[seat]:
        yield PlayCard(card)
    yield ReturnDog()


# ---- tests ------------------------------------------------------------------------------------


def test_sampled_states_cover_every_phase() -> None:
    """The sampled states include every phase, every player count, Battle Cry and dogs."""
    states = sampled_states()
    assert {s.phase for s in states} == set(Phase)
    assert {s.options.players for s in states} == {2, 3, 4}
    assert any(s.battle_cry for s in states)
    assert any(any(map(any, s.dogs)) for s in states)
    assert any(f >= 0 for s in states for f in s.force_fields)
    assert all(listed_examples().values()), "some action type is never listed"
    print(f"\ndeep space validation: {len(states)} sampled states")


def test_every_listed_action_is_accepted() -> None:
    """Every listed action (low, middle and high count of a range) is accepted by apply."""
    accepted = 0
    for state in sampled_states():
        for seat in RULES.decision(state).seats:
            for entry in RULES.legal_actions(state, seat):
                low = getattr(entry.action, "count", 0)
                counts = sorted({low, (low + entry.max_count) // 2, entry.max_count})
                actions = (
                    [_with(entry.action, count=n) for n in counts]
                    if entry.max_count else [entry.action]
                )
                for action in actions:
                    RULES.apply(state, seat, action)
                    accepted += 1
    print(f"\ndeep space validation: {accepted} listed actions accepted")
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
            for other in (*range(players), -1, players, 7):
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
        for entry in rng.sample(legal, min(6, len(legal))):
            for action, wanted in _node_mutations(entry.action):
                verdict(state, seat, action, seen, expected=wanted, legal=legal)
        for entry in legal:
            for action in _field_mutations(state, entry):
                verdict(state, seat, action, seen, legal=legal)
        for action in _extra_candidates(state, seat):
            verdict(state, seat, action, seen, legal=legal)
    print(f"\ndeep space validation verdicts: {dict(sorted(seen.items()))}")
    every_reason = {
        Reason.WRONG_VARIANT, Reason.NOT_A_SEAT, Reason.GAME_OVER, Reason.NOT_YOUR_TURN,
        Reason.WRONG_PHASE, Reason.NO_SUCH_PLANET, Reason.HOME_STATION, Reason.SAME_PLANET,
        Reason.NOT_ADJACENT, Reason.NOT_WARP_PLANET, Reason.NO_MOVES_LEFT, Reason.FORCE_FIELD,
        Reason.NO_DOG, Reason.DOG_MUST_FOLLOW, Reason.TOO_FEW_RECRUITS, Reason.TOO_MANY_RECRUITS,
        Reason.NOT_ENOUGH_RECRUITS, Reason.NOT_ENOUGH_GEMS, Reason.NOT_ENOUGH_ORE,
        Reason.BANK_EMPTY, Reason.MINING_OVER, Reason.ALREADY_MINED, Reason.BASE_EXISTS,
        Reason.INVALID_TARGET, Reason.INVALID_PAYMENT, Reason.UNUSED_FIELD,
        Reason.CARD_NOT_PLAYABLE, Reason.NOT_AN_OPPONENT, Reason.CARD_NOT_IN_HAND,
        Reason.INVALID_SET, Reason.TRADE_NOT_ALLOWED,
    }
    missing = {r.value for r in every_reason} - set(seen)
    assert not missing, f"some reason codes were never exercised: {sorted(missing)}"
    assert seen["accepted"] > 0


# ---- Hypothesis: apply accepts a  <=>  a is listed ---------------------------------------------

NODE = st.one_of(st.integers(-2, NODES + 1), st.sampled_from(OFF_BOARD))
SMALL = st.integers(-1, 6)
RESOURCE = st.sampled_from(Resource)


@st.composite
def candidates(draw: st.DrawFn) -> tuple[DeepSpaceState, int, Action]:
    """A sampled state, a seat (usually the deciding one) and an action of any Deep Space type."""
    state = draw(KIT.state_strategy())
    players = state.options.players
    deciding = RULES.decision(state).seats
    decider_acts = bool(deciding) and draw(st.integers(0, 3)) > 0
    seat = deciding[0] if decider_acts else draw(st.integers(-1, players))
    legal = RULES.legal_actions(state, deciding[0]) if deciding else []
    mode = draw(st.sampled_from(["listed", "mutated", "random"] if legal else ["random"]))
    card = st.one_of(st.integers(-1, DECK), st.sampled_from(
        [c for hand in state.hands for c in hand] or [0]
    ))
    if mode != "random":
        action = draw(st.sampled_from(draw(st.sampled_from(legal)).instances()))
        fields = [f.name for f in dataclasses.fields(action)]
        if mode == "listed" or not fields:
            return state, seat, action
        name = draw(st.sampled_from(fields))
        value: object
        if name in ("origin", "destination", "planet", "pay_from"):
            value = draw(NODE)
        elif name in ("card", "discard"):
            value = draw(card)
        elif name == "cards":
            value = tuple(sorted(draw(st.lists(card, min_size=0, max_size=3))))
        elif name == "resource":
            value = draw(RESOURCE)
        elif name == "with_dog":
            value = draw(st.booleans())
        else:
            value = draw(SMALL)
        return state, seat, _with(action, **{name: value})
    kind = draw(st.sampled_from(ACTION_TYPES))
    if kind is TradeCards:
        return state, seat, TradeCards(tuple(sorted(draw(st.lists(card, max_size=3)))))
    if kind is Mine:
        return state, seat, Mine(draw(NODE), draw(RESOURCE))
    if kind is Recruit:
        return state, seat, Recruit(draw(SMALL))
    if kind in (Move, Warp):
        return state, seat, kind(draw(NODE), draw(NODE), draw(SMALL), draw(st.booleans()))
    if kind is BuildBase:
        return state, seat, BuildBase(draw(NODE))
    if kind is PlayCard:
        return state, seat, PlayCard(draw(card), draw(NODE), draw(SMALL), draw(SMALL),
                                     draw(RESOURCE), draw(NODE))
    if kind is RelocateDog:
        return state, seat, RelocateDog(draw(NODE))
    if kind is ReturnDog:
        return state, seat, ReturnDog()
    return state, seat, EndTurn(draw(card))


@pytest.fixture(scope="module")
def hypothesis_seen() -> Iterator[Counter[str]]:
    seen: Counter[str] = Counter()
    yield seen
    print(f"\ndeep space Hypothesis verdicts: {dict(sorted(seen.items()))}")


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(candidate=candidates())
def test_apply_accepts_exactly_the_listed_actions(
    hypothesis_seen: Counter[str], candidate: tuple[DeepSpaceState, int, Action]
) -> None:
    """For generated candidates, apply accepts a iff is_legal(legal_actions(s, seat), a)."""
    state, seat, action = candidate
    verdict(state, seat, action, hypothesis_seen)


def test_trade_candidates_from_every_pair() -> None:
    """Any two cards of the hand trade at the start; any other pair is refused."""
    seen: Counter[str] = Counter()
    for state in sampled_states():
        if state.phase is not Phase.START:
            continue
        seat = state.current
        for pair in combinations(range(DECK), 2):
            if set(pair) & set(state.hands[seat]):
                verdict(state, seat, TradeCards(pair), seen)
    assert seen["accepted"] > 0 and seen[Reason.CARD_NOT_IN_HAND.value] > 0
