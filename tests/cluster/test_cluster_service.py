"""The service's main scenarios on a real Redis Cluster (3 masters, 3 replicas), through two
service processes: a game played to its end and replayed from Redis, a spectator streaming it
from the other process and resuming, racing submits, the game list across index buckets, a
timed game's timeouts (once each), export and verify, and a Legacy campaign.

The tests that need two processes with the default settings share one pair (`pair`) on the
module's cluster, which nothing flushes while they run (`cluster_reader` reads it without
flushing): each makes games of its own and finds them by id. A test with other settings
starts processes of its own."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import cast

import grpc
import pytest
import redis.asyncio
from redis.asyncio.cluster import RedisCluster

from risk_proto.risk.v1 import game_pb2, legacy_pb2, lifecycle_pb2, service_pb2
from risk_rules import audit, wire
from risk_service.store.keys import Keys
from risk_testing.cluster import LocalCluster
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import bearer, classic_options, create_request, error_info
from tests.cluster.conftest import ClusterServiceFactory
from tests.service.rawbot import (
    Log,
    Stub,
    assert_acks_in_stream,
    assert_replays,
    channel,
    legal_from_proto,
    open_table,
    play,
    quick_game,
    read_stream,
    seqs,
    stored,
)
from tests.service.streamcheck import assert_every_version_streamed
from tests.service.test_campaign_service import _play as play_legacy

RACERS = 12


@pytest.fixture(scope="module")
def pair(cluster: LocalCluster, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[ServiceProcess, ServiceProcess]]:
    """Two service processes, A and B, on the module's cluster, started as
    make_cluster_service starts them; stopped after the module."""
    cluster.wait_ready()
    logs = tmp_path_factory.mktemp("cluster-service")
    processes = tuple(ServiceProcess(cluster.url, logs, RISK_REDIS_CLUSTER="true",
                                     RISK_SWEEP_INTERVAL_MS="50") for _ in range(2))
    try:
        for process in processes:
            process.start(timeout=30)
        yield processes[0], processes[1]
    finally:
        for process in processes:
            process.stop()


@pytest.fixture
async def cluster_reader(cluster: LocalCluster) -> AsyncIterator[RedisCluster]:
    """A cluster client, as conftest's `cluster_client` but not flushing the cluster (`pair`
    serves on it all through the module)."""
    cluster.wait_ready()
    client = RedisCluster.from_url(cluster.url)
    yield client
    await client.aclose()


@pytest.fixture
async def stubs(pair: tuple[ServiceProcess, ServiceProcess]
                ) -> AsyncIterator[tuple[Stub, Stub]]:
    """Stubs for the two service processes, A and B."""
    a, b = pair
    channels = [channel(a.target), channel(b.target)]
    yield Stub(channels[0]), Stub(channels[1])
    for ch in channels:
        await ch.close()


def _plain(client: RedisCluster) -> redis.asyncio.Redis:
    """The test helpers type their client as a single Redis; a cluster client answers the
    same single-slot reads (a game's hash and stream)."""
    return cast(redis.asyncio.Redis, client)


async def test_game_played_on_one_process_streams_on_the_other_and_replays(
    stubs: tuple[Stub, Stub], cluster_reader: RedisCluster
) -> None:
    """A bot game to its end through A while a spectator streams it live from B: every event
    once, in order; a resume from the middle gets the rest; Redis holds exactly what the
    engine makes of the acknowledged moves; the export verifies."""
    a, b = stubs
    table = await open_table(a, quick_game(seed=5))
    first = (await b.GetGame(service_pb2.GetGameRequest(game_id=table.game_id))).game.last_seq
    spectator = b.StreamEvents(service_pb2.StreamEventsRequest(game_id=table.game_id))
    seen: list[game_pb2.Event] = []

    async def watch() -> None:
        async for message in spectator:
            seen.append(message.event)

    watcher = asyncio.create_task(watch())
    log = Log(table.start_version)
    await play(a, table, log)
    final = (await a.GetGame(service_pb2.GetGameRequest(game_id=table.game_id))).game
    assert final.HasField("outcome"), "the game ended"
    for _ in range(200):
        if seen and seen[-1].seq == final.last_seq:
            break
        await asyncio.sleep(0.05)
    watcher.cancel()
    assert seqs(seen) == list(range(1, final.last_seq + 1)), "every event once, in order"
    assert first < final.last_seq
    assert_every_version_streamed(seen, final.version)
    resumed = await read_stream(b, table.game_id, None, after_seq=final.last_seq // 2,
                                upto=final.last_seq)
    assert seqs(resumed) == list(range(final.last_seq // 2 + 1, final.last_seq + 1))
    assert_replays(await stored(_plain(cluster_reader), table.game_id), table, log)
    await assert_acks_in_stream(b, table, log, final.last_seq)
    export = await b.ExportGame(service_pb2.ExportGameRequest(game_id=table.game_id),
                                metadata=bearer(table.tokens[0]))
    assert audit.verify(export).actions == len(log.moves)


async def test_racing_submitters_on_two_processes_commit_exactly_one(
    stubs: tuple[Stub, Stub]
) -> None:
    """Same-version submits, half through each process: one commits, the rest are told
    STALE_VERSION with the new version, round after round."""
    a, b = stubs
    table = await open_table(a, create_request(seed=21, players=3, auto_defend_max_dice=True))
    for round_no in range(4):
        before = (await b.GetGame(service_pb2.GetGameRequest(game_id=table.game_id))).game
        seat = before.decision.seats[0]
        legal = await a.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=table.game_id),
            metadata=bearer(table.tokens[seat]))
        claims = [legal_from_proto(e).action for e in legal.actions][:RACERS]
        calls = [
            stubs[i % 2].SubmitAction(service_pb2.SubmitActionRequest(
                game_id=table.game_id, action=wire.action_to_proto("classic", claim),
                expected_version=before.version, request_id=f"race-{round_no}-{i}"),
                metadata=bearer(table.tokens[seat]))
            for i, claim in enumerate(claims)
        ]
        results = await asyncio.gather(*calls, return_exceptions=True)
        won = [r for r in results if isinstance(r, service_pb2.SubmitActionResponse)]
        assert len(won) == 1, results
        for result in results:
            if isinstance(result, grpc.aio.AioRpcError):
                assert result.code() == grpc.StatusCode.ABORTED, result.details()
                assert error_info(result).reason == "STALE_VERSION"
                assert error_info(result).metadata["current_version"] == str(before.version + 1)


async def test_game_list_reads_every_bucket_newest_first(
    stubs: tuple[Stub, Stub], cluster_reader: RedisCluster
) -> None:
    """Games created on both processes land in several index buckets (no single hot key);
    ListGames pages through all of them, newest first, with no game twice or missing."""
    b = stubs[1]
    created = []
    for n in range(24):
        reply = await stubs[n % 2].CreateGame(create_request(seed=n, players=3))
        created.append(reply.game.game_id)
    keys = Keys(buckets=16)
    used = {keys.bucket(game_id) for game_id in created}
    assert len(used) > 4, f"24 games in only {len(used)} buckets"
    for bucket in used:
        assert await cluster_reader.zcard(keys.index("*", 0, bucket)) > 0
    listed: list[str] = []
    token = ""
    while True:
        page = await b.ListGames(service_pb2.ListGamesRequest(page_size=5, page_token=token))
        listed += [g.game_id for g in page.games]
        token = page.next_page_token
        if not token:
            break
    # the other tests' games are listed too: the whole list is newest first with no game
    # twice, and this test's games are all in it
    assert listed == sorted(set(listed), reverse=True)
    assert [g for g in listed if g in set(created)] == sorted(created, reverse=True)


async def test_timed_game_times_out_once_per_deadline_with_two_sweepers(
    stubs: tuple[Stub, Stub], cluster_reader: RedisCluster
) -> None:
    """Two processes sweep the bucketed deadline index: each passed deadline of a timed game
    is applied exactly once (one DecisionTimedOut per decision, versions distinct)."""
    a, _ = stubs
    clock = lifecycle_pb2.ClockOptions(decision_seconds=1)
    created = await a.CreateGame(service_pb2.CreateGameRequest(
        options=classic_options(players=3, auto_defend_max_dice=True), seed=3,
        issue_seat_tokens=True, clock=clock))
    game_id = created.game.game_id
    deadline = time.monotonic() + 30
    while True:  # until two deadlines have passed, one after the other
        entries = await cluster_reader.xrange(Keys().events(game_id))
        events = [game_pb2.Event.FromString(fields[b"e"]) for _id, fields in entries]
        timeouts = [e for e in events if e.WhichOneof("variant") == "lifecycle"
                    and e.lifecycle.WhichOneof("kind") == "decision_timed_out"]
        if len(timeouts) >= 2 or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.05)
    started = [e for e in events if e.WhichOneof("variant") == "lifecycle"
               and e.lifecycle.WhichOneof("kind") == "clock_started"]
    assert len(timeouts) >= 2, "the deadlines passed and were applied"
    assert len({e.version for e in timeouts}) == len(timeouts), "a version holds two timeouts"
    assert len(timeouts) <= len(started), "more timeouts than decisions"
    for late, early in zip(timeouts, started, strict=False):
        assert late.at_ms >= early.at_ms + 1000, "a timeout before its deadline"


async def test_legacy_campaign_game_shares_its_campaigns_slot_and_completes(
    stubs: tuple[Stub, Stub], cluster_reader: RedisCluster
) -> None:
    """A Legacy campaign on the cluster: its game's keys and the campaign record share one
    slot (the game's end writes both in one commit), the game is played through the other
    process to its end, the campaign records it, and ListCampaigns finds it in its bucket."""
    a, b = stubs
    created = await a.CreateCampaign(service_pb2.CreateCampaignRequest(
        players=3, seat_names=["ann", "bob", "cy"],
        factions=[legacy_pb2.FactionChoice(faction=f, power=p)  # type: ignore[arg-type]
                  for f, p in ((1, 1), (2, 3), (4, 7))]))
    campaign_id, tokens = created.campaign.campaign_id, list(created.seat_tokens)
    started = await a.StartCampaignGame(service_pb2.StartCampaignGameRequest(
        campaign_id=campaign_id, seed=11, max_turns=3), metadata=bearer(created.host_token))
    game_id = started.game.game_id
    keys = Keys()
    slots = {await cluster_reader.cluster_keyslot(key)
             for key in (keys.campaign(campaign_id), *keys.game_keys(game_id))}
    assert len(slots) == 1, "the campaign and its game are in one slot"
    steps = await play_legacy(b, game_id, tokens, 1)
    assert steps > 0
    campaign = (await a.GetCampaign(service_pb2.GetCampaignRequest(
        campaign_id=campaign_id))).campaign
    assert campaign.state.games_played == 1 and list(campaign.game_ids) == [game_id]
    listed = await b.ListCampaigns(service_pb2.ListCampaignsRequest())
    assert campaign_id in [c.campaign_id for c in listed.campaigns]



async def test_snapshots_every_four_versions_load_cold_on_the_other_process(
    make_cluster_service: ClusterServiceFactory, cluster_reader: RedisCluster
) -> None:
    """RISK_SNAPSHOT_EVERY=4 on the cluster: a game's snapshot and the log after it share its
    slot, so a load is still one read script. A bot game played through A; before every move
    B (whose cached copy the move before made stale) reads it cold, replaying the entries after
    the last snapshot, and answers GetGame and ListLegalActions exactly as A does. At the end
    Redis holds what the engine makes of the acknowledged moves and the export verifies."""
    procs = [make_cluster_service(RISK_SNAPSHOT_EVERY="4") for _ in range(2)]
    channels = [channel(p.target) for p in procs]
    a, b = Stub(channels[0]), Stub(channels[1])
    try:
        table = await open_table(a, quick_game(seed=13))
        keys = Keys()
        behind: set[int] = set()  # versions - snapshot versions seen in Redis

        async def same_on_both(_moves: int, version: int) -> None:
            raw = cast(dict[bytes, bytes], await cluster_reader.hgetall(keys.game(table.game_id)))
            behind.add(int(raw[b"version"]) - int(raw.get(b"sver", raw[b"version"])))
            get = service_pb2.GetGameRequest(game_id=table.game_id)
            on_a, on_b = await a.GetGame(get), await b.GetGame(get)
            assert on_b == on_a, f"B's cold load differs from A at version {version}"
            seat = on_a.game.decision.seats[0]
            ask = service_pb2.ListLegalActionsRequest(game_id=table.game_id)
            legal_a, legal_b = [await stub.ListLegalActions(
                ask, metadata=bearer(table.tokens[seat])) for stub in (a, b)]
            assert legal_b == legal_a, f"B's legal actions differ at version {version}"

        log = Log(table.start_version)
        await play(a, table, log, before_submit=same_on_both)
        assert len(log.moves) > 12, "the game crossed several snapshots"
        assert behind == {0, 1, 2, 3}, "between snapshots the state was 1 to 3 versions behind"
        assert_replays(await stored(_plain(cluster_reader), table.game_id), table, log)
        export = await b.ExportGame(service_pb2.ExportGameRequest(game_id=table.game_id),
                                    metadata=bearer(table.tokens[0]))
        assert audit.verify(export).actions == len(log.moves)
    finally:
        for ch in channels:
            await ch.close()
