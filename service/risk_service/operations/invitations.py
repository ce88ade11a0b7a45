"""Invitations to seats (docs/players.md, "Invitations"): a host invites a player by id, or
makes an open-seat link; the invitee (or whoever holds the link's code) accepts, which takes
the seat in one game commit (the join) bound to their player; the invitee declines; the host
revokes; every invitation expires.

An invitation lives in its game's hash, so on the game's slot: `iv:<id>` (the `Invitation`,
with the digest of a link's code in `code`, never the code) and, once answered, `ia:<id>`
(`a:<player>` accepted, `d` declined, `r` revoked). The answer field decides every race: the
acceptance's commit claims it (the commit fails if it exists) and writes it, a decline or
revocation sets it only if it is absent, so exactly one answer lands. Two players accepting one
link race the same way (one commit lands; the other finds the seat taken). Creating, declining
and revoking are not game commits (no event of the game); they record their players' facts
(the invitee's `invitation` entry, the host's answer) in the same script as the invitation,
and player_feed.py copies them exactly once, as a commit's. Each invitee's pending invitations
are indexed under the player's own hash tag (`Keys.player(p, "invites")`, rebuildable from
the games, like "my games"), read by ListInvitations, which checks each one in its game.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from typing import cast

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from risk_proto.risk.v1 import player_games_pb2, service_pb2
from risk_rules import wire
from risk_service.errors import Code, ServiceError, ServiceReason, malformed, not_found
from risk_service.jwt_auth import MAX_PLAYER_ID
from risk_service.operations import identity, records
from risk_service.operations.commands import MAX_NAME, Commands
from risk_service.operations.identity import Caller
from risk_service.operations.player_facts import PlayerEvent, field
from risk_service.operations.player_feed import PlayerFeed, player_required
from risk_service.operations.records import WAITING
from risk_service.store.connection import RedisPyConnection, StoreConnection
from risk_service.store.game_store import GameRecord

Invitation = player_games_pb2.Invitation
PENDING = player_games_pb2.INVITATION_STATE_PENDING
ACCEPTED = player_games_pb2.INVITATION_STATE_ACCEPTED
DECLINED = player_games_pb2.INVITATION_STATE_DECLINED
REVOKED = player_games_pb2.INVITATION_STATE_REVOKED
EXPIRED = player_games_pb2.INVITATION_STATE_EXPIRED

DEFAULT_TTL_S = 7 * 24 * 3600  # an invitation without expires_in_seconds stays open a week
MIN_TTL_S = 60
MAX_TTL_S = 30 * 24 * 3600
_ID = re.compile(r"^[0-9a-f]{16}$")
_CODE = re.compile(r"^([0-9a-f]{12,64}(?:\.[0-9]{1,3})?)-([0-9a-f]{16})-([0-9a-f]{32})$")
_STATE_NAMES = {ACCEPTED: "accepted", DECLINED: "declined", REVOKED: "revoked"}

# KEYS: the game's hash; ARGV: the answer field ("" for none), then field/value pairs.
# Returns 'gone' (no such game), the answer already there, or 'ok'.
_RECORD = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
if ARGV[1] ~= '' then
  local held = redis.call('HGET', KEYS[1], ARGV[1])
  if held then return held end
end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 'ok'
"""


def _digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def not_found_invitation() -> ServiceError:
    return ServiceError(Code.NOT_FOUND, ServiceReason.INVITATION_NOT_FOUND,
                        "no such invitation (or the link's code is not its code)")


class Invitations:
    def __init__(self, commands: Commands, feed: PlayerFeed, *,
                 clock_ms: Callable[[], int], connection: StoreConnection | None = None
                 ) -> None:
        self.commands = commands
        self.commits = commands.commits
        self.store = commands.store
        self.redis: aioredis.Redis | RedisCluster = commands.store.redis
        self.keys = commands.store.keys
        self.limits = commands.limits
        self.feed = feed
        self.clock_ms = clock_ms
        self._record = (connection or RedisPyConnection(self.redis)).script(_RECORD)

    # ---- reading -----------------------------------------------------------------------

    async def _stored(self, game_id: str, invitation_id: str
                      ) -> tuple[Invitation, bytes | None]:
        """The stored invitation and its answer (None: unanswered)."""
        raw, answer = cast(list[bytes | None], await self.redis.hmget(
            self.keys.game(game_id), [f"iv:{invitation_id}", f"ia:{invitation_id}"]))
        if raw is None:
            raise not_found_invitation()
        return Invitation.FromString(raw), answer

    def _state(self, invitation: Invitation, answer: bytes | None, record: GameRecord
               ) -> Invitation:
        """The invitation as a caller is shown it: its state now, no code's digest."""
        shown = Invitation()
        shown.CopyFrom(invitation)
        shown.code = ""
        if answer is not None:
            if answer.startswith(b"a:"):
                shown.state, shown.accepted_by = ACCEPTED, answer[2:].decode()
            else:
                shown.state = DECLINED if answer == b"d" else REVOKED
        elif (self.clock_ms() >= invitation.expires_at_ms or record.status != WAITING
              or record.seat_digests[invitation.seat]):
            shown.state = EXPIRED  # it can no longer be accepted
        else:
            shown.state = PENDING
        return shown

    async def _find(self, game_id: str, invitation_id: str, code: str
                    ) -> tuple[GameRecord, Invitation, bytes | None]:
        """The game and the invitation a request names (by game and id, or by a code)."""
        if code:
            matched = _CODE.match(code)
            if matched is None:
                raise not_found_invitation()
            game_id, invitation_id = matched.group(1), matched.group(2)
        elif not _ID.match(invitation_id):
            raise malformed("invitation_id is not an invitation id (or give a link's code)")
        record = await self.commits.load(game_id)
        invitation, answer = await self._stored(game_id, invitation_id)
        if invitation.invitee == "" and (
                not code or not hmac.compare_digest(invitation.code, _digest(code))):
            raise not_found_invitation()  # a link is named by its code alone
        return record, invitation, answer

    def _closed(self, shown: Invitation) -> ServiceError:
        state = _STATE_NAMES.get(shown.state, "closed")
        return ServiceError(Code.FAILED_PRECONDITION, ServiceReason.INVITATION_CLOSED,
                            f"the invitation was {state} already",
                            {"state": state, "accepted_by": shown.accepted_by})

    def _expired(self, invitation: Invitation) -> ServiceError:
        return ServiceError(Code.FAILED_PRECONDITION, ServiceReason.INVITATION_EXPIRED,
                            f"the invitation expired at {invitation.expires_at_ms} (Unix ms)",
                            {"expires_at_ms": str(invitation.expires_at_ms)})

    async def _write(self, game_id: str, key: str, answer_field: str,
                     pairs: list[tuple[str, bytes]], facts: list[PlayerEvent]) -> bytes:
        """One script on the game's slot: `pairs` and the facts (under `key`), unless the
        game is gone or `answer_field` is set already; what the script answered."""
        if facts:
            pairs = [*pairs, (field(key), player_games_pb2.PlayerEventBatch(
                events=facts).SerializeToString(deterministic=True))]
            await self.feed.intend(game_id, [key])
        args: list[str | bytes] = [answer_field]
        for name, value in pairs:
            args.extend((name, value))
        outcome = cast(bytes, await self._record([self.keys.game(game_id)], args))
        if outcome == b"gone":
            raise not_found(game_id)
        if outcome == b"ok" and facts:
            await self.feed.after_write(game_id, [key])
        return outcome

    def _fact(self, player: str, shown: Invitation, seat: int = -1) -> PlayerEvent:
        return PlayerEvent(player_id=player, game_id=shown.game_id, at_ms=self.clock_ms(),
                           seat=seat, variant=shown.variant, invitation=shown)

    # ---- the calls ---------------------------------------------------------------------

    async def create(self, request: player_games_pb2.CreateInvitationRequest, caller: Caller
                     ) -> Invitation:
        record = await self.commits.load(request.game_id)
        identity.require_host(identity.identify(record, caller, self.limits), caller.token)
        if request.link == bool(request.invitee):
            raise malformed("name the invitee (a player id), or ask for a link: one of them")
        if len(request.invitee) > MAX_PLAYER_ID:
            raise malformed(f"a player id has 1 to {MAX_PLAYER_ID} characters")
        if not 0 <= request.seat < record.players:
            raise malformed(f"seat must be 0..{record.players - 1}, got {request.seat}")
        ttl_s = request.expires_in_seconds or DEFAULT_TTL_S
        if not MIN_TTL_S <= ttl_s <= MAX_TTL_S:
            raise malformed(f"expires_in_seconds is {MIN_TTL_S} to {MAX_TTL_S} (0: "
                            f"{DEFAULT_TTL_S}), not {request.expires_in_seconds}")
        records.require_status(record, WAITING)
        if record.seat_digests[request.seat]:
            raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.SEAT_TAKEN,
                               f"seat {request.seat} is taken")
        meta = records.decode_meta(record)
        if request.invitee and identity.player_seat(meta, request.invitee) is not None:
            raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.PLAYER_ALREADY_SEATED,
                               "the invitee holds a seat of this game already")
        now = self.clock_ms()
        invitation = Invitation(
            invitation_id=secrets.token_hex(8), game_id=record.game_id, seat=request.seat,
            invitee=request.invitee, host_player=caller.player or "", created_at_ms=now,
            expires_at_ms=now + ttl_s * 1000, variant=wire.variant_enum(record.variant),
            state=PENDING)
        code = (f"{record.game_id}-{invitation.invitation_id}-{secrets.token_hex(16)}"
                if request.link else "")
        stored = Invitation()
        stored.CopyFrom(invitation)
        stored.code = _digest(code) if code else ""
        facts = [self._fact(request.invitee, invitation)] if request.invitee else []
        if request.invitee:  # indexed first: a listing checks every entry in its game
            key = self.keys.player(request.invitee, "invites")
            await self.redis.zadd(key, {f"{record.game_id}/{invitation.invitation_id}":
                                        invitation.expires_at_ms})
            await self.redis.pexpire(key, MAX_TTL_S * 1000)
        await self._write(record.game_id, f"i{invitation.invitation_id}", "",
                          [(f"iv:{invitation.invitation_id}",
                            stored.SerializeToString(deterministic=True))], facts)
        invitation.code = code
        return invitation

    async def accept(self, request: player_games_pb2.AcceptInvitationRequest, caller: Caller
                     ) -> player_games_pb2.AcceptInvitationResponse:
        player = player_required(caller)
        if len(request.display_name) > MAX_NAME:
            raise malformed(f"display_name is longer than {MAX_NAME} characters")
        record, invitation, answer = await self._find(request.game_id,
                                                      request.invitation_id, request.code)
        if invitation.invitee and invitation.invitee != player:
            raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.NOT_INVITED,
                               "this invitation is for another player")
        invitation_id, seat = invitation.invitation_id, invitation.seat
        answer_field = f"ia:{invitation_id}"

        async def check(current: GameRecord) -> None:
            """Refuse on each attempt's fresh record (a decline or revocation may land
            between attempts; the answer field decides)."""
            held = await self.redis.hget(self.keys.game(current.game_id), answer_field)
            if held is not None:
                raise self._closed(self._state(invitation, cast(bytes, held), current))
            if self.clock_ms() >= invitation.expires_at_ms:
                raise self._expired(invitation)

        if answer is not None:
            raise self._closed(self._state(invitation, answer, record))
        accepted = Invitation()
        accepted.CopyFrom(invitation)
        accepted.code = ""
        accepted.state, accepted.accepted_by = ACCEPTED, player
        fields: list[tuple[str, bytes]] = [(answer_field, f"a:{player}".encode())]
        if invitation.host_player and invitation.host_player != player:
            fields.append((field(f"a{invitation_id}"), player_games_pb2.PlayerEventBatch(
                events=[self._fact(invitation.host_player, accepted, -1)]
            ).SerializeToString(deterministic=True)))
        reply = service_pb2.JoinGameResponse(seat=seat, seat_token=self.commands.new_token(),
                                             player_id=player)
        joined = await self.commands.take_seat(
            record, seat, request.display_name, player, reply=reply, stored=b"",
            fields=tuple(fields),
            claim=answer_field, check=check)
        return player_games_pb2.AcceptInvitationResponse(
            game_id=record.game_id, seat=joined.seat, seat_token=joined.seat_token,
            player_id=player)

    async def _answer(self, record: GameRecord, invitation: Invitation, answer: bytes | None,
                      *, mark: bytes, state: int, tell: str) -> Invitation:
        """Decline (`d`) or revoke (`r`) an open invitation, telling `tell` ("" nobody)."""
        if answer is not None:
            raise self._closed(self._state(invitation, answer, record))
        if self._state(invitation, None, record).state == EXPIRED:
            raise self._expired(invitation)
        shown = self._state(invitation, None, record)
        shown.state = state  # type: ignore[assignment]  # one of the enum's numbers
        facts = [self._fact(tell, shown)] if tell else []
        invitation_id = invitation.invitation_id
        outcome = await self._write(record.game_id, f"{mark.decode()}{invitation_id}",
                                    f"ia:{invitation_id}", [(f"ia:{invitation_id}", mark)],
                                    facts)
        if outcome != b"ok":  # answered meanwhile (accepted, or the other answer)
            raise self._closed(self._state(invitation, outcome, record))
        if invitation.invitee:
            await self.redis.zrem(self.keys.player(invitation.invitee, "invites"),
                                  f"{record.game_id}/{invitation_id}")
        return shown

    async def decline(self, request: player_games_pb2.InvitationRequest, caller: Caller
                      ) -> Invitation:
        player = player_required(caller)
        record, invitation, answer = await self._find(request.game_id,
                                                      request.invitation_id, request.code)
        if invitation.invitee != player:
            raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.NOT_INVITED,
                               "only the invited player may decline an invitation (a link "
                               "is revoked by its host)")
        return await self._answer(record, invitation, answer, mark=b"d", state=DECLINED,
                                  tell=invitation.host_player)

    async def revoke(self, request: player_games_pb2.InvitationRequest, caller: Caller
                     ) -> Invitation:
        if request.code:
            raise malformed("revoke names the invitation by game_id and invitation_id")
        record = await self.commits.load(request.game_id)
        identity.require_host(identity.identify(record, caller, self.limits), caller.token)
        if not _ID.match(request.invitation_id):
            raise malformed("invitation_id is not an invitation id")
        invitation, answer = await self._stored(record.game_id, request.invitation_id)
        return await self._answer(record, invitation, answer, mark=b"r", state=REVOKED,
                                  tell=invitation.invitee)

    async def list(self, request: player_games_pb2.ListInvitationsRequest, caller: Caller
                   ) -> player_games_pb2.ListInvitationsResponse:
        """The caller's pending invitations, soonest to expire first; or, for the host of
        `game_id`, every invitation of that game in any state."""
        if request.game_id:
            record = await self.commits.load(request.game_id)
            identity.require_host(identity.identify(record, caller, self.limits),
                                  caller.token)
            game = self.keys.game(record.game_id)
            ids = sorted(f[3:].decode() for f in cast(list[bytes], await self.redis.hkeys(game))
                         if f.startswith(b"iv:"))
            every = []
            for invitation_id in ids:
                invitation, answer = await self._stored(record.game_id, invitation_id)
                every.append(self._state(invitation, answer, record))
            every.sort(key=lambda i: (i.created_at_ms, i.invitation_id))
            return player_games_pb2.ListInvitationsResponse(invitations=every)
        player = player_required(caller)
        key = self.keys.player(player, "invites")
        now = self.clock_ms()
        await self.redis.zremrangebyscore(key, "-inf", now)
        members = cast(list[bytes], await self.redis.zrange(key, 0, -1))
        pending, stale = [], []
        for member in members:
            game_id, _, invitation_id = member.decode().partition("/")
            stored = await self.store.load(game_id)
            try:
                if stored is None:
                    raise not_found_invitation()
                invitation, answer = await self._stored(game_id, invitation_id)
            except ServiceError:
                stale.append(member)
                continue
            shown = self._state(invitation, answer, stored)
            if shown.state == PENDING:
                pending.append(shown)
            else:
                stale.append(member)
        if stale:
            await self.redis.zrem(key, *stale)
        return player_games_pb2.ListInvitationsResponse(invitations=pending)
