"""A tournament round through the real service on a real Redis: sixteen games with players and
bots created in one call, played to the end, and the results feed read across a restart."""

from __future__ import annotations

import asyncio
import collections

import grpc

from risk_client import RiskClient
from risk_proto.risk.v1 import lifecycle_pb2, service_pb2, tournament_pb2
from risk_service.operations.records import FINISHED
from risk_testing.harness import ServiceProcess
from tests.tournament.conftest import ServiceFactory
from tests.tournament.players import Stub, bot, play_seat, player, quick_options

LEVELS = (tournament_pb2.BOT_LEVEL_RANDOM, tournament_pb2.BOT_LEVEL_GREEDY,
          tournament_pb2.BOT_LEVEL_PLANNER)
FAST = {"RISK_SWEEP_INTERVAL_MS": "100", "RISK_RESULTS_SWEEP_MS": "300"}


def sixteen_games() -> tournament_pb2.CreateRoundRequest:
    """16 games of 3 seats: even games seat two players and a bot, odd ones a player and two
    bots, the bots' levels cycling."""
    request = tournament_pb2.CreateRoundRequest(
        request_id="round-1", tournament="spring-cup", round=1, options=quick_options())
    for g in range(16):
        seats = [player(f"p{g}a"), bot(LEVELS[g % 3])]
        seats.append(player(f"p{g}b") if g % 2 == 0 else bot(LEVELS[(g + 1) % 3]))
        request.games.add(seats=seats)
    return request


async def read_facts(stub: Stub, label: str, after_seq: int, until: collections.abc.Callable[
        [list[tournament_pb2.TournamentFact]], bool]) -> list[tournament_pb2.TournamentFact]:
    """Facts after `after_seq` until `until(facts)` holds."""
    facts: list[tournament_pb2.TournamentFact] = []
    call = stub.StreamResults(tournament_pb2.StreamResultsRequest(
        tournament=label, after_seq=after_seq))
    async for reply in call:
        facts.append(reply.fact)
        if until(facts):
            call.cancel()
            break
    return facts


def finished_games(facts: list[tournament_pb2.TournamentFact]) -> set[str]:
    return {f.game_id for f in facts if f.WhichOneof("kind") == "finished"}


async def test_round_of_sixteen_plays_out_and_the_feed_resumes_across_a_restart(
        start_service: ServiceFactory) -> None:
    """One CreateRound makes 16 games with player and bot seats; a retry returns the same
    games; every game is played to its end (bots by the service, players by their clients)
    while the service is killed and restarted; the results feed, read before the restart and
    resumed after it from the last seq, holds each game's created, started and finished facts
    once, in order, numbered 1, 2, 3 ... without a gap or a repeat."""
    service: ServiceProcess = start_service(**FAST)
    channel = grpc.aio.insecure_channel(service.target)
    stub = Stub(channel)
    request = sixteen_games()
    created = await stub.CreateRound(request)
    assert len(created.games) == 16 and created.host_token
    again = await stub.CreateRound(request)  # a retry: the same round, nothing new
    assert again == created
    listed = await stub.ListGames(service_pb2.ListGamesRequest(tournament="spring-cup",
                                                               round=1, page_size=50))
    assert sorted(g.game_id for g in listed.games) == sorted(g.game_id for g in created.games)
    for game, table in zip(created.games, request.games, strict=True):
        assert len(game.seed_commitment) == 32
        for token, seat in zip(game.seat_tokens, table.seats, strict=True):
            assert bool(token) == (seat.WhichOneof("occupant") == "player")
    summary = {g.game_id: g for g in listed.games}
    for game, table in zip(created.games, request.games, strict=True):
        shown = summary[game.game_id]
        assert (shown.tournament, shown.round) == ("spring-cup", 1)
        assert shown.seed_commitment == game.seed_commitment
        assert not shown.HasField("seed_reveal")
        assert list(shown.bot_levels) == [s.bot for s in table.seats]

    players = [
        asyncio.create_task(play_seat(channel, game.game_id, seat, token, entropy=g * 10 + seat))
        for g, game in enumerate(created.games)
        for seat, token in enumerate(game.seat_tokens) if token
    ]
    # the feed until half the games are over, then a crash of the service
    before = await read_facts(stub, "spring-cup", 0, lambda f: len(finished_games(f)) >= 8)
    service.restart()
    last = before[-1].seq
    after = await asyncio.wait_for(read_facts(
        stub, "spring-cup", last,
        lambda f: finished_games(before) | finished_games(f) == {g.game_id
                                                                for g in created.games}),
        timeout=180)
    finals = await asyncio.wait_for(asyncio.gather(*players), timeout=60)
    await channel.close()
    # a tournament server starting over with the SDK reads the same feed from the start
    async with RiskClient(service.target) as client:
        replayed = []
        async for fact in client.stream_results("spring-cup"):
            replayed.append(fact)
            if len(replayed) == len(before) + len(after):
                break

    facts = before + after
    assert replayed == facts
    assert [f.seq for f in facts] == list(range(1, len(facts) + 1))
    kinds: dict[str, list[str]] = collections.defaultdict(list)
    for fact in facts:
        kinds[fact.game_id].append(fact.WhichOneof("kind") or "")
        assert fact.round == 1
    assert set(kinds) == {g.game_id for g in created.games}
    for game_id, seen in kinds.items():
        assert seen == ["created", "started", "finished"], (game_id, seen)
    outcomes = {f.game_id: f.finished.outcome for f in facts if f.HasField("finished")}
    for final in finals:
        assert final.status == FINISHED
        assert outcomes[final.game_id] == final.outcome
    commitments = {f.game_id: f.created.seed_commitment for f in facts if f.HasField("created")}
    assert commitments == {g.game_id: g.seed_commitment for g in created.games}


async def test_a_seat_that_times_out_is_reported_timed_out_and_resigned(
        start_service: ServiceFactory) -> None:
    """A round on a clock with the FORFEIT policy: a player who never moves times out, which
    the feed reports as the seat's timeout (with its policy) and resignation, before the
    bots finish the game."""
    service = start_service(**FAST)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        created = await stub.CreateRound(tournament_pb2.CreateRoundRequest(
            request_id="late", tournament="clock-cup", round=4, options=quick_options(),
            clock=lifecycle_pb2.ClockOptions(decision_seconds=1,
                                             on_timeout=lifecycle_pb2.TIMEOUT_POLICY_FORFEIT),
            games=[tournament_pb2.RoundTable(seats=[bot(LEVELS[0]), player("sleepy"),
                                                    bot(LEVELS[2])])]))
        game_id = created.games[0].game_id
        facts = await asyncio.wait_for(read_facts(
            stub, "clock-cup", 0, lambda f: bool(finished_games(f))), timeout=120)
    assert [f.seq for f in facts] == list(range(1, len(facts) + 1))
    assert [f.WhichOneof("kind") for f in facts] == [
        "created", "started", "seat_timed_out", "seat_resigned", "finished"]
    assert {f.game_id for f in facts} == {game_id}
    timed_out, resigned, finished = facts[2], facts[3], facts[4]
    assert (timed_out.seat_timed_out.seat, timed_out.seat_timed_out.policy) == (
        1, lifecycle_pb2.TIMEOUT_POLICY_FORFEIT)
    assert resigned.seat_resigned.seat == 1
    assert timed_out.game_version == resigned.game_version < finished.game_version
    assert list(finished.finished.outcome.ranking)[-1] == 1  # out first, ranked last
