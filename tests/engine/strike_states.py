"""Hand-made Risk Strike states for scenario tests, and the helpers that drive them.

A state is made by `dataclasses.replace` on a real created game, so every field a test does not
care about is a value the engine itself produced. Cards not placed by the test stay in the decks
(in the created game's order). Dice are fixed by searching for a generator state whose next
rolls are the ones a scenario needs.
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
from risk_rules.engine.strike.cards import CONTINENT_CARDS, TACTIC_COUNTS
from risk_rules.engine.strike.model import (
    Pass,
    Phase,
    StrikeOptions,
    StrikeState,
    Tactic,
)
from risk_rules.engine.strike.rules import StrikeRules

RULES = StrikeRules()
E = TypeVar("E", bound=Event)

NA, SA, EU, AF, AS, AU = range(6)
# continent card ids by continent (card i is classic territory i)
CARDS = {NA: range(0, 9), SA: range(9, 13), EU: range(13, 20), AF: range(20, 26),
         AS: range(26, 38), AU: range(38, 42)}


def _tactic_ids() -> dict[Tactic, list[int]]:
    ids: dict[Tactic, list[int]] = {}
    next_id = CONTINENT_CARDS
    for kind, count in TACTIC_COUNTS:
        ids[kind] = list(range(next_id, next_id + count))
        next_id += count
    return ids


TACTIC_IDS = _tactic_ids()


def cont(continent: int, count: int, skip: int = 0) -> list[int]:
    """`count` continent cards of `continent`, after the first `skip` of them."""
    return list(CARDS[continent])[skip:skip + count]


def tac(kind: Tactic, count: int = 1, skip: int = 0) -> list[int]:
    """`count` tactics card ids of `kind`, after the first `skip` of them."""
    return TACTIC_IDS[kind][skip:skip + count]


def made(
    players: int = 3,
    *,
    continents: Mapping[int, Sequence[int]] | None = None,
    hands: Mapping[int, Sequence[int]] | None = None,
    current: int = 0,
    phase: Phase = Phase.MAIN,
    seed: int = 1,
    **changes: Any,
) -> StrikeState:
    """A mid-game state: the given continent cards and hands, every other card in its deck.

    Keyword arguments naming a `StrikeOptions` field change the options; any other one replaces
    that `StrikeState` field.
    """
    option_fields = {f.name for f in dataclasses.fields(StrikeOptions)}
    option_changes = {k: v for k, v in changes.items() if k in option_fields}
    state_changes = {k: v for k, v in changes.items() if k not in option_fields}
    base, _ = RULES.create(StrikeOptions(players=players, **option_changes), seed)
    conts = [tuple(sorted((continents or {}).get(s, ()))) for s in range(players)]
    held = [tuple(sorted((hands or {}).get(s, ()))) for s in range(players)]
    placed = {c for group in (*conts, *held) for c in group}
    for pile in ("surrender", "tactics_discard"):
        placed |= set(state_changes.get(pile, ()))
    for group in state_changes.get("troops", ()):
        placed |= set(group)
    every = sorted([*base.continent_deck, *base.tactics_deck,
                    *(c for h in base.continents for c in h), *(c for h in base.hands for c in h)])
    defaults: dict[str, Any] = {
        "phase": phase,
        "current": current,
        "turn": 1,
        "continents": tuple(conts),
        "hands": tuple(held),
        "continent_deck": tuple(c for c in every if c < CONTINENT_CARDS and c not in placed),
        "tactics_deck": tuple(c for c in every if c >= CONTINENT_CARDS and c not in placed),
        "surrender": (),
        "tactics_discard": (),
        "troops": ((),) * players,
        "sides": (0,) * players,
    }
    defaults.update(state_changes)
    return dataclasses.replace(base, **defaults)


@cache
def _state_rolling(inc: int, dice: tuple[int, ...]) -> int:
    # Small states make PCG32 emit zeros, so the candidates are spread over the 64-bit range.
    for k in range(1, 3_000_000):
        candidate = (k * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
        rng = Pcg32(candidate, inc)
        if all(rng.die() == want for want in dice):
            return candidate
    raise AssertionError(f"no generator state rolls {dice}")


def rigged(state: StrikeState, *dice: int) -> StrikeState:
    """The state with its generator set so that the next dice are `dice`, in order (a roll
    rolls the attacker's dice first, then the defender's)."""
    return dataclasses.replace(state, rng_state=_state_rolling(state.rng_inc, tuple(dice)))


def decider(state: StrikeState) -> int:
    (seat,) = RULES.decision(state).seats
    return seat


def act(state: StrikeState, seat: int, action: Action) -> tuple[StrikeState, list[Event]]:
    """Apply an action the test expects to be legal, checking legal_actions agrees first."""
    assert decider(state) == seat, f"seat {decider(state)} decides, not {seat}"
    assert is_legal(RULES.legal_actions(state, seat), action), f"{action} not listed as legal"
    return RULES.apply(state, seat, action)


def refused(state: StrikeState, seat: int, action: Action) -> Reason:
    """The reason the engine gives for rejecting an action (also absent from legal_actions)."""
    assert not is_legal(RULES.legal_actions(state, seat), action), f"{action} listed as legal"
    with pytest.raises(IllegalAction) as caught:
        RULES.apply(state, seat, action)
    return caught.value.reason


def passes(
    state: StrikeState, count: int, events: list[Event] | None = None
) -> tuple[StrikeState, list[int]]:
    """Let whoever is asked pass `count` times; returns the state and the seats that passed."""
    seats = []
    for _ in range(count):
        seat = decider(state)
        seats.append(seat)
        state, produced = act(state, seat, Pass())
        if events is not None:
            events.extend(produced)
    return state, seats


def pass_until(
    state: StrikeState, done: Any, events: list[Event] | None = None, limit: int = 50
) -> StrikeState:
    """Pass for whoever is asked until `done(state)` holds."""
    for _ in range(limit):
        if done(state):
            return state
        state, produced = act(state, decider(state), Pass())
        if events is not None:
            events.extend(produced)
    raise AssertionError("still not done after passing")


def of_type(events: Iterable[object], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def all_cards(state: StrikeState) -> list[int]:
    """Every card id somewhere in the state (decks, piles, hands, tables, troops, chain)."""
    return sorted([
        *state.continent_deck, *state.tactics_deck, *state.surrender, *state.tactics_discard,
        *(c for group in state.continents for c in group),
        *(c for group in state.hands for c in group),
        *(c for group in state.troops for c in group),
        *(p.card_id for p in state.plays),
    ])
