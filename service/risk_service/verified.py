"""Where the service says that a presented token proved to be a credential.

Rate limits (server.limits) give a caller its own bucket only once its token has matched a
seat, host, organiser or campaign credential; until then the caller is its network address,
so inventing a new token per call buys nothing. The games and campaigns call `VERIFIED` with
the SHA-256 digest of a token they accepted; the RPC layer points it, for each call, at the
process's bounded record of such digests (the default does nothing: no limits configured).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

VERIFIED: ContextVar[Callable[[bytes], None]] = ContextVar("verified", default=lambda _d: None)
