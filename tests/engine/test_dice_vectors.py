"""The dice specification's test vectors (docs/dice-vectors.json) against the engine, and
against a reference implementation written here from docs/dice.md alone.

The file is what an outside verifier re-derives rolls from, in any language: if the engine's
draws drifted from it (or it from them), every published vector would mislead. The reference
below imports nothing of the engine, so a spec that left out a step (a constant, the order of a
shuffle's swaps, the rejection threshold) would fail it. Regenerate the file from the engine
with `python -m tests.engine.test_dice_vectors` (only for a deliberate change of the draws,
which would also change every golden game).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from risk_rules.engine import get_ruleset
from risk_rules.engine.classic.model import ClassicOptions, OrderRolled, SetupMode, TerritoriesDealt
from risk_rules.engine.core import draws, rng
from risk_rules.engine.core.draws import DrawStreams
from risk_rules.engine.core.rng import Pcg32
from risk_rules.seed_commitment import seed_commitment

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "docs" / "dice-vectors.json"
SPEC = ROOT / "docs" / "dice.md"

GENERATORS = [(0, 0x5EED), (42, 0x5EED), (0x0123456789ABCDEF, 0x5EED), ((1 << 64) - 1, 0x5EED),
              (42, 54), (42, 0xD1CE), (42, 0x5AFF), (42, 0x07E4)]
BIG_BOUND = 3_000_000_000  # 2**32 % bound = 1,294,967,296: about 3 draws in 10 are rejected
ITEMS = ["north", "east", "south", "west", "centre"]
WEIGHTS = [1, 2, 3, 4]
NONCE = bytes(range(32))


# ---- the reference: docs/dice.md, step by step, with no engine import ---------------------

M64 = (1 << 64) - 1
MULTIPLIER = 6364136223846793005


class Reference:
    """PCG32 (XSH-RR, 64-bit state, 32-bit output) as docs/dice.md specifies it."""

    def __init__(self, seed: int, stream: int) -> None:
        self.inc = ((stream << 1) | 1) & M64
        self.state = 0
        self.used = 0
        self.next()
        self.state = (self.state + seed) & M64
        self.next()
        self.used = 0  # outputs drawn since seeding

    def next(self) -> int:
        old = self.state
        self.state = (old * MULTIPLIER + self.inc) & M64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        self.used += 1
        return ((xorshifted >> rot) | (xorshifted << ((32 - rot) & 31))) & 0xFFFFFFFF

    def below(self, bound: int) -> int:
        threshold = (1 << 32) % bound
        while True:
            r = self.next()
            if r >= threshold:
                return r % bound

    def die(self) -> int:
        return self.below(6) + 1

    def shuffle(self, items: list[Any]) -> list[Any]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def weighted(self, weights: list[int]) -> int:
        pick = self.below(sum(weights))
        for index, weight in enumerate(weights):
            if pick < weight:
                return index
            pick -= weight
        raise AssertionError("unreachable")


def reference_game(seed: int, players: int, duplicate: bool) -> dict[str, Any]:
    """A classic random-deal game's creation from docs/dice.md: the roll-off for the first
    seat (dice), then the deal (a shuffle of the 42 territories, dealt round from the winner)."""
    if duplicate:
        dice, shuffles = Reference(seed, 0xD1CE), Reference(seed, 0x5AFF)
    else:
        dice = shuffles = Reference(seed, 0x5EED)
    rounds, seats = [], list(range(players))
    while True:
        rolls = [dice.die() for _ in seats]
        best = [s for s, r in zip(seats, rolls, strict=True) if r == max(rolls)]
        rounds.append({"seats": seats, "rolls": rolls})
        if len(best) == 1:
            break
        seats = best
    owner = [0] * 42
    for k, territory in enumerate(shuffles.shuffle(list(range(42)))):
        owner[territory] = (best[0] + k) % players
    return {"roll_off": rounds, "owner": owner}


# ---- the vectors, from the engine ----------------------------------------------------------


def _hex64(value: int) -> str:
    return f"0x{value:016x}"


def engine_vectors() -> dict[str, Any]:
    """Every vector of docs/dice-vectors.json, computed by the engine."""
    generators = []
    for seed, stream in GENERATORS:
        fresh = Pcg32.from_seed(seed, stream)
        gen = Pcg32.from_seed(seed, stream)
        raw = [gen.next_u32() for _ in range(10)]
        big = Pcg32.from_seed(seed, stream)
        counter = Pcg32.from_seed(seed, stream)
        values = [big.below(BIG_BOUND) for _ in range(8)]
        used = 0
        while (counter.state, counter.inc) != (big.state, big.inc):
            counter.next_u32()
            used += 1
        weighted = Pcg32.from_seed(seed, stream)
        generators.append({
            "seed": _hex64(seed), "stream": _hex64(stream),
            "state": _hex64(fresh.state), "inc": _hex64(fresh.inc),
            "raw": raw,
            "dice": list(Pcg32.from_seed(seed, stream).dice(20)),
            "shuffle_0_9": list(Pcg32.from_seed(seed, stream).shuffled(range(10))),
            "below": {"bound": BIG_BOUND, "values": values, "raw_used": used},
            "choice": {"items": ITEMS, "picked": Pcg32.from_seed(seed, stream).choice(ITEMS)},
            "weighted": {"weights": WEIGHTS,
                         "picked": [weighted.weighted(WEIGHTS) for _ in range(8)]},
        })
    duplicate = []
    for seed in (42, 0x0123456789ABCDEF):
        streams = DrawStreams.seeded(seed)
        battles = [list(streams.dice(5)) for _ in range(3)]
        shuffled = list(streams.shuffled(range(10)))
        other = [streams.below(10) for _ in range(5)]
        again = DrawStreams.seeded(seed)
        duplicate.append({
            "seed": _hex64(seed),
            "battles": battles,
            "battle_2v1": list(again.battle(2, 1)),
            "shuffle_0_9": shuffled,
            "other_below_10": other,
        })
    games = []
    rules = get_ruleset("classic")
    for seed, players, dup in ((7, 4, False), (7, 4, True), (0x0123456789ABCDEF, 3, False)):
        options = ClassicOptions(players=players, setup=SetupMode.RANDOM_DEAL,
                                 duplicate_draws=True if dup else None)
        _state, events = rules.create(options, seed)
        games.append({
            "variant": "classic", "seed": _hex64(seed), "players": players,
            "setup": "random_deal", "duplicate_draws": dup,
            "roll_off": [{"seats": list(e.seats), "rolls": list(e.rolls)}
                         for e in events if isinstance(e, OrderRolled)],
            "owner": next(list(e.owner) for e in events if isinstance(e, TerritoriesDealt)),
        })
    return {
        "about": "Test vectors for docs/dice.md. 64-bit values are hex strings (JSON numbers "
                 "lose precision past 2**53); 32-bit outputs are numbers. Each list of a "
                 "generator starts from a freshly seeded generator, except `weighted`'s "
                 "picks, drawn one after another from one.",
        "constants": {
            "multiplier": _hex64(rng._MULT),
            "game_stream": _hex64(0x5EED),
            "dice_stream": _hex64(draws.DICE_STREAM),
            "shuffle_stream": _hex64(draws.SHUFFLE_STREAM),
            "other_stream": _hex64(draws.OTHER_STREAM),
        },
        "generators": generators,
        "duplicate": duplicate,
        "commitments": [{
            "seed": _hex64(seed), "nonce": NONCE.hex(),
            "commitment": seed_commitment(seed, NONCE).hex()}
            for seed in (0, 42, (1 << 64) - 1)],
        "games": games,
    }


def _load() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(VECTORS.read_text())
    return loaded


# ---- the tests -------------------------------------------------------------------------------


def test_the_published_vectors_are_the_engines_draws() -> None:
    """docs/dice-vectors.json holds exactly what the engine draws for each input."""
    assert _load() == engine_vectors()


def test_a_reference_written_from_the_spec_reproduces_every_vector() -> None:
    """An implementation of docs/dice.md with no engine import derives every vector: raw
    outputs, dice, shuffles, bounded draws, choices, duplicate streams, commitments and a
    game's roll-off and deal."""
    vectors = _load()
    assert int(vectors["constants"]["multiplier"], 16) == MULTIPLIER
    for case in vectors["generators"]:
        seed, stream = int(case["seed"], 16), int(case["stream"], 16)
        ref = Reference(seed, stream)
        assert (_hex64(ref.state), _hex64(ref.inc)) == (case["state"], case["inc"])
        assert [ref.next() for _ in range(10)] == case["raw"]
        ref = Reference(seed, stream)
        assert [ref.die() for _ in range(20)] == case["dice"]
        assert Reference(seed, stream).shuffle(list(range(10))) == case["shuffle_0_9"]
        ref = Reference(seed, stream)
        big = case["below"]
        assert [ref.below(big["bound"]) for _ in range(8)] == big["values"]
        assert ref.used == big["raw_used"]
        items = case["choice"]["items"]
        assert items[Reference(seed, stream).below(len(items))] == case["choice"]["picked"]
        ref = Reference(seed, stream)
        assert [ref.weighted(case["weighted"]["weights"]) for _ in range(8)] == \
            case["weighted"]["picked"]
    for case in vectors["duplicate"]:
        seed = int(case["seed"], 16)
        dice = Reference(seed, int(vectors["constants"]["dice_stream"], 16))
        assert [[dice.die() for _ in range(5)] for _ in range(3)] == case["battles"]
        first = case["battles"][0]  # a battle uses its side's first dice of the 3 + 2 thrown
        assert case["battle_2v1"] == first[:2] + first[3:4]
        shuffles = Reference(seed, int(vectors["constants"]["shuffle_stream"], 16))
        assert shuffles.shuffle(list(range(10))) == case["shuffle_0_9"]
        other = Reference(seed, int(vectors["constants"]["other_stream"], 16))
        assert [other.below(10) for _ in range(5)] == case["other_below_10"]
    for case in vectors["commitments"]:
        digest = hashlib.sha256(b"risk.v1.seed:" + int(case["seed"], 16).to_bytes(8, "big")
                                + bytes.fromhex(case["nonce"])).hexdigest()
        assert digest == case["commitment"]
    for case in vectors["games"]:
        derived = reference_game(int(case["seed"], 16), case["players"],
                                 case["duplicate_draws"])
        assert derived == {"roll_off": case["roll_off"], "owner": case["owner"]}


def test_the_spec_names_the_constants_the_engine_uses() -> None:
    """docs/dice.md states the multiplier and every stream constant the engine seeds with."""
    spec = SPEC.read_text()
    for name in ("multiplier", "game_stream", "dice_stream", "shuffle_stream", "other_stream"):
        value = int(_load()["constants"][name], 16)
        assert f"0x{value:X}" in spec or str(value) in spec, name


def dumps(value: Any, indent: str = "") -> str:
    """JSON with one line per list of scalars, so the file reads as a table."""
    inner = indent + " "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value)


if __name__ == "__main__":  # regenerate the published file from the engine
    VECTORS.write_text(dumps(engine_vectors()) + "\n")
    sys.stdout.write(f"wrote {VECTORS}\n")
