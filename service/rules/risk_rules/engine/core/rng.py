"""The engine's own seeded generator: PCG32 (XSH-RR), O'Neill 2014.

The `random` module is avoided on purpose: its algorithms have changed between Python
versions, and a stored game must replay bit for bit on any future interpreter. The generator's
whole state is two integers that live inside the game state, so a game is reproducible from its
seed and its action log alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_MULT = 6364136223846793005
# Outputs below 2**32 % 6 would make the low faces more likely: `dice` draws again (as `below`
# does for its bound; about 1 draw in a billion for a die).
_DIE_THRESHOLD = (1 << 32) % 6
# The output's 32-bit rotate right by `rot`, as `((x * _TWICE) >> rot) & _MASK32`: x * _TWICE is
# x beside a copy of itself (x << 32 | x, for x < 2**32), so the shift brings the bits that
# rotate out back in at the top; three integer operations where shifting both ways takes five.
_TWICE = (1 << 32) + 1

T = TypeVar("T")


class Pcg32:
    """A mutable PCG32 stream. Copy its (state, inc) back into the game value when done."""

    __slots__ = ("inc", "state")

    def __init__(self, state: int, inc: int) -> None:
        self.state = state & _MASK64
        self.inc = (inc | 1) & _MASK64

    @classmethod
    def from_seed(cls, seed: int, stream: int = 0x5EED) -> Pcg32:
        """Seed as the reference `pcg32_srandom_r` does, so outputs match other implementations."""
        # From state 0: a step (state = inc), add the seed, a step; outputs discarded. Spelt out
        # because bots seed a generator on every decision.
        inc = ((stream << 1) | 1) & _MASK64
        state = (inc + (seed & _MASK64)) & _MASK64
        rng = cls.__new__(cls)  # both already in range: skip __init__'s masking
        rng.state = (state * _MULT + inc) & _MASK64
        rng.inc = inc
        return rng

    def next_u32(self) -> int:
        old = self.state
        self.state = (old * _MULT + self.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & _MASK32
        return ((xorshifted * _TWICE) >> (old >> 59)) & _MASK32  # rotate right by old >> 59

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound), without modulo bias (rejection of the short tail)."""
        if not 0 < bound <= _MASK32:
            raise ValueError(f"bound must be in 1..2**32-1, got {bound}")
        # 2**32 % bound (C's `-bound % bound` on uint32; Python's `(-bound) % bound` is 0):
        # the outputs below it are the short tail that modulo would fold onto the low values
        threshold = (1 << 32) % bound
        # `next_u32` inlined (bots and dice call this on every action); the same outputs
        state, inc = self.state, self.inc
        while True:
            old = state
            state = (old * _MULT + inc) & _MASK64
            xorshifted = (((old >> 18) ^ old) >> 27) & _MASK32
            r = ((xorshifted * _TWICE) >> (old >> 59)) & _MASK32
            if r >= threshold:
                self.state = state
                return r % bound

    def die(self) -> int:
        """One six-sided die."""
        return self.below(6) + 1

    def dice(self, count: int) -> tuple[int, ...]:
        """`count` dice: `below(6) + 1` each, with `below` inlined."""
        out = []
        state, inc = self.state, self.inc
        for _ in range(count):
            while True:
                old = state
                state = (old * 6364136223846793005 + inc) & 0xFFFFFFFFFFFFFFFF  # _MULT, _MASK64
                xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
                r = ((xorshifted * 0x100000001) >> (old >> 59)) & 0xFFFFFFFF  # _TWICE, as above
                if r >= _DIE_THRESHOLD:
                    out.append(r % 6 + 1)
                    break
        self.state = state
        return tuple(out)

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """Fisher-Yates from the end, the order every implementation of this engine must use."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def weighted(self, weights: Sequence[int]) -> int:
        """Index drawn with probability proportional to its non-negative integer weight."""
        total = sum(weights)
        if total <= 0:
            raise ValueError("weights must have a positive sum")
        pick = self.below(total)
        for index, weight in enumerate(weights):
            if pick < weight:
                return index
            pick -= weight
        raise AssertionError("unreachable: pick < total")
