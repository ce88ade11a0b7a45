"""The seed commitment: what a game publishes at creation so that its dice can be checked.

A game's dice and deck follow from its 64-bit seed. Publishing SHA-256 of the seed alone would
not hide it (2**64 hashes are within reach), so the commitment covers the seed and a secret
256-bit nonce drawn for the game: nobody learns the seed from it, and the service cannot swap
the seed of a game in progress without the revealed pair failing to hash to what it published.
The service reveals both once the game is over; `audit.verify` checks them.
"""

from __future__ import annotations

import hashlib

NONCE_BYTES = 32
_DOMAIN = b"risk.v1.seed:"


def seed_commitment(seed: int, nonce: bytes) -> bytes:
    """SHA-256("risk.v1.seed:" || seed as 8 bytes big-endian || nonce)."""
    return hashlib.sha256(_DOMAIN + seed.to_bytes(8, "big") + nonce).digest()
