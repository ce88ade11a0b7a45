"""Write the golden playthrough files under tests/golden (the tests only ever read them).

    python scripts/golden.py                   # rewrite every file (one per variant in GAMES)
    python scripts/golden.py --variant strike  # only tests/golden/strike_4p_seed<seed>.jsonl
    python scripts/golden.py --out-dir /tmp/x  # write elsewhere, to diff with the checked-in files

A golden file records one seeded game of a variant played by the built-in bots: line 1
is a header (variant, rules version, options, seed, the creation events and state hash), then one
line per action (seat, action, events, sha256 of the snapshot bytes after it), and the last line
is the outcome. The bot's entropy for action number i (0-based) is i, so the same engine replays
and regenerates the file exactly; a diff after a rules change shows what changed, line by line.
Regenerate only on purpose, and say why in the commit.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import hashlib
import json
import typing
from pathlib import Path
from typing import Any, NamedTuple

from risk_rules import variants, wire
from risk_rules.engine import Event, get_ruleset

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = ROOT / "tests" / "golden"
BOT_ENTROPY = "action_index"  # the bot's entropy for action i is i (recorded in the header)


class GoldenGame(NamedTuple):
    """One recorded game: which variant, with which options and seed, and how it must end."""

    variant: str
    options: Any
    seed: int
    win_reason: str  # the outcome reason of a game won outright in this variant


# one game per variant whose descriptor names one (`defaults.golden`: options, seed, ending)
GAMES: dict[str, GoldenGame] = {
    name: GoldenGame(name, golden.options, golden.seed, golden.win_reason)
    for name, described in sorted(variants.DESCRIPTORS.items())
    if (golden := described.defaults.golden) is not None
}
VARIANT = "classic"
SEED = GAMES[VARIANT].seed


def golden_path(directory: Path, seed: int = SEED, variant: str = VARIANT) -> Path:
    players = GAMES[variant].options.players
    return directory / f"{variant}_{players}p_seed{seed}.jsonl"


# ---- JSON codec for engine dataclasses -----------------------------------------------------


def to_json(value: Any) -> Any:
    """A dataclass as {"type": ClassName, field: value, ...}; enums by name; tuples as lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"type": type(value).__name__}
        for f in dataclasses.fields(value):
            field_value = getattr(value, f.name)
            if field_value is None is f.default:  # unset, as the wire leaves it unset
                continue
            out[f.name] = to_json(field_value)
        return out
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    return value


def fields_to_json(value: Any) -> dict[str, Any]:
    """Like `to_json` but without the "type" key (for the options in the header)."""
    data: dict[str, Any] = to_json(value)
    del data["type"]
    return data


def _from_json_typed(data: Any, hint: Any) -> Any:
    if typing.get_origin(hint) is tuple:
        (item, *_rest) = typing.get_args(hint)
        return tuple(_from_json_typed(v, item) for v in data)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint[data]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return from_json(data, hint)
    return data


def from_json(data: dict[str, Any], cls: type[Any]) -> Any:
    """The dataclass `cls` from `to_json` output (a "type" key, if present, must match)."""
    if "type" in data and data["type"] != cls.__name__:
        raise ValueError(f"expected a {cls.__name__}, got {data['type']}")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = set(data) - names - {"type"}
    if unknown:
        raise ValueError(f"{cls.__name__} has no fields {sorted(unknown)}")
    return cls(**{n: _from_json_typed(data[n], hints[n]) for n in names if n in data})


def from_json_by_type(data: dict[str, Any], types: typing.Iterable[type[Any]]) -> Any:
    """Decode an action or event, choosing its class by the "type" key among `types`."""
    by_name = {cls.__name__: cls for cls in types}
    try:
        cls = by_name[data["type"]]
    except KeyError:
        raise ValueError(f"unknown type {data.get('type')!r}") from None
    return from_json(data, cls)


def state_sha256(variant: str, state: Any) -> str:
    return hashlib.sha256(wire.encode_state(variant, state)).hexdigest()


def events_json(events: list[Event]) -> list[Any]:
    return [to_json(e) for e in events]


# ---- the playthrough -----------------------------------------------------------------------


def play(seed: int = SEED, variant: str = VARIANT) -> list[dict[str, Any]]:
    """Every line of the golden file for `seed`, as JSON-ready dicts."""
    rules = get_ruleset(variant)
    options = GAMES[variant].options
    state, events = rules.create(options, seed)
    lines: list[dict[str, Any]] = [
        {
            "variant": variant,
            "rules_version": rules.rules_version,
            "options": fields_to_json(options),
            "seed": seed,
            "bot_entropy": BOT_ENTROPY,
            "events": events_json(events),
            "state_sha256": state_sha256(variant, state),
        }
    ]
    index = 0
    while (outcome := rules.outcome(state)) is None:
        (seat,) = rules.decision(state).seats
        action = rules.bot_action(state, seat, index)
        state, events = rules.apply(state, seat, action)
        lines.append(
            {
                "seat": seat,
                "action": to_json(action),
                "events": events_json(events),
                "state_sha256": state_sha256(variant, state),
            }
        )
        index += 1
    lines.append({"outcome": fields_to_json(outcome)})
    return lines


def render(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)


def write(variant: str, seed: int, out_dir: Path) -> int:
    """Write one variant's file; 1 if the seed's game does not end with a win."""
    game = GAMES[variant]
    lines = play(seed, variant)
    outcome = lines[-1]["outcome"]
    if outcome["reason"] != game.win_reason:
        print(f"{variant} seed {seed} ends by {outcome['reason']}, not {game.win_reason}; "
              "pick another seed")
        return 1
    path = golden_path(out_dir, seed, variant)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = render(lines)
    path.write_text(text)
    print(f"wrote {path} ({len(lines) - 2} actions, {len(text.encode())} bytes, "
          f"winner seat {outcome['winner']})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=sorted(GAMES),
                        help="only this variant (repeatable); default: every one in GAMES")
    parser.add_argument("--seed", type=int, help="another seed (with a single --variant)")
    parser.add_argument("--out-dir", type=Path, default=GOLDEN_DIR)
    args = parser.parse_args()
    variants = args.variant or sorted(GAMES)
    if args.seed is not None and len(variants) != 1:
        parser.error("--seed needs exactly one --variant")
    failed = 0
    for variant in variants:
        seed = GAMES[variant].seed if args.seed is None else args.seed
        failed |= write(variant, seed, args.out_dir)
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
