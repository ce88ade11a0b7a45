"""The store's scripts on a real Redis Cluster whose masters forgot them (SCRIPT FLUSH), also
while a game's slot is being moved to another master (ASK redirections)."""

from __future__ import annotations

from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from risk_service.store.checkpoints import Checkpoint, CheckpointStore, Kept
from risk_service.store.cluster_pipe import ClusterPipe
from risk_service.store.game_store import CommitOutcome, GameStore
from risk_service.store.keys import Keys
from risk_service.store.tournament_store import TournamentKeys, TournamentStore
from risk_testing.cluster import LocalCluster
from tests.store.test_scripts import every_script, first_commit


async def test_every_script_survives_flushed_masters(
    cluster: LocalCluster, cluster_client: RedisCluster
) -> None:
    """Every store operation that runs a script works right after SCRIPT FLUSH on every
    master, through the cluster's connection (the cluster pipe)."""
    pipe = ClusterPipe(cluster.url)
    try:
        store = GameStore(cluster_client, Keys(), pipe)

        async def flush() -> object:
            return await cluster_client.execute_command(
                "SCRIPT", "FLUSH", target_nodes=RedisCluster.PRIMARIES)

        await every_script(store, flush, "g-cluster", "cluster-cup")
    finally:
        await pipe.close()


async def test_scripts_run_on_the_master_a_moving_slot_sends_them_to(
    cluster: LocalCluster, cluster_client: RedisCluster
) -> None:
    """A game's and a tournament's slots half moved to masters that never ran the scripts
    (their keys already there, so Redis answers ASK): load, commit, lease, checkpoints and the
    tournament copy still work, and once the moves finish too."""
    pipe = ClusterPipe(cluster.url)
    keys, label = Keys(), "moving-cup"
    store = GameStore(cluster_client, keys, pipe)
    tournaments = TournamentStore(cluster_client, keys, pipe)
    checkpoints = CheckpointStore(cluster_client, keys, pipe)
    game_id = "g-moving"
    moves = []
    try:
        await first_commit(store, game_id)
        assert await store.lease(game_id, "me", 60_000)
        assert await checkpoints.write(game_id, "c1", 1, [Kept(0, 0, b"at-0"),
                                                          Kept(1, 1, b"at-1")])
        # (every key a script names must exist while its slot moves, or Redis answers
        # TRYAGAIN until the move ends: the label's set of open games too)
        await tournaments.add_games(label, 1, [game_id], now_ms=1, keep_ms=60_000)
        assert await tournaments.copy(label, game_id, 1, b"fact-1", final=False,
                                      keep_ms=60_000) == 1
        for key in (keys.game(game_id), TournamentKeys().feed(label)):
            slot = key_slot(key.encode())
            source = cluster.master_of(key)
            target = next(m for m in cluster.live_masters() if m is not source)
            cluster.begin_migration(slot, source, target)
            moves.append((slot, target))
            cluster.migrate_keys(slot, source, target)
        await cluster_client.execute_command("SCRIPT", "FLUSH",
                                             target_nodes=RedisCluster.PRIMARIES)

        loaded = await store.load(game_id)
        assert loaded is not None and loaded.version == 1
        done = await store.commit(
            game_id, expected_version=1, first_seq=3, snapshot=b"state-2", status=1, now_ms=3,
            events=[b"moved-2"], meta=b"m", log_entry=b"entry-2", request_field="0:r2",
            request_value=b"reply-2", expected_commit_id="c1", commit_id="c2")
        assert done.outcome is CommitOutcome.OK and done.version == 2
        assert await store.extend_lease(game_id, "me", 60_000)
        assert await checkpoints.read(game_id, "c1", 1) == Checkpoint(1, b"at-1", ())
        assert await tournaments.copy(label, game_id, 2, b"fact-2", final=False,
                                      keep_ms=60_000) == 2

        for slot, target in moves:
            cluster.finish_migration(slot, target)
        moves.clear()
        await cluster_client.execute_command("SCRIPT", "FLUSH",
                                             target_nodes=RedisCluster.PRIMARIES)
        loaded = await store.load(game_id)
        assert loaded is not None and (loaded.version, loaded.commit_id) == (2, "c2")
        assert await tournaments.read_feed(label, 0, 10) == [(1, b"fact-1"), (2, b"fact-2")]
        assert await checkpoints.write(game_id, "c2", 1, [Kept(2, 2, b"at-2")])
        assert await checkpoints.read(game_id, "c2", 2) == Checkpoint(2, b"at-2", ())
    finally:
        for slot, target in moves:
            cluster.finish_migration(slot, target)
        await pipe.close()
