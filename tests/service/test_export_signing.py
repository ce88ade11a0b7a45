"""A deployment that signs its exports (RISK_EXPORT_SIGNING_KEY), through a real service: a
long game's pages merge into one export whose fingerprint covers every page and whose signature
holds, a page token whose chain links were changed is refused rather than signed, and a key
file that is not a signing key stops the start."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from risk_client import export_keys
from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_rules import audit
from risk_service.operations.export import EXPORT_PAGE_ENTRIES
from risk_testing.harness import ServiceExitedError, ServiceFactory
from risk_testing.rpc import bearer, error_info, rpc_error
from tests.service import botplay


async def test_a_signed_paged_export_verifies_and_forged_tokens_are_refused(
    make_service: ServiceFactory, redis_client: object, tmp_path: Path
) -> None:
    """Pages of a signed export merge into one whose fingerprint and signature verify; a page
    token with another chain link (its MAC kept) or of the old three-part form is
    INVALID_ARGUMENT / MALFORMED_REQUEST."""
    key = Ed25519PrivateKey.generate()
    (tmp_path / "signing.pem").write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    service = make_service(RISK_EXPORT_SIGNING_KEY=str(tmp_path / "signing.pem"))
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game = await botplay.play_game(stub, 3, players=3, auto_defend_max_dice=True)
        assert game.version > EXPORT_PAGE_ENTRIES  # the seed gives a long enough game
        auth = bearer(game.seat_tokens[0])
        pages = []
        request = service_pb2.ExportGameRequest(game_id=game.game_id)
        while True:
            page = await stub.ExportGame(request, metadata=auth)
            pages.append(page)
            if not page.next_page_token:
                break
            request.page_token = page.next_page_token
        token = pages[0].next_page_token
        index, seq, link, log_link, mac = token.split(":")
        forged = ":".join([index, seq, "00" * 32, log_link, mac])
        refusals = [await rpc_error(stub.ExportGame(service_pb2.ExportGameRequest(
            game_id=game.game_id, page_token=bad), metadata=auth))
            for bad in (forged, ":".join([index, seq, link]))]
    assert len(pages) >= 2
    assert not any(p.HasField("signature") for p in pages[:-1])
    whole = service_pb2.GameExport()
    for page in pages:
        page.ClearField("next_page_token")
        whole.MergeFrom(page)
    verified = audit.verify(whole)
    assert verified.format == audit.EXPORT_FORMAT and verified.head == whole.fingerprint
    raw = key.public_key().public_bytes(serialization.Encoding.Raw,
                                        serialization.PublicFormat.Raw)
    keys = {audit.key_id(raw): key.public_key()}
    assert export_keys.check_signature(whole, keys, "the key") == audit.key_id(raw)
    for refusal in refusals:
        assert refusal.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_info(refusal).reason == "MALFORMED_REQUEST"
        assert "page_token is not one this service issued" in (refusal.details() or "")


def test_a_signing_key_that_is_not_one_stops_the_start(
    make_service: ServiceFactory, redis_client: object, tmp_path: Path
) -> None:
    """RISK_EXPORT_SIGNING_KEY naming a missing file, or a file that is not an Ed25519 private
    key (here a public one), stops the service at start, naming the setting."""
    key = Ed25519PrivateKey.generate()
    (tmp_path / "public.pem").write_bytes(key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    for path, said in ((tmp_path / "absent.pem", "cannot read"),
                       (tmp_path / "public.pem", "is not an unencrypted PEM Ed25519 private key")):
        with pytest.raises(ServiceExitedError) as stopped:
            make_service(RISK_EXPORT_SIGNING_KEY=str(path))
        assert "RISK_EXPORT_SIGNING_KEY: " in str(stopped.value)
        assert said in str(stopped.value) and str(path) in str(stopped.value)
