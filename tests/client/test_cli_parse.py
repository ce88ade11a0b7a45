"""The command line without a server: words into actions, names into territories, flags into
options, and failed calls into the typed errors the CLI prints."""

from __future__ import annotations

import shlex

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from risk_client import actions
from risk_client.actions import action_command, parse_action, territory
from risk_client.cli import build_parser, options_from_args, resolve_common
from risk_client.client import DEFAULT_TARGET
from risk_client.errors import (
    IllegalMove,
    NotFound,
    ResourceExhausted,
    RiskError,
    StaleVersion,
    Unauthenticated,
    Unavailable,
    from_rpc_error,
)
from risk_client.options import classic_options
from risk_proto.risk.v1 import classic_pb2, game_pb2
from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.classic.model import (
    Attack,
    ClaimTerritory,
    ClassicOptions,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    FortifyMode,
    MoveIn,
    PlaceArmies,
    PlaceNeutral,
    SetupMode,
    TradeCards,
    TradeSchedule,
)
from risk_rules.engine.core.ruleset import Action

T = CLASSIC_BOARD.index


def engine_action(message: game_pb2.Action) -> Action:
    variant, action = wire.action_from_proto(message)
    assert variant == "classic"
    return action


# ---- territory names -------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Western United States", "western united states", "WESTERN-UNITED-STATES",
    "western_united_states", "WesternUnitedStates", "6",
])
def test_territory_names_ignore_case_spacing_and_punctuation(text: str) -> None:
    """A territory is found by its name however it is typed, or by its id."""
    assert territory(text) == T("Western United States") == 6


def test_every_territory_name_round_trips() -> None:
    """Each of the 42 names (and its id) finds itself."""
    for index, name in enumerate(CLASSIC_BOARD.names):
        assert territory(name) == territory(name.lower()) == territory(str(index)) == index


def test_unknown_territory_suggests_names() -> None:
    """A typo is refused with the names close to it or containing it."""
    with pytest.raises(ValueError, match="did you mean Western Europe or Western Australia or "
                                         "Western United States"):
        territory("western")
    with pytest.raises(ValueError, match=r"no territory named 'Alsaka'; did you mean Alaska\?"):
        territory("Alsaka")
    with pytest.raises(ValueError, match="did you mean attack"):
        parse_action(["atack", "Alaska", "Kamchatka", "3"])
    with pytest.raises(ValueError, match=r"0\.\.41"):
        territory(42)


# ---- words into actions ----------------------------------------------------------------------


@pytest.mark.parametrize(("line", "expected"), [
    ("claim Alaska", ClaimTerritory(0)),
    ("claim 41", ClaimTerritory(41)),
    ("place Alaska 3", PlaceArmies(0, 3)),
    ("place alaska", PlaceArmies(0, 1)),
    ("place Western Australia 2", PlaceArmies(T("Western Australia"), 2)),
    ("place-neutral Peru", PlaceNeutral(T("Peru"))),
    ("trade 1 5 42", TradeCards((1, 5, 42), -1)),
    ("trade 42 5 1", TradeCards((1, 5, 42), -1)),
    ("trade 1 5 42 Northwest Territory", TradeCards((1, 5, 42), 1)),
    ("trade Alaska Peru 43", TradeCards((0, 10, 43), -1)),
    ("attack Alaska Kamchatka 3", Attack(0, T("Kamchatka"), 3)),
    ("ATTACK alaska KAMCHATKA 1", Attack(0, T("Kamchatka"), 1)),
    ("attack Western United States Eastern United States 2",
     Attack(T("Western United States"), T("Eastern United States"), 2)),
    ("attack 'North Africa' Brazil 3", Attack(T("North Africa"), T("Brazil"), 3)),
    ("attack 0 31 2", Attack(0, 31, 2)),
    ("defend 2", Defend(2)),
    ("move-in 3", MoveIn(3)),
    ("move_in 3", MoveIn(3)),
    ("end-attack", EndAttack()),
    ("endattack", EndAttack()),
    ("fortify Alaska Alberta 4", Fortify(0, T("Alberta"), 4)),
    ("fortify new guinea eastern australia 1",
     Fortify(T("New Guinea"), T("Eastern Australia"), 1)),
    ("end-turn", EndTurn()),
    ("End_Turn", EndTurn()),
])
def test_parse_action(line: str, expected: Action) -> None:
    """`risk submit GAME ...` words become the classic action, names quoted or not."""
    assert engine_action(parse_action(shlex.split(line))) == expected


@pytest.mark.parametrize(("line", "message"), [
    ("", "no action given"),
    ("fly Alaska", "unknown action 'fly'"),
    ("attack Alaska", "missing attacked territory"),
    ("attack Alaska Kamchatka", "missing dice"),
    ("attack Alaska Kamchatka three", "dice must be a number"),
    ("place Atlantis 3", "no territory named 'Atlantis'"),
    ("trade 1 5", "a trade takes three cards"),
    ("trade 1 5 44", "card id must be 0..43"),
    ("end-turn now", "unexpected words: 'now'"),
    ("defend", "missing dice"),
])
def test_parse_action_refuses_with_a_reason(line: str, message: str) -> None:
    """A malformed action is a ValueError saying what is wrong (the CLI exits 2 with it)."""
    with pytest.raises(ValueError, match=message):
        parse_action(shlex.split(line))


def test_helpers_build_the_same_messages_as_the_grammar() -> None:
    """The SDK's constructors and the command grammar agree."""
    assert actions.attack("Alaska", "Kamchatka", 3) == parse_action(
        ["attack", "Alaska", "Kamchatka", "3"]
    )
    assert actions.trade([42, 5, 1]) == parse_action(["trade", "1", "5", "42"])
    assert actions.place(0, 2).classic.place_armies == classic_pb2.ClassicAction.PlaceArmies(
        territory=0, count=2
    )
    with pytest.raises(ValueError, match="exactly three cards"):
        actions.trade([1, 2])
    # no bonus named: the optional field stays unset, which the contract reads as "none due"
    assert not actions.trade([1, 5, 42]).classic.trade_cards.HasField("bonus_territory")
    assert actions.trade([1, 5, 42], "Quebec").classic.trade_cards.bonus_territory == 5


def test_every_legal_action_command_reads_back() -> None:
    """The command `risk legal` prints beside each legal action parses back to that action."""
    rules = get_ruleset("classic")
    checked = set()
    for options, seed in [
        (ClassicOptions(players=3), 1),  # claim
        (ClassicOptions(players=2), 2),  # two-player setup, neutral placements
        (ClassicOptions(players=4, setup=SetupMode.RANDOM_DEAL, auto_place=True), 3),
    ]:
        state, _ = rules.create(options, seed)
        for step in range(400):
            if rules.outcome(state) is not None:
                break
            (seat,) = rules.decision(state).seats
            for entry in rules.legal_actions(state, seat):
                for action in entry.instances()[:2]:
                    message = wire.action_to_proto("classic", action)
                    assert engine_action(parse_action(shlex.split(action_command(message)))) \
                        == action
                    checked.add(type(action))
            state, _ = rules.apply(state, seat, rules.bot_action(state, seat, step))
    assert len(checked) >= 8  # every kind but the ones bots rarely reach in 400 steps


def test_count_ranges_print_at_their_largest_count() -> None:
    """A legal family of counts is written at its largest (a command to paste as it is: place
    them all), a single count as itself; the description says the range."""
    assert action_command(actions.place("New Guinea", 1), 5) == "place 'New Guinea' 5"
    assert actions.describe_action(actions.place("New Guinea", 1), 5) == \
        "place 1 to 5 armies on New Guinea"
    assert action_command(actions.move_in(3), 3) == "move-in 3"
    assert action_command(actions.trade([1, 5, 42], 1)) == "trade 1 5 42 'Northwest Territory'"


# ---- flags into options ----------------------------------------------------------------------


def test_create_flags_become_classic_options() -> None:
    """`risk create` flags map onto ClassicOptions; flags not given stay unset (service default)."""
    args = build_parser().parse_args([
        "create", "--players", "3", "--auto-defend", "--setup", "random-deal", "--auto-place",
        "--trade-schedule", "hasbro-1993", "--fortify", "adjacent", "--max-turns", "50",
        "--no-cards", "--seed", "9", "--name", "ada", "--name", "bob",
    ])
    options = options_from_args(args)
    _, engine = wire.options_from_proto(options)
    assert engine == ClassicOptions(
        players=3, setup=SetupMode.RANDOM_DEAL, auto_place=True,
        trade_schedule=TradeSchedule.HASBRO_1993, fortify=FortifyMode.ADJACENT,
        auto_defend_max_dice=True, cards=False, max_turns=50,
    )
    assert args.seed == 9 and args.names == ["ada", "bob"]
    bare = options_from_args(build_parser().parse_args(["create"]))
    assert not bare.classic.HasField("players") and not bare.classic.HasField("cards")


def test_classic_options_shortcut() -> None:
    """classic_options sets only what it is given and names enum values in words."""
    options = classic_options(players=4, auto_defend_max_dice=True, fortify="ADJACENT")
    assert options.classic.players == 4 and options.classic.auto_defend_max_dice
    assert options.classic.fortify == classic_pb2.CLASSIC_FORTIFY_MODE_ADJACENT
    assert not options.classic.HasField("setup")
    with pytest.raises(ValueError, match="unknown setup 'draft'"):
        classic_options(setup="draft")


def test_target_and_token_before_or_after_the_command_and_from_the_environment() -> None:
    """--target/--token work on either side of the subcommand, else RISK_TARGET/RISK_TOKEN."""
    parser = build_parser()
    for argv in (["--target", "h:1", "--token", "tk", "show", "g"],
                 ["show", "g", "--target", "h:1", "--token", "tk"]):
        args = parser.parse_args(argv)
        resolve_common(args, {"RISK_TARGET": "env:2", "RISK_TOKEN": "envtk"})
        assert (args.target, args.token, args.game) == ("h:1", "tk", "g")
    args = parser.parse_args(["show", "g"])
    resolve_common(args, {"RISK_TARGET": "env:2", "RISK_TOKEN": "envtk"})
    assert (args.target, args.token) == ("env:2", "envtk")
    args = parser.parse_args(["legal", "g"])
    resolve_common(args, {})
    assert (args.target, args.token, args.color) == (DEFAULT_TARGET, None, "auto")


def test_submit_and_watch_arguments() -> None:
    """submit takes the action's words plus optional version and request id; watch --after."""
    parser = build_parser()
    args = parser.parse_args(
        ["submit", "g1", "attack", "Alaska", "Kamchatka", "3", "--expected-version", "12"]
    )
    assert args.action == ["attack", "Alaska", "Kamchatka", "3"]
    assert args.expected_version == 12 and args.request_id is None
    args = parser.parse_args(["watch", "g1", "--after", "40", "--plain"])
    assert (args.game, args.after, args.plain) == ("g1", 40, True)
    args = parser.parse_args(["demo", "--players", "3", "--seed", "5", "--watch"])
    assert (args.players, args.seed, args.watch) == (3, 5, True)
    with pytest.raises(SystemExit):
        parser.parse_args(["list", "--status", "sleeping"])


# ---- failed calls into typed errors ----------------------------------------------------------


def _rpc_error(
    code: grpc.StatusCode, reason: str | None, message: str, metadata: dict[str, str] | None = None
) -> grpc.aio.AioRpcError:
    trailing: tuple[tuple[str, bytes], ...] = ()
    if reason is not None:
        info = error_details_pb2.ErrorInfo(reason=reason, domain="risk.v1", metadata=metadata)
        status = status_pb2.Status(code=code.value[0], message=message)
        status.details.add().Pack(info)
        trailing = (("grpc-status-details-bin", status.SerializeToString()),)
    return grpc.aio.AioRpcError(
        code, grpc.aio.Metadata(), grpc.aio.Metadata(*trailing), details=message
    )


def test_errors_are_typed_by_status_with_the_errorinfo_reason() -> None:
    """Each status code maps to its error class, carrying the ErrorInfo reason and metadata."""
    stale = from_rpc_error(_rpc_error(
        grpc.StatusCode.ABORTED, "STALE_VERSION", "at 12", {"current_version": "12"}
    ))
    assert isinstance(stale, StaleVersion) and stale.current_version == 12
    assert stale.reason == "STALE_VERSION" and stale.message == "at 12"
    illegal = from_rpc_error(_rpc_error(
        grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN", "it is not seat 1's decision"
    ))
    assert isinstance(illegal, IllegalMove) and illegal.reason == "NOT_YOUR_TURN"
    assert str(illegal) == "FAILED_PRECONDITION/NOT_YOUR_TURN: it is not seat 1's decision"
    slow = from_rpc_error(_rpc_error(
        grpc.StatusCode.RESOURCE_EXHAUSTED, "SUBSCRIBER_TOO_SLOW", "behind", {"last_seq": "9"}
    ))
    assert isinstance(slow, ResourceExhausted) and slow.metadata == {"last_seq": "9"}
    assert isinstance(from_rpc_error(_rpc_error(grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND", "")),
                      NotFound)
    assert isinstance(
        from_rpc_error(_rpc_error(grpc.StatusCode.UNAUTHENTICATED, "BAD_CREDENTIALS", "")),
        Unauthenticated,
    )


def test_errors_without_details_still_map_by_code() -> None:
    """A status with no ErrorInfo (a proxy, a dropped connection) keeps its class, no reason."""
    down = from_rpc_error(_rpc_error(grpc.StatusCode.UNAVAILABLE, None, "connection refused"))
    assert isinstance(down, Unavailable) and down.reason == "" and down.code == "UNAVAILABLE"
    assert str(down) == "UNAVAILABLE: connection refused"
    other = from_rpc_error(_rpc_error(grpc.StatusCode.DEADLINE_EXCEEDED, None, "slow"))
    assert type(other) is RiskError and other.code == "DEADLINE_EXCEEDED"
    stale = from_rpc_error(_rpc_error(grpc.StatusCode.ABORTED, None, ""))
    assert isinstance(stale, StaleVersion) and stale.current_version is None
