"""The client's text board for Risk Deep Space (risk_client.boards.deep_space), from view messages.

Views come from hand-made engine states and travel through the wire codec as the service sends
them (`board.deep_space`), so a field renamed in the contract or the engine breaks these tests
rather than the terminal output.
"""

from __future__ import annotations

from risk_client.boards.deep_space import board_lines, board_text, deep_space_view
from risk_proto.risk.v1 import classic_pb2, deep_space_pb2, game_pb2
from risk_rules import wire
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD
from risk_rules.engine.deep_space.model import (
    CardKind,
    DeepSpaceOptions,
    DeepSpaceState,
    Phase,
    PlayCard,
)
from tests.engine.deep_space_states import RULES, card_of, hand_made, p


def message(state: DeepSpaceState, viewer: int | None = None) -> deep_space_pb2.DeepSpaceView:
    """The view as the service sends it: encoded into BoardView bytes and parsed back."""
    board = game_pb2.BoardView()
    board.ParseFromString(wire.view_to_proto("deep_space", RULES.view(state, viewer))
                          .SerializeToString())
    return board.deep_space


def line_of(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(start))


def test_planets_show_recruits_per_colour_bases_dogs_and_fields() -> None:
    """Each planet line names the colours on it with their recruits, bases, dogs, fields."""
    state = hand_made(3, recruits={0: {"Ares": 3, "Red Station": 2}, 1: {"Mimas": 4}},
                      bases={0: ["Ares"], 2: ["Ares"]}, dogs={0: {"Ares": 1}},
                      fields={"Mimas": 1})
    text = board_text(message(state))
    ares = line_of(text, "Ares")
    assert "red 3" in ares and "base red+green" in ares and "dog red" in ares
    mimas = line_of(text, "Mimas")
    assert "blue 4" in mimas and "force field blue" in mimas and "warp" in mimas
    assert line_of(text, "Red Station").endswith("red 2")
    assert line_of(text, "Yellow Station").endswith("(not in play)")
    assert line_of(text, "Ceres").split() == ["Ceres", "-"]
    for name in DEEP_SPACE_BOARD.names:
        assert any(line.startswith(name) for line in text.splitlines()), name


def test_players_show_resources_supply_bases_and_face_up_hands() -> None:
    """Every seat's gems, ore, recruits, bases and cards by name, for any viewer."""
    hand = [card_of(CardKind.GEM_RUSH), card_of(CardKind.METEOR_STRIKE)]
    state = hand_made(3, recruits={1: {"Boreas": 5}}, gems={1: 4}, ore={1: 3},
                      bases={1: ["Nyx"]}, hands={1: hand}, current=1)
    text = board_text(message(state, viewer=2), names=["ann", "bo", ""])
    blue = line_of(text, "seat 1 blue (bo)")
    assert "gems 4, ore 3" in blue and "5 on the board + 27 in supply" in blue
    assert "bases 1/4" in blue and "hand: Meteor Strike, Gem Rush" in blue, "by card id"
    assert blue.endswith("<- to play")
    assert "hand: no cards" in line_of(text, "seat 0 red (ann)")
    assert line_of(text, "bank:").startswith("bank: gems 27, ore 28")


def test_two_player_board_marks_the_covered_planets() -> None:
    """With 2 players Juno and Luna are covered and the goal is 5 bases."""
    state = hand_made(2, recruits={0: {"Ares": 1}})
    text = board_text(message(state))
    assert line_of(text, "Juno").endswith("(covered)")
    assert line_of(text, "Luna").endswith("(covered)")
    assert "5 bases win" in text.splitlines()[0]
    assert "seat 1 green" in text


def test_header_says_whose_decision_it_is() -> None:
    """The first line tells the turn, the seat to play and the phase, a dog decision, or the end."""
    state = hand_made(3, recruits={0: {"Ares": 1}}, phase=Phase.MINING, moves_left=1,
                      battle_cry=True)
    assert board_lines(RULES.view(state, None))[0] == (
        "Deep Space, 3 players, turn 5/200, 4 bases win: seat 0 red to play, mining, "
        "1 move left, Battle Cry ready"
    )
    meteor = card_of(CardKind.METEOR_STRIKE)
    dog = hand_made(3, recruits={0: {"Ares": 2}, 1: {"Mimas": 1, "Boreas": 1}},
                    dogs={1: {"Mimas": 1}}, hands={0: [meteor]})
    dog, _ = RULES.apply(dog, 0, PlayCard(meteor, planet=p("Mimas"), count=1,
                                          pay_from=p("Ares")))
    assert "seat 1 blue decides where the space dog on Mimas goes" in board_text(message(dog))
    game, _ = RULES.create(DeepSpaceOptions(players=3, max_turns=3), 4)
    while RULES.outcome(game) is None:
        (seat,) = RULES.decision(game).seats
        game, _ = RULES.apply(game, seat, RULES.default_action(game, seat))
    assert board_text(message(game)).splitlines()[0].endswith("a draw (turn cap)")


def test_colour_is_optional() -> None:
    """Without colour the text has no escape codes; with it each colour is painted."""
    state = hand_made(3, recruits={0: {"Ares": 3}, 2: {"Ceres": 1}})
    assert "\x1b[" not in board_text(message(state))
    painted = board_text(message(state), colour=True)
    assert "\x1b[31mred 3\x1b[0m" in painted and "\x1b[32mgreen 1\x1b[0m" in painted


def test_board_view_helper_accepts_only_deep_space() -> None:
    """deep_space_view decodes a Deep Space board and returns None for another variant."""
    state = hand_made(4, recruits={3: {"Dione": 2}})
    board = game_pb2.BoardView(deep_space=message(state))
    view = deep_space_view(board)
    assert view is not None and view == RULES.view(state, None)
    assert board_text(view) == board_text(message(state))
    assert deep_space_view(game_pb2.BoardView(classic=classic_pb2.ClassicView())) is None
    assert deep_space_view(game_pb2.BoardView()) is None
