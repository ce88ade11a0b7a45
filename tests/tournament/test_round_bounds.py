"""What anyone can make the service do with rounds is bounded, and a round is its creator's:
tables of bots only per round and per process, the pace of a game with no person's seat, the
turn cap, the host's CancelGame of a started round game, an expiry on every key of every game,
and CreateRound's stored reply and tournament label kept to the credential that made them."""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Awaitable, Callable

import grpc
import redis.asyncio

from risk_proto.risk.v1 import game_pb2, service_pb2, tournament_pb2
from risk_rules import audit
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import bearer, classic_options, error_info, rpc_error
from tests.serving import module_service
from tests.tournament.conftest import ServiceFactory
from tests.tournament.players import Stub, bot, player, quick_options
from tests.tournament.test_verifiable_dice import export

RANDOM = tournament_pb2.BOT_LEVEL_RANDOM
FAST = {"RISK_SWEEP_INTERVAL_MS": "100", "RISK_RESULTS_SWEEP_MS": "300"}
ANN, BOB = "ann-creator-token", "bob-creator-token"

# Services the module's tests share, each test on tournaments and games of its own: bots
# moving every 20 ms; and creating restricted to two creator tokens. The tests of a process's
# bot-game counts, of every game listed, or of other settings start services of their own,
# their keys under prefixes of their own (no test here flushes Redis under a shared one).
PREFIX = "tournament-round-bounds"
fast_bots = module_service(PREFIX, RISK_BOT_ONLY_MOVE_MS="20", **FAST)
two_creators = module_service(f"{PREFIX}-creators", RISK_CREATOR_TOKEN_SHA256=",".join(
    hashlib.sha256(t.encode()).hexdigest() for t in (ANN, BOB)))


def bots_only() -> tournament_pb2.RoundTable:
    return tournament_pb2.RoundTable(seats=[bot(RANDOM)] * 3)


def with_player() -> tournament_pb2.RoundTable:
    return tournament_pb2.RoundTable(seats=[player("ann"), bot(RANDOM), bot(RANDOM)])


def a_round(request_id: str, tables: list[tournament_pb2.RoundTable], *, label: str = "cup",
            number: int = 1, max_turns: int = 200) -> tournament_pb2.CreateRoundRequest:
    return tournament_pb2.CreateRoundRequest(
        request_id=request_id, tournament=label, round=number,
        options=quick_options(max_turns=max_turns), games=tables)


async def refused(call: Awaitable[object], code: grpc.StatusCode, reason: str,
                  says: str = "") -> grpc.aio.AioRpcError:
    error = await rpc_error(call)
    assert error.code() == code, error.details()
    assert error_info(error).reason == reason, error_info(error)
    assert says in (error.details() or ""), error.details()
    return error


async def until(check: Callable[[], Awaitable[bool]], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < deadline, "not reached in time"
        await asyncio.sleep(0.05)


async def version(stub: Stub, game_id: str) -> int:
    got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
    return got.game.version


async def test_rounds_beyond_the_bot_table_caps_are_refused_with_the_limit(
        make_service: ServiceFactory) -> None:
    """More tables of bots only than RISK_MAX_ROUND_BOT_TABLES in one round, or a round that
    would take a process past RISK_MAX_BOT_ONLY_GAMES games of bots only, is RESOURCE_EXHAUSTED /
    TOO_MANY_BOT_GAMES with the limit, and creates nothing; tables with a player still pass."""
    service = make_service(RISK_MAX_ROUND_BOT_TABLES="2", RISK_MAX_BOT_ONLY_GAMES="3",
                           RISK_BOT_ONLY_MOVE_MS="1000", RISK_KEY_PREFIX=f"{PREFIX}-caps",
                           **FAST)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        exhausted = grpc.StatusCode.RESOURCE_EXHAUSTED
        over = await refused(stub.CreateRound(a_round("r1", [bots_only()] * 3)), exhausted,
                             "TOO_MANY_BOT_GAMES", "at most 2")
        assert dict(error_info(over).metadata)["limit"] == "2"
        listed = await stub.ListGames(service_pb2.ListGamesRequest())
        assert not listed.games
        await stub.CreateRound(a_round("r2", [bots_only(), bots_only(), with_player()]))
        busy = await refused(stub.CreateRound(a_round("r3", [bots_only()] * 2, number=2)),
                             exhausted, "TOO_MANY_BOT_GAMES", "3")
        assert dict(error_info(busy).metadata)["limit"] == "3"
        await stub.CreateRound(a_round("r4", [bots_only(), with_player()], number=3))
        listed = await stub.ListGames(service_pb2.ListGamesRequest(tournament="cup"))
        assert len(listed.games) == 5


async def test_a_turn_cap_beyond_the_bound_is_refused(make_service: ServiceFactory) -> None:
    """max_turns beyond RISK_MAX_TURNS is INVALID_ARGUMENT / MALFORMED_REQUEST saying the
    bound, for CreateRound and CreateGame alike; at the bound a game is created."""
    service = make_service(RISK_MAX_TURNS="500", RISK_KEY_PREFIX=f"{PREFIX}-turns")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        bad = grpc.StatusCode.INVALID_ARGUMENT
        huge = a_round("big", [with_player()], max_turns=2_000_000_000)
        await refused(stub.CreateRound(huge), bad, "MALFORMED_REQUEST", "max_turns")
        refused_game = await refused(
            stub.CreateGame(service_pb2.CreateGameRequest(
                options=classic_options(players=3, max_turns=501))),
            bad, "MALFORMED_REQUEST", "at most 500")
        assert dict(error_info(refused_game).metadata)["limit"] == "500"
        assert not (await stub.ListGames(service_pb2.ListGamesRequest())).games
        await stub.CreateGame(service_pb2.CreateGameRequest(
            options=classic_options(players=3, max_turns=500)))


async def test_the_round_host_cancels_a_started_round_game(
        fast_bots: ServiceProcess) -> None:
    """CancelGame with the round's host token ends a started game of bots: it is CANCELLED,
    a spectator's stream gets `game_cancelled`, the results feed a `cancelled` fact, the
    bots commit nothing more, and its export verifies."""
    async with grpc.aio.insecure_channel(fast_bots.target) as channel:
        stub = Stub(channel)
        created = await stub.CreateRound(a_round("c", [bots_only()], label="cancel-cup",
                                                 max_turns=1000))
        game_id = created.games[0].game_id
        watched: list[game_pb2.Event] = []

        async def watch() -> None:
            async for reply in stub.StreamEvents(service_pb2.StreamEventsRequest(
                    game_id=game_id)):
                watched.append(reply.event)

        watcher = asyncio.create_task(watch())
        await until(lambda: _past(stub, game_id, 5))
        cancelled = await stub.CancelGame(service_pb2.CancelGameRequest(game_id=game_id),
                                          metadata=bearer(created.host_token))
        assert cancelled.game.status == service_pb2.GAME_STATUS_CANCELLED
        final = cancelled.game.version

        def kinds() -> list[str]:
            return [e.lifecycle.WhichOneof("kind") or "" for e in watched
                    if e.WhichOneof("variant") == "lifecycle"]

        async def seen() -> bool:
            return "game_cancelled" in kinds()

        await until(seen)
        facts: list[str] = []
        feed = stub.StreamResults(tournament_pb2.StreamResultsRequest(tournament="cancel-cup"))
        async for fact in feed:
            facts.append(fact.fact.WhichOneof("kind") or "")
            if facts[-1] == "cancelled":
                feed.cancel()
                break
        assert facts == ["created", "started", "cancelled"]
        # ten bot paces later, nothing more was committed
        await asyncio.sleep(0.2)
        assert await version(stub, game_id) == final
        assert watched[-1].version == final
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)
        again = await rpc_error(stub.CancelGame(service_pb2.CancelGameRequest(game_id=game_id),
                                                metadata=bearer(created.host_token)))
        assert error_info(again).reason == "GAME_OVER"
        # the record of a game stopped halfway still checks out
        whole = await export(stub, game_id, created.host_token)
        assert audit.verify(whole).committed


async def _past(stub: Stub, game_id: str, at_least: int) -> bool:
    return await version(stub, game_id) >= at_least


async def test_a_game_of_bots_only_commits_no_faster_than_its_pace(
        make_service: ServiceFactory) -> None:
    """A table of three random bots commits at most one version per RISK_BOT_ONLY_MOVE_MS
    (measured over 1.5 s), where it used to commit hundreds a second; it still plays."""
    service = make_service(RISK_BOT_ONLY_MOVE_MS="100", RISK_KEY_PREFIX=f"{PREFIX}-pace", **FAST)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        created = await stub.CreateRound(a_round("pace", [bots_only()], max_turns=1000))
        game_id = created.games[0].game_id
        await until(lambda: _past(stub, game_id, 3))
        first, began = await version(stub, game_id), time.monotonic()
        await asyncio.sleep(1.5)
        last, took = await version(stub, game_id), time.monotonic() - began
        assert 0 < last - first <= took / 0.1 + 2, (last - first, took)


async def test_every_key_of_a_new_running_and_finished_game_expires(
        fast_bots: ServiceProcess, redis_url: str) -> None:
    """Every Redis key of a game waiting for players, of a round game being played and of a
    finished game carries a TTL (none is kept for ever); a live game's is its idle limit plus
    its retention, refreshed by each commit."""
    async with (grpc.aio.insecure_channel(fast_bots.target) as channel,
                redis.asyncio.Redis.from_url(redis_url) as redis_client):
        stub = Stub(channel)
        waiting = (await stub.CreateGame(service_pb2.CreateGameRequest(
            options=classic_options(players=3)))).game.game_id
        playing = await stub.CreateRound(a_round("k", [bots_only()], label="expiry-cup",
                                                 max_turns=1000))
        running = playing.games[0].game_id
        done = (await stub.CreateRound(a_round("k2", [bots_only()], label="expiry-cup",
                                               number=2, max_turns=1))
                ).games[0].game_id

        async def finished() -> bool:
            got = await stub.GetGame(service_pb2.GetGameRequest(game_id=done))
            return got.game.status == service_pb2.GAME_STATUS_FINISHED

        await until(finished)
        await until(lambda: _past(stub, running, 5))
        hour = 3600 * 1000
        day = 24 * hour
        for game_id, least, most in ((waiting, 24 * hour, 26 * hour),
                                     (running, 36 * day, 38 * day),
                                     (done, 29 * day, 31 * day)):
            keys = [k async for k in redis_client.scan_iter(
                match=f"{PREFIX}:g:{{{game_id}}}*")]
            assert {k.decode().rsplit("}", 1)[1] for k in keys} >= (
                {""} if game_id == waiting else {"", ":ev", ":log"}), keys
            for key in keys:
                ttl = await redis_client.pttl(key)
                if ttl == -2:
                    continue  # gone since the scan (a turn's lease, released): not kept
                assert ttl > 0, (key, ttl)
                if not key.endswith(b":lease"):
                    assert least < ttl <= most, (key, ttl / day)
        # the shared service's bots play the running game no further
        await stub.CancelGame(service_pb2.CancelGameRequest(game_id=running),
                              metadata=bearer(playing.host_token))


async def test_a_retried_round_with_another_credential_gets_no_tokens(
        two_creators: ServiceProcess, make_service: ServiceFactory) -> None:
    """With two creator tokens, creator B repeating creator A's request id is PERMISSION_DENIED
    / NOT_TOURNAMENT_OWNER and its error holds none of A's tokens; A's own retry gets the same
    reply. Where anyone may create, a round made with a token of its own is not answered to
    an anonymous retry either."""
    ann, bob = ANN, BOB
    async with grpc.aio.insecure_channel(two_creators.target) as channel:
        stub = Stub(channel)
        request = a_round("once", [with_player(), with_player()], label="retry-cup")
        mine = await stub.CreateRound(request, metadata=bearer(ann))
        theirs = await refused(stub.CreateRound(request, metadata=bearer(bob)),
                               grpc.StatusCode.PERMISSION_DENIED, "NOT_TOURNAMENT_OWNER")
        told = (theirs.details() or "") + repr(error_info(theirs))
        secrets = [mine.host_token, *(t for g in mine.games for t in g.seat_tokens if t)]
        assert not any(token in told for token in secrets)
        assert await stub.CreateRound(request, metadata=bearer(ann)) == mine

    service = make_service(RISK_KEY_PREFIX=f"{PREFIX}-open")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        request = a_round("open", [with_player()], label="open-cup")
        mine = await stub.CreateRound(request, metadata=bearer("my-own-secret"))
        await refused(stub.CreateRound(request), grpc.StatusCode.PERMISSION_DENIED,
                      "NOT_TOURNAMENT_OWNER")
        assert await stub.CreateRound(request, metadata=bearer("my-own-secret")) == mine


async def test_another_creator_cannot_add_a_round_to_someone_elses_tournament(
        two_creators: ServiceProcess) -> None:
    """Once creator A made a round of `cup`, creator B's CreateRound under `cup` (any round,
    a new request id) is PERMISSION_DENIED / NOT_TOURNAMENT_OWNER and adds no game; A adds
    its next round, and B may open a tournament of its own."""
    ann, bob = ANN, BOB
    async with grpc.aio.insecure_channel(two_creators.target) as channel:
        stub = Stub(channel)
        await stub.CreateRound(a_round("a1", [with_player()]), metadata=bearer(ann))
        for number in (1, 2):
            await refused(stub.CreateRound(a_round(f"b{number}", [with_player()],
                                                   number=number), metadata=bearer(bob)),
                          grpc.StatusCode.PERMISSION_DENIED, "NOT_TOURNAMENT_OWNER", "cup")
        listed = await stub.ListGames(service_pb2.ListGamesRequest(tournament="cup"))
        assert len(listed.games) == 1
        await stub.CreateRound(a_round("a2", [with_player()], number=2), metadata=bearer(ann))
        await stub.CreateRound(a_round("b3", [with_player()], label="bob-cup"),
                               metadata=bearer(bob))
        listed = await stub.ListGames(service_pb2.ListGamesRequest(tournament="cup"))
        assert len(listed.games) == 2
