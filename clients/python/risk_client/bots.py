"""Bots that play through the public API, with exactly what a seat may see.

A bot follows its game's event stream; when an event it has not yet seen arrives (or the game
has been quiet for a while, in case the stream stalled) it re-reads the game, and whenever the
decision includes its seat it asks for its legal actions, decodes its view, lets the engine's
bot policy (`Ruleset.bot_choose`, at the level asked for: random, greedy or planner) pick, and
submits against the version it read. Losing a race (StaleVersion) or meeting a move the service
refuses (IllegalMove) means re-reading and deciding again, a bounded number of times in a row,
so a disagreement between client and service surfaces as an error instead of a spinning bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ParamSpec, TypeVar

from risk_client.client import CONFLICT_BACKOFF, RiskClient
from risk_client.errors import IllegalMove, StaleVersion, Unavailable
from risk_client.options import classic_options
from risk_proto.risk.v1 import game_pb2, service_pb2
from risk_rules import wire
from risk_rules.engine import LegalAction, get_ruleset
from risk_rules.engine.core.bots import DEFAULT_LEVEL, check_level

MAX_STALE_RETRIES = 20
MAX_ILLEGAL_RETRIES = 3
MAX_UNAVAILABLE_RETRIES = 10
WAITING_POLL_SECONDS = 0.2
IDLE_REREAD_SECONDS = 5.0  # re-read a quiet game this often, in case its stream stalled
_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15  # spreads consecutive versions over the generator's seed space

T = TypeVar("T")
P = ParamSpec("P")

_OVER = frozenset({
    service_pb2.GAME_STATUS_FINISHED,
    service_pb2.GAME_STATUS_ABANDONED,
    service_pb2.GAME_STATUS_CANCELLED,
})


class BotError(RuntimeError):
    """A bot cannot play: its token holds no seat, or the game kept moving under it."""


def is_over(game: service_pb2.GetGameResponse) -> bool:
    return game.game.status in _OVER or game.game.HasField("outcome")


def decision_entropy(entropy: int, version: int, attempt: int = 0) -> int:
    """The bot's seed for one decision: its own entropy, the game version and the retry."""
    return (entropy + (version * 2 + 1) * _GOLDEN + attempt) & _MASK64


async def _transient(call: Callable[P, Awaitable[T]], *args: P.args, **kwargs: P.kwargs) -> T:
    """`call(...)`, retried with a growing pause while the service is UNAVAILABLE."""
    for attempt in range(1, MAX_UNAVAILABLE_RETRIES + 1):
        try:
            return await call(*args, **kwargs)
        except Unavailable:
            if attempt == MAX_UNAVAILABLE_RETRIES:
                raise
            await asyncio.sleep(min(2.0, 0.05 * 2**attempt))
    raise AssertionError("unreachable")


def choose(
    game: service_pb2.GetGameResponse,
    legal: service_pb2.ListLegalActionsResponse,
    entropy: int,
    level: str = DEFAULT_LEVEL,
) -> game_pb2.Action:
    """The engine bot's pick at `level` (`LEVELS`: random, greedy, planner) from this seat's
    view and legal actions, as a wire action."""
    variant = wire.variant_name(game.game.variant)
    rules = get_ruleset(variant)
    view: Any = wire.from_message(wire.view_from_proto(game.board)[1], rules.view_type)
    entries = [
        LegalAction(action=wire.action_from_proto(pb.action)[1], max_count=pb.max_count)
        for pb in legal.actions
    ]
    return wire.action_to_proto(variant, rules.bot_choose(view, entries, entropy, level))


class _Feed:
    """The newest event seq a seat's stream has delivered, followed in a background task.

    A bot waits on this rather than on the stream itself, so it can also wake on a timer: if
    the stream stalls, the bot still re-reads the game now and then instead of hanging.
    """

    def __init__(self, client: RiskClient, game_id: str, after_seq: int) -> None:
        self.latest = after_seq
        self.changed = asyncio.Event()
        self.error: BaseException | None = None
        self.ended = False
        self._task = asyncio.create_task(self._follow(client, game_id, after_seq))

    async def _follow(self, client: RiskClient, game_id: str, after_seq: int) -> None:
        try:
            async for event in client.stream_events(game_id, after_seq=after_seq):
                self.latest = event.seq
                self.changed.set()
        except Exception as exc:  # the bot re-raises it when it next waits
            self.error = exc
        finally:
            self.ended = True
            self.changed.set()

    async def wait_beyond(self, seq: int, timeout: float) -> None:
        """Until an event after `seq` has arrived, or `timeout` seconds passed."""
        while self.latest <= seq:
            if self.error is not None:
                raise self.error
            if self.ended:
                await asyncio.sleep(timeout)  # the service ended the stream: poll instead
                return
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), timeout)
            except TimeoutError:
                return

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


async def play_seat(
    client: RiskClient,
    game_id: str,
    seat_token: str,
    entropy: int,
    *,
    level: str = DEFAULT_LEVEL,
) -> service_pb2.GetGameResponse:
    """Play the seat `seat_token` holds with the bot at `level` until the game is over;
    return the last GetGame."""
    check_level(level)  # before joining the game's stream: a typo fails at once
    seat_client = client.with_token(seat_token)
    game = await _transient(seat_client.get_game, game_id)
    seat = game.viewer_seat
    if seat < 0:
        raise BotError("the token holds no seat in this game")
    feed = _Feed(seat_client, game_id, game.game.last_seq)
    stale = illegal = 0
    try:
        while not is_over(game):
            if seat not in game.game.decision.seats:
                # seats joining make no events, so a waiting game is polled more often
                waiting = game.game.status == service_pb2.GAME_STATUS_WAITING
                await feed.wait_beyond(
                    game.game.last_seq, WAITING_POLL_SECONDS if waiting else IDLE_REREAD_SECONDS
                )
                game = await _transient(seat_client.get_game, game_id)
                continue
            legal = await _transient(seat_client.legal_actions, game_id)
            if legal.version != game.game.version or not legal.actions:
                # the game moved between the two reads: read it again before deciding
                stale += 1
                if stale > MAX_STALE_RETRIES:
                    raise BotError(f"seat {seat}: the game kept moving under the bot")
                game = await _transient(seat_client.get_game, game_id)
                continue
            action = choose(game, legal, decision_entropy(entropy, legal.version, illegal),
                            level)
            request_id = uuid.uuid4().hex
            try:
                reply = await _transient(
                    seat_client.submit_action, game_id, action, legal.version, request_id
                )
            except StaleVersion:
                stale += 1
                if stale > MAX_STALE_RETRIES:
                    raise
                await asyncio.sleep(CONFLICT_BACKOFF.delay(stale))  # no retry storm
            except IllegalMove:
                illegal += 1
                if illegal > MAX_ILLEGAL_RETRIES:
                    raise
            else:
                stale = illegal = 0
                if seat not in reply.decision.seats and not reply.HasField("outcome"):
                    # the turn passed: nothing to decide until another seat's events arrive
                    game = _after(game, reply)
                    continue
            game = await _transient(seat_client.get_game, game_id)
    finally:
        await feed.close()
    return game


def _after(
    game: service_pb2.GetGameResponse, reply: service_pb2.SubmitActionResponse
) -> service_pb2.GetGameResponse:
    """`game` with the version, last event and decision of the bot's own accepted action."""
    moved = service_pb2.GetGameResponse()
    moved.CopyFrom(game)
    moved.game.version = reply.version
    moved.game.last_seq = max([game.game.last_seq, *(e.seq for e in reply.events)])
    moved.game.decision.CopyFrom(reply.decision)
    return moved


async def play_game(
    client: RiskClient,
    options: game_pb2.GameOptions | None = None,
    seed: int | None = None,
    players: int = 4,
    *,
    entropy: int = 0,
    levels: Sequence[str] = (),
    on_created: Callable[[service_pb2.GameSummary], Awaitable[None]] | None = None,
) -> service_pb2.GetGameResponse:
    """Create a game, join every seat, play each with a bot; return the final GetGame.

    Without `options` the game is classic for `players` seats with the defender's dice rolled
    automatically. Seat n's bot plays at `levels[n]` (the last level given for the seats
    beyond; greedy when none is given). `on_created` is awaited with the new game before the
    bots start (the command line uses it to print the id and start watching).
    """
    for level in levels:
        check_level(level)
    if options is None:
        options = classic_options(players=players, auto_defend_max_dice=True)
    summary, host_token = await client.create_game(options, seed=seed)
    seats = [s.seat for s in summary.seats] or list(range(players))
    tokens = [await client.join_game(summary.game_id, seat, f"bot {seat}") for seat in seats]
    if on_created is not None:
        await on_created(summary)
    try:
        async with asyncio.TaskGroup() as group:
            for seat, token in zip(seats, tokens, strict=True):
                level = levels[min(seat, len(levels) - 1)] if levels else DEFAULT_LEVEL
                group.create_task(play_seat(client, summary.game_id, token,
                                            (entropy + seat) & _MASK64, level=level))
    except ExceptionGroup as failed:
        # one bot failing stops the others; its error says more than the group around it
        raise failed.exceptions[0] from failed
    return await client.with_token(host_token).get_game(summary.game_id)
