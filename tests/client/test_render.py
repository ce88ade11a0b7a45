"""The client's words for classic events, actions and boards, as `watch`, `show` and `legal` print.

Events are built as the engine emits them and encoded with the service's wire codec, so a field
renamed in the contract or the engine breaks these tests rather than the terminal output.
"""

from __future__ import annotations

import dataclasses

import pytest

from risk_client import actions
from risk_client.boards.classic import board_lines, classic_view
from risk_client.render import (
    Seats,
    card_label,
    describe_action,
    describe_event,
    event_line,
    game_text,
    is_game_end,
    outcome_text,
)
from risk_proto.risk.v1 import (
    classic_pb2,
    common_pb2,
    game_pb2,
    lifecycle_pb2,
    service_pb2,
)
from risk_rules import wire
from risk_rules.engine import REGISTRY, Event, get_ruleset
from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.classic.model import (
    EVENT_TYPES,
    HIDDEN,
    ArmiesMoved,
    ArmiesPlaced,
    AttackDeclared,
    AttackEnded,
    BattleResolved,
    CardDrawn,
    CardsTraded,
    ClassicOptions,
    ClassicState,
    DeckShuffled,
    GameEnded,
    OrderRolled,
    Phase,
    PlayerEliminated,
    PlayerResigned,
    SetupMode,
    TerritoriesDealt,
    TerritoryClaimed,
    TerritoryConquered,
    TurnEnded,
    TurnStarted,
)

ALASKA, KAMCHATKA, PERU = (CLASSIC_BOARD.index(n) for n in ("Alaska", "Kamchatka", "Peru"))
RULES = get_ruleset("classic")


def words(event: Event, seats: Seats | None = None, seq: int = 7, version: int = 3) -> str:
    return describe_event(wire.event_to_proto("classic", event, seq, version), seats)


# One example of every classic event type and the words it must produce (the shared text
# table's, risk_rules/text/en.json: the web app and the Node client read the same sentences).
EVERY_EVENT: list[tuple[Event, str]] = [
    (OrderRolled("setup", (0, 1, 2), (5, 3, 5), -1),
     "Roll for who places first: seat 0 rolled 5, seat 1 rolled 3 and seat 2 rolled 5; a tie, "
     "so the high rollers roll again"),
    (OrderRolled("first_turn", (0, 2), (2, 6), 2),
     "Roll for who plays first: seat 0 rolled 2 and seat 2 rolled 6; seat 2 won"),
    (DeckShuffled(44), "The deck was shuffled (44 cards)"),
    (TerritoriesDealt((0, 1, 0) + (1,) * 39),
     "The territories were dealt: 2 to seat 0 and 40 to seat 1"),
    (TerritoryClaimed(1, ALASKA), "Seat 1 claimed Alaska"),
    (ArmiesPlaced(1, ALASKA, 3), "Seat 1 placed 3 armies on Alaska"),
    (ArmiesPlaced(0, PERU, 1), "Seat 0 placed 1 army on Peru"),
    (TurnStarted(2, 5, 7, 2),
     "Turn 5: seat 2 received 7 reinforcements, 2 of them for continents"),
    (TurnStarted(0, 1, 3, 0), "Turn 1: seat 0 received 3 reinforcements"),
    (CardsTraded(1, (0, 10, 42), 8, ALASKA, 3),
     "Seat 1 traded Alaska (infantry), Peru (cavalry) and wild for 8 armies (set 3), with 2 "
     "more on Alaska"),
    (CardsTraded(1, (0, 3, 6), 4, -1, 1),
     "Seat 1 traded Alaska (infantry), Alberta (infantry) and Western United States (infantry) "
     "for 4 armies (set 1)"),
    (AttackDeclared(2, ALASKA, KAMCHATKA, 3, 1),
     "Seat 2 attacked Kamchatka, held by seat 1, from Alaska with 3 dice"),
    (AttackDeclared(2, ALASKA, KAMCHATKA, 1, 1),
     "Seat 2 attacked Kamchatka, held by seat 1, from Alaska with 1 die"),
    (BattleResolved(2, 1, ALASKA, KAMCHATKA, (6, 4, 1), (5, 5), 1, 1),
     "Battle for Kamchatka: seat 2 rolled 6, 4 and 1, seat 1 rolled 5 and 5; the attacker "
     "lost 1, the defender 1"),
    (TerritoryConquered(2, KAMCHATKA, 1), "Seat 2 conquered Kamchatka from seat 1"),
    (ArmiesMoved(2, ALASKA, KAMCHATKA, 3), "Seat 2 moved 3 armies from Alaska to Kamchatka"),
    (PlayerEliminated(1, 2, (HIDDEN, HIDDEN)),
     "Seat 1 was eliminated by seat 2, who took 2 hidden cards"),
    (PlayerEliminated(1, 2, (0, 43)),
     "Seat 1 was eliminated by seat 2, who took Alaska (infantry) and wild"),
    (PlayerEliminated(1, 2, ()), "Seat 1 was eliminated by seat 2"),
    (PlayerResigned(1, 4), "Seat 1 resigned; the territories went to seat 4"),
    (AttackEnded(2), "Seat 2 stopped attacking"),
    (CardDrawn(2, HIDDEN), "Seat 2 drew a hidden card"),
    (CardDrawn(2, PERU), "Seat 2 drew Peru (cavalry)"),
    (TurnEnded(2), "Seat 2 ended the turn"),
    (GameEnded(2, (2, 0, 1), "conquest"),
     "Game over: seat 2 won by conquest; ranking: seat 2, seat 0 and seat 1"),
    (GameEnded(-1, (1, 0, 2), "turn_cap"),
     "Game over: no one won at the turn limit; ranking: seat 1, seat 0 and seat 2"),
]


@pytest.mark.parametrize(("event", "expected"), EVERY_EVENT,
                         ids=[f"{type(e).__name__}-{i}" for i, (e, _) in enumerate(EVERY_EVENT)])
def test_every_classic_event_in_words(event: Event, expected: str) -> None:
    """Each classic event reads as a sentence naming seats, territories, dice and cards."""
    assert words(event) == expected


def test_the_examples_cover_every_event_type() -> None:
    """A new classic event type needs words (and an example above) before it ships."""
    assert {type(e) for e, _ in EVERY_EVENT} == set(EVENT_TYPES)


_L = lifecycle_pb2.LifecycleEvent

EVERY_LIFECYCLE_EVENT: list[tuple[lifecycle_pb2.LifecycleEvent, str]] = [
    (_L(game_started=_L.GameStarted()), "The game started"),
    (_L(seat_joined=_L.SeatJoined(seat=1, display_name="ada")), "Seat 1 was taken by ada"),
    (_L(seat_joined=_L.SeatJoined(seat=2)), "Seat 2 was taken"),
    (_L(seat_token_reissued=_L.SeatTokenReissued(seat=0)), "Seat 0 got a new seat token"),
    (_L(game_cancelled=_L.GameCancelled()), "The game was cancelled"),
    (_L(game_abandoned=_L.GameAbandoned()), "The game was abandoned: nobody acted in time"),
    (_L(decision_timed_out=_L.DecisionTimedOut(
        seat=1, policy=lifecycle_pb2.TIMEOUT_POLICY_FORFEIT)),
     "Seat 1 ran out of time: the seat forfeited"),
    (_L(seat_handed_to_bot=_L.SeatHandedToBot(seat=3)),
     "The built-in bot plays for seat 3 from now on"),
    (_L(clock_started=_L.ClockStarted(seat=2, deadline_ms=3_723_000, bank_ms=90_000)),
     "Seat 2 must decide by 1970-01-01 01:02 UTC, with 1 minute 30 seconds in the bank"),
    (_L(turn_missed=_L.TurnMissed(seat=1, missed=1)), "Seat 1 missed a turn (1 turn in a row)"),
    (_L(seat_removed=_L.SeatRemoved(seat=2, missed=3)),
     "Seat 2 is out of the game after missing 3 turns in a row"),
    (_L(vacation_started=_L.VacationStarted(seat=0, until_ms=2 * 86_400_000,
                                            vacation_left_ms=3 * 86_400_000 + 3_600_000)),
     "Seat 0 went on vacation until 1970-01-03 00:00 UTC (3 days 1 hour of vacation left)"),
    (_L(vacation_ended=_L.VacationEnded(seat=0, vacation_left_ms=5 * 3_600_000)),
     "Seat 0 came back from vacation (5 hours of vacation left)"),
]


@pytest.mark.parametrize(("lifecycle", "expected"), EVERY_LIFECYCLE_EVENT,
                         ids=[e.WhichOneof("kind") or "" for e, _ in EVERY_LIFECYCLE_EVENT])
def test_every_lifecycle_event_in_words(
    lifecycle: lifecycle_pb2.LifecycleEvent, expected: str
) -> None:
    """The service's own events (start, joins, clocks, cancel) read as sentences too."""
    assert describe_event(game_pb2.Event(seq=1, version=0, lifecycle=lifecycle)) == expected


def test_the_lifecycle_examples_cover_every_kind() -> None:
    """A new lifecycle event kind needs words (and an example above)."""
    kinds = {f.name for f in lifecycle_pb2.LifecycleEvent.DESCRIPTOR.oneofs_by_name["kind"].fields}
    assert {e.WhichOneof("kind") for e, _ in EVERY_LIFECYCLE_EVENT} == kinds


def test_event_line_carries_seq_and_version() -> None:
    """`watch --plain` lines start with the event's seq and game version, for logs and resuming."""
    event = wire.event_to_proto("classic", TerritoryClaimed(0, PERU), 12, 4)
    assert event_line(event) == "#12 v4 Seat 0 claimed Peru"


def test_neutral_and_display_names() -> None:
    """In a two-player game seat 2 is the neutral; display names follow the seat number."""
    seats = Seats(players=2, names=("ada", ""))
    assert words(TerritoryConquered(0, PERU, 2), seats) == \
        "seat 0 (ada) conquered Peru from the neutral"
    assert words(ArmiesPlaced(2, PERU, 1), seats) == "The neutral placed 1 army on Peru"
    assert words(TurnEnded(1), seats) == "Seat 1 ended the turn"
    assert Seats(players=4).label(2) == "seat 2"
    # whoever resigns leaves its territories to the neutral, owner id == players
    assert words(PlayerResigned(1, 4), Seats(players=4)) == \
        "Seat 1 resigned; the territories went to the neutral"
    assert Seats(players=4).tag(4) == "N"


def test_unreadable_event_is_shown_not_raised() -> None:
    """An event of a variant this client cannot decode still prints, as raw text."""
    event = game_pb2.Event(seq=3, version=1)
    assert "cannot read" in describe_event(event)


def test_game_end_detection() -> None:
    """`watch` stops at GameEnded, a cancel or an abandon, and nowhere else."""
    ended = wire.event_to_proto("classic", GameEnded(0, (0, 1), "conquest"), 9, 9)
    other = wire.event_to_proto("classic", TurnEnded(0), 8, 9)
    assert is_game_end(ended) and not is_game_end(other)
    for lifecycle, _words in EVERY_LIFECYCLE_EVENT:
        event = game_pb2.Event(seq=1, lifecycle=lifecycle)
        kind = lifecycle.WhichOneof("kind")
        assert is_game_end(event) == (kind in ("game_cancelled", "game_abandoned")), kind


def test_outcome_text() -> None:
    """The demo and watch print the outcome the same way GameEnded reads."""
    outcome = common_pb2.Outcome(winner=1, ranking=[1, 0], reason="conquest")
    assert outcome_text(outcome, Seats(2, ("a", "b"))) == \
        "seat 1 (b) won by conquest; ranking: seat 1 (b) and seat 0 (a)"
    draw = common_pb2.Outcome(winner=-1, ranking=[1, 0], reason="turn_cap")
    assert outcome_text(draw, Seats(2)) == \
        "No one won at the turn limit; ranking: seat 1 and seat 0"


def test_card_labels() -> None:
    """Card i shows territory i with its symbol; 42 and 43 are wild; -1 is a hidden card."""
    assert card_label(0) == "Alaska (infantry)"
    assert card_label(1) == "Northwest Territory (cavalry)"
    assert card_label(2) == "Greenland (artillery)"
    assert card_label(43) == "wild"
    assert card_label(HIDDEN) == "a hidden card"


# ---- actions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "max_count", "expected"), [
    (actions.claim("alaska"), 0, "Claim Alaska"),
    (actions.place("Peru", 1), 7, "Place 1 to 7 armies on Peru"),
    (actions.place("Peru", 1), 0, "Place 1 army on Peru"),
    (actions.place_neutral("Peru"), 0, "Place a neutral army on Peru"),
    (actions.trade([42, 0, 10], "Alaska"), 0,
     "Trade Alaska (infantry), Peru (cavalry) and wild (2 more armies on Alaska)"),
    (game_pb2.Action(classic=classic_pb2.ClassicAction(
        trade_cards=classic_pb2.ClassicAction.TradeCards(cards=[1, 5, 42], bonus_territory=-1)
    )), 0, "Trade Northwest Territory (cavalry), Quebec (artillery) and wild"),
    (actions.trade([1, 5, 42]), 0,
     "Trade Northwest Territory (cavalry), Quebec (artillery) and wild"),
    (actions.attack("Alaska", "Kamchatka", 2), 0, "Attack Kamchatka from Alaska with 2 dice"),
    (actions.defend(1), 0, "Defend with 1 die"),
    (actions.move_in(3), 9, "Move 3 to 9 armies into the conquered territory"),
    (actions.end_attack(), 0, "Stop attacking"),
    (actions.fortify("Alaska", "Alberta", 1), 4,
     "Fortify Alberta from Alaska with 1 to 4 armies"),
    (actions.end_turn(), 0, "End the turn"),
])
def test_actions_in_words(action: game_pb2.Action, max_count: int, expected: str) -> None:
    """`risk legal` describes each legal action (and count range) in the text table's words."""
    assert describe_action(action, max_count) == expected


# ---- the board -------------------------------------------------------------------------------


def _game(state: ClassicState, viewer: int | None) -> service_pb2.GetGameResponse:
    view = RULES.view(state, viewer)
    decision = RULES.decision(state)
    summary = service_pb2.GameSummary(
        game_id="00aa11bb22cc",
        variant=common_pb2.VARIANT_CLASSIC,
        status=service_pb2.GAME_STATUS_ACTIVE,
        version=12,
        last_seq=40,
        seats=[service_pb2.Seat(seat=i, display_name=f"p{i}", taken=True)
               for i in range(state.options.players)],
        decision=wire.decision_to_proto(decision),
    )
    return service_pb2.GetGameResponse(
        game=summary, board=wire.view_to_proto("classic", view),
        viewer_seat=-1 if viewer is None else viewer,
    )


def _dealt(players: int = 3) -> ClassicState:
    options = ClassicOptions(players=players, setup=SetupMode.RANDOM_DEAL, auto_place=True)
    state: ClassicState = RULES.create(options, 11)[0]
    return state


def test_board_groups_territories_by_continent_with_owner_and_armies() -> None:
    """`show` lists every territory once, under its continent, with its owner and armies."""
    state = _dealt()
    game = _game(state, None)
    text = game_text(game, width=200)
    for region in CLASSIC_BOARD.regions:
        assert f"{region.name} (+{region.bonus})" in text
    for t, name in enumerate(CLASSIC_BOARD.names):
        row = f"{name.ljust(21)} {f's{state.owner[t]}':>3} {state.armies[t]:>3}"
        assert row in text, row
    assert "decision: seat" in text and "(place reinforcements)" in text
    assert "phase reinforce" in text
    assert "your hand" not in text  # a spectator has no hand


def test_board_shows_the_viewers_hand_only() -> None:
    """A seat's `show` lists its own cards; the others' appear only as counts."""
    state = dataclasses.replace(_dealt(), hands=((0, 42), (5,), ()))
    text = game_text(_game(state, 0), width=200)
    assert "your hand as seat 0 (p0): Alaska (infantry), wild" in text
    assert "Quebec" in text and "Quebec (" not in text  # seat 1's card stays hidden


def test_board_fits_the_width() -> None:
    """The board uses up to three columns, fewer on a narrow terminal, never wider than asked."""
    view = classic_view(_game(_dealt(), None).board)
    assert view is not None
    seats = Seats(3)
    for width, columns in ((200, 3), (70, 2), (40, 1)):
        lines = board_lines(view, seats, width=width)
        assert max(len(line) for line in lines) <= max(width, 29)
        heads = sum(line.count("(+") for line in lines[:1])
        assert heads == columns


def test_hidden_board_says_so() -> None:
    """A delayed game shows spectators no board (GetGame leaves it unset); `show` says why."""
    game = _game(_dealt(), None)
    game.ClearField("board")
    text = game_text(game)
    assert "hidden from spectators" in text and "decision: seat" in text


def test_board_colour_marks_owners() -> None:
    """With colour on, each owner's mark carries its ANSI colour; without, no escapes at all."""
    game = _game(_dealt(), None)
    assert "\x1b[" not in game_text(game, colour=False)
    assert "\x1b[31m" in game_text(game, colour=True)


def test_finished_game_shows_outcome_and_two_player_neutral() -> None:
    """A finished two-player game shows the outcome, and the neutral's territories as N."""
    state, _ = RULES.create(ClassicOptions(players=2, auto_place=True), 5)
    owner = tuple(2 if o == 2 else 0 for o in state.owner)
    state = dataclasses.replace(
        state, owner=owner, phase=Phase.FINISHED, winner=0, ranking=(0, 1),
        end_reason="conquest", eliminated=(False, True),
    )
    game = _game(state, None)
    game.game.status = service_pb2.GAME_STATUS_FINISHED
    game.game.outcome.CopyFrom(common_pb2.Outcome(winner=0, ranking=[0, 1], reason="conquest"))
    text = game_text(game, width=200)
    assert "outcome: seat 0 (p0) won by conquest; ranking: seat 0 (p0) and seat 1 (p1)" in text
    assert "neutral" in text and "  N " in text
    assert "eliminated" in text


def test_show_and_watch_draw_every_served_variant() -> None:
    """`show`/`watch` draw a Deep Space board (planets, bases) and print other variants'
    views field by field; their events read in words, never as a bare class name."""
    for variant in REGISTRY:
        rules = get_ruleset(variant)
        state, events = rules.create(rules.default_options(3), 5)
        game = service_pb2.GetGameResponse(
            board=wire.view_to_proto(variant, rules.view(state, 0)))
        game.game.seats.extend(service_pb2.Seat(seat=i) for i in range(3))
        text = game_text(game)
        assert "(this client shows" not in text
        if variant == "deep_space":
            assert "Ares" in text and "planets" in text
        for event in events:
            words = describe_event(wire.event_to_proto(variant, event, 1, 0))
            assert words != type(event).__name__
