"""The webhook secret's form, checked when the settings are read (before anything starts)."""

from __future__ import annotations

import base64
import binascii

PREFIX = "whsec_"


def check_secret(secret: str) -> None:
    """A Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 random bytes."""
    if not secret.startswith(PREFIX):
        raise ValueError("RISK_WEBHOOK_SECRET must be `whsec_` followed by base64")
    try:
        raw = base64.b64decode(secret[len(PREFIX):], validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("RISK_WEBHOOK_SECRET: what follows `whsec_` is not base64") from None
    if not 24 <= len(raw) <= 64:
        raise ValueError(f"RISK_WEBHOOK_SECRET holds {len(raw)} bytes; the specification "
                         "asks for 24 to 64")
