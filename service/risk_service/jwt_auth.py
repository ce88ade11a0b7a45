"""Player credentials as JSON Web Tokens: verifying them against a key set, and signing the
service's own where the deployment has no identity provider (docs/players.md).

A token is verified by PyJWT (`jwt.decode` with the key its `kid` names: RS256, ES256 or
EdDSA, the issuer and audience checked, `exp` required with a small leeway); its `sub` is the
player id. Keys come from a `KeySet`: the deployment's JWKS (a file, or an https URL fixed
by RISK_JWT_JWKS, never one a token names: `jku` and `x5u` are not read), or the service's
own public key. The cache is written here rather than taken from PyJWT's `PyJWKClient`,
which fetches with blocking I/O under a thread lock and reads URLs only: a call on the event
loop must never wait on the network, so the set is fetched in a thread, one fetch at a time
shared by every call waiting for it, and the calls that find their key cached (all of them
but the first after a rotation) never leave the loop. PyJWKClient still does the fetch itself
(no redirects, a timeout, the CA given). A `kid` the set does not hold makes it fetch again at
most once per `min_refetch_s`, so tokens with made-up key ids cannot make the service hammer
the identity provider; a failed fetch keeps the keys it had.

PyJWT and `cryptography` are imported where a token is first verified or signed, not with the
module: a service whose callers hold no player token never loads them (40 ms of CPU at every
start, most of it `cryptography.x509`).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import ssl
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import structlog

from risk_rules import audit
from risk_service.errors import Code, ServiceError, ServiceReason

if TYPE_CHECKING:
    import jwt
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

log = structlog.get_logger("players")

ALGORITHMS = ("RS256", "ES256", "EdDSA")
MAX_PLAYER_ID = 128  # characters of a `sub` the service stores as a seat's player


def looks_like_jwt(token: str) -> bool:
    """Whether a bearer token is a JWT (three base64url parts, the first a JSON object naming
    an `alg`) rather than an opaque seat, host, creator or organiser token."""
    if token.count(".") != 2:
        return False
    head = token.split(".", 1)[0]
    try:
        header = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    except (ValueError, binascii.Error):
        return False
    return isinstance(header, dict) and "alg" in header


def _refused(reason: ServiceReason, message: str) -> ServiceError:
    return ServiceError(Code.UNAUTHENTICATED, reason, message)


class KeySet:
    """The keys player tokens are signed with, by `kid`, fetched by `fetch` (blocking: it is run
    in a thread) and cached: fetched again once `refresh_s` old, and for a `kid` it does not
    hold at most once per `min_refetch_s`."""

    def __init__(self, fetch: Callable[[], Mapping[str, Any]], *, refresh_s: float = 300.0,
                 min_refetch_s: float = 30.0, describe: str = "the key set",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._fetch = fetch
        self.refresh_s = refresh_s
        self.min_refetch_s = min_refetch_s
        self.describe = describe
        self._clock = clock
        self._keys: dict[str, jwt.PyJWK] = {}
        self._fetched_at: float | None = None  # the last fetch that succeeded
        self._tried_at: float | None = None  # the last fetch begun
        self._inflight: asyncio.Future[None] | None = None
        self._background: asyncio.Task[None] | None = None  # a refresh nobody waits for

    @classmethod
    def static(cls, jwks: Mapping[str, Any]) -> KeySet:
        """A set that never changes (the service's own public key)."""
        keys = cls(lambda: jwks, refresh_s=float("inf"), min_refetch_s=float("inf"))
        keys._load(jwks)
        keys._fetched_at = keys._tried_at = 0.0
        return keys

    def _load(self, jwks: Mapping[str, Any]) -> None:
        import jwt  # noqa: PLC0415 - on first use (the module's docstring)
        keys: dict[str, jwt.PyJWK] = {}
        for entry in jwks.get("keys", ()):
            if not isinstance(entry, dict) or entry.get("use", "sig") != "sig" \
                    or not entry.get("kid"):
                continue
            try:
                key = jwt.PyJWK(entry)
            except jwt.PyJWKError as exc:  # a key of a kind not verified here: skipped
                log.warning("jwks_key_skipped", kid=str(entry.get("kid"))[:64], why=str(exc))
                continue
            if key.algorithm_name in ALGORITHMS:
                keys[str(entry["kid"])] = key
        self._keys = keys

    async def _refetch(self) -> None:
        """Fetch the set once, in a thread; calls arriving meanwhile wait for the same fetch."""
        if self._inflight is not None:
            await asyncio.shield(self._inflight)
            return
        self._tried_at = self._clock()
        self._inflight = asyncio.get_running_loop().create_future()
        try:
            jwks = await asyncio.to_thread(self._fetch)
            self._load(jwks)
            self._fetched_at = self._clock()
            log.info("jwks_fetched", source=self.describe, keys=len(self._keys))
        except Exception as exc:  # any failure keeps the keys it had
            log.warning("jwks_fetch_failed", source=self.describe, error=str(exc)[:300])
        finally:
            self._inflight.set_result(None)
            self._inflight = None

    def _may_fetch(self, now: float) -> bool:
        return self._tried_at is None or now - self._tried_at >= self.min_refetch_s

    async def key(self, kid: str) -> jwt.PyJWK:
        """The key `kid` names (UNKNOWN_KEY, or KEYS_UNAVAILABLE while no fetch has landed).
        A set past `refresh_s` is fetched again in the background, its keys used meanwhile."""
        now = self._clock()
        if self._inflight is not None or (self._fetched_at is None and self._may_fetch(now)):
            await self._refetch()
        elif self._fetched_at is not None and now - self._fetched_at >= self.refresh_s \
                and self._may_fetch(now):
            self._background = asyncio.create_task(self._refetch())
        found = self._keys.get(kid)
        if found is None and self._fetched_at is not None and self._may_fetch(self._clock()):
            await self._refetch()  # a rotated key: look once more
            found = self._keys.get(kid)
        if found is None:
            if self._fetched_at is None:
                raise ServiceError(Code.UNAVAILABLE, ServiceReason.KEYS_UNAVAILABLE,
                                   "the identity provider's keys could not be read; retry")
            raise _refused(ServiceReason.UNKNOWN_KEY,
                           f"the token's key {kid[:64]!r} is not in the deployment's key set")
        return found


@dataclass(frozen=True, slots=True)
class Verified:
    """What a verified player token says: its player, and when it expires (Unix s)."""

    player: str
    expires_at: int


class TokenVerifier:
    """Checks a player token: its key, signature, issuer, audience and expiry."""

    def __init__(self, keys: KeySet, *, issuer: str, audience: str,
                 leeway_s: float = 30.0) -> None:
        self.keys = keys
        self.issuer = issuer
        self.audience = audience
        self.leeway_s = leeway_s

    async def verify(self, token: str) -> Verified:
        import jwt  # noqa: PLC0415 - on first use (the module's docstring)
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError as exc:
            raise _refused(ServiceReason.BAD_CREDENTIALS,
                           f"the player token is not a well-formed JWT: {exc}") from None
        kid = header.get("kid")
        if not isinstance(kid, str) or not kid:
            raise _refused(ServiceReason.UNKNOWN_KEY, "the player token names no key (kid)")
        if header.get("alg") not in ALGORITHMS:
            raise _refused(ServiceReason.BAD_CREDENTIALS,
                           f"player tokens are signed with one of {', '.join(ALGORITHMS)}, "
                           f"not {str(header.get('alg'))[:16]!r}")
        key = await self.keys.key(kid)
        try:
            claims = jwt.decode(
                token, key, algorithms=list(ALGORITHMS), audience=self.audience,
                issuer=self.issuer, leeway=self.leeway_s,
                options={"require": ["exp", "iss", "aud", "sub"]})
        except jwt.ExpiredSignatureError:
            raise _refused(ServiceReason.TOKEN_EXPIRED, "the player token has expired") from None
        except jwt.InvalidIssuerError:
            raise _refused(ServiceReason.BAD_ISSUER,
                           f"the player token's issuer is not {self.issuer!r}") from None
        except jwt.InvalidAudienceError:
            raise _refused(ServiceReason.BAD_AUDIENCE,
                           f"the player token is not for audience {self.audience!r}") from None
        except jwt.InvalidSignatureError:
            raise _refused(ServiceReason.BAD_SIGNATURE,
                           "the player token's signature does not verify") from None
        except jwt.PyJWTError as exc:
            raise _refused(ServiceReason.BAD_CREDENTIALS,
                           f"the player token is not valid: {exc}") from None
        player = claims["sub"]
        if not isinstance(player, str) or not 0 < len(player) <= MAX_PLAYER_ID:
            raise _refused(ServiceReason.BAD_CREDENTIALS,
                           f"a player token's sub has 1 to {MAX_PLAYER_ID} characters")
        return Verified(player, int(claims["exp"]))


class TokenSigner:
    """The service's own player tokens (where no identity provider is configured): EdDSA
    (Ed25519) JWTs, `kid` the key's JWK thumbprint, verified by the same `TokenVerifier`."""

    def __init__(self, key: Ed25519PrivateKey, *, issuer: str, audience: str) -> None:
        from cryptography.hazmat.primitives import serialization  # noqa: PLC0415 - on first use
        from jwt.algorithms import OKPAlgorithm  # noqa: PLC0415
        self._key = key
        self.issuer = issuer
        self.audience = audience
        public = json.loads(OKPAlgorithm.to_jwk(key.public_key()))
        # the JWK thumbprint (RFC 7638), as export keys are named (export_signing.py)
        self.key_id = audit.key_id(key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw))
        self.public_jwk = {**public, "kid": self.key_id, "use": "sig", "alg": "EdDSA"}

    @staticmethod
    def generate_pem() -> bytes:
        from cryptography.hazmat.primitives import serialization  # noqa: PLC0415 - on first use
        from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415
            Ed25519PrivateKey,
        )
        return Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption())

    @classmethod
    def from_pem(cls, pem: bytes, *, issuer: str, audience: str) -> TokenSigner:
        from cryptography.hazmat.primitives import serialization  # noqa: PLC0415 - on first use
        from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415
            Ed25519PrivateKey,
        )
        key = serialization.load_pem_private_key(pem, password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError("the player signing key must be an Ed25519 private key (PEM)")
        return cls(key, issuer=issuer, audience=audience)

    def jwks(self) -> dict[str, Any]:
        return {"keys": [self.public_jwk]}

    def sign(self, player: str, *, now_s: int, ttl_s: int) -> tuple[str, int]:
        """A token for `player`, and when it expires (Unix s)."""
        import jwt  # noqa: PLC0415 - on first use (the module's docstring)
        expires = now_s + ttl_s
        token = jwt.encode({"sub": player, "iss": self.issuer, "aud": self.audience,
                            "iat": now_s, "exp": expires},
                           self._key, algorithm="EdDSA", headers={"kid": self.key_id})
        return token, expires


def jwks_source(location: str, *, ca_file: str = "", timeout_s: float = 10.0
                ) -> tuple[Callable[[], Mapping[str, Any]], str]:
    """A blocking fetch of the JWKS at `location` (a file path or an https URL) and how logs
    name it. Plain http is refused: keys read over it could be anyone's."""
    if location.startswith("https://"):
        import jwt  # noqa: PLC0415 - on first use (the module's docstring)
        context = ssl.create_default_context(cafile=ca_file or None)
        client = jwt.PyJWKClient(location, cache_jwk_set=False, timeout=timeout_s,
                                 ssl_context=context)
        return client.fetch_data, location
    if "://" in location:
        raise ValueError("RISK_JWT_JWKS is a file path or an https:// URL, not "
                         f"{location.split('://', 1)[0]}://")
    path = Path(location)

    def read() -> Mapping[str, Any]:
        data = json.loads(path.read_bytes())
        if not isinstance(data, dict):
            raise ValueError(f"{path}: a JWKS is a JSON object")
        return data

    return read, str(path)
