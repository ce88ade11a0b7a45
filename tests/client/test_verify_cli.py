"""`risk export` writes a finished game's audit file and `risk verify` accepts it, or rejects
it once any part of it is altered; a deployment's signature checks against its published keys.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_rules import audit
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import bearer, create_request
from tests.serving import module_service

Export = service_pb2.GameExport
# one service for the module's tests of a deployment without a signing key (its HTTP port
# too: the unsigned one shows nothing published there); each finishes a game of its own
unsigned = module_service("client-verify-cli", http=True)


def _risk(*args: str, target: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RISK_TARGET": target} if target else dict(os.environ)
    return subprocess.run([sys.executable, "-m", "risk_client", *args], env=env,
                          capture_output=True, text=True, timeout=60, check=False)


async def _finished_game(service: ServiceProcess) -> tuple[str, list[str], bytes]:
    """A 3-seat classic game of six claims ended by two resignations: (game id, seat tokens,
    the seed commitment published at its creation)."""
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        request = create_request(seed=4, players=3)
        request.issue_seat_tokens = True
        request.seat_names.extend(["Ada", "Brook", "Cy"])
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
    return game_id, tokens, created.game.seed_commitment


def _export(service: ServiceProcess, game_id: str, token: str, path: Path) -> Export:
    wrote = _risk(f"--token={token}", "export", game_id, str(path), target=service.target)
    assert wrote.returncode == 0, wrote.stderr
    return Export.FromString(path.read_bytes())


def _signing_key(path: Path) -> Ed25519PrivateKey:
    key = Ed25519PrivateKey.generate()
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    return key


def _public_pem(key: Ed25519PrivateKey, path: Path) -> Path:
    path.write_bytes(key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    return path


async def test_export_then_verify_and_reject_tampering(
    unsigned: ServiceProcess, tmp_path: Path
) -> None:
    """The exported file verifies; flipping an action's territory, or dropping a version's
    log entry, makes verify exit 1."""
    service = unsigned
    game_id, tokens, _commitment = await _finished_game(service)
    path = tmp_path / "game.export"
    _export(service, game_id, tokens[2], path)
    accepted = _risk("verify", str(path))
    assert accepted.returncode == 0 and "verify: OK" in accepted.stdout
    assert "6 actions" in accepted.stdout

    original = path.read_bytes()
    export = Export.FromString(original)
    assert [e.lifecycle for e in export.log[:1]] == ["start"]  # seats issued at creation
    entry = next(e for e in export.log if e.WhichOneof("entry") == "action")
    claim = entry.action.classic.claim_territory
    claim.territory = (claim.territory + 1) % 42
    path.write_bytes(export.SerializeToString())
    rejected = _risk("verify", str(path))
    assert rejected.returncode == 1 and "REJECTED" in rejected.stderr

    missing = Export.FromString(original)
    del missing.log[0]  # the start's entry: the log no longer has one entry per version
    path.write_bytes(missing.SerializeToString())
    rejected = _risk("verify", str(path))
    assert rejected.returncode == 1 and "no entry for version 1" in rejected.stderr


def _set_max_turns(e: Export) -> None:
    e.options.classic.max_turns -= 1  # the game ended long before: the replay is the same


def _rename(e: Export) -> None:
    e.seat_names[0] += "!"


def _other_commitment(e: Export) -> None:
    e.seed_commitment = bytes([e.seed_commitment[0] ^ 1]) + e.seed_commitment[1:]


def _relabel(e: Export) -> None:
    e.log[0].lifecycle = "join"  # was "start": nothing the rules replay


def _retime_entry(e: Export) -> None:
    e.log[-1].at_ms += 1


def _retime_event(e: Export) -> None:
    e.events[-1].at_ms += 1


def _retime_event_rechained(e: Export) -> None:
    e.events[-1].at_ms += 1
    e.chain[:] = audit.hash_chain(e.game_id, e.events)


def _unknown_field(e: Export) -> None:
    e.MergeFromString(bytes([0xF8, 0x07, 0x01]))  # field 127, varint 1: no field of ours


def _flip(name: str) -> Callable[[Export], None]:
    def flip(e: Export) -> None:
        value = getattr(e, name)
        setattr(e, name, bytes([value[0] ^ 1]) + value[1:])
    return flip


def _no_format(e: Export) -> None:
    e.format = 0


# each part of an export, altered where the replay cannot see it (but the commitment's), and
# what `risk verify` must name
ALTERATIONS: list[tuple[str, Callable[[Export], None], str]] = [
    ("an option", _set_max_turns, "the header was altered"),
    ("a seat name", _rename, "the header was altered"),
    ("the seed commitment", _other_commitment, "commitment the game published"),
    ("a lifecycle entry's label", _relabel, "log's hash chain breaks at the log entry of "
     "version 1"),
    ("a log entry's time", _retime_entry, "log's hash chain breaks at the log entry of version"),
    ("an event's time", _retime_event, "hash chain breaks at event"),
    ("an event's time, its chain recomputed", _retime_event_rechained,
     "the fingerprint does not match"),
    ("a field unknown to the schema", _unknown_field, "the header was altered"),
    ("the header digest", _flip("header_digest"), "the header was altered"),
    ("a log chain link", lambda e: e.log_chain.__setitem__(2, bytes(32)),
     "log's hash chain breaks at the log entry of version 3"),
    ("the fingerprint", _flip("fingerprint"), "the fingerprint does not match"),
    ("the format", _no_format, "no format"),
]


async def test_verify_names_the_altered_part_of_an_export(
    unsigned: ServiceProcess, tmp_path: Path
) -> None:
    """Altering any part of an export file (an option, a name, a lifecycle label, a time, a
    chain link, the digest, the fingerprint) fails `risk verify` naming that part."""
    service = unsigned
    game_id, tokens, _commitment = await _finished_game(service)
    path = tmp_path / "game.export"
    export = _export(service, game_id, tokens[2], path)
    assert export.format == audit.EXPORT_FORMAT and len(export.fingerprint) == 32
    original = path.read_bytes()
    assert export.seat_names[0] == "Ada"
    name = original.index(b"\x5a\x03Ada")  # field 11 (seat_names), 3 bytes, "Ada"
    flipped = bytearray(original)
    flipped[name + 2] ^= 0x01  # one byte of the file: "Ada" becomes "@da"
    (tmp_path / "byte.export").write_bytes(bytes(flipped))
    failures = {"a byte of a seat name": _risk("verify", str(tmp_path / "byte.export"))}
    for what, alter, _said in ALTERATIONS:
        altered = Export.FromString(original)
        alter(altered)
        (tmp_path / "altered.export").write_bytes(altered.SerializeToString())
        failures[what] = _risk("verify", str(tmp_path / "altered.export"))
    expected = {"a byte of a seat name": "the header was altered",
                **{what: said for what, _alter, said in ALTERATIONS}}
    for what, said in expected.items():
        done = failures[what]
        assert done.returncode == 1 and said in done.stderr, (what, done.stdout, done.stderr)


async def test_signed_export_checks_against_the_published_keys(
    make_service: ServiceFactory, tmp_path: Path
) -> None:
    """With RISK_EXPORT_SIGNING_KEY the export is signed; its key is published as a JWKS on
    the HTTP port, and `risk verify --key` (URL, JWKS file or PEM) says the signature is OK,
    prints the seed commitment published at creation, and rejects another key or an altered
    signature."""
    key = _signing_key(tmp_path / "signing.pem")
    service = make_service(http=True, RISK_EXPORT_SIGNING_KEY=str(tmp_path / "signing.pem"),
                           RISK_KEY_PREFIX="client-verify-cli-signed")
    game_id, tokens, commitment = await _finished_game(service)
    path = tmp_path / "game.export"
    wrote = _risk(f"--token={tokens[2]}", "export", game_id, str(path), target=service.target)
    export = Export.FromString(path.read_bytes())
    raw = key.public_key().public_bytes(serialization.Encoding.Raw,
                                        serialization.PublicFormat.Raw)
    kid = audit.key_id(raw)
    assert export.signature.key_id == kid and export.signature.algorithm == "EdDSA"
    assert f"fingerprint {export.fingerprint.hex()}, signed with key {kid}" in wrote.stdout

    with urllib.request.urlopen(f"{service.http_url}/.well-known/risk-export-keys.json",
                                timeout=10) as answer:
        published = json.loads(answer.read())
        assert answer.headers["access-control-allow-origin"] == "*"
    assert published == {"keys": [{"kty": "OKP", "crv": "Ed25519", "x": audit.b64url(raw),
                                   "kid": kid, "alg": "EdDSA", "use": "sig"}]}
    (tmp_path / "keys.json").write_text(json.dumps(published))
    for source in (service.http_url, str(tmp_path / "keys.json"),
                   str(_public_pem(key, tmp_path / "public.pem"))):
        checked = _risk("verify", "--key", source, str(path))
        assert checked.returncode == 0, (source, checked.stderr)
        assert f"signature: OK (kid {kid})" in checked.stdout
        assert f"fingerprint {export.fingerprint.hex()} (of the whole export)" in checked.stdout
        assert f"seed commitment: {commitment.hex()}" in checked.stdout
    unchecked = _risk("verify", str(path))
    assert f"signature: not checked (signed with key {kid}" in unchecked.stdout

    stranger = _public_pem(Ed25519PrivateKey.generate(), tmp_path / "stranger.pem")
    other_key = _risk("verify", "--key", str(stranger), str(path))
    assert other_key.returncode == 1
    assert f"signed with key {kid}, which {stranger} does not hold" in other_key.stderr
    forged = Export.FromString(path.read_bytes())
    forged.signature.signature = bytes([forged.signature.signature[0] ^ 1]) + \
        forged.signature.signature[1:]
    (tmp_path / "forged.export").write_bytes(forged.SerializeToString())
    bad = _risk("verify", "--key", str(tmp_path / "keys.json"), str(tmp_path / "forged.export"))
    assert bad.returncode == 1 and "the signature does not match" in bad.stderr


async def test_unsigned_export_says_so(unsigned: ServiceProcess, tmp_path: Path) -> None:
    """A deployment without a signing key exports unsigned files: `risk verify --key` says
    "signature: not signed", and with --require-signature rejects the file."""
    key = _signing_key(tmp_path / "signing.pem")
    service = unsigned
    game_id, tokens, _commitment = await _finished_game(service)
    path = tmp_path / "game.export"
    export = _export(service, game_id, tokens[2], path)
    assert not export.HasField("signature")
    with pytest.raises(urllib.error.HTTPError) as absent:  # nothing published
        urllib.request.urlopen(f"{service.http_url}/.well-known/risk-export-keys.json",
                               timeout=10)
    assert absent.value.code == 404
    public = str(_public_pem(key, tmp_path / "public.pem"))
    checked = _risk("verify", "--key", public, str(path))
    assert checked.returncode == 0 and "signature: not signed" in checked.stdout
    required = _risk("verify", "--key", public, "--require-signature", str(path))
    assert required.returncode == 1 and "not signed" in required.stderr
