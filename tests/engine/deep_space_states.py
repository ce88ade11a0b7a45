"""Hand-made Risk Deep Space states for scenario tests, and the helpers that drive them.

A state is made by `dataclasses.replace` on a real created game, so every field a test does not
care about is a value the engine itself produced. Supplies stay conserved: recruits placed by a
test come out of the seat's supply, gems and ore out of the bank, cards out of the draw pile.
Dice are fixed by searching for a generator state whose next rolls are the ones a test needs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any, TypeVar

import pytest

from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, Event, is_legal
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD, NODES
from risk_rules.engine.deep_space.cards import CARD_KINDS, DECK_SIZE
from risk_rules.engine.deep_space.model import (
    FORCE_FIELD_TOKENS,
    GEM_TOKENS,
    ORE_TOKENS,
    RECRUITS_PER_COLOUR,
    SPACE_DOG_TOKENS,
    CardKind,
    DeepSpaceOptions,
    DeepSpaceState,
    Phase,
)
from risk_rules.engine.deep_space.rules import DeepSpaceRules

RULES = DeepSpaceRules()
E = TypeVar("E", bound=Event)

Where = str | int  # a node by name or id


def p(name: str) -> int:
    """A node's id from its name on the board."""
    return DEEP_SPACE_BOARD.index(name)


def _id(where: Where) -> int:
    return p(where) if isinstance(where, str) else where


def card_of(kind: CardKind, copy: int = 0) -> int:
    """The id of the `copy`-th card of a kind in the deck."""
    return [c for c in range(DECK_SIZE) if CARD_KINDS[c] is kind][copy]


def hand_made(
    players: int = 3,
    *,
    recruits: Mapping[int, Mapping[Where, int]] | None = None,
    gems: Mapping[int, int] | None = None,
    ore: Mapping[int, int] | None = None,
    hands: Mapping[int, Sequence[int]] | None = None,
    bases: Mapping[int, Sequence[Where]] | None = None,
    dogs: Mapping[int, Mapping[Where, int]] | None = None,
    fields: Mapping[Where, int] | None = None,
    phase: Phase = Phase.MAIN,
    current: int = 0,
    seed: int = 1,
    **changes: Any,
) -> DeepSpaceState:
    """A mid-game state. Seats not named in `recruits` keep nothing on the board; named
    counts come out of the supply. Unnamed gems, ore and hands are 0 and empty. Keyword
    arguments naming a `DeepSpaceOptions` field change the options; any other one replaces that
    state field."""
    option_fields = {f.name for f in dataclasses.fields(DeepSpaceOptions)}
    option_changes = {k: v for k, v in changes.items() if k in option_fields}
    state_changes = {k: v for k, v in changes.items() if k not in option_fields}
    base, _ = RULES.create(DeepSpaceOptions(players=players, **option_changes), seed)
    rows = [[0] * NODES for _ in range(players)]
    for seat, placed in (recruits or {}).items():
        for where, count in placed.items():
            rows[seat][_id(where)] = count
    dog_rows = [[0] * NODES for _ in range(players)]
    for seat, placed in (dogs or {}).items():
        for where, count in placed.items():
            dog_rows[seat][_id(where)] = count
    field_row = [-1] * NODES
    for where, seat in (fields or {}).items():
        field_row[_id(where)] = seat
    gem_row = [(gems or {}).get(s, 0) for s in range(players)]
    ore_row = [(ore or {}).get(s, 0) for s in range(players)]
    hand_rows = [tuple(sorted((hands or {}).get(s, ()))) for s in range(players)]
    discard = tuple(state_changes.get("discard", ()))
    held = {c for h in hand_rows for c in h} | set(discard)
    deck = tuple(c for c in range(DECK_SIZE) if c not in held)
    defaults: dict[str, Any] = {
        "phase": phase,
        "current": current,
        "turn": 5,
        "recruits": tuple(tuple(r) for r in rows),
        "supply": tuple(RECRUITS_PER_COLOUR - sum(r) for r in rows),
        "bases": tuple(
            tuple(sorted(_id(w) for w in (bases or {}).get(s, ()))) for s in range(players)
        ),
        "gems": tuple(gem_row),
        "ore": tuple(ore_row),
        "bank_gems": GEM_TOKENS - sum(gem_row),
        "bank_ore": ORE_TOKENS - sum(ore_row),
        "dogs": tuple(tuple(r) for r in dog_rows),
        "force_fields": tuple(field_row),
        "hands": tuple(hand_rows),
        "deck": deck,
        "discard": discard,
        "moves_left": 2,
        "mined": (),
        "battle_cry": False,
        "dog_planet": -1,
        "dog_seat": -1,
    }
    defaults.update(state_changes)
    return dataclasses.replace(base, **defaults)


def check_conserved(state: DeepSpaceState) -> None:
    """Every finite supply adds up (the invariants of the rules' components list)."""
    for seat in range(state.options.players):
        assert sum(state.recruits[seat]) + state.supply[seat] == RECRUITS_PER_COLOUR
        assert len(state.bases[seat]) == len(set(state.bases[seat])) <= 5
    assert sum(state.gems) + state.bank_gems == GEM_TOKENS
    assert sum(state.ore) + state.bank_ore == ORE_TOKENS
    assert sum(sum(row) for row in state.dogs) <= SPACE_DOG_TOKENS
    assert sum(1 for f in state.force_fields if f >= 0) <= FORCE_FIELD_TOKENS
    cards = [*state.deck, *state.discard, *(c for h in state.hands for c in h)]
    assert sorted(cards) == list(range(DECK_SIZE))


@cache
def _state_rolling(inc: int, dice: tuple[int, ...]) -> int:
    # Small states make PCG32 emit zeros, so the candidates are spread over the 64-bit range.
    for k in range(1, 3_000_000):
        candidate = (k * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
        rng = Pcg32(candidate, inc)
        if all(rng.die() == want for want in dice):
            return candidate
    raise AssertionError(f"no generator state rolls {dice}")


def rigged(state: DeepSpaceState, *dice: int) -> DeepSpaceState:
    """The state with its generator set so the next dice rolled are exactly `dice`, in order.
    A battle roll is the attacker's die, then the defender's."""
    return dataclasses.replace(state, rng_state=_state_rolling(state.rng_inc, tuple(dice)))


def act(state: DeepSpaceState, seat: int, action: Action) -> tuple[DeepSpaceState, list[Event]]:
    """Apply an action the test expects to be legal, checking legal_actions agrees first."""
    assert is_legal(RULES.legal_actions(state, seat), action), f"{action} not listed as legal"
    after, events = RULES.apply(state, seat, action)
    check_conserved(after)
    return after, events


def refused(state: DeepSpaceState, seat: int, action: Action) -> Reason:
    """The reason the engine gives for rejecting an action (also absent from legal_actions)."""
    assert not is_legal(RULES.legal_actions(state, seat), action), f"{action} listed as legal"
    with pytest.raises(IllegalAction) as caught:
        RULES.apply(state, seat, action)
    return caught.value.reason


def of_type(events: Iterable[object], kind: type[E]) -> list[E]:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]
