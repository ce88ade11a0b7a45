"""A deployment's export signing keys, and the check of an export's signature against them, for
`risk verify --key FILE_OR_URL` (docs/exports.md).

A key comes as the deployment publishes it: its JWKS (`/.well-known/risk-export-keys.json` on
the service's HTTP port, a URL or a saved file; a URL without a path gets that path), or one
PEM public key file. Ed25519 through `cryptography`, imported only by this command (every
`risk` command is a new process, and the others need no key). What is signed, and how a key is
named, is `risk_rules.audit`'s, shared with the service that signs.
"""

from __future__ import annotations

import base64
import binascii
import json
import urllib.error
import urllib.parse
import urllib.request

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from risk_proto.risk.v1 import service_pb2
from risk_rules import audit

WELL_KNOWN_PATH = "/.well-known/risk-export-keys.json"
FETCH_TIMEOUT_S = 10.0
MAX_KEYS_BYTES = 1 << 20  # a key set is a few hundred bytes; a bigger answer is not one


class KeyMistake(Exception):
    """The keys named by --key cannot be read: said in one line, exit 2."""


def load_keys(source: str) -> dict[str, Ed25519PublicKey]:
    """The Ed25519 public keys of `source` (a URL, or a JWKS or PEM file) by key id: the `kid`
    a key set gives it, and its thumbprint (`audit.key_id`) too."""
    if source.startswith(("http://", "https://")):
        data = _fetch(source)
    else:
        try:
            with open(source, "rb") as file:
                data = file.read(MAX_KEYS_BYTES + 1)
        except OSError as exc:
            raise KeyMistake(f"cannot read {source}: {(exc.strerror or str(exc)).lower()}"
                             ) from None
    if len(data) > MAX_KEYS_BYTES:
        raise KeyMistake(f"{source} is over {MAX_KEYS_BYTES} bytes: not a key set")
    if data.lstrip().startswith(b"-----BEGIN"):
        try:
            key = serialization.load_pem_public_key(data)
        except (ValueError, UnsupportedAlgorithm):
            key = None
        if not isinstance(key, Ed25519PublicKey):
            raise KeyMistake(f"{source} is not a PEM Ed25519 public key")
        return {audit.key_id(_raw(key)): key}
    return _from_jwks(source, data)


def check_signature(export: service_pb2.GameExport, keys: dict[str, Ed25519PublicKey],
                    source: str) -> str | None:
    """The id of the key whose signature over the export's fingerprint holds; None when the
    export is not signed. `audit.verify` must have passed first (it checks the fingerprint)."""
    if not export.HasField("signature"):
        return None
    signature = export.signature
    if signature.algorithm != audit.SIGNATURE_ALGORITHM:
        raise audit.VerificationError(
            f"the export is signed with {signature.algorithm or 'no algorithm'}; this verifier "
            f"checks {audit.SIGNATURE_ALGORITHM} (Ed25519)")
    key = keys.get(signature.key_id)
    if key is None:
        raise audit.VerificationError(
            f"the export is signed with key {signature.key_id or '(no id)'}, which {source} "
            f"does not hold (it holds {', '.join(sorted(keys)) or 'no Ed25519 key'})")
    try:
        key.verify(signature.signature, audit.signed_message(export.fingerprint))
    except InvalidSignature:
        raise audit.VerificationError(
            f"the signature does not match the export's fingerprint (key {signature.key_id}): "
            "the export, its fingerprint or its signature was altered") from None
    return signature.key_id


def _raw(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _fetch(url: str) -> bytes:
    parts = urllib.parse.urlsplit(url)
    if parts.path in ("", "/"):  # the service's address: its published key set
        url = urllib.parse.urlunsplit(parts._replace(path=WELL_KNOWN_PATH))
    try:
        with urllib.request.urlopen(url, timeout=FETCH_TIMEOUT_S) as answer:
            return bytes(answer.read(MAX_KEYS_BYTES + 1))
    except urllib.error.HTTPError as exc:
        raise KeyMistake(f"cannot fetch {url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise KeyMistake(f"cannot fetch {url}: {reason}") from None


def _from_jwks(source: str, data: bytes) -> dict[str, Ed25519PublicKey]:
    """The Ed25519 keys of a JWKS (RFC 7517) or a single JWK; other keys are skipped."""
    try:
        document = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        document = None
    if not isinstance(document, dict):
        raise KeyMistake(f"{source} is neither a JWKS nor a PEM public key")
    entries = document.get("keys", [document])
    keys: dict[str, Ed25519PublicKey] = {}
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or entry.get("kty") != "OKP" or \
                entry.get("crv") != "Ed25519" or not isinstance(entry.get("x"), str):
            continue
        try:
            raw = base64.urlsafe_b64decode(entry["x"] + "=" * (-len(entry["x"]) % 4))
            key = Ed25519PublicKey.from_public_bytes(raw)
        except (ValueError, binascii.Error):
            raise KeyMistake(f"{source}: key {entry.get('kid', '')!r} has a bad `x`") from None
        keys[audit.key_id(raw)] = key
        if isinstance(entry.get("kid"), str):
            keys[entry["kid"]] = key
    if not keys:
        raise KeyMistake(f"{source} holds no Ed25519 key (kty OKP, crv Ed25519)")
    return keys
