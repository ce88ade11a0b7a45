"""Every benchmark, one after the other, then each one's ratio lines.

    python bench/all.py

Runs bench/engine.py, bench/service.py --quick, bench/contention.py, bench/stalls.py,
bench/backlog.py, bench/memory.py, bench/http_port.py --quick, bench/bots.py, bench/snapshots.py
--quick --rounds 1 (RISK_SNAPSHOT_EVERY=1 against the default) and bench/peers.py
--quick (boardgame.io and Colyseus, npm-installed into bench/peers/node_modules on first run,
and the grpc.aio floor: the peers' game on the service's own stack)
with their default (or quick) options, each in its own process, streaming their output; at the
end it repeats, per script, the lines containing "ratio" or "bytes per" (or "÷": bench/engine.py's
ratio line says "actions/s ÷ ... moves/s" without the word).
A script that fails is reported and the others still run.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
COMMANDS = [
    ["bench/engine.py"],
    ["bench/service.py", "--quick"],
    ["bench/contention.py"],
    ["bench/stalls.py"],
    ["bench/backlog.py"],
    ["bench/memory.py"],
    ["bench/http_port.py", "--quick"],
    ["bench/bots.py"],
    ["bench/snapshots.py", "--quick", "--rounds", "1"],
    ["bench/peers.py", "--quick"],
]


def main() -> int:
    summary: list[tuple[str, float, int, list[str]]] = []
    for args in COMMANDS:
        command = [sys.executable, *args]
        name = "python " + " ".join(args)
        print(f"\n######## {name}", flush=True)
        t0 = time.monotonic()
        picked: list[str] = []
        with subprocess.Popen(command, cwd=BENCH.parent, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) as proc:
            assert proc.stdout is not None
            for line in proc.stdout:
                print(line, end="", flush=True)
                lower = line.lower()
                if "ratio" in lower or "bytes per" in lower or "÷" in line:
                    picked.append(line.rstrip())
        summary.append((name, time.monotonic() - t0, proc.returncode, picked))
    print("\n######## summary", flush=True)
    for name, seconds, code, picked in summary:
        status = "ok" if code == 0 else f"FAILED (exit {code})"
        print(f"{name}: {status}, {seconds:.0f} s")
        for line in picked or ["(no ratio lines)"]:
            print(f"  {line}")
    return 0 if all(code == 0 for _, _, code, _ in summary) else 1


if __name__ == "__main__":
    raise SystemExit(main())
