"""The results feed of a tournament: copying its games' facts into the label's feed, and
StreamResults, which reads the feed from any position.

Guarantees (docs/tournaments.md): every fact a game's commit recorded reaches the feed, once,
and a game's facts in the order the game made them. The commit writes the fact into the game's
own hash; right after it, the committing process copies the game's facts not yet copied
(`sync`); if it dies first, the sweeper of any process does the same for every game of a
label still open (`sweep`). A copy is one script on the label's slot that appends fact n of a
game only when n - 1 facts of it are in the feed, so copies racing, or repeated after a
crash, add each fact once. The feed is numbered 1, 2, 3 ... without gaps, and a reader resumes
after the last seq it saw: backlog, then new facts as they come, nothing missed or repeated.
Facts of different games appear in the order they were copied, which is not always the order
they were committed in.

A stream that has caught up waits on the process's feed hub (feed.py), which follows the
label's feed as it follows a game's events: one subscription per stream, the feed read by the
hub's shared readers (XREAD BLOCK; on a cluster, the doorbell the copy script rings), so an
idle stream costs Redis nothing and a new fact reaches every open stream of the label from
one read.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import structlog

from risk_proto.risk.v1 import lifecycle_pb2, tournament_pb2
from risk_service.errors import Code, ServiceError, ServiceReason, malformed
from risk_service.feed import FeedHub, entries_after
from risk_service.operations.limits import Limits
from risk_service.operations.tournament_facts import FINAL_KINDS, Fact
from risk_service.store.tournament_store import TournamentStore
from risk_service.store.unreachable import store_unavailable

log = structlog.get_logger("tournaments")

FEED_PAGE = 128  # facts read from the feed at a time
LABEL_IDLE_MS = 3600 * 1000  # a label without open games and rounds this long is not swept


def check_label(label: str) -> None:
    if not 1 <= len(label) <= 64 or not all(c.isascii() and (c.isalnum() or c in "._-")
                                            for c in label):
        raise malformed("tournament must be 1 to 64 characters of A-Z a-z 0-9 . _ -")


def unknown_tournament(label: str) -> ServiceError:
    return ServiceError(Code.NOT_FOUND, ServiceReason.TOURNAMENT_NOT_FOUND,
                        f"no round was created under tournament {label!r}")


class Results:
    def __init__(self, store: TournamentStore, hub: FeedHub, *, clock_ms: Callable[[], int],
                 limits: Limits, resume: Callable[[str], Awaitable[None]]) -> None:
        self.store = store
        self.hub = hub
        self.resume = resume  # restart an open game's bots if nobody plays them (a crash)
        self.clock_ms = clock_ms
        self.limits = limits

    async def sync(self, game_id: str, label: str) -> int:
        """Copy the game's facts not yet in the feed; how many were copied."""
        raw = await self.store.game_meta(game_id)
        if raw is None:
            return 0
        total = lifecycle_pb2.GameMeta.FromString(raw).facts
        have = await self.store.copied(label, game_id)
        copied = 0
        for n, data in enumerate(await self.store.game_facts(game_id, have + 1, total),
                                 start=have + 1):
            if data is None:  # written by a commit that is not there any more (expired)
                break
            final = Fact.FromString(data).WhichOneof("kind") in FINAL_KINDS
            if await self.store.copy(label, game_id, n, data, final=final,
                                     keep_ms=self.limits.retention_ms):
                copied += 1
        return copied

    async def sync_after_commit(self, game_id: str, label: str) -> None:
        """`sync` on the commit path: a failure is left to the sweeper, never the caller's."""
        try:
            await self.sync(game_id, label)
        except Exception as exc:
            if not store_unavailable(exc):  # a cluster mid-failover raises more than RedisError
                raise
            log.warning("results_copy_deferred", game_id=game_id, tournament=label,
                        error=str(exc))

    async def sweep(self) -> int:
        """Copy what any crash left behind, for every label with games still open, and make
        sure their bots play on."""
        copied = 0
        for label in await self.store.labels():
            for game_id in await self.store.open_games(label):
                copied += await self.sync(game_id, label)
                await self.resume(game_id)
            await self.store.drop_label_if_idle(label, self.clock_ms() - LABEL_IDLE_MS)
        if copied:
            log.info("results_copied_by_sweeper", facts=copied)
        return copied

    async def stream(self, request: tournament_pb2.StreamResultsRequest
                     ) -> AsyncIterator[bytes]:
        """Serialised StreamResultsResponse messages: every fact after `after_seq`, then new
        ones as they are copied (the stream does not end by itself; feed.entries_after)."""
        label = request.tournament
        check_label(label)
        if not await self.store.exists(label):
            raise unknown_tournament(label)
        facts = entries_after(self.hub, f"t:{label}", self.store.tkeys.feed(label),
                              lambda after, count: self.store.read_feed(label, after, count),
                              request.after_seq, page=FEED_PAGE,
                              limit=self.limits.subscriber_buffer)
        async for seq, data in facts:
            yield _response(seq, data)


def _response(seq: int, data: bytes) -> bytes:
    """A serialised StreamResultsResponse of the fact stored as `data` at `seq`."""
    fact = Fact.FromString(data)
    fact.seq = seq
    return tournament_pb2.StreamResultsResponse(fact=fact).SerializeToString(deterministic=True)
