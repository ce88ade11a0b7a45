"""Audit exports: the hash chain over a game's events, and `verify`, which replays an export
through the engine and confirms every event, every action and the outcome.

An export (`risk.v1.GameExport`) holds the options, the seed, the action log and every event.
Verification first checks that the seed and its nonce hash to the commitment the game published
at creation (`seed_commitment`; a game created before commitments has none), then that the log
holds exactly one entry per committed version; it rebuilds the game from the options and the
seed alone, applies each logged action (or resignation) at its version, and compares the events
the engine produces with the events the service recorded, version by version; lifecycle events
(joins, clocks, timeouts) carry no rules and are covered by the hash chain. Any altered seed,
action, event (a roll, a draw) or outcome fails it.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_rules import wire
from risk_rules.engine import REGISTRY, Event, IllegalAction
from risk_rules.seed_commitment import seed_commitment


class VerificationError(Exception):
    """The export does not replay to what it claims."""


@dataclass(frozen=True, slots=True)
class Verified:
    actions: int
    events: int
    head: bytes  # the last link of the hash chain: the export's fingerprint
    # the seed hashed to the commitment published at creation (False: the game has none)
    committed: bool = False


def chain_root(game_id: str) -> bytes:
    """The link before the first event."""
    return hashlib.sha256(f"risk.v1:{game_id}".encode()).digest()


def hash_chain(game_id: str, events: Sequence[game_pb2.Event],
               after: bytes | None = None) -> list[bytes]:
    """chain[i] = SHA-256(chain[i-1] || event i serialised deterministically); `after` is the
    link the events follow (a page of an export), the root when None."""
    link = chain_root(game_id) if after is None else after
    chain = []
    for event in events:
        link = hashlib.sha256(link + event.SerializeToString(deterministic=True)).digest()
        chain.append(link)
    return chain


def verify(export: service_pb2.GameExport) -> Verified:
    """Replay `export`; raise VerificationError naming the first thing that does not match."""
    chain = hash_chain(export.game_id, export.events)
    if list(export.chain) != chain:
        bad = next((i for i, (a, b) in enumerate(zip(export.chain, chain, strict=False))
                    if a != b), min(len(export.chain), len(chain)))
        raise VerificationError(f"hash chain breaks at event {bad + 1}")
    if [e.seq for e in export.events] != list(range(1, len(export.events) + 1)):
        raise VerificationError("event seqs are not 1, 2, 3, ... without gaps")
    try:
        variant = wire.variant_name(export.variant)
        rules = REGISTRY[variant]
    except (wire.WireError, KeyError):
        raise VerificationError(f"variant {export.variant} is not served by this build") from None
    if export.rules_version != rules.rules_version:
        raise VerificationError(
            f"the game used rules version {export.rules_version}; this build has "
            f"{rules.rules_version}"
        )
    committed = _check_commitment(export)
    _, options = wire.options_from_proto(export.options)
    by_version: dict[int, list[Event]] = defaultdict(list)
    for message in export.events:
        case, event = wire.event_from_proto(message)
        if case != wire.LIFECYCLE:
            by_version[message.version].append(event)
    _one_entry_per_version(export)
    state, created = rules.create(options, export.seed)
    _expect(by_version.pop(0, []), created, "the game's creation")
    actions = 0
    for entry in export.log:
        which = entry.WhichOneof("entry")
        try:
            if which == "action":
                _variant, action = wire.action_from_proto(entry.action)
                state, produced = rules.apply(state, entry.seat, action)
                actions += 1
            elif which == "resign":
                state, produced = rules.resign(state, entry.seat)
            else:
                produced = []
        except IllegalAction as exc:
            raise VerificationError(
                f"version {entry.version}: the logged {which} is illegal: {exc}"
            ) from None
        _expect(by_version.pop(entry.version, []), produced, f"version {entry.version}")
    if by_version:
        raise VerificationError(
            f"events of version {min(by_version)} have no logged action that produces them"
        )
    outcome = wire.outcome_to_proto(rules.outcome(state))
    claimed = export.outcome if export.HasField("outcome") else None
    if outcome != claimed:
        raise VerificationError(f"the outcome is {outcome}, the export claims {claimed}")
    return Verified(actions, len(export.events), chain[-1] if chain else b"", committed)


def _check_commitment(export: service_pb2.GameExport) -> bool:
    """The revealed seed and nonce hash to the commitment the game published at creation;
    False for a game from before commitments (it has none to check)."""
    if not export.seed_commitment:
        if export.seed_nonce:
            raise VerificationError("the export reveals a nonce but holds no commitment")
        return False
    if seed_commitment(export.seed, export.seed_nonce) != export.seed_commitment:
        raise VerificationError(
            "the seed does not match the commitment the game published at its creation")
    return True


def _one_entry_per_version(export: service_pb2.GameExport) -> None:
    """The log holds versions 1, 2, ... in order, one entry each, and no event belongs to a
    version past the last entry."""
    for position, entry in enumerate(export.log, start=1):
        if entry.version != position:
            missing = entry.version > position
            raise VerificationError(
                f"the log has {'no' if missing else 'a second'} entry for version "
                f"{position if missing else entry.version}: it must hold one entry per "
                "committed version (an export made before lifecycle steps were logged lacks "
                "them: export the game again)"
            )
    last = len(export.log)
    if export.version and export.version != last:
        raise VerificationError(
            f"the game is at version {export.version} but the log ends at version {last}")
    beyond = [e.version for e in export.events if e.version > last]
    if beyond:
        raise VerificationError(f"events of version {beyond[0]} have no log entry")


def _expect(recorded: list[Event], produced: list[Event], where: str) -> None:
    if recorded != produced:
        index = next((i for i, (a, b) in enumerate(zip(recorded, produced, strict=False))
                      if a != b), min(len(recorded), len(produced)))
        raise VerificationError(
            f"{where}: event {index + 1} differs: recorded "
            f"{recorded[index] if index < len(recorded) else 'nothing'}, replay gives "
            f"{produced[index] if index < len(produced) else 'nothing'}"
        )
