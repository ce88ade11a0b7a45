"""Game lifecycle through the public RPCs: start, cancel, reissue, resign, abandon, clocks,
bot takeover, spectator delay, retention and audit export, with real processes."""

from __future__ import annotations

import asyncio
import re
import time
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
import pytest
import redis.asyncio as aioredis

from risk_proto.risk.v1 import game_pb2, lifecycle_pb2, service_pb2, service_pb2_grpc
from risk_rules import audit, wire
from risk_rules.engine import LegalAction, get_ruleset
from risk_rules.engine.classic.model import ClassicView
from risk_service.operations.streams import BACKLOG_PAGE
from risk_service.redis_server import free_port
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import (
    bearer,
    classic_options,
    error_info,
    quiet_then_hang_up,
    rpc_error,
)
from tests.serving import module_service

Stub = service_pb2_grpc.RiskServiceStub
QUICK = {"RISK_SWEEP_INTERVAL_MS": "50"}


# one service for the tests that only play games of their own on it; a test that needs other
# settings, two processes, to kill one, or an empty Redis starts its own
lifecycle = module_service("service-lifecycle",
                           RISK_SWEEP_INTERVAL_MS=QUICK["RISK_SWEEP_INTERVAL_MS"])


@pytest.fixture
async def stub(lifecycle: ServiceProcess) -> AsyncIterator[Stub]:
    async with grpc.aio.insecure_channel(lifecycle.target) as channel:
        yield Stub(channel)


def _request(**fields: Any) -> service_pb2.CreateGameRequest:
    options = fields.pop("options", classic_options(players=3, auto_defend_max_dice=True))
    return service_pb2.CreateGameRequest(options=options, seed=fields.pop("seed", 17), **fields)


async def _game(stub: Stub, game_id: str, token: str | None = None) -> service_pb2.GetGameResponse:
    return await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                              metadata=bearer(token) if token else None)


async def _events(stub: Stub, game_id: str, token: str | None = None) -> list[game_pb2.Event]:
    """Every event so far (the stream's backlog), as `token`'s holder sees them."""
    last = (await _game(stub, game_id)).game.last_seq
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id),
                             metadata=bearer(token) if token else None)
    out = [(await asyncio.wait_for(call.read(), 10)).event for _ in range(last)]
    call.cancel()
    return out


def _kinds(events: list[game_pb2.Event]) -> list[str]:
    return [e.lifecycle.WhichOneof("kind") or "" for e in events
            if e.WhichOneof("variant") == "lifecycle"]


async def _bot_step(stub: Stub, game_id: str, tokens: list[str], entropy: int) -> None:
    """One move by whoever must decide, chosen by the built-in bot from the seat's view."""
    game = (await _game(stub, game_id, tokens[0])).game  # a seat sees whose decision it is
    seat = game.decision.seats[0]
    auth = bearer(tokens[seat])
    board = (await _game(stub, game_id, tokens[seat])).board
    legal = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(game_id=game_id),
                                        metadata=auth)
    view = wire.from_message(board.classic, ClassicView)
    options = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
               for e in legal.actions]
    action = get_ruleset("classic").bot_choose(view, options, entropy)
    await stub.SubmitAction(service_pb2.SubmitActionRequest(
        game_id=game_id, action=wire.action_to_proto("classic", action),
        expected_version=legal.version, request_id=f"step-{entropy}"), metadata=auth)


async def test_manual_start_waits_for_the_host(stub: Stub) -> None:
    """A manual-start game waits with every seat taken; only the host starts it."""
    created = await stub.CreateGame(_request(manual_start=True))
    game_id = created.game.game_id
    assert created.game.status == service_pb2.GAME_STATUS_WAITING
    early = await rpc_error(stub.StartGame(service_pb2.StartGameRequest(game_id=game_id),
                                           metadata=bearer(created.host_token)))
    assert error_info(early).reason == "SEATS_NOT_FILLED"
    tokens = [(await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=s)))
              .seat_token for s in range(3)]
    waiting = (await _game(stub, game_id)).game
    assert waiting.status == service_pb2.GAME_STATUS_WAITING and not waiting.decision.seats
    legal = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(game_id=game_id),
                                        metadata=bearer(tokens[0]))
    assert not legal.actions, "nobody may act before the start"
    refused = await rpc_error(stub.StartGame(service_pb2.StartGameRequest(game_id=game_id),
                                             metadata=bearer(tokens[0])))
    assert refused.code() == grpc.StatusCode.PERMISSION_DENIED
    assert error_info(refused).reason == "NOT_HOST"
    started = await stub.StartGame(service_pb2.StartGameRequest(game_id=game_id),
                                   metadata=bearer(created.host_token))
    assert started.game.status == service_pb2.GAME_STATUS_ACTIVE and started.game.decision.seats
    assert _kinds(await _events(stub, game_id))[-1] == "game_started"
    again = await rpc_error(stub.StartGame(service_pb2.StartGameRequest(game_id=game_id),
                                           metadata=bearer(created.host_token)))
    assert error_info(again).reason == "GAME_ALREADY_STARTED"


async def test_game_starts_when_the_last_seat_joins(stub: Stub) -> None:
    """Without manual_start the last JoinGame starts the game; joins are events."""
    created = await stub.CreateGame(_request())
    game_id = created.game.game_id
    for seat in range(3):
        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=seat,
                                                        display_name=f"p{seat}"))
    game = (await _game(stub, game_id)).game
    assert game.status == service_pb2.GAME_STATUS_ACTIVE
    assert [s.display_name for s in game.seats] == ["p0", "p1", "p2"]
    assert _kinds(await _events(stub, game_id)) == [
        "seat_joined", "seat_joined", "seat_joined", "game_started"]


async def test_host_cancels_a_waiting_game_only(stub: Stub) -> None:
    """CancelGame ends a waiting game with an event; a started game cannot be cancelled."""
    created = await stub.CreateGame(_request())
    game_id = created.game.game_id
    cancelled = await stub.CancelGame(service_pb2.CancelGameRequest(game_id=game_id),
                                      metadata=bearer(created.host_token))
    assert cancelled.game.status == service_pb2.GAME_STATUS_CANCELLED
    assert _kinds(await _events(stub, game_id)) == ["game_cancelled"]
    joined = await rpc_error(stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=0)))
    assert error_info(joined).reason == "GAME_OVER"
    running = await stub.CreateGame(_request(issue_seat_tokens=True))
    late = await rpc_error(stub.CancelGame(
        service_pb2.CancelGameRequest(game_id=running.game.game_id),
        metadata=bearer(running.host_token)))
    assert late.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error_info(late).reason == "GAME_ALREADY_STARTED"


async def test_reissued_token_replaces_the_lost_one(stub: Stub) -> None:
    """After ReissueSeatToken the old token is refused and the new one acts for the seat."""
    created = await stub.CreateGame(_request(issue_seat_tokens=True))
    game_id = created.game.game_id
    fresh = await stub.ReissueSeatToken(
        service_pb2.ReissueSeatTokenRequest(game_id=game_id, seat=1),
        metadata=bearer(created.host_token))
    old = await rpc_error(_game(stub, game_id, created.seat_tokens[1]))
    assert old.code() == grpc.StatusCode.UNAUTHENTICATED
    assert (await _game(stub, game_id, fresh.seat_token)).viewer_seat == 1
    assert "seat_token_reissued" in _kinds(await _events(stub, game_id))


async def test_resignations_end_the_game_for_the_last_seat(stub: Stub) -> None:
    """Resign through the RPC: pieces turn neutral; the last seat in wins by resignation."""
    created = await stub.CreateGame(_request(issue_seat_tokens=True))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    first = await stub.Resign(service_pb2.ResignRequest(game_id=game_id, request_id="r"),
                              metadata=bearer(tokens[2]))
    assert first.events[0].classic.player_resigned.seat == 2
    assert first.game.status == service_pb2.GAME_STATUS_ACTIVE
    again = await stub.Resign(service_pb2.ResignRequest(game_id=game_id, request_id="r"),
                              metadata=bearer(tokens[2]))
    assert again.version == first.version, "the same request id resigns once"
    last = await stub.Resign(service_pb2.ResignRequest(game_id=game_id),
                             metadata=bearer(tokens[0]))
    assert last.game.status == service_pb2.GAME_STATUS_FINISHED
    assert last.game.outcome.winner == 1 and last.game.outcome.reason == "resignation"


async def test_idle_game_is_abandoned(make_service: ServiceFactory, redis_client: object) -> None:
    """A game nobody acts in for RISK_ABANDON_AFTER_S is abandoned, with its event."""
    service = make_service(RISK_ABANDON_AFTER_S="1", **QUICK)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        created = await stub.CreateGame(_request(issue_seat_tokens=True))
        game_id = created.game.game_id
        for _ in range(100):
            game = (await _game(stub, game_id)).game
            if game.status == service_pb2.GAME_STATUS_ABANDONED:
                break
            await asyncio.sleep(0.05)
        assert game.status == service_pb2.GAME_STATUS_ABANDONED
        assert _kinds(await _events(stub, game_id))[-1] == "game_abandoned"


async def test_bot_takes_over_a_seat_that_times_out(stub: Stub) -> None:
    """With the BOT policy a timed-out seat is handed to the bot, which goes on playing it."""
    clock = lifecycle_pb2.ClockOptions(decision_seconds=1,
                                       on_timeout=lifecycle_pb2.TIMEOUT_POLICY_BOT)
    created = await stub.CreateGame(_request(issue_seat_tokens=True, clock=clock))
    game_id = created.game.game_id
    game = (await _game(stub, game_id)).game
    assert game.deadline_ms > 0
    sleeper = game.decision.seats[0]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        game = (await _game(stub, game_id)).game
        if game.bot_seats[sleeper] and game.decision.seats and \
                game.decision.seats[0] != sleeper:
            break
        await asyncio.sleep(0.1)
    assert game.bot_seats[sleeper]
    kinds = _kinds(await _events(stub, game_id))
    assert kinds.count("decision_timed_out") == 1 and "seat_handed_to_bot" in kinds
    assert "clock_started" in kinds


TIMED_GAMES = 6  # games timed out side by side: each deadline is a race the two sweepers may run
DECISION_S = 1


async def _until(condition: Callable[[], Awaitable[bool]], timeout: float, what: str) -> None:
    """Poll `condition` until it holds; fail naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        await asyncio.sleep(0.05)


async def _timeouts_in_each(client: aioredis.Redis, games: list[str], at_least: int) -> bool:
    """Every game's stream in Redis holds `at_least` DecisionTimedOut events."""
    for game_id in games:
        entries = await client.xrange(f"risk:g:{{{game_id}}}:ev")
        kinds = [game_pb2.Event.FromString(fields[b"e"]).lifecycle.WhichOneof("kind")
                 for _id, fields in entries]
        if kinds.count("decision_timed_out") < at_least:
            return False
    return True


def _decisions_timed_out(events: list[game_pb2.Event], allowed_ms: int) -> tuple[int, list[str]]:
    """Walk one game's stream: every ClockStarted opens a decision, and a DecisionTimedOut
    closes the open one. (timeouts seen, what is wrong): a decision timed out twice, before
    its start plus `allowed_ms`, for another seat, or with no decision open."""
    problems: list[str] = []
    started: game_pb2.Event | None = None
    timed_out: set[int] = set()  # seqs of the ClockStarted whose decision timed out
    timeouts = 0
    for event in events:
        kind = event.lifecycle.WhichOneof("kind") if event.WhichOneof("variant") == \
            "lifecycle" else None
        if kind == "clock_started":
            clock = event.lifecycle.clock_started
            if clock.deadline_ms != event.at_ms + allowed_ms:
                problems.append(f"seq {event.seq}: deadline {clock.deadline_ms} is not its "
                                f"start {event.at_ms} + {allowed_ms} ms")
            started = event
        elif kind == "decision_timed_out":
            timeouts += 1
            seat = event.lifecycle.decision_timed_out.seat
            if started is None:
                problems.append(f"seq {event.seq}: a timeout with no decision on the clock")
                continue
            clock = started.lifecycle.clock_started
            if started.seq in timed_out:
                problems.append(f"seq {event.seq}: the decision started at seq {started.seq} "
                                "timed out a second time")
            early = started.at_ms + allowed_ms - event.at_ms
            if early > 0:
                problems.append(f"seq {event.seq}: timed out {early} ms before its clock "
                                "allowed")
            if seat != clock.seat:
                problems.append(f"seq {event.seq}: seat {seat} timed out on seat "
                                f"{clock.seat}'s clock")
            timed_out.add(started.seq)
    return timeouts, problems


async def _metric(port: int, name: str) -> float:
    """One unlabelled counter from a process's /metrics page."""
    def scrape() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
            return str(reply.read().decode())
    page = await asyncio.to_thread(scrape)
    found = re.search(rf"^{name} ([0-9.e+]+)$", page, re.MULTILINE)
    assert found, f"{name} is not on the metrics page"
    return float(found.group(1))


async def test_timeout_applied_once_by_two_processes(
    make_service: ServiceFactory, redis_client: aioredis.Redis
) -> None:
    """Two sweeping processes, six timed games: each decision times out once, never before
    its start plus the allowed seconds, and the per-game lease keeps the two sweepers from
    both working on one deadline (no commit of theirs lost the version race)."""
    ports = [free_port(), free_port()]
    # sweeps 10 ms apart: the two processes find each deadline due within a commit's time of
    # each other, so without the lease they would both work on nearly every one
    services = [make_service(RISK_SWEEP_INTERVAL_MS="10", RISK_METRICS_PORT=str(port))
                for port in ports]
    async with grpc.aio.insecure_channel(services[0].target) as channel:
        stub = Stub(channel)
        clock = lifecycle_pb2.ClockOptions(decision_seconds=DECISION_S)
        created = await asyncio.gather(*(
            stub.CreateGame(_request(issue_seat_tokens=True, clock=clock, seed=17 + n))
            for n in range(TIMED_GAMES)))
    games = [reply.game.game_id for reply in created]
    await _until(lambda: _timeouts_in_each(redis_client, games, at_least=3), 30,
                 "three deadlines passed in each game, one after another")
    conflicts = [await _metric(port, "risk_commit_conflicts_total") for port in ports]
    for service in services:
        service.stop()  # no sweeper runs now: the streams and the logs are complete
    problems, counts = [], []
    for reply in created:
        game_id = reply.game.game_id
        events = [game_pb2.Event.FromString(fields[b"e"])
                  for _id, fields in await redis_client.xrange(f"risk:g:{{{game_id}}}:ev")]
        timeouts, wrong = _decisions_timed_out(events, DECISION_S * 1000)
        counts.append(timeouts)
        problems += [f"game {game_id}: {p}" for p in wrong]
        versions = [e.version for e in events if e.lifecycle.WhichOneof("kind") ==
                    "decision_timed_out"]
        if len(set(versions)) != len(versions):
            problems.append(f"game {game_id}: a version holds two timeouts")
    assert not problems, problems
    assert min(counts) >= 2, f"timeouts per game: {counts}"
    applied = sum(s.logs().count('"timeout_applied"') for s in services)
    assert applied == sum(counts), "a timeout was logged as applied that is not in the stream"
    assert conflicts == [0, 0], f"the sweepers raced for one deadline: {conflicts} conflicts"


async def test_killed_lease_holder_does_not_stop_the_timeout(
    make_service: ServiceFactory, redis_url: str, redis_client: aioredis.Redis
) -> None:
    """SIGKILL the process holding a game's lease just before its deadline: the other
    process applies the timeout once the lease lapses."""
    holder = make_service(**QUICK)
    other = make_service(**QUICK)
    async with grpc.aio.insecure_channel(other.target) as channel:
        stub = Stub(channel)
        clock = lifecycle_pb2.ClockOptions(decision_seconds=1)
        created = await stub.CreateGame(_request(issue_seat_tokens=True, clock=clock))
        game_id = created.game.game_id
        await redis_client.set(f"risk:g:{{{game_id}}}:lease", "holder", px=2000)
        holder.kill()
        start = (await _game(stub, game_id)).game.version
        await _until(lambda: _timeouts_in_each(redis_client, [game_id], at_least=1), 30,
                     "the other process applied the timeout")
        events = await _events(stub, game_id)
    timeouts = [e for e in events if e.lifecycle.WhichOneof("kind") == "decision_timed_out"]
    assert timeouts and timeouts[0].version == start + 1
    assert timeouts[0].at_ms >= created.game.created_at_ms + 1900, "not before the lease lapsed"


async def test_spectator_delay_holds_events_back(stub: Stub) -> None:
    """A spectator of a 5-event-delay game never gets an event before 5 later ones exist, and
    neither GetGame nor ListGames tells it the live version, seq or decision; players are
    not delayed."""
    created = await stub.CreateGame(_request(issue_seat_tokens=True, spectator_delay_events=5))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    spectator = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id))
    player = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id),
                               metadata=bearer(tokens[0]))
    received: list[int] = []
    newest = 0

    async def watch() -> None:
        while True:
            message = await spectator.read()
            if message is grpc.aio.EOF:
                return
            received.append(message.event.seq)

    watcher = asyncio.create_task(watch())
    for step in range(40):
        await _bot_step(stub, game_id, tokens, step)
        newest = (await _game(stub, game_id, tokens[0])).game.last_seq
        await asyncio.sleep(0.01)
    player_seen = [(await asyncio.wait_for(player.read(), 5)).event.seq for _ in range(newest)]

    async def released() -> bool:  # every event but the newest five
        return len(received) >= newest - 5

    await _until(released, 10, f"the spectator got events 1-{newest - 5}")
    await asyncio.sleep(0.3)  # a moment in which no held-back event may arrive
    watcher.cancel()
    player.cancel()
    assert player_seen == list(range(1, newest + 1)), "players see every event at once"
    assert received, "the spectator received events"
    assert received == list(range(1, len(received) + 1))
    assert received[-1] <= newest - 5, "the newest five events are still held back"
    watched = await _game(stub, game_id)
    assert not watched.board.WhichOneof("variant"), "no live board for delayed spectators"
    listed = next(g for g in (await stub.ListGames(service_pb2.ListGamesRequest())).games
                  if g.game_id == game_id)
    for summary in (watched.game, listed):
        # nothing of the live position: not its version, seq, decision or clock
        assert (summary.version, summary.last_seq, summary.updated_at_ms) == (0, 0, 0)
        assert not summary.HasField("decision") and not summary.deadline_ms
        assert summary.status == service_pb2.GAME_STATUS_ACTIVE
        assert summary.spectator_delay_events == 5
    seated = (await _game(stub, game_id, tokens[1])).game
    assert seated.last_seq == newest and seated.HasField("decision")


async def test_delayed_spectator_joining_late_gets_the_backlog_less_the_newest(stub: Stub
                                                                             ) -> None:
    """A delayed spectator who joins a game whose backlog spans several reads of the store
    (BACKLOG_PAGE events each) gets all of it but the newest `spectator_delay_events`."""
    created = await stub.CreateGame(_request(issue_seat_tokens=True, spectator_delay_events=5))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    step = 0
    while (newest := (await _game(stub, game_id, tokens[0])).game.last_seq) <= 2 * BACKLOG_PAGE + 5:
        await _bot_step(stub, game_id, tokens, step)
        step += 1
    spectator = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id))
    got = [(await asyncio.wait_for(spectator.read(), 10)).event.seq
           for _ in range(newest - 5)]
    quiet = await quiet_then_hang_up(spectator)
    assert got == list(range(1, newest - 4))
    assert quiet, "an event among the newest five was let through"


async def test_retention_leaves_nothing_behind(
    make_service: ServiceFactory, redis_client: aioredis.Redis
) -> None:
    """A game over for longer than its retention is gone from Redis: no key, no index entry."""
    service = make_service(RISK_RETENTION_S="1", **QUICK)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        keep = await stub.CreateGame(_request())
        created = await stub.CreateGame(_request(issue_seat_tokens=True))
        game_id = created.game.game_id
        await stub.Resign(service_pb2.ResignRequest(game_id=game_id),
                          metadata=bearer(created.seat_tokens[0]))
        await stub.Resign(service_pb2.ResignRequest(game_id=game_id),
                          metadata=bearer(created.seat_tokens[1]))
        assert (await _game(stub, game_id)).game.status == service_pb2.GAME_STATUS_FINISHED
        assert await redis_client.keys(f"*{game_id}*")

        async def left() -> tuple[list[Any], list[Any]]:
            """(keys, index entries) naming the game."""
            keys = [k for k in await redis_client.keys("*") if game_id.encode() in k]
            members = []
            for key in await redis_client.keys("risk:*"):
                if await redis_client.type(key) == b"zset":
                    members += [m for m in await redis_client.zrange(key, 0, -1)
                                if game_id.encode() in m]
            return keys, members

        async def expired() -> bool:
            return await left() == ([], [])

        await _until(expired, 10, "the finished game expired, keys and index entries")
        leftovers, members = await left()
        listed = await stub.ListGames(service_pb2.ListGamesRequest())
    assert leftovers == [] and members == []
    assert [g.game_id for g in listed.games] == [keep.game.game_id]
    gone = await rpc_error(stub_get(service, game_id))
    assert gone.code() == grpc.StatusCode.NOT_FOUND


async def stub_get(service: ServiceProcess, game_id: str) -> Any:
    async with grpc.aio.insecure_channel(service.target) as channel:
        return await Stub(channel).GetGame(service_pb2.GetGameRequest(game_id=game_id))


async def test_export_verifies_and_tampering_is_caught(stub: Stub) -> None:
    """ExportGame after the end replays through `verify`; altering an action or an event
    makes verification fail; before the end nobody gets the seed."""
    created = await stub.CreateGame(_request(issue_seat_tokens=True, seed=99))
    game_id, tokens = created.game.game_id, list(created.seat_tokens)
    for step in range(30):
        await _bot_step(stub, game_id, tokens, step)
    early = await rpc_error(stub.ExportGame(service_pb2.ExportGameRequest(game_id=game_id),
                                            metadata=bearer(created.host_token)))
    assert error_info(early).reason == "GAME_NOT_OVER"
    for seat in (0, 1):
        await stub.Resign(service_pb2.ResignRequest(game_id=game_id), metadata=bearer(tokens[seat]))
    spectator = await rpc_error(stub.ExportGame(service_pb2.ExportGameRequest(game_id=game_id)))
    assert spectator.code() == grpc.StatusCode.UNAUTHENTICATED
    export = await stub.ExportGame(service_pb2.ExportGameRequest(game_id=game_id),
                                   metadata=bearer(tokens[2]))
    assert export.seed == 99 and export.outcome.winner == 2
    verified = audit.verify(export)
    assert verified.actions == 30 and verified.events == len(export.events)

    altered_action = service_pb2.GameExport()
    altered_action.CopyFrom(export)
    entry = next(e for e in altered_action.log if e.WhichOneof("entry") == "action")
    kind = entry.action.classic.WhichOneof("kind")
    field = getattr(entry.action.classic, kind)
    field.territory = (field.territory + 1) % 42
    with pytest.raises(audit.VerificationError):
        audit.verify(altered_action)

    altered_event = service_pb2.GameExport()
    altered_event.CopyFrom(export)
    target = next(e for e in altered_event.events if e.classic.WhichOneof("kind") ==
                  "territory_claimed")
    target.classic.territory_claimed.territory = (target.classic.territory_claimed.territory
                                                  + 1) % 42
    with pytest.raises(audit.VerificationError, match="hash chain"):
        audit.verify(altered_event)
    altered_event.chain[:] = audit.hash_chain(game_id, altered_event.events)
    with pytest.raises(audit.VerificationError, match="differs"):
        audit.verify(altered_event)
