"""Duplicate play's draw discipline in the engine: games dealt the same seed share their deal,
deck order and dice, however differently they are played; games without it are untouched."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from risk_rules import wire
from risk_rules.engine import Event, get_ruleset
from risk_rules.engine.classic.model import (
    BattleResolved,
    CardDrawn,
    ClassicOptions,
    DeckShuffled,
    SetupMode,
)
from risk_rules.engine.core.dice import sort_high
from risk_rules.engine.core.draws import DrawStreams

RULES = get_ruleset("classic")
OPTIONS = ClassicOptions(players=3, setup=SetupMode.RANDOM_DEAL, auto_place=True,
                         auto_defend_max_dice=True, max_turns=30, duplicate_draws=True)


def play(seed: int, entropy: int, options: ClassicOptions = OPTIONS) -> tuple[Any, list[Event]]:
    """A whole bot game from `seed`, its bots' choices drawn from `entropy`."""
    state, events = RULES.create(options, seed)
    created = list(events)
    for move in range(20_000):
        if RULES.outcome(state) is not None:
            break
        seat = RULES.decision(state).seats[0]
        state, more = RULES.apply(state, seat, RULES.bot_action(state, seat, entropy + move))
        events.extend(more)
    assert RULES.outcome(state) is not None
    return created, events


def battles(events: list[Event]) -> list[BattleResolved]:
    return [e for e in events if isinstance(e, BattleResolved)]


def cards_before_reshuffle(events: list[Event], created: int) -> list[int]:
    """The cards drawn, in order, until the discards are first reshuffled into a new pile."""
    drawn = []
    for event in events[created:]:
        if isinstance(event, DeckShuffled):
            break
        if isinstance(event, CardDrawn):
            drawn.append(event.card)
    return drawn


def test_duplicate_games_share_deal_deck_and_the_dice_of_every_battle() -> None:
    """Three games of one seed played by different bots: the same creation, the same cards
    in the same order, and battle k of each game uses battle k's throw of the dice stream."""
    games = [play(seed=2026, entropy=e) for e in (1, 777, 31337)]
    created = [c for c, _events in games]
    assert created[0] == created[1] == created[2]  # roll-offs, the deal, the deck's size
    histories = [events for _c, events in games]
    assert histories[0] != histories[1]  # they were played differently
    draws = [cards_before_reshuffle(events, len(created[0])) for events in histories]
    common = min(len(d) for d in draws)
    assert common >= 3
    assert draws[0][:common] == draws[1][:common] == draws[2][:common]
    # the dice stream as the rules draw it: the roll-offs of the creation come first
    throws = DrawStreams.seeded(2026)
    setup_dice = sum(len(e.rolls) for e in created[0] if hasattr(e, "rolls"))
    throws.dice(setup_dice)
    expected = [throws.dice(5) for _ in range(max(len(battles(h)) for h in histories))]
    for history in histories:
        for k, battle in enumerate(battles(history)):
            attack, defence = len(battle.attack_dice), len(battle.defence_dice)
            assert battle.attack_dice == sort_high(expected[k][:attack])
            assert battle.defence_dice == sort_high(expected[k][3:3 + defence])


def test_a_game_without_the_option_keeps_its_generator_and_bytes() -> None:
    """The discipline is only for games created with it: an ordinary game of the same seed
    draws from the one generator as before, and its stored state has no stream fields."""
    ordinary = replace(OPTIONS, duplicate_draws=None)
    state, _events = RULES.create(ordinary, 2026)
    assert state.draw_streams == ()
    decoded_options = wire.options_to_proto("classic", state.options)
    assert not decoded_options.classic.HasField("duplicate_draws")
    duplicate, _ = RULES.create(OPTIONS, 2026)
    assert duplicate.draw_streams and duplicate.rng_state != state.rng_state
    # and the ordinary game's bytes do not change when it is played on
    for move in range(200):
        seat = RULES.decision(state).seats[0]
        state, _more = RULES.apply(state, seat, RULES.bot_action(state, seat, move))
        assert state.draw_streams == ()
