"""A player's games and stream (docs/players.md, "My games", "The player's stream") through
the real service on a real Redis: ListMyGames across several games with whose turn it is and
the deadlines, newest activity first and paged; the player's stream of turns, starts, ends
and invitations, resumed across a kill -9 of the service with no gap and no repeat; the
index rebuilt from the games; refusals for callers that are not players.

The tests share one service (`shared`), each with players and games of its own; the one that
kills the service starts its own."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc
import redis.asyncio

from risk_proto.risk.v1 import (
    lifecycle_pb2,
    player_games_pb2,
    players_pb2,
    service_pb2,
    service_pb2_grpc,
)
from risk_service.operations.limits import Limits
from risk_service.operations.my_games import MyGames
from risk_service.store.game_store import GameStore
from risk_service.store.keys import Keys
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import bearer, classic_options, error_info, rpc_error
from tests.serving import module_service

Stub = service_pb2_grpc.RiskServiceStub
HOUR = 3600
PREFIX = "service-my-games"
shared = module_service(PREFIX)


async def new_player(stub: Stub) -> tuple[str, str]:
    """A player the service makes: (player id, token)."""
    issued = await stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest())
    return issued.player_id, issued.token


async def player_game(stub: Stub, host: str, seat_players: list[str], *, players: int = 3,
                      seed: int = 5, **fields: Any) -> service_pb2.CreateGameResponse:
    """A classic game the player holding `host` creates, its seats bound to `seat_players`
    ("" a free seat), with hour-long decisions (so each decision has a deadline)."""
    return await stub.CreateGame(service_pb2.CreateGameRequest(
        options=classic_options(players=players, auto_defend_max_dice=True), seed=seed,
        seat_players=seat_players,
        clock=lifecycle_pb2.ClockOptions(decision_seconds=HOUR), **fields),
        metadata=bearer(host))


async def move(stub: Stub, game_id: str, token: str) -> int:
    """One legal action of the token's seat; the version it made."""
    auth = bearer(token)
    legal = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(game_id=game_id),
                                        metadata=auth)
    assert legal.actions, "the token's seat has no decision now"
    done = await stub.SubmitAction(service_pb2.SubmitActionRequest(
        game_id=game_id, action=legal.actions[0].action, expected_version=legal.version),
        metadata=auth)
    return int(done.version)


async def turn_of(stub: Stub, game_id: str) -> int:
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    return int(game.decision.seats[0]) if game.decision.seats else -1


async def my_games(stub: Stub, token: str, **fields: Any) -> list[service_pb2.MyGame]:
    """Every game of the player, page by page (page_size 1: the paging is exercised)."""
    games: list[service_pb2.MyGame] = []
    page_token = ""
    while True:
        page = await stub.ListMyGames(service_pb2.ListMyGamesRequest(
            page_size=1, page_token=page_token, **fields), metadata=bearer(token))
        games.extend(page.games)
        page_token = page.next_page_token
        if not page_token:
            return games


class PlayerStream:
    """A player's StreamPlayerEvents, read in the background into `events`."""

    def __init__(self, target: str, token: str, after_seq: int = 0) -> None:
        self.events: list[player_games_pb2.PlayerEvent] = []
        self.channel = grpc.aio.insecure_channel(target)
        self.call = Stub(self.channel).StreamPlayerEvents(
            player_games_pb2.StreamPlayerEventsRequest(after_seq=after_seq),
            metadata=bearer(token))
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(grpc.aio.AioRpcError):
            async for reply in self.call:
                self.events.append(reply.event)

    async def wait_for(self, count: int, timeout: float = 20.0) -> list[Any]:
        """The first `count` events, once they are in (bounded)."""
        await self.until(lambda: len(self.events) >= count, f"{count} events", timeout)
        return self.events[:count]

    async def until(self, check: Callable[[], bool], what: str, timeout: float = 20.0
                    ) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while not check():
            assert asyncio.get_running_loop().time() < deadline, (
                f"not within {timeout} s: {what}; got {self.events}")
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        self.call.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        await self.channel.close()


@contextlib.asynccontextmanager
async def player_stream(target: str, token: str, after_seq: int = 0
                        ) -> AsyncIterator[PlayerStream]:
    stream = PlayerStream(target, token, after_seq)
    try:
        yield stream
    finally:
        await stream.close()


async def test_my_games_show_whose_turn_and_deadlines_across_games(
        shared: ServiceProcess) -> None:
    """A player in three games (one waiting, one at their turn, one at another's, one
    finished) lists them newest activity first, page by page, with whose turn it is, its
    deadline and each seat's player; the status filter and another player's list agree."""
    service = shared
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        (ann, ann_t), (bob, bob_t), (cy, cy_t) = [await new_player(stub) for _ in range(3)]
        waiting = await player_game(stub, ann_t, [ann, ""])
        active = await player_game(stub, bob_t, [ann, bob, cy])
        ended = await player_game(stub, cy_t, [cy, ann, bob], seed=9)
        tokens = {ann: ann_t, bob: bob_t, cy: cy_t}
        seats = [ann, bob, cy]
        await move(stub, active.game.game_id, tokens[seats[await turn_of(
            stub, active.game.game_id)]])
        for token in (ann_t, bob_t):  # two resign: cy wins
            await stub.Resign(service_pb2.ResignRequest(game_id=ended.game.game_id),
                              metadata=bearer(token))
        listed = await my_games(stub, ann_t)
        assert [g.game.game_id for g in listed] == [
            ended.game.game_id, active.game.game_id, waiting.game.game_id]
        assert [g.last_activity_ms for g in listed] == sorted(
            (g.last_activity_ms for g in listed), reverse=True)
        by_id = {g.game.game_id: g for g in listed}
        now_turn = await turn_of(stub, active.game.game_id)
        playing = by_id[active.game.game_id]
        assert playing.game.status == service_pb2.GAME_STATUS_ACTIVE
        assert playing.seat == 0 and list(playing.game.decision.seats) == [now_turn]
        assert playing.your_turn == (now_turn == 0)
        assert playing.game.deadline_ms > playing.last_activity_ms
        assert [s.player_id for s in playing.game.seats] == [ann, bob, cy]
        assert by_id[waiting.game.game_id].game.status == service_pb2.GAME_STATUS_WAITING
        assert [s.player_id for s in by_id[waiting.game.game_id].game.seats] == [ann, "", ""]
        done = by_id[ended.game.game_id]
        assert done.game.status == service_pb2.GAME_STATUS_FINISHED
        assert done.seat == 1 and done.game.outcome.winner == 0 and not done.your_turn
        only_active = await my_games(stub, ann_t, status=service_pb2.GAME_STATUS_ACTIVE)
        assert [g.game.game_id for g in only_active] == [active.game.game_id]
        bobs = await my_games(stub, bob_t)
        assert [g.game.game_id for g in bobs] == [ended.game.game_id, active.game.game_id]
        assert [g.your_turn for g in bobs] == [False, now_turn == 1]


async def test_my_games_refuse_callers_that_are_not_players(shared: ServiceProcess) -> None:
    """ListMyGames and StreamPlayerEvents without a credential are UNAUTHENTICATED /
    MISSING_CREDENTIALS, with a seat token PERMISSION_DENIED / NOT_A_PLAYER; a bad page
    token is INVALID_ARGUMENT."""
    service = shared
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        _ann, ann_t = await new_player(stub)
        created = await stub.CreateGame(service_pb2.CreateGameRequest(
            options=classic_options(players=3), issue_seat_tokens=True))
        none = await rpc_error(stub.ListMyGames(service_pb2.ListMyGamesRequest()))
        assert none.code() == grpc.StatusCode.UNAUTHENTICATED
        assert error_info(none).reason == "MISSING_CREDENTIALS"
        seat = await rpc_error(stub.ListMyGames(service_pb2.ListMyGamesRequest(),
                                                metadata=bearer(created.seat_tokens[0])))
        assert seat.code() == grpc.StatusCode.PERMISSION_DENIED
        assert error_info(seat).reason == "NOT_A_PLAYER"
        stream = stub.StreamPlayerEvents(player_games_pb2.StreamPlayerEventsRequest(),
                                         metadata=bearer(created.seat_tokens[0]))
        refused = await rpc_error(stream.read())
        assert error_info(refused).reason == "NOT_A_PLAYER"
        bad = await rpc_error(stub.ListMyGames(
            service_pb2.ListMyGamesRequest(page_token="x"), metadata=bearer(ann_t)))
        assert bad.code() == grpc.StatusCode.INVALID_ARGUMENT


async def test_player_stream_resumes_after_a_kill_with_no_gap_and_no_repeat(
        make_service: ServiceFactory) -> None:
    """A player's stream shows the game starting, each of their turns (with its deadline),
    an invitation and the game's end; cut by a kill -9 of the service and resumed after the
    last seq it got, it goes on with the next seq: nothing missed, nothing twice."""
    service = make_service(RISK_KEY_PREFIX="service-my-games-kill")  # one it kills
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        (ann, ann_t), (bob, bob_t), (cy, cy_t) = [await new_player(stub) for _ in range(3)]
        tokens = {ann: ann_t, bob: bob_t, cy: cy_t}
        game = (await player_game(stub, ann_t, [ann, bob, cy])).game.game_id
        async with player_stream(service.target, ann_t) as stream:
            first = await stream.wait_for(1)
            assert first[0].WhichOneof("kind") == "started" and first[0].game_id == game
            seats = [ann, bob, cy]
            # play until ann's turn has come twice after the start
            while sum(e.WhichOneof("kind") == "turn" for e in stream.events) < 3:
                await move(stub, game, tokens[seats[await turn_of(stub, game)]])
                await asyncio.sleep(0.01)
            seen = list(stream.events)
    service.kill()
    # while the service is down, nothing is lost: the facts are written by the next commits
    service.start()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        other = await player_game(stub, cy_t, [cy, "", ""], seed=11)
        await stub.CreateInvitation(player_games_pb2.CreateInvitationRequest(
            game_id=other.game.game_id, seat=1, invitee=ann), metadata=bearer(cy_t))
        for token in (bob_t, cy_t):
            await stub.Resign(service_pb2.ResignRequest(game_id=game), metadata=bearer(token))
        async with player_stream(service.target, ann_t, after_seq=seen[-1].seq) as resumed:
            await resumed.until(lambda: any(e.WhichOneof("kind") == "finished"
                                            for e in resumed.events), "the game's end")
            rest = list(resumed.events)
    kinds = [e.WhichOneof("kind") for e in rest]
    # (a resignation may pass the turn to ann before the game ends)
    assert kinds[0] == "invitation" and kinds[-1] == "finished", kinds
    assert set(kinds[1:-1]) <= {"turn"}, kinds
    later = [rest[0], rest[-1]]
    whole = [*seen, *rest]
    assert [e.seq for e in whole] == list(range(1, len(whole) + 1))
    assert all(e.player_id == ann for e in whole)
    turns = [e for e in seen if e.WhichOneof("kind") == "turn"]
    assert all(e.seat == 0 and e.turn.deadline_ms > e.at_ms for e in turns)
    assert later[0].invitation.invitee == ann and later[0].invitation.seat == 1
    assert later[1].finished.winner == 0 and later[1].game_id == game


async def test_my_games_index_rebuilds_from_the_games(
        shared: ServiceProcess, redis_url: str) -> None:
    """The per-player index, deleted, is rebuilt from the games themselves: the same games,
    in the same order."""
    service = shared
    redis_client = redis.asyncio.Redis.from_url(redis_url)  # not flushed: `shared` uses it
    async with redis_client, grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        (ann, ann_t), (bob, _bob_t) = [await new_player(stub) for _ in range(2)]
        for seed in (1, 2):
            await player_game(stub, ann_t, [ann, bob, ""], seed=seed)
        before = [g.game.game_id for g in await my_games(stub, ann_t)]
        store = GameStore(redis_client, Keys(prefix=PREFIX))
        key = store.keys.player(ann, "games")
        await redis_client.delete(key)
        assert await my_games(stub, ann_t) == []
        assert await MyGames(store, Limits(), lambda: 0).rebuild(ann) == 2
        assert [g.game.game_id for g in await my_games(stub, ann_t)] == before

