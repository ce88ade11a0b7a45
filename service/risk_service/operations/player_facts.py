"""Which facts of a game concern its players, and how a write records them for their streams.

Pure (no clock, no Redis), like `tournament_facts` and `notices`: `commit.plan` asks
`commit_facts` for the facts of the change it plans, and the commit writes them into the
game's own hash (field `pf:v<version>`, a serialised `PlayerEventBatch`) with everything else,
so a fact exists exactly when the change that makes it true exists. Invitations, which are no
game commit (invitations.py), write theirs the same way under `pf:i...` keys. After the write,
operations/player_feed.py copies each fact into its player's stream once, and sends the
"your turn" and invitation webhooks (docs/players.md, docs/notifications.md).

A game's facts for its players: it started (each seated player), it became a player's turn
(the seat whose turn it is changed to a player's seat: `GameMeta.player_turn` remembers the
last one told, so a turn is told once however many decisions it holds), it ended (each
seated player, with the ranking). Only seats bound to a player id count; a game without
players' seats makes none (and costs nothing more per commit).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from risk_proto.risk.v1 import lifecycle_pb2, player_games_pb2
from risk_rules import wire
from risk_rules.engine import Ruleset
from risk_service.operations.records import ACTIVE, FINAL, FINISHED, WAITING
from risk_service.store.game_store import GameRecord

PlayerEvent = player_games_pb2.PlayerEvent
FIELD_PREFIX = "pf:"


def field(key: str) -> str:
    """The game-hash field holding the facts recorded under `key` until they are copied."""
    return f"{FIELD_PREFIX}{key}"


def commit_key(version: int) -> str:
    """The key of the facts of the commit of `version`."""
    return f"v{version}"


def pack(events: Sequence[PlayerEvent]) -> bytes:
    return player_games_pb2.PlayerEventBatch(events=events).SerializeToString(
        deterministic=True)


def unpack(value: bytes) -> list[PlayerEvent]:
    return list(player_games_pb2.PlayerEventBatch.FromString(value).events)


def players_of(meta: lifecycle_pb2.GameMeta) -> list[str]:
    """Every player id the game names: its seats' players and its host player."""
    named = [p for p in meta.seat_players if p]
    if meta.host_player and meta.host_player not in named:
        named.append(meta.host_player)
    return named


def commit_facts(record: GameRecord, meta: lifecycle_pb2.GameMeta, *, rules: Ruleset[Any, Any, Any],
                 status: int, state: Any, names: Sequence[str], version: int,
                 now_ms: int) -> list[PlayerEvent]:
    """The players' facts of the commit of `record`'s next `version` (to `status`, `state`;
    `meta` the new meta, whose `player_turn` this updates; `names`: the seats' names as the
    commit leaves them)."""
    players = list(meta.seat_players)
    if not any(players):
        return []
    bots = list(meta.bot_seats)
    variant = wire.variant_enum(record.variant)
    made: list[PlayerEvent] = []

    def fact(seat: int, **kind: Any) -> None:
        made.append(PlayerEvent(player_id=players[seat], game_id=record.game_id,
                                game_version=version, at_ms=now_ms, seat=seat,
                                variant=variant,
                                seat_name=names[seat] if seat < len(names) else "", **kind))

    seated = [s for s, p in enumerate(players) if p]
    if record.status == WAITING and status in (ACTIVE, FINISHED):
        for seat in seated:
            fact(seat, started=PlayerEvent.Started())
    if status == ACTIVE:
        turn = rules.turn_seat(state)
        if turn + 1 != meta.player_turn:
            meta.player_turn = turn + 1
            if 0 <= turn < len(players) and players[turn] and not (
                    turn < len(bots) and bots[turn]):
                fact(turn, turn=PlayerEvent.Turn(deadline_ms=meta.deadline_ms))
    elif status in FINAL and record.status not in FINAL:
        outcome = rules.outcome(state)
        finished = PlayerEvent.Finished(
            status=status, winner=outcome.winner if outcome is not None else -1,
            ranking=list(outcome.ranking) if outcome is not None else [])
        for seat in seated:
            fact(seat, finished=finished)
    return made
