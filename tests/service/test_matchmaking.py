"""Matchmaking (docs/ratings.md, "Matchmaking") through real service processes on a real Redis:
four players ask, a 4-table forms and each is told (stream and verified webhook), the game runs
with their player tokens; cancel, expiry, one open request per player, bots filling after the
wait, every refusal with its reason; and a process killed -9 between claiming a table and
creating its game: after restarts each ticket ends in exactly one game.

The tests whose players wait in pools no other test fills share one service (`shared`), each with
players of its own, and cancel what they leave waiting; those that need other settings, kill
the service, count metrics or Redis commands, or read Redis' keys start their own (under a key
prefix of their own: Redis is not flushed under the shared one)."""

from __future__ import annotations

import asyncio
import re
import time
import urllib.request
import uuid
from collections.abc import Callable

import grpc
import pytest
import redis.asyncio as aioredis

from risk_client import RiskClient
from risk_proto.risk.v1 import (
    common_pb2,
    lifecycle_pb2,
    matchmaking_pb2,
    ratings_pb2,
    service_pb2,
    tournament_pb2,
)
from risk_service.redis_server import free_port
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import bearer, error_info, rpc_error
from tests.conftest import RedisServerFactory
from tests.service import test_webhooks as hooks
from tests.service.test_http import info_of, post_json
from tests.service.test_my_games import Stub, new_player, player_stream
from tests.serving import module_service, unflushed_redis
from tests.tournament.test_results_live import (
    IDLE_BOUND,
    QUIET,
    WINDOW_S,
    assert_no_commands,
    commands_processed,
)

Receiver, hook_env, wait_for = hooks.Receiver, hooks.hook_env, hooks.wait_for
secret, receivers = hooks.secret, hooks.receivers  # fixtures, found by name

FAST = {"RISK_MATCH_INTERVAL_MS": "50"}
CLASSIC = common_pb2.VARIANT_CLASSIC
WAITING = matchmaking_pb2.MATCH_STATUS_WAITING
MATCHING = matchmaking_pb2.MATCH_STATUS_MATCHING
MATCHED = matchmaking_pb2.MATCH_STATUS_MATCHED
CANCELLED = matchmaking_pb2.MATCH_STATUS_CANCELLED
EXPIRED = matchmaking_pb2.MATCH_STATUS_EXPIRED
PREFIX = "service-matchmaking"
# one service (its HTTP port too) for the tests that need only FAST's matchmaker
shared = module_service(PREFIX, http=True, **FAST)


def own_prefix() -> str:
    """A key prefix for a test's own service, met by no other service on the session Redis."""
    return f"{PREFIX}-own-{uuid.uuid4().hex[:8]}"


keys_client = unflushed_redis  # the session Redis, not flushed under the shared service


def ask(**fields: object) -> matchmaking_pb2.RequestMatchRequest:
    fields.setdefault("variant", CLASSIC)
    fields.setdefault("sizes", [4])
    return matchmaking_pb2.RequestMatchRequest(**fields)  # type: ignore[arg-type]


async def ticket_of(stub: Stub, token: str, ticket_id: str) -> matchmaking_pb2.MatchTicket:
    return await stub.GetMatchTicket(matchmaking_pb2.MatchTicketRequest(ticket_id=ticket_id),
                                     metadata=bearer(token))


async def until_status(stub: Stub, token: str, ticket_id: str, statuses: set[int],
                       timeout: float = 30.0) -> matchmaking_pb2.MatchTicket:
    async def reached() -> matchmaking_pb2.MatchTicket | None:
        ticket = await ticket_of(stub, token, ticket_id)
        return ticket if ticket.status in statuses else None
    found: matchmaking_pb2.MatchTicket = await wait_for(
        f"ticket {ticket_id} in {statuses}", reached, timeout)
    return found


async def refused(call: object, code: grpc.StatusCode, reason: str) -> grpc.aio.AioRpcError:
    error = await rpc_error(call)  # type: ignore[arg-type]
    assert (error.code(), error_info(error).reason) == (code, reason), error.details()
    return error


async def test_four_players_are_seated_told_and_play(
        make_service: ServiceFactory, receivers: Callable[[], Receiver], secret: str) -> None:
    """Four players ask for a classic 4-table: one game forms with each seat bound to its
    player (seats in order of asking), started; each player's stream says match_found (once)
    and started, and a verified match.found webhook names them; their tickets are MATCHED with the
    game and seat, a cancel now is MATCH_ALREADY_FORMED; the player whose turn it is moves with
    their player token; the game is in each player's ListMyGames."""
    receiver = receivers()
    receiver.start()
    service = make_service(RISK_KEY_PREFIX=own_prefix(), **hook_env(secret, receiver.url), **FAST)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        players = [await new_player(stub) for _ in range(4)]
        streams = [player_stream(service.target, token) for _, token in players]
        opened = [await s.__aenter__() for s in streams]
        try:
            tickets = []
            for n, (_pid, token) in enumerate(players):
                tickets.append(await stub.RequestMatch(
                    ask(display_name=f"p{n}", request_id=f"r{n}"), metadata=bearer(token)))
                if n < 3:
                    assert tickets[-1].status == WAITING
            done = [await until_status(stub, token, t.ticket_id, {MATCHED})
                    for (_p, token), t in zip(players, tickets, strict=True)]
            game_id = done[0].game_id
            assert {t.game_id for t in done} == {game_id}
            assert [t.seat for t in done] == [0, 1, 2, 3]
            assert all((t.table_size, t.bots) == (4, 0) for t in done)
            for (pid, _token), stream, ticket in zip(players, opened, done, strict=True):
                await stream.until(lambda s=stream: {"started", "match_found"} <= {
                    e.WhichOneof("kind") for e in s.events}, "match found and started told")
                kinds = [e.WhichOneof("kind") for e in stream.events]
                found = next(e for e in stream.events if e.WhichOneof("kind") == "match_found")
                assert (found.player_id, found.game_id, found.seat) == (pid, game_id,
                                                                          ticket.seat)
                assert found.match_found.ticket_id == ticket.ticket_id
                assert found.match_found.table_size == 4 and kinds.count("match_found") == 1
        finally:
            for s in streams:
                await s.__aexit__(None, None, None)
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        assert game.status == service_pb2.GAME_STATUS_ACTIVE
        assert [(s.player_id, s.display_name) for s in game.seats] == [
            (pid, f"p{n}") for n, (pid, _t) in enumerate(players)]
        await refused(stub.CancelMatch(matchmaking_pb2.MatchTicketRequest(
            ticket_id=done[0].ticket_id), metadata=bearer(players[0][1])),
            grpc.StatusCode.FAILED_PRECONDITION, "MATCH_ALREADY_FORMED")
        mover = players[game.decision.seats[0]][1]
        legal = await stub.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=bearer(mover))
        moved = await stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game_id, action=legal.actions[0].action, expected_version=legal.version),
            metadata=bearer(mover))
        assert moved.version == legal.version + 1
        for _pid, token in players:
            mine = await stub.ListMyGames(service_pb2.ListMyGamesRequest(),
                                          metadata=bearer(token))
            assert [g.game.game_id for g in mine.games] == [game_id]

    def told() -> list[dict[str, object]]:
        return [r["envelope"]["data"] for r in receiver.delivered()
                if r["envelope"]["type"] == "match.found"]
    await wait_for("four match.found webhooks", lambda: len(told()) >= 4)
    assert sorted((d["player_id"], d["seat"], d["game_id"]) for d in told()) == sorted(
        (pid, n, game_id) for n, (pid, _t) in enumerate(players))


async def test_cancel_retry_and_one_open_request_per_player(shared: ServiceProcess) -> None:
    """A player with a waiting request: the same request id again returns it (with other
    terms, REQUEST_ID_REUSED); another request (another variant's queue too) is ALREADY_QUEUED
    naming it; cancelled, it is CANCELLED (and
    again, unchanged) and the player may ask anew; another player neither sees nor cancels
    it."""
    service = shared
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        (_ann, ann_t), (_bob, bob_t) = [await new_player(stub) for _ in range(2)]
        first = await stub.RequestMatch(ask(request_id="a1"), metadata=bearer(ann_t))
        again = await stub.RequestMatch(ask(request_id="a1"), metadata=bearer(ann_t))
        assert again.ticket_id == first.ticket_id and again.status == WAITING
        reused = await refused(stub.RequestMatch(ask(request_id="a1", sizes=[3, 4]),
                                                 metadata=bearer(ann_t)),
                               grpc.StatusCode.INVALID_ARGUMENT, "REQUEST_ID_REUSED")
        assert error_info(reused).metadata["ticket_id"] == first.ticket_id
        for other in (ask(request_id="a2"), ask(variant=common_pb2.VARIANT_STRIKE, sizes=[3])):
            error = await refused(stub.RequestMatch(other, metadata=bearer(ann_t)),
                                  grpc.StatusCode.FAILED_PRECONDITION, "ALREADY_QUEUED")
            assert error_info(error).metadata["ticket_id"] == first.ticket_id
        by_ticket = matchmaking_pb2.MatchTicketRequest(ticket_id=first.ticket_id)
        for call in (stub.GetMatchTicket, stub.CancelMatch):
            await refused(call(by_ticket, metadata=bearer(bob_t)), grpc.StatusCode.NOT_FOUND,
                          "MATCH_TICKET_NOT_FOUND")
        cancelled = await stub.CancelMatch(by_ticket, metadata=bearer(ann_t))
        assert cancelled.status == CANCELLED
        assert (await stub.CancelMatch(by_ticket, metadata=bearer(ann_t))).status == CANCELLED
        assert (await ticket_of(stub, ann_t, first.ticket_id)).status == CANCELLED
        strike = await stub.RequestMatch(ask(variant=common_pb2.VARIANT_STRIKE, sizes=[3]),
                                         metadata=bearer(ann_t))
        assert strike.status == WAITING and strike.ticket_id != first.ticket_id
        await stub.CancelMatch(matchmaking_pb2.MatchTicketRequest(ticket_id=strike.ticket_id),
                               metadata=bearer(ann_t))  # nothing left waiting in `shared`


async def test_a_request_expires_and_frees_its_player(shared: ServiceProcess) -> None:
    """A request nobody matches expires after its expires_in_seconds (10 s, the least), is
    EXPIRED from then on, and its player may ask again."""
    service = shared
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        _ann, ann_t = await new_player(stub)
        started = time.time()
        ticket = await stub.RequestMatch(ask(expires_in_seconds=10), metadata=bearer(ann_t))
        assert ticket.expires_at_ms - ticket.created_at_ms == 10_000
        gone = await until_status(stub, ann_t, ticket.ticket_id, {EXPIRED}, timeout=40)
        assert time.time() - started >= 9.5 and gone.game_id == ""
        anew = await stub.RequestMatch(ask(), metadata=bearer(ann_t))
        assert anew.status == WAITING
        await stub.CancelMatch(matchmaking_pb2.MatchTicketRequest(ticket_id=anew.ticket_id),
                               metadata=bearer(ann_t))  # nothing left waiting in `shared`


async def test_bots_fill_a_table_after_the_wait(make_service: ServiceFactory) -> None:
    """Two players who allow bots after 1 s get a 4-table with two bots at the configured
    level (planner), started; a third who never allows bots keeps waiting."""
    # a service of its own: its tables are filled from its queue alone
    service = make_service(RISK_KEY_PREFIX=own_prefix(), RISK_MATCH_BOT_LEVEL="planner", **FAST)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        (ann, ann_t), (bob, bob_t), (_cy, cy_t) = [await new_player(stub) for _ in range(3)]
        shy = await stub.RequestMatch(ask(), metadata=bearer(cy_t))
        tickets = [await stub.RequestMatch(ask(allow_bots_after_seconds=1),
                                           metadata=bearer(token)) for token in (ann_t, bob_t)]
        done = [await until_status(stub, token, t.ticket_id, {MATCHED})
                for token, t in zip((ann_t, bob_t), tickets, strict=True)]
        assert done[0].game_id == done[1].game_id
        assert [(t.table_size, t.bots) for t in done] == [(4, 2), (4, 2)]
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=done[0].game_id))).game
        assert game.status == service_pb2.GAME_STATUS_ACTIVE
        assert [s.player_id for s in game.seats] == [ann, bob, "", ""]
        assert list(game.bot_seats) == [False, False, True, True]
        assert list(game.bot_levels) == [0, 0] + [tournament_pb2.BOT_LEVEL_PLANNER] * 2
        assert (await ticket_of(stub, cy_t, shy.ticket_id)).status == WAITING


async def test_refusals(shared: ServiceProcess) -> None:
    """Every refusal of the matchmaking calls, with its status and reason."""
    service = shared
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        _ann, ann_t = await new_player(stub)
        await refused(stub.RequestMatch(ask()), grpc.StatusCode.UNAUTHENTICATED,
                      "MISSING_CREDENTIALS")
        await refused(stub.RequestMatch(ask(), metadata=bearer("not-a-player-token")),
                      grpc.StatusCode.PERMISSION_DENIED, "NOT_A_PLAYER")
        for bad in (ask(variant=0), ask(sizes=[7]), ask(sizes=[1]),
                    ask(allow_bots_after_seconds=3601), ask(allow_bots_after_seconds=-1),
                    ask(expires_in_seconds=5), ask(expires_in_seconds=3601),
                    ask(display_name="x" * 65), ask(request_id="r" * 65),
                    ask(clock=lifecycle_pb2.ClockOptions(decision_seconds=-1)),
                    ask(clock=lifecycle_pb2.ClockOptions(turn_seconds=60))):
            await refused(stub.RequestMatch(bad, metadata=bearer(ann_t)),
                          grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")
        await refused(stub.RequestMatch(ask(variant=999), metadata=bearer(ann_t)),
                      grpc.StatusCode.UNIMPLEMENTED, "VARIANT_NOT_AVAILABLE")
        for call in (stub.GetMatchTicket, stub.CancelMatch):
            await refused(call(matchmaking_pb2.MatchTicketRequest(ticket_id="nope"),
                               metadata=bearer(ann_t)),
                          grpc.StatusCode.NOT_FOUND, "MATCH_TICKET_NOT_FOUND")
        # nothing was queued by any of them
        last = await stub.RequestMatch(ask(), metadata=bearer(ann_t))
        assert last.status == WAITING
        await stub.CancelMatch(matchmaking_pb2.MatchTicketRequest(ticket_id=last.ticket_id),
                               metadata=bearer(ann_t))  # nothing left waiting in `shared`


async def _games(client: aioredis.Redis, prefix: str) -> list[str]:
    """The game hashes in Redis under `prefix` (`<prefix>:g:{<id>}`)."""
    return sorted(k.decode() for k in await client.keys(f"{prefix}:g:{{*}}")
                  if k.decode().endswith("}"))


async def test_a_process_killed_between_claim_and_creation(
        make_service: ServiceFactory, keys_client: aioredis.Redis) -> None:
    """A process claims a 4-table (its tickets MATCHING, naming the game) and is killed -9
    before creating the game (RISK_MATCH_CREATE_DELAY_MS holds it there). Restarted beside a
    second process, once the table's lease is over one of them creates that very game: every
    ticket MATCHED in it, one game in Redis, one in each player's list."""
    prefix = own_prefix()
    lease = {"RISK_MATCH_LEASE_MS": "1500", "RISK_KEY_PREFIX": prefix}
    doomed = make_service(RISK_MATCH_CREATE_DELAY_MS="600000", **lease, **FAST)
    async with grpc.aio.insecure_channel(doomed.target) as channel:
        stub = Stub(channel)
        players = [await new_player(stub) for _ in range(4)]
        tickets = [await stub.RequestMatch(ask(), metadata=bearer(token))
                   for _pid, token in players]
        claimed = [await until_status(stub, token, t.ticket_id, {MATCHING})
                   for (_pid, token), t in zip(players, tickets, strict=True)]
    game_id = claimed[0].game_id
    assert {t.game_id for t in claimed} == {game_id} and game_id
    assert await _games(keys_client, prefix) == []
    doomed.kill()
    other = make_service(**lease, **FAST)
    doomed.restart(same_address=False)  # nobody calls it at its old address
    async with grpc.aio.insecure_channel(other.target) as channel:
        stub = Stub(channel)
        done = [await until_status(stub, token, t.ticket_id, {MATCHED})
                for (_pid, token), t in zip(players, tickets, strict=True)]
        assert {t.game_id for t in done} == {game_id}
        assert sorted(t.seat for t in done) == [0, 1, 2, 3]
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        assert game.status == service_pb2.GAME_STATUS_ACTIVE
        assert [s.player_id for s in game.seats] == [pid for pid, _t in players]
        assert await _games(keys_client, prefix) == [f"{prefix}:g:{{{game_id}}}"]
        for _pid, token in players:
            mine = await stub.ListMyGames(service_pb2.ListMyGamesRequest(),
                                          metadata=bearer(token))
            assert [g.game.game_id for g in mine.games] == [game_id]
        logs = doomed.logs() + other.logs()
        assert logs.count('"match_resumed"') >= 1 and logs.count('"match_created"') >= 1


async def test_two_processes_seat_every_ticket_once(
        make_service: ServiceFactory, keys_client: aioredis.Redis) -> None:
    """Two processes run their matchmakers on one Redis every 10 ms while twelve players ask
    for 3-tables through either: every ticket ends MATCHED in a game whose seats are exactly
    its tickets' players, four games in all, each in Redis once."""
    prefix = own_prefix()
    services = [make_service(RISK_KEY_PREFIX=prefix, RISK_MATCH_INTERVAL_MS="10")
                for _ in range(2)]
    channels = [grpc.aio.insecure_channel(s.target) for s in services]
    try:
        stubs = [Stub(c) for c in channels]
        players = [await new_player(stubs[0]) for _ in range(12)]
        tickets = [await stubs[n % 2].RequestMatch(ask(sizes=[3]), metadata=bearer(token))
                   for n, (_pid, token) in enumerate(players)]
        done = [await until_status(stubs[n % 2], token, t.ticket_id, {MATCHED})
                for n, ((_pid, token), t) in enumerate(zip(players, tickets, strict=True))]
        by_game: dict[str, list[str]] = {}
        for (pid, _token), ticket in zip(players, done, strict=True):
            by_game.setdefault(ticket.game_id, []).append(pid)
        assert len(by_game) == 4 and all(len(p) == 3 for p in by_game.values())
        for game_id, pids in by_game.items():
            game = (await stubs[0].GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
            assert sorted(s.player_id for s in game.seats) == sorted(pids)
        assert await _games(keys_client, prefix) == sorted(
            f"{prefix}:g:{{{g}}}" for g in by_game)
    finally:
        for channel in channels:
            await channel.close()


async def test_a_rated_match_is_rated_and_the_next_request_carries_the_rating(
        shared: ServiceProcess) -> None:
    """Three players ask for a rated 3-table: the game is rated; two resign, the third wins;
    each has one rated game, the winner's mu the highest and above the default, the first out's
    below it, and the winner's next request carries that mu as its rating (what the window
    compares)."""
    service = shared
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        players = [await new_player(stub) for _ in range(3)]
        tickets = [await stub.RequestMatch(ask(sizes=[3], rated=True), metadata=bearer(token))
                   for _pid, token in players]
        assert all(t.rated and t.rating == 25.0 for t in tickets)
        done = [await until_status(stub, token, t.ticket_id, {MATCHED})
                for (_pid, token), t in zip(players, tickets, strict=True)]
        game_id = done[0].game_id
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        assert game.rated
        by_seat = {t.seat: players[n] for n, t in enumerate(done)}
        for seat in (0, 1):
            await stub.Resign(service_pb2.ResignRequest(game_id=game_id),
                              metadata=bearer(by_seat[seat][1]))
        winner = by_seat[2][0]

        async def rated_once() -> dict[str, ratings_pb2.Rating] | None:
            got = {pid: (await stub.GetRating(ratings_pb2.GetRatingRequest(
                player_id=pid, variant=CLASSIC))).rating for pid, _t in players}
            return got if all(r.games == 1 for r in got.values()) else None
        rated = await wait_for("every seat rated once", rated_once)
        first_out = by_seat[0][0]  # resigned first: last place
        assert rated[winner].mu == max(r.mu for r in rated.values()) > 25.0
        assert rated[first_out].mu < 25.0
        again = await stub.RequestMatch(ask(sizes=[3], rated=True),
                                        metadata=bearer(by_seat[2][1]))
        assert again.rating == rated[winner].mu
        await stub.CancelMatch(matchmaking_pb2.MatchTicketRequest(ticket_id=again.ticket_id),
                               metadata=bearer(by_seat[2][1]))  # nothing left in `shared`


async def test_the_sdk_requests_waits_and_cancels(shared: ServiceProcess) -> None:
    """risk_client's request_match (resent with its request id: the same ticket),
    wait_for_match (MATCHED, the game and seat; TimeoutError for a ticket still waiting) and
    cancel_match (CANCELLED)."""
    service = shared
    async with RiskClient(service.target) as client:
        tokens = [(await client.issue_player_token()).token for _ in range(4)]
        players = [client.with_token(token) for token in tokens]
        first = await players[0].request_match(CLASSIC, [3], request_id="same")
        assert (await players[0].request_match(CLASSIC, [3], request_id="same")).ticket_id == \
            first.ticket_id
        others = [await p.request_match(CLASSIC, [3]) for p in players[1:3]]
        done = [await p.wait_for_match(t.ticket_id, poll_s=0.05, timeout_s=30)
                for p, t in zip(players, [first, *others], strict=False)]
        assert {t.status for t in done} == {MATCHED} and len({t.game_id for t in done}) == 1
        late = await players[3].request_match(CLASSIC, [4])
        with pytest.raises(TimeoutError):  # nobody else asks for a 4-table
            await players[3].wait_for_match(late.ticket_id, poll_s=0.05, timeout_s=0.2)
        assert (await players[3].cancel_match(late.ticket_id)).status == CANCELLED


async def test_matchmaking_over_connect_json(shared: ServiceProcess) -> None:
    """The calls over the HTTP port's Connect JSON, as a web backend makes them (the route
    table serves them there too): two players ask for a 2-table of Strike, both are MATCHED
    into one game; ALREADY_QUEUED is HTTP 400 with its reason in the ErrorInfo."""
    service = shared
    tokens = []
    for _ in range(2):
        status, body = post_json(service, "IssuePlayerToken", {})
        assert status == 200, body
        tokens.append(body["token"])
    tickets = []
    for token in tokens:
        status, body = post_json(service, "RequestMatch",
                                 {"variant": "VARIANT_STRIKE", "sizes": [2]}, token)
        assert status == 200, body
        tickets.append(body["ticketId"])
    status, body = post_json(service, "RequestMatch", {"variant": "VARIANT_CLASSIC"}, tokens[0])
    assert status == 400 and info_of(body).reason == "ALREADY_QUEUED", body

    def matched() -> list[dict[str, object]] | None:
        got = [post_json(service, "GetMatchTicket", {"ticketId": ticket}, token)[1]
               for ticket, token in zip(tickets, tokens, strict=True)]
        return got if all(t.get("status") == "MATCH_STATUS_MATCHED" for t in got) else None
    done = await wait_for("both matched over JSON", matched)
    assert done[0]["gameId"] == done[1]["gameId"]
    assert sorted(t.get("seat", 0) for t in done) == [0, 1]


async def test_a_clock_left_to_its_defaults_meets_the_same_clock_written_out(
        shared: ServiceProcess) -> None:
    """A request with no timeout policy and one naming the default (DEFAULT_ACTION) wait in
    one pool: they sit at one table, whose game's clock says DEFAULT_ACTION."""
    service = shared
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        (_a, a_t), (_b, b_t) = [await new_player(stub) for _ in range(2)]
        clocks = [lifecycle_pb2.ClockOptions(decision_seconds=60),
                  lifecycle_pb2.ClockOptions(
                      decision_seconds=60,
                      on_timeout=lifecycle_pb2.TIMEOUT_POLICY_DEFAULT_ACTION)]
        tickets = [await stub.RequestMatch(ask(variant=common_pb2.VARIANT_STRIKE, sizes=[2],
                                               clock=clock), metadata=bearer(token))
                   for clock, token in zip(clocks, (a_t, b_t), strict=True)]
        done = [await until_status(stub, token, t.ticket_id, {MATCHED})
                for t, token in zip(tickets, (a_t, b_t), strict=True)]
        assert done[0].game_id == done[1].game_id
        assert done[0].clock == done[1].clock == clocks[1]


async def _scrape(port: int) -> str:
    def read() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
            return str(reply.read().decode())
    return await asyncio.to_thread(read)


def _value(page: str, sample: str) -> float:
    found = re.search(rf"^{re.escape(sample)} ([0-9.e+]+)$", page, re.MULTILINE)
    assert found, f"{sample} is not on the metrics page"
    return float(found.group(1))


async def test_the_matchmakers_metrics(make_service: ServiceFactory) -> None:
    """/metrics counts the table formed (without bots), the two waits it seated and a request
    cancelled."""
    port = free_port()
    service = make_service(RISK_KEY_PREFIX=own_prefix(), RISK_METRICS_PORT=str(port), **FAST)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        players = [await new_player(stub) for _ in range(3)]
        tickets = [await stub.RequestMatch(ask(variant=common_pb2.VARIANT_STRIKE, sizes=[2]),
                                           metadata=bearer(token))
                   for _pid, token in players[:2]]
        for (_pid, token), ticket in zip(players, tickets, strict=False):
            await until_status(stub, token, ticket.ticket_id, {MATCHED})
        lone = await stub.RequestMatch(ask(sizes=[5]), metadata=bearer(players[2][1]))
        await stub.CancelMatch(matchmaking_pb2.MatchTicketRequest(ticket_id=lone.ticket_id),
                               metadata=bearer(players[2][1]))
    page = await _scrape(port)
    assert _value(page, 'risk_match_tables_total{bots="no"}') == 1
    assert _value(page, 'risk_match_tables_total{bots="yes"}') == 0
    assert _value(page, "risk_match_wait_seconds_count") == 2
    assert _value(page, 'risk_match_closed_total{how="cancelled"}') == 1
    assert _value(page, 'risk_match_closed_total{how="expired"}') == 0


async def test_an_idle_matchmaker_asks_redis_little_and_a_request_wakes_it(
        make_service: ServiceFactory, make_redis_server: RedisServerFactory) -> None:
    """A matchmaker every 100 ms with nothing queued (the service's other timed work kept out):
    asking its three reads a pass, it would cost Redis 60 commands in 2 s; idle, it asks one
    EXISTS and pauses twice as long each time, so the 2 s see at most a handful. Then, once it
    has asked its fifth EXISTS (at 3 s: its next pause is 3.2 s), two players ask for a
    2-table: their requests wake it, and the table is formed well within that pause. (On a
    redis-server of its own: `shared` may be running on the session's, and it counts.)"""
    server = make_redis_server(appendfsync="everysec")
    redis_client = aioredis.Redis.from_url(server.url)
    before = await exists_calls(redis_client)
    service = make_service(server.url, **{**QUIET, "RISK_MATCH_INTERVAL_MS": "100"})
    async with redis_client, grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        players = [await new_player(stub) for _ in range(2)]
        await assert_no_commands(lambda: commands_processed(redis_client), 1, WINDOW_S,
                                 IDLE_BOUND)
        await wait_for("the matchmaker's fifth idle check",
                       lambda: exists_calls(redis_client, before + 5), timeout=10)
        asked = time.monotonic()
        tickets = [await stub.RequestMatch(ask(sizes=[2]), metadata=bearer(token))
                   for _pid, token in players]
        matched = [await until_status(stub, token, t.ticket_id, {MATCHED}, timeout=10)
                   for (_pid, token), t in zip(players, tickets, strict=True)]
        took = time.monotonic() - asked
        assert matched[0].game_id and {t.game_id for t in matched} == {matched[0].game_id}
        assert took < 1.5, f"the 2-table took {took:.2f} s to form after the requests"
    assert '"match_formed"' in service.logs()


async def exists_calls(client: aioredis.Redis, at_least: int = 0) -> int:
    """How many EXISTS Redis has served (0 until it has served `at_least`)."""
    stats = await client.info("commandstats")
    calls = int(stats.get("cmdstat_exists", {}).get("calls", 0))
    return calls if calls >= at_least else 0
