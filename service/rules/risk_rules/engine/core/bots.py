"""Bot levels, and what every variant's bots share: the uniform level and battle odds.

A bot seat plays at one of `LEVELS`: "random" picks a uniformly random legal action, "greedy"
is each variant's weighted-random one-step policy (the built-in bot the engine has always had,
and the default, so recorded games and golden files replay unchanged), and "planner" is each
variant's policy that plans its turn. Every level decides from what its seat may see (the
seat's view and its legal actions) and draws from the engine's own generator seeded with the
caller's entropy, so a decision is a pure function of (view, legal, entropy, level).

The odds here are those of classic dice (attacker up to 3 dice, defender up to 2, ties to the
defender), worked out exactly once and cached: the planners of the variants fought on classic
dice (classic, Legacy) estimate a turn's attacks with them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import product
from typing import Generic, TypeVar

from risk_rules.engine.core.dice import battle_losses, sort_high
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, LegalAction

LEVELS = ("random", "greedy", "planner")
DEFAULT_LEVEL = "greedy"


def check_level(level: str) -> str:
    """`level` when it names a level; ValueError naming the levels otherwise (the service
    checks a seat's level when it is set, so a bad one never reaches a game)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: expected one of {', '.join(LEVELS)}")
    return level


def uniform_choice(legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    """The random level: a uniformly random entry of `legal`, then a uniformly random count in
    its range (an entry that stands for a count range is one choice, not one per count, so a
    placement of 1..30 armies does not crowd out ending the phase)."""
    if not legal:
        raise ValueError("no decision to make: no legal actions")
    entry = legal[rng.below(len(legal))]
    if not entry.max_count:
        return entry.action
    return entry.instance(rng.below(entry.size()))


# ---- classic dice odds -------------------------------------------------------------------


@cache
def _round_odds(attack_dice: int, defence_dice: int) -> tuple[tuple[int, int, float], ...]:
    """(attacker losses, defender losses, probability) of one roll, by enumerating the dice."""
    counts: dict[tuple[int, int], int] = {}
    total = 0
    for rolled in product(range(1, 7), repeat=attack_dice + defence_dice):
        losses = battle_losses(sort_high(rolled[:attack_dice]), sort_high(rolled[attack_dice:]))
        counts[losses] = counts.get(losses, 0) + 1
        total += 1
    return tuple((a, d, n / total) for (a, d), n in sorted(counts.items()))


_MOST_ARMIES = 160  # armies on both sides that `conquest_odds` works out exactly


@cache
def conquest_odds(attackers: int, defenders: int) -> float:
    """The chance that `attackers` armies able to roll (those beyond the one left behind),
    always rolling the most dice, destroy `defenders` armies defending with the most dice."""
    if defenders <= 0:
        return 1.0
    if attackers <= 0:
        return 0.0
    if attackers > 60 and defenders <= attackers // 3:  # the chance is 1 to many decimals
        return 1.0
    if attackers + defenders > _MOST_ARMIES:  # keeps the recursion shallow; the odds of
        scale = _MOST_ARMIES / (attackers + defenders)  # big stacks barely move with size
        return conquest_odds(max(1, round(attackers * scale)), max(1, round(defenders * scale)))
    chance = 0.0
    for lost_a, lost_d, p in _round_odds(min(3, attackers), min(2, defenders)):
        chance += p * conquest_odds(attackers - lost_a, defenders - lost_d)
    return chance


def chain_odds(attackers: int, defenders: Sequence[int]) -> float:
    """Roughly, the chance of taking a chain of territories one after another with
    `attackers` armies: one army stays behind in each territory taken, so it is the chance
    of beating all their defenders plus those armies left behind."""
    if not defenders:
        return 1.0
    return conquest_odds(attackers, sum(defenders) + len(defenders) - 1)


# ---- one variant's levels ----------------------------------------------------------------

ViewT = TypeVar("ViewT")
ActionT = TypeVar("ActionT", bound=Action)
Policy = Callable[[ViewT, Sequence[LegalAction], Pcg32], Action]


class BotLevels(Generic[ViewT]):
    """A variant's policy at each level, drawn from a generator seeded as every variant's bot
    has always seeded it (the entropy, on the stream of the viewer's seat)."""

    __slots__ = ("_policies",)

    def __init__(self, greedy: Policy[ViewT], planner: Policy[ViewT]) -> None:
        def random_level(view: ViewT, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
            return uniform_choice(legal, rng)

        self._policies: dict[str, Policy[ViewT]] = {
            "random": random_level, "greedy": greedy, "planner": planner,
        }

    def choose(self, view: ViewT, viewer: int, legal: Sequence[LegalAction], entropy: int,
               level: str) -> Action:
        policy = self._policies.get(level)
        if policy is None:
            check_level(level)  # raises, naming the levels
            raise AssertionError(f"level {level!r} has no policy")
        return policy(view, legal, Pcg32.from_seed(entropy, stream=viewer + 1))


# ---- what the planners of the classic-map variants share --------------------------------


class Plan:
    """A turn's plan on a map: the staging territory, the chain of territories to take from it
    (nearest first), its chance and its score (chance times what the chain is worth)."""

    __slots__ = ("chain", "chance", "score", "source")

    def __init__(self, source: int, chain: list[int], chance: float, score: float) -> None:
        self.source = source
        self.chain = chain
        self.chance = chance
        self.score = score


def most_dice(legal: Sequence[LegalAction], kind: type[ActionT]) -> dict[tuple[int, int], ActionT]:
    """The listed attacks of type `kind` (with from_territory, to_territory and dice fields)
    by (from, to), each with the most dice listed for that pair."""
    found: dict[tuple[int, int], ActionT] = {}
    for entry in legal:
        action = entry.action
        if isinstance(action, kind):
            key = (getattr(action, "from_territory"), getattr(action, "to_territory"))  # noqa: B009
            known = found.get(key)
            if known is None or getattr(action, "dice") > getattr(known, "dice"):  # noqa: B009
                found[key] = action
    return found


def move_in_count(entry: LegalAction, behind: int, ahead: int) -> Action:
    """The move-in after a conquest, from its entry (a count range): everything forward when
    the territory left behind faces no enemy (`behind`: enemy armies next to it), the least
    when the territory taken faces none (`ahead`), else all but half the threat behind."""
    low = getattr(entry.action, "count")  # noqa: B009 - every move-in action has a count
    high = entry.max_count or low
    if not behind:
        return entry.instance(-1)
    if not ahead:
        return entry.action
    keep = min(high - low, behind // 2)
    return entry.instance(high - keep - low)
