"""The results feed's crash safety, with a GameService in this process on the real Redis: a
fact whose commit landed but whose copy to the feed never ran (the process died in between)
is copied by the sweeper, once, however often the copy is repeated."""

from __future__ import annotations

import collections
import time
from collections.abc import AsyncIterator

import pytest
import redis.asyncio

from risk_proto.risk.v1 import service_pb2, tournament_pb2
from risk_service.operations import GameService
from risk_service.operations.identity import ANONYMOUS, Caller
from risk_service.store.game_store import GameStore
from risk_service.store.keys import Keys
from risk_testing.inprocess import in_process_hub
from tests.tournament.players import bot, player, quick_options


async def feed(games: GameService, label: str) -> list[tournament_pb2.TournamentFact]:
    out = []
    for seq, data in await games.tournaments.read_feed(label, 0, 1000):
        fact = tournament_pb2.TournamentFact.FromString(data)
        fact.seq = seq
        out.append(fact)
    return out


@pytest.fixture
async def games(redis_client: redis.asyncio.Redis, redis_url: str
                ) -> AsyncIterator[GameService]:
    """A GameService in this process on the freshly flushed session Redis."""
    keys = Keys()
    service = GameService(GameStore(redis_client, keys),
                          in_process_hub(redis_client, keys, redis_url),
                          clock_ms=lambda: int(time.time() * 1000))
    yield service
    await service.hub.close()


async def test_a_fact_left_uncopied_by_a_crash_reaches_the_feed_once(games: GameService
                                                                     ) -> None:
    """Resign commits with the copy step gone (as if the process died right after the
    commit): the game's fact is stored with the game but not in the feed; the sweeper copies
    it; repeated sweeps and copies add nothing; the feed stays numbered without gaps."""
    request = tournament_pb2.CreateRoundRequest(
        request_id="r", tournament="crash-cup", round=3, options=quick_options(),
        games=[tournament_pb2.RoundTable(seats=[player("ann"), player("bob"),
                                                bot(tournament_pb2.BOT_LEVEL_RANDOM)])])
    created = await games.rounds.create(request, ANONYMOUS)
    game_id = created.games[0].game_id
    assert [f.WhichOneof("kind") for f in await feed(games, "crash-cup")] == [
        "created", "started"]

    class Dead:
        """The process after the write: nothing copies a commit's facts."""

        async def sync_after_commit(self, game_id: str, label: str) -> None:
            pass

    games.effects.facts = Dead()  # the crash: commits land, their CopyFacts is never run
    await games.moves.resign(service_pb2.ResignRequest(game_id=game_id, request_id="bye"),
    Caller.of(created.games[0].seat_tokens[0]))
    assert len(await feed(games, "crash-cup")) == 2  # the fact is with the game only
    assert await games.tournaments.open_games("crash-cup") == [game_id]

    assert await games.results.sweep() == 1
    assert await games.results.sweep() == 0
    assert await games.results.sync(game_id, "crash-cup") == 0
    facts = await feed(games, "crash-cup")
    assert [f.seq for f in facts] == [1, 2, 3]
    resigned = facts[2]
    assert resigned.WhichOneof("kind") == "seat_resigned"
    assert (resigned.game_id, resigned.round, resigned.seat_resigned.seat) == (game_id, 3, 0)


async def test_a_round_cut_short_is_completed_by_its_retry_and_made_once(
        games: GameService) -> None:
    """CreateRound of 40 games stopped after its fifth game started (a crash halfway): the
    retry with the same request id answers the first call's plan, creates the games that are
    missing and no other; each game is made, started and reported once."""
    request = tournament_pb2.CreateRoundRequest(
        request_id="big", tournament="crash-round", round=1, options=quick_options(),
        games=[tournament_pb2.RoundTable(seats=[player(f"p{g}"), player(f"q{g}"),
                                                player(f"r{g}")]) for g in range(40)])
    copies = 0
    results = games.results

    class Died(Exception):
        """The process stops here: nothing after this point of CreateRound runs."""

    class CopyThenDie:
        """The results feed, until the fifth commit's copy."""

        async def sync_after_commit(self, game_id: str, label: str) -> None:
            nonlocal copies
            await results.sync_after_commit(game_id, label)
            copies += 1
            if copies == 5:  # after the fifth game's start: the round is half made
                raise Died

    games.effects.facts = CopyThenDie()
    with pytest.raises(Died):
        await games.rounds.create(request, ANONYMOUS)
    games.effects.facts = results
    made = {f.game_id for f in await feed(games, "crash-round")
            if f.WhichOneof("kind") == "created"}
    assert 2 <= len(made) < 40

    retried = await games.rounds.create(request, ANONYMOUS)
    ids = [g.game_id for g in retried.games]
    assert made <= set(ids) and len(set(ids)) == 40
    assert await games.rounds.create(request, ANONYMOUS) == retried
    listed = await games.queries.list(service_pb2.ListGamesRequest(tournament="crash-round",
                                                           page_size=100))
    assert sorted(g.game_id for g in listed.games) == sorted(ids)
    assert all(g.status == service_pb2.GAME_STATUS_ACTIVE for g in listed.games)
    facts = await feed(games, "crash-round")
    assert [f.seq for f in facts] == list(range(1, 81))
    per_game = collections.Counter((f.game_id, f.WhichOneof("kind")) for f in facts)
    assert set(per_game.values()) == {1} and len(per_game) == 80  # created + started each
