"""Duplicate play's draw discipline in the engine: games dealt the same seed share their deal,
deck order and dice, however differently they are played; games without it are untouched."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from risk_rules import wire
from risk_rules.engine import Event, get_ruleset
from risk_rules.engine.classic.model import BattleResolved, CardDrawn, ClassicOptions, SetupMode
from risk_rules.engine.core.dice import sort_high
from risk_rules.engine.core.draws import DrawStreams
from risk_rules.engine.deep_space.model import BattleRolled, DeepSpaceOptions
from risk_rules.engine.strike.model import DiceRolled, StrikeOptions

OPTIONS: dict[str, Any] = {
    "classic": ClassicOptions(players=3, setup=SetupMode.RANDOM_DEAL, auto_place=True,
                              auto_defend_max_dice=True, max_turns=30, duplicate_draws=True),
    "deep_space": DeepSpaceOptions(players=3, max_turns=60, duplicate_draws=True),
    "strike": StrikeOptions(players=3, max_turns=40, duplicate_draws=True),
}


def play(variant: str, seed: int, entropy: int) -> tuple[list[Event], list[Event]]:
    """(creation events, all events) of a whole bot game from `seed`, its bots' choices
    drawn from `entropy`."""
    rules = get_ruleset(variant)
    state, events = rules.create(OPTIONS[variant], seed)
    created = list(events)
    for move in range(20_000):
        if rules.outcome(state) is not None:
            break
        seat = rules.decision(state).seats[0]
        state, more = rules.apply(state, seat, rules.bot_action(state, seat, entropy + move))
        events.extend(more)
    assert rules.outcome(state) is not None
    return created, events


def check_throw(throws: DrawStreams, event: Event) -> bool:
    """Take from the dice stream what `event` rolled, checking it rolled that; False for an
    event that rolls nothing. Roll-offs take a die per contender; a classic or Strike battle
    a throw of 3 attack and 2 defence dice, each side using its first ones; a Deep Space
    roll a die for each side."""
    if hasattr(event, "rolls") and isinstance(event.rolls, tuple):
        assert event.rolls == throws.dice(len(event.rolls))
        return True
    sides: Callable[[Any], tuple[tuple[int, ...], tuple[int, ...]]] | None = {
        BattleResolved: lambda e: (e.attack_dice, e.defence_dice),
        DiceRolled: lambda e: (e.attack, e.defence),
    }.get(type(event))
    if sides is not None:
        attack, defence = sides(event)
        thrown = throws.dice(5)
        assert attack == sort_high(thrown[:len(attack)])
        assert defence == sort_high(thrown[3:3 + len(defence)])
        return True
    if isinstance(event, BattleRolled):
        assert (event.attacker_roll, event.defender_roll) == throws.dice(2)
        return True
    return False


@pytest.mark.parametrize("variant", sorted(OPTIONS))
def test_duplicate_games_share_their_deal_deck_and_every_roll(variant: str) -> None:
    """Three games of one seed played by different bots: the same creation, and every roll of
    every game is the next throw of the one dice stream of the seed, whatever was chosen
    before; in classic the cards come off the deck in the same order."""
    games = [play(variant, seed=2026, entropy=e) for e in (1, 777, 31337)]
    created = [c for c, _events in games]
    assert created[0] == created[1] == created[2]
    histories = [events for _c, events in games]
    assert histories[0] != histories[1] != histories[2]
    for history in histories:
        throws = DrawStreams.seeded(2026)
        rolled = [check_throw(throws, event) for event in history]
        assert any(rolled[len(created[0]):]), "no battle was fought: the check checked nothing"
    if variant == "classic":
        drawn = [[e.card for e in h if isinstance(e, CardDrawn)] for h in histories]
        common = min(len(d) for d in drawn)
        assert common >= 3
        # before any reshuffle (deck of 44: at most one card a turn, 30 turns)
        assert drawn[0][:common] == drawn[1][:common] == drawn[2][:common]


@pytest.mark.parametrize("variant", sorted(OPTIONS))
def test_a_game_without_the_option_keeps_its_generator_and_bytes(variant: str) -> None:
    """The discipline is only for games created with it: an ordinary game of the same seed
    draws from the one generator as before, with no stream fields in its state or options."""
    rules = get_ruleset(variant)
    state, _events = rules.create(replace(OPTIONS[variant], duplicate_draws=None), 2026)
    assert state.draw_streams == ()
    options = wire.options_to_proto(variant, state.options)
    assert not getattr(options, variant).HasField("duplicate_draws")
    duplicate, _ = rules.create(OPTIONS[variant], 2026)
    assert duplicate.draw_streams and duplicate.rng_state != state.rng_state
    for move in range(200):
        if rules.outcome(state) is not None:
            break
        seat = rules.decision(state).seats[0]
        state, _more = rules.apply(state, seat, rules.bot_action(state, seat, move))
        assert state.draw_streams == ()
