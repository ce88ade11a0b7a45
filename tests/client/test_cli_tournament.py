"""`risk tournament`: an event from the command line, created, registered for, started,
watched to its end and its standings exported, against a real service process and Redis.

Players register with player tokens the service issued (IssuePlayerToken) passed as
RISK_TOKEN; nobody plays, so the event's clock hands every seat to the bot after a second and
the games end at a two-turn cap.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import grpc

from risk_proto.risk.v1 import players_pb2, service_pb2_grpc
from risk_testing.harness import ServiceFactory

RISK = str(Path(sys.executable).with_name("risk"))
FAST = {"RISK_SWEEP_INTERVAL_MS": "100", "RISK_RESULTS_SWEEP_MS": "300",
        "RISK_EVENT_DIRECTOR_MS": "100", "RISK_BOT_ONLY_MOVE_MS": "0"}
CREATE = ["tournament", "create", "cup", "--players", "3", "--rounds", "1", "--final",
          "--setup", "random-deal", "--auto-place", "--auto-defend", "--max-turns", "2",
          "--decision-seconds", "1", "--on-timeout", "bot"]


def risk(*args: str, target: str, token: str = "", code: int = 0, timeout: float = 60
         ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("RISK_TOKEN", "RISK_TARGET")}
    env.update(RISK_TARGET=target, XDG_CONFIG_HOME="/nonexistent-risk-login")
    if token:
        env["RISK_TOKEN"] = token
    done = subprocess.run([RISK, *args], env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert done.returncode == code, f"risk {' '.join(args)}: {done.stdout}{done.stderr}"
    return done


async def player_tokens(target: str, count: int) -> list[str]:
    async with grpc.aio.insecure_channel(target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        return [(await stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest(),
                                             timeout=10)).token for _ in range(count)]


def test_an_event_from_create_to_exported_standings(
    make_service: ServiceFactory, redis_client: object
) -> None:
    """Six players, a round of two tables and a final: the start refused while five are
    registered (a table of two), the feed watched to the final standings, and the standings
    the same in words, JSON and CSV."""
    target = make_service(**FAST).target
    organiser = "organiser-secret-token"
    tokens = asyncio.run(player_tokens(target, 6))
    created = risk(*CREATE, target=target, token=organiser).stdout
    assert created.startswith("event cup  registration  swiss, 1 rounds + final, tables of 3"), \
        created
    for number, token in enumerate(tokens):
        risk("tournament", "register", "cup", "--name", f"p{number}", target=target,
             token=token)
    risk("tournament", "withdraw", "cup", target=target, token=tokens[5])
    refused = risk("tournament", "start", "cup", target=target, token=organiser, code=1)
    assert "SEATS_NOT_FILLED" in refused.stderr
    risk("tournament", "register", "cup", "--name", "p5", target=target, token=tokens[5])
    not_yours = risk("tournament", "start", "cup", target=target, token=tokens[0], code=1)
    assert "NOT_TOURNAMENT_OWNER" in not_yours.stderr
    started = risk("tournament", "start", "cup", target=target, token=organiser).stdout
    assert "running" in started and "6 players" in started, started

    watched = risk("tournament", "watch", "cup", target=target, timeout=120).stdout
    assert "round 1 seated: " in watched and "final seated: " in watched, watched
    assert "standings after round 1: 1. " in watched, watched
    assert watched.rstrip().splitlines()[-1].split(": ")[0].endswith("final standings"), watched

    text = risk("tournament", "standings", "cup", target=target).stdout
    assert text.startswith("event cup  finished"), text
    assert "final standings:" in text
    exported = json.loads(risk("tournament", "standings", "cup", "--json",
                               target=target).stdout)
    assert exported["final"] is True and exported["status"] == "finished"
    lines = exported["standings"]
    assert [line["place"] for line in lines] == [1, 2, 3, 4, 5, 6]
    assert sorted(line["name"] for line in lines) == [f"p{n}" for n in range(6)]
    rows = list(csv.DictReader(io.StringIO(risk("tournament", "standings", "cup", "--csv",
                                                target=target).stdout)))
    assert [row["player_id"] for row in rows] == [line["player_id"] for line in lines]
    assert [row["points"] for row in rows] == [line["points"] for line in lines]
    for line in lines[:3]:  # the finalists lead, in the final's order
        assert f". {line['name']}" in text
