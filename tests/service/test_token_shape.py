"""Seat and host tokens go on command lines (`risk --token TOKEN ...`): one that started with
"-" would be read as an option there (the README walkthrough failed so in CI)."""

from __future__ import annotations

import base64

from risk_service.operations.service import new_seat_token


def test_tokens_never_start_with_a_dash_and_keep_32_random_bytes() -> None:
    # one token in 64 would start with "-" without the guard: 4,000 are sure to meet one
    tokens = [new_seat_token() for _ in range(4000)]
    assert not [t for t in tokens if t.startswith("-")]
    assert len(set(tokens)) == len(tokens)
    assert all(len(base64.urlsafe_b64decode(t + "=")) == 32 for t in tokens)
