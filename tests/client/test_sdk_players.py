"""The SDK's player calls against the real service on a real Redis: player tokens, "my games",
the player's stream across games (resumed after a seq), invitations by id and by link, and
vacation in a correspondence game.

The service runs as `python -m risk_service` (risk_testing.harness), one per module
(tests/client/serving.py), its keys under a prefix of this module's.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from risk_client import IllegalMove, PermissionDenied, RiskClient
from risk_client.options import classic_options
from risk_proto.risk.v1 import lifecycle_pb2, player_games_pb2, service_pb2
from risk_testing.harness import ServiceProcess
from tests.client.serving import module_service

service = module_service("sdk-players")
DAY_MS = 86_400_000


@pytest.fixture
async def client(service: ServiceProcess) -> AsyncIterator[RiskClient]:
    async with RiskClient(service.target) as c:
        yield c


async def player(client: RiskClient) -> tuple[str, RiskClient]:
    issued = await client.issue_player_token()
    return issued.player_id, client.with_token(issued.token)


async def test_my_games_say_whose_turn_and_vacation_stops_the_clock(client: RiskClient) -> None:
    """A correspondence game bound to two players is on both their lists, `your_turn` for the
    one whose turn it is, with the turn's deadline; that player's vacation moves it on by the
    days taken and their return gives back what was not taken; a seat token is not a player."""
    ada_id, ada = await player(client)
    bob_id, bob = await player(client)
    clock = lifecycle_pb2.ClockOptions(turn_seconds=2 * 86_400, vacation_days=3)
    game, host_token = await ada.create_game(classic_options(players=2), clock=clock,
                                             seat_players=[ada_id, bob_id])
    listed = {name: [mine async for mine in who.iter_my_games()]
              for name, who in (("ada", ada), ("bob", bob))}
    assert [m.game.game_id for m in listed["ada"]] == [game.game_id]
    assert [m.game.game_id for m in listed["bob"]] == [game.game_id]
    turn_seat = listed["ada"][0].game.decision.seats[0]
    assert listed["ada"][0].your_turn == (turn_seat == 0)
    assert listed["bob"][0].your_turn == (turn_seat == 1)
    assert [m.seat for m in listed["ada"] + listed["bob"]] == [0, 1]
    deadline = listed["ada"][0].game.deadline_ms
    assert deadline > 0

    mover = ada if turn_seat == 0 else bob
    away = await mover.start_vacation(game.game_id, 2)
    assert away.vacation_left_ms[turn_seat] == 1 * DAY_MS
    assert away.deadline_ms >= deadline + 2 * DAY_MS - 60_000
    with pytest.raises(IllegalMove) as again:
        await mover.start_vacation(game.game_id, 1)
    assert again.value.reason == "ALREADY_ON_VACATION"
    back = await mover.end_vacation(game.game_id)
    assert back.vacation_left_ms[turn_seat] > 2 * DAY_MS
    with pytest.raises(PermissionDenied) as refused:
        await client.with_token(host_token).list_my_games()
    assert refused.value.reason == "NOT_A_PLAYER"


async def test_invitations_and_the_players_stream(client: RiskClient) -> None:
    """An invitation by id and one by link seat their players; the invitee's stream tells of
    the invitation and the game starting, and a stream resumed after a seq repeats nothing and
    misses nothing."""
    host_id, host = await player(client)
    bob_id, bob = await player(client)
    _cy_id, cy = await player(client)
    game, _ = await host.create_game(classic_options(players=3))
    await host.join_game(game.game_id, 0, "host")
    invitation = await host.create_invitation(game.game_id, 1, bob_id)
    assert invitation.host_player == host_id
    assert invitation.state == player_games_pb2.INVITATION_STATE_PENDING
    assert [i.invitation_id for i in await bob.list_invitations()] == [invitation.invitation_id]
    taken = await bob.accept_invitation(game_id=game.game_id,
                                        invitation_id=invitation.invitation_id,
                                        display_name="bob")
    assert (taken.seat, taken.player_id) == (1, bob_id)
    link = await host.create_invitation(game.game_id, 2, link=True)
    assert link.code
    await cy.accept_invitation(code=link.code)  # the last seat: the game starts

    heard: list[player_games_pb2.PlayerEvent] = []

    async def listen(after: int, until: int) -> None:
        async for event in bob.stream_player_events(after):
            heard.append(event)
            if len(heard) >= until:
                return

    await asyncio.wait_for(listen(0, 2), 20)
    kinds = [event.WhichOneof("kind") for event in heard]
    assert kinds[:2] == ["invitation", "started"], kinds
    assert all(event.game_id == game.game_id for event in heard)
    first = heard[0].seq
    heard.clear()
    await asyncio.wait_for(listen(first, 1), 20)
    assert heard[0].seq == first + 1 and heard[0].WhichOneof("kind") == "started"
    mine = [m async for m in bob.iter_my_games(service_pb2.GAME_STATUS_ACTIVE)]
    assert [(m.game.game_id, m.seat) for m in mine] == [(game.game_id, 1)]
