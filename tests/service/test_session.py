"""Session, the bidirectional call: whole games played through seat sessions, each session's
events and acknowledgements against the game rebuilt offline, every refusal against the unary
call's, idempotency, resuming, and ends that leave nothing behind.

A session's view of a game is the events it received and the events inside its
acknowledgements, in arrival order; it must equal, byte for byte (commit time aside), the
events the seat is entitled to (`expected_events`): each once, in seq order.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from risk_proto.risk.v1 import classic_pb2, game_pb2, service_pb2, service_pb2_grpc, session_pb2
from risk_rules import wire
from risk_rules.engine import LegalAction
from risk_rules.engine.classic.model import ClassicView
from risk_service.redis_server import free_port
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import bearer, error_info, rpc_error
from tests.service.botplay import (
    FAST_OPTIONS,
    RULES,
    BotGame,
    bot_entropy,
    create_game,
)
from tests.service.test_operations import Scraper
from tests.service.test_stream import assert_replayed
from tests.serving import LogMark, module_service

Stub = service_pb2_grpc.RiskServiceStub
SEED = 0xC0FFEE8DED00002F
TIMEOUT_S = 30

# one service for the tests that need only a service; a test that stops it, counts its
# metrics or needs other settings starts its own (keys under a prefix of its own: nothing
# flushes Redis under the shared one)
service = module_service("service-session")


@pytest.fixture
async def stub(service: ServiceProcess) -> AsyncIterator[Stub]:
    channel = grpc.aio.insecure_channel(service.target)
    yield service_pb2_grpc.RiskServiceStub(channel)
    await channel.close()


@dataclass
class Refusal:
    """A refused call as a client sees it: code, message, ErrorInfo reason and metadata."""

    code: int
    message: str
    reason: str
    metadata: dict[str, str]

    @classmethod
    def of_status(cls, data: bytes) -> Refusal:
        status = status_pb2.Status.FromString(data)
        info = error_details_pb2.ErrorInfo()
        assert status.details[0].Unpack(info)
        return cls(status.code, status.message, info.reason, dict(info.metadata))

    @classmethod
    def of_call(cls, error: grpc.aio.AioRpcError) -> Refusal:
        info = error_info(error)
        return cls(error.code().value[0], error.details() or "", info.reason,
                   dict(info.metadata))


class SessionClient:
    """What a test does on a seat's session, whichever transport carries it (a gRPC call
    here, a WebSocket in test_websocket.py): submit and await the answer, await a seq."""

    seen: list[game_pb2.Event]  # events, then acks' events
    answers: asyncio.Queue[session_pb2.SessionResponse]

    async def send(self, request: session_pb2.SessionRequest) -> None:
        raise NotImplementedError

    async def submit(self, action: game_pb2.Action, version: int, request_id: str = "",
                     seat: int | None = None) -> session_pb2.SessionResponse:
        request = session_pb2.SessionAction(action=action, expected_version=version,
                                            request_id=request_id)
        if seat is not None:
            request.seat = seat
        await self.send(session_pb2.SessionRequest(submit=request))
        return await asyncio.wait_for(self.answers.get(), TIMEOUT_S)

    async def until_seq(self, seq: int) -> None:
        deadline = time.monotonic() + TIMEOUT_S
        while not self.seen or self.seen[-1].seq < seq:
            assert time.monotonic() < deadline, f"no event {seq} on the session"
            await asyncio.sleep(0.01)


@dataclass
class RawSession(SessionClient):
    """One Session call over a raw stub: what arrived, and each action's answer in turn."""

    call: grpc.aio.StreamStreamCall
    seen: list[game_pb2.Event] = field(default_factory=list)  # events, then acks' events
    answers: asyncio.Queue[session_pb2.SessionResponse] = field(default_factory=asyncio.Queue)
    ended: asyncio.Future[grpc.aio.AioRpcError | None] | None = None
    reader: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, stub: Stub, game_id: str, token: str | None,
                   after_seq: int = 0, *, acks_only: bool = False) -> RawSession:
        session = cls(stub.Session(metadata=bearer(token) if token else None))
        session.ended = asyncio.get_running_loop().create_future()
        await session.call.write(session_pb2.SessionRequest(open=session_pb2.SessionOpen(
            game_id=game_id, after_seq=after_seq, acks_only=acks_only)))
        session.reader = asyncio.create_task(session._read())
        return session

    async def _read(self) -> None:
        assert self.ended is not None
        try:
            async for reply in self.call:
                kind = reply.WhichOneof("kind")
                if kind == "event":
                    self.seen.append(reply.event)
                    continue
                if kind == "ack" and reply.ack.WhichOneof("reply") == "submitted":
                    submitted = service_pb2.SubmitActionResponse.FromString(reply.ack.submitted)
                    self.seen.extend(submitted.events)
                elif kind == "ack":
                    resigned = service_pb2.ResignResponse.FromString(reply.ack.resigned)
                    self.seen.extend(resigned.events)
                self.answers.put_nowait(reply)
            self.ended.set_result(None)
        except grpc.aio.AioRpcError as error:
            self.ended.set_result(error)

    async def send(self, request: session_pb2.SessionRequest) -> None:
        await self.call.write(request)

    async def close(self) -> grpc.aio.AioRpcError | None:
        """Half-close: the server ends the call once everything sent is answered."""
        assert self.ended is not None
        await self.call.done_writing()
        return await asyncio.wait_for(self.ended, TIMEOUT_S)


async def _choose(stub: Stub, game: BotGame, seat: int) -> game_pb2.Action:
    """The bot's action for `seat` (the deciding seat), chosen as botplay does."""
    token = bearer(game.seat_tokens[seat])
    got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id), metadata=token)
    view = wire.from_message(got.board.classic, ClassicView)
    listed = await stub.ListLegalActions(
        service_pb2.ListLegalActionsRequest(game_id=game.game_id), metadata=token)
    legal = [LegalAction(action=wire.action_from_proto(entry.action)[1],
                         max_count=entry.max_count) for entry in listed.actions]
    return wire.action_to_proto("classic", RULES.bot_choose(view, legal,
                                                            bot_entropy(game.seed, game.moves)))


async def _play(stub: Stub, game: BotGame, sessions: Sequence[SessionClient], *,
                rivals: bool = False, moves: int | None = None) -> list[bytes]:
    """Play `game` through its seats' sessions (to its end, or `moves` actions); returns each
    acknowledgement's SubmitActionResponse bytes. With `rivals`, every other seat submits the
    same action at the same version on its own session at once (each refused)."""
    acks = []
    seat = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game \
        .decision.seats[0]
    while game.outcome is None and (moves is None or game.moves < moves):
        action = await _choose(stub, game, seat)
        others = [s for s in range(game.players) if s != seat] if rivals else []
        answers = await asyncio.gather(
            sessions[seat].submit(action, game.version, f"bot-{game.moves}"),
            *(sessions[s].submit(action, game.version, f"rival-{game.moves}") for s in others))
        for rival in answers[1:]:
            assert rival.WhichOneof("kind") == "error", "only the deciding seat may act"
        answer = answers[0]
        assert answer.WhichOneof("kind") == "ack", answer
        assert answer.ack.request_id == f"bot-{game.moves}"
        acks.append(answer.ack.submitted)
        reply = service_pb2.SubmitActionResponse.FromString(answer.ack.submitted)
        game.actions.append((seat, wire.action_from_proto(action)[1]))
        game.versions.append(reply.version)
        game.version = reply.version
        if reply.HasField("outcome"):
            game.outcome = reply.outcome
        else:
            seat = reply.decision.seats[0]
    return acks


async def _spectate(stub: Stub, game_id: str, into: list[game_pb2.Event]) -> None:
    async for reply in stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id)):
        into.append(reply.event)


async def _settle(sessions: Sequence[SessionClient], seq: int) -> None:
    for session in sessions:
        await session.until_seq(seq)


async def test_a_game_through_sessions_shows_each_seat_every_event_once_in_order(
        stub: Stub) -> None:
    """Three seats play a whole game on their sessions while the other two submit the same
    move at once: each session saw exactly its seat's events in seq order (its own moves'
    events in their acks only), a spectator's StreamEvents the public ones; every ack is the
    reply the unary call gives for that request id."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    sessions = [await RawSession.open(stub, game.game_id, token) for token in game.seat_tokens]
    spectator: list[game_pb2.Event] = []
    watching = asyncio.create_task(_spectate(stub, game.game_id, spectator))
    acks = await _play(stub, game, sessions, rivals=True)
    final = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game
    await _settle(sessions, final.last_seq)
    for seat, session in enumerate(sessions):
        assert_replayed(session.seen, game, seat)
        assert await session.close() is None
    deadline = time.monotonic() + TIMEOUT_S
    while not spectator or spectator[-1].seq < final.last_seq:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.01)
    watching.cancel()
    assert_replayed(spectator, game, None)
    await assert_acks_are_stored_replies(stub, game, acks)


async def assert_acks_are_stored_replies(stub: Stub, game: BotGame, acks: list[bytes]) -> None:
    """The unary call answers a request id with the reply stored for it: the ack's bytes
    (for a game `_play` played, its first, middle and last moves)."""
    for move in (0, len(acks) // 2, len(acks) - 1):
        seat, action = game.actions[move]
        replayed = await stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game.game_id, action=wire.action_to_proto("classic", action),
            expected_version=game.versions[move] - 1, request_id=f"bot-{move}"),
            metadata=bearer(game.seat_tokens[seat]))
        assert replayed.SerializeToString(deterministic=True) == acks[move]


async def _unary_refusal(stub: Stub, request: service_pb2.SubmitActionRequest,
                         token: str | None) -> Refusal:
    return Refusal.of_call(await rpc_error(stub.SubmitAction(
        request, metadata=bearer(token) if token else None)))


async def test_every_refusal_on_a_session_is_the_unary_calls_and_the_session_goes_on(
        stub: Stub) -> None:
    """Illegal move, another seat's turn, a seat not the token's, a stale version, a malformed
    action, a request id reused with another action, a badly formed request id, a spectator
    acting: each answered on the session with the code, message, reason and metadata of the
    unary call, and the next legal move on the same session is acknowledged."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    sessions = [await RawSession.open(stub, game.game_id, token) for token in game.seat_tokens]
    await _play(stub, game, sessions, moves=3)
    summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game
    seat = summary.decision.seats[0]
    other = (seat + 1) % game.players
    legal = await _choose(stub, game, seat)
    # the deal was random, so claiming a territory is never legal in this game
    not_legal = game_pb2.Action(classic=classic_pb2.ClassicAction(
        claim_territory=classic_pb2.ClassicAction.ClaimTerritory(territory=0)))
    empty = game_pb2.Action()
    cases = [  # (what, acting seat's token index or None, action, version, request id, seat)
        ("illegal move", seat, not_legal, game.version, "x-1", None),
        ("not this seat's turn", other, legal, game.version, "x-2", None),
        ("a seat not the token's", seat, legal, game.version, "x-3", other),
        ("stale version", seat, legal, game.version - 1, "x-4", None),
        ("malformed action", seat, empty, game.version, "x-5", None),
        # "bot-2" is the id of move 2, by its seat: reused now with another action
        ("request id reused", game.actions[2][0], not_legal, game.version, "bot-2", None),
        ("badly formed request id", seat, legal, game.version, "has space", None),
    ]
    reasons = set()
    for what, acting, action, version, request_id, as_seat in cases:
        request = service_pb2.SubmitActionRequest(
            game_id=game.game_id, action=action, expected_version=version,
            request_id=request_id)
        if as_seat is not None:
            request.seat = as_seat
        unary = await _unary_refusal(stub, request, game.seat_tokens[acting])
        answer = await sessions[acting].submit(action, version, request_id, as_seat)
        assert answer.WhichOneof("kind") == "error", what
        assert answer.error.request_id == request_id
        assert Refusal.of_status(answer.error.status) == unary, what
        reasons.add(unary.reason)
    assert {"STALE_VERSION", "WRONG_SEAT", "MALFORMED_REQUEST", "NOT_YOUR_TURN",
            "REQUEST_ID_REUSED"} <= reasons
    spectator = await RawSession.open(stub, game.game_id, None)
    request = service_pb2.SubmitActionRequest(game_id=game.game_id, action=legal,
                                              expected_version=game.version, request_id="s-1")
    answer = await spectator.submit(legal, game.version, "s-1")
    assert Refusal.of_status(answer.error.status) == await _unary_refusal(stub, request, None)
    # the sessions go on: the deciding seat's move is acknowledged after all those refusals
    answer = await sessions[seat].submit(legal, game.version, "after-refusals")
    assert answer.WhichOneof("kind") == "ack"
    assert service_pb2.SubmitActionResponse.FromString(answer.ack.submitted).version == \
        game.version + 1
    for session in [*sessions, spectator]:
        assert await session.close() is None


async def test_a_duplicate_request_id_gets_the_same_ack_and_one_move(
        service: ServiceProcess, stub: Stub) -> None:
    """The same request id and action sent twice on a session (and once more on another
    session of the seat) is acknowledged with the same bytes each time; the game moved once.
    Each action on a session is one log line with its game and request id and its code."""
    mark = LogMark(service)
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    seat = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game \
        .decision.seats[0]
    session = await RawSession.open(stub, game.game_id, game.seat_tokens[seat])
    action = await _choose(stub, game, seat)
    first = await session.submit(action, game.version, "once")
    again = await session.submit(action, game.version, "once")
    second = await RawSession.open(stub, game.game_id, game.seat_tokens[seat])
    elsewhere = await second.submit(action, game.version, "once")
    assert first.ack.submitted == again.ack.submitted == elsewhere.ack.submitted
    summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game
    assert summary.version == game.version + 1
    other = game_pb2.Action(classic=classic_pb2.ClassicAction(
        end_turn=classic_pb2.ClassicAction.EndTurn()))
    reused = await session.submit(other, game.version, "once")
    assert Refusal.of_status(reused.error.status).reason == "REQUEST_ID_REUSED"
    assert await session.close() is None and await second.close() is None
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        lines = mark.lines()
        actions = [(line["code"], line.get("reason")) for line in lines
                   if line.get("method") == "/risk.v1.RiskService/Session/SubmitAction"
                   and line.get("request_id") == "once" and line.get("game_id") == game.game_id]
        if len(actions) >= 4 or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.05)
    assert actions == [("OK", None)] * 3 + [("INVALID_ARGUMENT", "REQUEST_ID_REUSED")]


async def test_a_session_resumes_after_the_last_seq_it_saw(stub: Stub) -> None:
    """A seat's session hangs up mid-game; the game goes on; a new session with after_seq =
    the last seq seen carries on: together they saw every event of the seat once, in order."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    sessions = [await RawSession.open(stub, game.game_id, token) for token in game.seat_tokens]
    await _play(stub, game, sessions, moves=20)
    summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game
    await _settle(sessions, summary.last_seq)
    first = sessions[0]
    first.call.cancel()
    await _play(stub, game, [*sessions[:0], *sessions[:1], *sessions[1:]], moves=20)
    last_seen = first.seen[-1].seq
    resumed = await RawSession.open(stub, game.game_id, game.seat_tokens[0], after_seq=last_seen)
    sessions[0] = resumed
    await _play(stub, game, sessions, moves=40)
    summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game
    await _settle(sessions, summary.last_seq)
    assert_replayed(first.seen + resumed.seen, game, 0)
    assert first.seen[-1].seq < resumed.seen[0].seq


async def test_opening_a_session_on_an_unknown_game_or_with_a_wrong_token_ends_it(
        stub: Stub) -> None:
    """An unknown game ends the session NOT_FOUND, a token of no seat UNAUTHENTICATED, a
    malformed authorization header UNAUTHENTICATED: the statuses StreamEvents ends with."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    for game_id, token in (("0123456789abcdef", None), (game.game_id, "not-a-token")):
        session = await RawSession.open(stub, game_id, token)
        ended = await asyncio.wait_for(session.ended, TIMEOUT_S) if session.ended else None
        assert ended is not None
        stream = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id),
                                   metadata=bearer(token) if token else None)
        unary = await rpc_error(stream.read())
        assert Refusal.of_call(ended) == Refusal.of_call(unary)
        assert ended.code() in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.UNAUTHENTICATED)


async def test_a_malformed_stream_ends_invalid_argument(service: ServiceProcess,
                                                        stub: Stub) -> None:
    """A session whose first message is not `open`, one opened twice, and one that sends bytes
    that are not a SessionRequest each end INVALID_ARGUMENT / MALFORMED_REQUEST."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    token = bearer(game.seat_tokens[0])
    call = stub.Session(metadata=token)
    await call.write(session_pb2.SessionRequest(submit=session_pb2.SessionAction()))
    error = await rpc_error(call.read())
    assert (error.code(), error_info(error).reason) == (grpc.StatusCode.INVALID_ARGUMENT,
                                                         "MALFORMED_REQUEST")
    session = await RawSession.open(stub, game.game_id, game.seat_tokens[0])
    await session.call.write(session_pb2.SessionRequest(
        open=session_pb2.SessionOpen(game_id=game.game_id)))
    ended = await asyncio.wait_for(session.ended, TIMEOUT_S) if session.ended else None
    assert ended is not None and error_info(ended).reason == "MALFORMED_REQUEST"
    async with grpc.aio.insecure_channel(service.target) as channel:
        raw = channel.stream_stream("/risk.v1.RiskService/Session",
                                    request_serializer=lambda data: data,
                                    response_deserializer=lambda data: data)
        call = raw(metadata=token)
        await call.write(b"\xff\xff\xff")
        error = await rpc_error(call.read())
    assert (error.code(), error_info(error).reason) == (grpc.StatusCode.INVALID_ARGUMENT,
                                                         "MALFORMED_REQUEST")


async def test_a_resign_on_a_session_is_acknowledged_in_order(stub: Stub) -> None:
    """A seat resigns on its session: the ack carries the unary Resign's reply (its events),
    and the other seats' sessions see those events."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    sessions = [await RawSession.open(stub, game.game_id, token) for token in game.seat_tokens]
    await _play(stub, game, sessions, moves=4)
    await sessions[1].call.write(session_pb2.SessionRequest(
        resign=session_pb2.SessionResign(request_id="bye")))
    answer = await asyncio.wait_for(sessions[1].answers.get(), TIMEOUT_S)
    assert answer.WhichOneof("kind") == "ack" and answer.ack.request_id == "bye"
    resigned = service_pb2.ResignResponse.FromString(answer.ack.resigned)
    assert resigned.version == game.version + 1 and resigned.events
    await _settle(sessions, resigned.events[-1].seq)
    for session in sessions:
        assert [e.seq for e in session.seen] == sorted({e.seq for e in session.seen})


async def test_cancelled_sessions_and_a_shutdown_leave_nothing_open(
        make_service: ServiceFactory) -> None:
    """Sessions the client cancels drop their subscriptions (risk_subscribers back to 0) and
    their log line says CANCELLED; a service stopping with sessions open ends them and exits
    within its grace period."""
    port = free_port()
    service = make_service(RISK_METRICS_PORT=str(port), RISK_KEY_PREFIX="service-session-stop")
    scraper = Scraper(port)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game = await create_game(stub, SEED, **FAST_OPTIONS)
        sessions = [await RawSession.open(stub, game.game_id, t) for t in game.seat_tokens]
        await _settle(sessions, game.last_seq)
        assert await scraper.value("risk_subscribers") == 3
        for session in sessions:
            session.call.cancel()
        await scraper.until("risk_subscribers", lambda v: v == 0)
        sessions = [await RawSession.open(stub, game.game_id, t) for t in game.seat_tokens]
        await _settle(sessions, game.last_seq)
        started = time.monotonic()
        assert await asyncio.to_thread(service.stop) == 0
        assert time.monotonic() - started < 10
        for session in sessions:
            ended = await asyncio.wait_for(session.ended, TIMEOUT_S) if session.ended else None
            assert ended is not None  # the call ended (with the shutdown's status), not hung
    lines = [json.loads(line) for line in service.logs().splitlines() if line.startswith("{")]
    closed = [line for line in lines if line.get("method") == "/risk.v1.RiskService/Session"]
    assert sum(line["code"] == "CANCELLED" for line in closed) >= 3


async def test_actions_on_a_session_spend_the_callers_rate_limit(
        make_service: ServiceFactory) -> None:
    """Under a rate limit, actions on a session are refused RESOURCE_EXHAUSTED / RATE_LIMITED
    (with retry_after_ms) as unary calls are, one by one, and the session answers again once
    the bucket refills."""
    service = make_service(RISK_RATE_LIMIT_PER_S="2", RISK_RATE_LIMIT_BURST="12",
                           RISK_KEY_PREFIX="service-session-rate")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game = await create_game(stub, SEED, **FAST_OPTIONS)
        # the set-up spent 5 of the address's 12; the session's actions go on seat 0's token
        session = await RawSession.open(stub, game.game_id, game.seat_tokens[0])
        stale = game_pb2.Action(classic=classic_pb2.ClassicAction(
            end_turn=classic_pb2.ClassicAction.EndTurn()))
        reasons, retry_after_ms = [], 0
        for attempt in range(40):
            answer = await session.submit(stale, game.version + 100, f"r-{attempt}")
            refusal = Refusal.of_status(answer.error.status)
            reasons.append(refusal.reason)
            if refusal.reason == "RATE_LIMITED":
                assert refusal.code == grpc.StatusCode.RESOURCE_EXHAUSTED.value[0]
                retry_after_ms = int(refusal.metadata["retry_after_ms"])
                break
        assert reasons[-1] == "RATE_LIMITED" and "STALE_VERSION" in reasons
        assert 0 < retry_after_ms <= 1000  # one request's worth at 2 a second
        await asyncio.sleep(retry_after_ms / 1000)  # as long as the refusal said, no longer
        answer = await session.submit(stale, game.version + 100, "after-the-pause")
        assert Refusal.of_status(answer.error.status).reason == "STALE_VERSION"
        assert await session.close() is None


async def test_an_acks_only_session_answers_actions_and_sends_no_events(stub: Stub) -> None:
    """A session opened `acks_only` gets the same acknowledgements and refusals, and no event
    message: the other seats' moves (seen on a full session alongside) never reach it."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    lean = [await RawSession.open(stub, game.game_id, token, acks_only=True)
            for token in game.seat_tokens]
    full = await RawSession.open(stub, game.game_id, game.seat_tokens[0])
    acks = await _play(stub, game, lean, moves=12)
    summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game
    await full.until_seq(summary.last_seq)
    own = [service_pb2.SubmitActionResponse.FromString(ack).events for ack in acks]
    for seat, session in enumerate(lean):
        mine = [e for (s, _a), events in zip(game.actions, own, strict=True) if s == seat
                for e in events]
        assert session.seen == mine  # only its acks' events: no event message came
    answer = await lean[0].submit(game_pb2.Action(), game.version, "bad")
    assert Refusal.of_status(answer.error.status).reason == "MALFORMED_REQUEST"
    for session in [*lean, full]:
        assert await session.close() is None


async def test_an_acks_only_session_resigns_and_ends_on_a_second_open(stub: Stub) -> None:
    """An acks-only session runs its actions in the call's own task (no event reader to merge
    with): a resign on it is acknowledged with the unary Resign's reply, and a second `open`
    after it still ends the session INVALID_ARGUMENT / MALFORMED_REQUEST, as on a full one."""
    game = await create_game(stub, SEED, **FAST_OPTIONS)
    lean = await RawSession.open(stub, game.game_id, game.seat_tokens[1], acks_only=True)
    await lean.send(session_pb2.SessionRequest(
        resign=session_pb2.SessionResign(request_id="bye")))
    answer = await asyncio.wait_for(lean.answers.get(), TIMEOUT_S)
    assert answer.WhichOneof("kind") == "ack" and answer.ack.request_id == "bye"
    resigned = service_pb2.ResignResponse.FromString(answer.ack.resigned)
    assert resigned.version == game.version + 1 and resigned.events
    assert lean.seen == list(resigned.events)  # the ack's events, and no event message
    await lean.send(session_pb2.SessionRequest(
        open=session_pb2.SessionOpen(game_id=game.game_id, acks_only=True)))
    assert lean.ended is not None
    ended = await asyncio.wait_for(lean.ended, TIMEOUT_S)
    assert ended is not None and ended.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(ended).reason == "MALFORMED_REQUEST"


async def test_a_refused_session_is_told_why_even_if_its_opening_message_comes_late(
        make_service: ServiceFactory) -> None:
    """A session over the streams-per-connection limit whose client writes its `open` only
    after the server has the call still hears RESOURCE_EXHAUSTED / TOO_MANY_STREAMS: the
    server takes the opening message before it ends the call. Ended at once, the client's late
    write failed in its gRPC library with INTERNAL, and the reason was lost."""
    service = make_service(RISK_MAX_STREAMS_PER_CONNECTION="1",
                           RISK_KEY_PREFIX="service-session-late")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game = await create_game(stub, SEED, **FAST_OPTIONS)
        first = await RawSession.open(stub, game.game_id, game.seat_tokens[0])
        await _settle([first], game.last_seq)
        late = stub.Session(metadata=bearer(game.seat_tokens[1]))
        await late.wait_for_connection()
        await asyncio.sleep(0.3)  # the server has had the call for a while; nothing written
        await late.write(session_pb2.SessionRequest(open=session_pb2.SessionOpen(
            game_id=game.game_id)))
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await late.read()
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert error_info(refused.value).reason == "TOO_MANY_STREAMS"
        assert await first.close() is None


async def test_sessions_count_against_the_open_streams_per_connection(
        make_service: ServiceFactory) -> None:
    """With RISK_MAX_STREAMS_PER_CONNECTION=2, a third session on one connection ends
    RESOURCE_EXHAUSTED / TOO_MANY_STREAMS, as a third StreamEvents would, and the two open
    ones go on; closing one makes room again."""
    service = make_service(RISK_MAX_STREAMS_PER_CONNECTION="2",
                           RISK_KEY_PREFIX="service-session-streams")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game = await create_game(stub, SEED, **FAST_OPTIONS)
        open_ = [await RawSession.open(stub, game.game_id, t) for t in game.seat_tokens[:2]]
        await _settle(open_, game.last_seq)
        third = await RawSession.open(stub, game.game_id, game.seat_tokens[2])
        ended = await asyncio.wait_for(third.ended, TIMEOUT_S) if third.ended else None
        assert ended is not None and ended.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert error_info(ended).reason == "TOO_MANY_STREAMS"
        assert await open_[0].close() is None
        again = await RawSession.open(stub, game.game_id, game.seat_tokens[2])
        await again.until_seq(game.last_seq)
        for session in (open_[1], again):
            assert await session.close() is None
