"""Small helpers for tests and benchmarks that talk to the service through raw gRPC stubs."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import grpc
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

from risk_proto.risk.v1 import classic_pb2, game_pb2, service_pb2
from risk_service.operations.records import FINAL

DETAILS_KEY = "grpc-status-details-bin"


def varint(value: int) -> bytes:
    """`value` as a protobuf varint: for messages written by hand (unknown fields, padding)."""
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def classic_options(**fields: Any) -> game_pb2.GameOptions:
    return game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(**fields))


def create_request(seed: int = 7, **fields: Any) -> service_pb2.CreateGameRequest:
    return service_pb2.CreateGameRequest(options=classic_options(**fields), seed=seed)


def error_info(error: grpc.aio.AioRpcError) -> error_details_pb2.ErrorInfo:
    """The ErrorInfo detail of a failed call (fails the test if there is none)."""
    for key, value in error.trailing_metadata() or ():
        if key == DETAILS_KEY:
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return info
    raise AssertionError(f"no ErrorInfo on {error.code()}: {error.details()}")


async def rpc_error(call: Awaitable[Any]) -> grpc.aio.AioRpcError:
    """Await a call that must fail and return its error."""
    try:
        await call
    except grpc.aio.AioRpcError as error:
        return error
    raise AssertionError("the call succeeded but should have failed")


async def quiet_then_hang_up(call: Any, seconds: float = 0.3) -> bool:
    """Wait `seconds` for one more message on a server stream; True when none came and the
    stream is still open. Then hang up: the call ends CANCELLED."""
    more = asyncio.ensure_future(call.read())
    done, _pending = await asyncio.wait({more}, timeout=seconds)
    quiet = not done and not call.done()
    call.cancel()
    await asyncio.gather(more, return_exceptions=True)
    return quiet


def without_seed_reveal(reply: Message) -> Message:
    """`reply` without the seed a GetGame shows once the game is over (docs/tournaments.md,
    "Verifiable dice"): the one place the seed may appear, and only then. The leak tests
    search every other byte of the reply."""
    if not isinstance(reply, service_pb2.GetGameResponse) or \
            not reply.game.HasField("seed_reveal"):
        return reply
    assert reply.game.status in FINAL, "GetGame revealed the seed of a game still played"
    hidden = service_pb2.GetGameResponse()
    hidden.CopyFrom(reply)
    hidden.game.ClearField("seed_reveal")
    return hidden
