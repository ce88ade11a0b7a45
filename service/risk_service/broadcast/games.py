"""StreamGames: many games in one stream (issue 37 item 1; docs/broadcasts.md).

A stream follows a set of games that may grow while it runs: a tournament's games (or one
round's), read off the tournament's results feed (each game's `created` fact adds it, the
rounds created later included); a list of games; or a player's games (those of the player's
"my games" index not over yet, then each game the player's stream says has started). Each
game is streamed as a spectator of it streams it, by the same operation (`Streams.items`:
the stored backlog then the live feed, the spectator delay, the draws withheld in a duplicate
round in play), so a StreamGames stream shows nothing a spectator of each game would not see.

The games' streams are merged into one: every event is tagged with its game
(`GameEventItem`), a game is announced (`GameAdded`) before its first event and retired
(`GameRemoved`) after its last (its terminal event: finished, abandoned, cancelled). Every
message carries the resume token, the last seq sent of each game (`StreamGamesPosition`,
unpadded base64url), so a stream resumed with it sends each game's events from the next one:
across a restart of the service nothing is missed or repeated. A game over whose last event
the token already covers is not announced again.

The stream announces its featured table as it changes (`FeaturedGame`, by the rule in
broadcast.featured, measured on what the stream sent).

Backpressure is the games' own: the merge holds at most `Limits.subscriber_buffer` messages;
a client that reads slower than that lets a game's subscriber fall behind, which ends the
stream with SUBSCRIBER_TOO_SLOW (resume with the last token), as a single game's stream
ends. A stream follows at most `MAX_LIVE_GAMES` games not over at once.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
from collections import OrderedDict
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, cast

from risk_proto.risk.v1 import broadcast_pb2, player_games_pb2, service_pb2
from risk_rules import wire
from risk_service.broadcast.featured import Featured, kind_of
from risk_service.errors import Code, ServiceError, ServiceReason, malformed
from risk_service.feed import FeedHub, entries_after
from risk_service.operations import records
from risk_service.operations.identity import Caller
from risk_service.operations.limits import Limits
from risk_service.operations.results import check_label, unknown_tournament
from risk_service.operations.streams import Streams
from risk_service.operations.tournament_facts import Fact
from risk_service.store.game_store import GameStore
from risk_service.store.keys import StreamEntries, stream_seq
from risk_service.store.tournament_store import TournamentStore

MAX_LISTED = 64  # games one `games` list may name
MAX_LIVE_GAMES = 256  # games not over one stream follows at once
MY_GAMES_SCAN = 200  # a player's most recent games looked at when the stream opens
FEED_PAGE = 128
EVENT_CACHE = 4096  # encoded GameEventItems kept, shared by the streams of this process

Response = broadcast_pb2.StreamGamesResponse


def encode_token(position: dict[str, int]) -> str:
    data = broadcast_pb2.StreamGamesPosition(after_seq=position).SerializeToString(
        deterministic=True)
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def decode_token(token: str) -> dict[str, int]:
    if not token:
        return {}
    try:
        data = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        return dict(broadcast_pb2.StreamGamesPosition.FromString(data).after_seq)
    except (binascii.Error, ValueError, Exception) as exc:  # DecodeError is an Exception
        raise malformed(f"resume_token is not a token this stream gave: {exc}") from None


@dataclass(frozen=True, slots=True)
class _Event:
    game_id: str
    seq: int
    data: bytes  # the encoded StreamGamesResponse{event}; b"": a seq the spectator is not shown
    terminal: bool
    kind: str = ""  # its case in its variant's oneof (the featured table's rule)
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class _Added:
    game_id: str
    round: int


@dataclass(frozen=True, slots=True)
class _Removed:
    game_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class _Failed:
    error: BaseException


class Broadcasts:
    """StreamGames."""

    def __init__(self, streams: Streams, store: GameStore, tournaments: TournamentStore,
                 hub: FeedHub, limits: Limits, *,
                 player_feed: Callable[[str, int, int], Awaitable[list[tuple[int, bytes]]]]
                 ) -> None:
        self.streams = streams
        self.store = store
        self.tournaments = tournaments
        self.hub = hub
        self.limits = limits
        self.read_player_feed = player_feed  # PlayerFeed.read
        self.events: OrderedDict[tuple[str, bytes], tuple[bytes, bool, str, int]] = \
            OrderedDict()

    async def stream(self, request: broadcast_pb2.StreamGamesRequest, caller: Caller
                     ) -> AsyncIterator[bytes]:
        """Serialised StreamGamesResponse messages (the stream does not end by itself)."""
        follow = request.WhichOneof("follow")
        position = decode_token(request.resume_token)
        source: Callable[[_Merge], Awaitable[None]]
        if follow == "tournament":
            label = request.tournament
            check_label(label)
            if not await self.tournaments.exists(label):
                raise unknown_tournament(label)
            only = request.round if request.HasField("round") else None
            source = lambda merge: self._tournament(merge, label, only)  # noqa: E731
        elif follow == "games":
            listed = list(dict.fromkeys(request.games.game_ids))
            if not 1 <= len(listed) <= MAX_LISTED:
                raise malformed(f"games names 1 to {MAX_LISTED} game ids")
            for game_id in listed:
                if not records.GAME_ID.match(game_id):
                    raise malformed(f"game_id {game_id[:80]!r} is not a game id")
            source = lambda merge: self._listed(merge, listed)  # noqa: E731
        elif follow == "player_id":
            player = request.player_id
            if not 1 <= len(player) <= 128:
                raise malformed("player_id is 1 to 128 characters")
            source = lambda merge: self._player(merge, player)  # noqa: E731
        else:
            raise malformed("name what to follow: tournament (and round), games or player_id")
        merge = _Merge(self, position, caller.peer)
        async with contextlib.aclosing(merge.run(source)) as messages:
            async for message in messages:
                yield message

    # ---- where the games come from ---------------------------------------------------------

    async def _listed(self, merge: _Merge, game_ids: list[str]) -> None:
        for game_id in game_ids:
            await merge.add(game_id, 0)

    async def _tournament(self, merge: _Merge, label: str, only: int | None) -> None:
        facts = entries_after(self.hub, f"t:{label}", self.tournaments.tkeys.feed(label),
                              lambda after, count: self.tournaments.read_feed(label, after,
                                                                              count),
                              0, page=FEED_PAGE, limit=self.limits.subscriber_buffer)
        async for _seq, data in facts:
            fact = Fact.FromString(data)
            if fact.WhichOneof("kind") == "created" and (only is None or fact.round == only):
                await merge.add(fact.game_id, fact.round)

    async def _player(self, merge: _Merge, player: str) -> None:
        keys = self.store.keys
        feed = keys.player(player, "feed")
        last = cast(StreamEntries, await self.store.redis.xrevrange(feed, count=1))
        after = stream_seq(last[0][0]) if last else 0
        games = cast(list[bytes], await self.store.redis.zrevrange(
            keys.player(player, "games"), 0, MY_GAMES_SCAN - 1))
        for game_id in reversed(games):  # oldest first
            record = await self.store.load(game_id.decode())
            if record is not None and record.status not in records.FINAL:
                await merge.add(record.game_id, 0)
        facts = entries_after(self.hub, f"p:{player}", feed,
                              lambda after_seq, count: self.read_player_feed(player, after_seq,
                                                                             count),
                              after, page=FEED_PAGE, limit=self.limits.subscriber_buffer)
        async for _seq, data in facts:
            fact = player_games_pb2.PlayerEvent.FromString(data)
            if fact.WhichOneof("kind") in ("started", "turn"):
                await merge.add(fact.game_id, 0)

    # ---- one game's events, encoded once per process ---------------------------------------

    def encoded(self, game_id: str, data: bytes) -> tuple[bytes, bool, str, int]:
        """A spectator's StreamEventsResponse as a serialised StreamGamesResponse{event},
        whether it is the game's last event, its kind and its commit time (cached: every
        stream of the game shares it)."""
        key = (game_id, data)
        found = self.events.get(key)
        if found is None:
            event = service_pb2.StreamEventsResponse.FromString(data).event
            _variant, decoded = wire.event_from_proto(event)
            found = (Response(event=broadcast_pb2.GameEventItem(
                game_id=game_id, event=event)).SerializeToString(deterministic=True),
                bool(decoded.terminal), kind_of(event), event.at_ms)
            self.events[key] = found
            while len(self.events) > EVENT_CACHE:
                self.events.popitem(last=False)
        return found


class _Merge:
    """One StreamGames stream: a task per followed game (and one for the source of games),
    all putting into one bounded queue that the stream takes from."""

    def __init__(self, broadcasts: Broadcasts, position: dict[str, int], peer: str) -> None:
        self.b = broadcasts
        self.position = position
        self.peer = peer
        self.queue: asyncio.Queue[Any] = asyncio.Queue(broadcasts.limits.subscriber_buffer)
        self.games: dict[str, asyncio.Task[None]] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    async def add(self, game_id: str, round_: int) -> None:
        if game_id in self.games:
            return
        live = sum(1 for task in self.games.values() if not task.done())
        if live >= MAX_LIVE_GAMES:
            await self.queue.put(_Failed(ServiceError(
                Code.RESOURCE_EXHAUSTED, ServiceReason.TOO_MANY_STREAMS,
                f"a StreamGames stream follows at most {MAX_LIVE_GAMES} games not over at "
                "once; follow a round, or fewer games", {"limit": str(MAX_LIVE_GAMES)})))
            return
        self.games[game_id] = self._spawn(self._game(game_id, round_), f"broadcast:{game_id}")

    def _spawn(self, coroutine: Any, name: str) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.create_task(self._guarded(coroutine), name=name)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def _guarded(self, coroutine: Awaitable[None]) -> None:
        try:
            await coroutine
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # told to the stream, which ends with it
            await self.queue.put(_Failed(exc))

    async def _game(self, game_id: str, round_: int) -> None:
        after = self.position.get(game_id, 0)
        record = await self.b.store.load(game_id)
        if record is None:
            await self.queue.put(_Removed(game_id, "gone"))
            return
        if record.status in records.FINAL and after >= record.last_seq:
            return  # over, and its last event was sent before the resume
        await self.queue.put(_Added(game_id, round_))
        request = service_pb2.StreamEventsRequest(game_id=game_id, after_seq=after)
        spectator = Caller(peer=self.peer)  # shown as anyone without a credential sees it
        async with contextlib.aclosing(self.b.streams.items(request, spectator,
                                                            record=record)) as items:
            del record
            async for seq, data in items:
                if not data:
                    await self.queue.put(_Event(game_id, seq, b"", False))
                    continue
                encoded, terminal, kind, at_ms = self.b.encoded(game_id, data)
                await self.queue.put(_Event(game_id, seq, encoded, terminal, kind, at_ms))
                if terminal:
                    break
        await self.queue.put(_Removed(game_id, "over"))

    async def run(self, source: Callable[[_Merge], Awaitable[None]]
                  ) -> AsyncGenerator[bytes, None]:
        self._spawn(source(self), "broadcast:source")
        featured = Featured(self.b.streams.clock_ms)
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, _Failed):
                    raise item.error
                if isinstance(item, _Event):
                    if item.seq <= self.position.get(item.game_id, 0):
                        continue
                    self.position[item.game_id] = item.seq
                    if not item.data:
                        continue
                    yield item.data + self._token()
                    featured.take(item.game_id, item.kind, item.at_ms)
                elif isinstance(item, _Added):
                    yield Response(added=broadcast_pb2.GameAdded(
                        game_id=item.game_id, round=item.round), resume_token=encode_token(
                        self.position)).SerializeToString(deterministic=True)
                else:
                    yield Response(removed=broadcast_pb2.GameRemoved(
                        game_id=item.game_id, reason=item.reason),
                        resume_token=encode_token(self.position)).SerializeToString(
                        deterministic=True)
                    featured.ended(item.game_id)
                if (change := featured.choose()) is not None:
                    yield Response(featured=change, resume_token=encode_token(
                        self.position)).SerializeToString(deterministic=True)
        finally:
            tasks = list(self.tasks)
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await task

    def _token(self) -> bytes:
        """The resume token as an encoded StreamGamesResponse field, appended to an event's
        cached encoding (fields concatenate: the parser merges them into one message)."""
        return Response(resume_token=encode_token(self.position)).SerializeToString()
