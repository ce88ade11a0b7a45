"""Engine throughput: complete bot games per second and validated actions per second, per variant.

    python bench/engine.py [--games 20] [--seed 1] [--players 4] [--variant classic]
                           [--list-twice]

Each step does what the service does for a bot seat (`rules.bot_action`, then `apply`): list
the legal actions for the deciding seat, let the bot pick one of them from the seat's view
(`bot_choose(view(state, seat), legal, entropy)`, which is what `bot_action` is), and `apply` it
(which validates it again). One such step is one action. Until 2026-11-30 a step listed the
legal actions once more than the service does (once here, once inside `bot_action`);
`--list-twice` measures that older definition. Every variant in the engine registry is
measured with the options in `BENCH_OPTIONS` (defaults otherwise); results print as one
greppable line per figure, e.g. `classic: games/s=1.23, actions/s=4567`. Record figures in
bench/RESULTS.md.

Right after the classic run (unless `--no-boardgameio`), the same script measures
boardgame.io's game reducer for comparison: it installs `boardgame.io@0.50.2` with npm into the
scratch folder bench/.scratch/bgio (gitignored; only when it is not installed yet), runs
bench/bgio_reducer.js there with node (N trivial moves, `--bgio-moves`, through
`CreateGameReducer`), and prints `classic actions/s / boardgame.io reducer moves/s = X.XX`.
If npm or node fails, the reason is printed and the run goes on; `--require-boardgameio` makes
that failure exit non-zero.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from risk_rules import variants
from risk_rules.engine import REGISTRY, get_ruleset

# Per-variant option overrides for the benchmark game (applied to `default_options(players)`):
# each descriptor's `defaults.bench_options`, which says why.
BENCH_OPTIONS: dict[str, dict[str, Any]] = {
    name: dict(described.defaults.bench_options)
    for name, described in variants.DESCRIPTORS.items()}


BENCH_DIR = Path(__file__).resolve().parent
BGIO_VERSION = "0.50.2"
BGIO_SCRATCH = BENCH_DIR / ".scratch" / "bgio"
BGIO_SCRIPT = BENCH_DIR / "bgio_reducer.js"


class BoardgameioError(RuntimeError):
    """The boardgame.io comparison could not be run (npm or node missing or failing)."""


@dataclass
class Result:
    """What one variant's run measured."""

    variant: str
    options: Any = None
    seconds: float = 0.0
    actions_per_game: list[int] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)
    winners: Counter[int] = field(default_factory=Counter)

    @property
    def games(self) -> int:
        return len(self.actions_per_game)

    @property
    def actions(self) -> int:
        return sum(self.actions_per_game)


def play_game(variant: str, options: Any, seed: int, list_twice: bool = False
              ) -> tuple[int, Any]:
    """One complete bot game: (actions applied, outcome)."""
    rules = get_ruleset(variant)
    state, _ = rules.create(options, seed)
    actions = 0
    while (outcome := rules.outcome(state)) is None:
        seat = rules.decision(state).seats[0]
        legal = rules.legal_actions(state, seat)
        if not legal:
            raise AssertionError(f"{variant} seed {seed}: seat {seat} decides but has no action")
        entropy = (seed << 32) | actions
        if list_twice:
            action = rules.bot_action(state, seat, entropy)
        else:
            action = rules.bot_choose(rules.view(state, seat), legal, entropy)
        state, _ = rules.apply(state, seat, action)
        actions += 1
    return actions, outcome


def bench_variant(variant: str, games: int, seed: int, players: int,
                  list_twice: bool = False) -> Result:
    rules = get_ruleset(variant)
    options = dataclasses.replace(
        rules.default_options(players), **BENCH_OPTIONS.get(variant, {})
    )
    result = Result(variant, options)
    start = time.perf_counter()
    for game in range(games):
        actions, outcome = play_game(variant, options, seed + game, list_twice)
        result.actions_per_game.append(actions)
        result.outcomes[outcome.reason] += 1
        result.winners[outcome.winner] += 1
    result.seconds = time.perf_counter() - start
    return result


def report(result: Result) -> None:
    v, per_game = result.variant, result.actions_per_game
    print(f"{v}: options {result.options}")
    print(f"{v}: games={result.games}, actions={result.actions}, seconds={result.seconds:.2f}")
    print(f"{v}: games/s={result.games / result.seconds:.3f}, "
          f"actions/s={result.actions / result.seconds:.0f}")
    print(f"{v}: actions/game mean={statistics.mean(per_game):.0f}, "
          f"median={statistics.median(per_game):.0f}, min={min(per_game)}, max={max(per_game)}")
    print(f"{v}: outcomes " + ", ".join(f"{k}={n}" for k, n in sorted(result.outcomes.items())))
    print(f"{v}: winners " + ", ".join(
        f"seat{k}={n}" if k >= 0 else f"draw={n}" for k, n in sorted(result.winners.items())
    ))


def _run(cmd: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    try:
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BoardgameioError(f"`{' '.join(cmd)}` failed: {exc}") from exc
    if done.returncode != 0:
        tail = (done.stderr.strip() or done.stdout.strip())[-2000:]
        raise BoardgameioError(f"`{' '.join(cmd)}` exited {done.returncode}:\n{tail}")
    return done


def ensure_boardgameio() -> Path:
    """The scratch node_modules holding boardgame.io, installed with npm if missing."""
    modules = BGIO_SCRATCH / "node_modules"
    if (modules / "boardgame.io" / "package.json").is_file():
        return modules
    npm = shutil.which("npm")
    if npm is None:
        raise BoardgameioError("npm is not on PATH; cannot install boardgame.io")
    BGIO_SCRATCH.mkdir(parents=True, exist_ok=True)
    package = BGIO_SCRATCH / "package.json"
    if not package.exists():
        package.write_text('{"name": "bgio-scratch", "private": true}\n')
    print(f"boardgameio: npm install boardgame.io@{BGIO_VERSION} into {BGIO_SCRATCH}", flush=True)
    _run([npm, "install", "--no-audit", "--no-fund", "--no-save",
          f"boardgame.io@{BGIO_VERSION}"], BGIO_SCRATCH, timeout=600)
    if not (modules / "boardgame.io" / "package.json").is_file():
        raise BoardgameioError(f"npm install finished but {modules / 'boardgame.io'} is missing")
    return modules


def bench_boardgameio(moves: int) -> dict[str, Any]:
    """Run bench/bgio_reducer.js under node; its JSON report."""
    node = shutil.which("node")
    if node is None:
        raise BoardgameioError("node is not on PATH; cannot run the boardgame.io reducer")
    modules = ensure_boardgameio()
    done = _run([node, str(BGIO_SCRIPT), "--modules", str(modules), "--moves", str(moves)],
                BGIO_SCRATCH, timeout=900)
    lines = done.stdout.strip().splitlines()
    try:
        figures: dict[str, Any] = json.loads(lines[-1])
        float(figures["moves_per_s"])
    except (IndexError, ValueError, KeyError, TypeError) as exc:
        raise BoardgameioError(f"unexpected output from {BGIO_SCRIPT.name}: {done.stdout!r}") \
            from exc
    return figures


def compare_boardgameio(classic: Result, moves: int) -> bool:
    """Print the boardgame.io reducer figures and the ratio; False if it could not be run."""
    try:
        bgio = bench_boardgameio(moves)
    except BoardgameioError as exc:
        print(f"boardgameio: comparison skipped: {exc}")
        return False
    actions_per_s = classic.actions / classic.seconds
    moves_per_s = float(bgio["moves_per_s"])
    ratio = actions_per_s / moves_per_s
    players = classic.options.players
    print(f"boardgameio: {bgio['library']} on node {bgio['node']}, moves={bgio['moves']}, "
          f"seconds={bgio['seconds']}, undo={'on' if bgio['undo'] else 'off'}")
    print(f"boardgameio: reducer moves/s={moves_per_s:.0f}")
    print(f"classic actions/s ÷ boardgame.io reducer moves/s = {ratio:.2f} "
          f"({actions_per_s:.0f} / {moves_per_s:.0f}; {players}-player classic, "
          f"target >= 1.0 {'met' if ratio >= 1.0 else 'not met'})")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="complete games per variant")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", action="append", choices=sorted(REGISTRY),
                        help="only this variant (repeatable); default: every registered one")
    parser.add_argument("--no-boardgameio", dest="boardgameio", action="store_false",
                        help="skip the boardgame.io reducer comparison after the classic run")
    parser.add_argument("--bgio-moves", type=int, default=200_000,
                        help="trivial moves applied through boardgame.io's reducer")
    parser.add_argument("--require-boardgameio", action="store_true",
                        help="exit non-zero if the boardgame.io comparison cannot be run")
    parser.add_argument("--list-twice", action="store_true",
                        help="the step as defined until 2026-11-30: list the legal actions, "
                             "then call bot_action, which lists them again")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()} "
          f"({platform.processor() or platform.platform()}), games={args.games}, "
          f"seeds {args.seed}..{args.seed + args.games - 1}, players={args.players}"
          f"{', legal actions listed twice per step' if args.list_twice else ''}")
    variants = args.variant or sorted(REGISTRY)
    compared = False
    for variant in variants:
        result = bench_variant(variant, args.games, args.seed, args.players, args.list_twice)
        report(result)
        sys.stdout.flush()
        if variant == "classic" and args.boardgameio:
            compared = compare_boardgameio(result, args.bgio_moves)
            sys.stdout.flush()
    if args.boardgameio and "classic" not in variants:
        print("boardgameio: comparison skipped: classic was not measured in this run")
    if args.boardgameio and args.require_boardgameio and not compared:
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
