"""The engine's generator: PCG32 as its reference publishes it, and draws without bias."""

from __future__ import annotations

import pytest

from risk_rules.engine.core.rng import Pcg32


def test_outputs_match_the_pcg32_reference() -> None:
    """pcg32-demo's first outputs for seed 42, sequence 54 (pcg-random.org's C library)."""
    rng = Pcg32.from_seed(42, 54)
    assert [rng.next_u32() for _ in range(6)] == [
        0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]


def test_below_rejects_the_short_tail() -> None:
    """With bound 3 * 2**30, 2**32 % bound = 2**30 outputs would fold onto [0, 2**30) and
    make it twice as likely (1/2 instead of 1/3); rejecting them keeps every value equally
    likely. 30,000 draws: the share below 2**30 is 1/3 within a few standard deviations."""
    rng = Pcg32.from_seed(7)
    bound = 3 << 30
    draws = [rng.below(bound) for _ in range(30_000)]
    assert all(0 <= d < bound for d in draws)
    low = sum(d < 1 << 30 for d in draws) / len(draws)
    assert abs(low - 1 / 3) < 0.015, low


def test_dice_are_the_same_draws_as_die() -> None:
    """`dice` (inlined for speed) draws exactly what `die` does, value for value."""
    a, b = Pcg32.from_seed(99), Pcg32.from_seed(99)
    rolled = [a.dice(3) for _ in range(2000)]
    assert rolled == [tuple(b.die() for _ in range(3)) for _ in range(2000)]
    assert (a.state, a.inc) == (b.state, b.inc)
    faces = [f for roll in rolled for f in roll]
    assert set(faces) == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("bound", [0, -1, 1 << 32])
def test_below_refuses_bounds_out_of_range(bound: int) -> None:
    with pytest.raises(ValueError, match="bound"):
        Pcg32.from_seed(1).below(bound)
