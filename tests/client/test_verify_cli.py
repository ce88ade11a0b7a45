"""`risk export` writes a finished game's audit file and `risk verify` accepts it, or rejects
it once an action or an event is altered."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import grpc

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from tests.service.conftest import ServiceFactory
from tests.service.rpc import bearer, create_request


def _risk(*args: str, target: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RISK_TARGET": target} if target else dict(os.environ)
    return subprocess.run([sys.executable, "-m", "risk_client", *args], env=env,
                          capture_output=True, text=True, timeout=60, check=False)


async def test_export_then_verify_and_reject_tampering(
    make_service: ServiceFactory, redis_client: object, tmp_path: Path
) -> None:
    """The exported file verifies; flipping an action's territory, or dropping a version's
    log entry, makes verify exit 1."""
    service = make_service()
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        request = create_request(seed=4, players=3)
        request.issue_seat_tokens = True
        created = await stub.CreateGame(request)
        game_id, tokens = created.game.game_id, list(created.seat_tokens)
        for _ in range(6):  # a few claims, then two resignations end the game
            game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
            seat = game.decision.seats[0]
            auth = bearer(tokens[seat])
            legal = await stub.ListLegalActions(
                service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=auth)
            await stub.SubmitAction(service_pb2.SubmitActionRequest(
                game_id=game_id, action=legal.actions[0].action, expected_version=legal.version),
                metadata=auth)
        for seat in (0, 1):
            await stub.Resign(service_pb2.ResignRequest(game_id=game_id),
                              metadata=bearer(tokens[seat]))
    path = tmp_path / "game.export"
    wrote = _risk(f"--token={tokens[2]}", "export", game_id, str(path), target=service.target)
    assert wrote.returncode == 0, wrote.stderr
    accepted = _risk("verify", str(path))
    assert accepted.returncode == 0 and "verify: OK" in accepted.stdout
    assert "6 actions" in accepted.stdout

    original = path.read_bytes()
    export = service_pb2.GameExport.FromString(original)
    assert [e.lifecycle for e in export.log[:1]] == ["start"]  # seats issued at creation
    entry = next(e for e in export.log if e.WhichOneof("entry") == "action")
    claim = entry.action.classic.claim_territory
    claim.territory = (claim.territory + 1) % 42
    path.write_bytes(export.SerializeToString())
    rejected = _risk("verify", str(path))
    assert rejected.returncode == 1 and "REJECTED" in rejected.stderr

    missing = service_pb2.GameExport.FromString(original)
    del missing.log[0]  # the start's entry: the log no longer has one entry per version
    path.write_bytes(missing.SerializeToString())
    rejected = _risk("verify", str(path))
    assert rejected.returncode == 1 and "no entry for version 1" in rejected.stderr
