"""Load generator for the grpc.aio floor (bench/peers/floor_server.py): load.js's modes and
output, in Python grpc.aio on uvloop (the clients of ours in bench/peers.py are too).

    python bench/peers/floor_load.py floor HOST:PORT MODE [ARGS]

MODE, its arguments, the commands read on stdin and the JSON lines printed are load.js's:
`moves GAMES WARMUP_S SECONDS`, `games COUNT`, `driver`, `watch MATCH COUNT`; and one of its own,
`unary GAMES WARMUP_S SECONDS`, the moves as unary `Move` calls (one call per move, as ours'
unary SubmitAction), and `ws GAMES WARMUP_S SECONDS WS_PORT`, each game's moves on one WebSocket
(floor_server.py's `--ws-port`: each game made by a `Create` call, then played on its socket,
as ours' WebSocket sessions are, with risk_testing's WebSocket client as theirs). A seated client
keeps one Play stream open and sends its next move once the previous one is acknowledged;
watchers share channels of their own, 100 streams each, as ours' subscribers do
(bench/service.py, STREAMS_PER_CHANNEL). Times are time.monotonic_ns (CLOCK_MONOTONIC).
"""

from __future__ import annotations

import asyncio
import json
import math
import struct
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import grpc
import uvloop
from google.protobuf import wrappers_pb2

from risk_testing.wsclient import BINARY, WebSocket

SEAT0_TERRITORIES = [t for t in range(42) if t % 2 == 0]  # board.js: seat 0 owns the evens
STREAMS_PER_CHANNEL = 100


def out(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def channel(target: str) -> grpc.aio.Channel:
    # a connection of its own, not one shared by every channel to the target
    return grpc.aio.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])


def methods(ch: grpc.aio.Channel) -> tuple[Any, Any, Any, Any]:
    return (ch.unary_unary("/floor.Floor/Create"), ch.stream_stream("/floor.Floor/Play"),
            ch.unary_stream("/floor.Floor/Watch"), ch.unary_unary("/floor.Floor/Move"))


async def create(ch: grpc.aio.Channel) -> bytes:
    reply = await methods(ch)[0](b"")
    return wrappers_pb2.BytesValue.FromString(reply).value


class Seat:
    """Seat 0 of a new game, on one open Play stream."""

    def __init__(self, game_id: bytes, call: Any) -> None:
        self.match = game_id
        self.call = call
        self.n = 0

    @classmethod
    async def open(cls, ch: grpc.aio.Channel) -> Seat:
        game_id = await create(ch)
        call = methods(ch)[1]()
        await call.write(wrappers_pb2.BytesValue(value=game_id).SerializeToString())
        return cls(game_id, call)

    def next_territory(self) -> int:
        territory = SEAT0_TERRITORIES[self.n % len(SEAT0_TERRITORIES)]
        self.n += 1
        return territory

    async def move(self) -> int:
        territory = self.next_territory()
        await self.call.write(wrappers_pb2.UInt32Value(value=territory).SerializeToString())
        reply = await self.call.read()
        if reply is grpc.aio.EOF:
            raise RuntimeError(f"play stream ended: {await self.call.code()}")
        return int(wrappers_pb2.UInt32Value.FromString(reply).value)

    def close(self) -> None:
        self.call.cancel()


class UnarySeat(Seat):
    """Seat 0 of a new game, each move a unary `Move` call."""

    @classmethod
    async def open(cls, ch: grpc.aio.Channel) -> UnarySeat:
        return cls(await create(ch), methods(ch)[3])

    async def move(self) -> int:
        territory = self.next_territory()
        request = wrappers_pb2.BytesValue(value=struct.pack("<I", territory) + self.match)
        reply = await self.call(request.SerializeToString())
        return int(wrappers_pb2.UInt32Value.FromString(reply).value)

    def close(self) -> None:
        pass


class WsSeat(Seat):
    """Seat 0 of a new game, its moves on one WebSocket."""

    @classmethod
    async def open_on(cls, ch: grpc.aio.Channel, ws_port: int) -> WsSeat:
        game_id = await create(ch)
        ws = await WebSocket.connect("127.0.0.1", ws_port, "/floor.Floor/Play")
        ws.send(wrappers_pb2.BytesValue(value=game_id).SerializeToString())
        return cls(game_id, ws)

    async def move(self) -> int:
        territory = self.next_territory()
        self.call.send(wrappers_pb2.UInt32Value(value=territory).SerializeToString())
        reply = await self.call.receive()
        if reply.opcode != BINARY:
            raise RuntimeError(f"play socket closed: {reply.close_code} {reply.close_reason}")
        return int(wrappers_pb2.UInt32Value.FromString(reply.data).value)

    def close(self) -> None:
        self.call.writer.close()


def percentile(values: list[int], q: float) -> float:
    if not values:
        return math.nan
    return values[max(1, math.ceil(q / 100 * len(values))) - 1]


async def moves(target: str, games: int, warmup_s: float, seconds: float,
                open_seat: Callable[[grpc.aio.Channel], Awaitable[Seat]] = Seat.open) -> None:
    """The moves job, each game's seat opened by `open_seat` (one Play stream by default)."""
    ch = channel(target)
    seats = [await open_seat(ch) for _ in range(games)]
    latencies: list[int] = []
    recording = False
    stop_at = time.monotonic_ns() + warmup_s * 1e9

    async def loop(seat: Seat) -> None:
        while time.monotonic_ns() < stop_at:
            t0 = time.monotonic_ns()
            await seat.move()
            if recording:
                latencies.append(time.monotonic_ns() - t0)

    await asyncio.gather(*map(loop, seats))
    recording = True
    out({"phase": "start"})
    started = time.monotonic_ns()
    stop_at = started + seconds * 1e9
    await asyncio.gather(*map(loop, seats))
    took = (time.monotonic_ns() - started) / 1e9
    latencies.sort()
    out({"phase": "end", "moves": len(latencies), "seconds": took,
         "p50_ms": percentile(latencies, 50) / 1e6, "p99_ms": percentile(latencies, 99) / 1e6})
    for seat in seats:
        seat.close()
    await ch.close()


async def idle_games(target: str, count: int) -> None:
    ch = channel(target)
    for _ in range(count):
        await create(ch)
    out({"created": count})
    await ch.close()


async def commands(handle: Callable[[list[str]], Awaitable[bool]]) -> None:
    """Lines from stdin to `handle` until it says stop or stdin closes (the bench went away)."""
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line or not await handle(line.split()):
            return


async def driver(target: str) -> None:
    ch = channel(target)
    seat = await Seat.open(ch)
    out({"match": seat.match.decode()})

    async def handle(words: list[str]) -> bool:
        acks: dict[int, int] = {}
        if words[0] == "drive":
            rate, seconds = float(words[1]), float(words[2])
            start = time.monotonic_ns()
            n = 0
            while (time.monotonic_ns() - start) / 1e9 < seconds:
                acks[await seat.move()] = time.monotonic_ns()
                n += 1
                wait = (start + n / rate * 1e9 - time.monotonic_ns()) / 1e9
                if wait > 0:
                    await asyncio.sleep(wait)
        elif words[0] == "burst":
            for _ in range(int(words[1])):
                acks[await seat.move()] = time.monotonic_ns()
        else:
            return False
        out({"acks": acks})
        return True

    await commands(handle)
    seat.close()
    await ch.close()


async def watch(target: str, match: str, count: int) -> None:
    channels = [channel(target) for _ in range(math.ceil(count / STREAMS_PER_CHANNEL))]
    request = wrappers_pb2.BytesValue(value=match.encode()).SerializeToString()
    received: list[list[tuple[int, int]]] = [[] for _ in range(count)]
    size = 0
    synced = 0
    all_synced = asyncio.Event()

    async def one(i: int) -> None:
        nonlocal size, synced
        mine = received[i]
        call = methods(channels[i // STREAMS_PER_CHANNEL])[2](request)
        first = True
        async for data in call:
            value = wrappers_pb2.BytesValue.FromString(data).value
            (version,) = struct.unpack_from("<I", value)
            if first:  # the sync: the whole board
                first = False
                synced += 1
                if synced == count:
                    all_synced.set()
                continue
            size = size or len(data)
            mine.append((version, time.monotonic_ns()))

    tasks = []
    for start in range(0, count, 50):  # in batches, as load.js connects
        tasks += [asyncio.create_task(one(i)) for i in range(start, min(start + 50, count))]
        await asyncio.sleep(0)
    await all_synced.wait()
    out({"ready": synced})

    async def handle(_words: list[str]) -> bool:
        return False

    await commands(handle)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    out({"received": received, "bytes": size})
    for ch in channels:
        await ch.close()


def main() -> None:
    _peer, target, mode, *rest = sys.argv[1:]
    run = {
        "moves": lambda: moves(target, int(rest[0]), float(rest[1]), float(rest[2])),
        "unary": lambda: moves(target, int(rest[0]), float(rest[1]), float(rest[2]),
                               UnarySeat.open),
        "ws": lambda: moves(target, int(rest[0]), float(rest[1]), float(rest[2]),
                            lambda ch: WsSeat.open_on(ch, int(rest[3]))),
        "games": lambda: idle_games(target, int(rest[0])),
        "driver": lambda: driver(target),
        "watch": lambda: watch(target, rest[0], int(rest[1])),
    }[mode]
    uvloop.run(run())


if __name__ == "__main__":
    main()
