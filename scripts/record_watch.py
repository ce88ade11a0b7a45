"""Record what `risk watch` shows for every variant, as text, into docs/watch/.

Starts its own redis-server and service on free loopback ports (nothing shared is touched),
then for each variant of the descriptors runs `risk demo --variant V --watch` (the bots play a
short game while a spectator watches, as a user would see it, without colour) and
`risk watch GAME --plain` on the finished game. The live view is a sequence of full-screen
frames; the capture keeps the first, one from the middle and the last, and the plain log's
first and last lines. One more capture shows the watcher's status line while the service is
away (`risk watch` against an address nobody serves). Run: .venv/bin/python
scripts/record_watch.py
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from risk_rules import variants  # noqa: E402
from risk_service.redis_server import RedisServer, free_port  # noqa: E402
from risk_testing.harness import ServiceProcess  # noqa: E402

RISK = str(Path(sys.executable).with_name("risk"))
OUT = ROOT / "docs" / "watch"
CLEAR = "\x1b[H\x1b[2J"
PLAYERS = {"legacy": 3}
SIZE = {"COLUMNS": "110", "LINES": "60"}


def risk(*args: str, target: str, timeout: float = 600) -> str:
    env = {**os.environ, "RISK_TARGET": target, **SIZE}
    env.pop("RISK_TOKEN", None)
    done = subprocess.run([RISK, *args], env=env, capture_output=True, text=True,
                          timeout=timeout, check=True)
    return done.stdout


def frames(text: str) -> list[str]:
    return [f.rstrip() for f in text.split(CLEAR) if f.strip()]


def record(variant: str, target: str) -> str:
    players = PLAYERS.get(variant, 2)
    live = risk("demo", "--variant", variant, "--players", str(players), "--seed", "3",
                "--max-turns", "6", "--watch", "--color", "never", target=target)
    game = re.search(r"^game (\S+):", live, re.MULTILINE)
    assert game, live
    printed, *shown = live.split(CLEAR)  # what demo prints before the first frame
    shown = [f.rstrip() for f in shown if f.strip()]
    picked = [shown[0], shown[len(shown) // 2], shown[-1]] if len(shown) > 2 else shown
    plain = risk("watch", game.group(1), "--plain", target=target).splitlines()
    parts = [f"$ risk demo --variant {variant} --players {players} --seed 3 --max-turns 6 "
             "--watch", printed.rstrip(), "",
             f"({len(shown)} frames drawn; the first, the middle and the last follow)"]
    for number, frame in zip(("first", "middle", "last"), picked, strict=False):
        parts += ["", f"---- {number} frame " + "-" * 60, frame]
    parts += ["", "-" * 80, "", f"$ risk watch {game.group(1)} --plain",
              *plain[:12], f"... ({len(plain) - 16} lines)", *plain[-4:]]
    return "\n".join(parts) + "\n"


def record_outage() -> str:
    target = f"127.0.0.1:{free_port()}"
    env = {**os.environ, "RISK_TARGET": target, **SIZE}
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        live = subprocess.Popen([RISK, "watch", "some-game"], env=env, stdout=out,
                                stderr=err, text=True)
        time.sleep(12)
        live.terminate()
        live.wait(10)
        out.seek(0)
        shown = frames(out.read())
    return "\n".join([f"$ risk watch some-game   # nothing serves {target}",
                      f"({len(shown)} frames; the last)", "", shown[-1]]) + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        redis = RedisServer(Path(folder) / "redis")
        redis.start()
        service = ServiceProcess(redis.url, Path(folder))
        service.start()
        try:
            for name in sorted(variants.DESCRIPTORS):
                (OUT / f"{name}.txt").write_text(record(name, service.target))
                print(f"wrote docs/watch/{name}.txt")
        finally:
            service.stop()
            redis.stop()
    (OUT / "outage.txt").write_text(record_outage())
    print("wrote docs/watch/outage.txt")


if __name__ == "__main__":
    main()
