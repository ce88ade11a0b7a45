"""Audit exports: the hash chains and the fingerprint over a game's export, and `verify`, which
replays an export through the engine and confirms every event, every action and the outcome.

An export (`risk.v1.GameExport`) holds the options, the seed, the action log and every event.
Verification first checks that the seed and its nonce hash to the commitment the game published
at creation (`seed_commitment`; a game created before commitments has none), then that the log
holds exactly one entry per committed version; it rebuilds the game from the options and the
seed alone, applies each logged action (or resignation) at its version, and compares the events
the engine produces with the events the service recorded, version by version; lifecycle events
(joins, clocks, timeouts) carry no rules and are covered by the hash chain. Any altered seed,
action, event (a roll, a draw) or outcome fails it.

What the replay cannot see (an option that changes no draw, a lifecycle entry's label, a
timestamp, a seat's name) the fingerprint covers: an export of format 2 (`EXPORT_FORMAT`)
carries a chain over its log entries beside the one over its events, a digest of everything
else (`header_digest`), and a fingerprint over the three, so a change to any field fails
`verify`, naming the part. Exports made before format 2 have only the events' chain, whose
last link was their fingerprint; they verify as before. A deployment may sign the fingerprint
(Ed25519, `signed_message`, its key named by `key_id`); checking that signature needs the
deployment's public key and a cryptography library, so it is the client's (`risk verify
--key`), not this module's. docs/exports.md specifies every byte hashed here.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_rules import wire
from risk_rules.engine import REGISTRY, Event, IllegalAction
from risk_rules.seed_commitment import seed_commitment

# the newest export format this module writes and checks; 0 (unset) is the first one, whose
# fingerprint is the events' chain only
EXPORT_FORMAT = 2
# the fields that are not the header: the body, its chains and the proofs over them
_NOT_HEADER = ("log", "events", "chain", "log_chain", "next_page_token", "header_digest",
               "fingerprint", "signature")
# format 2's proofs: an export without a format must hold none of them
_FORMAT_2_FIELDS = ("log_chain", "header_digest", "fingerprint", "signature")
SIGNATURE_ALGORITHM = "EdDSA"  # Ed25519 (RFC 8032), as JOSE names it


class VerificationError(Exception):
    """The export does not replay to what it claims."""


@dataclass(frozen=True, slots=True)
class Verified:
    actions: int
    events: int
    # the export's fingerprint: for format 2 `fingerprint` (the whole export), before it the
    # last link of the events' chain
    head: bytes
    # the seed hashed to the commitment published at creation (False: the game has none)
    committed: bool = False
    format: int = 0
    # the commitment the seed and nonce were checked against (empty: none)
    commitment: bytes = b""


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


def log_root(game_id: str) -> bytes:
    """The link before the first log entry."""
    return hashlib.sha256(f"risk.v1.log:{game_id}".encode()).digest()


def log_chain(game_id: str, entries: Sequence[game_pb2.LogEntry],
              after: bytes | None = None) -> list[bytes]:
    """As `hash_chain`, over log entries from `log_root`."""
    link = log_root(game_id) if after is None else after
    chain = []
    for entry in entries:
        link = hashlib.sha256(link + entry.SerializeToString(deterministic=True)).digest()
        chain.append(link)
    return chain


def header_digest(export: service_pb2.GameExport) -> bytes:
    """SHA-256("risk.v1.export.header:" || the export without its body, chains and proofs,
    serialised deterministically): every other field, unknown ones included, so a field a
    newer service adds is covered by an older verifier too."""
    header = service_pb2.GameExport()
    header.CopyFrom(export)
    for name in _NOT_HEADER:
        header.ClearField(name)
    return hashlib.sha256(
        b"risk.v1.export.header:" + header.SerializeToString(deterministic=True)).digest()


def fingerprint(game_id: str, header: bytes, log_head: bytes | None,
                events_head: bytes | None) -> bytes:
    """Format 2's fingerprint: SHA-256("risk.v1.export:2:" || header digest || the last log
    link || the last event link), a chain's root standing in for an empty list."""
    return hashlib.sha256(
        b"risk.v1.export:2:" + header + (log_head or log_root(game_id))
        + (events_head or chain_root(game_id))).digest()


def signed_message(fingerprint: bytes) -> bytes:
    """The bytes a deployment's key signs for an export: the fingerprint, under a prefix of its
    own so that the signature can stand for nothing else the key might sign."""
    return b"risk.v1.export.signature:" + fingerprint


def key_id(public_key: bytes) -> str:
    """An Ed25519 public key's id: its JWK thumbprint (RFC 7638), SHA-256 over the required
    members in lexicographic order without whitespace, base64url without padding."""
    members = {"crv": "Ed25519", "kty": "OKP", "x": b64url(public_key)}
    canonical = json.dumps(members, separators=(",", ":"), sort_keys=True).encode()
    return b64url(hashlib.sha256(canonical).digest())


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def verify(export: service_pb2.GameExport) -> Verified:
    """Replay `export`; raise VerificationError naming the first thing that does not match.
    A signature is not checked here (see the module's note)."""
    if export.format not in (0, EXPORT_FORMAT):
        raise VerificationError(
            f"the export is of format {export.format}, newer than this verifier (it knows "
            f"formats 1 and {EXPORT_FORMAT}): upgrade risk-client")
    if export.format == 0:
        present = [name for name in _FORMAT_2_FIELDS if _has(export, name)]
        if present:
            raise VerificationError(
                f"the export holds {', '.join(present)} but no format: its format field was "
                "removed, which would leave its header and log unchecked")
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
    if export.format == 0:
        return Verified(actions, len(export.events), chain[-1] if chain else b"", committed,
                        format=0, commitment=export.seed_commitment)
    return Verified(actions, len(export.events), _check_fingerprint(export, chain), committed,
                    format=export.format, commitment=export.seed_commitment)


def _has(export: service_pb2.GameExport, name: str) -> bool:
    if name == "log_chain":
        return len(export.log_chain) > 0
    if name == "signature":
        return export.HasField("signature")
    return bool(getattr(export, name))


def _check_fingerprint(export: service_pb2.GameExport, chain: list[bytes]) -> bytes:
    """Format 2: the log's chain, the header's digest and the fingerprint over them and the
    events' chain (already checked) all match the export; its fingerprint."""
    links = log_chain(export.game_id, export.log)
    if list(export.log_chain) != links:
        bad = next((i for i, (a, b) in enumerate(zip(export.log_chain, links, strict=False))
                    if a != b), min(len(export.log_chain), len(links)))
        where = (f"the log entry of version {export.log[bad].version}" if bad < len(export.log)
                 else "its end")
        raise VerificationError(
            f"the log's hash chain breaks at {where} (entry {bad + 1}): that entry, or its "
            "link in log_chain, was altered")
    header = header_digest(export)
    if header != export.header_digest:
        raise VerificationError(
            "the header was altered: the game id, variant, options, seed, seed commitment or "
            "nonce, seat names, status, outcome or version differ from what header_digest "
            "commits to (or header_digest itself was)")
    whole = fingerprint(export.game_id, header, links[-1] if links else None,
                        chain[-1] if chain else None)
    if whole != export.fingerprint:
        raise VerificationError(
            "the fingerprint does not match the export's header digest and the heads of its "
            "log and event chains: the fingerprint was altered, or a part was and its chain "
            "recomputed")
    return whole


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
