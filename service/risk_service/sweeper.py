"""Each service process's background sweeper: deadlines, idle games, expired index entries,
tournament facts and players' facts left uncopied, webhook notices left unqueued, vacation
reservations left unsettled.

Every process runs one; they cooperate through Redis. A due deadline is taken under a short
per-game lease so two processes rarely do the same work, and the commit's version check makes
the timeout land exactly once even when they do. A process killed while holding a lease only
delays the others by the lease's lifetime.

The scan of every waiting and active game (`abandon_idle`, once a minute) is one process's at
a time: the process holding the `idle-scan` turn (`GameStore.take_turn`), which it renews on
every sweep and as it scans, so a deployment of N processes reads its games once a
minute rather than N times. When the holder stops, the turn lapses within `TURN_MS` (or eight
sweeps) and the next process to sweep takes it and scans at once. The scan reads each game's
head (`GameStore.heads`: variant, status, last update, clock settings), not its snapshot, and
loads the whole record only of a stalled game whose bots it looks at.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

import structlog

from risk_proto.risk.v1 import lifecycle_pb2
from risk_rules.engine import get_ruleset
from risk_service.campaigns import CampaignService
from risk_service.operations import ACTIVE, WAITING, GameService, records
from risk_service.store.game_store import GameHead, GameStore
from risk_service.store.unreachable import store_unavailable

if TYPE_CHECKING:
    from risk_service.notify.webhooks import Webhooks

log = structlog.get_logger("sweeper")
LEASE_MS = 5_000
BATCH = 64
# an active game unchanged this long, with a deadline passed as long ago or a bot to move, lost
# that deadline or those bots with a process that died (a bot moves within a second; the
# deadline index is swept every second)
STALLED_MS = 60_000
BOTS_LOOK_MS = 5 * 60_000
IDLE_SCAN = "idle-scan"  # the job whose turn (`Keys.turn`) one process holds at a time
# how long a turn outlives its holder's last renewal, at least (eight sweeps when longer): a
# holder that stopped is followed this long after, and a slow sweep does not lose it
TURN_MS = 2_000
PAGE = 200


class Sweeper:
    def __init__(self, games: GameService, store: GameStore, *, interval_ms: int,
                 idle_scan_ms: int = 60_000, campaigns: CampaignService | None = None,
                 results_sweep_ms: int = 2_000, webhooks: Webhooks | None = None,
                 turn_ms: int | None = None) -> None:
        self.games = games
        self.campaigns = campaigns
        self.store = store
        self.interval = interval_ms / 1000
        self.idle_scan_ms = idle_scan_ms
        self.last_idle_scan = 0.0
        self.results_sweep_ms = results_sweep_ms
        self.last_results_sweep = 0.0
        self.webhooks = webhooks
        self.turn_ms = turn_ms or max(TURN_MS, 8 * interval_ms)

    async def run(self) -> None:
        while True:
            try:
                await self.sweep_once()
            except Exception as exc:
                if store_unavailable(exc):
                    log.warning("sweep_failed", error=str(exc))
                else:
                    log.exception("sweep_crashed")
            await asyncio.sleep(self.interval)

    async def sweep_once(self) -> None:
        now = self.games.clock_ms()
        for game_id in await self.store.due(self.store.keys.deadlines, now, BATCH):
            owner = self.games.process_id
            if not await self.store.lease(game_id, owner, LEASE_MS):
                continue
            try:
                await self.games.enforce_deadline(game_id)
            finally:
                await self.store.release(game_id, owner)
        for member in await self.store.due(self.store.keys.expiring, now, BATCH):
            await self.store.forget(member)
        if self.campaigns is not None:
            for campaign_id in await self.store.due(self.store.keys.campaign_expiring,
                                                    now, BATCH):
                if await self.campaigns.expire_if_due(campaign_id):
                    log.info("campaign_expired", campaign_id=campaign_id)
        if (time.monotonic() - self.last_results_sweep) * 1000 >= self.results_sweep_ms:
            self.last_results_sweep = time.monotonic()
            await self.games.results.sweep()  # tournament facts a crash left uncopied
            await self.games.player_feed.sweep()  # players' facts a crash left uncopied
            await self.games.ratings.sweep()  # rated results a crash left unapplied
            # yearly vacation reservations a StartVacation left unconfirmed when it died
            await self.games.timers.vacations.sweep()
            if self.webhooks is not None:
                await self.webhooks.sweep()  # notices a crash left in their games' hashes
        # (renewed on every sweep by its holder, so it lapses only when the holder stops)
        if (await self._my_turn()
                and (time.monotonic() - self.last_idle_scan) * 1000 >= self.idle_scan_ms):
            self.last_idle_scan = time.monotonic()
            await self.abandon_idle()

    async def _my_turn(self) -> bool:
        return await self.store.take_turn(IDLE_SCAN, self.games.process_id, self.turn_ms)

    async def abandon_idle(self) -> None:
        """Walk the waiting and active games' lists and `_look` at each game's head
        (`GameStore.heads`), not its snapshot. Called with the scan's turn held (sweep_once);
        it renews the turn whenever a quarter of its life has passed, and stops when another
        process took it (this one failed to renew it in time)."""
        stalled_before = self.games.clock_ms() - STALLED_MS
        renewed = time.monotonic()
        for status in (WAITING, ACTIVE):
            cutoff = self.games.idle_cutoff(status)
            cursor = ""
            while ids := await self.store.page("*", status, cursor, PAGE):
                for head in await self.store.heads(ids):
                    if (time.monotonic() - renewed) * 1000 > self.turn_ms / 4:
                        if not await self._my_turn():
                            return
                        renewed = time.monotonic()
                    if head is not None:  # (None: expired, its index entries not yet)
                        await self._look(head, status, cutoff, stalled_before)
                cursor = ids[-1]

    async def _look(self, head: GameHead, listed: int, cutoff: int, stalled_before: int
                    ) -> None:
        """Move a game whose status moved on from `listed` (the list it was found in) to its
        status's list, abandon it when idle past `cutoff`, and restart what a dead process
        left stopped in it (`_restart_stalled`)."""
        if head.status != listed:
            # its status moved on and the list did not (the commit's IndexGame died with its
            # process): the game goes to its status's list
            await self.store.index(head.game_id, head.variant, listed, head.status)
        elif head.updated_ms <= cutoff:
            await self.games.abandon_if_idle(head.game_id)
        elif listed == ACTIVE and head.updated_ms <= stalled_before:
            await self._restart_stalled(head, stalled_before)

    async def _restart_stalled(self, head: GameHead, stalled_before: int) -> None:
        """A game unchanged for STALLED_MS whose commit's effects a process that died did not
        carry out (operations/effects.py): its deadline, passed that long ago and still the
        game's, goes back in the deadline index (the next sweep enforces it); a bot to decide
        gets its bots played (one process plays them: `Timers.start_bots` takes a lease)."""
        meta = lifecycle_pb2.GameMeta.FromString(head.meta)
        if meta.deadline_ms and meta.deadline_ms <= stalled_before:
            await self.store.schedule(head.game_id, meta.deadline_ms)
        # the bots of a game one process looked at lately are left alone: the state's decode is
        # paid once per BOTS_LOOK_MS across the processes, and a game whose bots fail is not
        # restarted every minute
        if not any(meta.bot_seats) or not await self.store.first_look_at_bots(head.game_id,
                                                                             BOTS_LOOK_MS):
            return
        # the whole record, for the decision (a listed record has no log tail: between
        # snapshots its stored decision is the game's, the snapshot's state is not)
        for record in await self.store.load_many([head.game_id]):
            state, stored = records.listed(record)
            seats = (stored if stored is not None
                     else get_ruleset(record.variant).decision(state)).seats
            if seats and meta.bot_seats[seats[0]]:
                self.games.timers.start_bots(record.game_id)
