"""Hand-made Risk Legacy states for scenario tests, and the helpers that drive them.

A state is made by `dataclasses.replace` on a real created game, so every field a test does not
care about is a value the engine itself produced. Territory cards not placed by the test stay in
the deck (in the created game's order) and coins not in a hand stay in the coin pile, so every
card is somewhere exactly once. Dice are fixed by searching for a generator state whose next
rolls are the ones a scenario needs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any, TypeVar

import pytest

from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, Event, is_legal
from risk_rules.engine.legacy import campaign as camp
from risk_rules.engine.legacy.cards import FIRST_COIN
from risk_rules.engine.legacy.model import LegacyOptions, LegacyState, Pass, Phase
from risk_rules.engine.legacy.rules import LegacyRules
from risk_rules.engine.legacy.world import City, CitySize, World

RULES = LegacyRules()
E = TypeVar("E", bound=Event)
COINS = tuple(range(FIRST_COIN, FIRST_COIN + 12))


def t(name: str) -> int:
    """A territory id by its classic name."""
    return CLASSIC_BOARD.index(name)


def made(
    players: int = 3,
    *,
    world: World | None = None,
    owner: Mapping[int, int] | None = None,
    troops: Mapping[int, int] | None = None,
    hands: Mapping[int, Sequence[int]] | None = None,
    hqs: Sequence[int] | None = None,
    phase: Phase = Phase.ATTACK,
    current: int = 0,
    seed: int = 1,
    sideboard: Sequence[int] | None = None,
    options: LegacyOptions | None = None,
    **changes: Any,
) -> LegacyState:
    """A mid-game state: the given board, hands and HQs, every other card in its pile.

    `owner` maps territory -> seat (others unoccupied) and `troops` territory -> troops (1 for an
    owned territory not listed). `options` (say, a campaign's next game) replaces `players`
    and `world`. Keyword arguments naming a `LegacyOptions` field change the options; any
    other one replaces that `LegacyState` field.
    """
    option_fields = {f.name for f in dataclasses.fields(LegacyOptions)}
    option_changes = {k: v for k, v in changes.items() if k in option_fields}
    state_changes = {k: v for k, v in changes.items() if k not in option_fields}
    if options is None:
        options = LegacyOptions(players=players, world=world or World())
    players = options.players
    base, _ = RULES.create(dataclasses.replace(options, **option_changes), seed)
    owners = [-1] * TERRITORIES
    for territory, seat in (owner or {}).items():
        owners[territory] = seat
    counts = [0] * TERRITORIES
    for territory in range(TERRITORIES):
        if owners[territory] >= 0:
            counts[territory] = (troops or {}).get(territory, 1)
    held = [tuple(sorted((hands or {}).get(s, ()))) for s in range(players)]
    slots = tuple(sideboard) if sideboard is not None else base.sideboard
    placed = {c for h in held for c in h} | {c for c in slots if c >= 0}
    placed |= set(state_changes.get("discard", ()))
    every = [*base.deck, *(c for c in base.sideboard if c >= 0)]
    defaults: dict[str, Any] = {
        "phase": phase,
        "current": current,
        "turn": 1,
        "owner": tuple(owners),
        "troops": tuple(counts),
        "hqs": tuple(hqs) if hqs is not None else (-1,) * players,
        "hands": tuple(held),
        "sideboard": slots,
        "deck": tuple(c for c in every if c not in placed),
        "discard": (),
        "coin_pile": tuple(c for c in COINS if c not in placed),
        "scar_cards": (0,) * players,
        "windows": (),
    }
    defaults.update(state_changes)
    return dataclasses.replace(base, **defaults)


@cache
def _state_rolling(inc: int, dice: tuple[int, ...]) -> int:
    # Small states make PCG32 emit zeros, so the candidates are spread over the 64-bit range.
    for k in range(1, 5_000_000):
        candidate = (k * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
        rng = Pcg32(candidate, inc)
        if all(rng.die() == want for want in dice):
            return candidate
    raise AssertionError(f"no generator state rolls {dice}")


def rigged(state: LegacyState, *dice: int) -> LegacyState:
    """The state with its generator set so that the next dice are `dice`, in order (a roll
    rolls the attacker's dice first, then the defender's, each as a list before sorting)."""
    return dataclasses.replace(state, rng_state=_state_rolling(state.rng_inc, tuple(dice)))


def decider(state: LegacyState) -> int:
    (seat,) = RULES.decision(state).seats
    return seat


def act(state: LegacyState, seat: int, action: Action) -> tuple[LegacyState, list[Event]]:
    """Apply an action the test expects to be legal, checking legal_actions agrees first."""
    assert decider(state) == seat, f"seat {decider(state)} decides, not {seat}"
    assert is_legal(RULES.legal_actions(state, seat), action), f"{action} not listed as legal"
    return RULES.apply(state, seat, action)


def play(
    state: LegacyState, *steps: tuple[int, Action]
) -> tuple[LegacyState, list[Event]]:
    """Apply several (seat, action) steps; returns the state and all their events."""
    events: list[Event] = []
    for seat, action in steps:
        state, produced = act(state, seat, action)
        events.extend(produced)
    return state, events


def refused(state: LegacyState, seat: int, action: Action) -> Reason:
    """The reason the engine gives for rejecting an action (also absent from legal_actions)."""
    assert not is_legal(RULES.legal_actions(state, seat), action), f"{action} listed as legal"
    with pytest.raises(IllegalAction) as caught:
        RULES.apply(state, seat, action)
    return caught.value.reason


def pass_until(
    state: LegacyState, done: Any, events: list[Event] | None = None, limit: int = 50
) -> LegacyState:
    """Pass for whoever a window asks until `done(state)` holds."""
    for _ in range(limit):
        if done(state):
            return state
        state, produced = act(state, decider(state), Pass())
        if events is not None:
            events.extend(produced)
    raise AssertionError("still not done after passing")


def of_type(events: Iterable[object], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def all_cards(state: LegacyState) -> list[int]:
    """Every resource card id somewhere in the state (deck, discard, sideboard, coins, hands)."""
    return sorted([
        *state.deck, *state.discard, *state.coin_pile,
        *(c for c in state.sideboard if c >= 0),
        *(c for hand in state.hands for c in hand),
    ])


# ---- worlds ---------------------------------------------------------------------------------


@cache
def veteran_world(players: int) -> World:
    """The world after three bot-played, bot-rewarded games of a campaign."""
    factions = tuple(range(1, players + 1))
    powers = tuple((2 * f - 1) + (f % 2) for f in factions)  # a mix of first and second powers
    campaign = camp.new_campaign(players, factions, powers)
    for game in range(3):
        state, _ = RULES.create(camp.options_for_next_game(campaign), 900 + game)
        step = 0
        while RULES.outcome(state) is None:
            (seat,) = RULES.decision(state).seats
            state, _ = RULES.apply(state, seat, RULES.bot_action(state, seat, step))
            step += 1
        campaign = camp.record_game(campaign, state)
        while campaign.phase is camp.CampaignPhase.REWARDS:
            (seat,) = camp.campaign_decision(campaign).seats
            reward = camp.campaign_bot_reward(campaign, seat, step)
            campaign, _ = camp.apply_reward(campaign, seat, reward)
    return campaign.world


def crowded_world(players: int) -> World:
    """A city on every territory: a seat knocked off the board can never join again."""
    return World(cities=tuple(City(t, CitySize.MINOR, f"c{t}", t % players) for t in range(42)))


def world_for(kind: str, players: int) -> World:
    if kind == "veteran":
        return veteran_world(players)
    if kind == "crowded":
        return crowded_world(players)
    return World()
