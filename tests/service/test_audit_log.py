"""The action log and its export through real processes: what the log stores, that an export
fits a client with default limits (in pages), and one log entry per committed version.

The tests share one service (`service`, which conftest's `stub` connects to): each makes games
of its own, and reads Redis through a client that does not flush it."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis

from risk_client import RiskClient
from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc
from risk_rules import audit
from risk_service.operations.export import EXPORT_PAGE_ENTRIES
from risk_service.store.keys import Keys
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import bearer, create_request, varint
from tests.service import botplay
from tests.service.streamcheck import assert_every_version_streamed
from tests.serving import module_service, unflushed_redis

PREFIX = "service-audit-log"
service = module_service(PREFIX)
Stub = service_pb2_grpc.RiskServiceStub
DEFAULT_RECEIVE = 4 * 1024 * 1024  # gRPC's default receive limit for a client
PADDING = 56 * 1024


def _padded(action: game_pb2.Action) -> game_pb2.Action:
    """The action with an unknown length-delimited field (number 1000) of PADDING bytes."""
    unknown = varint(1000 << 3 | 2) + varint(PADDING) + b"x" * PADDING
    return game_pb2.Action.FromString(action.SerializeToString() + unknown)


redis_raw = unflushed_redis  # the session Redis, not flushed under the shared service


async def _move(stub: Stub, game_id: str, tokens: list[str], *, pad: bool = False) -> None:
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    auth = bearer(tokens[game.decision.seats[0]])
    legal = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(game_id=game_id),
                                        metadata=auth)
    action = legal.actions[0].action
    await stub.SubmitAction(service_pb2.SubmitActionRequest(
        game_id=game_id, action=_padded(action) if pad else action,
        expected_version=legal.version), metadata=auth)


async def test_padded_actions_are_logged_canonical_and_the_export_fits(
    service: ServiceProcess, stub: Stub
) -> None:
    """80 legal moves each padded with 56 KB of unknown fields leave a log of canonical
    actions, and the game's export reaches a client with the default 4 MiB limit."""
    request = create_request(seed=5, players=3)
    request.issue_seat_tokens = True
    created = await stub.CreateGame(request)
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    for _ in range(80):
        await _move(stub, game_id, tokens, pad=True)
    for seat in (0, 1):
        await stub.Resign(service_pb2.ResignRequest(game_id=game_id), metadata=bearer(tokens[seat]))
    async with RiskClient(service.target, token=tokens[2]) as client:
        export = await client.export_game(game_id)
    actions = [e.action for e in export.log if e.WhichOneof("entry") == "action"]
    assert len(actions) == 80
    assert all(a.ByteSize() < 64 for a in actions)
    assert export.ByteSize() < DEFAULT_RECEIVE
    assert audit.verify(export).actions == 80


async def test_long_game_export_comes_in_pages_that_merge_into_the_whole(stub: Stub) -> None:
    """A game of more versions than one page holds is exported page by page, each page well
    inside the default receive limit; the merged pages verify and hold every entry."""
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
    assert len(pages) >= 2
    assert all(p.ByteSize() < DEFAULT_RECEIVE // 2 for p in pages)
    whole = service_pb2.GameExport()
    for page in pages:
        page.ClearField("next_page_token")
        whole.MergeFrom(page)
    assert len(whole.events) == game.last_seq
    assert audit.verify(whole).actions == game.moves
    concatenated = b"".join(p.SerializeToString() for p in pages)
    assert service_pb2.GameExport.FromString(concatenated) == whole
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game.game_id), metadata=auth)
    streamed = [(await call.read()).event for _ in range(game.last_seq)]
    call.cancel()
    assert_every_version_streamed(streamed, game.version)


async def _joined_game(stub: Stub) -> tuple[str, list[str]]:
    """A 3-player game whose seats join one by one, a few moves, then two resignations."""
    created = await stub.CreateGame(create_request(seed=8, players=3))
    game_id = created.game.game_id
    tokens = [(await stub.JoinGame(service_pb2.JoinGameRequest(
        game_id=game_id, seat=seat, display_name=f"p{seat}"))).seat_token for seat in range(3)]
    for _ in range(5):
        await _move(stub, game_id, tokens)
    for seat in (0, 1):
        await stub.Resign(service_pb2.ResignRequest(game_id=game_id), metadata=bearer(tokens[seat]))
    return game_id, tokens


async def test_export_log_has_one_entry_per_version_joins_and_start_included(
    stub: Stub
) -> None:
    """Seat joins and the start are logged: the export's log has one entry per committed
    version, the joins as lifecycle entries and the last join naming the start too."""
    game_id, tokens = await _joined_game(stub)
    summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    export = await stub.ExportGame(service_pb2.ExportGameRequest(game_id=game_id),
                                   metadata=bearer(tokens[2]))
    assert export.version == summary.version == len(export.log) == 3 + 5 + 2
    assert [e.version for e in export.log] == list(range(1, summary.version + 1))
    assert [(e.seat, e.lifecycle) for e in export.log[:3]] == [
        (-1, "join"), (-1, "join"), (-1, "join,start")]
    assert audit.verify(export).actions == 5


async def test_game_stored_without_lifecycle_entries_exports_them_filled_in(
    stub: Stub, redis_raw: aioredis.Redis
) -> None:
    """A game stored before lifecycle commits were logged (its log lacks them) still exports
    one entry per version, the missing ones filled in from their events, and verifies."""
    game_id, tokens = await _joined_game(stub)
    key = Keys(PREFIX).log(game_id)
    for data in await redis_raw.lrange(key, 0, -1):
        if game_pb2.LogEntry.FromString(data).lifecycle:
            await redis_raw.lrem(key, 1, data)
    assert await redis_raw.llen(key) == 7
    export = await stub.ExportGame(service_pb2.ExportGameRequest(game_id=game_id),
                                   metadata=bearer(tokens[2]))
    assert [e.version for e in export.log] == list(range(1, 11))
    assert [(e.seat, e.lifecycle) for e in export.log[:3]] == [
        (-1, "join"), (-1, "join"), (-1, "join,start")]
    assert audit.verify(export).actions == 5


async def test_verify_rejects_a_log_missing_a_version(stub: Stub) -> None:
    """An export whose log lacks one committed version (here a join) fails verification,
    naming the version."""
    game_id, tokens = await _joined_game(stub)
    export = await stub.ExportGame(service_pb2.ExportGameRequest(game_id=game_id),
                                   metadata=bearer(tokens[2]))
    del export.log[1]
    with pytest.raises(audit.VerificationError, match="no entry for version 2"):
        audit.verify(export)
