"""The deployment's export signing key: it signs each export's fingerprint, authenticates the
export's page tokens, and is published (with any retired keys still trusted) as a JWKS.

A signature lets a third party prove that an export came from this deployment: the
fingerprint (`risk_rules.audit.fingerprint`) commits to the whole export, and the key signs
`audit.signed_message(fingerprint)` with Ed25519 (RFC 8032). The key is a PEM file
(`RISK_EXPORT_SIGNING_KEY`, PKCS#8, as `openssl genpkey -algorithm ed25519` writes it); its
id is its JWK thumbprint (`audit.key_id`), so every replica holding the file names it alike
and a verifier needs nothing but the published key set. Ed25519 through `cryptography`, not
by hand: signing is the one place here where a home-made primitive would be a liability.

The last page of an export is signed over chain links that earlier pages handed the client in
their page tokens; a client could otherwise send links of its own making and have them
signed. So with a key, a page token carries an HMAC (keyed from the signing key, so replicas
sharing the key accept each other's tokens) over the game id and the cursor.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from dataclasses import dataclass

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from risk_proto.risk.v1 import service_pb2
from risk_rules import audit


def _raw(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


@dataclass(frozen=True, slots=True)
class ExportSigner:
    private: Ed25519PrivateKey
    key_id: str
    # public keys published beside the signing key's: retired ones whose signatures still stand
    retired: tuple[Ed25519PublicKey, ...] = ()

    @classmethod
    def from_key(cls, private: Ed25519PrivateKey,
                 retired: Sequence[Ed25519PublicKey] = ()) -> ExportSigner:
        return cls(private, audit.key_id(_raw(private.public_key())), tuple(retired))

    @classmethod
    def from_files(cls, key_file: str, retired_files: Sequence[str] = ()) -> ExportSigner:
        """The signer of RISK_EXPORT_SIGNING_KEY, publishing RISK_EXPORT_RETIRED_KEYS too; a
        file that is missing or not an Ed25519 key stops the start naming the setting."""
        private = _load(key_file, "RISK_EXPORT_SIGNING_KEY", private=True)
        assert isinstance(private, Ed25519PrivateKey)
        retired = []
        for path in retired_files:
            key = _load(path, "RISK_EXPORT_RETIRED_KEYS", private=False)
            retired.append(key.public_key() if isinstance(key, Ed25519PrivateKey) else key)
        return cls.from_key(private, retired)

    def sign(self, fingerprint: bytes) -> service_pb2.ExportSignature:
        return service_pb2.ExportSignature(
            key_id=self.key_id, algorithm=audit.SIGNATURE_ALGORITHM,
            signature=self.private.sign(audit.signed_message(fingerprint)))

    def token_mac(self, game_id: str, cursor: str) -> str:
        """An HMAC-SHA-256 (hex, 32 digits) over a page token's cursor for `game_id`."""
        raw = self.private.private_bytes(serialization.Encoding.Raw,
                                         serialization.PrivateFormat.Raw,
                                         serialization.NoEncryption())
        key = hashlib.sha256(b"risk.v1.export.page-token:" + raw).digest()
        return hmac.new(key, f"{game_id}\n{cursor}".encode(), hashlib.sha256).hexdigest()[:32]

    def jwks(self) -> bytes:
        """The published key set (RFC 7517): the signing key first, then the retired ones."""
        keys = []
        for public in (self.private.public_key(), *self.retired):
            raw = _raw(public)
            keys.append({"kty": "OKP", "crv": "Ed25519", "x": audit.b64url(raw),
                         "kid": audit.key_id(raw), "alg": audit.SIGNATURE_ALGORITHM,
                         "use": "sig"})
        return json.dumps({"keys": keys}, indent=1).encode() + b"\n"


def _load(path: str, setting: str, *, private: bool) -> Ed25519PrivateKey | Ed25519PublicKey:
    try:
        with open(path, "rb") as source:
            data = source.read()
    except OSError as exc:
        raise RuntimeError(f"{setting}: cannot read {path}: {exc.strerror or exc}") from None
    key: object = None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        if not private:
            try:
                key = serialization.load_pem_public_key(data)
            except (ValueError, UnsupportedAlgorithm):
                key = None
    if private and not isinstance(key, Ed25519PrivateKey):
        raise RuntimeError(
            f"{setting}: {path} is not an unencrypted PEM Ed25519 private key (make one with "
            "`openssl genpkey -algorithm ed25519 -out FILE`)")
    if not isinstance(key, Ed25519PrivateKey | Ed25519PublicKey):
        raise RuntimeError(f"{setting}: {path} is not a PEM Ed25519 key")
    return key
