"""What follows a commit that landed: the effects a plan lists (commit.plan), as values, and
the one dispatcher that carries them out.

A commit is plan, write, effects. The plan is pure and ends in a tuple of effects; the write is
the one atomic script; then `Effects.run` carries out the effects in the plan's order, each by
the part that owns it: the process cache, the store's secondary indexes, the bot runner
(`Timers`) and the results feed (`Results`). Nothing here is part of the commit: each effect
can be lost with the process that was to carry it out (it died between the write and the
effect; a call cancelled there does not lose them: risk_service/finishing.py); what makes it
good then, today:

- `CacheState` (`GameCache.keep`): nothing to redo, the cache died with the process.
- `IndexGame` (`GameStore.index`, ListGames' status lists): the game is missing from its new
  status's list (lists check each game's status in its hash, so it never shows under a wrong
  one) until the sweepers' scan of the waiting and active lists moves it, within a minute.
- `SetExpiry` (`GameStore.retire`, the expiring index): the game's keys expire anyway (the
  commit set their TTL); its index entries stay, skipped as gone.
- `ScheduleCampaign` (`GameStore.schedule_campaign`): the campaign's entry stays at its previous
  expiry; when it comes due, the expiry check counts from the campaign's own last activity
  (written by the commit, field `active`) and moves the entry on (`CampaignService.expire_if_due`).
- `ScheduleDeadline` (`GameStore.schedule`, the deadline index): the sweepers' scan of the
  active games puts a deadline still the game's back in the index a minute after it passed
  (sweeper.py, `_restart_stalled`); the next deadline pass enforces it.
- `CopyFacts` (`Results.sync_after_commit`): the facts are in the game's hash (the commit wrote
  them); the results sweep copies them, each once.
- `StartBots` (`Timers.start_bots`): the results sweep resumes a tournament game's bots, a due
  deadline a timed game's; the scan of the active games any game's whose bot has been to move
  for a minute (`_restart_stalled`).
- `Notify` (`Notifier.after_commit`, the webhooks): the notices are in the game's hash (the
  commit wrote them), and an intent noted just before the write (`Effects.before_write`) lets
  the sweeper of any process queue them (risk_service/notify/outbox.py), each once.
- `CopyPlayerFacts` (`PlayerFeed.after_write`, the players' streams and their webhooks): the
  facts are in the game's hash (the write put them there), and an intent noted just before the
  write lets the sweeper of any process copy them (operations/player_feed.py), each once.
- `IndexPlayers` (`MyGames.index`, ListMyGames): the game shows with its previous activity
  time (or, never indexed, not at all) until its next commit; `MyGames.rebuild` rebuilds it.
- `ApplyRatings` (`Ratings.after_write`, risk_service/ratings): the rated result is in the
  game's hash (the commit wrote it), and an intent noted just before the write lets the
  sweeper of any process apply it, each seat's rating once (ratings/service.py).

Every effect may be carried out twice (a sweep racing the process, a retried run) without
harm: the index writes are sets, a fact is appended only after its predecessor
(`TournamentStore.copy`), and a game's bots play under one lease.

The bot runner and the results feed are built on the committer (a bot's move is a commit), so
they are given to the dispatcher once, by `GameService` right after it builds them (`serve`);
the effects of the commit path itself (cache, indexes, expiry, deadlines) need nothing more
than the store and the cache it is built with.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from risk_service.operations.cache import GameCache
from risk_service.store.game_store import GameRecord, GameStore


@dataclass(frozen=True, slots=True)
class CacheState:
    """Keep the committed state in the process cache (the record as the commit left it)."""

    record: GameRecord
    state: Any


@dataclass(frozen=True, slots=True)
class IndexGame:
    """Move the game from `old_status`'s ListGames lists to `status`'s."""

    game_id: str
    variant: str
    old_status: int
    status: int


@dataclass(frozen=True, slots=True)
class SetExpiry:
    """The game ended: drop its deadline and note when its keys expire (`expires_ms`)."""

    game_id: str
    variant: str
    expires_ms: int


@dataclass(frozen=True, slots=True)
class ScheduleCampaign:
    """The commit recorded a game's result in its campaign: the campaign lives on until
    `expires_ms`."""

    campaign_id: str
    expires_ms: int


@dataclass(frozen=True, slots=True)
class ScheduleDeadline:
    """Record the game's pending decision deadline in the deadline index (0: none)."""

    game_id: str
    deadline_ms: int


@dataclass(frozen=True, slots=True)
class CopyFacts:
    """The commit recorded tournament facts in the game's hash: copy them to `label`'s feed."""

    game_id: str
    label: str


@dataclass(frozen=True, slots=True)
class StartBots:
    """The commit left a bot seat to decide: make sure a task plays it."""

    game_id: str


@dataclass(frozen=True, slots=True)
class Notify:
    """The commit recorded webhook notices in the game's hash (operations/notices.py): queue
    them. An effect with a step before the write (`Effects.before_write`)."""

    game_id: str
    version: int


@dataclass(frozen=True, slots=True)
class CopyPlayerFacts:
    """The write recorded players' facts in the game's hash under `keys` (player_facts.py):
    copy them to the players' streams. Like `Notify`, with a step before the write."""

    game_id: str
    keys: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class IndexPlayers:
    """The game of `players` had activity at `at_ms`: their ListMyGames index."""

    game_id: str
    players: tuple[str, ...]
    at_ms: int


@dataclass(frozen=True, slots=True)
class ApplyRatings:
    """The commit finished a rated game and recorded its result in the game's hash
    (ratings/record.py): update its seats' ratings. Like `Notify`, with a step before the
    write."""

    game_id: str


Effect = (CacheState | IndexGame | SetExpiry | ScheduleCampaign | ScheduleDeadline
          | CopyFacts | StartBots | Notify | CopyPlayerFacts | IndexPlayers | ApplyRatings)


class BotRunner(Protocol):
    def start_bots(self, game_id: str) -> None: ...


class FactCopier(Protocol):
    async def sync_after_commit(self, game_id: str, label: str) -> None: ...


class Notifier(Protocol):
    """The webhooks (risk_service/notify/webhooks.py), as the operations see them."""

    async def intend(self, game_id: str, version: int) -> None: ...
    async def after_commit(self, game_id: str, version: int) -> None: ...
    async def enqueue(self, event_type: str, payload: dict[str, Any], *,
                      key: str | None = None) -> str: ...


class PlayerBooks(Protocol):
    """The players' streams and indexes (player_feed.py, my_games.py), as effects see them."""

    async def intend(self, game_id: str, keys: Iterable[str]) -> None: ...
    async def after_write(self, game_id: str, keys: Iterable[str]) -> None: ...
    async def index(self, game_id: str, players: Iterable[str], at_ms: int) -> None: ...


class RatingBooks(Protocol):
    """The ratings (ratings/service.py), as effects see them."""

    async def intend(self, game_id: str) -> None: ...
    async def after_write(self, game_id: str) -> None: ...


def lone_cache(effects: Sequence[Effect]) -> CacheState | None:
    """The effects' `CacheState` when it is all they are (most moves' only effect): it has no
    step before the write and nothing to await after it, so a committer keeps it with
    `Effects.cache_state` instead of going through `before_write` and `run` (each await one
    more frame every resumption of a move passes through)."""
    if len(effects) == 1 and isinstance(effects[0], CacheState):
        return effects[0]
    return None


class EffectsNotServed(RuntimeError):
    """An effect of bots or facts before `Effects.serve`: a process built wrongly."""


class Effects:
    """Carries out a landed commit's effects, in order, each exactly as the plan says."""

    def __init__(self, store: GameStore, cache: GameCache) -> None:
        self.store = store
        self.cache = cache
        self.bots: BotRunner | None = None
        self.facts: FactCopier | None = None
        # the webhooks, where configured: plans record notices only then (Committer)
        self.notifier: Notifier | None = None
        # players' streams and "my games" (GameService sets it once it is built)
        self.players: PlayerBooks | None = None
        # the ratings (GameService sets it once it is built)
        self.ratings: RatingBooks | None = None

    def serve(self, *, bots: BotRunner, facts: FactCopier) -> None:
        """Hand StartBots to `bots` and CopyFacts to `facts` (both built on the committer
        this dispatcher serves, so given after it; once, by GameService)."""
        self.bots = bots
        self.facts = facts

    async def before_write(self, effects: Iterable[Effect]) -> None:
        """What must precede the write: the intent of a `Notify`, a `CopyPlayerFacts` or an
        `ApplyRatings`, so that its notices, facts or ratings go out even if this process dies
        right after the write (notify/outbox.py, player_feed.py, ratings/service.py)."""
        for effect in effects:
            if isinstance(effect, Notify):
                if self.notifier is None:
                    raise EffectsNotServed("Notify without a notifier")
                await self.notifier.intend(effect.game_id, effect.version)
            elif isinstance(effect, CopyPlayerFacts):
                if self.players is None:
                    raise EffectsNotServed("CopyPlayerFacts without the players' books")
                await self.players.intend(effect.game_id, effect.keys)
            elif isinstance(effect, ApplyRatings):
                if self.ratings is None:
                    raise EffectsNotServed("ApplyRatings without the ratings")
                await self.ratings.intend(effect.game_id)

    def cache_state(self, effect: CacheState) -> None:
        """`CacheState`, the one effect with nothing to await (`lone_cache`)."""
        self.cache.keep(effect.record, effect.state)

    async def run(self, effects: Iterable[Effect]) -> None:
        for effect in effects:
            match effect:
                case CacheState():
                    self.cache_state(effect)
                case IndexGame(game_id, variant, old_status, status):
                    await self.store.index(game_id, variant, old_status, status)
                case SetExpiry(game_id, variant, expires_ms):
                    await self.store.retire(game_id, variant, expires_ms)
                case ScheduleCampaign(campaign_id, expires_ms):
                    await self.store.schedule_campaign(campaign_id, expires_ms)
                case ScheduleDeadline(game_id, deadline_ms):
                    await self.store.schedule(game_id, deadline_ms)
                case CopyFacts(game_id, label):
                    if self.facts is None:
                        raise EffectsNotServed("CopyFacts before Effects.serve")
                    await self.facts.sync_after_commit(game_id, label)
                case StartBots(game_id):
                    if self.bots is None:
                        raise EffectsNotServed("StartBots before Effects.serve")
                    self.bots.start_bots(game_id)
                case Notify(game_id, version):
                    if self.notifier is None:
                        raise EffectsNotServed("Notify without a notifier")
                    await self.notifier.after_commit(game_id, version)
                case CopyPlayerFacts(game_id, keys):
                    if self.players is None:
                        raise EffectsNotServed("CopyPlayerFacts without the players' books")
                    await self.players.after_write(game_id, keys)
                case IndexPlayers(game_id, players, at_ms):
                    if self.players is None:
                        raise EffectsNotServed("IndexPlayers without the players' books")
                    await self.players.index(game_id, players, at_ms)
                case ApplyRatings(game_id):
                    if self.ratings is None:
                        raise EffectsNotServed("ApplyRatings without the ratings")
                    await self.ratings.after_write(game_id)
