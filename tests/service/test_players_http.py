"""The player calls (docs/players.md) over the HTTP port of a real service process, as a web or
mobile backend makes them without a gRPC stack: Connect's JSON for IssuePlayerToken,
CreateInvitation, ListInvitations, AcceptInvitation, ListMyGames, StartVacation and
EndVacation, with a refusal's reason in the JSON error, and StreamPlayerEvents as a Connect
server stream (application/connect+json) on HTTP/1.1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from risk_proto.risk.v1 import player_games_pb2, players_pb2, service_pb2
from risk_testing.harness import ServiceFactory, ServiceProcess
from tests.service.test_http import (
    SERVICE,
    _connection,
    envelope,
    info_of,
    parse,
    post_json,
    read_envelope,
)

DAY_S = 86_400


@pytest.fixture
def web(make_service: ServiceFactory, redis_client: object) -> ServiceProcess:
    """A service serving the HTTP port, players allowed two days of vacation a year."""
    return make_service(http=True, RISK_VACATION_DAYS_PER_YEAR="2")


def call(service: ServiceProcess, method: str, payload: dict[str, Any], token: str,
         reply_type: Any) -> Any:
    """A Connect JSON call that must succeed; its reply as the contract's message."""
    status, body = post_json(service, method, payload, token)
    assert status == 200, (method, body)
    return parse(reply_type, body)


def player(service: ServiceProcess) -> players_pb2.IssuePlayerTokenResponse:
    """A new player the service issues a token to, over JSON."""
    status, body = post_json(service, "IssuePlayerToken", {})
    assert status == 200, body
    issued = parse(players_pb2.IssuePlayerTokenResponse, body)
    assert issued.player_id and issued.token.count(".") == 2
    return issued


def test_player_calls_over_connect_json_and_the_player_stream(web: ServiceProcess) -> None:
    """Three players made over JSON; the host invites bob, bob lists and accepts the
    invitation, carol joins, the game starts and is in everyone's ListMyGames; bob's vacation
    past his yearly allowance is refused with HTTP 400, failed_precondition and
    YEARLY_VACATION_EXHAUSTED in ErrorInfo, two days are granted and ended; bob's
    StreamPlayerEvents over Connect streaming brings his invitation, then the game's start."""
    alice, bob, carol = player(web), player(web), player(web)
    created = call(web, "CreateGame", {
        "options": {"classic": {"players": 3}}, "seed": "3",
        "seatPlayers": [alice.player_id],
        "clock": {"turnSeconds": DAY_S, "vacationDays": 5}},
        alice.token, service_pb2.CreateGameResponse)
    game_id = created.game.game_id
    assert created.game.status == service_pb2.GAME_STATUS_WAITING

    invited = call(web, "CreateInvitation", {"gameId": game_id, "seat": 1,
                                             "invitee": bob.player_id},
                   alice.token, player_games_pb2.Invitation)
    assert invited.invitee == bob.player_id and invited.host_player == alice.player_id
    pending = call(web, "ListInvitations", {}, bob.token,
                   player_games_pb2.ListInvitationsResponse)
    assert [i.invitation_id for i in pending.invitations] == [invited.invitation_id]
    accepted = call(web, "AcceptInvitation", {"gameId": game_id,
                                              "invitationId": invited.invitation_id},
                    bob.token, player_games_pb2.AcceptInvitationResponse)
    assert (accepted.seat, accepted.player_id) == (1, bob.player_id)
    joined = call(web, "JoinGame", {"gameId": game_id, "seat": 2}, carol.token,
                  service_pb2.JoinGameResponse)
    assert joined.player_id == carol.player_id

    for someone, seat in ((alice, 0), (bob, 1), (carol, 2)):
        mine = call(web, "ListMyGames", {}, someone.token, service_pb2.ListMyGamesResponse)
        assert [(g.game.game_id, g.seat) for g in mine.games] == [(game_id, seat)]
        assert mine.games[0].game.status == service_pb2.GAME_STATUS_ACTIVE

    status, refused = post_json(web, "StartVacation", {"gameId": game_id, "days": 3},
                                bob.token)
    assert status == 400 and refused["code"] == "failed_precondition", refused
    info = info_of(refused)
    assert (info.reason, info.domain) == ("YEARLY_VACATION_EXHAUSTED", "risk.v1")
    assert info.metadata["days_left"] == "2"
    away = call(web, "StartVacation", {"gameId": game_id, "days": 2}, bob.token,
                service_pb2.StartVacationResponse)
    assert away.game.vacation_left_ms[1] == 3 * DAY_S * 1000
    assert away.game.vacation_until_ms[1] > 0
    back = call(web, "EndVacation", {"gameId": game_id}, bob.token,
                service_pb2.EndVacationResponse)
    assert back.game.vacation_left_ms[1] > away.game.vacation_left_ms[1]

    conn = _connection(web)
    try:
        conn.request("POST", SERVICE + "StreamPlayerEvents", envelope(b"{}"),
                     {"Content-Type": "application/connect+json",
                      "Authorization": f"Bearer {bob.token}"})
        reply = conn.getresponse()
        assert reply.status == 200
        assert reply.getheader("Content-Type") == "application/connect+json"
        kinds = []
        while "started" not in kinds:  # bounded: the connection's 10 s timeout
            flags, data = read_envelope(reply)
            assert flags == 0, data  # an end-of-stream frame here is an error
            event = parse(player_games_pb2.StreamPlayerEventsResponse, json.loads(data)).event
            assert event.player_id == bob.player_id and event.game_id == game_id
            kinds.append(event.WhichOneof("kind"))
    finally:
        conn.close()
    assert kinds[0] == "invitation" and kinds.index("started") > 0, kinds
