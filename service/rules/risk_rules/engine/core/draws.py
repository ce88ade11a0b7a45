"""Duplicate play's generator: one random stream per kind of draw.

In a duplicate round the same seed is dealt to several games whose players choose
differently. With the one generator of an ordinary game, the first choice that draws more or
fewer numbers (two dice instead of three) shifts every later draw, and the games' luck parts
ways. `DrawStreams` keeps the kinds apart instead: dice come from one stream, shuffles (the
deal, the deck, a reshuffle of the discards, a random spread of armies) from a second and
anything else (`below`, `choice`, `weighted`: no rule draws these today) from a third, each
seeded from the game's seed with its own PCG32 stream constant (docs/dice.md).
Every battle throws a fixed number of dice (`battle`), so the k-th battle of every game shows
the same faces, whoever uses how many of them. It is a `Pcg32` whose own state is the dice
stream, so a rule that takes `game.rng` needs no change; the state of the two others lives in
the game state's `draw_streams` (empty for an ordinary game, whose bytes stay as they were).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from risk_rules.engine.core.rng import Pcg32

T = TypeVar("T")

DICE_STREAM = 0xD1CE
SHUFFLE_STREAM = 0x5AFF
OTHER_STREAM = 0x07E4
_SHUFFLE_INC = ((SHUFFLE_STREAM << 1) | 1)
_OTHER_INC = ((OTHER_STREAM << 1) | 1)


class DrawStreams(Pcg32):
    """A generator whose draws of each kind come from that kind's own stream."""

    # the shuffle and other streams are made on their first draw: most rules draw dice or
    # nothing, and a work area (with its generator) is made for nearly every action
    __slots__ = ("_other", "_shuffles", "_states")

    def __init__(self, state: int, inc: int, streams: Sequence[int]) -> None:
        super().__init__(state, inc)
        self._states = (streams[0], streams[1])
        self._shuffles: Pcg32 | None = None
        self._other: Pcg32 | None = None

    @classmethod
    def seeded(cls, seed: int) -> DrawStreams:
        dice = Pcg32.from_seed(seed, DICE_STREAM)
        shuffles = Pcg32.from_seed(seed, SHUFFLE_STREAM)
        other = Pcg32.from_seed(seed, OTHER_STREAM)
        return cls(dice.state, dice.inc, (shuffles.state, other.state))

    def streams(self) -> tuple[int, int]:
        """The states kept in the game state's `draw_streams`."""
        return (self._states[0] if self._shuffles is None else self._shuffles.state,
                self._states[1] if self._other is None else self._other.state)

    def shuffles(self) -> Pcg32:
        if self._shuffles is None:
            self._shuffles = Pcg32(self._states[0], _SHUFFLE_INC)
        return self._shuffles

    def other(self) -> Pcg32:
        if self._other is None:
            self._other = Pcg32(self._states[1], _OTHER_INC)
        return self._other

    # dice: this object's own stream (`Pcg32.dice` as inherited); `die` must not go through
    # `below`, which is the other stream's here
    def die(self) -> int:
        return Pcg32.below(self, 6) + 1

    def battle(self, attack: int, defence: int, *, attack_slots: int = 3,
               defence_slots: int = 2) -> tuple[int, ...]:
        """One battle's dice, attacker's first: `attack_slots + defence_slots` dice are thrown
        whatever the sides chose, and each side uses its first ones."""
        thrown = self.dice(attack_slots + defence_slots)
        return thrown[:attack] + thrown[attack_slots:attack_slots + defence]

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        return self.shuffles().shuffled(items)

    def below(self, bound: int) -> int:
        return self.other().below(bound)

    def choice(self, items: Sequence[T]) -> T:
        return self.other().choice(items)

    def weighted(self, weights: Sequence[int]) -> int:
        return self.other().weighted(weights)
