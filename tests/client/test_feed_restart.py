"""`risk feed` across a restart of the service it follows: the real `risk` console script, for a
player (their player token), against a real service process that is killed (SIGKILL) while the
feed is open and started again on the same port and Redis. Meanwhile the game goes on through a
second service process on the same Redis, so events are made while the feed's service is
away. The feed reconnects, resumes after the last seq it printed and prints every event of the
player's stream once, in order: no gap, no repeat.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import grpc

from risk_proto.risk.v1 import player_games_pb2, service_pb2
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import bearer
from tests.service.test_my_games import Stub, move, new_player, player_game, turn_of

RISK = str(Path(sys.executable).with_name("risk"))
LINE = re.compile(r"^#(\d+) \S+ \S+ UTC  (.*)$", re.M)


class Feed:
    """`risk --token TOKEN feed` running, its output in files read while it runs."""

    def __init__(self, folder: Path, token: str, target: str) -> None:
        env = {k: v for k, v in os.environ.items()
               if k not in ("RISK_TOKEN", "RISK_TARGET", "RISK_CREDENTIALS")}
        env["XDG_CONFIG_HOME"] = str(folder / "config")  # no stored login: the token given
        self.out, self.err = folder / "feed.out", folder / "feed.err"
        with self.out.open("w") as out, self.err.open("w") as err:
            self.process = subprocess.Popen(
                [RISK, "--target", target, "--color", "never", f"--token={token}", "feed"],
                env=env, text=True, stdout=out, stderr=err)

    def seqs(self) -> list[int]:
        return [int(seq) for seq, _text in LINE.findall(self.out.read_text())]

    def lines(self) -> list[str]:
        return [text for _seq, text in LINE.findall(self.out.read_text())]

    async def until(self, what: str, check: Callable[[], bool], timeout: float = 60) -> None:
        """Until `check()` holds (the feed's Python may take seconds to start)."""
        deadline = time.monotonic() + timeout
        while not check():
            assert self.process.poll() is None, f"risk feed ended: {self.err.read_text()}"
            assert time.monotonic() < deadline, (
                f"not within {timeout} s: {what}\n{self.out.read_text()}\n"
                f"{self.err.read_text()}")
            await asyncio.sleep(0.05)

    def stop(self) -> None:
        """Ctrl-C, as a user stops it; killed (and the test failed) if it ignores it."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
            raise AssertionError("risk feed ignored SIGINT") from None


async def _moves(target: str, game_id: str, tokens: dict[int, str], count: int) -> None:
    """`count` moves, each by the seat to move, with its player's token."""
    async with grpc.aio.insecure_channel(target) as channel:
        stub = Stub(channel)
        for _ in range(count):
            await move(stub, game_id, tokens[await turn_of(stub, game_id)])


async def _stream_seqs(target: str, token: str, count: int) -> list[int]:
    """The player's stream as the service holds it: the seqs of its first `count` events."""
    async with grpc.aio.insecure_channel(target) as channel:
        call = Stub(channel).StreamPlayerEvents(player_games_pb2.StreamPlayerEventsRequest(),
                                                metadata=bearer(token))
        seqs: list[int] = []
        async with asyncio.timeout(20):
            async for reply in call:
                seqs.append(reply.event.seq)
                if len(seqs) == count:
                    break
        call.cancel()
        return seqs


async def test_feed_resumes_after_a_kill_of_its_service_with_no_gap_and_no_repeat(
        make_service: ServiceFactory, redis_client: object, tmp_path: Path) -> None:
    """The feed prints the game's start and ada's turns; its service is killed -9, moves go
    on through another process (ada's turns among them), the service starts again on the same
    port, more moves and the game's end follow: the feed says the outage on stderr, carries
    on by itself, and its lines are #1, #2, ... the player's whole stream, each once."""
    followed: ServiceProcess = make_service()
    other = make_service()
    async with grpc.aio.insecure_channel(other.target) as channel:
        stub = Stub(channel)
        (ada, ada_t), (bob, bob_t) = await new_player(stub), await new_player(stub)
        game_id = (await player_game(stub, ada_t, [ada, bob], players=2)).game.game_id
    tokens = {0: ada_t, 1: bob_t}
    feed = Feed(tmp_path, ada_t, followed.target)
    try:
        await feed.until("the game's start", lambda: len(feed.seqs()) >= 1)
        await _moves(other.target, game_id, tokens, 6)  # the seats alternate: ada's turns
        await feed.until("two of ada's turns", lambda: sum(
            "YOUR TURN" in line for line in feed.lines()) >= 2)
        before = len(feed.seqs())

        followed.kill()
        await feed.until("the outage said", lambda: "retrying in" in feed.err.read_text())
        await _moves(other.target, game_id, tokens, 12)  # made while the feed's service is away
        followed.start()
        await _moves(followed.target, game_id, tokens, 4)
        async with grpc.aio.insecure_channel(other.target) as channel:
            stub = Stub(channel)
            for token in (bob_t,):  # bob resigns: ada wins, the game is over
                await stub.Resign(service_pb2.ResignRequest(game_id=game_id),
                                  metadata=bearer(token))
        await feed.until("the game's end", lambda: any(
            "you win" in line for line in feed.lines()))
        total = len(feed.seqs())
        held = await _stream_seqs(other.target, ada_t, total)
    finally:
        feed.stop()
    seqs = feed.seqs()
    assert seqs == list(range(1, len(seqs) + 1)), f"a gap or a repeat: {seqs}"
    assert seqs == held, "the feed printed what the player's stream holds, nothing else"
    assert len(seqs) > before + 2, "events made while the service was away were printed"
    lines = feed.lines()
    assert lines[0].startswith(f"game {game_id} (classic) started; you are seat 0"), lines
    assert all(line.startswith(f"YOUR TURN in game {game_id}") for line in lines[1:-1]), lines
    assert "the service answers again; following" in feed.err.read_text()
