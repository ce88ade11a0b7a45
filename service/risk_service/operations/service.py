"""`GameService`: the one object the transports' route table (server.routes) is built on. It
wires the operations' parts together (the cache and the commit path they share, the commands,
moves, reads, streams, timers, export and tournaments); each call of the API is the method of
the part that owns it, which the route table names. It holds no rule itself.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from risk_proto.risk.v1 import service_pb2
from risk_service.broadcast import games as broadcast
from risk_service.broadcast.spectators import SpectatorCounts
from risk_service.director.director import Director, DirectorSettings
from risk_service.director.event_store import EventStore
from risk_service.director.events import Events
from risk_service.feed import FeedHub
from risk_service.matchmaking.service import Matchmaking, MatchMetrics, MatchSettings
from risk_service.operations import views
from risk_service.operations.cache import GameCache
from risk_service.operations.catalogue import Catalogue
from risk_service.operations.commands import Commands
from risk_service.operations.commit import Committer
from risk_service.operations.effects import Effects, Notifier
from risk_service.operations.export import export_page
from risk_service.operations.identity import Caller
from risk_service.operations.invitations import Invitations
from risk_service.operations.limits import Limits
from risk_service.operations.moves import Moves
from risk_service.operations.my_games import MyGames
from risk_service.operations.player_feed import PlayerFeed, Presence
from risk_service.operations.players import Players
from risk_service.operations.queries import Queries
from risk_service.operations.results import Results
from risk_service.operations.rounds import Rounds
from risk_service.operations.sessions import Sessions
from risk_service.operations.streams import Streams
from risk_service.operations.timers import Timers
from risk_service.ratings.service import Ratings
from risk_service.store.game_store import GameRecord, GameStore
from risk_service.store.tournament_store import TournamentStore

if TYPE_CHECKING:  # imports cryptography: only a process with a signing key loads it
    from risk_service.export_signing import ExportSigner


def new_seat_token() -> str:
    """A fresh bearer token (32 random bytes, URL-safe base64) that never starts with "-": a
    command line (`risk --token TOKEN`) would take such a token for an option."""
    while (token := secrets.token_urlsafe(32)).startswith("-"):
        pass
    return token


def commit_ids() -> Callable[[], str]:
    """A source of commit ids (`cid`, 16 hex digits): unique, not secret. A commit id tells
    one commit from another at the same version of a game (a state Redis lost and reached
    again), so it needs no randomness per commit, only no repeats: a random prefix drawn once
    per process, then a counter from a random start (8 fresh random bytes per commit measured
    the same, within noise: bench/RESULTS.md, issue 21)."""
    prefix = secrets.token_hex(4)
    counter = itertools.count(secrets.randbits(32))
    return lambda: f"{prefix}{next(counter) & 0xFFFF_FFFF:08x}"


class GameService:
    def __init__(
        self,
        store: GameStore,
        hub: FeedHub,
        *,
        clock_ms: Callable[[], int],
        limits: Limits | None = None,
        new_token: Callable[[], str] = new_seat_token,
        new_seed: Callable[[], int] = lambda: secrets.randbits(64),
        new_commit_id: Callable[[], str] | None = None,
        on_replay: Callable[[str, int], None] = lambda _kind, _steps: None,
        on_conflict: Callable[[], None] = lambda: None,
        export_signer: ExportSigner | None = None,
        notifier: Notifier | None = None,
        players: Players | None = None,
        matchmaking: MatchSettings | None = None,
        match_metrics: MatchMetrics | None = None,
        director: DirectorSettings | None = None,
    ) -> None:
        self.store = store
        self.export_signer = export_signer  # signs each export's fingerprint (docs/exports.md)
        self.hub = hub
        self.clock_ms = clock_ms
        self.limits = limits or Limits()
        self.new_token = new_token
        self.process_id = secrets.token_hex(8)
        cache = GameCache(self.limits.cached_games)
        # what follows each commit that landed (effects.py): the cache and the store's
        # bookkeeping from here, the bots and the results feed once they are built below
        self.effects = Effects(store, cache)
        # the webhooks (risk_service/notify), where configured: commits then record notices
        self.effects.notifier = notifier
        self.commits = Committer(
            store, cache, clock_ms=clock_ms, limits=self.limits,
            new_commit_id=new_commit_id or commit_ids(), on_conflict=on_conflict,
            effects=self.effects,
        )
        self.commands = Commands(self.commits, new_token=new_token, new_seed=new_seed)
        self.moves = Moves(self.commits)
        self.tournaments = TournamentStore(store.redis, store.keys)
        self.queries = Queries(self.commits, self.tournaments, on_replay=on_replay)
        self.streams = Streams(store, hub, clock_ms=clock_ms, limits=self.limits)
        # spectators per game, counted as the hub adds and drops their streams and published
        # for every process's summaries (broadcast.spectators)
        self.spectators = SpectatorCounts(store.redis, store.keys, process_id=self.process_id,
                                          clock_ms=clock_ms)
        hub.on_watch = self.spectators.watch
        self.sessions = Sessions(self.moves, self.streams)
        self.timers = Timers(self.commits, process_id=self.process_id)
        self.catalogue = Catalogue()
        self.results = Results(self.tournaments, hub, clock_ms=clock_ms, limits=self.limits,
                               resume=self.timers.resume_bots)
        # both commit through self.commits (a bot's move, none for the feed but its resume),
        # so they join the dispatcher after it: StartBots to the timers, CopyFacts to the feed
        self.effects.serve(bots=self.timers, facts=self.results)
        self.rounds = Rounds(self.commands, self.tournaments, self.results, new_token=new_token,
                             timers=self.timers)
        # player tokens (docs/players.md): the deployment's, else the service's own
        self.players = players or Players.ephemeral(clock_ms)
        # a player's games, stream and invitations (docs/players.md); the players' facts of
        # every write go through the dispatcher to the stream, and commits index "my games"
        self.presence = Presence(store.redis, store.keys, process_id=self.process_id,
                                 clock_ms=clock_ms)
        self.player_feed = PlayerFeed(store.redis, store.keys, hub, clock_ms=clock_ms,
                                      limits=self.limits, presence=self.presence,
                                      connection=store.connection, notifier=notifier)
        self.my_games = MyGames(store, self.limits, clock_ms)
        # many games in one stream (StreamGames, docs/broadcasts.md); its module is imported,
        # not its class: broadcast.games imports the operations (a cycle if it came first)
        self.broadcasts = broadcast.Broadcasts(self.streams, store, self.tournaments, hub,
                                               self.limits, player_feed=self.player_feed.read)
        self.effects.players = _PlayerBooks(self.player_feed, self.my_games)
        self.streams.presence = self.presence
        # ratings (docs/ratings.md): a rated game's ending commit records its result, and the
        # dispatcher applies it to its seats' ratings; GetRating and GetLeaderboard read them
        self.ratings = Ratings(store.redis, store.keys, clock_ms=clock_ms, limits=self.limits,
                               connection=store.connection)
        self.effects.ratings = self.ratings
        self.invitations = Invitations(self.commands, self.player_feed, clock_ms=clock_ms,
                                       connection=store.connection)
        # matchmaking (docs/ratings.md): its calls, and the matchmaker `server.app` runs
        self.matchmaking = Matchmaking(self.commands, self.player_feed, self.timers, store.keys,
                                       clock_ms=clock_ms, settings=matchmaking,
                                       ratings=self.ratings.store, metrics=match_metrics)
        # tournament events (docs/tournaments.md, "Events"): their calls, and the director
        # `server.app` runs, which seats their rounds through `rounds`
        event_store = EventStore(store.redis, store.keys.prefix, store.connection)
        self.events = Events(event_store, self.tournaments, self.limits, clock_ms=clock_ms,
                             ratings=self.ratings.store)
        self.director = Director(event_store, self.tournaments, self.rounds, self.limits,
                                 clock_ms=clock_ms, process_id=self.process_id,
                                 settings=director, ratings=self.ratings)
        # campaigns create their games through this (see Commands.open_game)
        self.open_game = self.commands.open_game

    # ---- the calls of the API ----------------------------------------------------------
    # Each call of the contract is one part's method, named in server.routes (the route
    # table every transport serves); only what is composed here is written here.

    async def export(self, request: service_pb2.ExportGameRequest, caller: Caller
                     ) -> service_pb2.GameExport:
        return await export_page(self.store, self.limits, request, caller, self.tournaments,
                                 signer=self.export_signer)

    # ---- for campaigns and the sweeper -------------------------------------------------

    @staticmethod
    def summary(record: GameRecord, state: Any) -> service_pb2.GameSummary:
        """The summary of a game for a caller with a seat or a host: nothing withheld."""
        return views.summary(record, state)

    async def enforce_deadline(self, game_id: str) -> bool:
        """Every timeout due in the game (the rest of a missed correspondence turn too)."""
        return await self.timers.enforce_deadlines(game_id) > 0

    def idle_cutoff(self, status: int) -> int:
        return self.timers.idle_cutoff(status)

    async def abandon_if_idle(self, game_id: str) -> bool:
        return await self.timers.abandon_if_idle(game_id)


class _PlayerBooks:
    """The players' facts and "my games" index, as the effects dispatcher sees them."""

    def __init__(self, feed: PlayerFeed, my_games: MyGames) -> None:
        self.feed = feed
        self.my_games = my_games

    async def intend(self, game_id: str, keys: Iterable[str]) -> None:
        await self.feed.intend(game_id, keys)

    async def after_write(self, game_id: str, keys: Iterable[str]) -> None:
        await self.feed.after_write(game_id, keys)

    async def index(self, game_id: str, players: Iterable[str], at_ms: int) -> None:
        await self.my_games.index(game_id, tuple(players), at_ms)
