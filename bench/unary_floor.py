"""The floor of a unary gRPC call on the service's stack, beside the service's own calls, in
one sitting (issue 39: "where grpc.aio's own per-call cost is the floor, say so with the
figure").

    python bench/unary_floor.py [--rounds 4] [--seconds 4] [--clients 16]

Each round measures, in a rotating order, the server's CPU per call (utime + stime of its
process over the phase ÷ calls) with `--clients` calls in flight from one grpc.aio client in
this process:
- `floor empty`: `/floor.Floor/Empty` on bench/peers/floor_server.py, bare grpc.aio on uvloop
  with a generic handler: an empty request, an empty reply, nothing done. No server on this
  stack answers a unary call for less.
- `floor yield`: `/floor.Floor/Yield`, the same empty call whose handler waits once for
  another turn of the event loop (`asyncio.sleep(0)`) before it answers, as every handler
  that awaits Redis does: what a call that suspends costs grpc.aio beyond one that does not.
- `ours ping`: the service's Ping over gRPC: the same empty call through the service's
  server (its interceptor, the route table, the call chain: admission, the log line, metrics).
- `ours submit`: SubmitAction over gRPC, a classic move checked by the rules and committed to
  Redis (bench/http_port.py's games and plans).
- `ours ws session`: the same moves on acks-only Session streams over WebSocket (one socket
  per seat): a move without a unary call around it.
The service is one `python -m risk_service` on its own redis-server (bench/common.py's stack).
Printed per round and as medians: CPU per call, and each ÷ the floor: the service's own work
per call is what is above the floor.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import stack  # noqa: E402
from bench.http_port import (  # noqa: E402 - needs ROOT on sys.path
    Figures,
    Slot,
    Transport,
    calls_phase,
    load_line,
    make_slots,
    parse_args,
    rotated,
    submit_phase,
)
from bench.peers import peer_server  # noqa: E402
from bench.service import say  # noqa: E402

PHASES = ("floor empty", "floor yield", "ours ping", "ours submit", "ours ws session")


async def sitting(args: argparse.Namespace, floor: tuple[str, int], target: str,
                  http_url: str, pid: int) -> dict[str, list[Figures]]:
    floor_channel = grpc.aio.insecure_channel(floor[0])
    empty = floor_channel.unary_unary("/floor.Floor/Empty")
    yielded = floor_channel.unary_unary("/floor.Floor/Yield")
    grpc_transport = Transport("grpc", target, http_url)
    ws_transport = Transport("websocket", target, http_url)
    slots: list[Slot] = await make_slots(args, grpc_transport.stub)
    phases: dict[str, Callable[[float], Awaitable[Figures]]] = {
        "floor empty": lambda s: calls_phase("floor empty", lambda: empty(b""), args.clients,
                                             s, floor[1]),
        "floor yield": lambda s: calls_phase("floor yield", lambda: yielded(b""),
                                             args.clients, s, floor[1]),
        "ours ping": lambda s: calls_phase("ours ping", grpc_transport.ping, args.clients, s,
                                           pid),
        "ours submit": lambda s: submit_phase(grpc_transport, slots, s, pid),
        "ours ws session": lambda s: submit_phase(ws_transport, slots, s, pid),
    }
    try:
        for name in PHASES:  # warm each: connections, code paths, the sessions' sockets
            await phases[name](args.warmup)
        results: dict[str, list[Figures]] = {name: [] for name in PHASES}
        for r in range(args.rounds):
            for name in rotated(r, PHASES):
                figures = await phases[name](args.seconds)
                figures.name = name
                results[name].append(figures)
                say(f"round {r + 1}: {figures.line('call')} | {load_line()}")
        return results
    finally:
        await floor_channel.close()
        await grpc_transport.close()
        await ws_transport.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--clients", type=int, default=16)
    own = parser.parse_args(argv)
    # bench/http_port.py's settings for its games and plans (SubmitAction and WebSocket)
    args = parse_args(["--only", "grpc,websocket", "--sections", "submit", "--rounds",
                       str(own.rounds), "--seconds", str(own.seconds), "--clients",
                       str(own.clients)])
    say(f"start: {load_line()}")
    with peer_server("floor") as floor, stack(
            {"bench": "unary_floor", "rounds": own.rounds, "seconds": own.seconds,
             "clients": own.clients}, args.log_level, http=True) as st:
        results = asyncio.run(sitting(args, floor, st.service.target, st.service.http_url,
                                      st.service_pid))
    cpu = {name: statistics.median(f.cpu_us for f in runs) for name, runs in results.items()}
    say(f"\n== medians of {own.rounds} round(s); {load_line()}")
    for name in PHASES:
        rate = statistics.median(f.rate for f in results[name])
        say(f"  {name:<16} {cpu[name]:6.0f} µs of server CPU per call ({rate:,.0f} calls/s), "
            f"÷ floor {cpu[name] / cpu['floor empty']:.2f}")
    say(f"  ours submit - ours ping: {cpu['ours submit'] - cpu['ours ping']:.0f} µs (the move "
        f"itself); ours ping - floor: {cpu['ours ping'] - cpu['floor empty']:.0f} µs (the "
        "service's server and chain around an empty call)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
