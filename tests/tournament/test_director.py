"""Tournament events run by the service's director, on real service processes and Redis.

The event: 12 players with player tokens, 3-player tables, 2 Swiss-like rounds and a final.
Nobody moves: the event's clock hands a seat to the bot after a one-second decision
(TIMEOUT_POLICY_BOT), so the bots play every game in accelerated time. The process that
seats round 1 is killed with SIGKILL mid-event; a second process takes the event over once
the lease lapses. Checked against what the service stored, independently of the director:
every round seated once (the tournament's game lists hold exactly the rounds' tables), every
game over, and the standings equal to points computed here from each game's own outcome.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
import time
from fractions import Fraction

import grpc
import pytest
import redis.asyncio

from risk_proto.risk.v1 import (
    common_pb2,
    events_pb2,
    lifecycle_pb2,
    players_pb2,
    ratings_pb2,
    service_pb2,
    service_pb2_grpc,
    tournament_pb2,
)
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import bearer, error_info
from tests.conftest import RedisServerFactory
from tests.serving import module_service
from tests.tournament.conftest import ServiceFactory
from tests.tournament.players import quick_options
from tests.tournament.test_results_live import (
    IDLE_BOUND,
    QUIET,
    WINDOW_S,
    assert_no_commands,
    commands_processed,
)

FAST = {"RISK_SWEEP_INTERVAL_MS": "100", "RISK_RESULTS_SWEEP_MS": "300",
        "RISK_EVENT_DIRECTOR_MS": "100", "RISK_EVENT_LEASE_MS": "1500",
        "RISK_BOT_ONLY_MOVE_MS": "0"}
Stub = service_pb2_grpc.RiskServiceStub
# One service for the module's tests that run events of their own to the end (or refuse
# them); a test that kills the director's process, or that counts Redis' commands, starts its
# own, its keys under a prefix of its own (no test here flushes Redis under the shared one).
PREFIX = "tournament-director"
director = module_service(PREFIX, **FAST)


def event_request(label: str, **fields: object) -> events_pb2.CreateEventRequest:
    request = events_pb2.CreateEventRequest(
        event=label, format=events_pb2.EVENT_FORMAT_SWISS, rounds=2, final=True,
        options=quick_options(max_turns=2),
        clock=lifecycle_pb2.ClockOptions(decision_seconds=1,
                                         on_timeout=lifecycle_pb2.TIMEOUT_POLICY_BOT))
    for name, value in fields.items():
        if isinstance(value, events_pb2.EventEntry):
            getattr(request, name).CopyFrom(value)
        else:
            setattr(request, name, value)
    return request


async def players(stub: Stub, count: int) -> list[tuple[str, str]]:
    """`count` new players: (player id, token)."""
    out = []
    for _ in range(count):
        issued = await stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest(), timeout=10)
        out.append((issued.player_id, issued.token))
    return out


async def feed_until_final(stub: Stub, label: str) -> list[tournament_pb2.TournamentFact]:
    """The results feed's event facts (no game id), read until the final standings."""
    facts = []

    async def read() -> None:
        async for reply in stub.StreamResults(
                tournament_pb2.StreamResultsRequest(tournament=label)):
            if reply.fact.game_id:
                continue
            facts.append(reply.fact)
            if reply.fact.WhichOneof("kind") == "standings" and reply.fact.standings.final:
                return

    await asyncio.wait_for(read(), 30)
    return facts


async def listed(stub: Stub, request: service_pb2.ListGamesRequest
                 ) -> list[service_pb2.GameSummary]:
    """Every page of a ListGames (a page may hold fewer games than asked while more follow)."""
    games: list[service_pb2.GameSummary] = []
    while True:
        page = await stub.ListGames(request, timeout=10)
        games.extend(page.games)
        if not page.next_page_token:
            return games
        request.page_token = page.next_page_token


async def wait_for(stub: Stub, label: str, done: object, timeout_s: float
                   ) -> events_pb2.TournamentEvent:
    """GetEvent until `done(event)` (polled, bounded); a transient UNAVAILABLE is retried."""
    deadline = time.monotonic() + timeout_s
    event = None
    while time.monotonic() < deadline:
        try:
            event = await stub.GetEvent(events_pb2.GetEventRequest(event=label), timeout=5)
        except grpc.aio.AioRpcError as exc:
            if exc.code() != grpc.StatusCode.UNAVAILABLE:
                raise
        else:
            if done(event):  # type: ignore[operator]
                return event
        await asyncio.sleep(0.1)
    raise AssertionError(f"event {label} not there in {timeout_s} s: {event}")


@pytest.mark.parametrize(("entrants_count", "table", "rounds"), [(12, 3, 2), (48, 4, 4)],
                         ids=["12-players", "48-players"])
async def test_event_survives_a_killed_director(
    make_service: ServiceFactory, entrants_count: int, table: int, rounds: int
) -> None:
    """N players, tables of T, R Swiss rounds + a final; the director's process killed -9
    after round 1 is seated: every round seated once, no game missing, standings as computed
    here (the issue's event is 48 players, 4 rounds of 4-player tables and a final)."""
    own = {"RISK_KEY_PREFIX": f"{PREFIX}-killed-{entrants_count}", **FAST}
    first = make_service(**own)
    organiser = bearer(secrets.token_urlsafe(16))
    label = "spring-open"
    async with grpc.aio.insecure_channel(first.target) as channel:
        stub = Stub(channel)
        entrants = await players(stub, entrants_count)
        request = event_request(label, rounds=rounds)
        request.options.CopyFrom(quick_options(players=table, max_turns=2))
        await stub.CreateEvent(request, metadata=organiser, timeout=10)
        for number, (_player, token) in enumerate(entrants):
            await stub.RegisterEvent(events_pb2.RegisterEventRequest(
                event=label, name=f"player-{number}"), metadata=bearer(token), timeout=10)
        started = await stub.StartEvent(events_pb2.StartEventRequest(event=label),
                                        metadata=organiser, timeout=10)
        assert started.status == events_pb2.EVENT_STATUS_RUNNING
        assert len(started.players) == entrants_count
        seated = await wait_for(stub, label, lambda e: e.rounds and e.rounds[0].seated_at_ms,
                                30)
    tables = entrants_count // table
    assert [len(t.players) for t in seated.rounds[0].tables] == [table] * tables

    second = make_service(**own)
    first.kill()  # the only process, so the director of round 1: no graceful anything
    async with grpc.aio.insecure_channel(second.target) as channel:
        stub = Stub(channel)
        event = await wait_for(stub, label,
                               lambda e: e.status == events_pb2.EVENT_STATUS_FINISHED, 150)
        assert [r.number for r in event.rounds] == list(range(1, rounds + 2))
        assert [r.final for r in event.rounds] == [False] * rounds + [True]
        # every round's games, as the tournament's lists hold them: exactly the tables
        recorded = {r.number: sorted(t.game_id for t in r.tables) for r in event.rounds}
        listed_all = await listed(stub, service_pb2.ListGamesRequest(tournament=label))
        assert sorted(g.game_id for g in listed_all) == sorted(
            itertools.chain.from_iterable(recorded.values()))
        outcomes: dict[str, list[int]] = {}
        for number, game_ids in recorded.items():
            in_round = await listed(stub, service_pb2.ListGamesRequest(tournament=label,
                                                                       round=number))
            assert sorted(g.game_id for g in in_round) == game_ids, number
            for game in in_round:
                assert game.status == service_pb2.GAME_STATUS_FINISHED, game.game_id
                outcomes[game.game_id] = list(game.outcome.ranking)
        assert len(outcomes) == tables * rounds + 1
        # the feed: each round seated once, standings after each round, then the final ones
        event_facts = await feed_until_final(stub, label)
    seated_facts = [f for f in event_facts if f.WhichOneof("kind") == "round_seated"]
    assert [f.round for f in seated_facts] == list(range(1, rounds + 2))
    assert [sorted(t.game_id for t in f.round_seated.tables) for f in seated_facts] == [
        recorded[n] for n in range(1, rounds + 2)]
    standings_facts = [f for f in event_facts if f.WhichOneof("kind") == "standings"]
    assert [(f.round, f.standings.final) for f in standings_facts] == [
        *((n, False) for n in range(1, rounds + 2)), (rounds + 1, True)]
    assert [line.player_id for line in standings_facts[-1].standings.lines] == [
        line.player_id for line in event.standings]

    # independently: points per player from each game's own outcome, Swiss rounds only
    points: dict[str, Fraction] = {p: Fraction(0) for p, _ in entrants}
    met: set[frozenset[str]] = set()
    for round_ in event.rounds[:rounds]:
        for played in round_.tables:
            ranking = outcomes[played.game_id]
            size = len(played.players)
            for place, seat in enumerate(ranking, start=1):
                points[played.players[seat]] += Fraction(size - place, size - 1)
            for a, b in itertools.combinations(played.players, 2):
                pair = frozenset((a, b))
                assert pair not in met, f"{a} and {b} met twice in the Swiss rounds"
                met.add(pair)
    final = event.rounds[rounds].tables[0]
    finalists = [final.players[seat] for seat in outcomes[final.game_id]]
    standings = [line.player_id for line in event.standings]
    assert standings[:table] == finalists
    assert min(points[p] for p in finalists) >= max(points[p] for p in standings[table:])
    rest = [points[p] for p in standings[table:]]
    assert rest == sorted(rest, reverse=True)
    for line in event.standings:
        assert Fraction(line.points) == points[line.player_id], line


async def test_event_calls_refuse_what_they_must(director: ServiceProcess) -> None:
    """Registration needs a player token and an open event; the allow-list, the cap, the
    rating range, the organiser's start and an unknown event get their reasons; a repeated
    create is the same."""
    service = director
    organiser = bearer(secrets.token_urlsafe(16))
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        (alice, alice_token), (bob, bob_token), (_carol, carol_token) = await players(stub, 3)
        request = event_request("cup", entry=events_pb2.EventEntry(allow=[alice, bob], cap=1))
        created = await stub.CreateEvent(request, metadata=organiser, timeout=10)
        again = await stub.CreateEvent(request, metadata=organiser, timeout=10)
        assert again.event == created.event == "cup" and again.version == created.version
        refusals = [
            (stub.CreateEvent(event_request("cup", rounds=3), metadata=organiser),
             "REQUEST_ID_REUSED"),
            (stub.CreateEvent(event_request("bad", rounds=0), metadata=organiser),
             "MALFORMED_REQUEST"),
            (stub.CreateEvent(event_request("ko", format=events_pb2.EVENT_FORMAT_KNOCKOUT,
                                            late_entries=True), metadata=organiser),
             "MALFORMED_REQUEST"),
            (stub.RegisterEvent(events_pb2.RegisterEventRequest(event="cup")),
             "MISSING_CREDENTIALS"),
            (stub.RegisterEvent(events_pb2.RegisterEventRequest(event="cup"),
                                metadata=bearer(carol_token)), "NOT_ELIGIBLE"),
            (stub.GetEvent(events_pb2.GetEventRequest(event="nope")), "TOURNAMENT_NOT_FOUND"),
        ]
        for call, reason in refusals:
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await call
            assert error_info(caught.value).reason == reason
        await stub.RegisterEvent(events_pb2.RegisterEventRequest(event="cup"),
                                 metadata=bearer(alice_token), timeout=10)
        with pytest.raises(grpc.aio.AioRpcError) as full:
            await stub.RegisterEvent(events_pb2.RegisterEventRequest(event="cup"),
                                     metadata=bearer(bob_token), timeout=10)
        assert full.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert error_info(full.value).reason == "EVENT_FULL"
        with pytest.raises(grpc.aio.AioRpcError) as not_owner:
            await stub.StartEvent(events_pb2.StartEventRequest(event="cup"),
                                  metadata=bearer("someone-else"), timeout=10)
        assert error_info(not_owner.value).reason == "NOT_TOURNAMENT_OWNER"
        with pytest.raises(grpc.aio.AioRpcError) as too_few:
            await stub.StartEvent(events_pb2.StartEventRequest(event="cup"),
                                  metadata=organiser, timeout=10)
        assert error_info(too_few.value).reason == "SEATS_NOT_FILLED"
        # a knockout of 6 at tables of 3 would end with a final of 2: refused at the start
        await stub.CreateEvent(event_request("ko6", format=events_pb2.EVENT_FORMAT_KNOCKOUT),
                               metadata=organiser, timeout=10)
        extra = await players(stub, 6)
        for _player, token in extra:
            await stub.RegisterEvent(events_pb2.RegisterEventRequest(event="ko6"),
                                     metadata=bearer(token), timeout=10)
        with pytest.raises(grpc.aio.AioRpcError) as short_final:
            await stub.StartEvent(events_pb2.StartEventRequest(event="ko6"),
                                  metadata=organiser, timeout=10)
        assert error_info(short_final.value).reason == "SEATS_NOT_FILLED"
        assert "final of 2" in (short_final.value.details() or "")
        shown = await stub.GetEvent(events_pb2.GetEventRequest(event="cup"), timeout=10)
        assert [p.player_id for p in shown.players] == [alice]
        assert shown.status == events_pb2.EVENT_STATUS_REGISTRATION
        # by rating: a new player's displayed rating is 0 (mu 25 - 3 sigma 25/3)
        await stub.CreateEvent(event_request("rated-up", entry=events_pb2.EventEntry(
            min_rating=10)), metadata=organiser, timeout=10)
        with pytest.raises(grpc.aio.AioRpcError) as low:
            await stub.RegisterEvent(events_pb2.RegisterEventRequest(event="rated-up"),
                                     metadata=bearer(bob_token), timeout=10)
        assert error_info(low.value).reason == "NOT_ELIGIBLE"
        assert "yours is 0.0" in (low.value.details() or "")
        await stub.CreateEvent(event_request("rated-down", entry=events_pb2.EventEntry(
            max_rating=10)), metadata=organiser, timeout=10)
        joined = await stub.RegisterEvent(events_pb2.RegisterEventRequest(event="rated-down"),
                                          metadata=bearer(bob_token), timeout=10)
        assert [p.player_id for p in joined.players] == [bob]


async def test_knockout_event_to_its_final_with_a_withdrawal(
    director: ServiceProcess,
) -> None:
    """9 players at 3-seat tables, table winners through: 3 tables, then a final of the 3
    winners; a player who withdraws after the start is seated in no later round but ranked."""
    service = director
    organiser = bearer(secrets.token_urlsafe(16))
    label = "knock"
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        entrants = await players(stub, 9)
        request = event_request(label, format=events_pb2.EVENT_FORMAT_KNOCKOUT, rounds=0,
                                final=False)
        await stub.CreateEvent(request, metadata=organiser, timeout=10)
        for number, (_player, token) in enumerate(entrants):
            await stub.RegisterEvent(events_pb2.RegisterEventRequest(
                event=label, name=f"k{number}"), metadata=bearer(token), timeout=10)
        await stub.StartEvent(events_pb2.StartEventRequest(event=label), metadata=organiser,
                              timeout=10)
        first = await wait_for(stub, label, lambda e: e.rounds and e.rounds[0].seated_at_ms,
                               30)
        # withdraws while round 1 is played: if they win their table, the next player
        # of that table goes through instead
        quitter = first.rounds[0].tables[0].players[0]
        token = dict(entrants)[quitter]
        left = await stub.WithdrawEvent(events_pb2.WithdrawEventRequest(event=label),
                                        metadata=bearer(token), timeout=10)
        assert [p.withdrawn for p in left.players if p.player_id == quitter] == [True]
        event = await wait_for(stub, label,
                               lambda e: e.status == events_pb2.EVENT_STATUS_FINISHED, 90)
    assert [(r.number, r.final, len(r.tables)) for r in event.rounds] == [
        (1, False, 3), (2, True, 1)]
    final = event.rounds[1].tables[0]
    winners = []
    for table in event.rounds[0].tables:
        ranked = [table.players[s] for s in table.ranking]
        winners.append(next(p for p in ranked if p != quitter))
    assert sorted(final.players) == sorted(winners)
    standings = [line.player_id for line in event.standings]
    assert standings[:3] == [final.players[s] for s in final.ranking]
    assert quitter in standings and quitter not in final.players


async def test_leftovers_late_entry_and_duplicate_rounds(director: ServiceProcess) -> None:
    """7 players at tables of 4: round 1 is a table of 4 and one of 3 (each its own game
    size); an 8th player registers late and is seated in round 2 (two tables of 4); every
    round is duplicate (the games' created facts say so)."""
    service = director
    organiser = bearer(secrets.token_urlsafe(16))
    label = "late-cup"
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        entrants = await players(stub, 8)
        request = event_request(label, duplicate=True, late_entries=True)
        request.options.CopyFrom(quick_options(players=4, max_turns=2))
        await stub.CreateEvent(request, metadata=organiser, timeout=10)
        for number, (_player, token) in enumerate(entrants[:7]):
            await stub.RegisterEvent(events_pb2.RegisterEventRequest(
                event=label, name=f"e{number}"), metadata=bearer(token), timeout=10)
        await stub.StartEvent(events_pb2.StartEventRequest(event=label), metadata=organiser,
                              timeout=10)
        await wait_for(stub, label, lambda e: e.rounds and e.rounds[0].seated_at_ms, 30)
        late_id, late_token = entrants[7]
        await stub.RegisterEvent(events_pb2.RegisterEventRequest(event=label, name="late"),
                                 metadata=bearer(late_token), timeout=10)
        event = await wait_for(stub, label,
                               lambda e: e.status == events_pb2.EVENT_STATUS_FINISHED, 120)
        facts = []
        async for reply in stub.StreamResults(
                tournament_pb2.StreamResultsRequest(tournament=label), timeout=10):
            facts.append(reply.fact)
            if reply.fact.WhichOneof("kind") == "standings" and reply.fact.standings.final:
                break
    sizes = [[len(t.players) for t in r.tables] for r in event.rounds]
    assert sizes == [[4, 3], [4, 4], [4]]
    assert all(late_id not in t.players for t in event.rounds[0].tables)
    assert any(late_id in t.players for t in event.rounds[1].tables)
    created = {f.game_id: f.created for f in facts if f.WhichOneof("kind") == "created"}
    assert len(created) == 5
    assert all(c.duplicate for c in created.values())
    small = event.rounds[0].tables[1]
    assert len(created[small.game_id].players) == 3  # a 3-player game, not a 4-seat one
    late_line = next(line for line in event.standings if line.player_id == late_id)
    assert late_line.played >= 1


async def test_a_rated_event_rates_its_games_once_at_the_end(
    director: ServiceProcess,
) -> None:
    """3 players, one round and a final, rated: nobody's rating moves while it is played;
    once it is over each player has 2 rated games (the round's and the final's), each the
    event's game."""
    service = director
    organiser = bearer(secrets.token_urlsafe(16))
    label = "rated-cup"
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        entrants = await players(stub, 3)
        await stub.CreateEvent(event_request(label, rounds=1, rated=True),
                               metadata=organiser, timeout=10)
        for number, (_player, token) in enumerate(entrants):
            await stub.RegisterEvent(events_pb2.RegisterEventRequest(
                event=label, name=f"r{number}"), metadata=bearer(token), timeout=10)
        await stub.StartEvent(events_pb2.StartEventRequest(event=label), metadata=organiser,
                              timeout=10)
        seated = await wait_for(stub, label, lambda e: e.rounds and e.rounds[0].over, 60)
        first_game = seated.rounds[0].tables[0].game_id
        before = await stub.GetRating(ratings_pb2.GetRatingRequest(
            player_id=entrants[0][0], variant=common_pb2.VARIANT_CLASSIC), timeout=10)
        still = await stub.GetEvent(events_pb2.GetEventRequest(event=label), timeout=10)
        if still.status == events_pb2.EVENT_STATUS_RUNNING:  # read while it was not over
            assert before.rating.games == 0  # a round over rates nothing yet
        event = await wait_for(stub, label,
                               lambda e: e.status == events_pb2.EVENT_STATUS_FINISHED, 60)
        games = {event.rounds[0].tables[0].game_id, event.rounds[1].tables[0].game_id}
        for player_id, _token in entrants:
            rating = await stub.GetRating(ratings_pb2.GetRatingRequest(
                player_id=player_id, variant=common_pb2.VARIANT_CLASSIC, page_size=10),
                timeout=10)
            assert rating.rating.games == 2, rating
            assert {h.game_id for h in rating.history} == games
        assert first_game in games


async def test_an_idle_director_reads_little_and_a_start_wakes_it(
    make_service: ServiceFactory, make_redis_server: RedisServerFactory,
) -> None:
    """A director every 100 ms with no event running (the service's other timed work kept out):
    reading the running list each pass, it would cost Redis 20 commands in 2 s; idle, its pause
    doubles each time, so the 2 s see at most a handful. Once it has read the list a fifth time
    (at 3 s: its next pause is 3.2 s), an event of three players is started through the
    process: the start wakes the director, and round 1 is seated well within that pause.
    (On a redis-server of its own, as the session's: the commands counted are its process's
    alone, whatever the module's shared service does meanwhile.)"""
    server = make_redis_server(appendfsync="everysec")
    redis_client = redis.asyncio.Redis.from_url(server.url)
    before = await smembers_calls(redis_client)
    service = make_service(server.url, **{**QUIET, "RISK_EVENT_DIRECTOR_MS": "100",
                                          "RISK_EVENT_LEASE_MS": "1500",
                                          "RISK_BOT_ONLY_MOVE_MS": "0"})
    organiser = bearer(secrets.token_urlsafe(16))
    label = "idle-cup"
    async with redis_client, grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        entrants = await players(stub, 3)
        request = event_request(label, rounds=1, final=False)
        request.options.CopyFrom(quick_options(players=3, max_turns=2))
        await stub.CreateEvent(request, metadata=organiser, timeout=10)
        for number, (_player, token) in enumerate(entrants):
            await stub.RegisterEvent(events_pb2.RegisterEventRequest(
                event=label, name=f"idle-{number}"), metadata=bearer(token), timeout=10)
        await assert_no_commands(lambda: commands_processed(redis_client), 1, WINDOW_S,
                                 IDLE_BOUND)
        deadline = time.monotonic() + 10
        while await smembers_calls(redis_client) < before + 5:
            assert time.monotonic() < deadline, "the director read the running list < 5 times"
            await asyncio.sleep(0.05)
        asked = time.monotonic()
        await stub.StartEvent(events_pb2.StartEventRequest(event=label), metadata=organiser,
                              timeout=10)
        await wait_for(stub, label, lambda e: e.rounds and e.rounds[0].seated_at_ms, 10)
        took = time.monotonic() - asked
    assert took < 1.5, f"round 1 was seated {took:.2f} s after the start"


async def smembers_calls(client: redis.asyncio.Redis) -> int:
    stats = await client.info("commandstats")
    return int(stats.get("cmdstat_smembers", {}).get("calls", 0))
