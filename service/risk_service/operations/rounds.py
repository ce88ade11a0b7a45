"""CreateRound: an organiser creates a tournament round's games in one call, each with its seats
(players, who get tokens, or bots the service plays at a level), optionally as duplicates.

A round is planned before anything is created: its game ids, host and seat tokens and a
256-bit secret from which each game's seed and commitment nonce derive are stored under the
request id on the tournament's slot (one HSETNX), and only then are the games created, each
only if absent. A retry of the same request (a lost reply, a crash halfway) reads the plan
back and creates what is missing, so the round exists once with the tokens the first reply
held; the same request id with another request is REQUEST_ID_REUSED.

A tournament label belongs to the credential that created its first round (the digest of its
bearer token, or every anonymous caller alike where anyone may create): another credential
can neither add a round to it nor repeat one of its request ids, which would answer it the
stored tokens (NOT_TOURNAMENT_OWNER). What a round may make the service play is bounded:
`max_round_bot_tables` tables of bots only per round, and no more than `max_bot_only_games`
such games played by the process at once (docs/tournaments.md, "What a round may cost").
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import secrets
from collections.abc import Callable

from risk_proto.risk.v1 import lifecycle_pb2, tournament_pb2
from risk_rules import wire
from risk_rules.engine import REGISTRY, IllegalAction
from risk_rules.seed_commitment import seed_commitment
from risk_service.errors import Code, ServiceError, ServiceReason, malformed
from risk_service.operations import identity
from risk_service.operations.bot_levels import DEFAULT_LEVEL, level_name
from risk_service.operations.commands import (
    MAX_NAME,
    Commands,
    check_seat_players,
    check_turns,
)
from risk_service.operations.identity import Caller, digest
from risk_service.operations.notices import ROUND_CREATED
from risk_service.operations.request_ids import check_request_id
from risk_service.operations.results import Results, check_label
from risk_service.operations.timers import Timers
from risk_service.operations.tournament_facts import Fact, fact_fields
from risk_service.store.tournament_store import TournamentStore

_PLAN_HEAD = 64  # a stored plan: the request's fingerprint (32 bytes), the secret (32), reply
_ANONYMOUS = b"-"  # the owner of a label an anonymous caller created (no token's digest)


def _derived(secret: bytes, what: bytes, index: int) -> bytes:
    return hashlib.sha256(secret + what + index.to_bytes(4, "big")).digest()


@dataclasses.dataclass(frozen=True, slots=True)
class _Table:
    """One game of the plan: what CreateRound asked for it and what was drawn for it."""

    seats: list[tournament_pb2.RoundSeat]
    seed: int
    nonce: bytes


class Rounds:
    def __init__(self, commands: Commands, store: TournamentStore, results: Results, *,
                 new_token: Callable[[], str], timers: Timers | None = None) -> None:
        self.commands = commands
        self.timers = timers
        self.store = store
        self.results = results
        self.limits = commands.limits
        self.clock_ms = commands.commits.clock_ms
        self.new_token = new_token

    async def create(self, request: tournament_pb2.CreateRoundRequest, caller: Caller
                     ) -> tournament_pb2.CreateRoundResponse:
        identity.require_creator(self.limits.creator_digests, caller.token)
        return await self.create_as(request, caller.token)

    async def create_as(self, request: tournament_pb2.CreateRoundRequest, token: str | None
                        ) -> tournament_pb2.CreateRoundResponse:
        """CreateRound for the holder of `token`, once it may create: the call's caller, or
        the service's tournament director (director/, with its event's own secret token)."""
        variant, options = self._check(request)
        label = request.tournament
        owner = digest(token) if token is not None else _ANONYMOUS
        held = await self.store.claim_owner(label, owner, self.limits.retention_ms)
        if not hmac.compare_digest(held, owner):
            raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.NOT_TOURNAMENT_OWNER,
                               f"tournament {label!r} belongs to the credential that created "
                               "its first round; only that one adds rounds to it or repeats "
                               "its requests")
        bot_tables = [i for i, t in enumerate(request.games) if _bots_only(t)]
        if bot_tables and not await self.store.planned(label, request.request_id):
            self._check_bot_games(len(bot_tables))
        fingerprint = hashlib.sha256(self._without_id(request)).digest()
        secret = secrets.token_bytes(32)
        planned = self._plan(request, secret)
        stored = await self.store.claim_request(
            label, request.request_id, fingerprint + secret + planned.SerializeToString(
                deterministic=True))
        assert stored is not None  # HSETNX then HGET in one transaction
        if stored[:32] != fingerprint:
            raise ServiceError(Code.INVALID_ARGUMENT, ServiceReason.REQUEST_ID_REUSED,
                               f"request_id {request.request_id!r} was already used for "
                               "another round of this tournament")
        secret = stored[32:_PLAN_HEAD]
        reply = tournament_pb2.CreateRoundResponse.FromString(stored[_PLAN_HEAD:])
        game_ids = [g.game_id for g in reply.games]
        if self.timers is not None:  # counted as played here from now on
            self.timers.bot_only.update(game_ids[i] for i in bot_tables)
        await self.store.add_games(label, request.round, game_ids, self.clock_ms(),
                                   self.limits.retention_ms)
        for index, game in enumerate(reply.games):
            table = _Table(list(request.games[index].seats),
                           *self._draws(secret, index, request.duplicate))
            await self._open(request, table, variant=variant, options=options, game=game,
                             host_token=reply.host_token,
                             duplicates=game_ids if request.duplicate else [])
            await self.results.sync_after_commit(game.game_id, label)
        await self._notify(request, reply, variant)
        return reply

    async def _notify(self, request: tournament_pb2.CreateRoundRequest,
                      reply: tournament_pb2.CreateRoundResponse, variant: str) -> None:
        """The `round.created` webhook (docs/notifications.md), keyed by the request: a
        retried CreateRound, which is how a crash before this line is made good, queues
        nothing new."""
        notifier = self.commands.commits.effects.notifier
        if notifier is None:
            return
        games = [{"game_id": game.game_id,
                  "seats": [{"seat": seat, "bot": s.WhichOneof("occupant") == "bot",
                             "name": s.player if s.WhichOneof("occupant") == "player"
                             else f"bot ({level_name(s.bot or DEFAULT_LEVEL)})"}
                            for seat, s in enumerate(request.games[index].seats)]}
                 for index, game in enumerate(reply.games)]
        await notifier.enqueue(ROUND_CREATED, {
            "tournament": request.tournament, "round": request.round, "variant": variant,
            "duplicate": request.duplicate, "games": games,
        }, key=f"{ROUND_CREATED}/{request.tournament}/{request.request_id}")

    def _check(self, request: tournament_pb2.CreateRoundRequest) -> tuple[str, object]:
        """The variant and its options (with duplicate play's discipline), once the request
        is known to be well formed."""
        check_label(request.tournament)
        if not request.request_id:
            raise malformed("request_id is required: a retried CreateRound must not create "
                            "a second round")
        check_request_id(request.request_id)
        if not request.games:
            raise malformed("a round needs at least one game")
        limit = self.limits.max_round_games
        if len(request.games) > limit:
            raise ServiceError(Code.RESOURCE_EXHAUSTED, ServiceReason.TOO_MANY_ROUND_GAMES,
                               f"a round holds at most {limit} games, not {len(request.games)}",
                               {"limit": str(limit)})
        bots_only = sum(map(_bots_only, request.games))
        limit = self.limits.max_round_bot_tables
        if bots_only > limit:
            raise ServiceError(Code.RESOURCE_EXHAUSTED, ServiceReason.TOO_MANY_BOT_GAMES,
                               f"a round holds at most {limit} tables of bots only (no player "
                               f"seat), not {bots_only}", {"limit": str(limit)})
        try:
            variant, options = wire.options_from_proto(request.options)
        except wire.VariantNotServed as exc:
            raise ServiceError(Code.UNIMPLEMENTED, ServiceReason.VARIANT_NOT_AVAILABLE,
                               str(exc)) from None
        check_turns(options, self.limits.max_turns)
        if request.duplicate:
            if not any(f.name == "duplicate_draws" for f in dataclasses.fields(options)):
                raise malformed(f"duplicate play is not available for {variant} yet")
            options = dataclasses.replace(options, duplicate_draws=True)
        rules = REGISTRY[variant]
        try:
            players = rules.seat_count(rules.create(options, 0)[0])
        except IllegalAction as exc:
            raise malformed(f"options: {exc.message}") from None
        for number, table in enumerate(request.games):
            if len(table.seats) != players:
                raise malformed(f"game {number} has {len(table.seats)} seats; the options "
                                f"seat {players}")
            for seat, occupant in enumerate(table.seats):
                which = occupant.WhichOneof("occupant")
                if which is None:
                    raise malformed(f"game {number} seat {seat}: name a player or a bot")
                if which == "player" and not 0 < len(occupant.player) <= MAX_NAME:
                    raise malformed(f"game {number} seat {seat}: a player's label has 1 to "
                                    f"{MAX_NAME} characters")
                if which == "bot" and occupant.bot not in tournament_pb2.BotLevel.values():
                    raise malformed(f"game {number} seat {seat}: unknown bot level "
                                    f"{occupant.bot}")
                if occupant.player_id and which != "player":
                    raise malformed(f"game {number} seat {seat}: a bot's seat belongs to no "
                                    "player (player_id)")
            try:
                check_seat_players([s.player_id for s in table.seats], players)
            except ServiceError as exc:
                raise malformed(f"game {number}: {exc.message}") from None
        return variant, options

    def _check_bot_games(self, new: int) -> None:
        """Refuse a new round whose tables of bots only would take this process past the
        games of bots only it plays at once (those bound its bots' work, whoever asks)."""
        if self.timers is None:
            return
        limit, playing = self.limits.max_bot_only_games, self.timers.bot_only_games()
        if playing + new > limit:
            raise ServiceError(Code.RESOURCE_EXHAUSTED, ServiceReason.TOO_MANY_BOT_GAMES,
                               f"this process plays {playing} games of bots only, at most "
                               f"{limit} at once; {new} more do not fit: retry once some are "
                               "over, or seat a player", {"limit": str(limit)})

    @staticmethod
    def _without_id(request: tournament_pb2.CreateRoundRequest) -> bytes:
        copy = tournament_pb2.CreateRoundRequest()
        copy.CopyFrom(request)
        copy.request_id = ""
        return copy.SerializeToString(deterministic=True)

    @staticmethod
    def _draws(secret: bytes, index: int, duplicate: bool) -> tuple[int, bytes]:
        """A game's seed (one for every game of a duplicate round) and its nonce."""
        seed = int.from_bytes(_derived(secret, b"seed", 0 if duplicate else index)[:8], "big")
        return seed, _derived(secret, b"nonce", index)

    def _plan(self, request: tournament_pb2.CreateRoundRequest, secret: bytes
              ) -> tournament_pb2.CreateRoundResponse:
        """The reply this request gets if it is the first with its request id."""
        now = self.clock_ms()
        reply = tournament_pb2.CreateRoundResponse(
            tournament=request.tournament, round=request.round, host_token=self.new_token())
        for index, table in enumerate(request.games):
            seed, nonce = self._draws(secret, index, request.duplicate)
            reply.games.add(
                game_id=f"{now:012x}{secrets.token_hex(5)}",
                seat_tokens=[self.new_token() if s.WhichOneof("occupant") == "player" else ""
                             for s in table.seats],
                seed_commitment=seed_commitment(seed, nonce),
            )
        return reply

    async def _open(self, request: tournament_pb2.CreateRoundRequest, table: _Table, *,
                    variant: str, options: object, game: tournament_pb2.RoundGame,
                    host_token: str, duplicates: list[str]) -> None:
        """Create one game of the plan unless it exists, and start it."""
        bots = [s.bot or DEFAULT_LEVEL if s.WhichOneof("occupant") == "bot" else 0
                for s in table.seats]
        names = [s.player if s.WhichOneof("occupant") == "player"
                 else f"bot ({level_name(level)})" for s, level in zip(table.seats, bots,
                                                                         strict=True)]
        # a bot's seat is taken by a token nobody holds: the service plays it
        digests = tuple(digest(token) if token else digest(secrets.token_urlsafe(32))
                        for token in game.seat_tokens)

        def setup(meta: lifecycle_pb2.GameMeta, now_ms: int) -> tuple[tuple[str, bytes], ...]:
            meta.tournament = request.tournament
            meta.round = request.round
            meta.bot_levels.extend(bots)
            for seat, level in enumerate(bots):
                meta.bot_seats[seat] = bool(level)
            meta.duplicate_games.extend(duplicates)
            if any(s.player_id for s in table.seats):  # docs/players.md
                meta.seat_players.extend(s.player_id for s in table.seats)
            created = Fact(game_id=game.game_id, round=request.round, game_version=0,
                           at_ms=now_ms, created=Fact.Created(
                               players=[s.player for s in table.seats],
                               bots=bots,  # type: ignore[arg-type]
                               seed_commitment=game.seed_commitment,
                               duplicate=request.duplicate))
            return fact_fields(meta, [created])

        await self.commands.open_game(
            variant, options, table.seed, game_id=game.game_id, names=names,
            seat_digests=lambda _players: digests, host_digest=digest(host_token),
            clock=request.clock, nonce=table.nonce, setup=setup, if_absent=True)


def _bots_only(table: tournament_pb2.RoundTable) -> bool:
    """A table with no player seat: nobody's moves set its pace."""
    return all(s.WhichOneof("occupant") == "bot" for s in table.seats)
