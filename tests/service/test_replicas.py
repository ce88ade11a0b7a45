"""Two service processes on one Redis behave as one service: races, fan-out, idempotency.

The tests share one pair of replicas on the session Redis (`pair`), keys under a prefix of
their own: each plays a game of its own, none stops either replica or flushes Redis, and
what a test reads of Redis directly it reads under that prefix."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import AsyncIterator
from typing import cast

import grpc
import pytest
import redis.asyncio

from risk_proto.risk.v1 import classic_pb2, game_pb2, service_pb2
from risk_rules import wire
from risk_rules.engine.classic.model import ClaimTerritory
from risk_service.store.keys import Keys
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import bearer, create_request, error_info, rpc_error
from tests.service.rawbot import (
    Log,
    Stored,
    Stub,
    Table,
    assert_replays,
    channel,
    legal_from_proto,
    open_table,
    play,
    quick_game,
    read_stream,
    seqs,
    summary,
    wire_bytes,
)
from tests.serving import module_pair, unflushed_redis
from tests.stored_state import _record, state_of

Classic = classic_pb2.ClassicAction
RACERS = 16
ROUNDS = 8
PREFIX = "service-replicas"
KEYS = Keys(PREFIX)


pair = module_pair(PREFIX)
client = unflushed_redis  # a client of the session Redis that does not flush it




@pytest.fixture
async def stubs(
    pair: tuple[ServiceProcess, ServiceProcess]
) -> AsyncIterator[tuple[Stub, Stub]]:
    """Stubs for the two replicas, A and B, both connected."""
    a, b = pair
    channels = [channel(a.target), channel(b.target)]
    pair = (Stub(channels[0]), Stub(channels[1]))
    for stub in pair:
        await stub.Ping(service_pb2.PingRequest())
    yield pair
    for ch in channels:
        await ch.close()


def _claim(territory: int) -> game_pb2.Action:
    return game_pb2.Action(
        classic=Classic(claim_territory=Classic.ClaimTerritory(territory=territory))
    )


def _submit(  # noqa: PLR0917 - positional, in the order of the request it builds
    stub: Stub, table: Table, seat: int, action: game_pb2.Action, version: int, request_id: str
) -> grpc.aio.UnaryUnaryCall:
    return stub.SubmitAction(
        service_pb2.SubmitActionRequest(
            game_id=table.game_id, action=action, expected_version=version,
            request_id=request_id,
        ),
        metadata=bearer(table.tokens[seat]),
    )


async def _request_fields(client: redis.asyncio.Redis, game_id: str) -> set[str]:
    return {f.decode() for f in await client.hkeys(KEYS.requests(game_id))}


async def stored(client: redis.asyncio.Redis, game_id: str) -> Stored:
    """rawbot.stored (the game's hash and event stream as they are in Redis, and the state it
    is at) for the keys under the module's prefix, where rawbot's reads the default one."""
    raw = cast(dict[bytes, bytes], await client.hgetall(KEYS.game(game_id)))
    assert raw, f"game {game_id} is not in Redis"
    entries = await client.xrange(KEYS.events(game_id))
    events = [game_pb2.Event.FromString(fields[b"e"]) for _id, fields in entries]
    start = raw.get(b"sidx")
    tail = cast(list[bytes], await client.lrange(KEYS.log(game_id), int(start), -1)) \
        if start is not None else []
    return Stored(int(raw[b"version"]), int(raw[b"seq"]),
                  state_of(_record(game_id, raw, tail))[1], events)


async def test_racing_submitters_on_two_replicas_commit_exactly_one(
    stubs: tuple[Stub, Stub], client: redis.asyncio.Redis
) -> None:
    """16 same-version submits, half through each replica: one OK, the rest STALE_VERSION."""
    a, b = stubs
    table = await open_table(a, create_request(seed=21, players=3, auto_defend_max_dice=True))
    winners_by_replica = [0, 0]
    remembered = set()
    for round_no in range(ROUNDS):
        before = await summary(b, table.game_id)
        seat = before.decision.seats[0]
        legal = await a.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=table.game_id),
            metadata=bearer(table.tokens[seat]),
        )
        assert legal.version == before.version
        claims = [legal_from_proto(e).action for e in legal.actions]
        assert all(isinstance(c, ClaimTerritory) for c in claims)
        # even rounds: 16 different legal claims; odd rounds: the same claim 16 times
        picks = claims[:RACERS] if round_no % 2 == 0 else [claims[round_no]] * RACERS
        actions = [wire.action_to_proto("classic", c) for c in picks]
        ids = [f"race-{round_no}-{i}" for i in range(RACERS)]
        calls = [
            _submit(stubs[(i + round_no) % 2], table, seat, actions[i], before.version, ids[i])
            for i in range(RACERS)
        ]
        results = await asyncio.gather(*calls, return_exceptions=True)

        ok = [i for i, r in enumerate(results) if isinstance(r, service_pb2.SubmitActionResponse)]
        assert len(ok) == 1, results
        (won,) = ok
        winners_by_replica[(won + round_no) % 2] += 1
        for i, result in enumerate(results):
            if i == won:
                continue
            assert isinstance(result, grpc.aio.AioRpcError), result
            assert result.code() == grpc.StatusCode.ABORTED, result.details()
            info = error_info(result)
            assert info.reason == "STALE_VERSION"
            assert info.metadata["current_version"] == str(before.version + 1)
        reply = results[won]
        assert isinstance(reply, service_pb2.SubmitActionResponse)
        assert reply.version == before.version + 1
        claimed = reply.events[0].classic.territory_claimed
        assert (claimed.seat, claimed.territory) == (seat, picks[won].territory)

        # both replicas see one more version and exactly that reply's events after it
        for stub in stubs:
            after = await summary(stub, table.game_id)
            assert after.version == before.version + 1
            assert after.last_seq == before.last_seq + len(reply.events)
        streamed = await read_stream(a, table.game_id, table.tokens[seat],
                                     after_seq=before.last_seq,
                                     upto=before.last_seq + len(reply.events))
        assert wire_bytes(streamed) == wire_bytes(list(reply.events))
        held = await stored(client, table.game_id)
        assert (held.version, len(held.events)) == (before.version + 1, held.last_seq)
        # only the winner's request id is remembered; the 15 rejections are not
        remembered.add(f"{seat}:{ids[won]}")
        assert await _request_fields(client, table.game_id) == remembered
    print(f"\nrace: {ROUNDS} rounds x {RACERS} submitters, "
          f"winners by replica A/B = {winners_by_replica[0]}/{winners_by_replica[1]}")


async def test_subscriber_on_one_replica_sees_moves_made_through_the_other(
    stubs: tuple[Stub, Stub],
) -> None:
    """A stream on replica A delivers every move submitted through B, in order, promptly."""
    a, b = stubs
    table = await open_table(a, quick_game(seed=33, max_turns=4))
    start = await summary(a, table.game_id)
    call = a.StreamEvents(service_pb2.StreamEventsRequest(game_id=table.game_id, after_seq=0))
    seen: list[game_pb2.Event] = []
    arrived: dict[int, float] = {}
    caught_up = asyncio.Event()
    progress = asyncio.Condition()

    async def follow() -> None:
        async for message in call:
            seen.append(message.event)
            arrived[message.event.seq] = time.monotonic()
            if message.event.seq >= start.last_seq:
                caught_up.set()
            async with progress:
                progress.notify_all()

    follower = asyncio.create_task(follow())
    await asyncio.wait_for(caught_up.wait(), 5)  # the backlog is in: the subscription is live

    log = Log(table.start_version)
    lags: list[float] = []
    sent: dict[int, float] = {}

    async def stamp(_move: int, version: int) -> None:
        sent[version] = time.monotonic()

    try:
        while True:
            before = len(log.moves)
            await play(b, table, log, moves=1, before_submit=stamp)
            if len(log.moves) == before:
                break  # the game is over
            reply = log.replies[log.version]
            last = reply.events[-1].seq
            async with progress:
                await asyncio.wait_for(
                    progress.wait_for(lambda last=last: bool(seen) and seen[-1].seq >= last), 2.0
                )
            lags.append(arrived[last] - sent[log.version - 1])
    finally:
        call.cancel()
        await asyncio.gather(follower, return_exceptions=True)

    final = await summary(b, table.game_id)
    assert final.outcome.reason == "turn_cap"
    assert seqs(seen) == list(range(1, final.last_seq + 1))
    # the live stream equals a spectator's read of the stored log through B, byte for byte
    backlog = await read_stream(b, table.game_id, None, after_seq=0, upto=final.last_seq)
    assert wire_bytes(seen) == wire_bytes(backlog)
    print(f"\nfan-out across replicas: {len(lags)} moves, {final.last_seq} events, "
          f"submit-to-delivery median {statistics.median(lags) * 1000:.1f} ms, "
          f"max {max(lags) * 1000:.1f} ms")


async def test_request_ids_apply_once_across_replicas(
    stubs: tuple[Stub, Stub], client: redis.asyncio.Redis
) -> None:
    """Retries of one request id on either replica replay one stored reply; scoping, reuse."""
    a, b = stubs
    table = await open_table(a, create_request(seed=45, players=3, auto_defend_max_dice=True))
    game_id = table.game_id

    async def state() -> service_pb2.GameSummary:
        one, two = await summary(a, game_id), await summary(b, game_id)
        assert one == two
        return one

    async def seat_and_claims() -> tuple[int, list[int], int]:
        game = await state()
        seat = game.decision.seats[0]
        legal = await b.ListLegalActions(service_pb2.ListLegalActionsRequest(game_id=game_id),
                                         metadata=bearer(table.tokens[seat]))
        return seat, [e.action.classic.claim_territory.territory for e in legal.actions], \
            game.version

    # sequential retries at the old version (answered from the request record after the version
    # check) and at the current one (the move is no longer legal there; the record answers too)
    s0, free, v0 = await seat_and_claims()
    first = await _submit(a, table, s0, _claim(free[0]), v0, "dup-1")
    retries = [
        await _submit(b, table, s0, _claim(free[0]), v0, "dup-1"),
        await _submit(a, table, s0, _claim(free[0]), v0, "dup-1"),
        await _submit(b, table, s0, _claim(free[0]), v0 + 1, "dup-1"),
        await _submit(a, table, s0, _claim(free[0]), v0 + 1, "dup-1"),
    ]
    assert wire_bytes(retries) == wire_bytes([first] * len(retries))
    game = await state()
    assert (game.version, game.last_seq) == (v0 + 1, first.events[-1].seq)

    # the same id with another action: REQUEST_ID_REUSED, at the old and at the current version
    for stub, version in ((a, v0), (b, v0), (a, v0 + 1), (b, v0 + 1)):
        error = await rpc_error(_submit(stub, table, s0, _claim(free[1]), version, "dup-1"))
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
        assert error_info(error).reason == "REQUEST_ID_REUSED"
    assert (await state()).version == v0 + 1

    # request ids are scoped to the seat: the next seat may use "dup-1" for its own move
    s1, free, v1 = await seat_and_claims()
    assert s1 != s0
    second = await _submit(b, table, s1, _claim(free[0]), v1, "dup-1")
    assert second.version == v1 + 1
    assert second.events[0].classic.territory_claimed.seat == s1

    # rejections are not remembered: an illegal or stale attempt, or one out of turn, leaves
    # its id free for the seat's next legal move
    s2, free, v2 = await seat_and_claims()
    taken = first.events[0].classic.territory_claimed.territory
    illegal = await rpc_error(_submit(a, table, s2, _claim(taken), v2, "rej-1"))
    assert illegal.code() == grpc.StatusCode.FAILED_PRECONDITION
    stale = await rpc_error(_submit(b, table, s2, _claim(free[0]), v2 - 1, "rej-1"))
    assert error_info(stale).reason == "STALE_VERSION"
    not_turn = await rpc_error(_submit(b, table, s0, _claim(free[0]), v2, "rej-2"))
    assert error_info(not_turn).reason == "NOT_YOUR_TURN"
    assert await _request_fields(client, game_id) == {f"{s0}:dup-1", f"{s1}:dup-1"}
    assert (await _submit(a, table, s2, _claim(free[0]), v2, "rej-1")).version == v2 + 1
    s0_again, free, v3 = await seat_and_claims()
    assert s0_again == s0
    assert (await _submit(b, table, s0, _claim(free[0]), v3, "rej-2")).version == v3 + 1

    # concurrent duplicates, half through each replica: one move, 16 identical replies
    seat, free, v4 = await seat_and_claims()
    before = await state()
    results = await asyncio.gather(*[
        _submit((a, b)[i % 2], table, seat, _claim(free[0]), v4, "burst") for i in range(RACERS)
    ])
    assert len(set(wire_bytes(list(results)))) == 1
    after = await state()
    assert after.version == v4 + 1
    assert after.last_seq == before.last_seq + len(results[0].events)
    held = await stored(client, game_id)
    assert (held.version, len(held.events)) == (v4 + 1, after.last_seq)


async def test_replicas_play_a_game_together(
    stubs: tuple[Stub, Stub], client: redis.asyncio.Redis
) -> None:
    """Alternating replicas move by move, a bot game ends and Redis equals the engine replay."""
    table = await open_table(stubs[0], quick_game(seed=51, max_turns=4))
    log = Log(table.start_version)
    turn = 0
    while True:
        played = len(log.moves)
        await play(stubs[turn % 2], table, log, moves=1)
        if len(log.moves) == played:
            break
        turn += 1
    assert_replays(await stored(client, table.game_id), table, log)
