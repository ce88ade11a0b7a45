"""Hand-made classic Risk states for scenario tests, and the helpers that drive them.

A state is made by `dataclasses.replace` on a real created game (random deal, auto place), so
every field the tests do not care about is a value the engine itself produced. Dice are fixed
by searching for a generator state whose next rolls are the ones a scenario needs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any, TypeVar

import pytest

from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.classic.model import ClassicOptions, ClassicState, Phase, SetupMode
from risk_rules.engine.classic.rules import ClassicRules
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, Event, is_legal

RULES = ClassicRules()

E = TypeVar("E", bound=Event)

_OPTION_FIELDS = {f.name for f in dataclasses.fields(ClassicOptions)}


def t(name: str) -> int:
    """A territory's id from its name on the board."""
    return CLASSIC_BOARD.index(name)


def ts(*names: str) -> list[int]:
    return [t(n) for n in names]


def hand_made(
    players: int = 3,
    *,
    owners: Mapping[str, int] | None = None,
    rest: int = 0,
    armies: Mapping[str, int] | None = None,
    rest_armies: int = 1,
    phase: Phase = Phase.ATTACK,
    current: int = 0,
    pending: int = 0,
    hands: Mapping[int, Sequence[int]] | None = None,
    seed: int = 1,
    **changes: Any,
) -> ClassicState:
    """A mid-game state: named territories to the given owners, the rest to `rest`.

    Keyword arguments that name a `ClassicOptions` field change the options; any other one
    replaces that `ClassicState` field. Seats that hold no territory count as eliminated, and
    cards in hands or the discard pile are taken out of the draw pile.
    """
    option_changes = {k: v for k, v in changes.items() if k in _OPTION_FIELDS}
    state_changes = {k: v for k, v in changes.items() if k not in _OPTION_FIELDS}
    base, _ = RULES.create(
        ClassicOptions(players=players, setup=SetupMode.RANDOM_DEAL, auto_place=True), seed
    )
    owner = [rest] * TERRITORIES
    for name, seat in (owners or {}).items():
        owner[t(name)] = seat
    army = [rest_armies] * TERRITORIES
    for name, count in (armies or {}).items():
        army[t(name)] = count
    hand_list = [tuple(sorted((hands or {}).get(seat, ()))) for seat in range(players)]
    discard = tuple(state_changes.get("discard", ()))
    held = {c for h in hand_list for c in h} | set(discard)
    defaults: dict[str, Any] = {
        "options": dataclasses.replace(base.options, **option_changes),
        "phase": phase,
        "current": current,
        "turn": 1,
        "owner": tuple(owner),
        "armies": tuple(army),
        "to_place": (0,) * len(base.to_place),
        "hands": tuple(hand_list),
        "deck": tuple(c for c in base.deck if c not in held),
        "pending": pending,
        "bonus_used": False,
        "conquered": False,
        "resume_attack": False,
        "eliminated": tuple(seat not in owner for seat in range(players)),
        "attack_from": -1,
        "attack_to": -1,
        "attack_dice": 0,
    }
    defaults.update(state_changes)
    return dataclasses.replace(base, **defaults)


def spread(count: int, skip: Iterable[int] = ()) -> list[int]:
    """`count` territories that complete no continent (each continent's last one is left out)."""
    skipped = set(skip)
    pool = [
        member
        for region in CLASSIC_BOARD.regions
        for member in region.members[:-1]
        if member not in skipped
    ]
    assert count <= len(pool), "not that many territories outside whole continents"
    return pool[:count]


@cache
def _state_rolling(inc: int, dice: tuple[int, ...]) -> int:
    # Small states make PCG32 emit zeros, so the candidates are spread over the 64-bit range.
    for k in range(1, 1_000_000):
        candidate = (k * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
        rng = Pcg32(candidate, inc)
        if all(rng.die() == want for want in dice):
            return candidate
    raise AssertionError(f"no generator state rolls {dice}")


def rigged(state: ClassicState, *dice: int) -> ClassicState:
    """The state with its generator set so the next dice rolled are exactly `dice`, in order.

    A battle rolls the attacker's dice first, then the defender's, each as rolled (unsorted).
    """
    return dataclasses.replace(state, rng_state=_state_rolling(state.rng_inc, tuple(dice)))


def act(state: ClassicState, seat: int, action: Action) -> tuple[ClassicState, list[Event]]:
    """Apply an action the test expects to be legal, checking legal_actions agrees first."""
    assert is_legal(RULES.legal_actions(state, seat), action), f"{action} not listed as legal"
    return RULES.apply(state, seat, action)


def refused(state: ClassicState, seat: int, action: Action) -> Reason:
    """The reason the engine gives for rejecting an action (also absent from legal_actions)."""
    assert not is_legal(RULES.legal_actions(state, seat), action), f"{action} listed as legal"
    with pytest.raises(IllegalAction) as caught:
        RULES.apply(state, seat, action)
    return caught.value.reason


def of_type(events: Iterable[object], kind: type[E]) -> list[E]:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]
