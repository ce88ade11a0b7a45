"""Compiling the hot Python with Cython: what it saves per move, against this checkout, one sitting.

    python bench/compiled.py [--rounds 5] [--moves 6000] [--sets engine,engine+glue]

Issue 39's first lever was mypyc, which the engine's idioms refuse (bench/RESULTS.md, "mypyc on
the classic engine"). Cython compiles unchanged Python modules (its "pure Python mode": classes
stay Python classes, so slotted frozen dataclasses, `exec`-made copiers and `__new__` without
`__init__` keep working), so this measures what compiling would give without rewriting the
engine. Nothing of it is in the product: Cython is not a dependency, and no build of the
service compiles anything.

- Cython (pinned below) is installed on first run with pip into bench/.scratch/cython, and the
  service's sources are copied to bench/.scratch/compiled/SET/service and compiled there in
  place (`cythonize -i`, `binding=True` so functions stay introspectable, `annotation_typing`
  off so an annotation never becomes a type check). Each SET is a list of modules:
  - `engine`: the rules engine's core and classic modules, `wire`, `codec`, the variants'
    registry (everything a classic move runs in risk_rules);
  - `engine+glue`: those and the service's move path: operations (commit, moves, identity,
    cache, records, views, effects, request_ids), the store (game_store, pipe, connection)
    and server/calls. (operations/sessions.py is left out: Cython 3.3 refuses one of its
    expressions.)
- Each round runs every side in turn, the order rotating: `pure` (this checkout) and each SET
  (PYTHONPATH set to its copy, ahead of the editable installs):
  1. the engine alone: a classic move's `apply`, `decision`, snapshot encoding and event
     envelopes over the moves of 6 recorded bot games, best of 7 passes (process CPU);
  2. our move alone: bench/inprocess.py's `submit` (the operations on a Redis of their own,
     whole-process CPU per move), `--moves` moves.
- Printed: each side's medians, and SET ÷ pure for both (below 1: compiling saves).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import inprocess  # noqa: E402 - needs ROOT on sys.path
from bench.ab import python_path  # noqa: E402

SCRATCH = ROOT / "bench" / ".scratch"
CYTHON = "cython==3.3.1"

ENGINE = [
    "rules/risk_rules/engine/core/*.py", "rules/risk_rules/engine/classic/*.py",
    "rules/risk_rules/wire.py", "rules/risk_rules/codec.py",
    "rules/risk_rules/variants/__init__.py",
]
GLUE = [
    *(f"risk_service/operations/{name}.py" for name in (
        "commit", "moves", "identity", "cache", "records", "views", "effects", "request_ids")),
    *(f"risk_service/store/{name}.py" for name in ("game_store", "pipe", "connection")),
    "risk_service/server/calls.py",
]
SETS = {"engine": ENGINE, "engine+glue": [*ENGINE, *GLUE]}

# the engine alone, run in a child process on the side's PYTHONPATH; prints µs per move
ENGINE_LOOP = """
import sys, time
from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_rules.engine.classic.model import ClassicOptions
rules = get_ruleset("classic")
moves = []
for seed in range(6):
    state, _ = rules.create(ClassicOptions(players=4), seed)
    n = 0
    while rules.outcome(state) is None and n < 600:
        seat = rules.decision(state).seats[0]
        action = rules.bot_choose(rules.view(state, seat), rules.legal_actions(state, seat), n)
        moves.append((state, seat, action))
        state, _ = rules.apply(state, seat, action)
        n += 1
def once():
    start = time.process_time()
    for state, seat, action in moves:
        after, events = rules.apply(state, seat, action)
        rules.decision(after)
        wire.encode_state("classic", after)
        for event in events:
            wire.event_to_proto("classic", event, 1, 1, 0).SerializeToString(deterministic=True)
    return (time.process_time() - start) / len(moves) * 1e6
print(min(once() for _ in range(7)))
"""


def cython_path() -> Path:
    target = SCRATCH / "cython"
    if not (target / "Cython").is_dir():
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target",
                        str(target), CYTHON], check=True, timeout=600)
    return target


def build(name: str, patterns: list[str]) -> Path:
    """A copy of service/ with `patterns` compiled in place, under the root it returns (a
    checkout's layout: `python_path` of it imports the copy)."""
    copy = SCRATCH / "compiled" / name.replace("+", "-")
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(ROOT / "service", copy / "service",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
    service = copy / "service"
    modules = sorted({str(p.relative_to(service)) for pattern in patterns
                      for p in service.glob(pattern)})
    env = {**os.environ, "PYTHONPATH": str(cython_path())}
    done = subprocess.run(
        [sys.executable, "-m", "Cython.Build.Cythonize", "-i", "-3", "-j", str(os.cpu_count() or 1),
         "-X", "binding=True", "-X", "annotation_typing=False", *modules],
        cwd=service, env=env, capture_output=True, text=True, timeout=1800, check=False)
    if done.returncode != 0:
        raise SystemExit(f"compiling {name} failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    built = [p for p in service.rglob("*.so") if "build" not in p.relative_to(service).parts]
    if len(built) != len(modules):
        raise SystemExit(f"compiling {name}: {len(modules)} modules, {len(built)} extensions")
    print(f"built {name}: {len(modules)} modules compiled", flush=True)
    return copy


def side_env(root: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if root is not None:
        env["PYTHONPATH"] = python_path(root)
    return env


def engine_us(root: Path | None) -> float:
    done = subprocess.run([sys.executable, "-c", ENGINE_LOOP], env=side_env(root), cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=True)
    return float(done.stdout.split()[-1])


def move_us(root: Path | None, moves: int) -> float:
    _lines, medians = inprocess.run_child(
        ["--modes", "submit", "--rounds", "1", "--moves", str(moves)], env=side_env(root),
        timeout=900)
    return medians["submit"]["cpu_us_per_move"]


def compiled_check(root: Path) -> None:
    """The copy's modules are the compiled ones (an editable install ahead of PYTHONPATH would
    measure the checkout twice)."""
    probe = ("import risk_rules.engine.classic.actions as m, risk_service.operations.moves as o;"
             "print(m.__file__); print(o.__file__)")
    done = subprocess.run([sys.executable, "-c", probe], env=side_env(root),
                          capture_output=True, text=True, timeout=60, check=True)
    if not done.stdout.splitlines()[0].endswith(".so"):
        raise SystemExit(f"the compiled copy is not what imports: {done.stdout}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=6000,
                        help="bench/inprocess.py's submit moves per side and round")
    parser.add_argument("--sets", default="engine,engine+glue",
                        help=f"which compiled copies to measure: {', '.join(SETS)}")
    args = parser.parse_args()
    names = args.sets.split(",")
    unknown = [n for n in names if n not in SETS]
    if unknown or args.rounds < 1 or args.moves < 1:
        parser.error(f"--sets takes {', '.join(SETS)}; --rounds and --moves at least 1")
    sides: dict[str, Path | None] = {"pure": None}
    for name in names:
        sides[name] = root = build(name, SETS[name])
        compiled_check(root)
    order = list(sides)
    figures: dict[str, dict[str, list[float]]] = {s: {"engine": [], "move": []} for s in sides}
    for r in range(args.rounds):
        turn = order[r % len(order):] + order[:r % len(order)]
        for side in turn:
            engine, move = engine_us(sides[side]), move_us(sides[side], args.moves)
            figures[side]["engine"].append(engine)
            figures[side]["move"].append(move)
            print(f"round {r + 1}, {side}: the engine {engine:.2f} us per move; our move "
                  f"alone {move:.1f} us", flush=True)
    median = {s: {k: statistics.median(v) for k, v in f.items()} for s, f in figures.items()}
    for side in order:
        line = (f"{side}: the engine {median[side]['engine']:.2f} us per move, our move alone "
                f"{median[side]['move']:.1f} us (medians of {args.rounds})")
        if side != "pure":
            line += (f"; ÷ pure: the engine {median[side]['engine'] / median['pure']['engine']:.3f}"
                     f", our move {median[side]['move'] / median['pure']['move']:.3f}")
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
