"""Who a caller is: the `Caller` its transport read off the wire (token, address, client
certificate, the admission record its call is charged to), the `Role` its token holds in one
game, and the checks that a call comes from a creator, the host or the seat it acts for.

A `Caller` is built once per call by its transport and handed to the operation as an argument:
what the operations tell the transport back (this token proved a credential; charge these
replay steps) goes through it too, never through a context variable, so a transport that
forgets to set one cannot silently get other answers (the HTTP port once did).

Every comparison of a presented token with a stored digest is constant-time and runs over all
the digests it might match, so timing tells nothing about which (if any) it was.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from risk_proto.risk.v1 import lifecycle_pb2
from risk_service.errors import Code, ServiceError, ServiceReason
from risk_service.operations.limits import Limits
from risk_service.store.game_store import GameRecord

_NO_DIGEST = b"\0" * 32  # stands in for a seat without a token: matches no token's digest
_BEARER = "bearer "


class Ledger(Protocol):
    """What a call's admission keeps about its caller (server.calls.Admission): the tokens
    that proved credentials, and the replay budgets."""

    def verified(self, digest: bytes) -> None:
        """`digest`'s token matched a credential: from now on it is a caller of its own."""

    def charge_replay(self, caller: Caller, steps: int) -> None:
        """Spend `steps` of the caller's replay budget, or raise RESOURCE_EXHAUSTED."""


def _no_client_cert() -> bool:
    return False


class Caller:
    """Who makes one call, as its transport read it: the `authorization` value as sent (None
    without one), the bearer `token` in it (set once the call's route reads credentials:
    server.routes), the `peer` in gRPC's form ("ipv4:1.2.3.4:5678", the HTTP port writes its
    clients so too), whether the peer presented a verified client certificate (`client_cert`,
    asked only when an organiser token needs one: reading gRPC's auth context costs every call
    that asks), and the `ledger` of the admission that let the call in (None: no limits).
    `player`: the player id of a verified player token (a JWT's `sub`, set by
    operations.players before the operation runs; docs/players.md), None for any other."""

    __slots__ = ("_digest", "authorization", "client_cert", "ledger", "peer", "player", "token")

    def __init__(self, authorization: str | None = None, *, token: str | None = None,
                 peer: str = "unknown", client_cert: Callable[[], bool] = _no_client_cert,
                 ledger: Ledger | None = None) -> None:
        self.authorization = authorization
        self.token = token
        self.peer = peer
        self.client_cert = client_cert
        self.ledger = ledger
        self.player: str | None = None
        self._digest: bytes | bool | None = False  # False: not computed yet

    @classmethod
    def of(cls, token: str | None, *, peer: str = "unknown",
           ledger: Ledger | None = None) -> Caller:
        """A caller presenting `token` (None: none), as a transport would have read it."""
        return cls(None if token is None else f"Bearer {token}", token=token, peer=peer,
                   ledger=ledger)

    @property
    def digest(self) -> bytes | None:
        """The SHA-256 digest of the bearer token in `authorization`, as stored digests are
        compared with it; None without a well-formed one. Computed once per call."""
        if self._digest is False:
            auth = self.authorization
            token = auth[7:].strip() if auth and auth[:7].lower() == _BEARER else ""
            self._digest = hashlib.sha256(token.encode()).digest() if token else None
        return self._digest  # type: ignore[return-value]  # False is replaced above

    def verified(self) -> None:
        """This call's token matched a credential: its caller is rate-limited as itself."""
        if self.ledger is not None and (found := self.digest) is not None:
            self.ledger.verified(found)

    def charge_replay(self, steps: int) -> None:
        """Spend `steps` replay steps of this caller's budget (RESOURCE_EXHAUSTED over it)."""
        if self.ledger is not None:
            self.ledger.charge_replay(self, steps)


ANONYMOUS = Caller()  # no token, no address: the service's own calls, and tests


def digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def holds(stored: bytes, token: str | None) -> bool:
    """Whether `token` is the one whose digest is `stored` (b"": nobody's)."""
    return token is not None and hmac.compare_digest(stored or _NO_DIGEST, digest(token))


def _any_of(digests: tuple[bytes, ...], presented: bytes) -> bool:
    found = False
    for stored in digests:
        found |= hmac.compare_digest(stored, presented)
    return found


def require_creator(creators: tuple[bytes, ...], token: str | None) -> None:
    """Refuse a creation without a creator token, when creator tokens are configured."""
    if not creators:
        return
    if token is None:
        raise ServiceError(Code.UNAUTHENTICATED, ServiceReason.MISSING_CREDENTIALS,
                           "creating needs a creator token: metadata "
                           "'authorization: Bearer <token>'")
    if not _any_of(creators, digest(token)):
        raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.NOT_CREATOR,
                           "this token may not create games or campaigns")


@dataclass(frozen=True, slots=True)
class Role:
    """What a caller's token holds in one game."""

    seat: int | None  # None: a spectator, the host or an organiser (no seat)
    host: bool = False
    organiser: bool = False


SPECTATOR = Role(None)


def player_seat(meta: lifecycle_pb2.GameMeta, player: str) -> int | None:
    """The seat of the game that belongs to `player` (a player holds at most one per game)."""
    for seat, holder in enumerate(meta.seat_players):
        if holder == player:
            return seat
    return None


def _as_player(record: GameRecord, player: str) -> Role:
    """A verified player's role in the game: the seat bound to them, the host if they created
    it; else a spectator (a valid credential that holds nothing here, as no token would)."""
    if not record.meta:
        return SPECTATOR
    meta = lifecycle_pb2.GameMeta.FromString(record.meta)
    seat = player_seat(meta, player)
    host = bool(meta.host_player) and meta.host_player == player
    return Role(seat, host) if seat is not None or host else SPECTATOR


def identify(record: GameRecord, caller: Caller, limits: Limits) -> Role:
    """What the caller's token is in this game; organiser tokens may also need the caller's
    client certificate. A player token acts for the seat bound to its player."""
    if caller.token is None:
        return SPECTATOR
    if caller.player is not None:
        return _as_player(record, caller.player)
    presented = caller.digest or digest(caller.token)
    seat = None
    for index, stored in enumerate(record.seat_digests):
        if hmac.compare_digest(stored or _NO_DIGEST, presented):
            seat = index
    host = hmac.compare_digest(record.host_digest or _NO_DIGEST, presented)
    organiser = _any_of(limits.organiser_digests, presented)
    if organiser and limits.organiser_needs_client_cert and not caller.client_cert():
        raise ServiceError(
            Code.PERMISSION_DENIED, ServiceReason.ORGANISER_NEEDS_CLIENT_CERT,
            "organiser tokens are accepted only with a client certificate (mutual TLS)",
        )
    if seat is None and not host and not organiser:
        raise ServiceError(Code.UNAUTHENTICATED, ServiceReason.BAD_CREDENTIALS,
                           "the token is not valid for this game")
    caller.verified()  # a credential: its caller is rate-limited as itself
    return Role(seat, host, organiser)


def acting_seat(caller: Role, token: str | None, requested: int | None) -> int:
    """The seat a call acts for: the token's own, and `requested` only when it is that one."""
    if token is None:
        raise ServiceError(
            Code.UNAUTHENTICATED, ServiceReason.MISSING_CREDENTIALS,
            "this call needs a seat token: metadata 'authorization: Bearer <token>'",
        )
    if caller.seat is None:
        raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.WRONG_SEAT,
                           "this token holds no seat; join a seat to act")
    if requested is not None and requested != caller.seat:
        raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.WRONG_SEAT,
                           f"this token acts for seat {caller.seat}, not seat {requested}")
    return caller.seat


def require_host(caller: Role, token: str | None) -> None:
    if token is None:
        raise ServiceError(Code.UNAUTHENTICATED, ServiceReason.MISSING_CREDENTIALS,
                           "this call needs the host's token")
    if not caller.host:
        raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.NOT_HOST,
                           "only the host may do this")
