"""The SDK's GameSession against the real service: a whole game played through sessions, the
same typed errors as the unary calls, and a session that rides out a service restart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from risk_client import IllegalMove, InvalidArgument, RiskClient, StaleVersion, actions
from risk_client.errors import RiskError
from risk_client.session import GameSession
from risk_proto.risk.v1 import game_pb2
from risk_rules import wire
from risk_rules.engine import LegalAction
from risk_rules.engine.classic.model import ClassicView
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import classic_options
from tests.service.botplay import FAST_OPTIONS, RULES, bot_entropy

SEED = 0xC0FFEE8DED00002F
TIMEOUT_S = 120


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    process = ServiceProcess(
        redis_url, tmp_path_factory.mktemp("sdk-session"), RISK_KEY_PREFIX="sdk-session")
    process.start()
    yield process
    process.stop()


@pytest.fixture
async def client(service: ServiceProcess) -> AsyncIterator[RiskClient]:
    async with RiskClient(service.target) as c:
        yield c


async def _seated_game(client: RiskClient) -> tuple[str, list[str]]:
    summary, _host = await client.create_game(classic_options(**FAST_OPTIONS), seed=SEED)
    tokens = [await client.join_game(summary.game_id, seat) for seat in range(3)]
    return summary.game_id, tokens


async def _collect(session: GameSession, into: list[game_pb2.Event]) -> None:
    async for event in session:
        into.append(event)


async def _bot_action(seat_client: RiskClient, game_id: str, move: int) -> game_pb2.Action:
    got = await seat_client.get_game(game_id)
    listed = await seat_client.legal_actions(game_id)
    legal = [LegalAction(action=wire.action_from_proto(entry.action)[1],
                         max_count=entry.max_count) for entry in listed.actions]
    view = wire.from_message(got.board.classic, ClassicView)
    return wire.action_to_proto("classic", RULES.bot_choose(view, legal,
                                                            bot_entropy(SEED, move)))


async def _play(client: RiskClient, game_id: str, tokens: list[str], *,
                sessions: list[GameSession], seen: list[list[game_pb2.Event]],
                moves: int | None = None) -> int:
    """Play through the sessions until the game ends (or `moves` actions); the last seq."""
    game = (await client.get_game(game_id)).game
    version, seat, done, last_seq = game.version, game.decision.seats[0], 0, game.last_seq
    while moves is None or done < moves:
        action = await _bot_action(client.with_token(tokens[seat]), game_id, version)
        reply = await sessions[seat].submit(action, version, f"m-{version}")
        seen[seat].extend(reply.events)
        version, done, last_seq = reply.version, done + 1, reply.events[-1].seq
        if reply.HasField("outcome"):
            break
        seat = reply.decision.seats[0]
    return last_seq


async def _until(seen: list[game_pb2.Event], seq: int) -> None:
    """Wait until `seen` (gathered by two tasks, so not in order) holds `seq`."""
    async with asyncio.timeout(TIMEOUT_S):
        while max((e.seq for e in seen), default=0) < seq:
            await asyncio.sleep(0.01)


async def test_a_whole_game_through_sdk_sessions_sees_every_event_once(
        client: RiskClient) -> None:
    """Three seats play to the end through `client.session`; each seat's events (iterated, and
    in its own replies) are every seq of the game once, in order."""
    await play_through_sessions(client)


async def play_through_sessions(client: RiskClient) -> str:
    """Three seats of a new game play it to the end through `client.session` (on whichever
    transport the client opens sessions); each seat's events (iterated, and in its own
    replies) must be every seq of the game once. Returns the game's id."""
    game_id, tokens = await _seated_game(client)
    sessions = [await client.with_token(t).session(game_id).__aenter__() for t in tokens]
    seen: list[list[game_pb2.Event]] = [[], [], []]
    readers = [asyncio.create_task(_collect(s, seen[i])) for i, s in enumerate(sessions)]
    try:
        async with asyncio.timeout(TIMEOUT_S):
            last_seq = await _play(client, game_id, tokens, sessions=sessions, seen=seen)
        assert (await client.get_game(game_id)).game.HasField("outcome")
        for seat_seen in seen:
            await _until(seat_seen, last_seq)
            # (iterated events and replies' events are gathered by two tasks: the order on
            # the wire is tests/service/test_session.py's to check)
            assert sorted(e.seq for e in seat_seen) == list(range(1, last_seq + 1))
    finally:
        for session in sessions:
            await session.close()
        await asyncio.gather(*readers, return_exceptions=True)
    assert all(r.done() and r.exception() is None for r in readers)
    return game_id


async def test_session_refusals_raise_the_unary_calls_error_types(client: RiskClient) -> None:
    """On a session, another seat's move raises IllegalMove/NOT_YOUR_TURN, a stale version
    StaleVersion with the current version, a reused request id InvalidArgument; a repeated
    request id returns the first reply; the session goes on after each."""
    game_id, tokens = await _seated_game(client)
    game = (await client.get_game(game_id)).game
    mover = game.decision.seats[0]
    me, other = client.with_token(tokens[mover]), client.with_token(tokens[(mover + 1) % 3])
    action = (await me.legal_actions(game_id)).actions[0].action
    async with me.session(game_id) as mine, other.session(game_id) as theirs:
        with pytest.raises(IllegalMove) as on_session:
            await theirs.submit(action, game.version)
        with pytest.raises(IllegalMove) as on_unary:
            await other.submit_action(game_id, action, game.version)
        assert on_session.value.reason == on_unary.value.reason == "NOT_YOUR_TURN"
        assert on_session.value.message == on_unary.value.message
        first = await mine.submit(action, game.version, "once")
        assert await mine.submit(action, game.version, "once") == first
        with pytest.raises(StaleVersion) as stale:
            await mine.submit(action, game.version)
        assert stale.value.current_version == first.version
        with pytest.raises(InvalidArgument) as reused:
            await mine.submit(actions.end_turn(), first.version, "once")
        assert reused.value.reason == "REQUEST_ID_REUSED"
        assert (await client.get_game(game_id)).game.version == first.version


async def test_a_session_rides_out_a_service_restart(redis_url: str, tmp_path: Path) -> None:
    """The service is killed and restarted under an open session: a move in flight or sent
    meanwhile raises Unavailable (resent with its request id it lands once), and the
    session's events go on after the last seq it saw, with no gap and no repeat."""
    service = ServiceProcess(redis_url, tmp_path, RISK_KEY_PREFIX="sdk-session-restart")
    service.start()
    try:
        async with RiskClient(service.target) as client:
            game_id, tokens = await _seated_game(client)
            sessions = [client.with_token(t).session(game_id) for t in tokens]
            for session in sessions:
                await session.open()
            seen: list[list[game_pb2.Event]] = [[], [], []]
            readers = [asyncio.create_task(_collect(s, seen[i])) for i, s in enumerate(sessions)]
            async with asyncio.timeout(TIMEOUT_S):
                await _play(client, game_id, tokens, sessions=sessions, seen=seen, moves=15)
                await asyncio.to_thread(service.restart)
                last_seq = 0
                for _attempt in range(100):
                    try:
                        last_seq = await _play(client, game_id, tokens, sessions=sessions,
                                               seen=seen, moves=15)
                        break
                    except RiskError as error:
                        assert error.code in ("UNAVAILABLE", "CANCELLED", "ABORTED"), error
                        await asyncio.sleep(0.1)
                for seat_seen in seen:
                    await _until(seat_seen, last_seq)
            for session in sessions:
                await session.close()
            await asyncio.gather(*readers, return_exceptions=True)
    finally:
        service.stop()
    for seat_seen in seen:
        seqs = sorted(e.seq for e in seat_seen)
        assert seqs == list(range(1, seqs[-1] + 1)), "a gap or a repeat across the restart"
