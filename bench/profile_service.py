"""Profile the service's hot path with py-spy while bench/service.py drives it.

    python bench/profile_service.py [--phase submit|session_acks|ws_session_acks|deliver|engine]
                                     [--seconds 8] [--native] [--top 30]

Runs bench/service.py (its own redis-server and service process), attaches
`py-spy record --format raw` to the service process during the measured phase, and prints the
profile as shares of all samples: the functions with the most inclusive time (the service's own
code and the libraries it calls), the most self time, and what `GameService.submit` (or
`GameService.stream`) spends its time in. `--native` adds C frames (grpc's core, libc calls):
with it, time that Python attributes to `Handle._run` is split into what grpc and the kernel do.

- `--phase submit`: section 1's SubmitAction phase (64 in flight, many games);
- `--phase deliver`: section 2's delivery run with 1,000 subscribers;
- `--phase session_acks`: section 1's acks-only Session phase (one open stream per seat, the
  moves of the submit phase's games; what `bench/peers.py` compares with the peers);
- `--phase ws_session_acks`: `bench/peers.py`'s moves job on acks-only WebSocket sessions
  (ours alone, no peer: the figure compared with the peers);
- `--phase engine`: `bench/engine.py --variant classic --games N` (`--games`, default 3) run
  under py-spy from its start (no service; `--seconds` is ignored), inside `play_game`.

To compare a change, run it on the commit before and after (e.g. in a `git worktree` of the
older commit: `python /path/to/this/bench/profile_service.py --root <worktree>`), and record both in
bench/RESULTS.md. py-spy samples at 200 Hz and slows the service a little; the benchmark
figures printed alongside are not the ones to record.
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _frames(stack: str) -> list[str]:
    # "func (path/to/file.py:123)" -> "func (path/to/file.py)": lines merged per function
    return [re.sub(r" \((.*):\d+\)", r" (\1)", frame) for frame in stack.split(";")]


def summarise(raw: Path, top: int, focus: str) -> str:
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    below: collections.Counter[str] = collections.Counter()
    total = focused = 0
    for line in raw.read_text().splitlines():
        if not line.strip():
            continue
        stack, count = line.rsplit(" ", 1)
        n = int(count)
        total += n
        frames = _frames(stack)
        own[frames[-1]] += n
        for frame in set(frames):
            inclusive[frame] += n
        hits = [i for i, f in enumerate(frames) if f.startswith(focus)]
        if hits:
            focused += n
            below[frames[hits[0] + 1] if hits[0] + 1 < len(frames) else "(itself)"] += n
    if not total:
        return "no samples"
    skip = ("asyncio/", "<frozen runpy>", "risk_service/__main__.py", "threading.py")

    def pct(n: int) -> str:
        return f"{100 * n / total:5.1f}%"

    out = [f"{total} samples"]
    out.append("-- inclusive (asyncio, runpy and thread frames left out)")
    out += [f"{pct(n)} {f[:140]}" for f, n in inclusive.most_common()
            if not any(s in f for s in skip)][:top]
    out.append("-- self")
    out += [f"{pct(n)} {f[:140]}" for f, n in own.most_common(top)]
    out.append(f"-- inside {focus}: {pct(focused)} in all")
    out += [f"{pct(n)} {f[:140]}" for f, n in below.most_common(top)]
    return "\n".join(out)


def report(raw: Path, args: argparse.Namespace, focus: str) -> None:
    """Print the profile's summary; keep the raw samples where `--raw` says."""
    if args.raw:
        shutil.copy(raw, args.raw)
    print(summarise(raw, args.top, focus))


def profile_engine(py_spy: str, args: argparse.Namespace) -> int:
    command = [sys.executable, str(args.root / "bench" / "engine.py"), "--variant", "classic",
               "--games", str(args.games), "--no-boardgameio"]
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "profile.txt"
        spy = [py_spy, "record", "-r", "200", "-f", "raw", "-o", str(raw)]
        spy += ["--native"] if args.native else []
        done = subprocess.run([*spy, "--", *command], capture_output=True, text=True,
                              cwd=args.root, check=False)
        print(f"$ {' '.join(command[1:])}  (under py-spy from its start)")
        print("\n".join(line for line in done.stdout.splitlines() if "actions/s" in line))
        if done.returncode != 0:
            print(done.stderr[-2000:], file=sys.stderr)
            return 1
        report(raw, args, "play_game")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phase", default="submit", choices=(
        "submit", "session_acks", "ws_session_acks", "deliver", "engine"))
    parser.add_argument("--seconds", type=float, default=8.0, help="sampling time")
    parser.add_argument("--native", action="store_true", help="include C frames")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--games", type=int, default=3, help="classic games (--phase engine)")
    parser.add_argument("--raw", type=Path, help="also keep py-spy's raw samples here")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout whose bench/service.py and service run")
    args = parser.parse_args(argv)
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if args.phase == "engine":
        return profile_engine(py_spy, args)
    bench = [sys.executable, str(args.root / "bench" / "service.py"), "--ping-seconds", "1"]
    if args.phase == "submit":
        bench += ["--subscribers", "", "--submit-seconds", str(args.seconds + 8)]
        marker, focus = "setup:", "GameService.submit"
    elif args.phase == "session_acks":
        # the phase before it ends with this line; its warm-up is half of service.py's
        bench += ["--subscribers", "", "--submit-seconds", str(args.seconds + 4)]
        marker, focus = "session phase:", "_Session._actions"
    elif args.phase == "ws_session_acks":
        # bench/peers.py's moves job: its gRPC session phase ends with this line, then 2 s of
        # WebSocket warm-up and 10 s measured
        bench = [sys.executable, str(args.root / "bench" / "peers.py"), "--peers", "",
                 "--rounds", "1", "--spectators", "200", "--idle-games", "200"]
        marker, focus = "moves through acks-only sessions:", "_Session._actions"
        args.seconds = min(args.seconds, 8.0)
    else:
        bench += ["--subscribers", "1000", "--submit-seconds", "1",
                  "--deliver-seconds", str(args.seconds + 4), "--burst", "0"]
        marker, focus = "connected and live", "GameService.stream"
    with tempfile.TemporaryDirectory() as tmp:
        log, raw = Path(tmp) / "bench.log", Path(tmp) / "profile.txt"
        with log.open("w") as out:
            run = subprocess.Popen(bench, stdout=out, stderr=subprocess.STDOUT, cwd=args.root)
            try:
                pid = None
                deadline = time.monotonic() + 180
                while time.monotonic() < deadline and run.poll() is None:
                    text = log.read_text()
                    found = re.search(r"python -m risk_service \(pid (\d+)\)", text)
                    if found and marker in text:
                        pid = found.group(1)
                        break
                    time.sleep(0.2)
                if pid is None:
                    print(log.read_text())
                    print("the benchmark never reached the phase to profile", file=sys.stderr)
                    return 1
                # into the measured phase
                time.sleep({"deliver": 1, "ws_session_acks": 2.5}.get(args.phase, 4))
                spy = [py_spy, "record", "-p", pid, "-d", str(int(args.seconds)), "-r", "200",
                       "-f", "raw", "-o", str(raw)] + (["--native"] if args.native else [])
                subprocess.run(spy, check=True, capture_output=True)
            finally:
                run.wait(timeout=600)
        print(f"$ {' '.join(bench[1:])}  (py-spy on the service for {args.seconds:g} s"
              f"{', native frames' if args.native else ''})")
        print("\n".join(line for line in log.read_text().splitlines()
                        if "phase:" in line or line.startswith(("deliver ", "submit:"))
                        or "moves" in line))
        report(raw, args, focus)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
