"""The machinery the per-variant validation tests share: sampled states and the one-candidate check.

Each `test_*_validation.py` keeps its own independent oracle (`faults(state, seat, action)`), its
mutations and its tests, and builds one `ValidationKit` from its ruleset, oracle, action types,
sample games, seed base, states kept per kind and `kind` key. The kit plays the seeded playouts
(bots, and some uniformly random legal moves), samples a few states of every kind met in each
game plus each final state, collects a few listed actions of every type, and checks a candidate:
`apply` accepts it iff it is listed, a rejection names a rule the oracle says it breaks (and the
expected reason, when one is given), the rejected input state is unchanged, and each outcome is
counted.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Generic, TypeVar

from hypothesis import strategies as st

from risk_rules.engine import Action, IllegalAction, Reason, is_legal
from risk_rules.engine.core.ruleset import LegalAction, Ruleset

S = TypeVar("S")


_INIT_FIELDS: dict[type[Any], list[str]] = {}


def with_changes(action: Action, **changes: object) -> Action:
    """`action` with the given fields replaced: `dataclasses.replace(action, **changes)`, with
    the type's field names looked up once (it is called for every mutated candidate)."""
    kind = type(action)
    names = _INIT_FIELDS.get(kind)
    if names is None:
        names = _INIT_FIELDS[kind] = [f.name for f in dataclasses.fields(kind) if f.init]
    values = {name: getattr(action, name) for name in names}
    values.update(changes)  # a name that is no field fails in the call, as with replace
    made: Action = kind(**values)
    return made


_COMPARED: dict[type[Any], Callable[[Any], Any]] = {}


def compared_fields(value: Any) -> Any:
    """The fields of the dataclass `value` that its `==` compares, in a tuple.

    Two values of one dataclass type are equal iff these are, so a rejected `apply` that left
    its input as it was leaves them equal to the ones taken before it: the check a shallow copy
    (`dataclasses.replace(state)`) and `==` make, without building a 28-field state per call.
    """
    kind = type(value)
    getter = _COMPARED.get(kind)
    if getter is None:
        names = [f.name for f in dataclasses.fields(kind) if f.compare]
        fetch = attrgetter(*names)
        getter = _COMPARED[kind] = fetch if len(names) > 1 else lambda v: (fetch(v),)
    return getter(value)


@dataclass
class ValidationKit(Generic[S]):
    """Sampled states, listed examples and `verdict` for one variant.

    `games` gives (options, share of random moves) per playout, consumed once; game n is created
    with seed `seed_base + n` and its moves drawn from `random.Random(n)`. `where` names the step
    in a failure message; `extra_states` are appended after the playouts; with `seats_checked`,
    `verdict` asks for legal actions only of seats that exist.
    """

    rules: Ruleset[Any, Any, Any]
    faults: Callable[[S, int, Action], set[Reason]]
    action_types: Sequence[type[Action]]
    games: Iterable[tuple[object, float]]
    seed_base: int
    per_kind: int
    kind: Callable[[S], tuple[object, ...]]
    where: Callable[[S], str]
    extra_states: Callable[[], Iterable[S]] | None = None
    seats_checked: bool = False
    _states: tuple[S, ...] | None = field(default=None, init=False)
    _examples: dict[type[Action], list[Action]] | None = field(default=None, init=False)
    _strategy: st.SearchStrategy[S] | None = field(default=None, init=False)

    def sampled_states(self) -> tuple[S, ...]:
        """States from seeded playouts: a few of every kind met in each game, and each final
        state."""
        if self._states is None:
            self._states = tuple(self._sample())
        return self._states

    def state_strategy(self) -> st.SearchStrategy[S]:
        """`st.sampled_from(self.sampled_states())`, made once: Hypothesis labels a
        `sampled_from` strategy by hashing its elements, which for some thousand game states
        cost more than drawing from it, on every example that made a new one."""
        if self._strategy is None:
            self._strategy = st.sampled_from(self.sampled_states())
        return self._strategy

    def _sample(self) -> list[S]:
        rules = self.rules
        picked: list[S] = []
        for number, (options, share) in enumerate(self.games):
            rng = random.Random(number)
            state, _ = rules.create(options, self.seed_base + number)
            seen: dict[tuple[object, ...], list[S]] = {}
            while rules.outcome(state) is None:
                seen.setdefault(self.kind(state), []).append(state)
                (seat,) = rules.decision(state).seats
                if rng.random() < share:
                    action = rng.choice(rng.choice(rules.legal_actions(state, seat)).instances())
                else:
                    action = rules.bot_action(state, seat, rng.getrandbits(64))
                state, _ = rules.apply(state, seat, action)
            for group in seen.values():
                picked.extend(rng.sample(group, min(self.per_kind, len(group))))
            picked.append(state)
        if self.extra_states is not None:
            picked.extend(self.extra_states())
        return picked

    def listed_examples(self) -> dict[type[Action], list[Action]]:
        """A few listed actions of every type, to play at the wrong step."""
        if self._examples is None:
            found: dict[type[Action], list[Action]] = {kind: [] for kind in self.action_types}
            for state in self.sampled_states():
                for seat in self.rules.decision(state).seats:
                    for entry in self.rules.legal_actions(state, seat):
                        if len(found[type(entry.action)]) < 3:
                            found[type(entry.action)].append(entry.action)
            self._examples = found
        return self._examples

    def verdict(
        self,
        state: S,
        seat: int,
        action: Action,
        seen: Counter[str],
        *,
        expected: Reason | None = None,
        legal: list[LegalAction] | None = None,
    ) -> None:
        """apply accepts `action` iff it is listed; a rejection names a broken rule, state
        intact."""
        if legal is None:
            exists = not self.seats_checked or 0 <= seat < state.options.players
            legal = self.rules.legal_actions(state, seat) if exists else []
        listed = is_legal(legal, action)
        broken = self.faults(state, seat, action)
        assert listed == (not broken), f"oracle says {broken} for {action}, listed={listed}"
        before = compared_fields(state)
        try:
            self.rules.apply(state, seat, action)
        except IllegalAction as error:
            assert compared_fields(state) == before, "a rejected apply changed its input"
            assert not listed, f"listed {action} was rejected: {error}"
            assert error.reason in broken, f"{action}: got {error.reason}, expected one of {broken}"
            if expected is not None:
                wanted = f"{action}: got {error.reason}, expected {expected}"
                assert error.reason is expected, wanted
            seen[error.reason.value] += 1
            return
        assert listed, f"unlisted {action} was accepted by seat {seat} {self.where(state)}"
        seen["accepted"] += 1
