"""Redis key names. Every key of one game shares the hash tag `{game_id}`, so a game's commit
touches one slot and runs unchanged on Redis Cluster; the indexes are separate, rebuildable keys.

On a single Redis each index is one key. On a Redis Cluster (`buckets` > 1) each index is split
into `buckets` keys, bucket `b` carrying the hash tag `{<prefix>:ib<b>}`: a game (or campaign)
belongs to the bucket picked by a hash of its tag, so no index key takes every game's writes
(no hot key, no hot shard), every index update names keys of one slot, and all of one
bucket's indexes (lists, deadlines, expiry) share that slot. Readers of an index (ListGames,
the sweeper) read every bucket and merge.
"""

from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass

# redis-py types replies loosely (bytes | str | Any); these name what a decode_responses=False
# client actually returns for the stream commands used here.
StreamEntries = list[tuple[bytes, dict[bytes, bytes]]]
XReadReply = list[tuple[bytes, StreamEntries]]


def stream_id(seq: int) -> str:
    """A game's events are stored under stream ids `0-<seq>`, so a seq is a stream cursor."""
    return f"0-{seq}"


def stream_seq(entry_id: bytes) -> int:
    return int(entry_id.split(b"-")[1])


@dataclass(frozen=True, slots=True)
class Keys:
    prefix: str = "risk"
    buckets: int = 1  # index buckets: 1 on a single Redis (the historic key names)

    def bucket(self, game_id: str) -> int:
        """The index bucket of a game or campaign: the same for a campaign and its games."""
        if self.buckets == 1:
            return 0
        return zlib.crc32(self.tag(game_id).encode()) % self.buckets

    def _ix(self, bucket: int) -> str:
        """The index keys' stem for one bucket (the bare prefix on a single Redis)."""
        return self.prefix if self.buckets == 1 else f"{self.prefix}:{{{self.prefix}:ib{bucket}}}"

    @staticmethod
    def tag(game_id: str) -> str:
        """The hash tag of a game's keys: the game id, or for a campaign's game ("<campaign
        id>.<n>") the campaign id, so the campaign and all its games share one slot."""
        return game_id.split(".", 1)[0]

    def _g(self, game_id: str) -> str:
        tag = self.tag(game_id)
        return f"{self.prefix}:g:{{{tag}}}{game_id[len(tag):]}"

    def game(self, game_id: str) -> str:
        """Hash: snapshot, version, last seq, status, times, seat names and token digests, and
        `cid`, the id of the commit that wrote the state."""
        return self._g(game_id)

    def events(self, game_id: str) -> str:
        """Stream: one entry per event, id `0-<seq>`, field `e` = serialised risk.v1.Event,
        field `c` = the id of the commit that wrote it (the game hash's `cid` then)."""
        return f"{self._g(game_id)}:ev"

    def requests(self, game_id: str) -> str:
        """Hash: `<seat>:<request id>` -> action fingerprint + the reply that was sent."""
        return f"{self._g(game_id)}:req"

    def campaign(self, campaign_id: str) -> str:
        """Hash: the campaign record (state, version, game ids, seat names and digests)."""
        return f"{self.prefix}:c:{{{campaign_id}}}"

    def campaigns(self, bucket: int = 0) -> str:
        """Sorted set of campaign ids (score 0, ordered by id) for ListCampaigns."""
        return f"{self._ix(bucket)}:cidx"

    def campaign_expiring(self, bucket: int = 0) -> str:
        """Sorted set: campaign id -> when it expires (ms) unless it is active again first."""
        return f"{self._ix(bucket)}:cexp"

    def log(self, game_id: str) -> str:
        """List: one serialised risk.v1.LogEntry per committed change, by version."""
        return f"{self._g(game_id)}:log"

    def checkpoints(self, game_id: str) -> str:
        """Hash: replay checkpoints of a game that is over (store/checkpoints.py): `fmt`,
        `cid`, `every`, and per checkpoint version v `s:<v>` (a serialised risk.v1.StoredGame)
        and `i:<v>` (the log list index of the first entry after v). Not a commit's key: it is
        written after the game ended and expires with the game hash."""
        return f"{self._g(game_id)}:cp"

    def game_keys(self, game_id: str) -> tuple[str, str, str, str]:
        """Every key of one game (all in one hash slot); every commit names them."""
        return _game_keys(self, game_id)

    def deadlines(self, bucket: int = 0) -> str:
        """Sorted set: game id -> its pending decision's deadline (ms). Rebuildable."""
        return f"{self._ix(bucket)}:deadlines"

    def expiring(self, bucket: int = 0) -> str:
        """Sorted set: game id -> when its retention ends (ms); the index entries go then."""
        return f"{self._ix(bucket)}:expiring"

    def lease(self, game_id: str) -> str:
        """String: which process is enforcing this game's deadline right now."""
        return f"{self._g(game_id)}:lease"

    def bots_looked_at(self, game_id: str) -> str:
        """String, expiring: a sweeper looked at this stalled game's bots lately (sweeper.py);
        no process looks again before it expires."""
        return f"{self._g(game_id)}:botscan"

    def turn(self, job: str) -> str:
        """String, expiring: the process whose turn it is to run the deployment-wide `job`
        (sweeper.py's scan of the waiting and active games, `idle-scan`); its holder renews
        it on every sweep and it passes on when the holder stops."""
        return f"{self.prefix}:turn:{job}"

    def index(self, variant: str, status: int, bucket: int = 0) -> str:
        """Sorted set of game ids by creation time; '*' / 0 stand for any variant / status."""
        return f"{self._ix(bucket)}:idx:{variant}:{status}"

    def notices_pending(self, bucket: int = 0) -> str:
        """Sorted set: `<game id>/<version>` -> when a commit that records webhook notices
        was about to be written (ms), until the notices are queued (notify/outbox.py).
        Rebuildable only by replaying commits: the sweeper reads it."""
        return f"{self._ix(bucket)}:wpend"

    def player(self, player_id: str, part: str) -> str:
        """One key of a player's (operations/player_feed.py, my_games.py, invitations.py):
        `feed` (stream: the player's events, entry `0-<seq>`, field `f`), `copied` (sorted
        set: the facts copied into it, by id, and `#seq`... in `seq`), `seq` (string: the
        feed's last seq), `games` (sorted set: game id -> last activity ms), `invites` (sorted
        set: `<game id>/<invitation id>` -> expiry ms), `here:<game id>` (sorted set: process
        id -> until when it streams that game for the player). All of a player's keys share
        the hash tag `{<prefix>:pl:<player id>}`: one slot per player, none shared."""
        return f"{self.prefix}:pl:{{{self.prefix}:pl:{player_id}}}:{part}"

    def player_facts_pending(self, bucket: int = 0) -> str:
        """Sorted set: `<game id>/<key>` -> when a write recording players' facts in the
        game's hash (field `pf:<key>`) was about to happen (ms), until they are copied to the
        players' streams (operations/player_feed.py); the sweeper reads it."""
        return f"{self._ix(bucket)}:ppend"

    def vacation_pending(self, bucket: int = 0) -> str:
        """Sorted set: `[player, game id, seat, until]` (JSON) -> when a StartVacation
        reserved time from the player's yearly allowance (ms), until the game's commit is
        confirmed or the reservation returned (operations/vacation.py); the sweeper reads it."""
        return f"{self._ix(bucket)}:vpend"

    def vacation_ending(self, bucket: int = 0) -> str:
        """Sorted set: `[player, game id, seat, until]` (JSON) -> when an EndVacation was about
        to commit the early end of that reservation (ms), until its refund is made
        (operations/vacation.py); the sweeper reads it. (Apart from `vacation_pending`: a
        StartVacation's confirmation forgets its own intent, not the end's.)"""
        return f"{self._ix(bucket)}:vend"

    def ratings_pending(self, bucket: int = 0) -> str:
        """Sorted set: game id -> when a commit recording a rated game's result (field `rt`
        of its hash) was about to be written (ms), until every seat's rating is updated
        (ratings/service.py); the sweeper reads it."""
        return f"{self._ix(bucket)}:rpend"

    def leaderboard(self, variant: str, season: str, board: str, part: str) -> str:
        """One key of a variant's leaderboard in one season (ratings/store.py): `z` (sorted
        set: player id -> displayed rating) and `e` (hash: player id -> its entry). `board`
        is `players` or `bots`. Both share the hash tag `{<prefix>:lb:<variant>:<season>:
        <board>}`: one slot per board, read and written by single-slot commands."""
        return f"{self.prefix}:lb:{{{self.prefix}:lb:{variant}:{season}:{board}}}:{part}"

    def webhook(self, endpoint: str, part: str) -> str:
        """One key of a webhook endpoint's queue (notify/queue.py names the parts: `due`,
        `msg`, `meta`, `done`, `dead`, `stats`, `gone`). All of an endpoint's keys share the
        hash tag `{<prefix>:wh:<endpoint>}`: one slot per endpoint, so each of its scripts
        runs on one node of a cluster and endpoints spread over the slots."""
        return f"{self.prefix}:wh:{{{self.prefix}:wh:{endpoint}}}:{part}"


@functools.lru_cache(maxsize=4096)
def _game_keys(keys: Keys, game_id: str) -> tuple[str, str, str, str]:
    return (keys.game(game_id), keys.events(game_id), keys.requests(game_id),
            keys.log(game_id))
