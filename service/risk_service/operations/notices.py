"""Which webhook notices a game's commit makes, and the envelope every message travels in.

Pure (no clock, no Redis), like `tournament_facts`: `commit.plan` asks `commit_notices` for
the notices of the change it plans, and the commit writes them into the game's own hash
(`outbox_field`) with everything else, so a notice exists exactly when the change that makes
it true exists; risk_service/notify/outbox.py queues them after the commit. The envelope is
the Standard Webhooks one, `{"type", "timestamp", "data"}`, serialised once with sorted keys:
the body a receiver gets, and whose bytes the signature covers, is the same on every retry.
The types and every field are the contract with receivers (docs/notifications.md): change
them there first.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import orjson

from risk_proto.risk.v1 import game_pb2, lifecycle_pb2
from risk_rules.engine import Event, get_ruleset
from risk_rules.lifecycle import DecisionTimedOut, SeatRemoved, TimeoutPolicy
from risk_service.operations.records import ACTIVE, FINISHED, WAITING
from risk_service.store.game_store import GameRecord

GAME_STARTED = "game.started"
GAME_FINISHED = "game.finished"
SEAT_TIMED_OUT = "seat.timed_out"
SEAT_REMOVED = "seat.removed"
ROUND_CREATED = "round.created"

# a queued notice: its type and its envelope, serialised
Notice = tuple[str, bytes]


def timestamp(at_ms: int) -> str:
    """The envelope's `timestamp`: RFC 3339 in UTC, to the millisecond."""
    when = datetime.fromtimestamp(at_ms / 1000, tz=UTC)
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def envelope(event_type: str, data: dict[str, Any], at_ms: int) -> bytes:
    """The body of a message: the Standard Webhooks envelope, keys sorted."""
    return orjson.dumps({"type": event_type, "timestamp": timestamp(at_ms), "data": data},
                        option=orjson.OPT_SORT_KEYS)


def _player(meta: lifecycle_pb2.GameMeta, seat: int) -> str:
    """The player id the seat belongs to (docs/players.md), "" for none."""
    return meta.seat_players[seat] if 0 <= seat < len(meta.seat_players) else ""


def _seats(names: Sequence[str], meta: lifecycle_pb2.GameMeta) -> list[dict[str, Any]]:
    bots = list(meta.bot_seats)
    return [{"seat": seat, "name": name, "player_id": _player(meta, seat),
             "bot": bool(bots[seat]) if seat < len(bots) else False}
            for seat, name in enumerate(names)]


def commit_notices(record: GameRecord, meta: lifecycle_pb2.GameMeta, *, status: int,
                   state: Any, events: Sequence[Event], entry: game_pb2.LogEntry | None,
                   names: Sequence[str], version: int, now_ms: int) -> list[Notice]:
    """The notices of the commit of `record`'s next `version` (to `status`, with `events`,
    logged as `entry`; `names`: the seats' names as the commit leaves them)."""
    made: list[Notice] = []
    game = {"game_id": record.game_id, "variant": record.variant, "version": version}
    if meta.tournament:
        game |= {"tournament": meta.tournament, "round": meta.round}

    def notice(kind: str, **data: Any) -> None:
        made.append((kind, envelope(kind, game | data, now_ms)))

    def seat(number: int) -> dict[str, Any]:
        return {"seat": number, "name": names[number] if 0 <= number < len(names) else "",
                "player_id": _player(meta, number)}

    if record.status == WAITING and status in (ACTIVE, FINISHED):
        notice(GAME_STARTED, players=len(names), seats=_seats(names, meta))
    removed: set[int] = set()  # one seat.removed per seat: a forfeit is logged as a resign too
    for event in events:
        if isinstance(event, DecisionTimedOut):
            policy = TimeoutPolicy(event.policy)
            notice(SEAT_TIMED_OUT, policy=policy.name.lower(), **seat(event.seat))
            if policy is TimeoutPolicy.FORFEIT:
                notice(SEAT_REMOVED, cause="forfeit", **seat(event.seat))
                removed.add(event.seat)
        elif isinstance(event, SeatRemoved):  # a correspondence game's missed-turn policy
            notice(SEAT_REMOVED, cause="missed_turns", missed=event.missed, **seat(event.seat))
            removed.add(event.seat)
    if entry is not None and entry.WhichOneof("entry") == "resign" \
            and entry.seat not in removed:
        notice(SEAT_REMOVED, cause="resigned", **seat(entry.seat))
    if status == FINISHED and record.status != FINISHED:
        outcome = get_ruleset(record.variant).outcome(state)
        if outcome is not None:
            notice(GAME_FINISHED, winner=outcome.winner, ranking=list(outcome.ranking),
                   reason=outcome.reason, seats=_seats(names, meta))
    return made


def outbox_field(version: int) -> str:
    """The game-hash field holding the notices of the commit of `version`, until queued."""
    return f"w:{version}"


def pack(notices: Sequence[Notice]) -> bytes:
    """The outbox field's value: the notices of one commit, bodies byte for byte."""
    return orjson.dumps([[kind, body.decode()] for kind, body in notices])


def unpack(value: bytes) -> list[Notice]:
    return [(kind, body.encode()) for kind, body in orjson.loads(value)]
