"""Many clients racing on a few games through several service processes, and the ledger that
proves afterwards that nothing was lost or doubled.

Each `Contender` is one client with its own channel to one replica. It loops: read the game
(GetGame as a spectator to learn whose decision it is, then GetGame and ListLegalActions with
that seat's token), let the engine's bot choose from the seat's view, and SubmitAction with the
version it read and a fresh request id. The answers it must cope with:

- ABORTED (another client moved first): re-read and decide again, with a new request id;
- UNAVAILABLE or DEADLINE_EXCEEDED (the reply was lost, the service or Redis went down): send
  the same request again, same id, until it gets a definite answer;
- some requests are sent with a deadline of a few milliseconds, so that their reply is lost
  while the commit may or may not have happened;
- some acknowledged requests are deliberately sent again (at once, or concurrently through both
  replicas): the service must answer from the request record with the very same bytes; and some
  ids are reused for another action, which must be refused.

Every acknowledgement goes into the `Ledger` as (game, version, request id, seat, action).
`Ledger.settle` ends each game by resignation, exports it, checks the export through the engine
(`replay.check_export`) and compares its action log with the acknowledgements: an acknowledged
action missing from the log is *lost*; a logged action that nobody holds an acknowledgement for,
or a request id acknowledged at two versions, is *doubled*.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
import redis.asyncio
from redis.exceptions import RedisError

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc
from risk_rules import wire
from risk_rules.engine import LegalAction, get_ruleset
from risk_service.store.keys import Keys
from risk_testing.rpc import bearer, classic_options, error_info
from tests.reliability.replay import applied_actions, check_export, stored_snapshot

Stub = service_pb2_grpc.RiskServiceStub
RULES = get_ruleset("classic")
TRANSIENT = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
CHANNEL_OPTIONS = (  # reconnect quickly to a restarted service
    ("grpc.initial_reconnect_backoff_ms", 50),
    ("grpc.min_reconnect_backoff_ms", 50),
    ("grpc.max_reconnect_backoff_ms", 250),
)
CALL_TIMEOUT_S = 5.0
GIVE_UP_S = 60.0  # a request still unresolved after this long fails the test


def channel(target: str) -> grpc.aio.Channel:
    return grpc.aio.insecure_channel(target, options=CHANNEL_OPTIONS)


def canonical(action: game_pb2.Action) -> bytes:
    variant, decoded = wire.action_from_proto(action)
    return wire.action_to_proto(variant, decoded).SerializeToString(deterministic=True)


def request_probe(client: redis.asyncio.Redis) -> Callable[[str, str], Awaitable[bool]]:
    """Whether a request id's record is in the store (so its action was committed)."""
    keys = Keys()

    async def committed(game_id: str, request_field: str) -> bool:
        return bool(await client.hexists(keys.requests(game_id), request_field))

    return committed


@dataclass
class Table:
    game_id: str
    host: str
    tokens: list[str]


async def open_tables(stub: Stub, count: int, seed: int, **options: Any) -> list[Table]:
    """`count` started classic games (every seat issued at creation)."""
    fields: dict[str, Any] = {"players": 3, "setup": 2, "auto_place": True,
                              "auto_defend_max_dice": True, "max_turns": 6, **options}
    tables = []
    for n in range(count):
        created = await stub.CreateGame(service_pb2.CreateGameRequest(
            options=classic_options(**fields), seed=seed + n, issue_seat_tokens=True))
        tables.append(Table(created.game.game_id, created.host_token, list(created.seat_tokens)))
    return tables


@dataclass(frozen=True)
class Ack:
    version: int
    request_id: str
    seat: int
    action: bytes  # canonical encoding
    reply: bytes
    at: float  # time.monotonic() when the reply arrived


@dataclass
class Ledger:
    """What the clients were told, and what they did to get there."""

    acks: dict[str, list[Ack]] = field(default_factory=dict)  # game id -> acks
    counts: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    inflight: int = 0  # SubmitAction calls awaiting their answer right now

    def ack(self, game_id: str, ack: Ack) -> None:
        self.acks.setdefault(game_id, []).append(ack)

    def problem(self, text: str) -> None:
        self.problems.append(text)

    async def settle(self, stub: Stub, client: redis.asyncio.Redis, tables: list[Table]
                     ) -> dict[str, int]:
        """End every game by resignation, check it through the engine and against the acks:
        returns the figures (applied, lost, doubled, replayed actions)."""
        figures: Counter[str] = Counter()
        for table in tables:
            await resign_all(stub, table)
            export = await stub.ExportGame(service_pb2.ExportGameRequest(game_id=table.game_id),
                                           metadata=bearer(table.host), timeout=CALL_TIMEOUT_S)
            figures["replayed"] += check_export(export, await stored_snapshot(client,
                                                                              table.game_id))
            logged = {version: (seat, action) for version, seat, action in
                      applied_actions(export)}
            acks = self.acks.get(table.game_id, [])
            by_id: dict[str, set[int]] = {}
            for ack in acks:
                by_id.setdefault(ack.request_id, set()).add(ack.version)
            held = {ack.version: (ack.seat, ack.action) for ack in acks}
            ids_at: dict[int, set[str]] = {}
            for ack in acks:
                ids_at.setdefault(ack.version, set()).add(ack.request_id)
            figures["doubled"] += sum(len(ids) - 1 for ids in ids_at.values())
            figures["applied"] += len(by_id)
            figures["lost"] += sum(1 for v, move in held.items() if logged.get(v) != move)
            figures["doubled"] += sum(1 for v in logged if v not in held)
            figures["doubled"] += sum(1 for versions in by_id.values() if len(versions) > 1)
            figures["logged"] += len(logged)
        return dict(figures)


def summary(counts: Counter[str], figures: dict[str, int]) -> str:
    """The figures of a run, as printed."""
    c = counts
    return (
        f"submitted {c['submit calls']} calls for {c['requests']} requests; applied "
        f"{figures['applied']}, aborted {c['aborted']}; duplicates answered from the record: "
        f"{c['duplicates answered alike']}/{c['duplicates sent']} sent again, "
        f"{c['concurrent pairs answered alike']} concurrent pairs (of {c['concurrent pairs']}; "
        f"the rest both ABORTED), {c['lost replies of committed actions']} lost replies of "
        f"committed actions; reused ids refused {c['reused ids refused']}/"
        f"{c['request ids reused']}; lost replies {c['lost replies']} (resent: "
        f"{c['lost replies resolved: acknowledged on resend']} acknowledged, "
        f"{c['lost replies resolved: not committed']} ABORTED); LOST {figures['lost']}, "
        f"DOUBLED {figures['doubled']}; {figures['replayed']} logged actions replayed")


async def resign_all(stub: Stub, table: Table) -> None:
    """Resign every seat but the last (idempotently, by request id) until the game is over."""
    for seat in range(len(table.tokens) - 1):
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=table.game_id),
                                   timeout=CALL_TIMEOUT_S)).game
        if game.HasField("outcome"):
            return
        try:
            await stub.Resign(service_pb2.ResignRequest(game_id=table.game_id,
                                                        request_id=f"end-{seat}"),
                              metadata=bearer(table.tokens[seat]), timeout=CALL_TIMEOUT_S)
        except grpc.aio.AioRpcError as error:
            if error_info(error).reason != "ALREADY_OUT":  # eliminated in play: nothing to do
                raise


@dataclass
class Behaviour:
    """How a contender misbehaves, as probabilities per acknowledged or sent request."""

    lose_reply: float = 0.08  # send with a deadline of a few ms: the reply is likely lost
    duplicate: float = 0.10  # send an acknowledged request again, as it was
    concurrent_duplicate: float = 0.05  # send it twice at once, through both replicas
    reuse_id: float = 0.03  # send another action under an acknowledged request id


class Contender:
    def __init__(self, number: int, table: Table, stub: Stub, other: Stub, *, ledger: Ledger,
                 behaviour: Behaviour, seed: int,
                 committed: Callable[[str, str], Awaitable[bool]] | None = None) -> None:
        """`stub`: this client's own channel; `other`: one to another replica; `committed`:
        (game id, request field) -> whether the store holds that request's record (a probe
        that tells apart, for the figures, lost replies whose action had been committed)."""
        self.committed = committed
        self.number = number
        self.table = table
        self.stub = stub
        self.other = other
        self.ledger = ledger
        self.behaviour = behaviour
        self.rng = random.Random(seed * 1009 + number)
        self.sent = 0

    async def _retrying(self, make_call: Callable[[], Any]) -> Any:
        """A read, repeated while the service or its store is down."""
        end = time.monotonic() + GIVE_UP_S
        while True:
            try:
                return await make_call()
            except grpc.aio.AioRpcError as error:
                if error.code() not in TRANSIENT or time.monotonic() > end:
                    raise
                self.ledger.counts["read retries"] += 1
                await asyncio.sleep(0.05)

    async def _decide(self) -> tuple[int, int, game_pb2.Action, list[LegalAction]] | None:
        """(version, seat, action, legal) as the deciding seat's bot would play now; None when
        the game is over."""
        request = service_pb2.GetGameRequest(game_id=self.table.game_id)
        while True:
            game = (await self._retrying(lambda: self.stub.GetGame(
                request, timeout=CALL_TIMEOUT_S))).game
            if not game.decision.seats:
                return None
            seat = game.decision.seats[0]
            auth = bearer(self.table.tokens[seat])
            got = await self._retrying(lambda auth=auth: self.stub.GetGame(
                request, metadata=auth, timeout=CALL_TIMEOUT_S))
            listed = await self._retrying(lambda auth=auth: self.stub.ListLegalActions(
                service_pb2.ListLegalActionsRequest(game_id=self.table.game_id), metadata=auth,
                timeout=CALL_TIMEOUT_S))
            if listed.version == got.game.version and listed.seat == seat and listed.actions:
                break  # else the game moved between the reads: read again
        legal = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
                 for e in listed.actions]
        view = wire.from_message(got.board.classic, RULES.view_type)
        action = RULES.bot_choose(view, legal, self.rng.getrandbits(64))
        return listed.version, seat, wire.action_to_proto("classic", action), legal

    async def submit(self, stub: Stub, request: service_pb2.SubmitActionRequest, seat: int, *,
                     lose: bool = False) -> service_pb2.SubmitActionResponse | None:
        """Send until there is a definite answer: the reply, or None for ABORTED. A lost reply
        (UNAVAILABLE, DEADLINE_EXCEEDED) is answered by sending the same request again."""
        auth = bearer(self.table.tokens[seat])
        end = time.monotonic() + GIVE_UP_S
        attempt = 0
        while True:
            timeout = self.rng.uniform(0.0005, 0.004) if lose and attempt == 0 else CALL_TIMEOUT_S
            self.ledger.counts["submit calls"] += 1
            self.ledger.inflight += 1
            try:
                reply: service_pb2.SubmitActionResponse = await stub.SubmitAction(
                    request, metadata=auth, timeout=timeout)
            except grpc.aio.AioRpcError as error:
                code = error.code()
                if code in TRANSIENT and time.monotonic() < end:
                    self.ledger.counts["lost replies" if attempt == 0 else "resends lost"] += 1
                    self.ledger.counts[f"lost: {code.name}"] += 1
                    if attempt == 0 and self.committed is not None:
                        with contextlib.suppress(RedisError):
                            if await self.committed(request.game_id,
                                                    f"{seat}:{request.request_id}"):
                                self.ledger.counts["lost replies of committed actions"] += 1
                    attempt += 1
                    await asyncio.sleep(0.02 if lose and attempt == 1 else 0.1)
                    continue
                if code == grpc.StatusCode.ABORTED:
                    self.ledger.counts["aborted"] += 1
                    if attempt:
                        self.ledger.counts["lost replies resolved: not committed"] += 1
                    return None
                self.ledger.problem(f"{request.request_id}: {code.name} {error.details()}")
                return None
            finally:
                self.ledger.inflight -= 1
            if attempt:
                self.ledger.counts["lost replies resolved: acknowledged on resend"] += 1
            return reply

    async def play(self, stop: asyncio.Event, cap: int) -> None:
        """Contend for the table's decisions until the game ends, `cap` actions are
        acknowledged on it, or `stop` is set."""
        while not stop.is_set():
            if len(self.ledger.acks.get(self.table.game_id, [])) >= cap:
                return
            decided = await self._decide()
            if decided is None:
                return
            version, seat, action, legal = decided
            self.sent += 1
            request = service_pb2.SubmitActionRequest(
                game_id=self.table.game_id, action=action, expected_version=version,
                request_id=f"c{self.number}-{self.sent}")
            self.ledger.counts["requests"] += 1
            b = self.behaviour
            if self.rng.random() < b.concurrent_duplicate:
                await self._twice_at_once(request, seat)
                continue
            reply = await self.submit(self.stub, request, seat,
                                      lose=self.rng.random() < b.lose_reply)
            if reply is None:
                continue
            self._acknowledged(request, seat, reply)
            if self.rng.random() < b.duplicate:
                again = await self.submit(self.stub, request, seat)
                self._same_reply(request, reply, again)
            if self.rng.random() < b.reuse_id:
                await self._reuse(request, seat, legal)

    def _acknowledged(self, request: service_pb2.SubmitActionRequest, seat: int,
                      reply: service_pb2.SubmitActionResponse) -> None:
        if reply.version != request.expected_version + 1:
            self.ledger.problem(f"{request.request_id}: acked version {reply.version} for a "
                                f"request at {request.expected_version}")
        self.ledger.ack(self.table.game_id, Ack(
            reply.version, request.request_id, seat, canonical(request.action),
            reply.SerializeToString(deterministic=True), time.monotonic()))

    def _same_reply(self, request: service_pb2.SubmitActionRequest,
                    first: service_pb2.SubmitActionResponse,
                    again: service_pb2.SubmitActionResponse | None) -> None:
        self.ledger.counts["duplicates sent"] += 1
        if again is not None and again.SerializeToString(
                deterministic=True) == first.SerializeToString(deterministic=True):
            self.ledger.counts["duplicates answered alike"] += 1
        else:
            self.ledger.problem(f"{request.request_id}: a duplicate got another answer")

    async def _twice_at_once(self, request: service_pb2.SubmitActionRequest, seat: int) -> None:
        one, two = await asyncio.gather(self.submit(self.stub, request, seat),
                                        self.submit(self.other, request, seat))
        self.ledger.counts["concurrent pairs"] += 1
        if one is None and two is None:
            return  # both stale: the game had moved on
        if one is None or two is None or one.SerializeToString(
                deterministic=True) != two.SerializeToString(deterministic=True):
            self.ledger.problem(f"{request.request_id}: concurrent duplicates answered apart")
            return
        self.ledger.counts["concurrent pairs answered alike"] += 1
        self._acknowledged(request, seat, one)

    async def _reuse(self, request: service_pb2.SubmitActionRequest, seat: int,
                     legal: list[LegalAction]) -> None:
        others = [e.action for e in legal
                  if canonical(wire.action_to_proto("classic", e.action)) != canonical(
                      request.action)]
        if not others:
            return
        reused = service_pb2.SubmitActionRequest()
        reused.CopyFrom(request)
        reused.action.CopyFrom(wire.action_to_proto("classic", self.rng.choice(others)))
        self.ledger.counts["request ids reused"] += 1
        try:
            await self.stub.SubmitAction(reused, metadata=bearer(self.table.tokens[seat]),
                                         timeout=CALL_TIMEOUT_S)
        except grpc.aio.AioRpcError as error:
            if error.code() == grpc.StatusCode.INVALID_ARGUMENT:
                self.ledger.counts["reused ids refused"] += 1
                return
            if error.code() in TRANSIENT:
                return
            self.ledger.problem(f"{request.request_id} reused: {error.code().name}")
            return
        self.ledger.problem(f"{request.request_id}: reused for another action and accepted")


class Follower:
    """A spectator following one game's stream on its own channel. It resumes after its last
    seq whenever the stream breaks (the service died) or its channel is dropped (`drop`)."""

    def __init__(self, targets: list[str], game_id: str) -> None:
        self.targets = targets
        self.game_id = game_id
        self.events: list[game_pb2.Event] = []
        self.resumes = 0
        self.drops = 0
        self.dropped = False
        self.channel: grpc.aio.Channel | None = None
        self.task: asyncio.Task[None] | None = None
        self.turn = 0

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            target = self.targets[self.turn % len(self.targets)]
            self.channel = channel(target)
            call = Stub(self.channel).StreamEvents(service_pb2.StreamEventsRequest(
                game_id=self.game_id, after_seq=self.last_seq))
            try:
                async for message in call:
                    self.events.append(message.event)
            except grpc.aio.AioRpcError as error:
                if error.code() not in (*TRANSIENT, grpc.StatusCode.CANCELLED):
                    raise
            except asyncio.CancelledError:
                # closing the channel cancels its calls locally; only a drop() may do that
                if not self.dropped:
                    raise
            finally:
                self.dropped = False
                await _close(self.channel)
            self.resumes += 1
            self.turn += 1  # the next attempt goes to the next replica
            await asyncio.sleep(0.05)

    async def drop(self) -> None:
        """Close the channel under the open stream, as a client whose connection dies."""
        if self.channel is not None:
            self.drops += 1
            self.dropped = True
            await self.channel.close()

    async def reached(self, seq: int, timeout: float = 15.0) -> None:
        end = time.monotonic() + timeout
        while self.last_seq < seq:
            assert self.task is not None
            if self.task.done():
                self.task.result()
            assert time.monotonic() < end, f"follower stuck at {self.last_seq} < {seq}"
            await asyncio.sleep(0.02)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(self.task, return_exceptions=True), 5)
        if self.channel is not None:
            await _close(self.channel)


async def _close(channel: grpc.aio.Channel) -> None:
    """Close a channel, but never wait on it for long: a channel whose server was SIGKILLed
    mid-call can take its time, and a test's teardown must not hang on it."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(channel.close(), 5)


def assert_follows(follower: Follower, stored: list[bytes]) -> None:
    """The follower got every stored event exactly once, in order, byte for byte."""
    seqs = [e.seq for e in follower.events]
    assert seqs == list(range(1, len(stored) + 1)), (
        f"gap or duplicate in {follower.game_id}: {_first_break(seqs)}")
    assert [e.SerializeToString(deterministic=True) for e in follower.events] == stored


def _first_break(seqs: list[int]) -> str:
    for index, seq in enumerate(seqs, start=1):
        if seq != index:
            return f"position {index} holds seq {seq}"
    return f"{len(seqs)} events"


async def spectator_events(stub: Stub, game_id: str, upto: int) -> list[bytes]:
    """Every event up to seq `upto`, read afresh by a spectator from seq 0."""
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id, after_seq=0))
    out: list[bytes] = []
    try:
        async with asyncio.timeout(15):
            async for message in call:
                out.append(message.event.SerializeToString(deterministic=True))
                if message.event.seq >= upto:
                    break
    finally:
        call.cancel()
    return out
