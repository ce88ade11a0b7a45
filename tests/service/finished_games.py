"""A finished bot game of any variant, played through the real service, and the spectator's
board at each of its versions as the engine gives it offline from the game's export.

`finished_game` creates a game with the variant's leak-probe options (its fast options and
seed, from the descriptor), takes every seat and plays each decision with the engine's bot on
the deciding seat's view and legal list, until the service reports an outcome.
`spectator_boards` replays the export (ExportGame, every page) through the rules, independently
of the service's own replay, for a test to compare with GetGame's at_version.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc
from risk_rules import variants, wire
from risk_rules.engine import LegalAction, get_ruleset
from risk_testing.rpc import bearer

Stub = service_pb2_grpc.RiskServiceStub
MAX_ACTIONS = 4000
_MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class Finished:
    variant: str
    game_id: str
    host_token: str
    seat_tokens: list[str]
    version: int
    last_seq: int


def fast_options(variant: str) -> tuple[game_pb2.GameOptions, int]:
    """The options and seed of the variant's leak probe: a game that ends in a few seconds."""
    probe = variants.DESCRIPTORS[variant].defaults.leaks
    assert probe is not None, f"{variant} has no leak probe to take fast options from"
    rules = get_ruleset(variant)
    options = dataclasses.replace(rules.default_options(probe.players), **probe.options)
    return wire.options_to_proto(variant, options), probe.seed


async def finished_game(stub: Stub, variant: str) -> Finished:
    options, seed = fast_options(variant)
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=options, seed=seed, issue_seat_tokens=True))
    game_id = created.game.game_id
    rules = get_ruleset(variant)
    for move in range(MAX_ACTIONS):
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        if not game.decision.seats:
            return Finished(variant, game_id, created.host_token, list(created.seat_tokens),
                            game.version, game.last_seq)
        token = bearer(created.seat_tokens[game.decision.seats[0]])
        seen = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id), metadata=token)
        listed = await stub.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=token)
        legal = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
                 for e in listed.actions]
        view = wire.from_message(wire.view_from_proto(seen.board)[1], rules.view_type)
        action = rules.bot_choose(view, legal, (seed * 0x9E3779B97F4A7C15 + move) & _MASK64)
        await stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game_id, action=wire.action_to_proto(variant, action),
            expected_version=seen.game.version, request_id=f"replay-{move}"), metadata=token)
    raise AssertionError(f"{variant}: no outcome after {MAX_ACTIONS} actions")


async def spectator_boards(stub: Stub, game: Finished) -> list[game_pb2.BoardView]:
    """boards[v]: the spectator's board just after version v, from the export replayed."""
    log: list[game_pb2.LogEntry] = []
    first: service_pb2.GameExport | None = None
    token = ""
    while True:
        page = await stub.ExportGame(service_pb2.ExportGameRequest(
            game_id=game.game_id, page_token=token), metadata=bearer(game.host_token))
        first = first or page
        log.extend(page.log)
        token = page.next_page_token
        if not token:
            break
    rules = get_ruleset(game.variant)
    _variant, options = wire.options_from_proto(first.options)
    state, _events = rules.create(options, first.seed)
    boards = [wire.view_to_proto(game.variant, rules.view(state, None))]
    for entry in log:
        which = entry.WhichOneof("entry")
        if which == "action":
            state, _events = rules.apply(state, entry.seat, wire.action_from_proto(entry.action)[1])
        elif which == "resign":
            state, _events = rules.resign(state, entry.seat)
        boards.append(wire.view_to_proto(game.variant, rules.view(state, None)))
    assert len(boards) == game.version + 1
    return boards
