"""The tournament calls on the HTTP port: CreateRound as a JSON POST and StreamResults as a
Connect stream, answering as gRPC does (docs/api.md, "HTTP: Connect, gRPC-Web, JSON")."""

from __future__ import annotations

import json

import grpc

from risk_proto.risk.v1 import tournament_pb2
from tests.service.test_http import (
    SERVICE,
    _connection,
    envelope,
    info_of,
    parse,
    post_json,
    read_envelope,
)
from tests.tournament.conftest import ServiceFactory
from tests.tournament.players import Stub


def test_create_round_over_json_and_its_feed_over_a_connect_stream(
        start_service: ServiceFactory) -> None:
    """A JSON CreateRound makes the round gRPC lists; a retry gets the same reply; the feed
    read as Connect's streaming JSON holds the same facts as over gRPC."""
    service = start_service(http=True)
    payload = {"requestId": "web", "tournament": "web-cup", "round": 1,
               "options": {"classic": {"players": 3, "setup": "CLASSIC_SETUP_MODE_RANDOM_DEAL",
                                       "autoPlace": True, "maxTurns": 4}},
               "games": [{"seats": [{"player": "ann"}, {"bot": "BOT_LEVEL_RANDOM"},
                                    {"bot": "BOT_LEVEL_PLANNER"}]}]}
    status, reply = post_json(service, "CreateRound", payload)
    assert status == 200, reply
    created = parse(tournament_pb2.CreateRoundResponse, reply)
    assert len(created.games) == 1 and created.games[0].seat_tokens[0]
    assert post_json(service, "CreateRound", payload) == (200, reply)

    with grpc.insecure_channel(service.target) as channel:
        over_grpc = Stub(channel).StreamResults(
            tournament_pb2.StreamResultsRequest(tournament="web-cup"))
        expected = [next(over_grpc).fact for _ in range(2)]
        over_grpc.cancel()
    conn = _connection(service)
    conn.request("POST", SERVICE + "StreamResults",
                 envelope(json.dumps({"tournament": "web-cup"}).encode()),
                 {"Content-Type": "application/connect+json"})
    answer = conn.getresponse()
    assert answer.status == 200
    facts = [parse(tournament_pb2.StreamResultsResponse, json.loads(read_envelope(answer)[1]))
             .fact for _ in range(2)]
    conn.close()
    assert facts == expected
    assert [f.WhichOneof("kind") for f in facts] == ["created", "started"]


def test_round_refusals_over_json_match_grpc(start_service: ServiceFactory) -> None:
    """Over JSON as over gRPC: another credential's CreateRound under someone's tournament is
    403 permission_denied / NOT_TOURNAMENT_OWNER without the tokens; too many tables of bots
    only 429 resource_exhausted / TOO_MANY_BOT_GAMES; a turn cap past the bound 400
    invalid_argument / MALFORMED_REQUEST."""
    service = start_service(http=True, RISK_MAX_ROUND_BOT_TABLES="1", RISK_MAX_TURNS="50")
    bots = {"seats": [{"bot": "BOT_LEVEL_RANDOM"}] * 3}
    payload = {"requestId": "mine", "tournament": "json-cup", "round": 1,
               "options": {"classic": {"players": 3, "maxTurns": 4}},
               "games": [{"seats": [{"player": "ann"}, {"bot": "BOT_LEVEL_RANDOM"},
                                    {"bot": "BOT_LEVEL_RANDOM"}]}]}
    status, reply = post_json(service, "CreateRound", payload, token="owner-secret")
    assert status == 200, reply
    for body, token, code, http_status, reason in [
        (payload, "someone-else", "permission_denied", 403, "NOT_TOURNAMENT_OWNER"),
        (payload, None, "permission_denied", 403, "NOT_TOURNAMENT_OWNER"),
        ({**payload, "requestId": "bots", "tournament": "b", "games": [bots, bots]}, None,
         "resource_exhausted", 429, "TOO_MANY_BOT_GAMES"),
        ({**payload, "requestId": "long", "tournament": "c",
          "options": {"classic": {"players": 3, "maxTurns": 51}}}, None,
         "invalid_argument", 400, "MALFORMED_REQUEST"),
    ]:
        status, error = post_json(service, "CreateRound", body, token=token)
        assert (status, error["code"]) == (http_status, code), error
        assert info_of(error).reason == reason
        assert reply["hostToken"] not in json.dumps(error)
