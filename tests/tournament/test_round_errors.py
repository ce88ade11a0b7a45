"""Bad tournament requests get the right status and reason, and change nothing."""

from __future__ import annotations

import grpc

from risk_proto.risk.v1 import game_pb2, legacy_pb2, service_pb2, tournament_pb2
from risk_testing.rpc import error_info, rpc_error
from tests.tournament.conftest import ServiceFactory
from tests.tournament.players import Stub, bot, player, quick_options

GREEDY = tournament_pb2.BOT_LEVEL_GREEDY


def table(*seats: tournament_pb2.RoundSeat) -> tournament_pb2.RoundTable:
    return tournament_pb2.RoundTable(seats=list(seats))


def good_round(**fields: object) -> tournament_pb2.CreateRoundRequest:
    request = tournament_pb2.CreateRoundRequest(
        request_id="one", tournament="cup", round=1, options=quick_options(),
        games=[table(player("a"), player("b"), bot(GREEDY))])
    for name, value in fields.items():
        if name == "games":
            del request.games[:]
            request.games.extend(value)  # type: ignore[arg-type]
        elif name == "options":
            request.options.CopyFrom(value)  # type: ignore[arg-type]
        else:
            setattr(request, name, value)
    return request


async def test_bad_rounds_and_unknown_tournaments_are_refused_with_their_reasons(
        start_service: ServiceFactory) -> None:
    """Malformed batches are INVALID_ARGUMENT / MALFORMED_REQUEST, a round over the limit
    RESOURCE_EXHAUSTED / TOO_MANY_ROUND_GAMES with the limit, a request id reused for another
    round REQUEST_ID_REUSED, and an unknown tournament NOT_FOUND / TOURNAMENT_NOT_FOUND for
    the feed and the game list; none of them creates a game."""
    service = start_service(RISK_MAX_ROUND_GAMES="4")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)

        async def refused(call: object, code: grpc.StatusCode, reason: str,
                          says: str = "") -> grpc.aio.AioRpcError:
            error = await rpc_error(call)  # type: ignore[arg-type]
            assert error.code() == code, error.details()
            assert error_info(error).reason == reason
            assert says in (error.details() or "")
            return error

        bad = grpc.StatusCode.INVALID_ARGUMENT
        malformed = "MALFORMED_REQUEST"
        for request, says in [
            (good_round(games=[table(player("a"), bot(GREEDY))]), "has 2 seats"),
            (good_round(games=[table(player("a"), player("b"),
                                     tournament_pb2.RoundSeat())]), "name a player or a bot"),
            (good_round(games=[table(player("a"), player("b"), bot(9))]), "unknown bot level"),
            (good_round(games=[table(player(""), player("b"), bot(GREEDY))]), "label"),
            (good_round(games=[]), "at least one game"),
            (good_round(request_id=""), "request_id is required"),
            (good_round(tournament="no spaces"), "tournament must be"),
            (good_round(tournament=""), "tournament must be"),
            (good_round(duplicate=True, options=game_pb2.GameOptions(
                legacy=legacy_pb2.LegacyOptions(players=3))), "duplicate play"),
        ]:
            await refused(stub.CreateRound(request), bad, malformed, says)
        over = await refused(
            stub.CreateRound(good_round(games=[table(player("a"), player("b"), bot(GREEDY))]
                                        * 5)),
            grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_ROUND_GAMES", "at most 4")
        assert dict(error_info(over).metadata)["limit"] == "4"

        for call in (stub.ListGames(service_pb2.ListGamesRequest(tournament="cup")),
                     stub.StreamResults(tournament_pb2.StreamResultsRequest(
                         tournament="cup")).read()):
            await refused(call, grpc.StatusCode.NOT_FOUND, "TOURNAMENT_NOT_FOUND", "cup")
        listed = await stub.ListGames(service_pb2.ListGamesRequest())
        assert not listed.games  # nothing was created by the refused calls

        await stub.CreateRound(good_round())
        await refused(stub.CreateRound(good_round(round=2)), bad, "REQUEST_ID_REUSED", "one")
        await refused(stub.ListGames(service_pb2.ListGamesRequest(round=1)), bad, malformed,
                      "name the tournament")
        listed = await stub.ListGames(service_pb2.ListGamesRequest(tournament="cup"))
        assert len(listed.games) == 1
        none_in_round_two = await stub.ListGames(service_pb2.ListGamesRequest(
            tournament="cup", round=2))
        assert not none_in_round_two.games
