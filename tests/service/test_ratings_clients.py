"""Ratings through the clients (docs/ratings.md, docs/cli.md): the Python SDK creates a rated
game, its players resign, and `get_rating` / `get_leaderboard` read the result; the `risk
rating` and `risk leaderboard` commands print it in words, as the logged-in player and by id."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from risk_client import RiskClient
from risk_proto.risk.v1 import classic_pb2, common_pb2, game_pb2
from risk_testing.harness import ServiceFactory
from tests.client.test_cli_players import not_words

RISK = str(Path(sys.executable).with_name("risk"))
# issue 38's rule: no enum names, braces or the -1 sentinel (a rating of -1.8 is a number,
# and a player id may read p-1a0d...)
NOT_WORDS = re.compile(r"VARIANT_|[{}]|(?<![\w.])-1(?![\w.])")


def risk(target: str, home: Path, *args: str, ok: bool = True) -> str:
    env = {k: v for k, v in os.environ.items()
           if k not in ("RISK_TOKEN", "RISK_TARGET", "RISK_CREDENTIALS")}
    env.update(RISK_TARGET=target, XDG_CONFIG_HOME=str(home))
    done = subprocess.run([RISK, *args], env=env, capture_output=True, text=True, timeout=60,
                          check=False)
    assert (done.returncode == 0) == ok, f"risk {args}: {done.stdout}{done.stderr}"
    assert not_words(done.stdout, home, NOT_WORDS) is None, done.stdout
    return done.stdout + done.stderr


async def test_sdk_and_cli_show_ratings_and_the_leaderboard(
        make_service: ServiceFactory, redis_client: object, tmp_path: Path) -> None:
    """A logged-in player and two SDK players finish a rated game (the logged-in one wins):
    the SDK reads each rating and the board in order; `risk rating` shows the winner's rating
    and the game in its history, `risk leaderboard` the three places, and `--around me` marks
    the logged-in player; `risk create --rated` makes a game whose summary says it is rated."""
    target = make_service().target
    home = tmp_path / "ada"
    out = risk(target, home, "login")
    ada = re.search(r"logged in as player (p-[0-9a-f]+)", out)
    assert ada, out
    async with RiskClient(target) as client:
        others = [await client.issue_player_token() for _ in range(2)]
        ids = [ada.group(1), *(o.player_id for o in others)]
        host = client.with_token(others[0].token)
        options = game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(players=3))
        game, _host_token = await host.create_game(options, seat_players=ids, rated=True,
                                                   seed=4)
        assert game.rated, "a rated game's summary says so"
        for other in reversed(others):
            await client.with_token(other.token).resign(game.game_id)
        deadline = time.monotonic() + 30
        while (await client.get_rating(ids[0])).rating.games != 1:
            assert time.monotonic() < deadline, "the winner was not rated"
            await asyncio.sleep(0.05)
        board = await client.get_leaderboard(common_pb2.VARIANT_CLASSIC, page_size=10)
        assert [e.rating.player_id for e in board.entries] == ids
        mine = await client.get_rating(ids[0])
        assert mine.history[0].game_id == game.game_id and mine.history[0].rank == 1
    shown = risk(target, home, "rating")
    assert f"player {ids[0]}, classic, season 1: " in shown
    assert "1 game, #1, provisional" in shown
    assert f"game {game.game_id}: 1st of 3, 0.0 -> " in shown
    other = risk(target, home, "rating", ids[2], "--history", "0")
    assert f"player {ids[2]}," in other and "#3" in other and "game " not in other
    top = risk(target, home, "leaderboard", "--top", "3").splitlines()
    assert top[0] == "classic leaderboard (players), season 1: 3 rated"
    assert [line.split()[1] for line in top[1:]] == ids
    around = risk(target, home, "leaderboard", "--around", "me", "--top", "3")
    assert re.search(rf"^1\. {ids[0]} .*<-$", around, re.M), around
    nobody = risk(target, home, "leaderboard", "--around", "p-nobody", ok=False)
    assert "not on the players' leaderboard" in nobody
    created = risk(target, home, "create", "--rated", "--players", "3")
    assert "\nrated: its end updates every seat's player's rating" in created
    new_game = re.search(r"^game (\S+)$", created, re.M)
    assert new_game, created
    async with RiskClient(target) as client:
        assert (await client.get_game(new_game.group(1))).game.rated
