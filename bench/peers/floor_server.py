"""The floor of our own stack, as a third peer: the peers' trivial game on Python grpc.aio.

    python bench/peers/floor_server.py --port P [--burn-us U] [--burn-objects N]

What boardgame.io and Colyseus run in bench/peers.py, on what the service runs on: CPython,
grpc.aio on uvloop, protobuf messages. The game is board.js's: 42 territories dealt round-robin
to 2 seats, a move names a territory and is legal only if the mover's seat owns it, and adds an
army there. Everything is in memory and nothing is persisted or logged, and no rules, identity,
admission or metrics run: what is left is what the stack alone costs for each of the peers'
jobs. Where this floor is itself behind a peer on some figure, no design of the service on this
stack can be ahead of that peer there.

Methods (generic handlers, raw protobuf bytes; bench/peers/floor_load.py is the client):
- `/floor.Floor/Create` (unary): an empty request; answers the new game's id
  (`BytesValue`). Idle games are these, left alone.
- `/floor.Floor/Play` (bidirectional): the first message names the game (`BytesValue`) and takes
  seat 0; each later one is a move (`UInt32Value`, the territory), answered with the game's new
  version (`UInt32Value`) or, for an illegal move, ended INVALID_ARGUMENT.
- `/floor.Floor/Move` (unary): one move as a call of its own, as a unary SubmitAction is: the
  territory (4 bytes, little-endian) then the game's id, in a `BytesValue`; answers the game's
  new version (`UInt32Value`), or INVALID_ARGUMENT for an illegal move. The floor of a unary
  move: bench/peers.py's `unary` figures for the floor.
- `/floor.Floor/Empty` (unary): an empty request, an empty reply, nothing done: what grpc.aio
  alone costs for a unary call (bench/unary_floor.py). `/floor.Floor/Yield` the same, but its
  handler waits once for another turn of the event loop before it answers, as a handler that
  awaits Redis does.
- `/floor.Floor/Watch` (server streaming): the game's id in; out, the whole board once (the
  sync), then one message per move: `BytesValue` of (version, territory, armies), serialised once
  for every watcher, as the service serialises an event once per audience.
- `--ws-port W`: `Play` also over a WebSocket on port W, path `/floor.Floor/Play`, as the
  service's Session is on its HTTP port: binary messages in are Play's (the game's id, then
  one move each), and each move is answered by one binary message (its new version); an
  illegal move closes the socket (1008). Read as the service reads a WebSocket (its
  server/websocket.py): the upgrade and every frame through the `websockets` library's Sans-I/O
  `ServerProtocol`, each answer one final unmasked frame made by hand and one
  `transport.write`, on an `asyncio.Protocol` of the same loop. The floor of a WebSocket session
  move: bench/peers.py's `ws_` figures for the floor.
Prints "listening P" once it accepts calls.

`--burn-us U` (the burdened floor, bench/peers.py): each move (`Play`'s, on a stream or a
WebSocket, and `Move`'s) also spends U microseconds of CPU in Python before it is answered, as
our move spends on its rules, encodings and commit (bench/peers.py passes our move's own CPU,
bench/inprocess.py's, measured in the same sitting). What a move then costs beyond U is what the
stack costs once the event loop's thread is busy for that long per move, which is not what it
costs when it is not: the unburdened floor answers many moves per turn of the loop, the burdened
one about one (`Burn` says why this is a lower bound).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import struct
import time
from collections.abc import AsyncIterator

import grpc
import uvloop
from google.protobuf import wrappers_pb2
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

TERRITORIES = 42
SEATS = 2
WATCHER_BUFFER = 1024  # updates a watcher may fall behind by before it is cut off
# the burn's working set by default: small enough to stay in the core's caches (64 dicts,
# about 15 KB); `--burn-objects` sets another (50,000: about 11 MB)
BURN_OBJECTS = 64
BURN_STRIDE = 7919


class Burn:
    """`--burn-us`: a fixed amount of interpreted work per move (bytecode, dict lookups, int
    objects), calibrated at start so that it takes that much CPU in this process when the
    process is otherwise idle.

    Its working set stays in the core's caches on purpose, so that the burn costs under load
    what it costs idle (measured: 101-104 us under load for 100 calibrated, on one stream and
    on unary calls alike), and what a burdened move costs beyond the burn is the stack's own
    work. A burn over about 11 MB (50,000 dicts) took 138 us per move under load on one
    stream and 216 on unary calls for the same 100: the stack's work per message evicts it.
    Our move's real working set lies somewhere between, so the burdened floor is a lower
    bound: what a move of our move's CPU costs on this stack at the least; with `objects`
    50,000, what the stack's evictions may add to it."""

    def __init__(self, us: float, objects: int = BURN_OBJECTS) -> None:
        self.objects = [{"n": i} for i in range(objects)]
        self.at = 0
        self.steps = self._calibrate(us) if us > 0 else 0

    def spin(self, steps: int) -> None:
        objects, at, size = self.objects, self.at, len(self.objects)
        for i in range(steps):
            objects[(at + i * BURN_STRIDE) % size]["n"] += 1
        self.at = (at + steps * BURN_STRIDE) % size

    def _calibrate(self, us: float) -> int:
        trial = 50_000
        each = []
        for _ in range(5):
            t0 = time.process_time()
            self.spin(trial)
            each.append((time.process_time() - t0) / trial)
        return max(1, round(us / 1e6 / max(min(each), 1e-9)))

    def __call__(self) -> None:
        if self.steps:
            self.spin(self.steps)


class Game:
    __slots__ = ("armies", "owners", "version", "watchers")

    def __init__(self) -> None:
        self.owners = [t % SEATS for t in range(TERRITORIES)]
        self.armies = [1] * TERRITORIES
        self.version = 0
        self.watchers: set[asyncio.Queue[bytes]] = set()

    def board(self) -> bytes:
        return wrappers_pb2.BytesValue(value=struct.pack(
            f"<I{2 * TERRITORIES}I", self.version,
            *itertools.chain.from_iterable(zip(self.owners, self.armies, strict=True)))
        ).SerializeToString()

    def place(self, seat: int, territory: int) -> bool:
        if not 0 <= territory < TERRITORIES or self.owners[territory] != seat:
            return False
        self.armies[territory] += 1
        self.version += 1
        update = wrappers_pb2.BytesValue(value=struct.pack(
            "<III", self.version, territory, self.armies[territory])).SerializeToString()
        for queue in list(self.watchers):
            if queue.full():
                self.watchers.discard(queue)  # too slow: its stream ends (below)
                queue.put_nowait(b"")
            else:
                queue.put_nowait(update)
        return True


class Floor:
    def __init__(self, burn: Burn) -> None:
        self.games: dict[bytes, Game] = {}
        self.ids = itertools.count(1)
        self.burn = burn

    async def game(self, game_id: bytes, context: grpc.aio.ServicerContext) -> Game:
        game = self.games.get(game_id)
        if game is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, "unknown game")
        assert game is not None
        return game

    async def create(self, request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        game_id = b"g%d" % next(self.ids)
        self.games[game_id] = Game()
        return wrappers_pb2.BytesValue(value=game_id).SerializeToString()

    async def move(self, request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        value = wrappers_pb2.BytesValue.FromString(request).value
        game = await self.game(value[4:], context)
        (territory,) = struct.unpack_from("<I", value)
        if not game.place(0, territory):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "illegal move")
        self.burn()
        return wrappers_pb2.UInt32Value(value=game.version).SerializeToString()

    async def empty(self, request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        return b""

    async def yielded(self, request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        await asyncio.sleep(0)
        return b""

    async def play(self, requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext
                   ) -> AsyncIterator[bytes]:
        game: Game | None = None
        async for data in requests:
            if game is None:
                game = await self.game(wrappers_pb2.BytesValue.FromString(data).value, context)
                continue
            territory = wrappers_pb2.UInt32Value.FromString(data).value
            if not game.place(0, territory):
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "illegal move")
            self.burn()
            yield wrappers_pb2.UInt32Value(value=game.version).SerializeToString()

    async def watch(self, request: bytes, context: grpc.aio.ServicerContext
                    ) -> AsyncIterator[bytes]:
        game = await self.game(wrappers_pb2.BytesValue.FromString(request).value, context)
        queue: asyncio.Queue[bytes] = asyncio.Queue(WATCHER_BUFFER)
        game.watchers.add(queue)
        try:
            yield game.board()
            while update := await queue.get():
                yield update
        finally:
            game.watchers.discard(queue)


def ws_frame(payload: bytes) -> bytes:
    """One final, unmasked binary frame, as the service's server/websocket.py `frame()`
    makes every message it sends (the floor's answers are under 126 bytes). Not imported
    from there: that module loads the service with it (641 modules against the floor's
    262), which the floor, the stack alone, must not carry."""
    return bytes((0x80 | Opcode.BINARY, len(payload))) + payload


class WsPlay(asyncio.Protocol):
    """`Play` on one WebSocket (`--ws-port`): the upgrade, then the game's id, then moves."""

    def __init__(self, floor: Floor) -> None:
        self.floor = floor
        self.ws = ServerProtocol(max_size=1 << 16)
        self.transport: asyncio.Transport | None = None
        self.game: Game | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # (uvloop's transports are not asyncio.Transport subclasses: no isinstance check)
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        ws, transport = self.ws, self.transport
        assert transport is not None
        ws.receive_data(data)
        for event in ws.events_received():
            if isinstance(event, Request):
                ws.send_response(ws.accept(event))
            elif (isinstance(event, Frame) and event.opcode is Opcode.BINARY
                  and ws.state is State.OPEN):  # (what comes after our close is dropped)
                self.message(bytes(event.data))  # (bytes already: no copy)
        for out in ws.data_to_send():
            if out:
                transport.write(out)
            else:  # the close handshake is over
                transport.close()

    def message(self, data: bytes) -> None:
        transport = self.transport
        assert transport is not None
        if self.game is None:
            self.game = self.floor.games.get(wrappers_pb2.BytesValue.FromString(data).value)
            if self.game is None:
                self.ws.send_close(CloseCode.POLICY_VIOLATION, "unknown game")
            return
        if not self.game.place(0, wrappers_pb2.UInt32Value.FromString(data).value):
            self.ws.send_close(CloseCode.POLICY_VIOLATION, "illegal move")
            return
        self.floor.burn()
        transport.write(ws_frame(
            wrappers_pb2.UInt32Value(value=self.game.version).SerializeToString()))


async def serve(port: int, burn: Burn, ws_port: int = 0) -> None:
    floor = Floor(burn)
    handlers = grpc.method_handlers_generic_handler("floor.Floor", {
        "Create": grpc.unary_unary_rpc_method_handler(floor.create),
        "Move": grpc.unary_unary_rpc_method_handler(floor.move),
        "Empty": grpc.unary_unary_rpc_method_handler(floor.empty),
        "Yield": grpc.unary_unary_rpc_method_handler(floor.yielded),
        "Play": grpc.stream_stream_rpc_method_handler(floor.play),
        "Watch": grpc.unary_stream_rpc_method_handler(floor.watch),
    })
    # as the service's server (server/app.py): a burst of watchers opened at once waits to be
    # taken up instead of being cancelled by gRPC's default limit
    server = grpc.aio.server(options=[("grpc.server.max_pending_requests", 20000),
                                      ("grpc.server.max_pending_requests_hard_limit", 20000)])
    server.add_generic_rpc_handlers((handlers,))
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    if ws_port:
        await asyncio.get_running_loop().create_server(lambda: WsPlay(floor), "127.0.0.1",
                                                       ws_port)
    print(f"listening {port}", flush=True)
    await server.wait_for_termination()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ws-port", type=int, default=0,
                        help="also serve Play over a WebSocket on this port (0: none)")
    parser.add_argument("--burn-us", type=float, default=0.0,
                        help="CPU microseconds of Python work added to each move")
    parser.add_argument("--burn-objects", type=int, default=BURN_OBJECTS,
                        help="the burn's working set, in dicts (default: cache-resident)")
    args = parser.parse_args()
    if not 0 <= args.burn_us < 1e6 or args.burn_objects < 1:
        parser.error("--burn-us is 0 or more microseconds (under a second); --burn-objects "
                     "at least 1")
    uvloop.run(serve(args.port, Burn(args.burn_us, args.burn_objects), args.ws_port))


if __name__ == "__main__":
    main()
