"""Which finished games are rated and what their ending commit records
(risk_service.ratings.record, pure): players and bot levels, places from the final ranking,
and the games left unrated."""

from __future__ import annotations

from risk_proto.risk.v1 import lifecycle_pb2, ratings_pb2, tournament_pb2
from risk_rules.engine.core.ruleset import Outcome
from risk_service.operations.records import ABANDONED, ACTIVE, FINISHED
from risk_service.ratings.record import commit_record, ranks

WON = Outcome(winner=2, ranking=(2, 0, 1), reason="conquest")


def _meta(players: list[str], levels: list[int] | None = None, *, rated: bool = True
          ) -> lifecycle_pb2.GameMeta:
    meta = lifecycle_pb2.GameMeta(seat_players=players, rated=rated)
    meta.bot_levels.extend(levels or [])
    return meta


def _record(meta: lifecycle_pb2.GameMeta, *, status: int = FINISHED, old: int = ACTIVE,
            outcome: Outcome | None = WON, seats: int = 3) -> ratings_pb2.RatedGame | None:
    return commit_record(game_id="g1", variant="classic", meta=meta, old_status=old,
                         status=status, outcome=outcome, seats=seats, season="s", now_ms=7)


def test_players_are_placed_by_the_final_ranking() -> None:
    """Each seat's player with its place: the winner 1st, then the ranking's order."""
    rated = _record(_meta(["a", "b", "c"]))
    assert rated is not None
    assert [(s.player_id, s.seat, s.rank) for s in rated.seats] == [
        ("a", 0, 2), ("b", 1, 3), ("c", 2, 1)]
    assert (rated.game_id, rated.variant, rated.season, rated.ended_ms) == ("g1", "classic",
                                                                          "s", 7)


def test_a_bot_seat_is_rated_as_its_level() -> None:
    """A seat without a player but with a bot level is `bot:<level>`."""
    meta = _meta(["a", "", "c"], [0, tournament_pb2.BOT_LEVEL_PLANNER, 0])
    rated = _record(meta)
    assert rated is not None
    assert [s.player_id for s in rated.seats] == ["a", "bot:planner", "c"]


def test_unrated_games_record_nothing() -> None:
    """Not created rated, not finishing now, abandoned, an anonymous seat, bots only: None."""
    assert _record(_meta(["a", "b", "c"], rated=False)) is None
    assert _record(_meta(["a", "b", "c"]), old=FINISHED) is None
    assert _record(_meta(["a", "b", "c"]), status=ABANDONED, outcome=None) is None
    assert _record(_meta(["a", "", "c"])) is None
    assert _record(_meta(["", "", ""], [1, 2, 3])) is None


def test_seats_left_out_of_the_ranking_share_the_last_place() -> None:
    """A ranking naming fewer seats than the game has: the others tie below them."""
    assert ranks([2, 0], 4) == [2, 3, 1, 3]
    assert ranks([], 2) == [1, 1]
