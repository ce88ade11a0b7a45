"""Who a caller is: token digests, the `Caller` a token is for one game, and the checks that a
call comes from a creator, the host or the seat it acts for.

Every comparison of a presented token with a stored digest is constant-time and runs over all
the digests it might match, so timing tells nothing about which (if any) it was.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass

from risk_service.errors import Code, ServiceError, ServiceReason
from risk_service.operations.limits import Limits
from risk_service.store.game_store import GameRecord
from risk_service.verified import VERIFIED

# Asks whether the current call's peer presented a verified client certificate (mutual TLS).
# The transport sets it per call (each call runs in its own task, so the value stays with it);
# it is asked only when an organiser token needs one, as reading the call's auth context on
# every call would cost every call.
CLIENT_CERT: ContextVar[Callable[[], bool]] = ContextVar("client_cert", default=lambda: False)

_NO_DIGEST = b"\0" * 32  # stands in for a seat without a token: matches no token's digest


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
class Caller:
    seat: int | None  # None: a spectator, the host or an organiser (no seat)
    host: bool = False
    organiser: bool = False


def identify(record: GameRecord, token: str | None, limits: Limits) -> Caller:
    """Who the token is for this game; organiser tokens may also need this call's client
    certificate (CLIENT_CERT)."""
    if token is None:
        return Caller(None)
    presented = digest(token)
    seat = None
    for index, stored in enumerate(record.seat_digests):
        if hmac.compare_digest(stored or _NO_DIGEST, presented):
            seat = index
    host = hmac.compare_digest(record.host_digest or _NO_DIGEST, presented)
    organiser = _any_of(limits.organiser_digests, presented)
    if organiser and limits.organiser_needs_client_cert and not CLIENT_CERT.get()():
        raise ServiceError(
            Code.PERMISSION_DENIED, ServiceReason.ORGANISER_NEEDS_CLIENT_CERT,
            "organiser tokens are accepted only with a client certificate (mutual TLS)",
        )
    if seat is None and not host and not organiser:
        raise ServiceError(Code.UNAUTHENTICATED, ServiceReason.BAD_CREDENTIALS,
                           "the token is not valid for this game")
    VERIFIED.get()(presented)  # a credential: its caller is rate-limited as itself
    return Caller(seat, host, organiser)


def acting_seat(caller: Caller, token: str | None, requested: int | None) -> int:
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


def require_host(caller: Caller, token: str | None) -> None:
    if token is None:
        raise ServiceError(Code.UNAUTHENTICATED, ServiceReason.MISSING_CREDENTIALS,
                           "this call needs the host's token")
    if not caller.host:
        raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.NOT_HOST,
                           "only the host may do this")
