"""Every variant in words: each legal action's `risk legal` command parses back to it, each
board draws through its descriptor's renderer, and events name places and seats.

Bot games of every variant are played in-process through the engine (no service needed); at
every step each legal entry is turned into the wire action, written as the command `risk legal`
prints and parsed again, which must give the same action, and the board is drawn for the seat
deciding, for the views a player meets along the game (windows, battles, hands).
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from typing import Any

import pytest

from risk_client.action_words import command_any, describe_any, words_for
from risk_client.render import describe_event, game_text
from risk_proto.risk.v1 import service_pb2
from risk_rules import variants, wire
from risk_rules.engine import get_ruleset

STEPS = 250
# what each variant's board must show at some point of the game
SHOWN = {
    "classic": ("Alaska", "<- to play", "phase attack"),
    "deep_space": ("planets", "<- to play", "bank:"),
    "strike": ("continent cards", "coins in the bank", "battle:", "window open:",
               "your hand as seat"),
    "legacy": ("red stars", "missile", "HQ", "North America (+", "<- to play",
               "your hand as seat"),
}


def _game(variant: str, view: Any, seat: int, deciding: tuple[int, ...], players: int
          ) -> service_pb2.GetGameResponse:
    game = service_pb2.GetGameResponse(board=wire.view_to_proto(variant, view), viewer_seat=seat)
    game.game.status = service_pb2.GAME_STATUS_ACTIVE
    game.game.seats.extend(service_pb2.Seat(seat=i, taken=True) for i in range(players))
    game.game.decision.seats.extend(deciding)
    return game


@pytest.mark.parametrize("variant", ["classic", "deep_space", "strike", "legacy"])
def test_commands_read_back_and_boards_draw(variant: str) -> None:
    rules = get_ruleset(variant)
    grammar = words_for(variant)
    assert grammar is not None
    assert variants.descriptor(variant).renderer  # every variant of the contract has one
    players = 3
    options = dataclasses.replace(rules.default_options(players), max_turns=40)
    state, _ = rules.create(options, 11)
    verbs_seen: set[str] = set()
    drawn = ""
    for step in range(STEPS):
        if rules.outcome(state) is not None:
            break
        deciding = tuple(rules.decision(state).seats)
        seat = deciding[0]
        for entry in rules.legal_actions(state, seat):
            message = wire.action_to_proto(variant, entry.action)
            command = command_any(message, entry.max_count)
            # an optional field at the value the rules take when it is unset is left out
            assert "=-1" not in command and "count=0" not in command, command
            parsed = wire.action_from_proto(grammar.parse(shlex.split(command)))[1]
            expected = entry.action if not entry.max_count else dataclasses.replace(
                entry.action, count=entry.max_count)
            assert parsed == expected, command
            assert "cannot read" not in describe_any(message, entry.max_count)
            verbs_seen.add(command.split()[0])
        if step % 3 == 0:
            drawn += game_text(_game(variant, rules.view(state, seat), seat, deciding, players))
        state, events = rules.apply(state, seat, rules.bot_action(state, seat, step))
        for event in events:
            words = describe_event(wire.event_to_proto(variant, event, step + 1, step + 1))
            assert "cannot read" not in words and "Sequence" not in words
            assert not re.search(r"\(-?\d+, -?\d+", words), words  # no Python tuples
    for expected_text in SHOWN[variant]:
        assert expected_text in drawn, expected_text
    assert len(verbs_seen) >= 4


def test_misspelt_names_get_suggestions() -> None:
    legacy = words_for("legacy")
    strike = words_for("strike")
    assert legacy is not None and strike is not None
    with pytest.raises(ValueError, match=r"no territory named 'Alsaka'; did you mean Alaska\?"):
        legacy.parse(["attack", "Alsaka", "Kamchatka", "3"])
    with pytest.raises(ValueError, match="did you mean Europe"):
        strike.parse(["attack", "1", "Eurpoe", "Asia"])
    with pytest.raises(ValueError, match="unknown action 'mien'; did you mean mine"):
        words_grammar = words_for("deep_space")
        assert words_grammar is not None
        words_grammar.parse(["mien"])
