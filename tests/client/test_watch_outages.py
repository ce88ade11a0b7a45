"""`risk watch` while the service is away: one status line saying what is wrong and when it
tries again, never a traceback, a silence or a line per attempt, and the game followed to its
end once the service is back.

The watcher is the real `risk` console script; the service a real process that is stopped
cleanly (SIGTERM), started again on the same port and Redis, and killed (SIGKILL) mid-game.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from risk_client import RiskClient
from risk_client.options import classic_options
from risk_service.redis_server import free_port
from risk_testing.harness import ServiceProcess

RISK = str(Path(sys.executable).with_name("risk"))


class Watcher:
    """`risk watch ...` running, its output in files that can be read while it runs."""

    def __init__(self, folder: Path, name: str, *args: str, target: str) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("RISK_TOKEN", "RISK_TARGET")}
        self.out, self.err = folder / f"{name}.out", folder / f"{name}.err"
        with self.out.open("w") as out, self.err.open("w") as err:
            self.process = subprocess.Popen([RISK, "--target", target, "watch", *args],
                                            env=env, text=True, stdout=out, stderr=err)

    def wait_for(self, text: str, count: int = 1, timeout: float = 90) -> None:
        """Until `text` is in the output `count` times (a slow machine may take seconds to
        start Python)."""
        deadline = time.monotonic() + timeout
        while (self.out.read_text() + self.err.read_text()).count(text) < count:
            assert self.process.poll() is None, self.err.read_text()
            assert time.monotonic() < deadline, f"no {text!r} in {self.err.read_text()}"
            time.sleep(0.05)

    def stop(self) -> tuple[str, str]:
        """Ctrl-C (SIGINT), as a user stops it; its output. One that does not end on it within
        30 s is killed, and that fails the test."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"`risk watch` ignored SIGINT:\n{self.err.read_text()}"
                                 ) from None
        return self.out.read_text(), self.err.read_text()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)


def test_watch_with_the_service_down_says_so_on_one_line(tmp_path: Path) -> None:
    """Down from the start: plain output gets one status line on stderr naming the address
    and the retry; the live view shows it as its status line; both keep trying."""
    target = f"127.0.0.1:{free_port()}"
    plain = Watcher(tmp_path, "plain", "g-nowhere", "--plain", target=target)
    live = Watcher(tmp_path, "live", "g-nowhere", target=target)
    try:
        plain.wait_for("retrying in")
        live.wait_for("attempt 4")  # several retries' worth, each redrawn on the one line
        # both started together: the plain one has been retrying as long, and neither gave up
        assert plain.process.poll() is None and live.process.poll() is None
        out, err = plain.stop()
        live_out, live_err = live.stop()
    finally:
        plain.kill()
        live.kill()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert f"service unavailable at {target}" in lines[0] and "retrying in" in lines[0]
    assert "Traceback" not in err + live_err
    assert f"status: service unavailable at {target}" in live_out
    assert "attempt 3" in live_out  # the line is redrawn as the attempts go on
    assert live_out.count("status:") == live_out.count("\x1b[2J")  # one per frame


async def test_watch_rides_out_a_shutdown_and_a_crash(redis_url: str, tmp_path: Path) -> None:
    """A clean shutdown and, after a restart, a SIGKILL: each is one status line and one
    "answers again" line; every event is printed once, in order, up to the game's end."""
    service = ServiceProcess(redis_url, tmp_path, RISK_KEY_PREFIX="watch-outage")
    service.start()
    watcher: Watcher | None = None
    live: Watcher | None = None
    try:
        async with RiskClient(service.target) as client:
            summary, _host = await client.create_game(
                classic_options(players=3, auto_defend_max_dice=True), seed=3)
            game_id = summary.game_id
            tokens = [await client.join_game(game_id, seat) for seat in range(3)]
            watcher = Watcher(tmp_path, "plain", game_id, "--plain", target=service.target)
            live = Watcher(tmp_path, "live", game_id, target=service.target)
            watcher.wait_for("The game started")
            live.wait_for("The game started")
            service.stop()  # clean shutdown: the service ends the stream
            watcher.wait_for("retrying in")
            service.start()
            watcher.wait_for("answers again")
            live.wait_for("status: ")
            service.kill()  # a crash mid-stream
            watcher.wait_for("retrying in", count=2)  # seen as the second outage
            service.start()
            await client.with_token(tokens[0]).resign(game_id)
            await client.with_token(tokens[1]).resign(game_id)
        watcher.process.wait(90)
        live.process.wait(90)
        out, err = watcher.stop()
        live_out, _ = live.stop()
    finally:
        for running in (watcher, live):
            if running is not None:
                running.kill()
        service.stop()
    frames = [f for f in live_out.split("\x1b[H\x1b[2J") if f.strip()]
    assert any("\nstatus: " in f for f in frames)  # the outage shown under the board
    assert "status: " not in frames[-1] and "finished" in frames[-1]  # and cleared after
    assert live.process.returncode == 0
    assert watcher.process.returncode == 0, err
    status = err.strip().splitlines()
    assert len(status) == 4, err  # two outages: each said once, and its end once
    assert "closed the event stream" in status[0] or "service unavailable" in status[0]
    assert "answers again" in status[1] and "answers again" in status[3]
    assert "service unavailable" in status[2] or "closed the event stream" in status[2]
    seqs = [int(line.split()[0][1:]) for line in out.splitlines() if line.startswith("#")]
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= 5
    assert "Game over" in out and "outcome: Seat 2 won" in out
