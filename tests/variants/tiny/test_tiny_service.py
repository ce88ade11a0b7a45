"""Tiny, a variant outside the contract, served end to end through its descriptor alone.

The service process loads `tests.variants.tiny.descriptor` (RISK_EXTRA_VARIANTS) and nothing
else names the variant: not the contract's oneofs or enum, not the wire, not the service. This
test creates a game, seats two players, plays it to the end, follows it on a spectator's
stream, exports it, and has the audit verifier replay the export in a fresh process that loads
the same descriptor. The test process itself never registers the variant: it speaks the
variant's messages through the envelopes' `extension` (Any) case only.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import grpc
from google.protobuf import any_pb2
from google.protobuf.message import Message

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc, variant_pb2
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import bearer
from tests.variants.tiny.descriptor import DESCRIPTOR, MESSAGES

MODULE = "tests.variants.tiny.descriptor"
ROOT = Path(__file__).resolve().parents[3]
_VERIFY = """
import sys
from risk_rules import audit, variants
from risk_proto.risk.v1 import service_pb2
variants.load([sys.argv[1]])
verified = audit.verify(service_pb2.GameExport.FromString(sys.stdin.buffer.read()))
print(f"verified {verified.actions} actions")
"""


def packed(message: Message) -> any_pb2.Any:
    carrier = any_pb2.Any()
    carrier.Pack(message)
    return carrier


def unpacked(carrier: any_pb2.Any, cls: type[Message]) -> Message:
    message = cls()
    assert carrier.Unpack(message), f"{carrier.type_url} is no {cls.DESCRIPTOR.full_name}"
    return message


def verify(export: service_pb2.GameExport) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", _VERIFY, MODULE], cwd=ROOT,
                          input=export.SerializeToString(), capture_output=True, check=False)


async def follow(stub: service_pb2_grpc.RiskServiceStub, game_id: str,
                 events: list[game_pb2.Event]) -> None:
    """A spectator's stream until the game's terminal event."""
    async for reply in stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id)):
        events.append(reply.event)
        if reply.event.WhichOneof("variant") == "extension":
            tiny = unpacked(reply.event.extension, MESSAGES.event)
            if tiny.WhichOneof("kind") == "game_ended":
                return


async def test_tiny_variant_is_served_end_to_end(redis_url: str, tmp_path: Path) -> None:
    """Create, join, act, stream, export and verify a game of a variant known only by its
    descriptor; what it sends and stores is the variant's own messages in `extension`."""
    service = ServiceProcess(redis_url, tmp_path, RISK_EXTRA_VARIANTS=MODULE)
    service.start()
    try:
        async with grpc.aio.insecure_channel(service.target) as channel:
            stub = service_pb2_grpc.RiskServiceStub(channel)
            options = game_pb2.GameOptions(extension=packed(MESSAGES.options(players=2)))
            created = await stub.CreateGame(
                service_pb2.CreateGameRequest(options=options, seed=3))
            game_id = created.game.game_id
            assert created.game.variant == DESCRIPTOR.number
            tokens = [(await stub.JoinGame(service_pb2.JoinGameRequest(
                game_id=game_id, seat=seat, display_name=f"p{seat}"))).seat_token
                for seat in range(2)]
            streamed: list[game_pb2.Event] = []
            watcher = asyncio.create_task(follow(stub, game_id, streamed))

            claims = 0
            while True:
                game = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
                if not game.game.decision.seats:
                    break
                (seat,) = game.game.decision.seats
                legal = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(
                    game_id=game_id), metadata=bearer(tokens[seat]))
                action = legal.actions[-1].action  # the highest territory still free
                assert unpacked(action.extension, MESSAGES.action).WhichOneof("kind") == "claim"
                await stub.SubmitAction(service_pb2.SubmitActionRequest(
                    game_id=game_id, action=action, expected_version=game.game.version,
                    request_id=f"claim-{claims}"), metadata=bearer(tokens[seat]))
                claims += 1
            await asyncio.wait_for(watcher, 10)

            board = unpacked(game.board.extension, MESSAGES.view)
            assert claims == 5 and sorted(board.owners) == [0, 0, 1, 1, 1]
            assert game.game.outcome.reason == "claimed"
            assert game.game.outcome.winner == 3 % 2  # seed 3: seat 1 claims first and most
            kinds = [unpacked(e.extension, MESSAGES.event).WhichOneof("kind")
                     for e in streamed if e.WhichOneof("variant") == "extension"]
            assert kinds == ["territory_claimed"] * 5 + ["game_ended"]

            listed = await stub.ListGames(service_pb2.ListGamesRequest(
                variant=DESCRIPTOR.number))
            assert [g.game_id for g in listed.games] == [game_id]
            # described from its rules and messages alone (its descriptor has no hook)
            described = (await stub.DescribeVariant(variant_pb2.DescribeVariantRequest(
                variant=DESCRIPTOR.number))).variant
            assert (described.name, list(described.seat_counts)) == ("tiny", [2, 3, 4])
            assert [o.name for o in described.options] == ["players", "territories"]
            served = await stub.ListVariants(variant_pb2.ListVariantsRequest())
            assert [v.name for v in served.variants][-1] == "tiny"
            export = await stub.ExportGame(service_pb2.ExportGameRequest(game_id=game_id),
                                           metadata=bearer(created.host_token))
    finally:
        service.stop()

    assert export.variant == DESCRIPTOR.number and len(export.log) == export.version
    result = verify(export)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode().strip() == "verified 5 actions"
    tampered = service_pb2.GameExport()
    tampered.CopyFrom(export)
    claimed = MESSAGES.event()
    first_claim = next(e for e in tampered.events if e.WhichOneof("variant") == "extension")
    first_claim.extension.Unpack(claimed)
    claimed.territory_claimed.territory ^= 1
    first_claim.extension.Pack(claimed)
    assert verify(tampered).returncode != 0, "an altered event was verified"
