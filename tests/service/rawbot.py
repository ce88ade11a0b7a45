"""A bot that plays through raw gRPC stubs, tolerates crashes, and checks games by replay.

Used by the replica and crash tests. The loop is the plainest client there is: GetGame (as the
deciding seat) -> ListLegalActions -> the engine's bot picks from what the seat sees ->
SubmitAction with a fresh request id. When a call fails because the service (or Redis) is
down, it waits, re-reads the game's version and sends the same request again, same request id:
the service either applies it now or answers with the reply it stored when it committed it
before the crash. Every acknowledged move is kept as version -> (seat, action), which is all a
replay through the engine needs.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, cast

import grpc
import redis.asyncio

from risk_proto.risk.v1 import classic_pb2, game_pb2, service_pb2, service_pb2_grpc
from risk_rules import wire
from risk_rules.engine import Action, LegalAction, get_ruleset
from risk_rules.engine.classic.model import ClassicView
from risk_service.redis_server import free_port
from risk_service.store.keys import Keys
from risk_testing.rpc import bearer, classic_options
from tests.stored_state import astate_now

Stub = service_pb2_grpc.RiskServiceStub
RULES = get_ruleset("classic")
# what a crashed service or store looks like to a client; anything else is a real failure
TRANSIENT = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
# reconnect quickly to a restarted service instead of gRPC's default 1 s+ backoff
CHANNEL_OPTIONS = (
    ("grpc.initial_reconnect_backoff_ms", 50),
    ("grpc.min_reconnect_backoff_ms", 50),
    ("grpc.max_reconnect_backoff_ms", 250),
)
CALL_TIMEOUT = 5.0


def channel(target: str) -> grpc.aio.Channel:
    return grpc.aio.insecure_channel(target, options=CHANNEL_OPTIONS)


def quick_game(seed: int, *, max_turns: int = 6, **fields: Any) -> service_pb2.CreateGameRequest:
    """A 3-player classic game that ends by the turn cap after ~100 actions."""
    options: dict[str, Any] = {
        "players": 3,
        "setup": classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL,
        "auto_place": True,
        "auto_defend_max_dice": True,
        "max_turns": max_turns,
        **fields,
    }
    return service_pb2.CreateGameRequest(options=classic_options(**options), seed=seed)


@dataclass
class Table:
    """A created game with every seat joined."""

    game_id: str
    host: str
    tokens: list[str]
    request: service_pb2.CreateGameRequest
    start_version: int  # the version once every seat has joined, before the first move


async def open_table(stub: Stub, request: service_pb2.CreateGameRequest) -> Table:
    created = await stub.CreateGame(request)
    game_id = created.game.game_id
    tokens = [
        (await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=s))).seat_token
        for s in range(len(created.game.seats))
    ]
    start = await summary(stub, game_id)
    return Table(game_id, created.host_token, tokens, request, start.version)


async def summary(stub: Stub, game_id: str) -> service_pb2.GameSummary:
    reply = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id), timeout=CALL_TIMEOUT)
    return reply.game


def legal_from_proto(entry: game_pb2.LegalAction) -> LegalAction:
    return LegalAction(wire.action_from_proto(entry.action)[1], entry.max_count)


async def bot_move(stub: Stub, table: Table) -> tuple[int, int, Action] | None:
    """(version, seat, action) the deciding seat's bot plays now; None once the game is over."""
    game = await summary(stub, table.game_id)
    if not game.decision.seats:
        return None
    seat = game.decision.seats[0]
    auth = bearer(table.tokens[seat])
    got = await stub.GetGame(
        service_pb2.GetGameRequest(game_id=table.game_id), metadata=auth, timeout=CALL_TIMEOUT
    )
    view = wire.from_message(got.board.classic, ClassicView)
    legal = await stub.ListLegalActions(
        service_pb2.ListLegalActionsRequest(game_id=table.game_id), metadata=auth,
        timeout=CALL_TIMEOUT,
    )
    assert legal.version == got.game.version, "a single bot's game moved between two reads"
    # the bot's choice depends on the seed and the move number only, so the engine can
    # replay the same game offline whatever the lifecycle steps before the first move
    entropy = table.request.seed * 1_000_003 + legal.version - table.start_version
    action = RULES.bot_choose(view, [legal_from_proto(e) for e in legal.actions], entropy)
    return legal.version, seat, action


async def next_request(stub: Stub, table: Table, request_id: str
                       ) -> tuple[service_pb2.SubmitActionRequest, int]:
    """The deciding seat's bot move as a SubmitActionRequest at the game's version, and the
    seat (the game must not have ended)."""
    move = await bot_move(stub, table)
    assert move is not None, "the game has ended"
    version, seat, action = move
    return service_pb2.SubmitActionRequest(
        game_id=table.game_id, action=wire.action_to_proto("classic", action),
        expected_version=version, request_id=request_id), seat


@dataclass
class Log:
    """What the client knows for sure: the acknowledged moves and how it got them."""

    start_version: int
    moves: dict[int, tuple[int, Action]] = field(default_factory=dict)  # version -> move
    replies: dict[int, service_pb2.SubmitActionResponse] = field(default_factory=dict)
    failed_calls: int = 0  # calls that failed UNAVAILABLE / DEADLINE_EXCEEDED
    failure_codes: set[grpc.StatusCode] = field(default_factory=set)
    failed_submits: int = 0
    resolved_committed: int = 0  # lost replies whose action had been committed (id replayed)
    resolved_applied: int = 0  # lost replies whose action had not been committed (applied now)

    @property
    def version(self) -> int:
        return max(self.moves, default=self.start_version)

    def check_complete(self) -> None:
        """One acknowledged move per version since the start: none lost, none doubled."""
        first = self.start_version + 1
        assert sorted(self.moves) == list(range(first, first + len(self.moves)))


async def until_ok(make_call: Callable[[], Awaitable[Any]], log: Log,
                   deadline: float = 10.0) -> Any:
    """Repeat an idempotent call while the service or its store is down."""
    end = time.monotonic() + deadline
    while True:
        try:
            return await make_call()
        except grpc.aio.AioRpcError as error:
            if error.code() not in TRANSIENT or time.monotonic() > end:
                raise
            log.failed_calls += 1
            log.failure_codes.add(error.code())
            await asyncio.sleep(0.05)


Hook = Callable[[int, int], Awaitable[None]]  # (moves acknowledged so far, version)


async def submit_resolving(
    stub: Stub, table: Table, log: Log, *, seat: int, action: Action, version: int,
    request_id: str, before_submit: Hook | None = None,
) -> service_pb2.SubmitActionResponse:
    """Submit once; if the reply is lost, re-read the version and resend the same request."""
    request = service_pb2.SubmitActionRequest(
        game_id=table.game_id, action=wire.action_to_proto("classic", action),
        expected_version=version, request_id=request_id,
    )
    auth = bearer(table.tokens[seat])
    if before_submit is not None:
        await before_submit(version - table.start_version, version)
    try:
        reply = await stub.SubmitAction(request, metadata=auth, timeout=CALL_TIMEOUT)
    except grpc.aio.AioRpcError as error:
        if error.code() not in TRANSIENT:
            raise
        log.failed_calls += 1
        log.failure_codes.add(error.code())
        log.failed_submits += 1
        current = (await until_ok(lambda: summary(stub, table.game_id), log)).version
        assert current in (version, version + 1), (current, version)
        # the same request id at the version just read: applied now if the crash lost the
        # request, or answered with the stored reply if it was committed before the crash
        request.expected_version = current
        reply = await until_ok(
            lambda: stub.SubmitAction(request, metadata=auth, timeout=CALL_TIMEOUT), log
        )
        if current == version + 1:
            log.resolved_committed += 1
        else:
            log.resolved_applied += 1
    assert reply.version == version + 1
    log.moves[reply.version] = (seat, action)
    log.replies[reply.version] = reply
    return reply


async def play(
    stub: Stub, table: Table, log: Log, *, moves: int | None = None,
    before_submit: Hook | None = None,
) -> None:
    """Play `moves` moves (or to the end), surviving crashes; checks no acked move is lost."""
    played = 0
    while moves is None or played < moves:
        move = await until_ok(lambda: bot_move(stub, table), log)
        if move is None:
            return
        version, seat, action = move
        assert version == log.version, f"acknowledged moves lost: at {version}, acked {log.version}"
        await submit_resolving(stub, table, log, seat=seat, action=action, version=version,
                               request_id=f"bot-{version}", before_submit=before_submit)
        played += 1


# ---- what Redis holds, and what it should hold ------------------------------------------


@dataclass
class Stored:
    version: int
    last_seq: int
    snapshot: bytes
    events: list[game_pb2.Event]


async def stored(client: redis.asyncio.Redis, game_id: str) -> Stored:
    """The game's hash and event stream as they are in Redis."""
    keys = Keys()
    raw = cast(dict[bytes, bytes], await client.hgetall(keys.game(game_id)))
    assert raw, f"game {game_id} is not in Redis"
    entries = await client.xrange(keys.events(game_id))
    events = [game_pb2.Event.FromString(fields[b"e"]) for _id, fields in entries]
    # the state the game is at: its snapshot and the log entries after it
    return Stored(int(raw[b"version"]), int(raw[b"seq"]),
                  (await astate_now(client, game_id))[1], events)


def _rules_events(events: list[game_pb2.Event]) -> list[tuple[int, bytes]]:
    """(version, classic event bytes) of the rules' events, leaving out the service's own."""
    return [(e.version, e.classic.SerializeToString(deterministic=True))
            for e in events if e.WhichOneof("variant") == "classic"]


def assert_replays(held: Stored, table: Table, log: Log) -> None:
    """Redis holds what the engine makes from the seed and the acknowledged moves: the same
    snapshot and the same rules events, version by version, in a stream without gaps."""
    log.check_complete()
    assert held.version == log.version
    assert [e.seq for e in held.events] == list(range(1, held.last_seq + 1))
    variant, options = wire.options_from_proto(table.request.options)
    state, created = RULES.create(options, table.request.seed)
    expected = [(0, e) for e in created]
    for version in sorted(log.moves):
        seat, action = log.moves[version]
        state, produced = RULES.apply(state, seat, action)
        expected += [(version, e) for e in produced]
    assert _rules_events(held.events) == [
        (v, wire.event_to_proto(variant, e, 0, v).classic.SerializeToString(deterministic=True))
        for v, e in expected
    ]
    assert held.snapshot == wire.encode_state(variant, state)


async def read_stream(stub: Stub, game_id: str, token: str | None, *, after_seq: int,
                      upto: int, timeout: float = 5.0) -> list[game_pb2.Event]:
    """The events after `after_seq` up to seq `upto`, as `token`'s seat (None: spectator).

    Like any client it resumes after an UNAVAILABLE end (the store just restarted, say)."""
    out: list[game_pb2.Event] = []
    calls: list[grpc.aio.UnaryStreamCall] = []

    def last() -> int:
        return out[-1].seq if out else after_seq

    async def collect() -> None:
        while last() < upto:
            call = stub.StreamEvents(
                service_pb2.StreamEventsRequest(game_id=game_id, after_seq=last()),
                metadata=bearer(token) if token else None,
            )
            calls.append(call)
            try:
                async for message in call:
                    out.append(message.event)
                    if message.event.seq >= upto:
                        return
            except grpc.aio.AioRpcError as error:
                if error.code() != grpc.StatusCode.UNAVAILABLE:
                    raise
                await asyncio.sleep(0.05)

    try:
        await asyncio.wait_for(collect(), timeout)
    finally:
        for call in calls:
            call.cancel()
    return out


class Spectator:
    """A live spectator that, like a client, resumes after its last seq whenever its stream
    ends UNAVAILABLE or DEADLINE_EXCEEDED (a store failing over). Any other end fails it."""

    def __init__(self, stub: Stub, game_id: str) -> None:
        self.events: list[game_pb2.Event] = []
        self.task = asyncio.create_task(self._follow(stub, game_id))

    async def _follow(self, stub: Stub, game_id: str) -> None:
        while True:
            after = self.events[-1].seq if self.events else 0
            call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id,
                                                                     after_seq=after))
            try:
                async for message in call:
                    self.events.append(message.event)
            except grpc.aio.AioRpcError as error:
                assert error.code() in (grpc.StatusCode.UNAVAILABLE,
                                        grpc.StatusCode.DEADLINE_EXCEEDED), error
            await asyncio.sleep(0.1)

    async def until(self, last_seq: int, timeout: float = 10.0) -> list[game_pb2.Event]:
        """Stop once it has seen `last_seq` or after `timeout` seconds; what it saw. A stream
        that ended otherwise than a client resumes from is raised here."""
        deadline = time.monotonic() + timeout
        while not (self.events and self.events[-1].seq >= last_seq):
            if self.task.done():
                self.task.result()
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.05)
        self.task.cancel()
        return self.events


def seqs(events: list[game_pb2.Event]) -> list[int]:
    return [e.seq for e in events]


def wire_bytes(messages: list[Any]) -> list[bytes]:
    return [m.SerializeToString(deterministic=True) for m in messages]


async def assert_acks_in_stream(stub: Stub, table: Table, log: Log, last_seq: int) -> None:
    """Every acknowledged reply's events are in the stored stream, as its seat sees them."""
    streams = {}
    for seat, token in enumerate(table.tokens):
        events = await read_stream(stub, table.game_id, token, after_seq=0, upto=last_seq)
        assert seqs(events) == list(range(1, last_seq + 1))
        streams[seat] = {e.seq: e for e in events}
    for version, reply in log.replies.items():
        seat = log.moves[version][0]
        assert reply.events, f"the reply at version {version} has no events"
        got = [streams[seat][e.seq] for e in reply.events]
        assert wire_bytes(got) == wire_bytes(list(reply.events)), f"version {version}"


# ---- a relay that can lose bytes -----------------------------------------------------------


class Relay:
    """A TCP relay in front of a service: it can swallow either direction, and cut everything.

    Swallowing replies and then killing the service is a reply lost after its commit;
    swallowing requests first is a request that never arrived. Both are deterministic.
    """

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.port = free_port()
        self.hold = {"requests": False, "replies": False}
        self.swallowed = bytearray()  # the requests swallowed, in the order they came
        self._swallowing = asyncio.Event()  # set as a request is swallowed
        self.writers: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)

    async def close(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    def cut(self) -> None:
        """Reset every relayed connection and stop swallowing."""
        for writer in list(self.writers):
            writer.transport.abort()
        self.writers.clear()
        self.hold = {"requests": False, "replies": False}

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            writer.transport.abort()
            return
        pair = (writer, up_writer)
        self.writers.update(pair)
        await asyncio.gather(
            self._pump(reader, up_writer, "requests", pair),
            self._pump(up_reader, writer, "replies", pair),
            return_exceptions=True,
        )
        self.writers.difference_update(pair)

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter,
                    direction: str, pair: tuple[asyncio.StreamWriter, ...]) -> None:
        try:
            while data := await source.read(65536):
                if not self.hold[direction]:
                    sink.write(data)
                    await sink.drain()
                elif direction == "requests":
                    self.swallowed += data
                    self._swallowing.set()
        finally:
            for writer in pair:
                writer.transport.abort()

    async def until_swallowed(self, marker: bytes, bound_s: float) -> None:
        """Wait (at most `bound_s`) until a swallowed request holds `marker`."""
        async with asyncio.timeout(bound_s):
            while marker not in self.swallowed:
                self._swallowing.clear()
                await self._swallowing.wait()
