"""The SDK over the HTTP port's WebSocket (`RiskClient(..., websocket=http_url)`) against the
real service: a whole game played through WebSocket sessions, refusals raising the same
exceptions as the gRPC session, and an event stream that rides out a service restart."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from risk_client import (
    IllegalMove,
    InvalidArgument,
    NotFound,
    RiskClient,
    StaleVersion,
    Unauthenticated,
    actions,
)
from risk_client.errors import RiskError
from risk_client.session import GameSession
from risk_proto.risk.v1 import game_pb2
from risk_testing.harness import ServiceProcess
from tests.client.test_sdk_session import (
    TIMEOUT_S,
    _play,
    _seated_game,
    play_through_sessions,
)


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    process = ServiceProcess(redis_url, tmp_path_factory.mktemp("sdk-websocket"), http=True,
                             RISK_KEY_PREFIX="sdk-websocket")
    process.start()
    yield process
    process.stop()


@pytest.fixture
async def client(service: ServiceProcess) -> AsyncIterator[RiskClient]:
    async with RiskClient(service.target, websocket=service.http_url) as c:
        yield c


def _socket_calls(service: ServiceProcess, method: str) -> list[dict[str, Any]]:
    """The service's log lines of WebSocket calls of `method` (the line each call ends with)."""
    lines = []
    for text in service.logs().splitlines():
        try:
            line = json.loads(text)
        except ValueError:
            continue
        if line.get("protocol") == "websocket" and line.get("method") == \
                f"/risk.v1.RiskService/{method}":
            lines.append(line)
    return lines


async def _logged(service: ServiceProcess, method: str, count: int) -> list[dict[str, Any]]:
    """Wait (bounded) until the service logged `count` WebSocket calls of `method`."""
    async with asyncio.timeout(10):
        while len(found := _socket_calls(service, method)) < count:
            await asyncio.sleep(0.05)
    return found


async def test_a_whole_game_through_websocket_sessions_sees_every_event_once(
        client: RiskClient, service: ServiceProcess) -> None:
    """Three seats play to the end through `client.session` over WebSockets; each seat's
    events (iterated, and in its own replies) are every seq once, and the service logged
    the three Session calls as WebSocket ones."""
    before = len(_socket_calls(service, "Session"))
    game_id = await play_through_sessions(client)
    ended = (await _logged(service, "Session", before + 3))[before:]
    assert [line["game_id"] for line in ended] == [game_id] * 3


async def _refusal(session: GameSession, action: game_pb2.Action, version: int,
                   request_id: str | None = None) -> RiskError:
    with pytest.raises(RiskError) as raised:
        await session.submit(action, version, request_id)
    return raised.value


def _same(over_socket: RiskError, over_grpc: RiskError) -> None:
    assert type(over_socket) is type(over_grpc)
    assert (over_socket.code, over_socket.reason, over_socket.message, over_socket.metadata) \
        == (over_grpc.code, over_grpc.reason, over_grpc.message, over_grpc.metadata)


async def test_websocket_session_refusals_raise_the_grpc_sessions_exceptions(
        client: RiskClient, service: ServiceProcess) -> None:
    """On a WebSocket session, another seat's move, a stale version and a reused request id
    raise the exception the gRPC session raises (same class, reason, message, metadata), a
    repeated request id returns the first reply, and the session goes on after each; an
    session on an unknown game ends NotFound and one with a wrong token Unauthenticated, as
    over gRPC."""
    game_id, tokens = await _seated_game(client)
    game = (await client.get_game(game_id)).game
    mover = game.decision.seats[0]
    me, other = client.with_token(tokens[mover]), client.with_token(tokens[(mover + 1) % 3])
    grpc_other = RiskClient(service.target, tokens[(mover + 1) % 3])
    grpc_me = RiskClient(service.target, tokens[mover])
    action = (await me.legal_actions(game_id)).actions[0].action
    async with me.session(game_id) as mine, other.session(game_id) as theirs, \
            grpc_me, grpc_other, grpc_me.session(game_id) as mine_grpc, \
            grpc_other.session(game_id) as theirs_grpc:
        turn = await _refusal(theirs, action, game.version)
        assert isinstance(turn, IllegalMove) and turn.reason == "NOT_YOUR_TURN"
        _same(turn, await _refusal(theirs_grpc, action, game.version))
        first = await mine.submit(action, game.version, "once")
        assert await mine.submit(action, game.version, "once") == first
        stale = await _refusal(mine, action, game.version)
        assert isinstance(stale, StaleVersion) and stale.current_version == first.version
        _same(stale, await _refusal(mine_grpc, action, game.version))
        reused = await _refusal(mine, actions.end_turn(), first.version, "once")
        assert isinstance(reused, InvalidArgument) and reused.reason == "REQUEST_ID_REUSED"
        _same(reused, await _refusal(mine_grpc, actions.end_turn(), first.version, "once"))
        assert (await client.get_game(game_id)).game.version == first.version

    refused: list[tuple[str, str | None, type[RiskError], str]] = [
        ("0123456789abcdef", tokens[0], NotFound, "GAME_NOT_FOUND"),
        (game_id, "not-a-token", Unauthenticated, "BAD_CREDENTIALS")]
    async with RiskClient(service.target) as over_grpc:
        for refused_game, token, expected, reason in refused:
            errors = []
            for over in (client, over_grpc):
                async with over.with_token(token).session(refused_game) as session:
                    with pytest.raises(RiskError) as raised:
                        async for _event in session:
                            pass
                    errors.append(raised.value)
            assert isinstance(errors[0], expected) and errors[0].reason == reason, errors[0]
            _same(errors[0], errors[1])


async def test_a_websocket_event_stream_resumes_across_a_restart(
        redis_url: str, tmp_path: Path) -> None:
    """`stream_events` over a WebSocket, through a SIGKILL and restart of the service:
    every seq once, in order, before and after, and the stream follows live afterwards."""
    service = ServiceProcess(redis_url, tmp_path, http=True,
                             RISK_KEY_PREFIX="sdk-websocket-restart")
    service.start()
    try:
        async with RiskClient(service.target, websocket=service.http_url) as client:
            game_id, tokens = await _seated_game(client)
            seqs: list[int] = []

            async def follow() -> None:
                async for event in client.stream_events(game_id):
                    seqs.append(event.seq)

            reader = asyncio.create_task(follow())
            async with asyncio.timeout(TIMEOUT_S):
                sessions = [client.with_token(t).session(game_id, events=False)
                            for t in tokens]
                for session in sessions:
                    await session.open()
                last = await _play(client, game_id, tokens, sessions=sessions,
                                   seen=[[], [], []], moves=10)
                while not seqs or seqs[-1] < last:
                    await asyncio.sleep(0.01)
                await asyncio.to_thread(service.restart)
                for _attempt in range(100):
                    try:
                        last = await _play(client, game_id, tokens, sessions=sessions,
                                           seen=[[], [], []], moves=10)
                        break
                    except RiskError as error:
                        assert error.code in ("UNAVAILABLE", "CANCELLED", "ABORTED"), error
                        await asyncio.sleep(0.1)
                while not seqs or seqs[-1] < last:
                    assert not reader.done(), reader
                    await asyncio.sleep(0.01)
                for session in sessions:
                    await session.close()
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
            await _logged(service, "StreamEvents", 1)  # the resumed stream was a WebSocket
        assert seqs == list(range(1, last + 1)), "a gap or a repeat across the restart"
    finally:
        service.stop()
