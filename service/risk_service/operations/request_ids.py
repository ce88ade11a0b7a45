"""Request ids: their form, and the replies stored under them.

A reply is stored with its request id as a fingerprint of the request followed by the reply's
bytes, so a retry of the same request gets the same bytes and the same id with another request
is refused."""

from __future__ import annotations

import hmac
import re

from risk_service.errors import Code, ServiceError, ServiceReason, malformed

_REQUEST_ID = re.compile(r"^[\x21-\x7e]{1,128}$")  # printable ASCII without spaces
FINGERPRINT = 32  # bytes of SHA-256 in front of a stored reply


def check_request_id(request_id: str) -> None:
    """Refuse a request id that is set but not of the form every request id has."""
    if request_id and not _REQUEST_ID.match(request_id):
        raise malformed("request_id must be 1 to 128 printable ASCII characters, no spaces")


def replay(prior: bytes, fingerprint: bytes, request_id: str,
           other: str = "a different action") -> bytes:
    """The reply stored with a request id (a serialised SubmitActionResponse, or for a join a
    JoinGameResponse), if it was stored for this very request."""
    if not hmac.compare_digest(prior[:FINGERPRINT], fingerprint):
        raise ServiceError(
            Code.INVALID_ARGUMENT, ServiceReason.REQUEST_ID_REUSED,
            f"request_id {request_id!r} was already used for {other}",
        )
    return prior[FINGERPRINT:]
