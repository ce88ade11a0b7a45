"""The director's pairing and scoring (pure): tables, repeats, seat balance, knockout, standings."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from risk_service.director.pairing import (
    History,
    PairingError,
    PairingRules,
    Table,
    advancing,
    final_table,
    knockout_round,
    knockout_sizes,
    layout,
    swiss_round,
)
from risk_service.director.seats import Bot
from risk_service.director.standings import TableResult, final_standings, lot, standings

PLANNER = Bot("planner")


def names(count: int) -> list[str]:
    return [f"p{i:02d}" for i in range(count)]


def seated_players(tables: tuple[Table, ...]) -> list[str]:
    return [seat for table in tables for seat in table if isinstance(seat, str)]


def by_seat_order(table: Table) -> TableResult:
    """A result in which seat 0 wins, seat 1 is second, ..."""
    return TableResult(seats=table, ranking=tuple(range(len(table))))


def by_name(table: Table) -> TableResult:
    """A result in which the player with the smallest name wins (bots last)."""
    order = sorted(range(len(table)), key=lambda s: (not isinstance(table[s], str), str(table[s])))
    return TableResult(seats=table, ranking=tuple(order))


def run_swiss(
    players: list[str], rounds: int, rules: PairingRules, seed: int = 7
) -> list[tuple[Table, ...]]:
    """Seat `rounds` rounds, the smallest name winning every table."""
    seated: list[tuple[Table, ...]] = []
    results: list[list[TableResult]] = []
    for _ in range(rounds):
        lines = standings(players, results, seed)
        tables = swiss_round(
            [line.player for line in lines],
            {line.player: line.points for line in lines},
            History.of(seated),
            rules,
            seed,
        )
        seated.append(tables)
        results.append([by_name(t) for t in tables])
    return seated


def test_layout_full_smaller_and_bot_filled_tables() -> None:
    """48 at tables of 4 is twelve full tables; 10 is 4+3+3, or 4 full seats with two bots."""
    assert layout(48, PairingRules(table_size=4)) == ((4, 0),) * 12
    assert layout(10, PairingRules(table_size=4)) == ((4, 0), (3, 0), (3, 0))
    assert layout(10, PairingRules(table_size=4, fill_bot=PLANNER)) == ((4, 0), (3, 1), (3, 1))
    assert layout(13, PairingRules(table_size=6, fill_bot=PLANNER)) == ((5, 1), (4, 2), (4, 2))


def test_layout_refuses_tables_below_the_smallest() -> None:
    """5 players at tables of 3-4 would leave a table of 2: refused with a way out named."""
    with pytest.raises(PairingError, match="fill the last tables with bots"):
        layout(5, PairingRules(table_size=4))
    with pytest.raises(PairingError):
        PairingRules(table_size=7)


def test_every_player_seated_once_and_bots_fill_the_rest() -> None:
    """A round seats each player exactly once; bot-filled tables are all full size."""
    players = names(10)
    tables = swiss_round(players, {}, History(), PairingRules(table_size=4, fill_bot=PLANNER), 1)
    assert sorted(seated_players(tables)) == players
    assert [len(t) for t in tables] == [4, 4, 4]
    assert sum(seat == PLANNER for t in tables for seat in t) == 2


def test_same_inputs_same_round_and_the_seed_matters() -> None:
    """Seating is a function of its inputs (any process seats the same round); the seed
    changes the seat orders."""
    players = names(12)
    rules = PairingRules(table_size=3)
    first = run_swiss(players, 3, rules, seed=5)
    assert run_swiss(players, 3, rules, seed=5) == first
    assert run_swiss(players, 3, rules, seed=6) != first


def test_round_two_groups_by_score_without_repeats() -> None:
    """After round 1 (12 players, tables of 3) the round-1 winners sit together and no pair
    meets again."""
    players = names(12)
    rules = PairingRules(table_size=3)
    round1, round2 = run_swiss(players, 2, rules)
    winners = {by_name(t).seats[by_name(t).ranking[0]] for t in round1}
    met = History.of([round1])
    for table in round2:
        for a, b in itertools.combinations([s for s in table if isinstance(s, str)], 2):
            assert met.times_met(a, b) == 0, (a, b)
    assert set(round2[0]) <= winners


def test_48_players_four_rounds_no_repeats_and_seats_spread() -> None:
    """The issue's event: 48 players, 4 rounds of tables of 4; nobody meets anyone twice,
    nobody sits first (or last) in more than 2 of their 4 games, and nobody holds one seat
    position 3 times."""
    players = names(48)
    seated = run_swiss(players, 4, PairingRules(table_size=4))
    history = History.of(seated)
    assert max(history.met.values()) == 1
    assert max(history.firsts.values()) <= 2
    assert max(history.lasts.values()) <= 2
    assert all(max(c.values()) <= 2 for c in history.positions.values())


def test_no_repeat_is_bought_with_score_grouping() -> None:
    """Tables finishing in random orders (as real games do), 60 events of the issue's shape:
    not one pair meets twice in the Swiss rounds. With repeats and score spread simply added,
    about one event in twenty seated a pair twice to keep score groups together (stop 41's CI
    met one in the director's kill -9 test)."""
    players = names(48)
    rules = PairingRules(table_size=4)
    for seed in range(1, 61):
        draws = random.Random(seed)
        seated: list[tuple[Table, ...]] = []
        results: list[list[TableResult]] = []
        for _ in range(4):
            lines = standings(players, results, seed)
            tables = swiss_round([line.player for line in lines],
                                 {line.player: line.points for line in lines},
                                 History.of(seated), rules, seed)
            seated.append(tables)
            results.append([TableResult(seats=t, ranking=tuple(draws.sample(range(4), 4)))
                            for t in tables])
        assert max(History.of(seated).met.values()) == 1, f"seed {seed}"


def test_seat_order_moves_a_player_off_the_first_seat() -> None:
    """Players who sat first before are not seated first again when someone else can be."""
    history = History.of([[("a", "x", "y"), ("b", "z", "w")]])
    rules = PairingRules(table_size=4)
    table = knockout_round(["a", "b", "c", "d"], history, rules, 3)[0]
    assert table[0] in {"c", "d"}
    assert table[-1] not in {"y", "w"}


def test_knockout_sizes_and_advancing() -> None:
    """48 players, tables of 4, table winners advance: 48 -> 12 -> a final of 3; two advance:
    48 -> 24 -> 12 -> 6 -> final of 4."""
    assert knockout_sizes(48, PairingRules(table_size=4), 1) == (48, 12, 3)
    assert knockout_sizes(48, PairingRules(table_size=4), 2) == (48, 24, 12, 6, 4)
    with pytest.raises(PairingError):
        knockout_sizes(48, PairingRules(table_size=4), 3)
    results = [
        TableResult(seats=("a", "b", PLANNER, "c"), ranking=(2, 1, 0, 3)),
        TableResult(seats=("d", "e", "f"), ranking=(0, 2, 1)),
    ]
    # the bot's first place goes to the next player: b, then a
    assert advancing(results, 2) == ["b", "d", "a", "f"]
    # so does the place of a player who withdrew
    assert advancing(results, 1, lambda p: p != "d") == ["b", "f"]


def test_knockout_spreads_the_top_seeds() -> None:
    """Snake seeding: the first seeds sit at different tables, and a pair that just met is
    split where a same-row swap allows."""
    seeding = names(12)
    tables = knockout_round(seeding, History(), PairingRules(table_size=4), 1)
    for seed_group in (seeding[0:3], seeding[3:6]):
        homes = [next(i for i, t in enumerate(tables) if p in t) for p in seed_group]
        assert sorted(homes) == [0, 1, 2]
    met_before = History.of([[("p00", "p05"), ("p01", "p04")]])
    again = knockout_round(seeding, met_before, PairingRules(table_size=4), 1)
    for table in again:
        assert not {"p00", "p05"} <= set(table)
        assert not {"p01", "p04"} <= set(table)


def test_final_table_takes_the_leaders() -> None:
    """The final seats the first `table_size` of the standings."""
    table = final_table(names(10), History(), PairingRules(table_size=4), 2)
    assert sorted(s for s in table if isinstance(s, str)) == names(4)


def test_points_by_finishing_rank() -> None:
    """A win is one point at any table size; the rest share the table's points evenly."""
    four = TableResult(seats=("a", "b", "c", "d"), ranking=(3, 1, 0, 2))
    assert [four.points(s) for s in range(4)] == [Fraction(1, 3), Fraction(2, 3), 0, 1]
    three = TableResult(seats=("a", PLANNER, "c"), ranking=(1, 2, 0))
    assert [three.points(s) for s in range(3)] == [0, 1, Fraction(1, 2)]
    with pytest.raises(ValueError):
        TableResult(seats=("a", "b"), ranking=(0, 0))


def test_standings_tiebreaks_in_documented_order() -> None:
    """Points, then wins, then opponents' points, then progressive score, then the lot."""
    round1 = [
        TableResult(seats=("a", "b", "c"), ranking=(0, 1, 2)),  # a 1, b 1/2, c 0
        TableResult(seats=("d", "e", "f"), ranking=(1, 0, 2)),  # e 1, d 1/2, f 0
    ]
    round2 = [
        TableResult(seats=("a", "d", "f"), ranking=(2, 1, 0)),  # f 1, d 1/2, a 0
        TableResult(seats=("b", "e", "c"), ranking=(0, 2, 1)),  # b 1, c 1/2, e 0
    ]
    lines = standings(list("abcdef"), [round1, round2], seed=9)
    # b 3/2; a, e, f 1 point and a win each, d 1 point without one, c 1/2. a, e and f all
    # had opponents worth 2; progressive: a and e 1 + 1, f 0 + 1; a and e by their lot
    a_e = sorted("ae", key=lambda p: lot(9, p))
    assert [line.player for line in lines] == ["b", *a_e, "f", "d", "c"]
    assert [line.points for line in lines] == [Fraction(3, 2), 1, 1, 1, 1, Fraction(1, 2)]
    assert [line.wins for line in lines] == [1, 1, 1, 1, 0, 0]
    assert {line.player: line.opponents_points for line in lines if line.player in "aef"} == {
        "a": 2,
        "e": 2,
        "f": 2,
    }
    assert [line.place for line in lines] == [1, 2, 3, 4, 5, 6]


def test_lot_breaks_a_complete_tie_the_same_way_everywhere() -> None:
    """Players with nothing to tell them apart are ordered by their lot from the event seed."""
    players = ["x", "y", "z"]
    lines = standings(players, [], seed=4)
    assert [line.player for line in lines] == sorted(players, key=lambda p: lot(4, p))
    assert standings(players, [], seed=4) == lines


def test_final_standings_put_the_final_first() -> None:
    """The final's finishing order heads the event's standings; the rest follow the Swiss."""
    lines = standings(names(6), [], seed=1)
    swiss_order = [line.player for line in lines]
    final = TableResult(seats=tuple(swiss_order[:3]), ranking=(2, 0, 1))
    order = final_standings(lines, final)
    assert order[:3] == (swiss_order[2], swiss_order[0], swiss_order[1])
    assert order[3:] == tuple(swiss_order[3:])
    counts = Counter(order)
    assert max(counts.values()) == 1
