"""Risk Legacy campaigns as a service resource: create, read, list, start the next game, and
take the end-of-game reward decisions.

The campaign record (`risk.v1.CampaignState` plus bookkeeping) is a Redis hash that shares its
hash tag with every game of the campaign (game ids are "<campaign id>.<n>"), so the commit
that ends a campaign game also records its result in the campaign atomically, on Redis Cluster
too. The rules of the campaign (what a game leaves in the world, which rewards are offered)
are the engine's `engine.legacy.campaign`; this module stores and authorises. It imports
them (and with them the Legacy engine) when a campaign is first used, as the engine's
registry imports each variant on first lookup: a service no campaign reaches does not pay
for them (60 ms of CPU at every start, most of it building the engine's dataclasses).

A campaign's seats may belong to players (`seat_players`, docs/players.md): the record keeps
each seat's player id (`player:<seat>`) and, for a campaign created with a player credential,
its host player (`host_player`); every game the campaign starts carries them in its meta, so
the player acts in each game with their own credential, and the games show in their
ListMyGames and their stream, and send their "your turn" webhooks, as any game whose seats
are bound. The campaign's seat tokens are issued and act as before, beside the players.
"""

from __future__ import annotations

import dataclasses
import functools
import hmac
import secrets
from typing import Any

from risk_proto.risk.v1 import legacy_pb2, lifecycle_pb2, service_pb2
from risk_rules import wire
from risk_rules.engine import Event, IllegalAction
from risk_service.errors import Code, ServiceError, ServiceReason, malformed
from risk_service.finishing import to_the_end
from risk_service.operations import (
    ACTIVE,
    FINAL,
    WAITING,
    Caller,
    GameService,
    digest,
    require_creator,
)
from risk_service.operations.commands import check_seat_players
from risk_service.operations.commit import CAMPAIGN_ACTIVE
from risk_service.store.game_store import GameRecord

# The Legacy engine's campaign rules and their wire form, imported on a campaign's first use.
# (Each method imports what it uses; after the first, an import is a lookup in sys.modules.)


@functools.cache
def _rewards() -> dict[str, type[Any]]:
    from risk_rules.engine.legacy import campaign as rules  # noqa: PLC0415 - on first use
    return {wire.snake(cls.__name__): cls for cls in rules.REWARD_TYPES}


@functools.cache
def _event_cases() -> dict[type[Event], str]:
    from risk_rules.engine.legacy import campaign as rules  # noqa: PLC0415 - on first use
    return {cls: wire.snake(cls.__name__) for cls in (
        rules.ContinentNamed, rules.CityFounded, rules.ScarCancelled,
        rules.ContinentBonusChanged, rules.CityFortified, rules.CardUpgraded,
        rules.RewardDeclined, rules.RewardsDone,
    )}


def reward_from_proto(message: legacy_pb2.LegacyReward) -> Any:
    kind = message.WhichOneof("kind")
    if kind is None:
        raise malformed("reward: no kind set")
    return wire.from_message(getattr(message, kind), _rewards()[kind])


class CampaignService:
    def __init__(self, games: GameService) -> None:
        self.games = games
        self.store = games.store

    def _cut_short(self, raw: dict[bytes, bytes], last: GameRecord | None, now: int) -> bool:
        """Whether the campaign's last game number was claimed by a start that did not finish
        (its process died between the claim and the game's start): then the next start
        finishes it under that number instead of claiming another.

        Its game is still waiting (a campaign game has every seat's token from its creation,
        so nothing but its start begins it), or was never stored: the number was claimed
        less long ago than the shortest time a stored game is kept after it ends (the
        retention of a game that ended before it started: cancelled or abandoned while
        waiting), so no stored game can have ended and expired since. An older claim whose
        game is gone was such a game, and its number is not used again.
        """
        if last is not None:
            return last.status == WAITING
        claimed = int(raw.get(b"claimed", b"0"))
        return now - claimed < self.games.limits.retention(WAITING)

    async def _load(self, campaign_id: str) -> dict[bytes, bytes]:
        if not campaign_id or len(campaign_id) > 64 or not campaign_id.isalnum():
            raise malformed(f"campaign_id {campaign_id[:80]!r} is not a campaign id")
        raw = await self.store.load_campaign(campaign_id)
        if not raw:
            raise ServiceError(Code.NOT_FOUND, ServiceReason.CAMPAIGN_NOT_FOUND,
                               f"no campaign {campaign_id!r}")
        return raw

    @staticmethod
    def _seat(raw: dict[bytes, bytes], caller: Caller) -> tuple[int | None, bool]:
        """(the caller's token's seat or None, whether it is the host's); raises for a bad
        token. A player token holds the seat bound to its player and is the host where its
        player created the campaign; holding neither, it is a valid credential that holds
        nothing here (never BAD_CREDENTIALS), as in a game."""
        if caller.token is None:
            return None, False
        if caller.player is not None:
            bound = _seat_players(raw)
            seat = bound.index(caller.player) if caller.player in bound else None
            return seat, raw.get(b"host_player", b"").decode() == caller.player
        presented = caller.digest or digest(caller.token)
        players = int(raw[b"players"])
        seat = None
        for index in range(players):
            if hmac.compare_digest(raw.get(f"tok:{index}".encode(), b"\0" * 32), presented):
                seat = index
        host = hmac.compare_digest(raw.get(b"tok:host", b"\0" * 32), presented)
        if seat is None and not host:
            raise ServiceError(Code.UNAUTHENTICATED, ServiceReason.BAD_CREDENTIALS,
                               "the token is not valid for this campaign")
        caller.verified()  # a credential: its caller is rate-limited as itself
        return seat, host

    @staticmethod
    def _summary(campaign_id: str, raw: dict[bytes, bytes]) -> service_pb2.CampaignSummary:
        from risk_rules.engine.legacy import campaign as rules  # noqa: PLC0415 - on first use
        from risk_rules.variants.legacy import decode_campaign  # noqa: PLC0415
        state = decode_campaign(raw[b"state"])
        players = int(raw[b"players"])
        games = raw.get(b"games", b"").decode()
        return service_pb2.CampaignSummary(
            campaign_id=campaign_id,
            version=int(raw.get(b"version", b"0")),
            state=legacy_pb2.CampaignState.FromString(raw[b"state"]),
            decision=wire.decision_to_proto(rules.campaign_decision(state)),
            game_ids=[g for g in games.split(",") if g],
            seat_names=[raw.get(f"name:{s}".encode(), b"").decode() for s in range(players)],
            created_at_ms=int(raw.get(b"created", b"0")),
            seat_players=_seat_players(raw) if any(
                f"player:{s}".encode() in raw for s in range(players)) else [],
        )

    async def create(
        self, request: service_pb2.CreateCampaignRequest, caller: Caller
    ) -> service_pb2.CreateCampaignResponse:
        from risk_rules.engine.legacy import campaign as rules  # noqa: PLC0415 - on first use
        from risk_rules.variants.legacy import encode_campaign  # noqa: PLC0415
        require_creator(self.games.limits.creator_digests, caller.token)
        try:
            state = rules.new_campaign(
                request.players,
                tuple(int(c.faction) for c in request.factions),
                tuple(int(c.power) for c in request.factions),
            )
        except IllegalAction as exc:
            raise malformed(f"campaign: {exc.message}") from None
        names = list(request.seat_names)
        if len(names) > request.players or any(len(n) > 64 for n in names):
            raise malformed(f"at most {request.players} seat names of at most 64 characters")
        seat_players = list(request.seat_players)
        check_seat_players(seat_players, request.players)
        now = self.games.clock_ms()
        campaign_id = f"{now:012x}{secrets.token_hex(5)}"
        host_token = self.games.new_token()
        seat_tokens = [self.games.new_token() for _ in range(request.players)]
        fields: dict[str, bytes | str | int] = {
            "state": encode_campaign(state), "version": 0, "players": request.players,
            "created": now, "games": "", "tok:host": digest(host_token), CAMPAIGN_ACTIVE: now,
        }
        for seat, seat_token in enumerate(seat_tokens):
            fields[f"tok:{seat}"] = digest(seat_token)
        for seat, name in enumerate(names):
            fields[f"name:{seat}"] = name
        for seat, player in enumerate(seat_players):
            if player:
                fields[f"player:{seat}"] = player
        if caller.player is not None:  # a player created it: they act as its host too
            fields["host_player"] = caller.player
        # its expiry first: a campaign stored is then always due some day (one whose creation
        # stopped before the record was written is dropped from the index when due)
        await self.store.schedule_campaign(campaign_id, now + self.games.limits.campaign_idle_ms)
        await self.store.create_campaign(campaign_id, fields)
        raw = await self._load(campaign_id)
        return service_pb2.CreateCampaignResponse(
            campaign=self._summary(campaign_id, raw), host_token=host_token,
            seat_tokens=seat_tokens,
        )

    async def get(
        self, request: service_pb2.GetCampaignRequest, caller: Caller
    ) -> service_pb2.GetCampaignResponse:
        from risk_rules.engine.legacy import campaign as rules  # noqa: PLC0415 - on first use
        from risk_rules.variants.legacy import decode_campaign, reward_to_proto  # noqa: PLC0415
        raw = await self._load(request.campaign_id)
        seat, _host = self._seat(raw, caller)
        reply = service_pb2.GetCampaignResponse(
            campaign=self._summary(request.campaign_id, raw),
            viewer_seat=-1 if seat is None else seat,
        )
        if seat is not None:
            state = decode_campaign(raw[b"state"])
            reply.legal_rewards.extend(
                reward_to_proto(entry.action) for entry in rules.legal_rewards(state, seat))
        return reply

    async def list(
        self, request: service_pb2.ListCampaignsRequest
    ) -> service_pb2.ListCampaignsResponse:
        if request.page_size < 0:
            raise malformed("page_size must not be negative")
        size = min(request.page_size or 50, self.games.limits.max_page_size)
        if request.page_token and not request.page_token.isalnum():
            raise malformed("page_token is not one this service issued")
        ids = await self.store.campaign_page(request.page_token, size + 1)
        campaigns = []
        for campaign_id in ids[:size]:
            raw = await self.store.load_campaign(campaign_id)
            if raw:
                campaigns.append(self._summary(campaign_id, raw))
        return service_pb2.ListCampaignsResponse(
            campaigns=campaigns, next_page_token=ids[size - 1] if len(ids) > size else "")

    async def start_game(
        self, request: service_pb2.StartCampaignGameRequest, caller: Caller
    ) -> service_pb2.StartCampaignGameResponse:
        from risk_rules.engine.legacy import campaign as rules  # noqa: PLC0415 - on first use
        from risk_rules.variants.legacy import decode_campaign  # noqa: PLC0415
        campaign_id = request.campaign_id
        raw = await self._load(campaign_id)
        _seat, host = self._seat(raw, caller)
        if caller.token is None:
            raise ServiceError(Code.UNAUTHENTICATED, ServiceReason.MISSING_CREDENTIALS,
                               "starting a campaign game needs the host's token")
        if not host:
            raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.NOT_HOST,
                               "only the host may do this")
        games = [g for g in raw.get(b"games", b"").decode().split(",") if g]
        now = self.games.clock_ms()
        last = await self.store.load(games[-1]) if games else None
        resume = bool(games) and self._cut_short(raw, last, now)
        if last is not None and last.status not in FINAL and not resume:
            raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.GAME_IN_PROGRESS,
                               f"the campaign's game {games[-1]} is still being played")
        state = decode_campaign(raw[b"state"])
        try:
            options = rules.options_for_next_game(
                state, request.max_turns if request.HasField("max_turns") else None)
        except IllegalAction as exc:
            raise ServiceError(Code.FAILED_PRECONDITION, exc.reason, exc.message) from None
        # the game's options name its campaign (views and exports show them)
        options = dataclasses.replace(options, campaign_id=campaign_id)
        players = int(raw[b"players"])
        digests = tuple(raw[f"tok:{s}".encode()] for s in range(players))
        seat_players = _seat_players(raw)
        host_player = raw.get(b"host_player", b"").decode()

        def bind(meta: lifecycle_pb2.GameMeta, _now_ms: int) -> tuple[tuple[str, bytes], ...]:
            # the campaign's players hold their seats in this game too (docs/players.md)
            if any(seat_players):
                meta.seat_players.extend(seat_players)
            if host_player:
                meta.host_player = host_player
            return ()

        async def claim_and_open(game_id: str) -> tuple[GameRecord, Any]:
            if not resume:
                # claim the game number first, so two starts cannot both create a game
                if not await self.store.update_campaign(
                        campaign_id, int(raw.get(b"version", b"0")),
                        [("games", ",".join([*games, game_id])), ("claimed", str(now)),
                         (CAMPAIGN_ACTIVE, str(now))]):
                    raise ServiceError(Code.ABORTED, ServiceReason.STALE_VERSION,
                                       "the campaign changed meanwhile; re-read it and retry")
                await self.store.schedule_campaign(
                    campaign_id, now + self.games.limits.campaign_idle_ms)
            return await self.games.open_game(
                "legacy", options, request.seed if request.HasField("seed") else None,
                game_id=game_id,
                names=[raw.get(f"name:{s}".encode(), b"").decode() for s in range(players)],
                seat_digests=lambda _players: digests, host_digest=raw[b"tok:host"],
                clock=request.clock if request.HasField("clock")
                else lifecycle_pb2.ClockOptions(),
                setup=bind, if_absent=True,
            )

        # resumed: the number is claimed already, and this start finishes that one's game
        game_id = games[-1] if resume else f"{campaign_id}.{len(games) + 1}"
        # from the claim on, the start runs to its end whatever becomes of this call: one
        # cancelled between the writes would leave a game nobody can start
        record, game_state = await to_the_end(claim_and_open(game_id), "start_campaign_game")
        if record.status != ACTIVE:  # a resumed game that ended meanwhile (cancelled, swept)
            raise ServiceError(Code.ABORTED, ServiceReason.STALE_VERSION,
                               f"the campaign's game {game_id} ended as it was started; "
                               "re-read the campaign and retry")
        return service_pb2.StartCampaignGameResponse(
            campaign=self._summary(campaign_id, await self._load(campaign_id)),
            game=self.games.summary(record, game_state),
        )

    async def decide(
        self, request: service_pb2.SubmitCampaignDecisionRequest, caller: Caller
    ) -> service_pb2.SubmitCampaignDecisionResponse:
        from risk_rules.engine.legacy import campaign as rules  # noqa: PLC0415 - on first use
        from risk_rules.variants.legacy import decode_campaign, encode_campaign  # noqa: PLC0415
        raw = await self._load(request.campaign_id)
        seat, _host = self._seat(raw, caller)
        if seat is None:
            raise ServiceError(Code.UNAUTHENTICATED if caller.token is None
                               else Code.PERMISSION_DENIED,
                               ServiceReason.MISSING_CREDENTIALS if caller.token is None
                               else ServiceReason.WRONG_SEAT,
                               "reward decisions are taken with the seat's token or its "
                               "player's")
        reward = reward_from_proto(request.reward)
        version = int(raw.get(b"version", b"0"))
        if request.expected_version != version:
            raise ServiceError(Code.ABORTED, ServiceReason.STALE_VERSION,
                               f"the campaign is at version {version}, not "
                               f"{request.expected_version}",
                               {"current_version": str(version)})
        state, events = rules.apply_reward(decode_campaign(raw[b"state"]), seat, reward)
        now = self.games.clock_ms()
        keep = self._keep(state)

        async def write() -> None:
            if not await self.store.update_campaign(
                    request.campaign_id, version,
                    [("state", encode_campaign(state)), (CAMPAIGN_ACTIVE, str(now))]):
                raise ServiceError(Code.ABORTED, ServiceReason.STALE_VERSION,
                                   "the campaign changed meanwhile; re-read it and retry")
            # the expiry moves on with the decision (a cancel between the two would leave
            # the campaign due at its old time)
            await self.store.schedule_campaign(request.campaign_id, now + keep)

        await to_the_end(write(), "campaign_decision")
        out = []
        for event in events:
            envelope = legacy_pb2.LegacyCampaignEvent()
            wire.to_message(event, getattr(envelope, _event_cases()[type(event)]))
            out.append(envelope)
        return service_pb2.SubmitCampaignDecisionResponse(
            campaign=self._summary(request.campaign_id, await self._load(request.campaign_id)),
            events=out,
        )

    def _keep(self, state: Any) -> int:
        """How long (ms) a campaign is kept after its last activity: a complete one the
        retention, another the idle limit."""
        from risk_rules.engine.legacy import campaign as rules  # noqa: PLC0415 - on first use
        limits = self.games.limits
        return (limits.retention_ms if state.phase is rules.CampaignPhase.COMPLETE
                else limits.campaign_idle_ms)

    async def expire_if_due(self, campaign_id: str) -> bool:
        """Delete a campaign the expiry index says is due (idle too long, or complete and past
        retention), unless its latest game is still being played (then it is due again an
        idle period later) or it changed meanwhile. True if it is gone.

        The index says when to look; the campaign's own time of last activity decides. An
        entry that was not moved on (a process died between a campaign's write and its
        index update) is moved on here instead of deleting the campaign early."""
        from risk_rules.variants.legacy import decode_campaign  # noqa: PLC0415 - on first use
        raw = await self.store.load_campaign(campaign_id)
        if not raw:
            return await self.store.drop_campaign(campaign_id, None)
        due = int(raw.get(CAMPAIGN_ACTIVE.encode(), b"0")) + self._keep(
            decode_campaign(raw[b"state"]))
        if due > self.games.clock_ms():
            await self.store.schedule_campaign(campaign_id, due)
            return False
        games = [g for g in raw.get(b"games", b"").decode().split(",") if g]
        if games:
            last = await self.store.load(games[-1])
            if last is not None and last.status not in FINAL:
                await self.store.schedule_campaign(
                    campaign_id, self.games.clock_ms() + self.games.limits.campaign_idle_ms)
                return False
        return await self.store.drop_campaign(campaign_id, int(raw.get(b"version", b"0")))


def _seat_players(raw: dict[bytes, bytes]) -> list[str]:
    """The player id each seat of the campaign belongs to ("" for none)."""
    return [raw.get(f"player:{s}".encode(), b"").decode() for s in range(int(raw[b"players"]))]
