"""Players: who a player token names, and the service's own player tokens (docs/players.md).

A player is an identity, a seat is a role. Before any operation that reads credentials runs
(server.routes), a bearer token that is a JWT is verified here (jwt_auth.TokenVerifier) and
its `sub` becomes the call's `Caller.player`; identity.identify then finds the seat bound to
that player in the game's meta. Opaque tokens (seats, hosts, creators, organisers) pass
untouched, as before.

Where the deployment names an identity provider (RISK_JWT_JWKS) its tokens are verified
against its key set. Where it names none, the service is its own provider: IssuePlayerToken
makes a player id and signs a token for it with an Ed25519 key (RISK_PLAYER_SIGNING_KEY, or
one generated at first start and kept in Redis so that every process signs and verifies
alike), verified by the same code. Nothing about a player is stored: the token is the whole
of it, and seats name the player id.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from risk_proto.risk.v1 import players_pb2
from risk_service.errors import Code, ServiceError, ServiceReason
from risk_service.jwt_auth import (
    KeySet,
    TokenSigner,
    TokenVerifier,
    jwks_source,
    looks_like_jwt,
)
from risk_service.operations import identity
from risk_service.operations.identity import Caller

SELF_ISSUER = "risk-service"  # the service's own tokens' `iss` and `aud` when not set
SELF_AUDIENCE = "risk"
DEFAULT_TTL_S = 30 * 24 * 3600


def new_player_id() -> str:
    """A player id the service makes: 'p-' and 24 hex digits (not secret: the token is)."""
    return f"p-{secrets.token_hex(12)}"


class Players:
    """Verifies player tokens (`authenticate`) and, without an identity provider, issues them
    (`issue`, the IssuePlayerToken call)."""

    def __init__(self, *, verifier: TokenVerifier | None = None,
                 signer: Callable[[], Awaitable[TokenSigner]] | None = None,
                 clock_ms: Callable[[], int], token_ttl_s: int = DEFAULT_TTL_S,
                 creator_digests: tuple[bytes, ...] = (), leeway_s: float = 30.0) -> None:
        """`verifier`: the identity provider's; else `signer` loads the service's own key
        (once, on first use: Redis may not answer yet when the process starts)."""
        if (verifier is None) == (signer is None):
            raise ValueError("players come from an identity provider or from the service")
        self._verifier = verifier
        self.self_issued = signer is not None
        self._load_signer = signer
        self._signer: TokenSigner | None = None
        self._lock = asyncio.Lock()
        self.clock_ms = clock_ms
        self.token_ttl_s = token_ttl_s
        self.creator_digests = creator_digests
        self.leeway_s = leeway_s

    @classmethod
    def ephemeral(cls, clock_ms: Callable[[], int]) -> Players:
        """The service's own tokens with a key of this process only (in-process tests)."""
        signer = TokenSigner.from_pem(TokenSigner.generate_pem(), issuer=SELF_ISSUER,
                                      audience=SELF_AUDIENCE)

        async def load() -> TokenSigner:
            return signer

        return cls(signer=load, clock_ms=clock_ms)

    async def _ready(self) -> tuple[TokenVerifier, TokenSigner | None]:
        if self._verifier is not None and (self._signer is not None or not self.self_issued):
            return self._verifier, self._signer  # every call but the first
        async with self._lock:
            if self._signer is None:
                assert self._load_signer is not None
                signer = await self._load_signer()
                self._verifier = TokenVerifier(KeySet.static(signer.jwks()),
                                               issuer=signer.issuer, audience=signer.audience,
                                               leeway_s=self.leeway_s)
                self._signer = signer
        assert self._verifier is not None
        return self._verifier, self._signer

    async def authenticate(self, caller: Caller) -> None:
        """Verify the caller's token if it is a player token (a JWT): its `sub` becomes
        `caller.player`, and the caller is rate-limited as itself. Refusals say why
        (TOKEN_EXPIRED, BAD_ISSUER, BAD_AUDIENCE, UNKNOWN_KEY, BAD_SIGNATURE, ...)."""
        token = caller.token
        if token is None or caller.player is not None or not looks_like_jwt(token):
            return
        verifier, _signer = await self._ready()
        verified = await verifier.verify(token)
        caller.player = verified.player
        caller.verified()

    async def issue(self, _request: players_pb2.IssuePlayerTokenRequest, caller: Caller
                    ) -> players_pb2.IssuePlayerTokenResponse:
        """A new player and its token; with a valid player token, a fresh one for its player.
        A new player needs a creator token where creating needs one."""
        if not self.self_issued:
            raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.PLAYERS_FROM_PROVIDER,
                               "this deployment's players sign in with its identity provider; "
                               "the service issues no player tokens here")
        _verifier, signer = await self._ready()
        assert signer is not None
        player = caller.player
        if player is None:
            identity.require_creator(self.creator_digests, caller.token)
            player = new_player_id()
        token, expires = signer.sign(player, now_s=self.clock_ms() // 1000,
                                     ttl_s=self.token_ttl_s)
        return players_pb2.IssuePlayerTokenResponse(player_id=player, token=token,
                                                    expires_at_ms=expires * 1000)


def signing_key_name(prefix: str) -> str:
    """The Redis key holding the service's generated player signing key (PEM)."""
    return f"{prefix}:players:signing-key"


def from_settings(settings: Any, redis: Any, prefix: str, *,
                  clock_ms: Callable[[], int], creator_digests: tuple[bytes, ...]) -> Players:
    """The process's players, as the settings say (server.app). A bad JWKS location or key
    file fails here, at start, naming its setting."""
    common: dict[str, Any] = {"clock_ms": clock_ms, "token_ttl_s": settings.player_token_ttl_s,
                              "creator_digests": creator_digests,
                              "leeway_s": settings.jwt_leeway_s}
    if settings.jwt_jwks:
        fetch, described = jwks_source(settings.jwt_jwks, ca_file=settings.jwt_jwks_ca_file)
        keys = KeySet(fetch, refresh_s=settings.jwt_jwks_refresh_s,
                      min_refetch_s=settings.jwt_jwks_min_refetch_s, describe=described)
        return Players(verifier=TokenVerifier(keys, issuer=settings.jwt_issuer,
                                              audience=settings.jwt_audience,
                                              leeway_s=settings.jwt_leeway_s), **common)
    issuer = settings.jwt_issuer or SELF_ISSUER
    audience = settings.jwt_audience or SELF_AUDIENCE
    if settings.player_signing_key:
        try:
            signer = TokenSigner.from_pem(Path(settings.player_signing_key).read_bytes(),
                                          issuer=issuer, audience=audience)
        except (OSError, ValueError) as exc:
            raise ValueError(f"RISK_PLAYER_SIGNING_KEY: {exc}") from None

        async def given() -> TokenSigner:
            return signer

        return Players(signer=given, **common)

    async def stored() -> TokenSigner:
        # the first process to start writes the key; every other one reads that one
        key = signing_key_name(prefix)
        await redis.set(key, TokenSigner.generate_pem(), nx=True)
        pem = await redis.get(key)
        return TokenSigner.from_pem(pem, issuer=issuer, audience=audience)

    return Players(signer=stored, **common)
