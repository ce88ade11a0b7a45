"""A Risk Legacy campaign whose seats are bound to players (CreateCampaign's `seat_players`,
docs/players.md) through a real service process on a real Redis, with the webhook receiver
process of test_webhooks.py verifying every delivery: two games played in a row, every move
and every reward decision taken with the players' own tokens; each player lists the
campaign's games, follows them in their stream and is told of their turns by webhook; another
player's token is refused on a bound seat, the campaign's seat tokens still act."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc
import redis.asyncio as aioredis

from risk_proto.risk.v1 import legacy_pb2, player_games_pb2, service_pb2
from risk_testing.harness import ServiceFactory
from risk_testing.rpc import bearer, error_info, rpc_error
from tests.service import test_webhooks as hooks
from tests.service.test_campaign_service import CHOICES, _play, _take_rewards
from tests.service.test_my_games import Stub, my_games, new_player, player_stream

Receiver, hook_env, wait_for = hooks.Receiver, hooks.hook_env, hooks.wait_for
# the webhook tests' fixtures (the receiver process, the secret), found by name
secret, receivers = hooks.secret, hooks.receivers


def _request(seat_players: list[str]) -> service_pb2.CreateCampaignRequest:
    return service_pb2.CreateCampaignRequest(
        players=3, seat_names=["ann", "bob", "cy"], seat_players=seat_players,
        factions=[legacy_pb2.FactionChoice(faction=f, power=p)  # type: ignore[arg-type]
                  for f, p in CHOICES])


def _turn_hooks(records: list[dict[str, Any]], player: str) -> set[tuple[str, int]]:
    """(game, version) of every verified turn.started delivered for `player`."""
    return {(r["envelope"]["data"]["game_id"], r["envelope"]["data"]["version"])
            for r in records if r["envelope"]["type"] == "turn.started"
            and r["envelope"]["data"]["player_id"] == player}


async def test_campaign_bound_to_players_is_played_with_player_tokens_only(
        make_service: ServiceFactory, redis_client: aioredis.Redis,
        receivers: Callable[[], Receiver], secret: str) -> None:
    """Ann (a player) creates a campaign whose seats are ann's, bob's and cy's, and starts
    both of its games with her own token; all three play every move and take every reward
    decision with their player tokens. Each lists both games (seat, status), their stream
    shows each game start, their turns in it and its end, and every one of those turns was
    also a verified turn.started webhook; bob's token is PERMISSION_DENIED / WRONG_SEAT on
    ann's seat, an outsider's likewise (and for a reward decision) and NOT_HOST for the next
    game; seat tokens act."""
    receiver = receivers()
    receiver.start()
    service = make_service(**hook_env(secret, receiver.url))
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        players = [await new_player(stub) for _ in range(4)]
        ids, tokens = [p for p, _ in players[:3]], [t for _, t in players[:3]]
        outsider = players[3][1]
        twice = await rpc_error(stub.CreateCampaign(_request([ids[0], ids[0]]),
                                                    metadata=bearer(tokens[0])))
        assert twice.code() == grpc.StatusCode.INVALID_ARGUMENT
        created = await stub.CreateCampaign(_request(ids), metadata=bearer(tokens[0]))
        campaign_id = created.campaign.campaign_id
        assert list(created.campaign.seat_players) == ids
        assert len(created.seat_tokens) == 3, "the campaign's seat tokens are still issued"
        streams = [player_stream(service.target, t) for t in tokens]
        opened = [await s.__aenter__() for s in streams]
        try:
            game_ids = []
            for number, seed in ((1, 11), (2, 12)):
                refused = await rpc_error(stub.StartCampaignGame(
                    service_pb2.StartCampaignGameRequest(campaign_id=campaign_id),
                    metadata=bearer(outsider)))
                assert refused.code() == grpc.StatusCode.PERMISSION_DENIED
                assert error_info(refused).reason == "NOT_HOST"
                started = await stub.StartCampaignGame(service_pb2.StartCampaignGameRequest(
                    campaign_id=campaign_id, seed=seed, max_turns=40),
                    metadata=bearer(tokens[0]))
                game_id = started.game.game_id
                assert game_id == f"{campaign_id}.{number}"
                assert [s.player_id for s in started.game.seats] == ids
                game_ids.append(game_id)
                await _refusals(stub, game_id, tokens, outsider)
                await _play(stub, game_id, tokens, number)
                await _take_rewards(stub, campaign_id, tokens)
            # an outsider's player token holds no seat of the campaign: it reads as anyone
            # does and takes no decision
            outside = await stub.GetCampaign(service_pb2.GetCampaignRequest(
                campaign_id=campaign_id), metadata=bearer(outsider))
            assert outside.viewer_seat == -1 and not outside.legal_rewards
            refused = await rpc_error(stub.SubmitCampaignDecision(
                service_pb2.SubmitCampaignDecisionRequest(campaign_id=campaign_id),
                metadata=bearer(outsider)))
            assert refused.code() == grpc.StatusCode.PERMISSION_DENIED
            assert error_info(refused).reason == "WRONG_SEAT"
            # the campaign's seat token still acts: it reads its seat's view of the campaign
            seat_view = await stub.GetCampaign(service_pb2.GetCampaignRequest(
                campaign_id=campaign_id), metadata=bearer(created.seat_tokens[1]))
            assert seat_view.viewer_seat == 1
            final = (await stub.GetCampaign(service_pb2.GetCampaignRequest(
                campaign_id=campaign_id), metadata=bearer(tokens[2]))).campaign
            assert final.state.games_played == 2 and list(final.game_ids) == game_ids
            for seat, stream in enumerate(opened):
                await stream.until(lambda s=stream: sum(  # type: ignore[misc]
                    e.WhichOneof("kind") == "finished" for e in s.events) == 2,
                    "both games' ends in the player's stream")
                _check_stream(stream.events, ids[seat], seat, game_ids)
        finally:
            for s in streams:
                await s.__aexit__(None, None, None)
        for seat, token in enumerate(tokens):
            listed = await my_games(stub, token)
            assert sorted(g.game.game_id for g in listed) == game_ids
            assert all(g.seat == seat and g.game.status == service_pb2.GAME_STATUS_FINISHED
                       for g in listed)
    # every turn in the players' streams was told by webhook, and nothing else was
    turn_facts = {ids[seat]: {(e.game_id, e.game_version) for e in stream.events
                              if e.WhichOneof("kind") == "turn"}
                  for seat, stream in enumerate(opened)}
    for player in ids:
        assert turn_facts[player], f"{player} had no turn in two games"
        await wait_for(f"{player}'s turn webhooks", lambda p=player: _turn_hooks(  # type: ignore[misc]
            receiver.delivered(), p) == turn_facts[p])
    assert all(r["verified"] for r in receiver.records())


async def _refusals(stub: Stub, game_id: str, tokens: list[str], outsider: str) -> None:
    """Another player's token on a bound seat, and an outsider's, act for nobody there."""
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    seat = game.decision.seats[0]
    legal = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(game_id=game_id),
                                        metadata=bearer(tokens[seat]))
    other = tokens[(seat + 1) % len(tokens)]
    for token in (other, outsider):
        refused = await rpc_error(stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game_id, action=legal.actions[0].action, expected_version=legal.version,
            seat=seat), metadata=bearer(token)))
        assert refused.code() == grpc.StatusCode.PERMISSION_DENIED
        assert error_info(refused).reason == "WRONG_SEAT"
    viewed = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                metadata=bearer(outsider))
    assert viewed.viewer_seat == -1, "an outsider's player token reads as a spectator"
    after = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    assert after.version == game.version, "a refused move changed nothing"


def _check_stream(events: list[player_games_pb2.PlayerEvent], player: str, seat: int,
                  game_ids: list[str]) -> None:
    """Each game: started, then the player's turns (their own seat), then finished; the
    stream's seqs without gaps."""
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert all(e.player_id == player and e.seat == seat for e in events)
    for game_id in game_ids:
        kinds = [e.WhichOneof("kind") for e in events if e.game_id == game_id]
        assert kinds[0] == "started" and kinds[-1] == "finished", kinds
        assert set(kinds[1:-1]) <= {"turn"}, kinds
