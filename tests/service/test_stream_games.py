"""StreamGames (issue 37 item 1): a tournament's games in one stream across a SIGKILL and
restart of the service (resumed with the last resume token: every event of every game once,
in order, a round created meanwhile added live), and a list of games where one game runs
behind its spectator delay and one ends (removed after its last event), read by curl as SSE
whose ids are resume tokens."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import AsyncIterator

import grpc
import pytest
from google.protobuf import json_format

from risk_proto.risk.v1 import (
    broadcast_pb2,
    classic_pb2,
    game_pb2,
    players_pb2,
    service_pb2,
    service_pb2_grpc,
    tournament_pb2,
)
from risk_service.broadcast.games import decode_token
from risk_testing.harness import ServiceFactory, ServiceProcess
from tests.service.test_plain_streams import curl, sse_event
from tests.web.driver import move_by_grpc

Stub = service_pb2_grpc.RiskServiceStub
READ_S = 15.0
OPTIONS = game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
    players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True))


@pytest.fixture
def web(make_service: ServiceFactory, redis_client: object) -> ServiceProcess:
    return make_service(http=True)


async def _round(stub: Stub, number: int, tables: int) -> dict[str, dict[int, str]]:
    """Round `number` of tournament "cup": its games' seat tokens by game id."""
    created = await stub.CreateRound(tournament_pb2.CreateRoundRequest(
        request_id=f"r{number}", tournament="cup", round=number, options=OPTIONS,
        games=[tournament_pb2.RoundTable(seats=[
            tournament_pb2.RoundSeat(player=f"p{number}{t}a"),
            tournament_pb2.RoundSeat(player=f"p{number}{t}b")]) for t in range(tables)]))
    return {g.game_id: dict(enumerate(g.seat_tokens)) for g in created.games}


async def _last(stub: Stub, game_id: str, token: str | None = None) -> int:
    """The game's last seq (as a seat sees it: a spectator's GetGame withholds it under a
    spectator delay)."""
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    return (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                               metadata=metadata)).game.last_seq


class Reader:
    """What one client of StreamGames keeps across its connections: every event by game,
    the games announced and retired, and the last resume token."""

    def __init__(self) -> None:
        self.seqs: dict[str, list[int]] = defaultdict(list)
        self.added: list[tuple[str, int]] = []
        self.removed: list[tuple[str, str]] = []
        self.token = ""

    def take(self, reply: broadcast_pb2.StreamGamesResponse) -> None:
        kind = reply.WhichOneof("kind")
        if kind == "event":
            self.seqs[reply.event.game_id].append(reply.event.event.seq)
        elif kind == "added":
            self.added.append((reply.added.game_id, reply.added.round))
        elif kind == "removed":
            self.removed.append((reply.removed.game_id, reply.removed.reason))
        self.token = reply.resume_token

    async def until(self, stream: AsyncIterator[broadcast_pb2.StreamGamesResponse],
                    lasts: dict[str, int]) -> None:
        """Read until every game of `lasts` has reached its seq there."""
        deadline = time.monotonic() + READ_S
        while any(not self.seqs[g] or self.seqs[g][-1] < s for g, s in lasts.items()):
            assert time.monotonic() < deadline, f"stuck at {dict(self.seqs)} for {lasts}"
            self.take(await asyncio.wait_for(anext(stream), READ_S))


async def test_a_tournament_stream_resumes_across_a_restart_with_a_round_added_live(
        make_service: ServiceFactory, redis_client: object) -> None:
    """Round 1's two games followed as one stream; the service is killed and restarted; the
    stream resumed with its last token gets each game's events on from the next one, and the
    game of round 2, created after the restart, is added live: per game seqs 1..last, no
    gap, no repeat, each game announced with its round."""
    service = make_service()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        first = await _round(stub, 1, 2)
        for game_id, tokens in first.items():
            for _ in range(2):
                await move_by_grpc(stub, game_id, tokens)
        reader = Reader()
        call = stub.StreamGames(broadcast_pb2.StreamGamesRequest(tournament="cup"))
        await reader.until(aiter(call), {g: await _last(stub, g) for g in first})
        call.cancel()
        assert sorted(reader.added) == sorted((g, 1) for g in first)
    service.restart()  # SIGKILL, then a new process on the same ports
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        for game_id, tokens in first.items():
            await move_by_grpc(stub, game_id, tokens)
        call = stub.StreamGames(broadcast_pb2.StreamGamesRequest(
            tournament="cup", resume_token=reader.token))
        stream = aiter(call)
        await reader.until(stream, {g: await _last(stub, g) for g in first})
        second = await _round(stub, 2, 1)  # created while the stream runs
        (late,) = second
        await move_by_grpc(stub, late, second[late])
        for game_id, tokens in first.items():
            await move_by_grpc(stub, game_id, tokens)
        lasts = {g: await _last(stub, g) for g in [*first, late]}
        await reader.until(stream, lasts)
        call.cancel()
    assert (late, 2) in reader.added
    for game_id, last in lasts.items():
        assert reader.seqs[game_id] == list(range(1, last + 1)), game_id


async def test_a_list_keeps_each_games_delay_and_retires_an_ended_game_over_sse(
        web: ServiceProcess) -> None:
    """Two listed games over curl's SSE: the delayed one stops 3 events short of its last
    seq, the other is removed ("over") right after its resignation ends it; each event's id
    is a resume token naming every game's last seq sent, and resuming with it
    (Last-Event-ID) sends nothing twice."""
    async with grpc.aio.insecure_channel(web.target) as channel:
        stub = Stub(channel)
        games = {}
        for delay in (3, 0):
            created = await stub.CreateGame(service_pb2.CreateGameRequest(
                options=OPTIONS, issue_seat_tokens=True, spectator_delay_events=delay))
            games[created.game.game_id] = dict(enumerate(created.seat_tokens))
            await move_by_grpc(stub, created.game.game_id, games[created.game.game_id])
        delayed, plain = games
        query = "&".join(f"games.game_ids={g}" for g in games)
        url = f"{web.http_url}/v1/broadcasts/games?{query}"
        seen: dict[str, list[int]] = defaultdict(list)
        removed = []
        token = ""

        async def read_until(process: asyncio.subprocess.Process, done: object) -> None:
            nonlocal token
            while not done():  # type: ignore[operator]
                fields, _ = await sse_event(process)
                if "data" not in fields:
                    continue
                reply = json_format.Parse(fields["data"], broadcast_pb2.StreamGamesResponse())
                assert fields["id"] == reply.resume_token
                token = reply.resume_token
                if reply.WhichOneof("kind") == "event":
                    seen[reply.event.game_id].append(reply.event.event.seq)
                    assert decode_token(token)[reply.event.game_id] == reply.event.event.seq
                elif reply.WhichOneof("kind") == "removed":
                    removed.append((reply.removed.game_id, reply.removed.reason))

        delayed_last = await _last(stub, delayed, games[delayed][0])
        plain_before = await _last(stub, plain)
        async with curl("-H", "Accept: text/event-stream", url) as process:
            await read_until(process, lambda: seen[delayed] and seen[plain] and (
                seen[delayed][-1] == delayed_last - 3 and seen[plain][-1] == plain_before))
            await stub.Resign(service_pb2.ResignRequest(game_id=plain, seat=0), metadata=(
                ("authorization", f"Bearer {games[plain][0]}"),))
            await read_until(process, lambda: removed)
        plain_last = await _last(stub, plain)
        assert removed == [(plain, "over")]
        assert seen[plain] == list(range(1, plain_last + 1))
        assert seen[delayed] == list(range(1, delayed_last - 2))
        # resumed from the last id after a move: the delayed game goes on from the next
        # event its delay releases; the ended game is not announced again
        await move_by_grpc(stub, delayed, games[delayed])
        moved = await _last(stub, delayed, games[delayed][0])
        async with curl("-H", "Accept: text/event-stream", "-H", f"Last-Event-ID: {token}",
                        url) as process:
            await read_until(process, lambda: seen[delayed][-1] == moved - 3)
        assert seen[delayed] == list(range(1, moved - 2))
        assert seen[plain] == list(range(1, plain_last + 1))
        assert removed == [(plain, "over")]


async def test_a_players_games_with_one_seated_live(
        make_service: ServiceFactory, redis_client: object) -> None:
    """Following a player: their game in play is added at once; a game they are seated in
    after the stream opened joins it live, and its events follow."""
    service = make_service()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        player = (await stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest())).player_id

        async def seated() -> tuple[str, dict[int, str]]:
            created = await stub.CreateGame(service_pb2.CreateGameRequest(
                options=OPTIONS, issue_seat_tokens=True, seat_players=[player, ""]))
            return created.game.game_id, dict(enumerate(created.seat_tokens))

        first, _ = await seated()
        reader = Reader()
        call = stub.StreamGames(broadcast_pb2.StreamGamesRequest(player_id=player))
        stream = aiter(call)
        await reader.until(stream, {first: await _last(stub, first)})
        later, tokens = await seated()
        await move_by_grpc(stub, later, tokens)
        await reader.until(stream, {later: await _last(stub, later)})
        call.cancel()
        last = await _last(stub, later)
    assert [game_id for game_id, _ in reader.added] == [first, later]
    assert reader.seqs[later] == list(range(1, last + 1))
