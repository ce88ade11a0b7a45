"""The cost of a replay (GetGame at_version) against a plain GetGame's, in the same run.

    python bench/replay.py [--seed 1] [--players 4] [--reads 300]

Plays one classic bot game with the engine in this process (default options: a long game),
keeps its log as the service stores it, and times the replay's own work without Redis or gRPC:

- baseline: what a plain GetGame of the finished game does with the state (decode the stored
  snapshot, the spectator's view, to proto), per read;
- cold: the first replay of the game in a process (`operations.replay._build`: every log entry
  decoded and applied, checkpoints kept), once;
- warm: a replay at a random version once the game's replay is cached (`Replay.state_at` from
  the checkpoint before it, then the view and proto), per read.

Prints each figure and its ratio to the baseline. Record figures in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_rules import wire
from risk_rules.engine import get_ruleset
from risk_service.operations import records
from risk_service.operations.replay import _build
from risk_service.store.game_store import GameRecord


def play(seed: int, players: int) -> tuple[GameRecord, list[bytes]]:
    """A finished bot game as the store holds it: its record and its log entries."""
    rules = get_ruleset("classic")
    options = rules.settle_options(rules.default_options(players), timed=False)
    state, _events = rules.create(options, seed)
    entries: list[bytes] = []
    entropy = seed
    while rules.outcome(state) is None:
        seat = rules.decision(state).seats[0]
        entropy = (entropy * 0x9E3779B97F4A7C15 + 1) & ((1 << 64) - 1)
        action = rules.bot_action(state, seat, entropy)
        state, _ = rules.apply(state, seat, action)
        entries.append(game_pb2.LogEntry(
            version=len(entries) + 1, seat=seat,
            action=wire.action_to_proto("classic", action)).SerializeToString())
    record = GameRecord(
        game_id="bench", variant="classic", status=service_pb2.GAME_STATUS_FINISHED,
        version=len(entries), last_seq=0, created_ms=0, updated_ms=0, players=players,
        snapshot=wire.encode_state("classic", state), meta=b"", names=("",) * players,
        seat_digests=(b"",) * players, host_digest=b"")
    return record, entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--reads", type=int, default=300)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()} "
          f"({platform.platform()}), seed={args.seed}, players={args.players}")
    started = time.perf_counter()
    record, entries = play(args.seed, args.players)
    print(f"game: versions={record.version} (played in {time.perf_counter() - started:.1f} s)")
    rules = get_ruleset("classic")

    started = time.perf_counter()
    for _ in range(args.reads):
        wire.view_to_proto("classic", rules.view(records.decode_state(record), None))
    baseline = (time.perf_counter() - started) / args.reads

    started = time.perf_counter()
    replay = _build(record, entries)
    cold = time.perf_counter() - started

    versions = random.Random(args.seed).choices(range(record.version + 1), k=args.reads)
    started = time.perf_counter()
    for version in versions:
        wire.view_to_proto("classic", rules.view(replay.state_at(version), None))
    warm = (time.perf_counter() - started) / args.reads

    final = wire.view_to_proto("classic", rules.view(replay.state_at(record.version), None))
    assert final == wire.view_to_proto("classic", rules.view(records.decode_state(record), None))
    print(f"replay: stride={replay.stride}, checkpoints={len(replay.checkpoints)}")
    print(f"baseline (plain GetGame's state work): {baseline * 1e3:.3f} ms/read")
    print(f"cold (first replay of the game): {cold * 1e3:.1f} ms, "
          f"ratio to baseline = {cold / baseline:.1f}")
    print(f"warm (replay at a random version, cached): {warm * 1e3:.3f} ms/read, "
          f"ratio to baseline = {warm / baseline:.2f}")


if __name__ == "__main__":
    sys.exit(main())
