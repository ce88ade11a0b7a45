"""The featured table (issue 37 item 2): a StreamGames stream of a tournament whose games bots
play announces its featured game by the documented rule, which the test measures itself from
the events the stream sent: score = 2 x battles + 5 x conquests among a game's last 20 events
+ 20 x eliminations, 0 once over; the featured game is the best scorer, replaced only by one
at least max(5, a fifth) ahead or when it ends. A round created later, whose game outlives
the first (created once the first has the table), takes it: the stream switches."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict, deque

import grpc

from risk_proto.risk.v1 import broadcast_pb2, service_pb2_grpc, tournament_pb2
from risk_testing.harness import ServiceFactory
from risk_testing.rpc import classic_options

Stub = service_pb2_grpc.RiskServiceStub
BATTLES = {"battle_resolved", "battle_rolled"}


def _round(number: int, max_turns: int) -> tournament_pb2.CreateRoundRequest:
    bots = [tournament_pb2.RoundSeat(bot=tournament_pb2.BOT_LEVEL_GREEDY) for _ in range(2)]
    return tournament_pb2.CreateRoundRequest(
        request_id=f"r{number}", tournament="tv", round=number,
        options=classic_options(players=2, setup=2, auto_place=True, auto_defend_max_dice=True,
                                max_turns=max_turns),
        games=[tournament_pb2.RoundTable(seats=bots)])


class Rule:
    """The documented rule, measured from the stream's own events."""

    def __init__(self) -> None:
        self.recent: dict[str, deque[str]] = defaultdict(lambda: deque(maxlen=20))
        self.eliminated: dict[str, int] = defaultdict(int)
        self.over: set[str] = set()

    def take(self, item: broadcast_pb2.GameEventItem) -> None:
        variant = item.event.WhichOneof("variant")
        kind = getattr(item.event, variant).WhichOneof("kind") if variant else ""
        self.recent[item.game_id].append(kind or "")
        self.eliminated[item.game_id] += kind == "player_eliminated"

    def score(self, game_id: str) -> int:
        if game_id in self.over:
            return 0
        kinds = self.recent[game_id]
        return (2 * sum(k in BATTLES for k in kinds) + 5 * kinds.count("territory_conquered")
                + 20 * self.eliminated[game_id])


async def test_the_featured_table_follows_its_rule_and_switches(
        make_service: ServiceFactory, redis_client: object) -> None:
    """Every `featured` message names the best scorer by the rule as the client measures it,
    with that score; a switch away from a game still in play needs the margin; the table
    goes to round 2's game once round 1's (shorter) game is over."""
    service = make_service(RISK_BOT_ONLY_MOVE_MS="20")
    rule = Rule()
    announced: list[broadcast_pb2.FeaturedGame] = []
    order: list[str] = []
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        first = (await stub.CreateRound(_round(1, 6))).games[0].game_id
        call = stub.StreamGames(broadcast_pb2.StreamGamesRequest(tournament="tv"))
        second = ""
        deadline = time.monotonic() + 120  # bots at 20 ms a move, on a loaded machine
        while len(rule.over) < 2:
            assert time.monotonic() < deadline, "the games did not end"
            reply = await asyncio.wait_for(call.read(), 30)
            kind = reply.WhichOneof("kind")
            if kind == "added":
                order.append(reply.added.game_id)
            elif kind == "event":
                rule.take(reply.event)
            elif kind == "removed":
                rule.over.add(reply.removed.game_id)
            elif kind == "featured":
                change = reply.featured
                scores = {g: rule.score(g) for g in order}
                if change.game_id:
                    assert change.score == scores[change.game_id] > 0
                    assert change.score == max(scores.values())
                    previous = announced[-1].game_id if announced else ""
                    if previous and previous not in rule.over and scores[previous] > 0:
                        held = scores[previous]
                        assert change.score >= held + max(5, held // 5)
                else:
                    assert max(scores.values(), default=0) == 0
                announced.append(change)
                if not second:
                    # round 2 (a longer game) starts once round 1's game has the table
                    assert change.game_id == first
                    second = (await stub.CreateRound(_round(2, 20))).games[0].game_id
        call.cancel()
    named = [change.game_id for change in announced if change.game_id]
    assert named[0] == first  # alone at first
    assert second in named[1:]  # the table switched to round 2's game
