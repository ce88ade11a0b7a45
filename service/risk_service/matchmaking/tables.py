"""Which waiting match requests sit down together: the table-forming rule of matchmaking, pure.

Given the requests waiting now (player, pool, acceptable table sizes, rating, when each began
waiting, after how long each accepts bots) and the time, `form_tables` returns the tables to
create. Nothing here reads a clock, Redis or a random source, so the same inputs give the same
tables on every process, and `bench/matchmaking.py` runs it on a simulated clock.

The rule (docs/ratings.md, "Matchmaking"):

- Only requests of one **pool** meet: the same variant, clock and rated flag (the service
  names the pool; this module compares the names).
- The **window** of a request widens with its wait: `base_window + widen_per_s * waited_s`,
  capped at `max_window` (in rating points, the rating's mean `mu`). A table forms around its
  longest-waiting request (its anchor) when every member's `mu` lies within the anchor's window
  of the anchor's, and the spread (max - min `mu`) of the table is within it too.
- Requests are taken **oldest first**: each unseated request, in order of its wait (then its
  ticket id), is an anchor; the first table found for it is formed, and its members leave the
  pool before the next anchor looks.
- **Larger tables first**: the anchor's acceptable sizes are tried largest first, and a size
  is taken when enough requests accepting it are within the window; among the runs of that many
  requests (consecutive in `mu`) holding the anchor, the one with the least spread wins (ties:
  the longer-waiting, then by ticket id).
- **Bots** fill a table once its anchor has waited its `bots_after_ms`: when the anchor found
  no table of people, it takes the requests in its window that allow bots at all (closest `mu`
  first, keeping the spread within the window), picks the size that seats the most of them
  (ties: the smaller table) and gives the remaining seats to bots (at the policy's level). A
  request that allows bots may so sit with bots before its own bot wait is over, beside a
  longer-waiting one whose wait is: it is seated sooner and with fewer bots than its own wait
  would give it. A request that allows no bots never sits with one.

Written by hand: table forming for free-for-all tables of several acceptable sizes is the
service's own rule; the matchmakers published as libraries (OpenMatch's functions, queue
libraries for 1v1 Elo) do not take a set of sizes per request nor fill with bots.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Waiting:
    """One waiting request, as the forming rule sees it."""

    ticket: str
    player: str
    pool: str  # requests of different pools never meet
    sizes: frozenset[int]  # acceptable table sizes (seats, bots included)
    mu: float  # the player's rating mean (rating points)
    since_ms: int  # when it began waiting
    bots_after_ms: int | None = None  # bots may fill its table after this wait; None: never


@dataclass(frozen=True, slots=True)
class Policy:
    """The forming rule's numbers (settings RISK_MATCH_*, docs/configuration.md)."""

    base_window: float = 3.0  # rating points accepted at once
    widen_per_s: float = 0.25  # ... and this many more per second waited
    max_window: float = 100.0  # the widest a window grows
    bot_level: int = 2  # the level of a filling bot (a risk.v1.BotLevel number: greedy)

    def window(self, waiting: Waiting, now_ms: int) -> float:
        waited_s = max(0, now_ms - waiting.since_ms) / 1000
        return min(self.max_window, self.base_window + self.widen_per_s * waited_s)


@dataclass(frozen=True, slots=True)
class Table:
    """A table to create: its requests in seat order (longest-waiting first), then `bots`
    seats played by bots at `bot_level`."""

    pool: str
    size: int
    tickets: tuple[str, ...]
    bots: int = 0
    bot_level: int = 0

    @property
    def players(self) -> int:
        return len(self.tickets)


def _order(waiting: Waiting) -> tuple[int, str]:
    return waiting.since_ms, waiting.ticket


def _spread(members: Sequence[Waiting]) -> float:
    return max(m.mu for m in members) - min(m.mu for m in members)


def _best_run(anchor: Waiting, left: Sequence[Waiting], right: Sequence[Waiting], size: int,
              window: float) -> list[Waiting] | None:
    """The best `size` requests holding `anchor`, from its nearest eligible neighbours in
    rating (`left` below it and `right` above it, nearest first): the run, consecutive in
    rating, of the least spread within `window` (then the longer-waiting, then by ticket id);
    None when none fits."""
    ranked = [*reversed(left), anchor, *right]
    at = len(left)
    best: tuple[float, int, tuple[str, ...]] | None = None
    chosen: list[Waiting] | None = None
    for start in range(max(0, at - size + 1), min(at, len(ranked) - size) + 1):
        run = ranked[start:start + size]
        spread = _spread(run)
        if spread > window:
            continue
        key = (spread, sum(m.since_ms for m in run), tuple(sorted(m.ticket for m in run)))
        if best is None or key < best:
            best, chosen = key, run
    return chosen


def _seated(members: Iterable[Waiting]) -> tuple[str, ...]:
    return tuple(m.ticket for m in sorted(members, key=_order))


class _Pool:
    """One pool's waiting requests in rating order, walked outward from an anchor: each
    anchor looks at its neighbours in rating only, so a pass costs about the requests times
    the table size, not their square (bench/RESULTS.md, "Matchmaking: the cost of a pass")."""

    def __init__(self, members: Iterable[Waiting]) -> None:
        self.order = sorted(members, key=lambda w: (w.mu, *_order(w)))
        self.at = {w.ticket: i for i, w in enumerate(self.order)}

    def below(self, anchor: Waiting, window: float, seated: set[str]) -> Iterator[Waiting]:
        for i in range(self.at[anchor.ticket] - 1, -1, -1):
            c = self.order[i]
            if anchor.mu - c.mu > window:
                return
            if c.ticket not in seated and c.sizes & anchor.sizes:
                yield c

    def above(self, anchor: Waiting, window: float, seated: set[str]) -> Iterator[Waiting]:
        for i in range(self.at[anchor.ticket] + 1, len(self.order)):
            c = self.order[i]
            if c.mu - anchor.mu > window:
                return
            if c.ticket not in seated and c.sizes & anchor.sizes:
                yield c

    def nearest(self, anchor: Waiting, window: float, seated: set[str]) -> Iterator[Waiting]:
        """The candidates within the window, nearest in rating first (then by wait)."""
        below, above = self.below(anchor, window, seated), self.above(anchor, window, seated)
        low, high = next(below, None), next(above, None)
        while low is not None or high is not None:
            if high is None or (low is not None and (anchor.mu - low.mu, *_order(low))
                                <= (high.mu - anchor.mu, *_order(high))):
                assert low is not None
                yield low
                low = next(below, None)
            else:
                yield high
                high = next(above, None)


def _take(walk: Iterator[Waiting], size: int, count: int) -> list[Waiting]:
    return list(itertools.islice((c for c in walk if size in c.sizes), count))


def _with_people(anchor: Waiting, pool: _Pool, window: float, seated: set[str]
                 ) -> Table | None:
    for size in sorted(anchor.sizes, reverse=True):
        left = _take(pool.below(anchor, window, seated), size, size - 1)
        right = _take(pool.above(anchor, window, seated), size, size - 1)
        if len(left) + len(right) + 1 < size:
            continue
        run = _best_run(anchor, left, right, size, window)
        if run is not None:
            return Table(anchor.pool, size, _seated(run))
    return None


def _with_bots(anchor: Waiting, pool: _Pool, window: float, seated: set[str], *,
               now_ms: int, level: int) -> Table | None:
    if anchor.bots_after_ms is None or now_ms - anchor.since_ms < anchor.bots_after_ms:
        return None
    best: tuple[int, int] | None = None
    table: Table | None = None
    for size in sorted(anchor.sizes):
        members = [anchor]
        for c in pool.nearest(anchor, window, seated):
            if len(members) == size:
                break
            if (c.bots_after_ms is not None and size in c.sizes
                    and _spread([*members, c]) <= window):
                members.append(c)
        key = (-len(members), size)  # the most people seated, then the smaller table
        if best is None or key < best:
            best = key
            table = Table(anchor.pool, size, _seated(members), bots=size - len(members),
                          bot_level=level if size > len(members) else 0)
    return table


def form_tables(waiting: Iterable[Waiting], now_ms: int, policy: Policy = Policy()
                ) -> list[Table]:
    """The tables to form now from `waiting`, in the order they were found (each request in at
    most one; a player's oldest request stands for them, so one player's requests never share
    a table)."""
    pending: list[Waiting] = []
    players: set[tuple[str, str]] = set()
    for w in sorted(waiting, key=_order):
        if (w.pool, w.player) not in players:
            players.add((w.pool, w.player))
            pending.append(w)
    pools: dict[str, _Pool] = {}
    for pool_name in {w.pool for w in pending}:
        pools[pool_name] = _Pool(w for w in pending if w.pool == pool_name)
    seated: set[str] = set()
    tables: list[Table] = []
    for anchor in pending:
        if anchor.ticket in seated:
            continue
        window = policy.window(anchor, now_ms)
        pool = pools[anchor.pool]
        table = (_with_people(anchor, pool, window, seated)
                 or _with_bots(anchor, pool, window, seated, now_ms=now_ms,
                               level=policy.bot_level))
        if table is None:
            continue
        seated.update(table.tickets)
        tables.append(table)
    return tables
