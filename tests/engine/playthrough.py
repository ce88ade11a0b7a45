"""Bot playthroughs and their replays, for every variant: what the replay tests compare.

A playthrough is what the service keeps of a game (options, seed and the steps: each seat's
action, or its resignation) plus what the tests compare a rebuild against: the events of every
step and `wire.encode_state` after creation and after every step. `replay` rebuilds from the
options, seed and steps alone, asking the engine which seat decides each action, never reading
the recorded events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from risk_proto.risk.v1 import game_pb2
from risk_rules import wire
from risk_rules.engine import Action, Event, IllegalAction, get_ruleset

Step = tuple[int, Action | None]  # (seat, action); None: the seat resigned


@dataclass
class Playthrough:
    variant: str
    options: Any
    seed: int
    steps: list[Step]
    events: list[list[Event]]  # the creation events first, then one list per step
    snapshots: list[bytes]  # wire.encode_state after creation and after every step

    @property
    def actions(self) -> list[Action]:
        return [action for _, action in self.steps if action is not None]

    def record(self, step: Step, state: Any, events: list[Event]) -> None:
        self.steps.append(step)
        self.events.append(events)
        self.snapshots.append(wire.encode_state(self.variant, state))


def _start(variant: str, options: Any, seed: int) -> tuple[Playthrough, Any]:
    state, events = get_ruleset(variant).create(options, seed)
    return Playthrough(variant, options, seed, [], [events],
                       [wire.encode_state(variant, state)]), state


def play(variant: str, options: Any, seed: int, *, max_steps: int = 100_000,
         resign_at: int = -1) -> Playthrough:
    """A bot game (the bots' entropy mixes the seed and the step); at step `resign_at` the
    deciding seat's next opponent still in the game resigns instead."""
    rules = get_ruleset(variant)
    record, state = _start(variant, options, seed)
    while rules.outcome(state) is None and len(record.steps) < max_steps:
        (seat,) = rules.decision(state).seats
        step: Step
        if len(record.steps) == resign_at:
            players = options.players
            quitter = next((seat + s) % players for s in range(1, players + 1)
                           if not state.out[(seat + s) % players])
            step = (quitter, None)
            state, events = rules.resign(state, quitter)
        else:
            action = rules.bot_action(state, seat, seed * 100_003 + len(record.steps))
            step = (seat, action)
            state, events = rules.apply(state, seat, action)
        record.record(step, state, events)
    return record


def replay(variant: str, options: Any, seed: int, steps: Sequence[Step]) -> Playthrough:
    """Rebuild from options, seed and steps only; the seat deciding each action is asked of the
    engine (past the end of the game there is none, and apply rejects with GAME_OVER)."""
    rules = get_ruleset(variant)
    record, state = _start(variant, options, seed)
    for recorded_seat, action in steps:
        if action is None:
            seat = recorded_seat
            state, events = rules.resign(state, seat)
        else:
            seats = rules.decision(state).seats
            seat = seats[0] if seats else 0
            state, events = rules.apply(state, seat, action)
        record.record((seat, action), state, events)
    return record


def through_the_wire(variant: str, steps: Sequence[Step]) -> list[Step]:
    """The steps as a stored log gives them back: each action serialised and parsed again."""
    parsed: list[Step] = []
    for seat, action in steps:
        if action is None:
            parsed.append((seat, None))
            continue
        message = game_pb2.Action()
        message.ParseFromString(wire.action_to_proto(variant, action).SerializeToString())
        parsed.append((seat, wire.action_from_proto(message)[1]))
    return parsed


def first_state(record: Playthrough) -> Any:
    """The state right after creation, decoded from its stored bytes."""
    return wire.decode_state(record.snapshots[0])[2]


def assert_same_game(original: Playthrough, rebuilt: Playthrough) -> None:
    assert rebuilt.steps == original.steps, "the deciding seats or steps differ"
    for step, (want, got) in enumerate(zip(original.events, rebuilt.events, strict=True)):
        assert got == want, f"events differ at step {step} (0 is creation)"
    for step, (want_bytes, got_bytes) in enumerate(
        zip(original.snapshots, rebuilt.snapshots, strict=True)
    ):
        assert got_bytes == want_bytes, f"snapshot bytes differ at step {step} (0 is creation)"


def diverges(record: Playthrough, seed: int) -> bool:
    """Whether `record`'s steps, replayed under another `seed`, are rejected or give other
    events: the seed really decides the game."""
    try:
        rebuilt = replay(record.variant, record.options, seed, record.steps)
    except IllegalAction:
        return True
    return rebuilt.events != record.events
