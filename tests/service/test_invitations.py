"""Invitations (docs/players.md, "Invitations") through the real service on a real Redis: by
player id and by an open-seat link; acceptance takes the seat in one commit, bound to the
accepting player, and shows in the streams, the lists and the game's summary; two players
accepting one link at once: one wins; expiry (in accelerated time, in-process), decline and
revocation, each refusal with its reason."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import grpc
import pytest
import redis.asyncio as aioredis

from risk_proto.risk.v1 import player_games_pb2, players_pb2, service_pb2
from risk_service.errors import ServiceError
from risk_service.operations import GameService
from risk_service.operations.identity import Caller
from risk_service.store.game_store import GameStore
from risk_service.store.keys import Keys
from risk_testing.harness import ServiceFactory
from risk_testing.inprocess import in_process_hub
from risk_testing.rpc import bearer, classic_options, error_info, rpc_error
from tests.service.test_my_games import Stub, new_player, player_game, player_stream

PENDING = player_games_pb2.INVITATION_STATE_PENDING


async def invite(stub: Stub, host: str, game_id: str, seat: int, invitee: str = "",
                 **fields: object) -> player_games_pb2.Invitation:
    return await stub.CreateInvitation(player_games_pb2.CreateInvitationRequest(
        game_id=game_id, seat=seat, invitee=invitee, link=not invitee, **fields),
        metadata=bearer(host))


async def pending(stub: Stub, token: str) -> list[player_games_pb2.Invitation]:
    return list((await stub.ListInvitations(player_games_pb2.ListInvitationsRequest(),
                                            metadata=bearer(token))).invitations)


async def test_an_invitation_by_id_is_accepted_into_its_seat(
        make_service: ServiceFactory, redis_client: object) -> None:
    """The host invites a player to a seat: it is in the invitee's stream and pending list;
    another player may not take it; the invitee accepts and holds the seat (bound to them in
    the summary, the game in their list); the host's stream hears of it; a second accept is
    INVITATION_CLOSED."""
    service = make_service()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        (ann, ann_t), (bob, bob_t), (_cy, cy_t) = [await new_player(stub) for _ in range(3)]
        game = (await player_game(stub, ann_t, [ann, "", ""])).game.game_id
        async with player_stream(service.target, bob_t) as bobs, \
                player_stream(service.target, ann_t) as anns:
            made = await invite(stub, ann_t, game, 1, bob)
            assert made.state == PENDING and made.code == "" and made.host_player == ann
            told = (await bobs.wait_for(1))[0]
            assert told.invitation.invitation_id == made.invitation_id
            assert told.invitation.seat == 1 and told.invitation.state == PENDING
            assert [i.invitation_id for i in await pending(stub, bob_t)] == [made.invitation_id]
            request = player_games_pb2.AcceptInvitationRequest(
                game_id=game, invitation_id=made.invitation_id, display_name="bob")
            other = await rpc_error(stub.AcceptInvitation(request, metadata=bearer(cy_t)))
            assert other.code() == grpc.StatusCode.PERMISSION_DENIED
            assert error_info(other).reason == "NOT_INVITED"
            accepted = await stub.AcceptInvitation(request, metadata=bearer(bob_t))
            assert (accepted.seat, accepted.player_id) == (1, bob) and accepted.seat_token
            await anns.until(lambda: any(e.WhichOneof("kind") == "invitation"
                                         for e in anns.events), "the host told")
            answer = next(e for e in anns.events if e.WhichOneof("kind") == "invitation")
            assert answer.invitation.state == player_games_pb2.INVITATION_STATE_ACCEPTED
            assert answer.invitation.accepted_by == bob
        summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game))).game
        assert [(s.player_id, s.display_name, s.taken) for s in summary.seats] == [
            (ann, "", True), (bob, "bob", True), ("", "", False)]
        assert await pending(stub, bob_t) == []
        mine = await stub.ListMyGames(service_pb2.ListMyGamesRequest(), metadata=bearer(bob_t))
        assert [(g.game.game_id, g.seat) for g in mine.games] == [(game, 1)]
        again = await rpc_error(stub.AcceptInvitation(request, metadata=bearer(bob_t)))
        assert error_info(again).reason == "INVITATION_CLOSED"
        assert error_info(again).metadata["state"] == "accepted"
        listed = await stub.ListInvitations(player_games_pb2.ListInvitationsRequest(
            game_id=game), metadata=bearer(ann_t))
        assert [(i.invitation_id, i.state, i.accepted_by) for i in listed.invitations] == [
            (made.invitation_id, player_games_pb2.INVITATION_STATE_ACCEPTED, bob)]


async def test_two_players_accepting_one_link_at_once_one_wins(
        make_service: ServiceFactory, redis_client: object) -> None:
    """An open-seat link accepted by two players at the same moment, over and over: exactly
    one takes the seat each time, the other is told the seat is taken (or the link used);
    a made-up code is INVITATION_NOT_FOUND, and a link cannot be taken by id alone."""
    service = make_service()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        (ann, ann_t), (bob, bob_t), (cy, cy_t) = [await new_player(stub) for _ in range(3)]
        for round_ in range(6):
            game = (await player_game(stub, ann_t, [ann, "", ""], seed=round_)).game.game_id
            link = await invite(stub, ann_t, game, 2)
            assert link.code.startswith(f"{game}-{link.invitation_id}-") and not link.invitee
            results = await asyncio.gather(*(
                stub.AcceptInvitation(player_games_pb2.AcceptInvitationRequest(code=link.code),
                                      metadata=bearer(token)) for token in (bob_t, cy_t)),
                return_exceptions=True)
            won = [r for r in results if isinstance(r, player_games_pb2.AcceptInvitationResponse)]
            lost = [r for r in results if isinstance(r, grpc.aio.AioRpcError)]
            assert len(won) == 1 and len(lost) == 1, results
            assert lost[0].code() == grpc.StatusCode.FAILED_PRECONDITION
            assert error_info(lost[0]).reason in ("SEAT_TAKEN", "INVITATION_CLOSED")
            seats = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game))).game.seats
            assert seats[2].player_id == won[0].player_id and won[0].player_id in (bob, cy)
        wrong = await rpc_error(stub.AcceptInvitation(player_games_pb2.AcceptInvitationRequest(
            code=link.code[:-4] + "0000"), metadata=bearer(bob_t)))
        assert error_info(wrong).reason == "INVITATION_NOT_FOUND"
        by_id = await rpc_error(stub.AcceptInvitation(player_games_pb2.AcceptInvitationRequest(
            game_id=game, invitation_id=link.invitation_id), metadata=bearer(bob_t)))
        assert by_id.code() == grpc.StatusCode.NOT_FOUND


async def test_decline_revoke_and_the_hosts_refusals(
        make_service: ServiceFactory, redis_client: object) -> None:
    """The invitee declines (the host hears of it), the host revokes another (the invitee
    hears of it, and it leaves their list); neither can be accepted then; only the host
    invites, to a free seat of a waiting game, for a time within bounds."""
    service = make_service()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        (ann, ann_t), (bob, bob_t), (cy, cy_t) = [await new_player(stub) for _ in range(3)]
        game = (await player_game(stub, ann_t, [ann, "", ""])).game.game_id
        to_bob = await invite(stub, ann_t, game, 1, bob)
        to_cy = await invite(stub, ann_t, game, 2, cy)
        ref = player_games_pb2.InvitationRequest(game_id=game,
                                                 invitation_id=to_bob.invitation_id)
        declined = await stub.DeclineInvitation(ref, metadata=bearer(bob_t))
        assert declined.state == player_games_pb2.INVITATION_STATE_DECLINED
        revoke = player_games_pb2.InvitationRequest(game_id=game,
                                                    invitation_id=to_cy.invitation_id)
        not_host = await rpc_error(stub.RevokeInvitation(revoke, metadata=bearer(cy_t)))
        assert error_info(not_host).reason == "NOT_HOST"
        async with player_stream(service.target, cy_t) as cys:
            revoked = await stub.RevokeInvitation(revoke, metadata=bearer(ann_t))
            assert revoked.state == player_games_pb2.INVITATION_STATE_REVOKED
            await cys.until(lambda: any(e.invitation.state == revoked.state
                                        for e in cys.events), "the invitee told")
        assert await pending(stub, cy_t) == [] and await pending(stub, bob_t) == []
        for token, invitation in ((bob_t, to_bob), (cy_t, to_cy)):
            closed = await rpc_error(stub.AcceptInvitation(
                player_games_pb2.AcceptInvitationRequest(
                    game_id=game, invitation_id=invitation.invitation_id),
                metadata=bearer(token)))
            assert error_info(closed).reason == "INVITATION_CLOSED"
        twice = await rpc_error(stub.DeclineInvitation(ref, metadata=bearer(bob_t)))
        assert error_info(twice).reason == "INVITATION_CLOSED"
        assert error_info(await rpc_error(invite(stub, bob_t, game, 1, cy))).reason == (
            "NOT_HOST")
        taken = await rpc_error(invite(stub, ann_t, game, 0, bob))
        assert error_info(taken).reason == "SEAT_TAKEN"
        seated = await rpc_error(invite(stub, ann_t, game, 1, ann))
        assert error_info(seated).reason == "PLAYER_ALREADY_SEATED"
        too_long = await rpc_error(invite(stub, ann_t, game, 1, bob,
                                          expires_in_seconds=365 * 86_400))
        assert too_long.code() == grpc.StatusCode.INVALID_ARGUMENT
        started = (await player_game(stub, ann_t, [ann, bob, cy])).game.game_id
        late = await rpc_error(invite(stub, ann_t, started, 1, bob))
        assert error_info(late).reason == "GAME_ALREADY_STARTED"


class Clock:
    """The service's time, moved on by the test (from now: player tokens are checked
    against the wall clock)."""

    def __init__(self) -> None:
        self.now = time.time_ns() // 1_000_000

    def __call__(self) -> int:
        return self.now


@pytest.fixture
async def in_process(redis_url: str, redis_client: aioredis.Redis
                     ) -> AsyncIterator[tuple[GameService, Clock]]:
    """The service's operations in this process on the real Redis, on a clock the test
    moves (an invitation's shortest life is a minute)."""
    clock = Clock()
    client = aioredis.from_url(redis_url)
    keys = Keys()
    games = GameService(GameStore(client, keys), in_process_hub(client, keys, redis_url),
                        clock_ms=clock)
    yield games, clock
    await client.aclose()


async def _player(games: GameService) -> Caller:
    """A new player's caller, its token verified as a transport's route would."""
    issued = await games.players.issue(players_pb2.IssuePlayerTokenRequest(), Caller())
    caller = Caller.of(issued.token)
    await games.players.authenticate(caller)
    return caller


async def test_an_invitation_expires(in_process: tuple[GameService, Clock]) -> None:
    """An invitation accepted after its time is INVITATION_EXPIRED and leaves the invitee's
    pending list; one accepted in time takes its seat."""
    games, clock = in_process
    host, bob = await _player(games), await _player(games)
    assert host.player is not None and bob.player is not None
    created = await games.commands.create(service_pb2.CreateGameRequest(
        options=classic_options(players=3), seat_players=[host.player]), host)
    game = created.game.game_id
    made = await games.invitations.create(player_games_pb2.CreateInvitationRequest(
        game_id=game, seat=1, invitee=bob.player, expires_in_seconds=120), host)
    listed = await games.invitations.list(player_games_pb2.ListInvitationsRequest(), bob)
    assert [i.invitation_id for i in listed.invitations] == [made.invitation_id]
    clock.now += 121_000
    accept = player_games_pb2.AcceptInvitationRequest(game_id=game,
                                                      invitation_id=made.invitation_id)
    with pytest.raises(ServiceError) as late:
        await games.invitations.accept(accept, bob)
    assert late.value.reason == "INVITATION_EXPIRED"
    listed = await games.invitations.list(player_games_pb2.ListInvitationsRequest(), bob)
    assert list(listed.invitations) == []
    again = await games.invitations.create(player_games_pb2.CreateInvitationRequest(
        game_id=game, seat=1, invitee=bob.player, expires_in_seconds=120), host)
    clock.now += 119_000
    taken = await games.invitations.accept(player_games_pb2.AcceptInvitationRequest(
        game_id=game, invitation_id=again.invitation_id), bob)
    assert taken.seat == 1 and taken.player_id == bob.player
