"""The commands that make and seat a game: create (and open, which campaigns share), join,
start, cancel and reissue a seat's token.

Cancel ends a game before its start, and after it a tournament round's game or one only bots
still play (`stoppable`): whoever starts long work can stop it.

Each is one commit (a creation that fills every seat is two: the creation, then the start);
a seat is taken by the commit of its `seat_joined` event and a token is replaced by the
commit of its `seat_token_reissued` event, so neither happens without its event.
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from risk_proto.risk.v1 import lifecycle_pb2, service_pb2
from risk_rules import wire
from risk_rules.engine import REGISTRY, IllegalAction
from risk_rules.lifecycle import (
    GameCancelled,
    GameStarted,
    SeatJoined,
    SeatTokenReissued,
    TimeoutPolicy,
)
from risk_rules.seed_commitment import NONCE_BYTES, seed_commitment
from risk_service import clocks
from risk_service.errors import Code, ServiceError, ServiceReason, malformed, not_found
from risk_service.finishing import to_the_end
from risk_service.jwt_auth import MAX_PLAYER_ID
from risk_service.operations import identity, records
from risk_service.operations.commit import (
    INTERNAL_RETRIES,
    Change,
    Committer,
    lifecycle_change,
    start_change,
)
from risk_service.operations.effects import IndexPlayers
from risk_service.operations.identity import ANONYMOUS, Caller, digest
from risk_service.operations.player_facts import players_of
from risk_service.operations.records import ACTIVE, CANCELLED, FINAL, WAITING
from risk_service.operations.request_ids import check_request_id, replay
from risk_service.operations.views import summary
from risk_service.store.game_store import CommitOutcome, GameRecord

MAX_NAME = 64


def check_turns(options: Any, limit: int) -> None:
    """Refuse options asking for more turns than a game may last here: the turn cap is what
    bounds a game's length (and so its keys' size and its bots' work), whoever plays it."""
    turns = getattr(options, "max_turns", None)
    if isinstance(turns, int) and turns > limit:
        raise ServiceError(Code.INVALID_ARGUMENT, ServiceReason.MALFORMED_REQUEST,
                           f"options: max_turns is at most {limit} here, not {turns}",
                           {"limit": str(limit)})


def stoppable(record: GameRecord) -> bool:
    """Whether the host may still cancel a game: before its start, and after it a round's
    game (the tournament server's to stop) or one no person plays any more, whose bots would
    otherwise play on until the turn cap."""
    if record.status == WAITING:
        return True
    if record.status != ACTIVE:
        return False
    meta = records.decode_meta(record)
    return bool(meta.tournament) or (len(meta.bot_seats) > 0 and all(meta.bot_seats))


class Commands:
    def __init__(self, commits: Committer, *, new_token: Callable[[], str],
                 new_seed: Callable[[], int]) -> None:
        self.commits = commits
        self.store = commits.store
        self.limits = commits.limits
        self.new_token = new_token
        self.new_seed = new_seed

    async def create(
        self, request: service_pb2.CreateGameRequest, caller: Caller = ANONYMOUS
    ) -> service_pb2.CreateGameResponse:
        identity.require_creator(self.limits.creator_digests, caller.token)
        try:
            variant, options = wire.options_from_proto(request.options)
        except wire.VariantNotServed as exc:
            raise ServiceError(Code.UNIMPLEMENTED, ServiceReason.VARIANT_NOT_AVAILABLE,
                               str(exc)) from None
        host_token = self.new_token()
        seat_tokens: list[str] = []
        seat_players = list(request.seat_players)

        def seats(players: int) -> tuple[bytes, ...]:
            if request.issue_seat_tokens:
                seat_tokens.extend(self.new_token() for _ in range(players))
                return tuple(digest(t) for t in seat_tokens)
            # a player's seat is taken at once, by a token nobody holds: the player acts
            # with their own credential (docs/players.md)
            return tuple(digest(secrets.token_urlsafe(32)) if s < len(seat_players)
                         and seat_players[s] else b"" for s in range(players))

        def bind(meta: lifecycle_pb2.GameMeta, _now_ms: int) -> tuple[tuple[str, bytes], ...]:
            check_seat_players(seat_players, len(meta.bot_seats))  # bot_seats: one per seat
            if any(seat_players):
                meta.seat_players.extend(seat_players)
                meta.seat_players.extend([""] * (len(meta.bot_seats) - len(seat_players)))
            if caller.player is not None:  # a player created it: they act as its host too
                meta.host_player = caller.player
            if request.rated:  # its end updates its players' ratings (docs/ratings.md)
                if request.issue_seat_tokens and not (
                        len(seat_players) == len(meta.bot_seats) and all(seat_players)):
                    raise malformed("a rated game's seats belong to players: with "
                                    "issue_seat_tokens, seat_players names every seat")
                meta.rated = True
            return ()

        now = self.commits.clock_ms()
        record, state = await self.open_game(
            variant, options, request.seed if request.HasField("seed") else None,
            game_id=f"{now:012x}{secrets.token_hex(5)}", names=request.seat_names,
            seat_digests=seats, host_digest=digest(host_token), clock=request.clock,
            delay_events=request.spectator_delay_events,
            delay_seconds=request.spectator_delay_seconds, manual_start=request.manual_start,
            setup=bind,
        )
        named = players_of(records.decode_meta(record))
        if named:  # "my games" lists a game from its creation (later commits keep it fresh)
            await self.commits.effects.run([IndexPlayers(record.game_id, tuple(named),
                                                         record.updated_ms)])
        return service_pb2.CreateGameResponse(
            game=summary(record, state), host_token=host_token, seat_tokens=seat_tokens,
        )

    async def open_game(
        self, variant: str, options: Any, seed: int | None, *, game_id: str,
        names: Sequence[str], seat_digests: Callable[[int], tuple[bytes, ...]],
        host_digest: bytes, clock: lifecycle_pb2.ClockOptions, delay_events: int = 0,
        delay_seconds: int = 0, manual_start: bool = False, nonce: bytes | None = None,
        setup: Callable[[lifecycle_pb2.GameMeta, int], tuple[tuple[str, bytes], ...]]
        | None = None,
        if_absent: bool = False,
    ) -> tuple[GameRecord, Any]:
        """Create and store a game; it starts at once when every seat already has a token
        (and manual_start is off). Returns the stored record and the engine state.

        Every game commits to its seed (`nonce`: the commitment's secret, random when None);
        `setup` adds to a game's meta and returns more game-hash fields (a tournament's game,
        given the time of creation); with `if_absent` a game already stored under `game_id`
        is kept, and started if it should be (a retried round)."""
        check_turns(options, self.limits.max_turns)
        rules = REGISTRY[variant]
        seed = self.new_seed() if seed is None else seed
        nonce = secrets.token_bytes(NONCE_BYTES) if nonce is None else nonce
        # options the creator left to the game's clock (classic's auto-defend) are decided here
        options = rules.settle_options(options, timed=bool(
            clock.decision_seconds or clock.bank_seconds or clock.turn_seconds))
        try:
            state, events = rules.create(options, seed)
        except IllegalAction as exc:
            raise malformed(f"options: {exc.message}") from None
        players = rules.seat_count(state)
        names = list(names)
        if len(names) > players or any(len(n) > MAX_NAME for n in names):
            raise malformed(f"at most {players} seat names of at most {MAX_NAME} characters")
        if min(clock.decision_seconds, clock.bank_seconds, clock.increment_seconds) < 0:
            raise malformed("clock seconds must not be negative")
        try:
            policy = TimeoutPolicy(clock.on_timeout or TimeoutPolicy.DEFAULT_ACTION)
        except ValueError:
            raise malformed(f"unknown timeout policy {clock.on_timeout}") from None
        asked = clock
        clock = lifecycle_pb2.ClockOptions(
            decision_seconds=clock.decision_seconds, bank_seconds=clock.bank_seconds,
            increment_seconds=clock.increment_seconds,
            on_timeout=policy.value,  # type: ignore[arg-type]
        )
        clocks.settle_correspondence(asked, clock)
        meta = clocks.new_meta(clock, players, delay_events=delay_events,
                               delay_seconds=delay_seconds, manual_start=manual_start)
        meta.seed_nonce = nonce
        meta.seed_commitment = seed_commitment(seed, nonce)
        now = self.commits.clock_ms()
        extra = setup(meta, now) if setup is not None else ()
        digests = seat_digests(players)
        record = GameRecord(
            game_id=game_id,
            variant=variant,
            status=WAITING,
            version=0,
            last_seq=len(events),
            created_ms=now,
            updated_ms=now,
            players=players,
            snapshot=wire.encode_state(variant, state),
            meta=meta.SerializeToString(deterministic=True),
            names=tuple(names + [""] * (players - len(names))),
            seat_digests=digests,
            host_digest=host_digest,
            commit_id=self.commits.new_commit_id(),
        )
        encoded = [wire.encode_event(variant, e, seq, 0, now)
                   for seq, e in enumerate(events, start=1)]

        async def store_and_start(record: GameRecord) -> GameRecord:
            created = await self.store.create(record, encoded, extra, if_absent=if_absent,
                                              ttl_ms=self.limits.live_ttl(WAITING))
            if not created:  # a retry: the game is there already
                record = await self.commits.load(game_id)
            if all(digests) and not manual_start:
                started = await self.commits.lifecycle_commit(
                    game_id, lambda r: start_change(r, [], []) if r.status == WAITING else None)
                # None: it was started meanwhile (two retries of one start): as it is now
                record = started if started is not None else await self.commits.load(game_id)
            return record

        # stored and started together whatever becomes of the call: a game stored with every
        # seat taken and not started could never start
        record = await to_the_end(store_and_start(record), "open_game")
        return record, records.decode_state(record)

    async def join(self, request: service_pb2.JoinGameRequest, caller: Caller = ANONYMOUS
                   ) -> service_pb2.JoinGameResponse:
        """Take a seat: its token digest and name are written by the commit of its
        `seat_joined` event (which starts the game when it takes the last seat), so a seat is
        never taken without its event. With a request id the reply is stored with the commit,
        and a retry of a join whose reply was lost gets the same token. With a player token
        the seat belongs to its player from then on (written by the same commit); a player
        holds at most one seat of a game."""
        check_request_id(request.request_id)
        player = caller.player
        record = await self.commits.load(request.game_id)
        seat, name = request.seat, request.display_name
        if not 0 <= seat < record.players:
            raise malformed(f"seat must be 0..{record.players - 1}, got {seat}")
        if player is None and records.decode_meta(record).rated:
            raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.NOT_A_PLAYER,
                               "a rated game's seats are taken with a player credential (its "
                               "result updates the players' ratings; docs/ratings.md)")
        if len(name) > MAX_NAME:
            raise malformed(f"display_name is longer than {MAX_NAME} characters")
        joined = f"join\0{seat}\0{name}" + (f"\0player\0{player}" if player else "")
        fingerprint = hashlib.sha256(joined.encode()).digest()
        # request ids of joins are scoped to the game (the caller has no seat yet)
        request_field = f"join:{request.request_id}" if request.request_id else ""
        prior = await self.store.request_record(record.game_id, request_field)
        if prior is not None:
            return _joined(record, prior, fingerprint, request.request_id)
        reply = service_pb2.JoinGameResponse(seat=seat, seat_token=self.new_token(),
                                             player_id=player or "")
        stored = fingerprint + reply.SerializeToString(deterministic=True)
        return await self.take_seat(record, seat, name, player, reply=reply, stored=stored,
                                    request_field=request_field, fingerprint=fingerprint,
                                    request_id=request.request_id)

    async def take_seat(
        self, record: GameRecord, seat: int, name: str, player: str | None, *,
        reply: service_pb2.JoinGameResponse, stored: bytes, request_field: str = "",
        fingerprint: bytes = b"", request_id: str = "",
        fields: tuple[tuple[str, bytes], ...] = (), claim: str = "",
        check: Callable[[GameRecord], Awaitable[None]] | None = None,
    ) -> service_pb2.JoinGameResponse:
        """The join's commit of `seat` for `reply`'s token (and `player`), retried after a
        lost race. An invitation's acceptance (invitations.py) adds its `fields`, its own
        `claim` (its answer, which a decline or a revocation also claims: whichever comes
        first wins) and `check`, which refuses it on each attempt's fresh record."""
        token_digest = digest(reply.seat_token)
        for _ in range(INTERNAL_RETRIES):
            if record.status in FINAL:
                records.require_status(record, WAITING)
            if record.seat_digests[seat]:
                raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.SEAT_TAKEN,
                                   f"seat {seat} is taken")
            if check is not None:
                await check(record)
            seated = dataclasses.replace(
                record,
                seat_digests=tuple(token_digest if s == seat else d
                                   for s, d in enumerate(record.seat_digests)),
                names=tuple(name if s == seat else n for s, n in enumerate(record.names)),
            )
            change = start_change(seated, [SeatJoined(seat, name)], ["join"])
            if player is not None:
                _bind_player(change.meta, seat, player, record.players)
            change.fields = ((f"tok:{seat}", token_digest), (f"name:{seat}", name.encode()),
                             *fields)
            change.claim = claim or f"tok:{seat}"
            result, _plan = await self.commits.commit(
                change, actor=None, request_field=request_field,
                reply=lambda _status, _items, _envelopes: stored)
            if result.outcome is CommitOutcome.OK:
                return reply
            if result.outcome is CommitOutcome.DUPLICATE:  # a retry racing its first attempt
                return _joined(record, result.prior, fingerprint, request_id)
            if result.outcome is CommitOutcome.MISSING:
                raise not_found(record.game_id)
            record = await self.commits.load(record.game_id)  # STALE or TAKEN: look again
        raise ServiceError(Code.UNAVAILABLE, ServiceReason.STORE_UNAVAILABLE,
                           "the game changes too fast to join now; retry")

    async def _as_host(self, game_id: str, caller: Caller) -> GameRecord:
        """The game, if the caller's token is its host's."""
        record = await self.commits.load(game_id)
        identity.require_host(identity.identify(record, caller, self.limits), caller.token)
        return record

    async def start(
        self, request: service_pb2.StartGameRequest, caller: Caller
    ) -> service_pb2.StartGameResponse:
        record = await self._as_host(request.game_id, caller)
        records.require_status(record, WAITING)
        if not all(record.seat_digests):
            free = [s for s, d in enumerate(record.seat_digests) if not d]
            raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.SEATS_NOT_FILLED,
                               f"seats {free} are not taken yet")

        def build(r: GameRecord) -> Change | None:
            if r.status != WAITING:
                return None
            return lifecycle_change(r, ACTIVE, GameStarted(), "start")

        record = await self.commits.lifecycle_commit(record.game_id, build) or (
            await self.commits.load(record.game_id))
        return service_pb2.StartGameResponse(
            game=summary(record, records.decode_state(record)))

    async def cancel(
        self, request: service_pb2.CancelGameRequest, caller: Caller
    ) -> service_pb2.CancelGameResponse:
        record = await self._as_host(request.game_id, caller)
        if not stoppable(record):
            records.require_status(record, WAITING)

        def build(r: GameRecord) -> Change | None:
            if not stoppable(r):
                records.require_status(r, WAITING)
            # a bot run in flight loses its next commit to this one and then stops
            return lifecycle_change(r, CANCELLED, GameCancelled(), "cancel")

        record = await self.commits.lifecycle_commit(record.game_id, build) or record
        return service_pb2.CancelGameResponse(
            game=summary(record, records.decode_state(record)))

    async def reissue(
        self, request: service_pb2.ReissueSeatTokenRequest, caller: Caller
    ) -> service_pb2.ReissueSeatTokenResponse:
        record = await self._as_host(request.game_id, caller)
        if not 0 <= request.seat < record.players:
            raise malformed(f"seat must be 0..{record.players - 1}, got {request.seat}")
        if record.status in FINAL:
            records.require_status(record, WAITING, ACTIVE)
        if not record.seat_digests[request.seat]:
            raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.SEAT_NOT_TAKEN,
                               f"seat {request.seat} has no token yet; use JoinGame")
        new_token = self.new_token()
        replace = ((f"tok:{request.seat}", digest(new_token)),)
        reissued = SeatTokenReissued(request.seat)
        # the new digest lands in the same commit as its event, so no action can slip in
        # between under the old token at the version the reissue is based on
        done = await self.commits.lifecycle_commit(
            record.game_id,
            lambda r: lifecycle_change(r, r.status, reissued, "reissue", replace)
            if r.status not in FINAL else None,
        )
        if done is None:
            records.require_status(await self.commits.load(record.game_id), WAITING, ACTIVE)
        return service_pb2.ReissueSeatTokenResponse(seat=request.seat, seat_token=new_token)


def check_seat_players(seat_players: Sequence[str], players: int) -> None:
    """Refuse seat player ids that are more than the seats, too long, or one player twice."""
    if len(seat_players) > players:
        raise malformed(f"seat_players names {len(seat_players)} seats; the game has {players}")
    named = [p for p in seat_players if p]
    if any(len(p) > MAX_PLAYER_ID for p in named):
        raise malformed(f"a player id has 1 to {MAX_PLAYER_ID} characters")
    if len(set(named)) != len(named):
        raise malformed("a player holds at most one seat of a game: seat_players names one "
                        "twice")


def _bind_player(meta: lifecycle_pb2.GameMeta, seat: int, player: str, players: int) -> None:
    """Seat `seat` belongs to `player` from this commit on (PLAYER_ALREADY_SEATED if they
    hold another seat of the game already)."""
    held = identity.player_seat(meta, player)
    if held is not None:
        raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.PLAYER_ALREADY_SEATED,
                           f"player {player[:MAX_PLAYER_ID]!r} holds seat {held} of this game "
                           "already; a player holds one seat per game")
    meta.seat_players.extend([""] * (players - len(meta.seat_players)))
    meta.seat_players[seat] = player


def _joined(record: GameRecord, prior: bytes, fingerprint: bytes, request_id: str
            ) -> service_pb2.JoinGameResponse:
    """The stored reply of a join retried with its request id."""
    reply = service_pb2.JoinGameResponse.FromString(
        replay(prior, fingerprint, request_id, "a join of another seat or name"))
    held = record.seat_digests[reply.seat]  # b"" when read before the first attempt landed
    if held and not identity.holds(held, reply.seat_token):
        raise ServiceError(
            Code.FAILED_PRECONDITION, ServiceReason.SEAT_TOKEN_REISSUED,
            f"the token this join got was replaced by the host (ReissueSeatToken); "
            f"seat {reply.seat} has a newer one")
    return reply
