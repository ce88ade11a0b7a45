"""The tournament calls on the HTTP port: CreateRound as a JSON POST and StreamResults as a
Connect stream, answering as gRPC does (docs/api.md, "HTTP: Connect, gRPC-Web, JSON")."""

from __future__ import annotations

import json

import grpc

from risk_proto.risk.v1 import tournament_pb2
from tests.service.test_http import SERVICE, _connection, envelope, parse, post_json, read_envelope
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
