"""The pure table-forming rule of matchmaking (risk_service.matchmaking.tables)."""

from __future__ import annotations

import random

from risk_service.matchmaking.tables import Policy, Table, Waiting, form_tables

POOL = "classic"
POLICY = Policy(base_window=3.0, widen_per_s=0.25, max_window=100.0, bot_level=2)


def _w(ticket: str, mu: float = 25.0, since_ms: int = 0, sizes: tuple[int, ...] = (4,),
       *, pool: str = POOL, bots_after_ms: int | None = None, player: str | None = None
       ) -> Waiting:
    return Waiting(ticket=ticket, player=player or f"p-{ticket}", pool=pool,
                   sizes=frozenset(sizes), mu=mu, since_ms=since_ms,
                   bots_after_ms=bots_after_ms)


def test_four_close_requests_form_one_table_oldest_seated_first() -> None:
    """Four requests for 4-tables within the window sit together, seats by wait."""
    waiting = [_w("d", 26, 40), _w("a", 25, 10), _w("c", 24, 30), _w("b", 25.5, 20)]
    assert form_tables(waiting, 1000, POLICY) == [Table(POOL, 4, ("a", "b", "c", "d"))]


def test_three_requests_for_four_wait() -> None:
    """Too few requests accepting the size: no table, however long they wait, without bots."""
    waiting = [_w("a", 25, 0), _w("b", 25, 0), _w("c", 25, 0)]
    assert form_tables(waiting, 3_600_000, POLICY) == []


def test_pools_and_sizes_must_match() -> None:
    """Requests of another pool, or with no size in common, never share a table."""
    waiting = [_w("a"), _w("b"), _w("c"), _w("x", pool="strike"), _w("y", sizes=(3,))]
    assert form_tables(waiting, 0, POLICY) == []


def test_window_widens_with_waiting_time() -> None:
    """A request 10 points away joins only once the anchor has waited (10-3)/0.25 = 28 s."""
    waiting = [_w("a", 25, 0), _w("b", 25, 0), _w("c", 25, 0), _w("far", 35, 0)]
    assert form_tables(waiting, 27_000, POLICY) == []
    assert form_tables(waiting, 28_000, POLICY) == [Table(POOL, 4, ("a", "b", "c", "far"))]
    assert POLICY.window(waiting[0], 28_000) == 10.0
    assert POLICY.window(waiting[0], 10**9) == 100.0


def test_larger_table_preferred_when_enough_wait() -> None:
    """Five requests accepting 3 to 5 form one 5-table, not a 3-table and two left over."""
    waiting = [_w(t, 25, i, sizes=(3, 4, 5)) for i, t in enumerate("abcde")]
    assert form_tables(waiting, 0, POLICY) == [Table(POOL, 5, tuple("abcde"))]


def test_smaller_size_when_the_larger_is_out_of_reach() -> None:
    """With three close and two far requests, the three sit at a 3-table now."""
    waiting = [_w("a", 25, 0, (3, 4, 5)), _w("b", 26, 1, (3, 4, 5)), _w("c", 24, 2, (3, 4, 5)),
               _w("x", 60, 3, (3, 4, 5)), _w("y", 61, 4, (3, 4, 5))]
    assert form_tables(waiting, 0, POLICY) == [Table(POOL, 3, ("a", "b", "c"))]


def test_closest_run_around_the_anchor() -> None:
    """Of six 4-requests, the anchor sits with the three closest in rating; the rest wait."""
    waiting = [_w("anchor", 25, 0), _w("near1", 25.5, 5), _w("near2", 24.5, 6),
               _w("near3", 26, 7), _w("edge1", 27.9, 1), _w("edge2", 22.1, 2)]
    tables = form_tables(waiting, 0, POLICY)
    assert tables == [Table(POOL, 4, ("anchor", "near1", "near2", "near3"))]


def test_one_player_never_twice_at_a_table() -> None:
    """Two requests of one player (never both waiting in the service, but the rule holds)."""
    waiting = [_w("a", player="p"), _w("b", player="p"), _w("c"), _w("d"), _w("e")]
    tables = form_tables(waiting, 0, POLICY)
    assert tables == [Table(POOL, 4, ("a", "c", "d", "e"))]


def test_bots_fill_after_the_requests_own_wait() -> None:
    """Two requests allowing bots after 30 s get a table of 4 with two bots at 30 s, not before;
    a third request that never allows bots stays out."""
    waiting = [_w("a", 25, 0, bots_after_ms=30_000), _w("b", 26, 0, bots_after_ms=30_000),
               _w("never", 25, 0)]
    assert form_tables(waiting, 29_999, POLICY) == []
    assert form_tables(waiting, 30_000, POLICY) == [
        Table(POOL, 4, ("a", "b"), bots=2, bot_level=2)]


def test_a_newer_request_allowing_bots_joins_the_anchors_bot_table() -> None:
    """Once the anchor's bot wait is over, a newer request that allows bots (its own wait not
    over yet) sits with it, one bot fewer; one that allows none does not."""
    waiting = [_w("old", 25, 0, bots_after_ms=30_000), _w("new", 26, 29_000,
                                                           bots_after_ms=30_000),
               _w("never", 25, 100)]
    assert form_tables(waiting, 30_000, POLICY) == [
        Table(POOL, 4, ("old", "new"), bots=2, bot_level=2)]


def test_bot_table_takes_the_smallest_size_seating_the_most() -> None:
    """One request accepting 3 to 5 with bots: a 3-table with two bots (fewest bots)."""
    waiting = [_w("a", 25, 0, (3, 4, 5), bots_after_ms=0)]
    assert form_tables(waiting, 0, POLICY) == [Table(POOL, 3, ("a",), bots=2, bot_level=2)]


def test_people_before_bots() -> None:
    """Four requests that all allow bots at once still form a table of people."""
    waiting = [_w(t, 25, 0, bots_after_ms=0) for t in "abcd"]
    assert form_tables(waiting, 0, POLICY) == [Table(POOL, 4, tuple("abcd"))]


def test_deterministic_whatever_the_input_order() -> None:
    """The same requests in any order form the same tables (what every process computes)."""
    rng = random.Random(7)
    waiting = [_w(f"t{i:03}", rng.gauss(25, 6), rng.randrange(0, 60_000),
                  tuple(sorted(rng.sample([2, 3, 4, 5, 6], 2))),
                  bots_after_ms=rng.choice([None, 30_000]))
               for i in range(80)]
    first = form_tables(waiting, 90_000, POLICY)
    for _ in range(5):
        rng.shuffle(waiting)
        assert form_tables(waiting, 90_000, POLICY) == first
    seated = [t for table in first for t in table.tickets]
    assert len(seated) == len(set(seated)), "a request at two tables"
    by_ticket = {w.ticket: w for w in waiting}
    for table in first:
        members = [by_ticket[t] for t in table.tickets]
        assert table.players + table.bots == table.size
        assert all(table.size in m.sizes for m in members)
        anchor = members[0]
        assert max(m.mu for m in members) - min(m.mu for m in members) <= POLICY.window(
            anchor, 90_000)
