"""'Your turn' and invitation webhooks (docs/notifications.md) from real service processes on a
real Redis to the receiver process of test_webhooks.py, which verifies every delivery with the
standardwebhooks library: every turn of a 4-player game played with player tokens reaches its
player, except while that player streams the game, across a kill -9 of the service mid-move
and a receiver that is down for a while; nothing lost, duplicates only with the same id."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from typing import Any

import grpc
import redis.asyncio as aioredis

from risk_proto.risk.v1 import player_games_pb2, service_pb2
from risk_testing.harness import ServiceFactory
from risk_testing.rpc import bearer
from tests.service import test_webhooks as hooks
from tests.service.test_my_games import Stub, new_player, player_game

Receiver, hook_env, wait_for = hooks.Receiver, hooks.hook_env, hooks.wait_for
# the webhook tests' fixtures (the receiver process, the secret), found by name
secret, receivers = hooks.secret, hooks.receivers

MOVES = 60  # commits driven by the players (the kill and the receiver's absence among them)
WATCHER = 2  # the seat whose player keeps the game open the whole time


def turns(records: list[dict[str, Any]], game_id: str) -> list[dict[str, Any]]:
    return [r for r in records if r["envelope"]["type"] == "turn.started"
            and r["envelope"]["data"]["game_id"] == game_id]


class GameWatcher:
    """A player's StreamEvents of their own game, read in the background (the page open)."""

    def __init__(self, target: str, game_id: str, token: str) -> None:
        self.seen = 0
        self.channel = grpc.aio.insecure_channel(target)
        self.call = Stub(self.channel).StreamEvents(
            service_pb2.StreamEventsRequest(game_id=game_id), metadata=bearer(token))
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(grpc.aio.AioRpcError):
            async for _reply in self.call:
                self.seen += 1

    def opened(self) -> bool:
        """The stream has sent its first message (so its presence is noted)."""
        return self.seen > 0

    async def close(self) -> None:
        self.call.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        await self.channel.close()


async def test_every_turn_reaches_its_player_unless_they_stream_the_game(
        make_service: ServiceFactory, redis_client: aioredis.Redis,
        receivers: Callable[[], Receiver], secret: str) -> None:
    """Four players play with their player tokens; seat 2's player streams the game all along.
    Every turn of seats 0, 1 and 3 arrives as a verified turn.started (game, seat, player,
    deadline), none of seat 2's, though the service is killed -9 in the middle of a move and
    the receiver is down for a stretch; every delivery of one turn carried one webhook-id."""
    receiver = receivers()
    receiver.start()
    service = make_service(**hook_env(secret, receiver.url))
    rng = random.Random(34)
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        players = [await new_player(stub) for _ in range(4)]
        ids, tokens = [p for p, _ in players], [t for _, t in players]
        game_id = (await player_game(stub, tokens[0], ids, players=4)).game.game_id
    watcher = GameWatcher(service.target, game_id, tokens[WATCHER])
    await wait_for("the watcher's stream open", watcher.opened)
    expected: set[tuple[int, int]] = set()  # (version, seat) of each turn's start, as seen
    last_seat = -1
    try:
        for done in range(MOVES):
            async with grpc.aio.insecure_channel(service.target) as channel:
                stub = Stub(channel)
                game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
                seat = game.decision.seats[0]
                if seat != last_seat:
                    expected.add((game.version, seat))
                    last_seat = seat
                auth = bearer(tokens[seat])
                legal = await stub.ListLegalActions(
                    service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=auth)
                submit = stub.SubmitAction(service_pb2.SubmitActionRequest(
                    game_id=game_id, action=rng.choice(legal.actions).action,
                    expected_version=legal.version), metadata=auth)
                if done == MOVES // 3:  # killed while the move is on its way or committing
                    await asyncio.sleep(rng.random() * 0.005)
                    service.kill()
                    with contextlib.suppress(grpc.aio.AioRpcError):
                        await submit
                    await watcher.close()
                    service.start()
                    watcher = GameWatcher(service.target, game_id, tokens[WATCHER])
                    await wait_for("the watcher back", watcher.opened)
                    continue
                await submit
            if done == MOVES // 2:
                receiver.stop()
            if done == 3 * MOVES // 4:
                receiver.start()
        async with grpc.aio.insecure_channel(service.target) as channel:
            game = (await Stub(channel).GetGame(
                service_pb2.GetGameRequest(game_id=game_id))).game
            if game.decision.seats[0] != last_seat:
                expected.add((game.version, game.decision.seats[0]))
        told = {(v, s) for v, s in expected if s != WATCHER}
        assert len(told) > 20 and any(s == WATCHER for _, s in expected)

        def arrived() -> set[tuple[int, int]]:
            return {(r["envelope"]["data"]["version"], r["envelope"]["data"]["seat"])
                    for r in turns(receiver.delivered(), game_id)}

        await wait_for("every turn of the seats not watching", lambda: arrived() >= told,
                       timeout=60)
        # the player's own stream holds every turn too, the watcher's included
        async with grpc.aio.insecure_channel(service.target) as channel:
            for seat in range(4):
                stream = Stub(channel).StreamPlayerEvents(
                    player_games_pb2.StreamPlayerEventsRequest(), metadata=bearer(tokens[seat]))
                mine = {(v, s) for v, s in expected if s == seat}
                got: set[tuple[int, int]] = set()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(10):
                        async for reply in stream:
                            if reply.event.WhichOneof("kind") == "turn":
                                got.add((reply.event.game_version, reply.event.seat))
                            if got >= mine:
                                break
                stream.cancel()
                assert got == mine, (seat, sorted(mine - got), sorted(got - mine))
    finally:
        await watcher.close()
    records = turns(receiver.records(), game_id)
    assert all(r["verified"] for r in records)
    assert arrived() == told, sorted(arrived() ^ told)
    by_turn: dict[tuple[int, int], set[str]] = {}
    for record in records:
        data = record["envelope"]["data"]
        by_turn.setdefault((data["version"], data["seat"]), set()).add(record["id"])
        assert data["player_id"] == ids[data["seat"]]
        assert data["deadline_ms"] > 0 and data["variant"] == "classic"
    assert all(len(seen) == 1 for seen in by_turn.values()), by_turn


async def test_an_invitation_is_sent_to_its_player(
        make_service: ServiceFactory, redis_client: aioredis.Redis,
        receivers: Callable[[], Receiver], secret: str) -> None:
    """An invitation by player id arrives as a verified invitation.created naming the game,
    the seat, the invitee, the host player and its expiry; a link (nobody to tell) sends
    none."""
    receiver = receivers()
    receiver.start()
    service = make_service(**hook_env(secret, receiver.url))
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        (ann, ann_t), (bob, _bob_t) = [await new_player(stub) for _ in range(2)]
        game_id = (await player_game(stub, ann_t, [ann, "", ""])).game.game_id
        made = await stub.CreateInvitation(player_games_pb2.CreateInvitationRequest(
            game_id=game_id, seat=1, invitee=bob), metadata=bearer(ann_t))
        await stub.CreateInvitation(player_games_pb2.CreateInvitationRequest(
            game_id=game_id, seat=2, link=True), metadata=bearer(ann_t))

    def invited() -> list[dict[str, Any]]:
        return [r for r in receiver.delivered()
                if r["envelope"]["type"] == "invitation.created"]

    got = await wait_for("the invitation's webhook", invited)
    data = got[0]["envelope"]["data"]
    assert data == {"game_id": game_id, "variant": "classic", "seat": 1, "player_id": bob,
                    "invitation_id": made.invitation_id, "host_player": ann,
                    "expires_at_ms": made.expires_at_ms}
    assert got[0]["verified"]
    assert len(invited()) == 1
