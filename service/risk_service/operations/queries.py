"""The reads: one game as its caller may see it, a page of the game list, and a seat's legal
actions. None of them writes."""

from __future__ import annotations

import asyncio
import time

from risk_proto.risk.v1 import service_pb2
from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_service.errors import Code, ServiceError, ServiceReason, malformed
from risk_service.operations import identity, records
from risk_service.operations.commit import Committer
from risk_service.operations.identity import Caller
from risk_service.operations.records import ACTIVE, FINAL, GAME_ID
from risk_service.operations.replay import OnReplay, Replays
from risk_service.operations.results import check_label, unknown_tournament
from risk_service.operations.seed_reveal import draws_secret, seed_revealable
from risk_service.operations.views import summary
from risk_service.store.tournament_store import TournamentStore

DEFAULT_PAGE = 50
LIST_SLICE = 25  # games of a ListGames page read and summarised between two turns of the loop


class Queries:
    def __init__(self, commits: Committer, tournaments: TournamentStore, *,
                 on_replay: OnReplay = lambda _kind, _steps: None) -> None:
        self.commits = commits
        self.tournaments = tournaments
        self.store = commits.store
        self.limits = commits.limits
        self.replays = Replays(self.store, self.limits.replay_checkpoint_every, on_replay)

    async def get(
        self, request: service_pb2.GetGameRequest, caller: Caller
    ) -> service_pb2.GetGameResponse:
        record, state = await self.commits.fresh(request.game_id)
        role = identity.identify(record, caller, self.limits)
        meta = records.decode_meta(record)
        # a replay (at_version) shows every caller the spectator's board, whatever it holds
        seat = None if request.HasField("at_version") else role.seat
        reply = service_pb2.GetGameResponse(
            game=summary(record, state, meta, seat=seat,
                         reveal=await seed_revealable(self.tournaments, record, meta)),
            viewer_seat=-1 if seat is None else seat,
        )
        # a board shows what the draws gave (a discard pile, hands dealt face up, the last
        # roll): withheld from callers without a seat while a duplicate round is played
        secret = role.seat is None and await draws_secret(self.tournaments, record, meta)
        if request.HasField("at_version"):
            if secret:
                raise ServiceError(
                    Code.FAILED_PRECONDITION, ServiceReason.GAME_NOT_OVER,
                    "the games of this duplicate round share their dice and cards: this game "
                    "is replayed for callers without a seat in it once every one is over")
            reply.board.CopyFrom(await self.replays.board_at(record, request.at_version,
                                                             caller))
            return reply
        delayed = (meta.spectator_delay_events or meta.spectator_delay_seconds) \
            and record.status not in FINAL
        if role.seat is not None or not (secret or delayed):
            view = get_ruleset(record.variant).view(state, role.seat)
            reply.board.CopyFrom(wire.view_to_proto(record.variant, view))
        return reply

    async def list(self, request: service_pb2.ListGamesRequest) -> service_pb2.ListGamesResponse:
        if request.page_size < 0:
            raise malformed("page_size must not be negative")
        size = min(request.page_size or DEFAULT_PAGE, self.limits.max_page_size)
        variant = "*" if request.variant == 0 else wire.variant_name(request.variant)
        if request.status not in service_pb2.GameStatus.values():
            raise malformed(f"unknown status {request.status}")
        cursor = request.page_token
        if cursor and not GAME_ID.match(cursor):
            raise malformed("page_token is not one this service issued")
        if request.tournament:  # the tournament's own lists; variant and status filter them
            check_label(request.tournament)
            if not await self.tournaments.exists(request.tournament):
                raise unknown_tournament(request.tournament)
            ids = await self.tournaments.page(
                request.tournament, request.round if request.HasField("round") else None,
                cursor, size + 1)
        elif request.HasField("round"):
            raise malformed("round filters a tournament's games: name the tournament")
        else:
            ids = await self.store.page(variant, request.status, cursor, size + 1)
        games: list[service_pb2.GameSummary] = []
        # A page is read and summarised a slice at a time, letting other calls run between
        # slices, and ends early (with a page token) once it has taken limits.list_budget_s:
        # one call neither holds the event loop for a whole page nor costs more than that.
        budget = time.perf_counter() + self.limits.list_budget_s
        shown = min(size, len(ids))
        for start in range(0, shown, LIST_SLICE):
            if start:
                if time.perf_counter() > budget:
                    shown = start
                    break
                await asyncio.sleep(0)
            stored = await self.store.load_many(ids[start:min(shown, start + LIST_SLICE)])
            for r in stored:
                if variant in ("*", r.variant) and request.status in (0, r.status):
                    state, decision = records.listed(r)
                    games.append(summary(r, state, decision=decision))
        return service_pb2.ListGamesResponse(
            games=games, next_page_token=ids[shown - 1] if shown < len(ids) else ""
        )

    async def legal_actions(
        self, request: service_pb2.ListLegalActionsRequest, caller: Caller
    ) -> service_pb2.ListLegalActionsResponse:
        record = await self.commits.load(request.game_id)
        seat = identity.acting_seat(
            identity.identify(record, caller, self.limits), caller.token,
            request.seat if request.HasField("seat") else None,
        )
        state = records.decode_state(record)
        rules = get_ruleset(record.variant)
        active = record.status == ACTIVE
        return service_pb2.ListLegalActionsResponse(
            version=record.version,
            seat=seat,
            decision=wire.decision_to_proto(rules.decision(state)) if active else None,
            actions=[wire.legal_to_proto(record.variant, a)
                     for a in rules.legal_actions(state, seat)] if active else [],
        )
