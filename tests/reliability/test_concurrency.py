"""Concurrency: many clients on two replicas race for a few games; nothing is lost or doubled.

24 clients, each with its own channel, half to each of two service processes on one Redis,
contend for the decisions of 3 classic games (see `contenders.py`): they re-read and decide
again on ABORTED, resend the same request id when a reply is lost (some calls get a deadline
of a few milliseconds on purpose), send acknowledged requests again (one after the other, or
both replicas at once) and reuse ids for other actions. Afterwards each game is ended by
resignation and exported: its log replays through the engine to the stored snapshot, and it
holds exactly the acknowledged actions. A spectator per game on each replica got every event
once, in order.
"""

from __future__ import annotations

import asyncio
import time

import redis.asyncio

from risk_proto.risk.v1 import service_pb2
from risk_testing.harness import ServiceFactory
from tests.reliability.contenders import (
    Behaviour,
    Contender,
    Follower,
    Ledger,
    Stub,
    assert_follows,
    channel,
    open_tables,
    request_probe,
    spectator_events,
    summary,
)

CLIENTS = 24
GAMES = 3
CAP = 160  # acknowledged actions per game before the clients stop (if the game has not ended)


async def test_racing_clients_on_two_replicas_lose_and_double_nothing(
    make_service: ServiceFactory, redis_client: redis.asyncio.Redis
) -> None:
    """24 clients x 2 replicas x 3 games with lost replies and duplicate ids: log == acks."""
    replicas = [make_service(), make_service()]
    targets = [r.target for r in replicas]
    admin = [channel(t) for t in targets]
    stubs = [Stub(ch) for ch in admin]
    tables = await open_tables(stubs[0], GAMES, seed=4000, max_turns=12)
    followers = [Follower([t], table.game_id) for table in tables for t in targets]
    for follower in followers:
        follower.start()
    ledger = Ledger()
    own = [channel(targets[n % 2]) for n in range(CLIENTS)]
    contenders = [Contender(n, tables[n % GAMES], Stub(own[n]), stubs[(n + 1) % 2],
                            ledger=ledger, behaviour=Behaviour(), seed=7,
                            committed=request_probe(redis_client)) for n in range(CLIENTS)]
    started = time.monotonic()
    await asyncio.gather(*(c.play(asyncio.Event(), CAP) for c in contenders))
    played = time.monotonic() - started
    figures = await ledger.settle(stubs[0], redis_client, tables)
    for table in tables:
        final = (await stubs[1].GetGame(_get(table.game_id))).game.last_seq
        stored = await spectator_events(stubs[1], table.game_id, final)
        for follower in followers:
            if follower.game_id == table.game_id:
                await follower.reached(final)
                assert_follows(follower, stored)
    for follower in followers:
        await follower.stop()
    for ch in (*own, *admin):
        await ch.close()

    c = ledger.counts
    print(f"\nconcurrency: {CLIENTS} clients, 2 replicas, {GAMES} games, {played:.1f} s: "
          + summary(c, figures))
    assert not ledger.problems, ledger.problems[:10]
    assert figures["lost"] == 0 and figures["doubled"] == 0
    assert figures["applied"] == figures["logged"] > GAMES * 30
    assert c["aborted"] > 0 and c["lost replies"] > 0
    assert c["duplicates answered alike"] == c["duplicates sent"] > 0
    assert c["concurrent pairs answered alike"] > 0 and c["reused ids refused"] > 0


def _get(game_id: str) -> service_pb2.GetGameRequest:
    return service_pb2.GetGameRequest(game_id=game_id)
