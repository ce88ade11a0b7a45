"""The operations' limits: buffers, page sizes, retention and idle periods, the cache's size
and the tokens that organise or create. One frozen value, built from the settings by
`server.app`."""

from __future__ import annotations

from dataclasses import dataclass

from risk_service.operations.records import WAITING


@dataclass(frozen=True, slots=True)
class Limits:
    subscriber_buffer: int = 1024
    max_page_size: int = 200
    retention_ms: int = 30 * 24 * 3600 * 1000
    abandon_after_ms: int = 7 * 24 * 3600 * 1000
    # a game that never started: abandoned after this long without a join (or start), and
    # then kept this long only (there is no play to audit); bounds what a flood of CreateGame
    # calls can leave in Redis
    unstarted_expire_ms: int = 24 * 3600 * 1000
    unstarted_retention_ms: int = 3600 * 1000
    # a campaign with no game started, finished or decided for this long is deleted; a
    # complete campaign is kept `retention_ms` after its last reward decision
    campaign_idle_ms: int = 90 * 24 * 3600 * 1000
    # SHA-256 digests of the organiser tokens (tournament servers)
    organiser_digests: tuple[bytes, ...] = ()
    # organiser tokens count only on calls with a client certificate (mutual TLS is configured)
    organiser_needs_client_cert: bool = False
    # games kept decoded in the process cache (0: no cache)
    cached_games: int = 4096
    # CreateGame and CreateCampaign need a token whose digest is one of these (empty: anyone
    # may create); ListGames ends a page early, with a page token, past this much time
    creator_digests: tuple[bytes, ...] = ()
    list_budget_s: float = 0.02
    # CreateRound: the most games in one round
    max_round_games: int = 64
    # what anyone may make the service play (docs/tournaments.md, "What a round may cost"):
    # a round's tables with no player seat; the games with no person's seat one process plays
    # at once (a round that would pass it is refused); the least time between two bot moves
    # of such a game; and the largest turn cap a game's options may ask for
    max_round_bot_tables: int = 8
    max_bot_only_games: int = 16
    bot_only_move_ms: int = 100
    max_turns: int = 1000
    # a commit writes the whole state only every this many versions (and at every lifecycle
    # step, status change and end); in between it appends the action to the log, and a load
    # replays the entries after the snapshot (1: a snapshot on every commit)
    snapshot_every: int = 1
    # a replay (GetGame's at_version) keeps a game's state every this many versions in Redis
    replay_checkpoint_every: int = 32
    # days a player may be on vacation across all their games in a calendar year (UTC), on
    # top of each game's own vacation_days (operations/vacation.py); 0: no yearly cap
    vacation_days_per_year: int = 30
    # ratings (risk_service/ratings): the season rated games count in now, and the rated games
    # a rating needs to stop being provisional
    rating_season: str = "1"
    rating_provisional_games: int = 5

    def retention(self, status_before: int) -> int:
        """How long a game ending now is kept (ms): a game that ends before it started
        (cancelled or abandoned while waiting) has no play worth keeping for long."""
        if status_before == WAITING:
            return min(self.unstarted_retention_ms, self.retention_ms)
        return self.retention_ms

    def live_ttl(self, status: int) -> int:
        """The expiry (ms) every key of a game of `status` that is not over gets at each
        commit: the idle time after which the sweeper abandons it plus the retention it is
        then kept, so a game no process sweeps (none is running) still goes from Redis no
        sooner than it would have anyway."""
        return self.idle_after(status) + self.retention(status)

    def idle_after(self, status: int) -> int:
        """How long (ms) a game of `status` may go without a change before it is abandoned."""
        if status == WAITING:
            return min(self.abandon_after_ms, self.unstarted_expire_ms)
        return self.abandon_after_ms
