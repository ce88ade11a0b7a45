"""StreamResults waits on the feed hub, not on a timer: open results streams that have caught up
cost Redis no command while nothing happens, and a new fact reaches them over the hub's shared
read (issue 32, item 3). The same checks on a Redis Cluster are in
tests/cluster/test_results_feed.py."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import grpc
import redis.asyncio

from risk_proto.risk.v1 import service_pb2, tournament_pb2
from risk_testing.rpc import bearer
from tests.tournament.conftest import ServiceFactory
from tests.tournament.players import Stub, player, quick_options

# the service's own timed work (sweeps, health checks) kept out of the measured window
QUIET = {"RISK_SWEEP_INTERVAL_MS": "60000", "RISK_RESULTS_SWEEP_MS": "60000",
         "RISK_HEALTH_INTERVAL_S": "60", "RISK_EVENT_DIRECTOR_MS": "60000",
         "RISK_MATCH_INTERVAL_MS": "60000"}
STREAMS = 20
WINDOW_S = 2.0
# what Redis may still be asked in the window whatever the streams do: a feed reader renewing
# its XREAD BLOCK (every 5 s) and the like; polling streams asked STREAMS x 5 a second
IDLE_BOUND = 8


def round_of_players(label: str) -> tournament_pb2.CreateRoundRequest:
    """One table of three players: nothing moves until a player does."""
    return tournament_pb2.CreateRoundRequest(
        request_id="r1", tournament=label, round=1, options=quick_options(),
        games=[tournament_pb2.RoundTable(seats=[player("ann"), player("bob"),
                                                player("cy")])])


async def caught_up(stub: Stub, label: str, count: int
                    ) -> list[grpc.aio.UnaryStreamCall]:  # type: ignore[type-arg]
    """`count` results streams of `label`, each read to its created and started facts."""
    calls = [stub.StreamResults(tournament_pb2.StreamResultsRequest(tournament=label))
             for _ in range(count)]
    for call in calls:
        kinds = [(await asyncio.wait_for(call.read(), 10)).fact.WhichOneof("kind")
                 for _ in range(2)]
        assert kinds == ["created", "started"]
    return calls


async def assert_no_commands(sample: Callable[[], Awaitable[int]], asked_per_sample: int,
                             window_s: float, bound: int) -> int:
    """Sample Redis' command count until `window_s` has passed, failing as soon as it grew by
    more than `bound` beyond the sampling's own commands; the growth seen. The window opens
    once two samples 0.2 s apart agree (at most 5 s): a stream the client has read to the end
    may still be making its last catch-up read on the server (a loaded run saw 2 reads in
    the first 0.1 s); a service that kept polling would never agree, and the window follows
    anyway."""
    first = await sample()
    settle_by = time.monotonic() + 5
    while time.monotonic() < settle_by:
        await asyncio.sleep(0.2)
        latest = await sample()
        quiet = latest - asked_per_sample == first
        first = latest
        if quiet:
            break
    samples, grown = 0, 0
    deadline = time.monotonic() + window_s
    while time.monotonic() < deadline:
        await asyncio.sleep(0.1)  # the sampling's pace: the window is the deadline
        samples += 1
        grown = await sample() - first - samples * asked_per_sample
        assert grown <= bound, f"{grown} Redis commands in {samples / 10:.1f} s of idle streams"
    return grown


async def commands_processed(client: redis.asyncio.Redis) -> int:
    return int((await client.info("stats"))["total_commands_processed"])


async def xrange_calls(client: redis.asyncio.Redis) -> int:
    stats = await client.info("commandstats")
    return int(stats.get("cmdstat_xrange", {}).get("calls", 0))


async def test_idle_results_streams_cost_redis_no_commands(
        start_service: ServiceFactory, redis_client: redis.asyncio.Redis) -> None:
    """Twenty StreamResults of one tournament, caught up and left open: over two seconds
    Redis processes no more commands than with none open (a poll every 0.2 s per stream
    would be 200)."""
    service = start_service(**QUIET)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        await stub.CreateRound(round_of_players("idle-cup"))
        calls = await caught_up(stub, "idle-cup", STREAMS)
        await assert_no_commands(lambda: commands_processed(redis_client), 1, WINDOW_S,
                                 IDLE_BOUND)
        for call in calls:
            assert not call.done()
            call.cancel()


async def test_a_new_fact_reaches_a_caught_up_results_stream_live(
        start_service: ServiceFactory, redis_client: redis.asyncio.Redis) -> None:
    """A stream read to the end of the feed gets the fact of a resignation made after that,
    within seconds, and no stream read the feed for it (no XRANGE: it came over the feed
    hub's shared XREAD)."""
    service = start_service(**QUIET)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        created = await stub.CreateRound(round_of_players("live-cup"))
        game = created.games[0]
        (call,) = await caught_up(stub, "live-cup", 1)
        reads_before = await xrange_calls(redis_client)
        await stub.Resign(service_pb2.ResignRequest(game_id=game.game_id, request_id="bye"),
                          metadata=bearer(game.seat_tokens[0]))
        fact = (await asyncio.wait_for(call.read(), 10)).fact
        assert (fact.seq, fact.WhichOneof("kind"), fact.game_id) == (
            3, "seat_resigned", game.game_id)
        assert fact.seat_resigned.seat == 0
        assert await xrange_calls(redis_client) == reads_before
        call.cancel()
