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

from collections.abc import Iterable, Sequence
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


def _run(anchor: Waiting, eligible: Sequence[Waiting], size: int, window: float
         ) -> list[Waiting] | None:
    """The best `size` requests holding `anchor` among `eligible` (which holds it): the run,
    consecutive in rating, of the least spread within `window`; None when none fits."""
    ranked = sorted(eligible, key=lambda w: (w.mu, *_order(w)))
    at = ranked.index(anchor)
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


def _with_people(anchor: Waiting, candidates: Sequence[Waiting], window: float
                 ) -> Table | None:
    for size in sorted(anchor.sizes, reverse=True):
        eligible = [anchor] + [c for c in candidates if size in c.sizes]
        if len(eligible) < size:
            continue
        run = _run(anchor, eligible, size, window)
        if run is not None:
            return Table(anchor.pool, size, _seated(run))
    return None


def _with_bots(anchor: Waiting, candidates: Sequence[Waiting], window: float, now_ms: int,
               level: int) -> Table | None:
    if anchor.bots_after_ms is None or now_ms - anchor.since_ms < anchor.bots_after_ms:
        return None
    ready = [c for c in candidates if c.bots_after_ms is not None]
    ready.sort(key=lambda c: (abs(c.mu - anchor.mu), *_order(c)))
    best: tuple[int, int] | None = None
    table: Table | None = None
    for size in sorted(anchor.sizes):
        members = [anchor]
        for c in ready:
            if len(members) == size:
                break
            if size in c.sizes and _spread([*members, c]) <= window:
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
    most one; one player's requests never share a table)."""
    pending = sorted(waiting, key=_order)
    seated: set[str] = set()
    tables: list[Table] = []
    for anchor in pending:
        if anchor.ticket in seated:
            continue
        window = policy.window(anchor, now_ms)
        players = {anchor.player}
        candidates = []
        for c in pending:
            if (c.ticket in seated or c is anchor or c.pool != anchor.pool
                    or not c.sizes & anchor.sizes or abs(c.mu - anchor.mu) > window
                    or c.player in players):
                continue
            players.add(c.player)  # the oldest request of a player stands for them
            candidates.append(c)
        table = (_with_people(anchor, candidates, window)
                 or _with_bots(anchor, candidates, window, now_ms, policy.bot_level))
        if table is None:
            continue
        seated.update(table.tickets)
        tables.append(table)
    return tables
